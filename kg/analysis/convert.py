"""Convert a paperkg RDF graph into NetworkX graphs.

Three views are derived from the RDF graph:

* :func:`typed_graph` — papers and entities as nodes (``iri``, ``type``, ``label``, ``aliases``
  and, for papers, ``abstract``, ``year`` and ``proposes``); paper–entity links (and a paper's
  results, to their metric, dataset and method) and entity–entity relations as edges
  (``property``, ``properties`` and, when the graph carries ``kg:Mention`` evidence, the
  supporting ``sentence``).
* :func:`paper_projection` — papers linked by the entities they share, each shared entity
  weighing ``idf(e) = log(1 + N / df(e))`` where ``N`` is the number of papers and ``df(e)``
  the number of papers linked to ``e``: an entity almost every paper uses (``accuracy``)
  contributes little, a rare one (``LaBraM``) a lot. The weight of a paper pair is the sum
  of the idf of the entities they share.
* :func:`cooccurrence_graph` — entities linked when the same paper uses both; the ``weight``
  is the number of such papers.
"""
from __future__ import annotations

import math
from collections import defaultdict
from itertools import chain, combinations
from typing import Iterable

import networkx as nx
from rdflib import Graph, URIRef

from kg.entity_types import BY_NAME, DISPLAY_ORDER, ENTITY_TYPES
from kg.namespaces import KG

#: kg class local name -> node type shown to users (sub-classes map to their parent)
CLASS_TYPES: dict[str, str] = {"Paper": "Paper", **{c: t.name for t in ENTITY_TYPES for c in (t.name, *t.subclasses)}}

#: node types in display order
NODE_TYPES: tuple[str, ...] = ("Paper", *DISPLAY_ORDER)

#: paper -> entity link properties (local names), most specific first
PAPER_LINKS: tuple[str, ...] = ("proposes", *(BY_NAME[t].link for t in DISPLAY_ORDER), "mentions")

#: entity -> entity relation properties (local names)
ENTITY_RELATIONS: tuple[str, ...] = ("evaluatedOn", "comparesWith", "extends", "hasComponent", "appliedTo")

_KG = str(KG)


def _local(iri: str) -> str:
    return iri[len(_KG):] if iri.startswith(_KG) else iri


def _values(names: Iterable[str]) -> str:
    return " ".join(f"kg:{n}" for n in names)


_NODES_QUERY = f"""
PREFIX kg: <{_KG}>
SELECT ?node ?class WHERE {{
  ?node a ?class .
  VALUES ?class {{ {_values(CLASS_TYPES)} }}
}}"""

_LABELS_QUERY = """
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
SELECT ?node ?p ?value WHERE {
  VALUES ?p { rdfs:label skos:prefLabel skos:altLabel }
  ?node ?p ?value .
}"""

_PAPER_QUERY = f"""
PREFIX kg: <{_KG}>
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?paper ?p ?value WHERE {{
  ?paper a kg:Paper .
  VALUES ?p {{ dcterms:abstract dcterms:title kg:year }}
  ?paper ?p ?value .
}}"""

_LINKS_QUERY = f"""
PREFIX kg: <{_KG}>
SELECT ?s ?p ?o WHERE {{
  VALUES ?p {{ {_values(PAPER_LINKS + ENTITY_RELATIONS)} }}
  ?s ?p ?o .
}}"""

#: a paper's results link it to their metric, dataset and method, which a mention may not (a speed-up read
#: from "2x faster"): shown as ``reportsResult`` edges, ranked below every named link
_RESULT_LINKS_QUERY = f"""
PREFIX kg: <{_KG}>
SELECT DISTINCT ?paper ?entity WHERE {{
  ?paper kg:reportsResult ?r .
  VALUES ?p {{ kg:metric kg:dataset kg:method }}
  ?r ?p ?entity .
}}"""

_EVIDENCE_QUERY = f"""
PREFIX kg: <{_KG}>
SELECT ?paper ?entity ?property ?text WHERE {{
  ?m a kg:Mention ; kg:paper ?paper ; kg:entity ?entity ; kg:property ?property ; kg:inSentence ?s .
  ?s kg:text ?text .
}}"""

_RELATION_EVIDENCE_QUERY = f"""
PREFIX kg: <{_KG}>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
SELECT ?s ?p ?o ?text WHERE {{
  ?a a kg:RelationAssertion ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o ; kg:inSentence ?sent .
  ?sent kg:text ?text .
}}"""


def as_typed(graph: Graph | nx.Graph) -> nx.Graph:
    """``graph`` as a typed NetworkX graph: converted from RDF, or as it is when it already is one."""
    return graph if isinstance(graph, nx.Graph) else typed_graph(graph)


