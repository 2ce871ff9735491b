"""``kg build``: read abstracts, extract entities, resolve them and write the graph.

The pipeline: ingest -> merge duplicates -> extract (spaCy) -> resolve entities -> RDF -> write.
Outputs are written atomically, so a failure leaves any previous output untouched.
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rdflib import Graph, URIRef
from rdflib.namespace import RDF

from kg.corpus import Paper, merge_records
from kg.extract.types import ENTITY_TYPES, PaperExtraction
from kg.ingest import SkippedRecord, read_records

ProgressFn = Callable[[int, int], None]


@dataclass
class BuildSummary:
    """What a build did, for the CLI's summary and for tests."""

    records: int = 0
    papers: int = 0
    duplicates: int = 0
    skipped: list[SkippedRecord] = field(default_factory=list)
    entities: Counter = field(default_factory=Counter)
    links: int = 0
    proposes: int = 0
    triples: int = 0
    seconds: float = 0.0
    outputs: list[Path] = field(default_factory=list)


def _extract_serial(texts: Sequence[str], progress: ProgressFn | None, model: str | None) -> Iterator[PaperExtraction]:
    from kg.extract import extract_texts, load_nlp

    nlp = load_nlp(model)
    for i, ex in enumerate(extract_texts(texts, nlp), 1):
        if progress:
            progress(i, len(texts))
        yield ex


def _worker_extract(texts: list[str]) -> list[PaperExtraction]:
    from kg.extract import extract_texts

    return list(extract_texts(texts))


def _extract_parallel(texts: Sequence[str], workers: int, progress: ProgressFn | None) -> Iterator[PaperExtraction]:
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    chunk = 64
    chunks = [list(texts[i : i + chunk]) for i in range(0, len(texts), chunk)]
    ctx = mp.get_context("spawn")
    done = 0
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        for result in pool.map(_worker_extract, chunks):
            for ex in result:
                done += 1
                if progress:
                    progress(done, len(texts))
                yield ex


def extract_papers(papers: Sequence[Paper], workers: int = 1, progress: ProgressFn | None = None,
                   model: str | None = None) -> list[PaperExtraction]:
    """Run extraction over the papers' abstracts, in order, on ``workers`` processes."""
    texts = [p.abstract for p in papers]
    if workers > 1 and len(texts) > 64:
        return list(_extract_parallel(texts, workers, progress))
    return list(_extract_serial(texts, progress, model))


def build_graph(papers: Sequence[Paper], extractions: Sequence[PaperExtraction]) -> Graph:
    """The RDF graph of ``papers`` and their extractions, entities resolved across the corpus."""
    from kg.extract.vocab import load_vocabulary
    from kg.rdf import entity_triples, link_triples, paper_triples
    from kg.resolve import resolve
    from kg.store import add_triples, new_graph

    vocabulary = load_vocabulary()
    pairs = [(p.iri, ex) for p, ex in zip(papers, extractions)]
    resolution = resolve(pairs, vocabulary)
    graph = new_graph()

    from kg.rdf.evidence import EntityIndex
    from kg.rdf.relations import relation_triples
    from kg.rdf.results import result_triples

    index = EntityIndex(resolution, vocabulary)

    def triples() -> Iterator:
        for paper, ex in zip(papers, extractions):
            yield from paper_triples(paper, ex)
            yield from link_triples(paper, ex, resolution)
            yield from result_triples(paper, ex, index)
            yield from relation_triples(paper, ex, index)
        rules = {m.rule for ex in extractions for m in ex.mentions}
        yield from entity_triples(resolution, rules)
        for iri, ent in resolution.entities.items():
            if ent.concept:
                yield from vocabulary.concept_triples(iri)

    add_triples(graph, triples())
    return graph


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


def build(inputs: Iterable[str | Path], output_dir: str | Path = "output", *, fmt: str | None = None,
          workers: int = 1, progress: ProgressFn | None = None,
          on_skip: Callable[[SkippedRecord], None] | None = None, model: str | None = None,
          max_chars: int | None = None, store: str | Path | None = None, views: bool = True) -> BuildSummary:
    """Build the knowledge graph of ``inputs`` into ``output_dir/kg.ttl`` (and a store, if given)."""
    from kg.formats import write_graph

    started = time.perf_counter()
    summary = BuildSummary()

    def skip(s: SkippedRecord) -> None:
        summary.skipped.append(s)
        if on_skip:
            on_skip(s)

    kwargs = {"max_chars": max_chars} if max_chars else {}
    records = list(read_records(list(inputs), fmt=fmt, on_skip=skip, **kwargs))
    summary.records = len(records)
    papers, summary.duplicates = merge_records(records)
    summary.papers = len(papers)
    extractions = extract_papers(papers, workers=workers, progress=progress, model=model)
    graph = build_graph(papers, extractions)
    summarise(graph, summary)
    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    summary.outputs.append(write_graph(graph, out / "kg.ttl", "turtle"))
    if views:
        summary.outputs += write_views(graph, out)
    if store is not None:
        from kg.store import save_to_store

        summary.outputs.append(save_to_store(graph, store))
    summary.seconds = time.perf_counter() - started
    return summary
