"""Interactive, self-contained HTML views of a paperkg graph (vis-network, as pyvis ships it).

Public functions (each takes an rdflib Graph or an already converted typed NetworkX graph):
:func:`write_overview` (a labelled map coloured by community; the community map on big graphs),
:func:`write_community_map`, :func:`write_paper_map`, :func:`write_ego`, :func:`write_community`,
:func:`write_query_view`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

import networkx as nx

__all__ = ["write_overview", "write_community_map", "write_paper_map", "write_ego", "write_community",
           "write_query_view", "typed"]

#: what an overview shows: "auto" (the community map above MAP_NODES nodes), "nodes" or "communities"
OVERVIEW_KINDS = ("auto", "nodes", "communities")


def typed(graph: Any) -> nx.Graph:
    """Return the typed NetworkX graph of ``graph`` (an rdflib Graph, or already a NetworkX graph)."""
    if isinstance(graph, nx.Graph):
        return graph
    from kg.analysis.convert import typed_graph

    return typed_graph(graph)


def write_overview(graph: Any, path: str | Path = "output/graph.html", types: Iterable[str] | None = None,
                   top: int | None = None, seed: int = 0, kind: str = "auto") -> Path:
    """Write the overview and return its path.

    ``kind="nodes"``: a map of the ``top`` most central nodes (default 1500), coloured by
    community, the top labels and the community names readable at once. ``"communities"``: the
    community map (:func:`write_community_map`). ``"auto"`` (default) picks the community map for
    graphs of more than ``kg.viz.communitymap.MAP_NODES`` nodes when neither ``types`` nor ``top``
    is given.
    """
    from kg.analysis.stats import communities, community_index
    from kg.errors import KGError
    from kg.viz import communitymap, render, views

    if kind not in OVERVIEW_KINDS:
        raise KGError(f"unknown overview {kind!r}: choose one of {', '.join(OVERVIEW_KINDS)}")
    g = typed(graph)
    if kind == "communities" or (kind == "auto" and top is None and not types
                                 and g.number_of_nodes() > communitymap.MAP_NODES):
        return write_community_map(g, path, seed=seed)
    score = views.rank(g)
    comms = communities(g, seed=seed)
    limit = views.OVERVIEW_TOP if top is None else top
    h = views.overview(g, types=types, top=limit, score=score)
    shown = f"top {h.number_of_nodes()} of {g.number_of_nodes()} by PageRank" if h.number_of_nodes() < len(g) else ""
    html = render.render_html(h, "paperkg overview", subtitle=shown, score=score, communities=comms,
                              community=community_index(comms), seed=seed)
    return render.write_html(html, path)


def write_community_map(graph: Any, path: str | Path = "output/graph.html", seed: int = 0,
                        top: int | None = None) -> Path:
    """Write the community map: a node per community; a click opens the community's view (its
    ``top`` most central nodes, default 1500) in the same page. Return its path."""
    from kg.viz import communitymap, render

    html = communitymap.render_community_map(typed(graph), seed=seed, top=top or communitymap.COMMUNITY_TOP)
    return render.write_html(html, path)


def write_paper_map(graph: Any, path: str | Path = "output/papers.html", top: int | None = None,
                    seed: int = 0) -> Path:
    """Write the paper map: papers linked by the entities they share, coloured by year (the
    ``top`` most linked papers, default 1500). Return its path."""
    from kg.viz import papermap, render

    html = papermap.render_paper_map(typed(graph), top=top or papermap.PAPER_TOP, seed=seed)
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
