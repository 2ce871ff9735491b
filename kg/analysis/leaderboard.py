"""Reported results grouped by dataset and metric, from the ``leaderboard`` saved query."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Entry:
    """One reported result: the value as written, its number, the method if stated and the paper."""

    value: str
    numeric: float | None
    method: str
    paper: str
    label: str


@dataclass
class Board:
    """The results reported on one dataset in one metric, in the saved query's order (best first: the highest
    number, or the lowest for a metric that is better lower, ``kg:lowerIsBetter``)."""

    dataset: str
    metric: str
    entries: list[Entry] = field(default_factory=list)

    @property
    def papers(self) -> int:
        """Number of distinct papers reporting a result here."""
        return len({e.paper for e in self.entries})


def leaderboards(graph: Any) -> list[Board]:
    """Return one :class:`Board` per (dataset, metric) pair of an rdflib Graph, most results first."""
    from kg.sparql.run import run_query

    boards: dict[tuple[str, str], Board] = {}
    seen: dict[tuple[str, str], set] = defaultdict(set)
    result = run_query(graph, "leaderboard", timeout=None)
    col = {c: i for i, c in enumerate(result.columns)}
    for row in result.rows:
        dataset, metric = str(row[col["datasetLabel"]]), str(row[col["metricLabel"]])
        numeric = row[col["numeric"]]
        entry = Entry(str(row[col["value"]]), float(numeric) if numeric is not None else None,
                      str(row[col["methodLabel"]] or ""), str(row[col["paper"]]), str(row[col["label"]]))
        key = (dataset, metric)
        ident = (entry.paper, entry.value, entry.method)
        if ident in seen[key]:
            continue
        seen[key].add(ident)
        boards.setdefault(key, Board(dataset, metric)).entries.append(entry)
    return sorted(boards.values(), key=lambda b: (-len(b.entries), b.dataset.casefold(), b.metric.casefold()))
