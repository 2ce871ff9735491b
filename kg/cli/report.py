"""``kg report``: write the self-contained statistics page."""
from __future__ import annotations

from pathlib import Path

import click

from kg.cli.common import graph_options, handle_errors, pages_dir


@click.command("report")
@graph_options
@click.option("--output", "-o", type=click.Path(path_type=Path), default=None,
              help="HTML file to write (default report.html beside --graph, else output/report.html).")
@handle_errors
def report(graph_path: Path | None, store: str | None, output: Path | None) -> None:
    """Write report.html: what the field is about (top entities, trends, results, communities), in one offline page."""
    from kg.analysis.source import read_graph
    from kg.report import write_report

    path = write_report(read_graph(graph_path, store), output or pages_dir(graph_path) / "report.html")
    click.echo(f"wrote {path} ({path.stat().st_size / 1e3:.0f} kB)")
