"""``kg build``: read abstracts, extract entities, resolve them and write the graph.

The pipeline: ingest -> merge duplicates -> extract (spaCy; cached per abstract, on local processes or
a Dask cluster) -> resolve entities (corpus-global, mentions only) -> RDF streamed into a store (on
disk for big corpora) -> sorted Turtle written by an external merge sort. Outputs are written
atomically and the cache is committed in batches, so a failure or Ctrl-C leaves the previous output
untouched and keeps what was extracted.
"""
from __future__ import annotations

import gc
import os
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import RDF

from kg.cache import CACHE_DIR, CACHE_FILE, ExtractionCache, pipeline_fingerprint, text_key
from kg.corpus import Paper, merge_records
from kg.engines import EngineOptions
from kg.extract.types import ENTITY_TYPES, PaperExtraction
from kg.ingest import SkippedRecord, read_records
from kg.streamwrite import write_triples_turtle

ProgressFn = Callable[[int, int], None]

#: triples added to the store per batch while streaming
TRIPLE_BATCH = 50_000

#: builds of this many papers or more keep the graph in a temporary on-disk store, not in memory
DISK_GRAPH_PAPERS = 5_000


@dataclass
class BuildSummary:
    """What a build did, for the CLI's summary and for tests."""

    records: int = 0
    papers: int = 0
    #: abstracts extracted in this build, and taken from the extraction cache
    extracted: int = 0
    cached: int = 0
    duplicates: int = 0
    skipped: list[SkippedRecord] = field(default_factory=list)
    entities: Counter = field(default_factory=Counter)
    links: int = 0
    proposes: int = 0
    triples: int = 0
    seconds: float = 0.0
    outputs: list[Path | str] = field(default_factory=list)


def extract_papers(papers: Sequence[Paper], workers: int = 1, progress: ProgressFn | None = None,
                   model: str | None = None, *, engine: str = "local",
                   options: EngineOptions | None = None) -> list[PaperExtraction]:
    """Run extraction over the papers' abstracts on ``workers`` processes; results in input order."""
    from kg.engines import get_engine

    texts = [p.abstract for p in papers]
    options = options or EngineOptions(workers=workers, model=model)
    results: list[PaperExtraction | None] = [None] * len(texts)
    for done, (i, ex) in enumerate(get_engine(engine)(texts, options), 1):
        results[i] = ex
        if progress:
            progress(done, len(texts))
    return results  # type: ignore[return-value]


def _graph_triples(papers: Sequence[Paper], extractions: Iterable[PaperExtraction], resolution, vocabulary,
                   rules: set[str]) -> Iterator:
    """Every triple of the graph, paper by paper, then the entities and extractors."""
    from kg.rdf import entity_triples, link_triples, paper_triples
    from kg.rdf.evidence import EntityIndex
    from kg.rdf.relations import relation_triples
    from kg.rdf.results import result_triples

    index = EntityIndex(resolution, vocabulary)
    for paper, ex in zip(papers, extractions, strict=True):
        yield from paper_triples(paper, ex)
        yield from link_triples(paper, ex, resolution)
        yield from result_triples(paper, ex, index)
        yield from relation_triples(paper, ex, index)
    yield from entity_triples(resolution, rules)
    for iri, ent in resolution.entities.items():
        if ent.concept:
            yield from vocabulary.concept_triples(iri)


def _ox_converter() -> Callable:
    """rdflib term -> pyoxigraph term, IRIs memoised (a graph repeats its predicates, classes and entities)."""
    import pyoxigraph as ox
    from oxrdflib._converter import to_ox

    iris: dict[str, object] = {}

    def convert(term):  # type: ignore[no-untyped-def]
        kind = type(term)
        if kind is URIRef:
            node = iris.get(term)
            if node is None:
                node = ox.NamedNode(term)
                if len(iris) < 500_000:
                    iris[term] = node
            return node
        if kind is Literal:
            datatype = term.datatype
            return ox.Literal(term, language=term.language, datatype=convert(datatype) if datatype else None)
        convert.blank = convert.blank or isinstance(term, BNode)  # type: ignore[attr-defined]
        return to_ox(term)

    convert.blank = False  # type: ignore[attr-defined]  # whether a blank node went through
    return convert


def _add_in_batches(graph: Graph, triples: Iterator, batch: int = TRIPLE_BATCH, bulk: bool = False) -> bool:
    """Stream ``triples`` into ``graph`` ``batch`` at a time (no list of every triple is ever built).

    ``bulk`` uses Oxigraph's non-transactional bulk loader (several times faster on an on-disk store
    nobody else reads while it fills). Returns whether a blank node was added."""
    import pyoxigraph as ox

    from kg.store import add_triples, oxigraph_of

    inner = oxigraph_of(graph)
    convert = _ox_converter()
    default = ox.DefaultGraph()
    while True:
        part = list(islice(triples, batch))
        if not part:
            return inner is None or convert.blank  # type: ignore[attr-defined]
        if inner is None:
            add_triples(graph, part)
        elif bulk:
            inner.bulk_extend([ox.Quad(convert(s), convert(p), convert(o), default) for s, p, o in part])
        else:
            inner.extend([ox.Quad(convert(s), convert(p), convert(o), default) for s, p, o in part])


