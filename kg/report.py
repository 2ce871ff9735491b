"""``report.html``: one self-contained page of statistics, plots (PNG inlined as base64) and communities.

Plots are drawn with matplotlib's object API on an Agg canvas, so importing or running this module
never touches pyplot's global state or needs a display.
"""
from __future__ import annotations

import base64
import html
import io
from collections import Counter
from pathlib import Path
from typing import Any

import networkx as nx

from kg.analysis.convert import NODE_TYPES
from kg.viz.style import TYPE_STYLE

#: communities listed in the table
MAX_COMMUNITIES = 50


def _figure(width: float = 6.4, height: float = 3.6) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _png(fig: Any) -> str:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def plot_types(summary: dict[str, Any]) -> str:
    """Bar chart of node counts by type, as base64 PNG."""
    fig = _figure()
    ax = fig.add_subplot()
    by_type = summary["counts"]["by_type"]
    ax.bar(list(by_type), list(by_type.values()), color=[TYPE_STYLE[t][0] for t in by_type])
    ax.set_ylabel("nodes")
    ax.set_title("Papers and entities by type")
    return _png(fig)


def plot_degrees(g: nx.Graph) -> str:
    """Degree distribution (log-log scatter of degree frequency) as base64 PNG."""
    fig = _figure()
    ax = fig.add_subplot()
    for t in NODE_TYPES:
        freq = Counter(d for n, d in g.degree() if g.nodes[n]["type"] == t and d > 0)
        if freq:
            xs = sorted(freq)
            ax.scatter(xs, [freq[x] for x in xs], s=14, label=t, color=TYPE_STYLE[t][0])
    if any(d > 0 for _, d in g.degree()):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.legend(fontsize=8)
    ax.set_xlabel("degree (links)")
    ax.set_ylabel("nodes")
    ax.set_title("Degree distribution")
    return _png(fig)


def plot_communities(summary: dict[str, Any], top: int = 20) -> str:
    """Sizes of the largest communities as base64 PNG."""
    comms = summary["communities"][:top]
    fig = _figure(6.4, max(2.5, 0.28 * len(comms) + 1))
    ax = fig.add_subplot()
    labels = [f"{c['id']}: {c['label'][:40]}" for c in comms][::-1]
    ax.barh(labels, [c["size"] for c in comms][::-1], color="#4e79a7")
    ax.set_xlabel("nodes")
    ax.set_title(f"Largest communities (of {len(summary['communities'])})")
    ax.tick_params(axis="y", labelsize=7)
    return _png(fig)


def plot_top_entities(summary: dict[str, Any]) -> str:
    """Top entities of each entity type by PageRank, one panel per type, as base64 PNG."""
    types = [t for t in NODE_TYPES if t != "Paper" and summary["central"].get(t)]
    fig = _figure(7.5, 2.0 * max(1, len(types)) + 0.5)
    for i, t in enumerate(types, start=1):
        ax = fig.add_subplot(len(types), 1, i)
        rows = summary["central"][t][::-1]
        ax.barh([r["label"][:40] for r in rows], [r["degree"] for r in rows], color=TYPE_STYLE[t][0])
        ax.set_title(f"{t}: most central (bar = papers and entities linked)", fontsize=9)
        ax.tick_params(labelsize=7)
    return _png(fig)


_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2em auto; max-width: 70em; color: #222; padding: 0 1em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f4f5f7; }
td.num { text-align: right; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
.plots img { max-width: 100%; border: 1px solid #eee; }
code { font-size: 0.85em; color: #555; }
"""


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(
            f'<td class="num">{v}</td>' if isinstance(v, (int, float)) else f"<td>{html.escape(str(v))}</td>"
            for v in row
        ) + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def render_report(g: nx.Graph, summary: dict[str, Any] | None = None, title: str = "paperkg report") -> str:
    """Return the report page of typed graph ``g`` (``summary`` from :func:`kg.analysis.stats.summary`)."""
    from kg.analysis.stats import summary as compute

    s = summary or compute(g)
    c = s["counts"]
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{c['nodes']} nodes and {c['edges']} links; {s['components']['count']} connected components "
        f"(largest {s['components']['largest']} nodes); {len(s['communities'])} communities.</p>",
        "<h2>Counts</h2>",
        _table(["type", "nodes"], [[t, n] for t, n in c["by_type"].items()]),
        _table(["link", "count"], [[p, n] for p, n in c["links_by_property"].items()]),
        "<h2>Plots</h2><div class=\"plots\">",
        f'<img alt="entities per type" src="data:image/png;base64,{plot_types(s)}">',
        f'<img alt="degree distribution" src="data:image/png;base64,{plot_degrees(g)}">',
        f'<img alt="community sizes" src="data:image/png;base64,{plot_communities(s)}">',
        f'<img alt="top entities by type" src="data:image/png;base64,{plot_top_entities(s)}">',
        "</div>",
        "<h2>Most central by type</h2>",
    ]
    for t, rows in s["central"].items():
        if rows:
            parts.append(f"<h3>{html.escape(t)}</h3>")
            parts.append(_table(["label", "PageRank", "degree", "betweenness", "IRI"],
                                [[r["label"], r["pagerank"], r["degree"], r["betweenness"], r["iri"]] for r in rows]))
    parts.append("<h2>Communities</h2>")
    parts.append("<p>Louvain communities (fixed seed), labelled by their most characteristic entities: "
                 "frequent in the community, rare elsewhere. <code>kg viz --community ID</code> shows one.</p>")
    parts.append(_table(["id", "nodes", "papers", "characteristic entities"],
                        [[k["id"], k["size"], k["papers"], k["label"]] for k in s["communities"][:MAX_COMMUNITIES]]))
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(graph: Any, path: str | Path = "output/report.html", summary: dict[str, Any] | None = None) -> Path:
    """Write ``report.html`` for ``graph`` (an rdflib Graph or a typed NetworkX graph) atomically."""
    from kg.io import atomic_write
    from kg.viz import typed

    g = typed(graph)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, render_report(g, summary).encode("utf-8"))
    return path
