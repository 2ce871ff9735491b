"""``kg build``: read abstracts, extract entities, resolve them and write the graph.

The pipeline: ingest -> merge duplicates -> extract (spaCy; cached per abstract, on local processes or
a Dask cluster) -> resolve entities (corpus-global, mentions only) -> each paper's part of the graph
(cached too, reused while its inputs and entities are unchanged) -> sorted Turtle assembled from those
parts and the corpus-wide statements (:mod:`kg.assemble`). Outputs are written atomically and the
caches are committed in batches, so a failure or Ctrl-C leaves the previous output untouched and keeps
what was extracted.
"""
from __future__ import annotations

import gc
import os
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from rdflib import Graph

from kg.assemble import write_graph
from kg.cache import CACHE_DIR, CACHE_FILE, ConfidentExtractions, ExtractionCache, pipeline_fingerprint, text_key
from kg.corpus import merge_records
from kg.engines import EngineOptions
from kg.fragments import FRAGMENT_FILE, FragmentCache, writer_fingerprint
from kg.ingest import SkippedRecord, read_records

ProgressFn = Callable[[int, int], None]

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
    #: papers whose part of the graph was reused from the previous build unchanged
    fragments_reused: int = 0
    duplicates: int = 0
    skipped: list[SkippedRecord] = field(default_factory=list)
    entities: Counter = field(default_factory=Counter)
    links: int = 0
    proposes: int = 0
    triples: int = 0
    seconds: float = 0.0
    outputs: list[Path | str] = field(default_factory=list)


def write_views(graph: Graph, out: Path) -> list[Path]:
    """Write the interactive overview (graph.html) and the statistics report (report.html)."""
    from kg.report import write_report
    from kg.viz import typed, write_overview

    typed_graph = typed(graph)
    return [write_overview(typed_graph, out / "graph.html"), write_report(typed_graph, out / "report.html", rdf=graph)]


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


def _confidence_suffix(min_confidence: float | None) -> str:
    """What ``min_confidence`` adds to the fragments' fingerprint (nothing when unset)."""
    if min_confidence is None:
        return ""
    if not 0.0 <= min_confidence <= 1.0:
        from kg.errors import KGError

        raise KGError(f"--min-confidence {min_confidence:g} is outside [0, 1]; give a probability such as 0.5")
    return f"|min-confidence={min_confidence:.3f}"


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
          chunk_size: int | None = None, disk_graph_above: int = DISK_GRAPH_PAPERS,
          min_confidence: float | None = None) -> BuildSummary:
    """Build the knowledge graph of ``inputs`` into ``output_dir/kg.ttl`` (and a store, if given).

    ``append`` adds ``inputs`` to the build recorded in ``output_dir/manifest.json`` (rebuilt together,
    known abstracts from the cache). ``cache`` is True (``output_dir/.cache/``), a directory, or False.
    ``engine`` names an entry of :data:`kg.engines.ENGINES` ("local" processes or "dask", with
    ``scheduler`` the Dask address); inputs under ``in_process_below`` abstracts are extracted in this
    process. Builds of ``disk_graph_above`` papers or more hold the graph in a temporary on-disk store
    (bounded memory). ``min_confidence`` keeps only the links whose mention the entity model scored at
    or above it (a rule's mention carries the model's probability of its span and type; mentions the model
    did not score, such as modalities and spans over six tokens, stay). The previous outputs stay
    untouched until the new ones are complete.
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
    fingerprint = pipeline_fingerprint(model)
    cache_file = _cache_path(cache, out)
    with ExtractionCache(cache_file, fingerprint) as extractions, \
            FragmentCache(cache_file and cache_file.with_name(FRAGMENT_FILE),
                          writer_fingerprint(fingerprint + _confidence_suffix(min_confidence))) as fragments:
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
                view = extractions if min_confidence is None else ConfidentExtractions(extractions, min_confidence)
                written = write_graph(papers, keys, view, fragments, fh)  # type: ignore[arg-type]
            summary.triples, summary.links, summary.proposes = written.triples, written.links, written.proposes
            summary.entities.update(written.entities)
            summary.fragments_reused = written.reused
            extractions.prune()
            fragments.prune()
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
