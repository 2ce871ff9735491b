"""The data of the explorer's pages: an entity's or paper's label, type, aliases, papers, neighbours,
supporting sentences, and a paper's abstract cut into plain and highlighted pieces.

Free functions over the graph (queried through :func:`kg.sparql.run.run_query`, IRIs bound as parameters,
never pasted into the text) and its typed NetworkX graph (:func:`kg.analysis.convert.typed_graph`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import quote

import networkx as nx
from rdflib import Graph, URIRef

from kg.namespaces import ID
from kg.sparql.run import run_query

__all__ = ["page_path", "iri_of_path", "Piece", "EntityPage", "entity_page", "highlight", "ENTITY_KINDS"]

#: readable routes: /paper/<hex>, /method/<slug>, ... (the IRI path under id:)
ENTITY_KINDS = ("paper", "method", "dataset", "task", "metric", "modality")
_READABLE = re.compile(rf"{re.escape(str(ID))}({'|'.join(ENTITY_KINDS)})/([A-Za-z0-9][A-Za-z0-9._~-]*)")
PAGE_TIMEOUT = 10.0
MAX_SENTENCES = 50


def page_path(iri: str) -> str:
    """The explorer URL of ``iri``: ``/paper/<hex>``, ``/method/<slug>``... or ``/entity?iri=...``."""
    match = _READABLE.fullmatch(iri)
    if match:
        return f"/{match.group(1)}/{match.group(2)}"
    return "/entity?iri=" + quote(iri, safe="")


def iri_of_path(kind: str, key: str) -> str:
    """The IRI a readable route names."""
    return f"{ID}{kind}/{key}"


@dataclass
class Piece:
    """A piece of an abstract: plain text, or a mention of an entity (``iri``, ``type``, ``label``)."""

    text: str
    iri: str | None = None
    type: str = ""
    label: str = ""
    href: str = ""


@dataclass
class Link:
    """A linked node shown on a page."""

    iri: str
    label: str
    type: str
    href: str
    via: str = ""
    count: int = 0


@dataclass
class EntityPage:
    """Everything the page of one IRI shows."""

    iri: str
    label: str
    type: str
    aliases: list[str] = field(default_factory=list)
    facts: list[tuple[str, str, str]] = field(default_factory=list)  # (property, value, href or "")
    papers: list[Link] = field(default_factory=list)
    neighbours: list[Link] = field(default_factory=list)
    sentences: list[tuple[str, str, str]] = field(default_factory=list)  # (paper label, paper href, text)
    abstract: list[Piece] = field(default_factory=list)


_FACTS = """SELECT ?e ?p ?o ?olabel WHERE { ?e ?p ?o OPTIONAL { ?o rdfs:label ?olabel } }"""
_SENTENCES = """SELECT DISTINCT ?e ?paper ?plabel ?s ?text WHERE {
  ?m kg:entity ?e ; kg:paper ?paper ; kg:inSentence ?s . ?s kg:text ?text .
  OPTIONAL { ?paper rdfs:label ?plabel }
} ORDER BY ?plabel ?s LIMIT 200"""
_MENTIONS = """SELECT ?e ?start ?end ?entity ?anchor WHERE {
  ?m kg:paper ?e ; kg:start ?start ; kg:end ?end ; kg:entity ?entity .
  OPTIONAL { ?m kg:anchorText ?anchor }
} ORDER BY ?start DESC(?end)"""
_FACT_NAMES = {"title": "title", "year": "year", "venue": "venue", "codeRepository": "code", "creator": "author",
               "sameAs": "same as", "identifier": "identifier", "keywords": "keyword"}


def _local(iri: str) -> str:
    return re.split(r"[#/]", iri)[-1]


def _safe_href(value: str) -> str:
    """An external link only for http(s) IRIs (never ``javascript:``)."""
    return value if value.startswith(("http://", "https://")) else ""


def _link(g: nx.Graph, iri: str, via: str = "", count: int = 0) -> Link:
    data = g.nodes[iri] if iri in g else {}
    return Link(iri=iri, label=data.get("label") or _local(iri), type=data.get("type", "Other"),
                href=page_path(iri), via=via, count=count)


def highlight(abstract: str, mentions: list[tuple[int, int, str]], g: nx.Graph) -> list[Piece]:
    """Cut ``abstract`` into pieces at the mentions' character offsets ``(start, end, entity IRI)``;
    overlapping or out-of-range mentions are skipped (the earliest, then longest, wins)."""
    pieces: list[Piece] = []
    pos = 0
    for start, end, iri in sorted(mentions, key=lambda m: (m[0], -m[1])):
        if start < pos or end > len(abstract) or start >= end:
            continue
        if start > pos:
            pieces.append(Piece(abstract[pos:start]))
        link = _link(g, iri)
        pieces.append(Piece(abstract[start:end], iri=iri, type=link.type, label=link.label, href=link.href))
        pos = end
    if pos < len(abstract):
        pieces.append(Piece(abstract[pos:]))
    return pieces


def entity_page(graph: Graph, g: nx.Graph, iri: str) -> EntityPage | None:
    """The page of ``iri`` (paper, entity or any other resource), None if the graph says nothing about it."""
    node = URIRef(iri)
    rows = run_query(graph, _FACTS, {"e": node}, timeout=PAGE_TIMEOUT).rows
    if not rows and iri not in g:
        return None
    data = g.nodes[iri] if iri in g else {}
    labels = [str(o) for _, p, o, _ in rows if _local(str(p)) == "label"]
    page = EntityPage(iri=iri, label=data.get("label") or (sorted(labels)[0] if labels else _local(iri)),
                      type=data.get("type") or "", aliases=list(data.get("aliases", [])))
    abstract = ""
    for _, p, o, olabel in sorted(rows, key=lambda r: (str(r[1]), str(r[2]))):
        name = _local(str(p))
        if name == "type" and not page.type:
            page.type = _local(str(o))
        elif name == "abstract":
            abstract = str(o)
        elif name in _FACT_NAMES:
            href = _safe_href(str(o)) if isinstance(o, URIRef) else ""
            page.facts.append((_FACT_NAMES[name], str(olabel or o), href))
    if iri in g:
        neighbours = sorted(g[iri], key=lambda n: (g.nodes[n]["type"], g.nodes[n]["label"].casefold(), n))
        for n in neighbours:
            edge = g.edges[iri, n]
            via = ", ".join(edge.get("properties", []))
            if g.nodes[n]["type"] == "Paper" and data.get("type") != "Paper":
                page.papers.append(_link(g, n, via))
            else:
                page.neighbours.append(_link(g, n, via))
    if page.type == "Paper":
        mentions = run_query(graph, _MENTIONS, {"e": node}, timeout=PAGE_TIMEOUT).rows
        spans = [(int(r[1]), int(r[2]), str(r[3])) for r in mentions if r[1] is not None and r[2] is not None]
        page.abstract = highlight(abstract, spans, g) if abstract else []
    else:
        seen: set[str] = set()
        for _, paper, plabel, sentence, text in run_query(graph, _SENTENCES, {"e": node}, timeout=PAGE_TIMEOUT).rows:
            if str(sentence) in seen or len(page.sentences) >= MAX_SENTENCES:
                continue
            seen.add(str(sentence))
            page.sentences.append((str(plabel or _local(str(paper))), page_path(str(paper)), str(text)))
    return page
