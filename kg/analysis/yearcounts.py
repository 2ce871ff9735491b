"""Gather papers per year, and papers per year linking each entity, from a graph.

Two sources give the same counts: the RDF graph, through the saved queries ``papers-per-year`` and
``entity-by-year`` (fast on a large graph), and the typed NetworkX graph of
:mod:`kg.analysis.convert` (the report has it already). An entity's type is the link a paper
uses (``usesMethod`` makes a Method, ...), as in ``entity-by-year.rq``.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

import networkx as nx

from kg.analysis.trends import EntityCounts
from kg.entity_types import BY_NAME, DISPLAY_ORDER
from kg.errors import ArgumentError

#: paper -> entity link property -> entity type counted by the trends
LINK_TYPES: dict[str, str] = {BY_NAME[t].link: t for t in DISPLAY_ORDER}
#: entity types in display order
TREND_TYPES: tuple[str, ...] = DISPLAY_ORDER


def check_type(entity_type: str | None) -> str | None:
    """Return the canonical spelling of ``entity_type`` (case-insensitive); ArgumentError if unknown."""
    if entity_type is None:
        return None
    for t in TREND_TYPES:
        if t.casefold() == entity_type.casefold():
            return t
    raise ArgumentError(f"unknown entity type {entity_type!r}; choose one of {', '.join(TREND_TYPES)}")


def _year(value: Any) -> int | None:
    text = str(value or "").strip()
    return int(text[:4]) if text[:4].isdigit() and len(text) >= 4 else None


def counts_from_rdf(graph: Any, entity_type: str | None = None) -> tuple[list[EntityCounts], dict[int, int]]:
    """Return (entity counts, papers per year) of an rdflib Graph, through the saved queries."""
    from kg.sparql.run import run_query

    entity_type = check_type(entity_type)
    totals: dict[int, int] = defaultdict(int)
    for year, papers in run_query(graph, "papers-per-year", timeout=None).rows:
        y = _year(year)
        if y is not None:
            totals[y] += int(papers)
    params = {"type": entity_type} if entity_type else None
    result = run_query(graph, "entity-by-year", params, timeout=None)
    col = {c: i for i, c in enumerate(result.columns)}
    per: dict[tuple[str, str], dict[int, int]] = defaultdict(lambda: defaultdict(int))
    labels: dict[tuple[str, str], str] = {}
    for row in result.rows:
        t = entity_type or str(row[col["type"]])
        key = (str(row[col["entity"]]), t)
        y = _year(row[col["year"]])
        if y is None:
            continue
        per[key][y] = int(row[col["papers"]])  # an entity with two labels has the same count on two rows
        label = str(row[col["label"]])
        labels[key] = min(label, labels.get(key, label))  # one label when an entity has several
    return _entity_counts(per, labels), dict(totals)


def counts_from_typed(g: nx.Graph, entity_type: str | None = None) -> tuple[list[EntityCounts], dict[int, int]]:
    """Return (entity counts, papers per year) of a typed NetworkX graph (same counts as :func:`counts_from_rdf`)."""
    entity_type = check_type(entity_type)
    totals: dict[int, int] = defaultdict(int)
    per: dict[tuple[str, str], dict[int, int]] = defaultdict(lambda: defaultdict(int))
    labels: dict[tuple[str, str], str] = {}
    for paper, data in g.nodes(data=True):
        if data.get("type") != "Paper":
            continue
        y = _year(data.get("year"))
        if y is None:
            continue
        totals[y] += 1
        for entity in g[paper]:
            props = g.edges[paper, entity].get("properties") or []
            for t in {LINK_TYPES[p] for p in props if p in LINK_TYPES}:
                if entity_type is None or t == entity_type:
                    per[(entity, t)][y] += 1
                    labels[(entity, t)] = g.nodes[entity].get("label", entity)
    return _entity_counts(per, labels), dict(totals)


def _entity_counts(per: dict[tuple[str, str], dict[int, int]], labels: dict[tuple[str, str], str]) -> list[EntityCounts]:
    return [EntityCounts(entity=e, label=labels[(e, t)], type=t, counts=dict(per[(e, t)]))
            for e, t in sorted(per)]
