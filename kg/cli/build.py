"""``kg build``: abstracts in, knowledge graph out."""
from __future__ import annotations

import os
import signal
from collections import Counter
from pathlib import Path

import click

from kg.build.engines import ENGINES
from kg.entity_types import BY_NAME
from kg.errors import raise_interrupt
from kg.cli.common import handle_errors
from kg.ingest.registry import format_names

#: above this many abstracts a progress bar is shown
PROGRESS_THRESHOLD = 40


def _count(n: int, noun: str) -> str:
    """``"1 paper"``, ``"2 papers"``."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


@click.command()
@click.argument("inputs", nargs=-1, required=False, type=click.Path(path_type=Path))
@click.option("--output", "-o", "output_dir", type=click.Path(path_type=Path), default=Path("output"),
              show_default=True, help="Directory for kg.ttl and the other outputs.")
@click.option("--format", "fmt", default=None, metavar="NAME",
              help=f"Input format of every file ({format_names()}); default: detected from extension and content.")
@click.option("--workers", "-j", type=click.IntRange(min=1), default=None,
              help="Extraction processes (default: the cores available).")
@click.option("--store", default=None, metavar="DIR|URL",
              help="Also fill a persistent store: an Oxigraph directory, or a SPARQL server URL "
                   "(http://host:7878, http://host:3030/ds#fuseki; see docs/remote-stores.md).")
@click.option("--append", is_flag=True,
              help="Add INPUTS to the build already in --output (rebuilt together; known abstracts from the cache).")
@click.option("--cache", "cache_dir", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Extraction cache directory (default: OUTPUT/.cache).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the extraction cache.")
@click.option("--engine", type=click.Choice(sorted(ENGINES)), default="local", show_default=True,
              help="Where extraction runs: local processes, or a Dask cluster.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Dask scheduler address (tcp://HOST:8786) for --engine dask; default: start a LocalCluster.")
@click.option("--views/--no-views", default=True, show_default=True,
              help="Also write graph.html (interactive overview) and report.html.")
@click.option("--min-confidence", type=click.FloatRange(0.0, 1.0), default=None, metavar="X",
              help="Keep only the links whose mention a model scored at or above X (0-1: the entity tagger, "
                   "the modality model), and the relations the relation model scored at or above X; what no "
                   "model scored (mentions the tagger did not see, rule relations) stays.")
@click.option("--quiet", "-q", is_flag=True, help="Print only errors.")
@handle_errors
def build(inputs: tuple[Path, ...], output_dir: Path, fmt: str | None, workers: int | None, store: str | None,
          append: bool, cache_dir: Path | None, no_cache: bool, engine: str, scheduler: str | None,
          views: bool, min_confidence: float | None, quiet: bool) -> None:
    """Build the knowledge graph of INPUTS (seed text, JSONL(.gz), CSV/TSV, BibTeX, RIS, CSL-JSON, OpenAlex,
    arXiv snapshot or Semantic Scholar files, or directories)."""
    from kg.build.pipeline import build as run_build

    bar = None

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if quiet or total <= PROGRESS_THRESHOLD:
            return
        if bar is None:
            from tqdm import tqdm

            bar = tqdm(total=total, unit="abstract", desc="extracting", dynamic_ncols=True)
        bar.update(done - bar.n)

    def on_skip(s) -> None:
        if not quiet:
            click.secho(f"warning: {s.source.file}: {s.reason}; skipped", fg="yellow", err=True)

    def on_dropped(record) -> None:
        if not quiet:
            for reason in record.dropped:
                click.secho(f"warning: {record.source.file}: line {record.source.line}: {reason}; the field is "
                            "left out, the record read", fg="yellow", err=True)

    if not inputs and not append:
        raise click.UsageError("give INPUTS (files or directories), or --append to rebuild the previous inputs")
    # SIGTERM (a service manager stopping the build) takes the same path as Ctrl-C
    previous_term = signal.signal(signal.SIGTERM, raise_interrupt)
    n_workers = workers or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
    cache: bool | Path = False if no_cache else (cache_dir or True)
    try:
        summary = run_build(inputs, output_dir, fmt=fmt, workers=n_workers, progress=progress, on_skip=on_skip,
                            on_dropped=on_dropped, store=store, views=views, append=append, cache=cache, engine=engine,
                            scheduler=scheduler, min_confidence=min_confidence)
    finally:
        signal.signal(signal.SIGTERM, previous_term)
        if bar is not None:
            bar.close()
    if quiet:
        return
    ents = ", ".join(f"{n} {BY_NAME[t].plural}" for t, n in summary.entities.items())
    dropped = f", {_count(summary.dropped_fields, 'field')} left out" if summary.dropped_fields else ""
    click.echo(f"read {_count(summary.records, 'record')}: {_count(summary.papers, 'paper')}, "
               f"{_count(summary.duplicates, 'duplicate')} merged, {len(summary.skipped)} skipped{dropped}")
    if summary.skipped:
        reasons = Counter(s.kind for s in summary.skipped)
        click.echo("skipped: " + ", ".join(f"{n} {r}" for r, n in reasons.most_common()))
    click.echo(f"extracted {_count(summary.extracted, 'abstract')}, {summary.cached} from the cache; "
               f"{summary.fragments_reused} papers' statements reused unchanged")
    click.echo(f"entities: {ents}")
    click.echo(f"links: {summary.links} paper-entity links, {summary.proposes} proposes; {summary.triples} triples")
    for path in summary.outputs:
        click.echo(f"wrote {path}")
    click.echo(f"done in {summary.seconds:.1f} s")