def build_graph(papers: Sequence[Paper], extractions: Sequence[PaperExtraction]) -> Graph:
    """The RDF graph of ``papers`` and their extractions, entities resolved across the corpus."""
    from kg.extract.vocab import load_vocabulary
    from kg.resolve import resolve
    from kg.store import new_graph

    vocabulary = load_vocabulary()
    resolution = resolve([(p.iri, ex) for p, ex in zip(papers, extractions)], vocabulary)
    rules = {m.rule for ex in extractions for m in ex.mentions}
    graph = new_graph()
    _add_in_batches(graph, _graph_triples(papers, extractions, resolution, vocabulary, rules))
    return graph


def _cached_triples(papers: Sequence[Paper], keys: Sequence[str], cache: ExtractionCache) -> Iterator:
    """The graph's triples from extractions in ``cache``, read twice instead of held in memory.

    Resolution is corpus-global, so it sees every paper's mentions (only the mentions are kept in
    memory); the triples are then made paper by paper from a second pass over the cache.
    """
    from kg.extract.vocab import load_vocabulary
    from kg.resolve import resolve

    vocabulary = load_vocabulary()
    rules: set[str] = set()
    pairs = []
    for paper, ex in zip(papers, cache.get_many(keys), strict=True):
        pairs.append((paper.iri, PaperExtraction(mentions=ex.mentions)))
        rules.update(m.rule for m in ex.mentions)
    resolution = resolve(pairs, vocabulary)
    del pairs
    yield from _graph_triples(papers, cache.get_many(keys), resolution, vocabulary, rules)


def build_graph_from_cache(papers: Sequence[Paper], keys: Sequence[str], cache: ExtractionCache,
                           graph: Graph | None = None) -> Graph:
    """:func:`build_graph` with the extractions read from ``cache`` (into ``graph``, or a new in-memory one)."""
    from kg.store import new_graph, store_path

    graph = new_graph() if graph is None else graph
    _add_in_batches(graph, _cached_triples(papers, keys, cache), bulk=store_path(graph) is not None)
    return graph


def _ox_triples(triples: Iterable) -> Iterator:
    """rdflib triples as pyoxigraph Triples."""
    import pyoxigraph as ox

    convert = _ox_converter()
    for s, p, o in triples:
        yield ox.Triple(convert(s), convert(p), convert(o))


class _Counts:
    """Counts entities by type, paper-entity links and kg:proposes from the writer's distinct lines."""

    def __init__(self, summary: BuildSummary) -> None:
        from kg.namespaces import KG
        from kg.rdf import LINK_PROPERTY

        self.summary = summary
        self.types = {b"<" + str(KG[t]).encode() + b"\x00 .\n": t for t in ENTITY_TYPES}  # lines end with a newline
        self.links = {b"<" + str(p).encode() for p in LINK_PROPERTY.values()}
        self.proposes = b"<" + str(KG.proposes).encode()
        for t in ENTITY_TYPES:
            summary.entities[t] = 0

    def __call__(self, line: bytes) -> None:
        _s, p, rest = line.split(b"\x00 ", 2)
        if p == b"<\x01":
            t = self.types.get(rest)
            if t is not None:
                self.summary.entities[t] += 1
        elif p in self.links:
            self.summary.links += 1
        elif p == self.proposes:
            self.summary.proposes += 1


def summarise(graph: Graph, summary: BuildSummary) -> None:
    """Fill the entity, link and triple counts of ``summary`` from ``graph``."""
    from kg.namespaces import KG
    from kg.rdf import LINK_PROPERTY

    summary.triples = len(graph)
    for t in ENTITY_TYPES:
        summary.entities[t] = len(set(graph.subjects(RDF.type, KG[t])))
    summary.links = sum(1 for prop in LINK_PROPERTY.values() for _ in graph.triples((None, prop, None)))
    summary.proposes = sum(1 for _ in graph.triples((None, KG.proposes, None)))


def write_views(graph: Graph, out: Path) -> list[Path]:
    """Write the interactive overview (graph.html) and the statistics report (report.html)."""
    from kg.report import write_report
    from kg.viz import typed, write_overview

    typed_graph = typed(graph)
    return [write_overview(typed_graph, out / "graph.html"), write_report(typed_graph, out / "report.html")]


def _cache_path(cache: bool | str | Path | None, out: Path) -> Path | None:
    if cache is False or cache is None:
        return None
    directory = out / CACHE_DIR if cache is True else Path(cache)
    return directory / CACHE_FILE


def _save_store(graph: Graph, store: str | Path) -> Path | str:
    """Fill the persistent store ``store``: an Oxigraph directory, or a remote SPARQL server (http/https URL)."""
    if str(store).startswith(("http://", "https://")):
        from kg.remote import replace_graph

        replace_graph(str(store), graph)
        return str(store)
    from kg.store import save_to_store

    return save_to_store(graph, store)


