"""HTML building blocks of the report: tables, figures with captions, evidence lists. Every text is escaped."""
from __future__ import annotations

import base64
import html
from typing import Any, Sequence

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2em auto; max-width: 72em; color: #222; padding: 0 1em; line-height: 1.4; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f4f5f7; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
caption { caption-side: bottom; text-align: left; color: #555; font-size: 0.85em; padding-top: 0.3em; }
figure { margin: 0 0 1.5em; }
figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { color: #555; font-size: 0.85em; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
.types { display: grid; grid-template-columns: repeat(auto-fill, minmax(21em, 1fr)); gap: 0 1.5em; }
details { margin: 0.1em 0; }
details ul { margin: 0.2em 0 0.5em; padding-left: 1.2em; font-size: 0.9em; }
details q { color: #555; }
table.heat td { text-align: center; min-width: 2.2em; }
table.heat th.col { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; font-weight: normal; }
code { font-size: 0.85em; color: #555; }
"""


def esc(text: Any) -> str:
    """Escape ``text`` for HTML (quotes too)."""
    return html.escape(str(text))


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], caption: str = "", css_class: str = "") -> str:
    """Return an HTML table; numbers are right-aligned, every other value escaped text.

    A value given as :class:`Raw` is inserted as it is (already escaped markup).
    """
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(cell(v) for v in row) + "</tr>" for row in rows)
    cls = f' class="{esc(css_class)}"' if css_class else ""
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    return f"<table{cls}>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


class Raw(str):
    """Markup that :func:`table` inserts without escaping (build it from escaped parts only)."""


def cell(value: Any) -> str:
    """Return one table cell for ``value``."""
    if isinstance(value, Raw):
        return f"<td>{value}</td>"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"<td>{esc(value)}</td>"
    return f'<td class="num">{value}</td>'


def figure(png: bytes, alt: str, caption: str) -> str:
    """Return a ``<figure>`` with the PNG inlined as base64 and a one-line caption."""
    data = base64.b64encode(png).decode("ascii")
    return (f'<figure><img alt="{esc(alt)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{esc(caption)}</figcaption></figure>")


def details(summary: str, items: Sequence[str], note: str = "") -> str:
    """Return a ``<details>`` element: ``summary`` (text) and a list of ``items`` (already escaped markup)."""
    lis = "".join(f"<li>{i}</li>" for i in items)
    extra = f"<div>{note}</div>" if note else ""
    return f"<details><summary>{esc(summary)}</summary>{extra}<ul>{lis}</ul></details>"


def plural(n: int, noun: str) -> str:
    """``"1 paper"``, ``"2 papers"``."""
    return f"{n} {noun}" + ("" if n == 1 else "s")
