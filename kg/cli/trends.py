"""``kg trends``: the entities whose share of papers rises or falls fastest over the years."""
from __future__ import annotations

from pathlib import Path

import click

from kg.analysis.trends import DEFAULT_LAST, DEFAULT_MIN_PAPERS, Trends
from kg.analysis.trends_format import FORMATS
from kg.analysis.yearcounts import TREND_TYPES
from kg.cli.common import graph_options, handle_errors

#: entities of each list drawn by --plot
PLOT_LINES = 6


@click.command("trends")
@graph_options
@click.option("--type", "entity_type", type=click.Choice(TREND_TYPES, case_sensitive=False), default=None,
              help="Entity type to rank (default: every type).")
@click.option("--top", default=20, show_default=True, type=click.IntRange(min=1), help="Entities per list.")
@click.option("--last", default=DEFAULT_LAST, show_default=True, type=int, metavar="N",
              help="Years over which the slope of the share is measured (the last N years with papers).")
@click.option("--min-papers", default=DEFAULT_MIN_PAPERS, show_default=True, type=int,
              help="Leave out entities linked to fewer papers overall.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@click.option("--plot", "plot", type=click.Path(path_type=Path, dir_okay=False), default=None, metavar="FILE.png",
              help=f"Also draw the shares per year of the top {PLOT_LINES} rising and falling entities "
                   "(.png, .svg or .pdf, by the file's extension).")
@handle_errors
def trends(graph_path: Path | None, store: str | None, entity_type: str | None, top: int, last: int,
           min_papers: int, fmt: str, plot: Path | None) -> None:
    """Rank entities by the slope of their share of papers per year (kg:year), with Kleinberg bursts."""
    from kg.analysis.source import read_graph
    from kg.analysis.trends import compute_trends
    from kg.analysis.trends_format import RENDERERS, to_table
    from kg.analysis.yearcounts import check_type, counts_from_rdf
    from kg.viz.figures import FIGURE_FORMATS

    if plot is not None and plot.suffix.lower() not in FIGURE_FORMATS:
        raise click.BadParameter(f"{plot}: give a file ending in {', '.join(FIGURE_FORMATS)}", param_hint="--plot")
    entity_type = check_type(entity_type)
    counts, totals = counts_from_rdf(read_graph(graph_path, store), entity_type)
    result = compute_trends(counts, totals, last=last, min_papers=min_papers)
    what = f"{entity_type.lower()}s" if entity_type else "entities"
    click.echo(to_table(result, top, what) if fmt == "table" else RENDERERS[fmt](result, top), nl=False)
    if plot is not None:
        _write_plot(result, plot, what)
        click.echo(f"wrote {plot}", err=True)


def _write_plot(result: Trends, path: Path, what: str) -> None:
    """Draw the shares per year of the top rising and falling entities of ``result`` to ``path`` (PNG, SVG or
    PDF, by its extension)."""
    from kg.store.io import atomic_write
    from kg.viz.figures import FIGURE_FORMATS, rendered, trend_figure

    title = (f"Share of papers per year: {what} rising and falling fastest over "
             f"{result.window[0]}-{result.window[-1]}")
    fig = trend_figure(result, result.rising(PLOT_LINES), result.falling(PLOT_LINES), title)
    atomic_write(path, rendered(fig, FIGURE_FORMATS[path.suffix.lower()]))