def typed_graph(graph: Graph) -> nx.Graph:
    """Return the typed paper–entity graph of ``graph`` (see the module docstring).

    Node ids are IRIs (strings). Edge ``property`` is the most specific link (``proposes`` wins over
    ``usesMethod``); ``properties`` lists every link between the two nodes; ``kind`` is ``"mention"``
    for paper–entity links and ``"relation"`` for entity–entity relations.
    """
    g = nx.Graph(name="paperkg")
    order = {t: i for i, t in enumerate(NODE_TYPES)}
    for row in graph.query(_NODES_QUERY):
        iri, cls = str(row[0]), CLASS_TYPES[_local(str(row[1]))]
        if not isinstance(row[0], URIRef):
            continue
        old = g.nodes[iri]["type"] if iri in g else None
        if old is None or order[cls] < order[old]:
            g.add_node(iri, iri=iri, type=cls, label="", aliases=[])
    labels: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for row in graph.query(_LABELS_QUERY):
        node = str(row[0])
        if node in g:
            labels[node][_local_label(str(row[1]))].append(str(row[2]))
    for node, by_prop in labels.items():
        label = sorted(by_prop.get("label") or by_prop.get("prefLabel") or [""])[0]
        aliases = sorted({a for a in by_prop.get("altLabel", []) + by_prop.get("prefLabel", []) if a != label})
        g.nodes[node]["label"] = label
        g.nodes[node]["aliases"] = aliases
    for node, data in g.nodes(data=True):
        if not data["label"]:
            data["label"] = node.rsplit("/", 1)[-1]
        if data["type"] == "Paper":
            data.update(abstract="", title="", year="", proposes=[])
    for row in graph.query(_PAPER_QUERY):
        paper, prop = str(row[0]), _local_label(str(row[1]))
        if paper in g:
            key = {"abstract": "abstract", "title": "title", "year": "year"}[prop]
            g.nodes[paper][key] = str(row[2])
    links = chain(((str(s), _local(str(p)), str(o)) for s, p, o in graph.query(_LINKS_QUERY)),
                  ((str(s), "reportsResult", str(o)) for s, o in graph.query(_RESULT_LINKS_QUERY)))
    for s, p, o in links:
        if s not in g or o not in g or s == o:
            continue
        kind = "relation" if p in ENTITY_RELATIONS else "mention"
        if kind == "mention" and g.nodes[s]["type"] != "Paper":
            continue
        if p == "proposes":
            g.nodes[s]["proposes"].append(g.nodes[o]["label"])
        if g.has_edge(s, o):
            data = g.edges[s, o]
            if p not in data["properties"]:
                data["properties"].append(p)
                data["properties"].sort(key=_link_rank)
                data["property"] = data["properties"][0]
        else:
            g.add_edge(s, o, property=p, properties=[p], kind=kind, sentence="")
    for query in (_EVIDENCE_QUERY, _RELATION_EVIDENCE_QUERY):
        for row in graph.query(query):
            a, b, text = str(row[0]), str(row[1]), str(row[3])
            if g.has_edge(a, b) and not g.edges[a, b]["sentence"]:
                g.edges[a, b]["sentence"] = text
    for node in g:
        if g.nodes[node]["type"] == "Paper":
            g.nodes[node]["proposes"] = sorted(set(g.nodes[node]["proposes"]))
    return g


def _local_label(iri: str) -> str:
    return iri.rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def _link_rank(prop: str) -> int:
    links = PAPER_LINKS + ENTITY_RELATIONS
    return links.index(prop) if prop in links else len(links)


def papers(g: nx.Graph) -> list[str]:
    """Return the paper nodes of a typed graph, sorted by IRI."""
    return sorted(n for n, t in g.nodes(data="type") if t == "Paper")


def paper_entities(g: nx.Graph, paper: str) -> set[str]:
    """Return the entities a paper is linked to in the typed graph."""
    return {n for n in g[paper] if g.nodes[n]["type"] != "Paper"}


def entity_idf(g: nx.Graph) -> dict[str, float]:
    """Return ``log(1 + N / df)`` for every entity linked to at least one paper (see module docstring)."""
    n_papers = sum(1 for _, t in g.nodes(data="type") if t == "Paper")
    idf: dict[str, float] = {}
    for node, t in g.nodes(data="type"):
        if t == "Paper":
            continue
        df = sum(1 for n in g[node] if g.nodes[n]["type"] == "Paper")
        if df:
            idf[node] = math.log(1 + n_papers / df)
    return idf


def paper_projection(g: nx.Graph, max_df: int | None = None) -> nx.Graph:
    """Return the paper–paper graph weighted by the idf of shared entities.

    Edge attributes: ``weight`` (sum of idf of the shared entities) and ``shared`` (their IRIs).
    ``max_df`` skips entities used by more papers than that (they weigh little and cost a
    quadratic number of pairs on large graphs).
    """
    idf = entity_idf(g)
    p = nx.Graph(name="paper projection")
    p.add_nodes_from((n, g.nodes[n]) for n in papers(g))
    for entity in sorted(idf):
        linked = sorted(n for n in g[entity] if g.nodes[n]["type"] == "Paper")
        if max_df is not None and len(linked) > max_df:
            continue
        for a, b in combinations(linked, 2):
            if p.has_edge(a, b):
                p.edges[a, b]["weight"] += idf[entity]
                p.edges[a, b]["shared"].append(entity)
            else:
                p.add_edge(a, b, weight=idf[entity], shared=[entity])
    return p


def cooccurrence_graph(g: nx.Graph) -> nx.Graph:
    """Return the entity–entity graph: entities linked when a paper uses both, ``weight`` = #papers."""
    c = nx.Graph(name="entity co-occurrence")
    c.add_nodes_from((n, d) for n, d in g.nodes(data=True) if d["type"] != "Paper")
    for paper in papers(g):
        for a, b in combinations(sorted(paper_entities(g, paper)), 2):
            if c.has_edge(a, b):
                c.edges[a, b]["weight"] += 1
            else:
                c.add_edge(a, b, weight=1)
    return c
