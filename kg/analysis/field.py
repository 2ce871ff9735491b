"""What a field is about, from the typed graph: top entities with their papers, modality × task counts,
and each community's most central papers. Deterministic for a given graph."""
from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from kg.analysis.stats import Community
from kg.entity_types import DISPLAY_ORDER

#: entity types summarised at the top of the report
FIELD_TYPES: tuple[str, ...] = DISPLAY_ORDER


@dataclass
class Evidence:
    """A paper linked to an entity, with the sentence supporting the link when the graph has one."""

    paper: str
    label: str
    year: str
    sentence: str = ""


@dataclass
class TopEntity:
    """An entity, the number of papers linked to it and those papers (newest first)."""

    entity: str
    label: str
    type: str
    papers: int
    evidence: list[Evidence] = field(default_factory=list)


def _papers_of(g: nx.Graph, node: str) -> list[str]:
    return [n for n in g[node] if g.nodes[n]["type"] == "Paper"]


def top_entities(g: nx.Graph, entity_type: str, n: int = 10, evidence: int = 8) -> list[TopEntity]:
    """Return the ``n`` entities of ``entity_type`` linked to most papers, each with up to ``evidence`` papers."""
    nodes = [x for x, t in g.nodes(data="type") if t == entity_type]
    counted = [(x, _papers_of(g, x)) for x in nodes]
    counted.sort(key=lambda xp: (-len(xp[1]), g.nodes[xp[0]]["label"].casefold(), xp[0]))
    result = []
    for x, ps in counted[:n]:
        if not ps:
            break
        ps.sort(key=lambda p: (-int(str(g.nodes[p].get("year") or 0)[:4] or 0), g.nodes[p]["label"].casefold(), p))
        ev = [Evidence(p, g.nodes[p]["label"], str(g.nodes[p].get("year") or ""), g.edges[p, x].get("sentence", ""))
              for p in ps[:evidence]]
        result.append(TopEntity(x, g.nodes[x]["label"], entity_type, len(ps), ev))
    return result


@dataclass
class Matrix:
    """Counts of papers per (row entity, column entity) pair, with the row and column entities in order."""

    rows: list[str]
    columns: list[str]
    labels: dict[str, str]
    counts: dict[tuple[str, str], int]


def _linked(g: nx.Graph, paper: str, prop: str) -> list[str]:
    return [e for e in g[paper] if prop in (g.edges[paper, e].get("properties") or [])]


def modality_task_matrix(g: nx.Graph, max_rows: int = 12, max_columns: int = 14) -> Matrix:
    """Return papers having both a modality (``hasModality``) and a task (``addressesTask``), per pair.

    Rows are the modalities and columns the tasks in the most pairs' papers, at most ``max_rows`` and
    ``max_columns`` of them.
    """
    counts: dict[tuple[str, str], int] = {}
    for paper, t in g.nodes(data="type"):
        if t != "Paper":
            continue
        for m in _linked(g, paper, "hasModality"):
            for task in _linked(g, paper, "addressesTask"):
                counts[(m, task)] = counts.get((m, task), 0) + 1
    labels = {x: g.nodes[x]["label"] for pair in counts for x in pair}

    def order(index: int, limit: int) -> list[str]:
        total: dict[str, int] = {}
        for pair, c in counts.items():
            total[pair[index]] = total.get(pair[index], 0) + c
        return sorted(total, key=lambda x: (-total[x], labels[x].casefold(), x))[:limit]

    return Matrix(order(0, max_rows), order(1, max_columns), labels, counts)


def central_papers(g: nx.Graph, community: Community, n: int = 3) -> list[str]:
    """Return the ``n`` papers of ``community`` with the most links to other members of it."""
    members = set(community.members)
    inside = {p: sum(1 for x in g[p] if x in members) for p in community.papers}
    return sorted(inside, key=lambda p: (-inside[p], g.nodes[p]["label"].casefold(), p))[:n]
