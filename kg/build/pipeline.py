"""``kg build``: read abstracts, extract entities, resolve them and write the graph.

The pipeline: ingest -> merge duplicates -> extract (spaCy; cached per abstract, on local processes or
a Dask cluster) -> resolve entities (corpus-global, mentions only) -> each paper's part of the graph
(cached too, reused while its inputs and entities are unchanged) -> sorted Turtle assembled from those
parts and the corpus-wide statements (:mod:`kg.rdf.assemble`). Outputs are written atomically and the
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

from kg.build.cache import (
    CACHE_DIR,
    CACHE_FILE,
    ConfidentExtractions,
    ExtractionCache,
    pipeline_fingerprint,
    text_key,
)
from kg.build.checkpoints import checkpoint
from kg.build.engines import EngineOptions
from kg.build.manifest import MANIFEST
from kg.build.outputs import OutputSet
from kg.errors import InputError, Interrupted
from kg.ingest import Record, SkippedRecord, read_records
from kg.ingest.corpus import merge_records
from kg.rdf.assemble import write_graph
from kg.rdf.fragments import FRAGMENT_FILE, FragmentCache, writer_fingerprint

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
    #: metadata values of the wrong shape left out of records that were kept (``Record.dropped``)
    dropped_fields: int = 0
    entities: Counter = field(default_factory=Counter)
    links: int = 0
    proposes: int = 0
    triples: int = 0
    seconds: float = 0.0
    outputs: list[Path | str] = field(default_factory=list)


def write_views(graph: Graph, overview: Path, report: Path) -> list[Path]:
    """Write the interactive overview (graph.html) and the statistics report (report.html) to these paths."""
    from kg.report import write_report
    from kg.viz import typed, write_overview

    typed_graph = typed(graph)
    return [write_overview(typed_graph, overview), write_report(typed_graph, report, rdf=graph)]


def _cache_path(cache: bool | str | Path | None, out: Path) -> Path | None:
    if cache is False or cache is None:
        return None
    directory = out / CACHE_DIR if cache is True else Path(cache)
    return directory / CACHE_FILE


def _save_store(graph: Graph, store: str | Path) -> Path | str:
    """Fill the persistent store ``store``: an Oxigraph directory, or a remote SPARQL server (http/https URL)."""
    if str(store).startswith(("http://", "https://")):
        from kg.store.remote import replace_graph

        replace_graph(str(store), graph)
        return str(store)
    from kg.store.local import save_to_store

    return save_to_store(graph, store)


@contextmanager
def _scratch_graph(out: Path, source: Path, on_disk: bool) -> Iterator[Graph]:
    """The graph of the Turtle file ``source``: in memory, or (big builds) in an on-disk Oxigraph store
    removed afterwards."""
    import pyoxigraph as ox

    from kg.store.bulkload import load_chunked
    from kg.store.local import new_graph, open_store, oxigraph_of, parse_into

    if not on_disk:
        yield parse_into(new_graph(), source, ox.RdfFormat.TURTLE)
        return
    directory = Path(tempfile.mkdtemp(prefix=f".kg-build-{os.getpid()}-", suffix=".tmp", dir=out))
    try:
        graph = open_store(directory / "store", create=True)
        load_chunked(oxigraph_of(graph), source, ox.RdfFormat.TURTLE)
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
    return f"|min-confidence={min_confidence:.3f}|mentions+relations"


def prepare_output(out: Path, cache_file: Path | None) -> None:
    """Make sure ``out`` (and the cache's directory) can be written, before any work is done; remove the
    staging files that killed builds left there. Raises :class:`OutputError` naming the path and the fix."""
    from kg.build.outputs import remove_stale
    from kg.errors import OutputError

    for parent in [out, *out.parents]:
        if parent.exists() and not parent.is_dir():
            where = "is a file" if parent == out else f"is under {parent}, which is a file"
            raise OutputError(f"the output {out} {where}, not a directory; pass --output a directory "
                              "(it is created if missing)")
    directories = [(out, "the output directory", "choose another --output or make it writable")]
    if cache_file is not None:
        directories.append((cache_file.parent, "the extraction cache directory",
                            "pass --cache DIR elsewhere, or --no-cache"))
    for directory, what, fix in directories:
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot create {what} {directory}: {exc.strerror or exc}; {fix}") from exc
        if not os.access(directory, os.W_OK | os.X_OK):
            raise OutputError(f"cannot write to {what} {directory}: permission denied (read-only); {fix}")
    remove_stale(out)


def _missing_directories(out: Path, cache_file: Path | None) -> list[Path]:
    """The outermost missing directory above ``out`` and above the cache file, each once: what a build
    creates."""
    created: list[Path] = []
    for directory in [out, *([cache_file.parent] if cache_file is not None else [])]:
        missing = [d for d in [directory, *directory.parents] if not d.exists()]
        if missing and not any(c == missing[-1] or c in missing[-1].parents for c in created):
            created.append(missing[-1])
    return created


@contextmanager
def _removed_unless_read(directories: list[Path]) -> Iterator[None]:
    """Remove ``directories`` (those this build created) when reading the input fails: a build that
    cannot start leaves no empty output or cache behind. Later failures keep them: the cache holds what
    was extracted, for the next build."""
    try:
        yield
    except Exception:
        for directory in directories:
            shutil.rmtree(directory, ignore_errors=True)
        raise


def no_papers_message(inputs: list[str], skipped: list[SkippedRecord], out: Path) -> str:
    """Why a build read no paper from ``inputs``, and what to do."""
    kinds = Counter(s.kind for s in skipped)
    why = (f"every record was skipped ({', '.join(f'{n} {k}' for k, n in kinds.most_common())}; the warnings "
           "name each line)" if skipped else "they hold no record with an abstract")
    kept = f" (the previous outputs in {out} are untouched)" if (out / "kg.ttl").exists() else ""
    return (f"no paper was read from {', '.join(inputs)}: {why}; fix the input or pass --format; nothing was "
            f"written{kept}")


@contextmanager
def _writing(target: Path) -> Iterator[None]:
    """Turn the OS errors of writing ``target`` (a full disk, a file-size limit) into an :class:`OutputError`."""
    from kg.errors import OutputError

    try:
        yield
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}; free some space (or raise the "
                          "file-size limit) and build again; the previous outputs were left untouched") from exc


def build(inputs: Iterable[str | Path], output_dir: str | Path = "output", *, fmt: str | None = None,
          workers: int = 1, progress: ProgressFn | None = None,
          on_skip: Callable[[SkippedRecord], None] | None = None,
          on_dropped: Callable[[Record], None] | None = None, model: str | None = None,
          max_chars: int | None = None, store: str | Path | None = None, views: bool = True,
          append: bool = False, cache: bool | str | Path | None = True, engine: str = "local",
          scheduler: str | None = None, in_process_below: int = 256,
          chunk_size: int | None = None, disk_graph_above: int = DISK_GRAPH_PAPERS,
          min_confidence: float | None = None,
          recycle_after: int | None = EngineOptions.recycle_after) -> BuildSummary:
    """Build the knowledge graph of ``inputs`` into ``output_dir/kg.ttl`` (and a store, if given).

    ``on_skip`` hears of each record that was not read, ``on_dropped`` of each record read without a
    metadata value of the wrong shape (its ``dropped`` says which and why).

    ``append`` adds ``inputs`` to the build recorded in ``output_dir/manifest.json`` (rebuilt together,
    known abstracts from the cache). ``cache`` is True (``output_dir/.cache/``), a directory, or False.
    ``engine`` names an entry of :data:`kg.build.engines.ENGINES` ("local" processes or "dask", with
    ``scheduler`` the Dask address); inputs under ``in_process_below`` abstracts are extracted in this
    process, and local worker processes are replaced by fresh ones every ``recycle_after`` texts (bounded
    memory on long builds; None: never). Builds of ``disk_graph_above`` papers and source records or more hold the graph in a
    temporary on-disk store (bounded memory). ``min_confidence`` keeps only the links whose mention a model scored at
    or above it (a rule's mention carries the tagger's probability of its span and type, a modality mention
    the modality model's score of its concept; mentions no model scored stay). The previous outputs stay
    untouched until the new ones are complete: every output is staged, then all are renamed in one step
    (:class:`kg.build.outputs.OutputSet`). Raises :class:`Interrupted` on Ctrl-C or SIGTERM.
    """
    from kg.build.manifest import Manifest, manifest_inputs, merge_inputs, read_manifest, write_manifest

    started = time.perf_counter()
    summary = BuildSummary()
    out = Path(output_dir)
    cache_file = _cache_path(cache, out)
    created = _missing_directories(out, cache_file)  # removed again if the input cannot be read
    prepare_output(out, cache_file)

    def skip(s: SkippedRecord) -> None:
        summary.skipped.append(s)
        if on_skip:
            on_skip(s)

    def counted(records: Iterable[Record]) -> Iterator[Record]:
        for record in records:
            summary.records += 1
            summary.dropped_fields += len(record.dropped)
            if record.dropped and on_dropped:
                on_dropped(record)
            yield record

    given = [str(p) for p in inputs]
    try:
        with _removed_unless_read(created):  # nothing is extracted yet: a failed first build leaves nothing
            if append:
                previous = read_manifest(out)
                given = merge_inputs(manifest_inputs(previous), given)
                fmt = fmt or previous.format
                max_chars = max_chars or previous.max_chars
            kwargs = {"max_chars": max_chars} if max_chars else {}
            papers, summary.duplicates = merge_records(counted(read_records(given, fmt=fmt, on_skip=skip, **kwargs)))
            summary.papers = len(papers)
            if not papers:
                raise InputError(no_papers_message(given, summary.skipped, out))
        checkpoint("read")

        options = EngineOptions(workers=workers, model=model, in_process_below=in_process_below,
                                chunk_size=chunk_size, scheduler=scheduler, recycle_after=recycle_after)
        fingerprint = pipeline_fingerprint(model)
        with ExtractionCache(cache_file, fingerprint) as extractions, \
                FragmentCache(cache_file and cache_file.with_name(FRAGMENT_FILE),
                              writer_fingerprint(fingerprint + _confidence_suffix(min_confidence))) as fragments, \
                OutputSet(out) as outputs:
            keys = [text_key(p.abstract) for p in papers]
            known = extractions.keys()
            missing = [i for i, k in enumerate(keys) if k not in known]
            summary.cached = len(papers) - len(missing)
            summary.extracted = len(missing)
            if missing:
                from kg.build.engines import get_engine

                texts = [papers[i].abstract for i in missing]
                for done, (j, ex) in enumerate(get_engine(engine)(texts, options), 1):
                    extractions.put(keys[missing[j]], ex)
                    if progress:
                        progress(done, len(texts))
                del texts
            extractions.flush()
            checkpoint("extracted")
            ttl = outputs.stage("kg.ttl")
            with _writing(outputs.target("kg.ttl")), ttl.open("wb") as fh:
                view = extractions if min_confidence is None else ConfidentExtractions(extractions, min_confidence)
                written = write_graph(papers, keys, view, fragments, fh)  # type: ignore[arg-type]
            summary.triples, summary.links, summary.proposes = written.triples, written.links, written.proposes
            summary.entities.update(written.entities)
            summary.fragments_reused = written.reused
            extractions.prune()
            fragments.prune()
            checkpoint("staged-graph")
            if views or store is not None:
                # the statements of every source record count too: a corpus read many times is a big graph
                big = summary.records + len(papers) >= disk_graph_above
                with _scratch_graph(out, ttl, on_disk=big) as graph:
                    if views:
                        with _writing(out / "graph.html"):
                            write_views(graph, outputs.stage("graph.html"), outputs.stage("report.html"))
                        checkpoint("staged-views")
                    if store is not None:
                        summary.outputs.append(_save_store(graph, store))
            with _writing(out / MANIFEST):
                write_manifest(out, Manifest(inputs=given, cwd=os.getcwd(), format=fmt, max_chars=max_chars,
                                             papers=summary.papers, triples=summary.triples),
                               path=outputs.stage(MANIFEST))
            checkpoint("staged")
            try:
                committed = outputs.commit()
            except KeyboardInterrupt:
                if outputs.interrupted_at_commit:
                    raise Interrupted(f"interrupted while the new outputs were put in place; they are complete "
                                      f"in {out}") from None
                raise
    except KeyboardInterrupt:
        kept = " (what was extracted is kept in the cache)" if cache_file is not None else ""
        raise Interrupted(f"interrupted; the previous outputs in {out} were left untouched{kept}") from None
    summary.outputs = [*committed[::-1], *summary.outputs]
    summary.seconds = time.perf_counter() - started
    return summary
