"""Interactive, self-contained HTML views of a paperkg graph (vis-network, as pyvis ships it).

Public functions (each takes an rdflib Graph or an already converted typed NetworkX graph):
:func:`write_overview`, :func:`write_ego`, :func:`write_community`, :func:`write_query_view`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

import networkx as nx

__all__ = ["write_overview", "write_ego", "write_community", "write_query_view", "typed"]


def typed(graph: Any) -> nx.Graph:
    """Return the typed NetworkX graph of ``graph`` (an rdflib Graph, or already a NetworkX graph)."""
    if isinstance(graph, nx.Graph):
        return graph
    from kg.analysis.convert import typed_graph

    return typed_graph(graph)


def write_overview(graph: Any, path: str | Path = "output/graph.html", types: Iterable[str] | None = None,
                   top: int | None = None, seed: int = 0) -> Path:
    """Write the overview page (the ``top`` most central nodes, default 1500) and return its path."""
    from kg.viz import render, views

    g = typed(graph)
    score = views.rank(g)
    limit = views.OVERVIEW_TOP if top is None else top
    h = views.overview(g, types=types, top=limit, score=score)
    shown = f"top {h.number_of_nodes()} of {g.number_of_nodes()} by PageRank" if h.number_of_nodes() < len(g) else ""
    html = render.render_html(h, "paperkg overview", subtitle=shown, score=score, seed=seed)
    return render.write_html(html, path)


def write_ego(graph: Any, focus: str, path: str | Path, depth: int = 2,
              max_nodes: int | None = None, seed: int = 0) -> Path:
    """Write the neighbourhood of ``focus`` (a label, IRI or text prefix) up to ``depth`` hops."""
    from kg.analysis.names import resolve
    from kg.viz import render, views

    g = typed(graph)
    node = resolve(g, focus)
    h = views.ego(g, node, depth=depth, max_nodes=max_nodes or views.EGO_MAX_NODES)
    title = f"{g.nodes[node]['label']} — {depth}-hop neighbourhood"
    html = render.render_html(h, title, subtitle=g.nodes[node]["type"], focus=node, seed=seed)
    return render.write_html(html, path)


def write_community(graph: Any, community_id: int, path: str | Path, top: int | None = None, seed: int = 0) -> Path:
    """Write the page of one Louvain community (ids as listed by ``kg stats``), its ``top`` most
    central nodes when it is larger (default 1500)."""
    from kg.analysis.stats import communities, community_index
    from kg.viz import render, views

    g = typed(graph).copy()
    comms = communities(g, seed=seed)
    for node, cid in community_index(comms).items():
        g.nodes[node]["community"] = cid
    h = views.community(g, comms, community_id)
    label = h.graph.get("community_label", "")
    size = h.number_of_nodes()
    limit = views.OVERVIEW_TOP if top is None else top
    if size > limit:
        h = views.overview(h, top=limit, score=views.rank(g))
    subtitle = f"top {h.number_of_nodes()} of {size} by PageRank" if h.number_of_nodes() < size else ""
    html = render.render_html(h, f"community {community_id}: {label}", subtitle=subtitle, communities=comms, seed=seed)
    return render.write_html(html, path)


def write_query_view(graph: Any, result: Any, path: str | Path, title: str = "query result",
                     seed: int = 0) -> Path:
    """Write the page of a SPARQL result (CONSTRUCT: its graph; SELECT: the IRIs it names)."""
    from kg.viz import render, views

    h = views.query_view(typed(graph), result)
    return render.write_html(render.render_html(h, title, seed=seed), path)
