"""``kg compare PAPER PAPER ...``: papers side by side (proposals, tasks, data, results, comparisons)."""
from __future__ import annotations

import shutil
from pathlib import Path

import click

from kg.analysis.compare_format import FORMATS
from kg.cli.common import graph_options, handle_errors


@click.command("compare")
@click.argument("papers", nargs=-1)
@graph_options
@click.option("--similar-to", "similar_to", default=None, metavar="PAPER",
              help="Compare PAPER with its nearest neighbours (as kg similar ranks them) instead.")
@click.option("--top", default=5, show_default=True, type=click.IntRange(min=1),
              help="Neighbours compared with --similar-to.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Write to this file instead of standard output.")
@handle_errors
def compare(papers: tuple[str, ...], graph_path: Path | None, store: str | None, similar_to: str | None,
            top: int, fmt: str, output: Path | None) -> None:
    """Compare PAPERS (labels, IRIs or text prefixes, as kg similar takes them), one column per paper."""
    from kg.analysis.compare import choose_papers, profiles
    from kg.analysis.compare_format import to_csv, to_html, to_table
    from kg.analysis.convert import typed_graph
    from kg.analysis.source import read_graph

    rdf = read_graph(graph_path, store)
    g = typed_graph(rdf)
    chosen = choose_papers(g, papers, similar_to=similar_to, top=top)
    columns = profiles(rdf, g, chosen)
    if fmt == "table":
        text = to_table(columns, width=shutil.get_terminal_size((100, 24)).columns)
    elif fmt == "csv":
        text = to_csv(columns)
    else:
        note = (f"{columns[0].label} and the {len(columns) - 1} papers sharing the most (and rarest) entities with it"
                if similar_to is not None else f"{len(columns)} papers")
        text = to_html(columns, title="Paper comparison", note=note)
    if output is None:
        click.echo(text, nl=False)
        return
    from kg.store.io import atomic_write

    atomic_write(output, text.encode("utf-8"))
    click.echo(f"wrote {output}", err=True)
