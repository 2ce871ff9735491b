"""Per-paper fragments of the graph, cached between builds so that a rebuild re-emits only what changed.

A paper's *fragment* is what its own statements contribute to ``kg.ttl``:

- its Turtle *chunk*: the subject blocks of the paper and of the resources under its IRI (mentions,
  sentences, results, relation assertions). Those subjects sort together, so in ``kg.ttl`` the chunk
  is one contiguous piece, written as it is;
- its *outside* lines: statements about other subjects (source records, relations between entities,
  extractors, metric entities), as sort-key N-Triples lines, merged with the corpus-wide statements;
- its counts, and the look-ups it made in the corpus-wide :class:`~kg.rdf.evidence.EntityIndex`
  with their answers.

A fragment is reused when the paper's inputs have the same digest (record fields, abstract, the entity
IRIs its mentions resolved to, and a fingerprint of the extraction pipeline and of the code that
writes RDF) *and* replaying its look-ups on the new index gives the same answers. Anything else makes
it again, so a reused fragment is always byte-identical to a fresh one.
"""
from __future__ import annotations

import hashlib
import pickle
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path

import pyoxigraph as ox

from kg.errors import GraphError
from kg.extract.types import PaperExtraction
from kg.ingest.corpus import Paper
from kg.rdf.evidence import EntityIndex
from kg.rdf.streamwrite import sort_key_lines, turtle_blocks
from kg.store.sqlite import SqliteCache

FRAGMENT_FILE = "fragments.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS fragments (
    paper TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    meta BLOB NOT NULL,
    turtle BLOB NOT NULL
) WITHOUT ROWID
"""

#: the modules whose code decides a fragment's bytes, relative to the kg package (besides extraction and
#: the keys of written forms, which the pipeline fingerprint covers)
_WRITER_MODULES = ("rdf", "extract/title.py", "resolve/ids.py", "namespaces.py", "entity_types.py")


def writer_fingerprint(pipeline: str) -> str:
    """A hash of the extraction ``pipeline`` fingerprint, the RDF-writing code and pyoxigraph's version."""
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256(f"{pipeline}\npyoxigraph {ox.__version__}\n".encode())
    for name in _WRITER_MODULES:
        path = root / name
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            h.update(file.name.encode() + b"\n" + file.read_bytes() + b"\n")
    return h.hexdigest()[:32]


Call = tuple[str, tuple, object]


@dataclass
class Fragment:
    """One paper's part of the graph (see the module docstring); ``turtle`` is loaded only to write it."""

    digest: str
    calls: list[Call] = field(default_factory=list)
    outside: list[bytes] = field(default_factory=list)
    links: int = 0
    proposes: int = 0
    triples: int = 0
    turtle: bytes = b""


class RecordingIndex:
    """An :class:`EntityIndex` that records each look-up with its answer, to replay it on a later build."""

    def __init__(self, index: EntityIndex) -> None:
        self.index = index
        self.calls: list[Call] = []

    def find(self, *args):  # type: ignore[no-untyped-def]
        """:meth:`EntityIndex.find`, recorded."""
        answer = self.index.find(*args)
        self.calls.append(("find", args, answer))
        return answer

    def metric(self, *args):  # type: ignore[no-untyped-def]
        """:meth:`EntityIndex.metric`, recorded (the IRI and the entity triples it returns)."""
        iri, triples = self.index.metric(*args)
        self.calls.append(("metric", args, (iri, tuple(triples))))
        return iri, triples


def replays(index: EntityIndex, calls: Iterable[Call]) -> bool:
    """Whether ``index`` answers every recorded look-up as recorded (stops at the first difference).

    The look-ups are made again, so their side effects (the first label of a minted metric) happen in
    the same order as if the fragment were made again."""
    for name, args, answer in calls:
        got = getattr(index, name)(*args)
        if name == "metric":
            got = (got[0], tuple(got[1]))
        if got != answer:
            return False
    return True


def paper_digest(fingerprint: str, paper: Paper, extraction_key: str, link_iris: Sequence[str | None]) -> str:
    """The digest of everything a paper's fragment depends on besides its recorded look-ups."""
    records = [(r.source.file, r.source.position, r.source.line, r.id, r.title, tuple(r.authors), r.year,
                r.venue, tuple(r.keywords), r.doi, r.arxiv, r.url, r.date) for r in paper.records]
    data = pickle.dumps((fingerprint, paper.iri, extraction_key, records, tuple(link_iris)), protocol=4)
    return hashlib.blake2b(data, digest_size=16).hexdigest()


# --------------------------------------------------------------------------- making fragments


_OX_TERMS = (ox.NamedNode, ox.Literal)


