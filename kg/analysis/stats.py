"""Statistics over the typed paper–entity graph: counts, centrality, components, communities,
similar papers and shortest connections. Every result is deterministic for a given graph."""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

import networkx as nx

from kg.analysis.convert import NODE_TYPES, entity_idf, paper_entities, papers
from kg.entity_types import DATASET, METHOD, MODALITY, TASK
from kg.errors import NotFoundError

#: above this many nodes, betweenness is estimated from BETWEENNESS_SAMPLES sources
EXACT_BETWEENNESS_MAX = 1500
BETWEENNESS_SAMPLES = 64
#: entity types used to label communities (metrics are too generic to name a topic)
LABEL_TYPES = frozenset({METHOD, DATASET, MODALITY, TASK})


@dataclass
class Community:
    """A Louvain community: its id (1 = largest), members, papers and characteristic entities."""

    id: int
    members: list[str]
    papers: list[str]
    top_entities: list[str] = field(default_factory=list)
    label: str = ""

    @property
    def size(self) -> int:
        return len(self.members)


def sorted_copy(g: nx.Graph) -> nx.Graph:
    """Return a copy of ``g`` whose nodes and edges are inserted in sorted order.

    Louvain and the layouts depend on insertion order; sorting makes them independent of the
    order in which the RDF store returned the triples.
    """
    h = nx.Graph()
    h.add_nodes_from((n, g.nodes[n]) for n in sorted(g))
    h.add_edges_from(sorted((min(u, v), max(u, v), d) for u, v, d in g.edges(data=True)))
    return h


def counts(g: nx.Graph) -> dict[str, Any]:
    """Return node counts by type and edge counts by link property."""
    by_type = Counter(t for _, t in g.nodes(data="type"))
    by_prop: Counter[str] = Counter()
    for _, _, props in g.edges(data="properties"):
        by_prop.update(props or [])
    return {
        "nodes": g.number_of_nodes(),
        "edges": g.number_of_edges(),
        "by_type": {t: by_type.get(t, 0) for t in NODE_TYPES},
        "links_by_property": dict(sorted(by_prop.items())),
    }


def centrality(g: nx.Graph, seed: int = 0) -> dict[str, dict[str, float]]:
    """Return ``{"degree": ..., "pagerank": ..., "betweenness": ...}`` for every node.

    Betweenness is exact up to ``EXACT_BETWEENNESS_MAX`` nodes, else estimated from
    ``BETWEENNESS_SAMPLES`` sources drawn with ``seed``.
    """
    h = sorted_copy(g)
    if h.number_of_nodes() == 0:
        return {"degree": {}, "pagerank": {}, "betweenness": {}}
    degree = {n: float(d) for n, d in h.degree()}
    pagerank = nx.pagerank(h) if h.number_of_edges() else {n: 1 / len(h) for n in h}
    k = None if len(h) <= EXACT_BETWEENNESS_MAX else BETWEENNESS_SAMPLES
    betweenness = nx.betweenness_centrality(h, k=k, seed=seed)
    return {"degree": degree, "pagerank": pagerank, "betweenness": betweenness}


def top_by_type(g: nx.Graph, cent: dict[str, dict[str, float]], n: int = 5) -> dict[str, list[dict[str, Any]]]:
    """Return the ``n`` entities of each type with the highest PageRank, with all three scores."""
    result: dict[str, list[dict[str, Any]]] = {}
    for t in NODE_TYPES:
        nodes = [x for x, tt in g.nodes(data="type") if tt == t]
        nodes.sort(key=lambda x: (-cent["pagerank"][x], -cent["degree"][x], g.nodes[x]["label"], x))
        result[t] = [
            {
                "iri": x,
                "label": g.nodes[x]["label"],
                "degree": int(cent["degree"][x]),
                "pagerank": round(cent["pagerank"][x], 6),
                "betweenness": round(cent["betweenness"][x], 6),
            }
            for x in nodes[:n]
        ]
    return result


def components(g: nx.Graph) -> dict[str, Any]:
    """Return the number of connected components and their sizes (largest first)."""
    sizes = sorted((len(c) for c in nx.connected_components(g)), reverse=True)
    return {"count": len(sizes), "largest": sizes[0] if sizes else 0, "sizes": sizes[:20],
            "isolated_nodes": sum(1 for s in sizes if s == 1)}


