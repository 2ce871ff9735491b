"""Writing ``kg.ttl`` from the papers' fragments and the corpus-wide statements.

1. Resolve the mentions of every paper into entities (corpus-global; only mentions are held in memory).
2. Walk the papers in input order: a paper whose cached fragment still holds (same inputs digest, same
   answers to its look-ups) is reused; the others are made again from their extraction.
3. Sort the statements that belong to no single paper (entities, concepts, extractors, source records,
   relations between entities) and interleave their Turtle with the papers' chunks in subject order.

The bytes are those of the sorted, pretty Turtle :mod:`kg.rdf.formats` writes for the same graph; a rebuild
that adds a few papers re-makes only theirs (and those whose entities changed).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO, Protocol

import pyoxigraph as ox

from kg.entity_types import TYPE_NAMES
from kg.extract.title import with_title_mention, with_title_name
from kg.extract.types import PaperExtraction
from kg.ingest.corpus import Paper
from kg.rdf.fragments import Fragment, FragmentCache, FragmentMaker, ox_converter, paper_digest, replays
from kg.rdf.streamwrite import sort_key_lines, turtle_pieces, write_units

#: papers whose fragments are looked up and made together, at most
WINDOW = 512
#: source records in one window, at most (a paper read a thousand times writes a thousand source records)
WINDOW_RECORDS = 4096


def with_title(paper: Paper, extraction: PaperExtraction) -> PaperExtraction:
    """The paper's extraction (of its abstract) with what its title announces as proposals: the name before a
    colon (:func:`with_title_name`), the mention the title is made of (:func:`with_title_mention`)."""
    title = paper.field("title")
    return with_title_mention(with_title_name(extraction, title, paper.abstract), title)


class Extractions(Protocol):
    """Where the extractions of the papers are read from, by cache key (the build's extraction cache)."""

    def get(self, key: str) -> PaperExtraction | None: ...

    def get_many(self, keys: Iterable[str]) -> Iterator[PaperExtraction]: ...


def windows(papers: Sequence[Paper], size: int = WINDOW, records: int = WINDOW_RECORDS) -> Iterator[tuple[int, int]]:
    """``(start, end)`` slices of ``papers`` of at most ``size`` papers and ``records`` source records
    (but at least one paper), so the statements made together stay bounded however often papers repeat."""
    start = 0
    while start < len(papers):
        end, held = start, 0
        while end < len(papers) and end - start < size and (end == start or held + len(papers[end].records) <= records):
            held += len(papers[end].records)
            end += 1
        yield start, end
        start = end


@dataclass
class Written:
    """What :func:`write_graph` wrote: statement counts, and how many fragments it made or reused."""

    triples: int = 0
    links: int = 0
    proposes: int = 0
    entities: Counter = field(default_factory=Counter)
    made: int = 0
    reused: int = 0


def _corpus_lines(resolution, vocabulary, rules: set[str]) -> list[bytes]:  # type: ignore[no-untyped-def]
    """The corpus-wide statements (entities with their labels, their concepts, the extractors) as sort-key lines."""
    from kg.rdf.papers import entity_triples

    convert = ox_converter()

    def triples() -> Iterator:
        yield from entity_triples(resolution, rules, node=ox.NamedNode, literal=ox.Literal)
        for iri, ent in resolution.entities.items():
            if ent.concept:
                yield from vocabulary.concept_triples(iri)

    data = ox.serialize([ox.Triple(convert(s), convert(p), convert(o)) for s, p, o in triples()],
                        format=ox.RdfFormat.N_TRIPLES) or b""
    return sort_key_lines(data)


def _distinct_sorted(lines: list[bytes]) -> list[bytes]:
    lines.sort()
    out: list[bytes] = []
    previous = None
    for line in lines:
        if line != previous:
            out.append(line)
            previous = line
    return out


def _fragments(papers: Sequence[Paper], keys: Sequence[str], mentions: Sequence[PaperExtraction],
               extractions: Extractions, fragments: FragmentCache, maker: FragmentMaker,
               written: Written) -> Iterator[Fragment]:
    """Every paper's fragment (without Turtle), in input order, reused or made again and stored."""
    from kg.resolve.entities import mention_key

    entity_of = maker.resolution.entity_of
    for start, end in windows(papers):
        window = papers[start:end]
        digests = [paper_digest(fragments.fingerprint, p, keys[start + i],
                                [entity_of.get(mention_key(p.iri, m)) for m in mentions[start + i].mentions])
                   for i, p in enumerate(window)]
        stored = list(fragments.metas([p.iri for p in window]))
        stale = [i for i, f in enumerate(stored) if f is None or f.digest != digests[i]]
        full = dict(zip(stale, extractions.get_many([keys[start + i] for i in stale])))
        drafts, out = [], []
        for i, (paper, fragment) in enumerate(zip(window, stored)):
            if i not in full and replays(maker.index, fragment.calls):  # type: ignore[union-attr]
                out.append(fragment)
                continue
            extraction = with_title(paper, full.pop(i, None) or extractions.get(keys[start + i]))  # type: ignore[arg-type]
            draft = maker.draft(paper, extraction, digests[i])  # type: ignore[arg-type]
            drafts.append((paper.iri, draft))
            out.append(draft[0])
        for iri, fragment in zip([iri for iri, _ in drafts], maker.finish([d for _, d in drafts])):
            fragments.put(iri, fragment)
        written.made += len(drafts)
        written.reused += len(window) - len(drafts)
        yield from out


def write_graph(papers: Sequence[Paper], keys: Sequence[str], extractions: Extractions,
                fragments: FragmentCache, handle: BinaryIO) -> Written:
    """Write the graph of ``papers`` (their extractions in ``extractions`` under ``keys``) as Turtle to ``handle``."""
    from kg.extract.vocab import load_vocabulary
    from kg.namespaces import KG
    from kg.rdf.evidence import EntityIndex
    from kg.rdf.papers import LINK_PROPERTY
    from kg.resolve.entities import resolve

    vocabulary = load_vocabulary()
    rules: set[str] = set()
    mentions = []
    for paper, ex in zip(papers, extractions.get_many(keys), strict=True):
        ex = with_title(paper, PaperExtraction(mentions=ex.mentions, forms=ex.forms))
        mentions.append(ex)
        rules.update(m.rule for m in ex.mentions)
    resolution = resolve([(p.iri, m) for p, m in zip(papers, mentions)], vocabulary)
    maker = FragmentMaker(resolution, EntityIndex(resolution, vocabulary),
                          [b"<" + str(p).encode() for p in LINK_PROPERTY.values()], b"<" + str(KG.proposes).encode())

    written = Written()
    shared = _corpus_lines(resolution, vocabulary, rules)
    for fragment in _fragments(papers, keys, mentions, extractions, fragments, maker, written):
        shared.extend(fragment.outside)
        written.triples += fragment.triples
        written.links += fragment.links
        written.proposes += fragment.proposes
    del mentions
    shared = _distinct_sorted(shared)
    written.triples += len(shared)
    types = {b"<\x01\x00 <" + str(KG[t]).encode() + b"\x00 .": t for t in TYPE_NAMES}
    written.entities.update({t: 0 for t in TYPE_NAMES})
    for line in shared:
        t = types.get(line[line.index(b"\x00 ") + 2 :])
        if t is not None:
            written.entities[t] += 1

    iris = sorted(p.iri for p in papers)

    def units() -> Iterator[bytes]:
        at = 0
        for iri, chunk in zip(iris, fragments.turtles(iris), strict=True):
            key = b"<" + iri.encode()
            end = at
            while end < len(shared) and shared[end] < key:
                end += 1
            if end > at:
                yield from turtle_pieces(shared[at:end])
                at = end
            yield chunk
        if at < len(shared):
            yield from turtle_pieces(shared[at:])

    write_units(handle, units())
    return written
