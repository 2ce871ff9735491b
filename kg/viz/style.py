"""How each node type looks in the interactive views, and the plain-text tooltips."""
from __future__ import annotations

from typing import Any

from kg.entity_types import BY_NAME, DISPLAY_ORDER

#: node type -> (colour, vis.js shape); the entity types' come from :mod:`kg.entity_types`
TYPE_STYLE: dict[str, tuple[str, str]] = {
    "Paper": ("#4e79a7", "dot"),
    **{t: (BY_NAME[t].colour, BY_NAME[t].shape) for t in DISPLAY_ORDER},
    "Other": ("#9c9c9c", "dot"),
}

ABSTRACT_CHARS = 320
LABEL_CHARS = 40


def style(node_type: str) -> tuple[str, str]:
    """Return ``(colour, shape)`` of a node type (unknown types look like ``Other``)."""
    return TYPE_STYLE.get(node_type, TYPE_STYLE["Other"])


def short_label(data: dict[str, Any]) -> str:
    """Return the label drawn on the canvas: papers cut to ``LABEL_CHARS`` characters."""
    label = data.get("label") or data.get("iri", "")
    if data.get("type") == "Paper" and len(label) > LABEL_CHARS:
        label = label[: LABEL_CHARS - 1].rstrip() + "…"
    return label


def _first_lines(text: str, limit: int = ABSTRACT_CHARS) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut + " …"


def node_tooltip(data: dict[str, Any]) -> str:
    """Return a node's tooltip as plain text (the page shows it with ``textContent``, never as HTML)."""
    lines = [f"{data.get('type', 'Other')}: {data.get('label', '')}"]
    if data.get("aliases"):
        lines.append("Also: " + ", ".join(data["aliases"]))
    if data.get("type") == "Paper":
        if data.get("year"):
            lines.append(f"Year: {data['year']}")
        if data.get("proposes"):
            lines.append("Proposes: " + ", ".join(data["proposes"]))
        if data.get("abstract"):
            lines += ["", _first_lines(data["abstract"])]
    if data.get("community") is not None:
        lines.append(f"Community: {data['community']}")
    lines += ["", data.get("iri", "")]
    return "\n".join(lines)


def edge_tooltip(data: dict[str, Any]) -> str:
    """Return an edge's tooltip as plain text: its link properties and the supporting sentence."""
    props = data.get("properties") or [data.get("property", "")]
    text = ", ".join(p for p in props if p)
    if data.get("sentence"):
        text += f"\n“{_first_lines(data['sentence'], 400)}”"
    return text