@contextmanager
def _scratch_graph(out: Path, source: Path, on_disk: bool) -> Iterator[Graph]:
    """The graph of the Turtle file ``source``: in memory, or (big builds) in an on-disk Oxigraph store
    removed afterwards."""
    import pyoxigraph as ox

    from kg.store import new_graph, open_store, oxigraph_of, parse_into

    if not on_disk:
        yield parse_into(new_graph(), source, ox.RdfFormat.TURTLE)
        return
    directory = Path(tempfile.mkdtemp(prefix=".kg-build-", suffix=".tmp", dir=out))
    try:
        graph = open_store(directory / "store", create=True)
        oxigraph_of(graph).bulk_load(path=str(source), format=ox.RdfFormat.TURTLE, to_graph=ox.DefaultGraph())
        yield graph
        del graph
        gc.collect()  # RocksDB closes when the store is dropped
    finally:
        shutil.rmtree(directory, ignore_errors=True)


@contextmanager
def _pending_file(path: Path) -> Iterator[Path]:
    """A temporary path next to ``path``, renamed over it (fsynced) when the block succeeds, removed if not."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        yield tmp
        with tmp.open("rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def build(inputs: Iterable[str | Path], output_dir: str | Path = "output", *, fmt: str | None = None,
          workers: int = 1, progress: ProgressFn | None = None,
          on_skip: Callable[[SkippedRecord], None] | None = None, model: str | None = None,
          max_chars: int | None = None, store: str | Path | None = None, views: bool = True,
          append: bool = False, cache: bool | str | Path | None = True, engine: str = "local",
          scheduler: str | None = None, in_process_below: int = 256,
          chunk_size: int | None = None, disk_graph_above: int = DISK_GRAPH_PAPERS) -> BuildSummary:
    """Build the knowledge graph of ``inputs`` into ``output_dir/kg.ttl`` (and a store, if given).

    ``append`` adds ``inputs`` to the build recorded in ``output_dir/manifest.json`` (rebuilt together,
    known abstracts from the cache). ``cache`` is True (``output_dir/.cache/``), a directory, or False.
    ``engine`` names an entry of :data:`kg.engines.ENGINES` ("local" processes or "dask", with
    ``scheduler`` the Dask address); inputs under ``in_process_below`` abstracts are extracted in this
    process. Builds of ``disk_graph_above`` papers or more hold the graph in a temporary on-disk store
    (bounded memory). The previous outputs stay untouched until the new ones are complete.
    """
    from kg.manifest import Manifest, manifest_inputs, merge_inputs, read_manifest, write_manifest

    started = time.perf_counter()
    summary = BuildSummary()
    out = Path(output_dir)
    if out.exists() and not out.is_dir():
        from kg.errors import GraphError

        raise GraphError(f"the output {out} is a file, not a directory; pass a directory (it is created if missing)")

    def skip(s: SkippedRecord) -> None:
        summary.skipped.append(s)
        if on_skip:
            on_skip(s)

    given = [str(p) for p in inputs]
    if append:
        previous = read_manifest(out)
        given = merge_inputs(manifest_inputs(previous), given)
        fmt = fmt or previous.format
        max_chars = max_chars or previous.max_chars
    kwargs = {"max_chars": max_chars} if max_chars else {}
    records = list(read_records(given, fmt=fmt, on_skip=skip, **kwargs))
    summary.records = len(records)
    papers, summary.duplicates = merge_records(records)
    del records
    summary.papers = len(papers)

    options = EngineOptions(workers=workers, model=model, in_process_below=in_process_below,
                            chunk_size=chunk_size, scheduler=scheduler)
    with ExtractionCache(_cache_path(cache, out), pipeline_fingerprint(model)) as extractions:
        keys = [text_key(p.abstract) for p in papers]
        known = extractions.keys()
        missing = [i for i, k in enumerate(keys) if k not in known]
        summary.cached = len(papers) - len(missing)
        summary.extracted = len(missing)
        if missing:
            from kg.engines import get_engine

            texts = [papers[i].abstract for i in missing]
            for done, (j, ex) in enumerate(get_engine(engine)(texts, options), 1):
                extractions.put(keys[missing[j]], ex)
                if progress:
                    progress(done, len(texts))
            del texts
        extractions.flush()
        out.mkdir(parents=True, exist_ok=True)
        # kg.ttl is renamed into place last: a failure while writing the views or the store leaves the
        # previous kg.ttl untouched
        with _pending_file(out / "kg.ttl") as ttl:
            with ttl.open("wb") as fh:
                summary.triples = write_triples_turtle(_ox_triples(_cached_triples(papers, keys, extractions)),
                                                       fh, observe=_Counts(summary))
            extractions.prune()
            if views or store is not None:
                with _scratch_graph(out, ttl, on_disk=len(papers) >= disk_graph_above) as graph:
                    if views:
                        summary.outputs += write_views(graph, out)
                    if store is not None:
                        summary.outputs.append(_save_store(graph, store))
        summary.outputs.insert(0, out / "kg.ttl")
    write_manifest(out, Manifest(inputs=given, cwd=os.getcwd(), format=fmt, max_chars=max_chars,
                                 papers=summary.papers, triples=summary.triples))
    summary.seconds = time.perf_counter() - started
    return summary
