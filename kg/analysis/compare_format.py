"""Write paper profiles (:mod:`kg.analysis.compare`) as a terminal table, CSV or a self-contained HTML page.

One column per paper, one row per aspect. The HTML page has its CSS inline, loads nothing and
escapes every text taken from the graph.
"""
from __future__ import annotations

import csv
import html
import io
import textwrap
from typing import Callable, Sequence

from kg.analysis.compare import ROWS, Profile

FORMATS = ("table", "csv", "html")
#: width of the first (row name) column of the terminal table
NAME_WIDTH = 13
MIN_COLUMN = 16


def _header(p: Profile) -> str:
    return f"{p.label} ({p.year})" if p.year else p.label


def to_table(profiles: Sequence[Profile], width: int = 100) -> str:
    """Return the comparison as a text table fitting ``width`` columns (cells wrapped, one value a line)."""
    n = len(profiles)
    col = max(MIN_COLUMN, (width - NAME_WIDTH - 3 * n) // max(n, 1))

    def cell(values: Sequence[str]) -> list[str]:
        lines: list[str] = []
        for v in values or ["-"]:
            wrapped = textwrap.wrap(v, col - 2, break_long_words=True) or [""]
            lines += [("· " if values else "") + wrapped[0]] + [("  " if values else "") + w for w in wrapped[1:]]
        return lines

    def block(name: str, cells: list[list[str]]) -> list[str]:
        height = max(len(c) for c in cells)
        out = []
        for i in range(height):
            first = name if i == 0 else ""
            out.append(first.ljust(NAME_WIDTH) + " | " + " | ".join(
                (c[i] if i < len(c) else "").ljust(col) for c in cells).rstrip())
        return out

    rule = "-" * NAME_WIDTH + "-+-" + "-+-".join("-" * col for _ in profiles)
    heads = [textwrap.wrap(_header(p), col) or [""] for p in profiles]
    lines = block("paper", heads) + [rule]
    for row in ROWS:
        lines += block(row, [cell(p.rows[row]) for p in profiles]) + [rule]
    return "\n".join(lines) + "\n"


def to_csv(profiles: Sequence[Profile]) -> str:
    """Return the comparison as CSV: a header of paper labels, then rows ``iri``, ``year`` and each aspect
    (several values joined by ``"; "``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["field"] + [p.label for p in profiles])
    writer.writerow(["iri"] + [p.paper for p in profiles])
    writer.writerow(["year"] + [p.year for p in profiles])
    for row in ROWS:
        writer.writerow([row] + ["; ".join(p.rows[row]) for p in profiles])
    return out.getvalue()


_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; margin: 0 0 0.3em; }
p.note { color: #555; margin: 0 0 1em; font-size: 0.9em; }
table { border-collapse: collapse; font-size: 0.9em; table-layout: fixed; width: 100%; }
th, td { border: 1px solid #d6d8dc; padding: 0.35em 0.6em; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
thead th { background: #eef1f5; }
tbody th { background: #f7f8fa; width: 9em; font-weight: 600; }
th small { display: block; font-weight: normal; color: #666; font-size: 0.8em; }
ul { margin: 0; padding-left: 1.1em; }
td.none { color: #aaa; }
"""


def to_html(profiles: Sequence[Profile], title: str = "Paper comparison", note: str = "") -> str:
    """Return a self-contained HTML page with the comparison table (all text escaped)."""
    esc = html.escape
    head = "".join(f"<th>{esc(p.label)}<small>{esc(p.year or 'year unknown')} · {esc(p.paper)}</small></th>"
                   for p in profiles)
    body = []
    for row in ROWS:
        cells = []
        for p in profiles:
            values = p.rows[row]
            if values:
                cells.append("<td><ul>" + "".join(f"<li>{esc(v)}</li>" for v in values) + "</ul></td>")
            else:
                cells.append('<td class="none">–</td>')
        body.append(f"<tr><th scope=\"row\">{esc(row)}</th>{''.join(cells)}</tr>")
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{esc(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        f'<p class="note">{esc(note)}</p>' if note else "",
        f'<table><thead><tr><th scope="col">paper</th>{head}</tr></thead><tbody>',
        *body,
        "</tbody></table></body></html>",
    ]) + "\n"


RENDERERS: dict[str, Callable[..., str]] = {"table": to_table, "csv": to_csv, "html": to_html}