def ox_converter():  # type: ignore[no-untyped-def]
    """rdflib term -> pyoxigraph term, IRIs memoised (a graph repeats its predicates, classes and entities);
    pyoxigraph terms pass through."""
    from oxrdflib._converter import to_ox
    from rdflib import BNode, Literal, URIRef

    iris: dict[str, ox.NamedNode] = {}

    def convert(term):  # type: ignore[no-untyped-def]
        kind = type(term)
        if kind in _OX_TERMS:
            return term
        if kind is URIRef:
            node = iris.get(term)
            if node is None:
                node = ox.NamedNode(term)
                if len(iris) < 200_000:
                    iris[term] = node
            return node
        if kind is Literal:
            datatype = term.datatype
            return ox.Literal(term, language=term.language, datatype=convert(datatype) if datatype else None)
        if isinstance(term, BNode):  # a blank node's label would have to be canonicalised over the whole graph
            raise GraphError(f"the statements of a paper hold the blank node {term}; they must use IRIs")
        return to_ox(term)

    return convert


class FragmentMaker:
    """Makes the fragments of papers against one resolution and entity index.

    :meth:`draft` makes a paper's statements (and its look-ups, in the order the caller drafts papers,
    which decides side effects such as a minted metric's first label); :meth:`finish` formats the
    chunks of many drafts as Turtle in one go."""

    def __init__(self, resolution, index: EntityIndex, link_predicates: Iterable[bytes],  # type: ignore[no-untyped-def]
                 proposes: bytes) -> None:
        self.resolution = resolution
        self.index = index
        self.convert = ox_converter()
        self.link_predicates = frozenset(link_predicates)
        self.proposes = proposes

    def draft(self, paper: Paper, extraction: PaperExtraction, digest: str) -> tuple[Fragment, list[bytes]]:
        """A paper's fragment without its Turtle, and its own lines (sorted, distinct, sort-key form)."""
        from kg.rdf.claims import result_triples
        from kg.rdf.papers import link_triples, paper_triples
        from kg.rdf.relations import relation_triples

        recording = RecordingIndex(self.index)
        convert = self.convert
        triples = chain(paper_triples(paper, extraction), link_triples(paper, extraction, self.resolution),
                        result_triples(paper, extraction, recording), relation_triples(paper, extraction, recording))
        data = ox.serialize([ox.Triple(convert(s), convert(p), convert(o)) for s, p, o in triples],
                            format=ox.RdfFormat.N_TRIPLES) or b""
        prefix = b"<" + paper.iri.encode()
        cut = len(prefix)
        own_set, outside = set(), []
        for line in sort_key_lines(data):
            if line.startswith(prefix) and line[cut] in (0, 0x2F):  # the paper itself, or "<paper/..."
                own_set.add(line)
            else:
                outside.append(line)
        own = sorted(own_set)
        links = proposes = 0
        for line in own:
            predicate = line.split(b"\x00 ", 2)[1]
            if predicate == self.proposes:
                proposes += 1
            elif predicate in self.link_predicates:
                links += 1
        return Fragment(digest, recording.calls, outside, links, proposes, len(own)), own

    @staticmethod
    def finish(drafts: Sequence[tuple[Fragment, list[bytes]]]) -> list[Fragment]:
        """Set the Turtle chunk of each drafted fragment (one Turtle serialisation for all of them)."""
        own_lines: list[bytes] = []
        subjects: list[int] = []
        for _fragment, own in drafts:
            own_lines.extend(own)
            subjects.append(len({line[: line.index(b"\x00 ")] for line in own}))
        blocks = turtle_blocks(own_lines)
        at = 0
        for (fragment, _own), n in zip(drafts, subjects):
            fragment.turtle = b"\n\n".join(blocks[at : at + n])
            at += n
        if at != len(blocks):
            raise GraphError(f"the Turtle of {len(drafts)} papers has {len(blocks)} subject blocks, expected {at}")
        return [fragment for fragment, _own in drafts]


# --------------------------------------------------------------------------- the cache


class FragmentCache(SqliteCache):
    """A SQLite file of fragments by paper IRI under one writer fingerprint; ``path=None`` keeps them in memory."""

    what = "fragment cache"
    table, key_column, fingerprint_column, schema, width = "fragments", "paper", "fingerprint", _SCHEMA, 4
    default_batch = 512

    def metas(self, papers: Sequence[str], chunk: int = 500) -> Iterator[Fragment | None]:
        """The stored fragments (without their Turtle) of ``papers``, in order; None where there is none."""
        for _paper, meta in self._values("meta", papers, chunk):
            yield None if meta is None else Fragment(*pickle.loads(zlib.decompress(meta)))  # type: ignore[arg-type]

    def turtles(self, papers: Sequence[str], chunk: int = 500) -> Iterator[bytes]:
        """The Turtle chunks of ``papers``, in order; KeyError names a paper without a fragment."""
        for turtle in self._required("turtle", papers, chunk):
            yield zlib.decompress(turtle)  # type: ignore[arg-type]

    def put(self, paper: str, fragment: Fragment) -> None:
        """Store ``fragment`` as ``paper``'s (committed with the next full batch or :meth:`flush`)."""
        meta = (fragment.digest, fragment.calls, fragment.outside, fragment.links, fragment.proposes,
                fragment.triples)
        self._add((paper, self.fingerprint, zlib.compress(pickle.dumps(meta, protocol=5), 1),
                   zlib.compress(fragment.turtle, 1)))
