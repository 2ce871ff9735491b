"""``kg build``: abstracts in, knowledge graph out."""
from __future__ import annotations

import os
from pathlib import Path

import click

from kg.cli.common import handle_errors

#: above this many abstracts a progress bar is shown
PROGRESS_THRESHOLD = 40


@click.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--output", "-o", "output_dir", type=click.Path(path_type=Path), default=Path("output"),
              show_default=True, help="Directory for kg.ttl and the other outputs.")
@click.option("--format", "fmt", default=None, help="Input format of every file (seed, jsonl, csv, tsv); default: detected.")
@click.option("--workers", "-j", type=click.IntRange(min=1), default=None,
              help="Extraction processes (default: the cores available).")
@click.option("--store", type=click.Path(path_type=Path), default=None, help="Also fill a persistent Oxigraph store here.")
@click.option("--views/--no-views", default=True, show_default=True,
              help="Also write graph.html (interactive overview) and report.html.")
@click.option("--quiet", "-q", is_flag=True, help="Print only errors.")
@handle_errors
def build(inputs: tuple[Path, ...], output_dir: Path, fmt: str | None, workers: int | None, store: Path | None,
          views: bool, quiet: bool) -> None:
    """Build the knowledge graph of INPUTS (seed text files, JSONL(.gz), CSV/TSV, or directories)."""
    from kg.build import build as run_build

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

    n_workers = workers or len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (workers or os.cpu_count() or 1)
    try:
        summary = run_build(inputs, output_dir, fmt=fmt, workers=n_workers, progress=progress, on_skip=on_skip,
                            store=store, views=views)
    finally:
        if bar is not None:
            bar.close()
    if quiet:
        return
    ents = ", ".join(f"{n} {t.lower()}s" if t != "Modality" else f"{n} modalities" for t, n in summary.entities.items())
    click.echo(f"read {summary.records} records: {summary.papers} papers, {summary.duplicates} duplicates merged, "
               f"{len(summary.skipped)} skipped")
    click.echo(f"entities: {ents}")
    click.echo(f"links: {summary.links} paper-entity links, {summary.proposes} proposes; {summary.triples} triples")
    for path in summary.outputs:
        click.echo(f"wrote {path}")
    click.echo(f"done in {summary.seconds:.1f} s")
