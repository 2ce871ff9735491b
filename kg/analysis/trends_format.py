"""Write :class:`~kg.analysis.trends.Trends` as a terminal table, CSV or JSON.

Shares are fractions in JSON and CSV and percentages in the table; slopes are share per year in JSON
and CSV (0.01 = one percentage point a year) and percentage points per year in the table.
"""
from __future__ import annotations

import csv
import io
import json
from typing import Any, Callable

from kg.analysis.text import cut
from kg.analysis.trends import EntityTrend, Trends

#: entity labels longer than this are cut in the table
LABEL_WIDTH = 36
FORMATS = ("table", "csv", "json")


def ranked(trends: Trends, top: int) -> dict[str, list[EntityTrend]]:
    """The ``top`` rising, falling and bursting entities."""
    return {"rising": trends.rising(top), "falling": trends.falling(top), "bursting": trends.bursting(top)}


def _burst_text(e: EntityTrend) -> str:
    return "-" if e.burst is None else e.burst.text()


def _section(title: str, rows: list[EntityTrend], trends: Trends, with_type: bool) -> list[str]:
    first, last = trends.window[0], trends.window[-1]
    head = ["#", "entity"] + (["type"] if with_type else []) + ["papers", f"share {first}", f"share {last}",
                                                                 "slope pp/yr", "burst (weight)"]
    body = [[str(i), cut(e.label, LABEL_WIDTH)] + ([e.type] if with_type else []) + [
        str(e.papers), f"{100 * e.shares[first]:.2f}%", f"{100 * e.shares[last]:.2f}%",
        f"{100 * e.slope:+.2f}", _burst_text(e)] for i, e in enumerate(rows, start=1)]
    lines = [title]
    if not body:
        return lines + ["  (none)", ""]
    widths = [max(len(r[c]) for r in [head] + body) for c in range(len(head))]
    left = {1, 2} if with_type else {1}
    fmt = lambda r: "  " + "  ".join(v.ljust(w) if c in left else v.rjust(w)  # noqa: E731
                                     for c, (v, w) in enumerate(zip(r, widths))).rstrip()
    return lines + [fmt(head), fmt(["-" * w for w in widths])] + [fmt(r) for r in body] + [""]


def to_table(trends: Trends, top: int, what: str = "entities") -> str:
    """Return the rising, falling and bursting tables, readable in a terminal."""
    r = ranked(trends, top)
    with_type = len({e.type for e in trends.entities}) > 1
    papers = sum(trends.totals.values())
    lines = [
        f"{what}: {len(trends.entities)} with at least {trends.min_papers} papers; {papers} papers from "
        f"{trends.years[0]} to {trends.years[-1]}",
        f"share = papers of the year linking the entity / papers of the year; slope over "
        f"{trends.window[0]}-{trends.window[-1]} in percentage points a year; burst: Kleinberg's two-state "
        "model (years, weight)",
        "",
    ]
    lines += _section(f"Rising (top {top})", r["rising"], trends, with_type)
    lines += _section(f"Falling (top {top})", r["falling"], trends, with_type)
    lines += _section(f"Strongest bursts (top {top})", r["bursting"], trends, with_type)
    return "\n".join(lines).rstrip() + "\n"


def _record(e: EntityTrend) -> dict[str, Any]:
    return {
        "entity": e.entity, "label": e.label, "type": e.type, "papers": e.papers,
        "slope": round(e.slope, 6),
        "burst": None if e.burst is None else {"start": e.burst.start, "end": e.burst.end, "weight": e.burst.weight},
        "counts": {str(y): c for y, c in e.counts.items()},
        "shares": {str(y): round(s, 6) for y, s in e.shares.items()},
    }


def to_json(trends: Trends, top: int) -> str:
    """Return the trends as a JSON document: years, papers per year, window and the ranked entities."""
    doc = {
        "years": trends.years,
        "papers_per_year": {str(y): n for y, n in trends.totals.items()},
        "window": trends.window,
        "min_papers": trends.min_papers,
        "entities": len(trends.entities),
        **{k: [_record(e) for e in v] for k, v in ranked(trends, top).items()},
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def to_csv(trends: Trends, top: int) -> str:
    """Return one CSV row per ranked entity (``list`` = rising, falling or bursting), shares per year as columns."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["list", "rank", "entity", "label", "type", "papers", "slope", "burst_start", "burst_end",
                     "burst_weight"] + [f"share_{y}" for y in trends.years] + [f"papers_{y}" for y in trends.years])
    for name, rows in ranked(trends, top).items():
        for i, e in enumerate(rows, start=1):
            b = e.burst
            writer.writerow([name, i, e.entity, e.label, e.type, e.papers, f"{e.slope:.6f}",
                             b.start if b else "", b.end if b else "", b.weight if b else ""]
                            + [f"{e.shares[y]:.6f}" for y in trends.years] + [e.counts[y] for y in trends.years])
    return out.getvalue()


RENDERERS: dict[str, Callable[[Trends, int], str]] = {"table": to_table, "csv": to_csv, "json": to_json}
