"""The report's static plots, each returned as PNG bytes, each with a title and axis labels."""
from __future__ import annotations

from collections import Counter
from typing import Any

import networkx as nx

from kg.analysis.convert import NODE_TYPES
from kg.viz.figures import figure, png
from kg.viz.style import TYPE_STYLE


def plot_types(summary: dict[str, Any]) -> bytes:
    """Bar chart of node counts by type."""
    fig = figure()
    ax = fig.add_subplot()
    by_type = summary["counts"]["by_type"]
    ax.bar(list(by_type), list(by_type.values()), color=[TYPE_STYLE[t][0] for t in by_type])
    ax.set_xlabel("node type")
    ax.set_ylabel("nodes")
    ax.set_title("Papers and entities by type")
    return png(fig)


def plot_degrees(g: nx.Graph) -> bytes:
    """Degree distribution (log-log scatter of degree frequency)."""
    fig = figure()
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
    return png(fig)


def plot_communities(summary: dict[str, Any], top: int = 20) -> bytes:
    """Sizes of the largest communities."""
    comms = summary["communities"][:top]
    fig = figure(6.4, max(2.5, 0.28 * len(comms) + 1))
    ax = fig.add_subplot()
    labels = [f"{c['id']}: {c['label'][:40]}" for c in comms][::-1]
    ax.barh(labels, [c["size"] for c in comms][::-1], color="#4e79a7")
    ax.set_xlabel("nodes")
    ax.set_ylabel("community (id: characteristic entities)")
    ax.set_title(f"Largest communities (of {len(summary['communities'])})")
    ax.tick_params(axis="y", labelsize=7)
    return png(fig)


def plot_top_entities(summary: dict[str, Any]) -> bytes:
    """Top entities of each entity type by PageRank, one panel per type."""
    types = [t for t in NODE_TYPES if t != "Paper" and summary["central"].get(t)]
    fig = figure(7.5, 2.0 * max(1, len(types)) + 0.5)
    fig.suptitle("Most central entities by type (PageRank order)", fontsize=10)
    for i, t in enumerate(types, start=1):
        ax = fig.add_subplot(len(types), 1, i)
        rows = summary["central"][t][::-1]
        ax.barh([r["label"][:40] for r in rows], [r["degree"] for r in rows], color=TYPE_STYLE[t][0])
        ax.set_title(t, fontsize=9)
        ax.set_ylabel(t.lower(), fontsize=8)
        ax.set_xlabel("links (papers and entities)", fontsize=8)
        ax.tick_params(labelsize=7)
    return png(fig)
