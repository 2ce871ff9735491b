"""Static matplotlib figures (PNG): the helpers every plot uses, and the trend lines.

Figures are drawn with matplotlib's object API on an Agg canvas, so importing or running this
module never touches pyplot's global state or needs a display.
"""
from __future__ import annotations

import io
from typing import Any, Sequence

from kg.analysis.text import cut
from kg.analysis.trends import EntityTrend, Trends

#: labels longer than this are cut in legends
LEGEND_CHARS = 32


def figure(width: float = 6.4, height: float = 3.6, dpi: int = 100) -> Any:
    """Return a new matplotlib Figure (constrained layout), not registered with pyplot."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=dpi, layout="constrained")


#: The formats a figure is written in, by file extension.
FIGURE_FORMATS: dict[str, str] = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


def rendered(fig: Any, fmt: str = "png") -> bytes:
    """Return ``fig`` rendered in ``fmt`` (a value of :data:`FIGURE_FORMATS`)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt)
    return buffer.getvalue()


def png(fig: Any) -> bytes:
    """Return ``fig`` rendered as PNG bytes."""
    return rendered(fig, "png")


def _panel(ax: Any, trends: Trends, entities: Sequence[EntityTrend], title: str) -> None:
    years = trends.years
    for e in entities:
        ax.plot(years, [100 * e.shares[y] for y in years], marker="o", markersize=3, linewidth=1.5,
                label=cut(e.label, LEGEND_CHARS))
    ax.axvspan(trends.window[0], trends.window[-1], color="#eeeeee", zorder=0)
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("publication year")
    ax.set_ylabel("share of the year's papers (%)")
    ax.set_xticks(years)
    ax.tick_params(axis="x", labelrotation=45, labelsize=8)
    ax.set_ylim(bottom=0)
    if entities:
        ax.legend(fontsize=7, loc="best", frameon=False)
    else:
        ax.text(0.5, 0.5, "none", transform=ax.transAxes, ha="center", va="center", color="#888888")


def trend_figure(trends: Trends, rising: Sequence[EntityTrend], falling: Sequence[EntityTrend],
                 title: str, width: float = 10.0, height: float = 4.0) -> Any:
    """Return a two-panel figure: the shares per year of the ``rising`` and of the ``falling`` entities.

    The grey band marks the years over which the slopes were measured.
    """
    fig = figure(width, height)
    fig.suptitle(title, fontsize=11)
    left, right = fig.subplots(1, 2, sharey=False)
    _panel(left, trends, rising, "rising (steepest share growth)")
    _panel(right, trends, falling, "falling (steepest share decline)")
    return fig