def communities(g: nx.Graph, seed: int = 0, n_labels: int = 3) -> list[Community]:
    """Return Louvain communities (``seed`` fixed, so deterministic), largest first.

    Each is labelled by its most characteristic methods, datasets, modalities and tasks: those
    scoring highest on ``c(e) × log(1 + N / df(e)) × c(e) / df(e)`` where ``c(e)`` counts the
    community's papers linked to ``e`` and ``df(e)`` all papers linked to ``e``: frequent in the
    community, rare overall and mostly used inside it (an entity every paper uses characterises none).
    """
    h = sorted_copy(g)
    if h.number_of_edges() == 0:
        parts = [{n} for n in h]
    else:
        parts = nx.community.louvain_communities(h, seed=seed)
    parts = sorted((sorted(p) for p in parts), key=lambda p: (-len(p), p[0]))
    idf = entity_idf(g)
    result = []
    for i, members in enumerate(parts, start=1):
        ps = [m for m in members if g.nodes[m]["type"] == "Paper"]
        inside: Counter[str] = Counter()
        for p in ps:
            inside.update(e for e in paper_entities(g, p) if g.nodes[e]["type"] in LABEL_TYPES)
        score: dict[str, float] = {
            e: c * idf.get(e, 0.0) * c / max(1, _paper_degree(g, e)) for e, c in inside.items()
        }
        if not score:
            for m in members:
                if g.nodes[m]["type"] != "Paper":
                    score[m] = g.degree(m) * idf.get(m, 1.0)
        if not score:
            score = {m: float(g.degree(m)) for m in members}
        ranked = sorted(score, key=lambda e: (-score[e], g.nodes[e]["label"].casefold(), e))[:n_labels]
        labels = [g.nodes[e]["label"] for e in ranked]
        if not labels:
            labels = [g.nodes[members[0]]["label"]]
        result.append(Community(i, members, ps, ranked, " / ".join(labels)))
    return result


def _paper_degree(g: nx.Graph, node: str) -> int:
    return sum(1 for x in g[node] if g.nodes[x]["type"] == "Paper")


def community_index(comms: list[Community]) -> dict[str, int]:
    """Return node -> community id."""
    return {m: c.id for c in comms for m in c.members}


@dataclass
class Similar:
    """A paper related to another one, its score and the shared entities explaining it."""

    paper: str
    label: str
    score: float
    shared: list[str]
    shared_labels: list[str]


def similar(g: nx.Graph, paper: str, n: int = 10) -> list[Similar]:
    """Return up to ``n`` papers ranked by the idf-weighted entities they share with ``paper``.

    The score is the sum of ``log(1 + N / df(e))`` over shared entities (see
    :mod:`kg.analysis.convert`); shared entities are listed rarest first.
    """
    if paper not in g or g.nodes[paper]["type"] != "Paper":
        raise NotFoundError(f"{paper} is not a paper of the graph")
    n_papers = len(papers(g))
    shared: dict[str, list[str]] = {}
    for e in paper_entities(g, paper):
        for q in g[e]:
            if q != paper and g.nodes[q]["type"] == "Paper":
                shared.setdefault(q, []).append(e)
    idf = {e: math.log(1 + n_papers / sum(1 for x in g[e] if g.nodes[x]["type"] == "Paper"))
           for es in shared.values() for e in es}
    ranked = []
    for q, es in shared.items():
        es.sort(key=lambda e: (-idf[e], g.nodes[e]["label"].casefold()))
        ranked.append(Similar(q, g.nodes[q]["label"], round(sum(idf[e] for e in es), 6), es,
                              [g.nodes[e]["label"] for e in es]))
    ranked.sort(key=lambda s: (-s.score, s.label.casefold(), s.paper))
    return ranked[:n]


def path(g: nx.Graph, a: str, b: str) -> list[dict[str, str]]:
    """Return the shortest connection from ``a`` to ``b`` as steps ``{node, label, type, via}``.

    Hubs cost more than specific nodes (each hop costs ``log(2 + degree)`` of the node it enters),
    so a path through a rare shared method is preferred over one through ``accuracy``.
    ``via`` is the link property used to reach the node. Raises :class:`NotFoundError` if the two
    are not connected.
    """
    for x in (a, b):
        if x not in g:
            raise NotFoundError(f"{x} is not in the graph")

    def cost(u: str, v: str, _d: dict) -> float:
        return math.log(2 + g.degree(v)) + math.log(2 + g.degree(u))

    try:
        nodes = nx.dijkstra_path(sorted_copy(g), a, b, weight=cost)
    except nx.NetworkXNoPath:
        raise NotFoundError(
            f"{g.nodes[a]['label']!r} and {g.nodes[b]['label']!r} are not connected: they lie in "
            "different connected components (kg stats lists them)"
        ) from None
    steps = []
    for i, x in enumerate(nodes):
        via = g.edges[nodes[i - 1], x]["property"] if i else ""
        sentence = g.edges[nodes[i - 1], x].get("sentence", "") if i else ""
        steps.append({"node": x, "label": g.nodes[x]["label"], "type": g.nodes[x]["type"],
                      "via": via, "sentence": sentence})
    return steps


def summary(g: nx.Graph, seed: int = 0, top: int = 5, comms: list[Community] | None = None) -> dict[str, Any]:
    """Return every statistic of ``kg stats`` as a JSON-ready dict (``comms``: communities already computed)."""
    cent = centrality(g, seed=seed)
    comms = communities(g, seed=seed) if comms is None else comms
    return {
        "counts": counts(g),
        "central": top_by_type(g, cent, n=top),
        "components": components(g),
        "communities": [
            {"id": c.id, "size": c.size, "papers": len(c.papers), "label": c.label,
             "top_entities": c.top_entities}
            for c in comms
        ],
    }


def as_dict(obj: Any) -> Any:
    """Return a dataclass (or list of them) as plain dicts for JSON output."""
    if isinstance(obj, list):
        return [as_dict(o) for o in obj]
    return asdict(obj)
