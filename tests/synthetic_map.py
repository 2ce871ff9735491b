"""A synthetic typed graph big enough for the community map (a few thousand nodes), built in a
fraction of a second: clusters of papers sharing their cluster's entities, a few links across."""
from __future__ import annotations

import random

import networkx as nx

ID = "https://w3id.org/paperkg/id/"
TYPES = ("Method", "Dataset", "Task", "Modality", "Metric")
#: the hub of cluster 0 is named with markup, which every page must show as text
XSS_LABEL = "<img src=x onerror=alert(1)>"


def synthetic_graph(clusters: int = 12, papers: int = 110, entities: int = 160, links: int = 4,
                    across: float = 0.04, seed: int = 0) -> nx.Graph:
    """Return a typed graph (the attributes of :func:`kg.analysis.convert.typed_graph`) of
    ``clusters × (papers + entities)`` nodes."""
    rng = random.Random(seed)
    g = nx.Graph(name="synthetic")
    hubs: list[list[str]] = []
    for c in range(clusters):
        names = []
        for e in range(entities):
            kind = TYPES[e % len(TYPES)]
            iri = f"{ID}{kind.lower()}/c{c}-e{e}"
            label = XSS_LABEL if (c, e) == (0, 0) else f"{kind} {c}.{e}"
            g.add_node(iri, iri=iri, type=kind, label=label, aliases=[])
            names.append(iri)
        hubs.append(names)
    for c in range(clusters):
        for p in range(papers):
            iri = f"{ID}paper/c{c}p{p:03d}"
            g.add_node(iri, iri=iri, type="Paper", label=f"P{c}.{p}", aliases=[], title=f"Paper {p} of cluster {c}",
                       abstract="A synthetic abstract. " * 4, year=str(2017 + p % 8), proposes=[])
            for _ in range(links):
                pool = hubs[rng.randrange(clusters)] if rng.random() < across else hubs[c]
                # a few hubs per cluster, a long tail of specific entities
                entity = pool[min(int(rng.expovariate(1 / 12)), len(pool) - 1)]
                g.add_edge(iri, entity, property="usesMethod", properties=["usesMethod"], kind="mention", sentence="")
    return g
