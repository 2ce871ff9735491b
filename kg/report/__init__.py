"""``report.html``: one self-contained page saying what the field of a graph is about.

It leads with the top entities of each type (each opening to its papers and sentences), the rising
and falling entities, modalities × tasks, the reported results by dataset and metric and the
communities with their central papers; the counts, distributions and centralities of the graph come
last, in an appendix. Plots are PNGs inlined as base64 (matplotlib on an Agg canvas, no pyplot state).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import networkx as nx

from kg.report.markup import CSS, esc

__all__ = ["render_report", "write_report"]


def _trends(g: nx.Graph) -> tuple[Any, str]:
    from kg.analysis.trends import compute_trends
    from kg.analysis.yearcounts import counts_from_typed
    from kg.errors import KGError

    counts, totals = counts_from_typed(g)
    try:
        return compute_trends(counts, totals), ""
    except KGError as exc:
        return None, str(exc)


def render_report(g: nx.Graph, summary: dict[str, Any] | None = None, title: str = "paperkg report",
                  rdf: Any = None) -> str:
    """Return the report page of typed graph ``g``.

    ``summary`` is :func:`kg.analysis.stats.summary`'s (computed when not given); ``rdf`` is the RDF graph
    ``g`` was made from, needed for the reported results (that section says so without it).
    """
    from kg.analysis import stats
    from kg.analysis.leaderboard import leaderboards
    from kg.report import sections

    comms = stats.communities(g)
    s = summary or stats.summary(g, comms=comms)
    c = s["counts"]
    trends, reason = _trends(g)
    years = f", {trends.years[0]}–{trends.years[-1]}" if trends is not None else ""
    nav = " · ".join(f'<a href="#{a}">{esc(t)}</a>' for a, t in (
        ("top-entities", "top entities"), ("trends", "rising and falling"), ("modality-task", "modalities × tasks"),
        ("leaderboard", "reported results"), ("communities", "communities"), ("appendix", "appendix")))
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        f"<p>{c['by_type'].get('Paper', 0)} papers{years}; {c['nodes']} nodes and {c['edges']} links; "
        f"{len(s['communities'])} communities.</p>",
        f"<nav>{nav}</nav>",
        sections.top_entities_section(g),
        sections.trends_section(trends, reason),
        sections.heatmap_section(g),
        sections.leaderboard_section(leaderboards(rdf) if rdf is not None else None),
        sections.communities_section(g, comms),
        sections.appendix_section(g, s),
        "</body></html>",
    ]
    return "\n".join(parts)


def write_report(graph: Any, path: str | Path = "output/report.html", summary: dict[str, Any] | None = None,
                 rdf: Any = None) -> Path:
    """Write ``report.html`` for ``graph`` (an rdflib Graph, or a typed NetworkX graph with its ``rdf``) atomically."""
    from kg.store.io import atomic_write
    from kg.viz import typed

    if rdf is None and not isinstance(graph, nx.Graph):
        rdf = graph
    g = typed(graph)
    path = Path(path)
    atomic_write(path, render_report(g, summary, rdf=rdf).encode("utf-8"))
    return path
