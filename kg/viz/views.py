"""Select the part of the typed graph each interactive view shows."""
from __future__ import annotations

from typing import Any, Iterable

import networkx as nx
from rdflib import Graph, URIRef

from kg.analysis.stats import Community, sorted_copy
from kg.errors import NotFoundError

#: default number of nodes of the overview (the most central ones) on large graphs
OVERVIEW_TOP = 1500
#: ego views keep at most this many nodes (the closest, then the most central): < 1 MB a page
EGO_MAX_NODES = 200


def rank(g: nx.Graph) -> dict[str, float]:
    """Return PageRank of every node (deterministic: computed on a sorted copy)."""
    if g.number_of_edges() == 0:
        return {n: 1.0 / max(1, len(g)) for n in g}
    return nx.pagerank(sorted_copy(g))


def _keep_top(g: nx.Graph, nodes: Iterable[str], top: int | None, score: dict[str, float]) -> list[str]:
    ordered = sorted(nodes, key=lambda n: (-score.get(n, 0.0), n))
    return ordered if top is None else ordered[:top]


def overview(g: nx.Graph, types: Iterable[str] | None = None, top: int | None = OVERVIEW_TOP,
             score: dict[str, float] | None = None) -> nx.Graph:
    """Return the nodes of the given ``types`` (all by default), the ``top`` most central ones."""
    wanted = {t.casefold() for t in types} if types else None
    nodes = [n for n, t in g.nodes(data="type") if wanted is None or t.casefold() in wanted]
    if top is not None and len(nodes) > top:
        nodes = _keep_top(g, nodes, top, score or rank(g))
    return g.subgraph(nodes).copy()


def ego(g: nx.Graph, focus: str, depth: int = 2, max_nodes: int = EGO_MAX_NODES,
        score: dict[str, float] | None = None) -> nx.Graph:
    """Return the neighbourhood of ``focus`` up to ``depth`` hops, at most ``max_nodes`` nodes.

    When the neighbourhood is larger, nearer nodes are kept first and, at the same distance, the
    more central ones.
    """
    if focus not in g:
        raise NotFoundError(f"{focus} is not in the graph")
    dist = nx.single_source_shortest_path_length(g, focus, cutoff=depth)
    if len(dist) > max_nodes:
        score = score or rank(g)
        keep = sorted(dist, key=lambda n: (dist[n], -score.get(n, 0.0), n))[:max_nodes]
    else:
        keep = list(dist)
    h = g.subgraph(keep).copy()
    h.nodes[focus]["focus"] = True
    return h


def community(g: nx.Graph, comms: list[Community], cid: int) -> nx.Graph:
    """Return the subgraph of community ``cid`` (ids as listed by ``kg stats``)."""
    for c in comms:
        if c.id == cid:
            h = g.subgraph(c.members).copy()
            h.graph["community_label"] = c.label
            return h
    raise NotFoundError(f"no community {cid}; kg stats lists communities 1 to {len(comms)}")


def query_view(g: nx.Graph, result: Any) -> nx.Graph:
    """Return the graph a SPARQL result names.

    A CONSTRUCT/DESCRIBE result (``result.graph``) gives its own triples: IRI-valued triples become
    edges, typed-graph attributes are reused where the node is known. SELECT rows give the nodes of
    the typed graph named by their IRI values and the links among them.
    """
    constructed = getattr(result, "graph", None)
    if isinstance(constructed, Graph):
        return _constructed_view(g, constructed)
    rows = getattr(result, "rows", None) or []
    if not rows and getattr(result, "kind", None) == "select":
        raise NotFoundError("the query returned no rows, so there is nothing to show; check it with kg query first")
    iris: set[str] = set()
    for row in rows:
        values = row.values() if isinstance(row, dict) else row
        for value in values:
            if value is not None and str(value) in g:
                iris.add(str(value))
    if not iris:
        raise NotFoundError("the query result names no paper or entity of the graph; "
                            "select IRIs (e.g. ?paper, ?method) or use a CONSTRUCT query")
    return g.subgraph(iris).copy()


def _constructed_view(g: nx.Graph, constructed: Graph) -> nx.Graph:
    h = nx.Graph()
    labels: dict[str, str] = {}
    for s, p, o in constructed:
        if str(p).endswith(("#label", "/label", "#prefLabel")) and not isinstance(o, URIRef):
            labels[str(s)] = str(o)
    for s, p, o in sorted(constructed):
        if not isinstance(s, URIRef) or not isinstance(o, URIRef) or str(p).endswith("#type"):
            continue
        for n in (str(s), str(o)):
            if n not in h:
                attrs = dict(g.nodes[n]) if n in g else {"iri": n, "type": "Other", "aliases": [],
                                                        "label": labels.get(n, n.rsplit("/", 1)[-1].rsplit("#", 1)[-1])}
                h.add_node(n, **attrs)
        prop = str(p).rsplit("#", 1)[-1].rsplit("/", 1)[-1]
        if h.has_edge(str(s), str(o)):
            h.edges[str(s), str(o)]["properties"].append(prop)
        else:
            sentence = g.edges[str(s), str(o)].get("sentence", "") if g.has_edge(str(s), str(o)) else ""
            h.add_edge(str(s), str(o), property=prop, properties=[prop], sentence=sentence)
    for s, label in sorted(labels.items()):
        if s not in h:
            h.add_node(s, **(dict(g.nodes[s]) if s in g else {"iri": s, "type": "Other", "aliases": [], "label": label}))
    return h
