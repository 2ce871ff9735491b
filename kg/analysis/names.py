"""Resolve a name typed by a user to one node of a typed graph (see :mod:`kg.analysis.convert`).

A node can be named by its IRI (full, prefixed as ``kg query`` prints it, such as ``method:labram``, or
the part after ``id/`` such as ``method/labram``),
its label or an alias (case-insensitive), or a text prefix of its label or, for papers, of its
abstract. Exact matches win over prefixes; several matches at the same level raise
:class:`~kg.errors.AmbiguousNameError` listing the candidates.
"""
from __future__ import annotations

from typing import Callable, Iterable

import networkx as nx

from kg.errors import AmbiguousNameError, NotFoundError
from kg.namespaces import ID, expand_curie

MAX_CANDIDATES = 10


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def describe(g: nx.Graph, node: str) -> str:
    """Return ``"label (Type) <iri>"`` for messages and listings."""
    data = g.nodes[node]
    return f"{data.get('label', node)} ({data.get('type', '?')}) <{node}>"


def resolve(g: nx.Graph, name: str, types: Iterable[str] | None = None) -> str:
    """Return the node named ``name``, restricted to node ``types`` if given.

    Raises :class:`NotFoundError` when nothing matches and :class:`AmbiguousNameError`
    (listing the candidates) when several nodes match equally well.
    """
    wanted = set(types) if types else None
    nodes = [n for n, t in g.nodes(data="type") if wanted is None or t in wanted]
    key = _norm(name)
    if not key:
        raise NotFoundError("empty name: give a label, an IRI or the first words of a label or abstract")
    full = name.strip().strip("<>")
    if full in g and (wanted is None or g.nodes[full]["type"] in wanted):
        return full
    expanded = expand_curie(full)
    for candidate in ([expanded] if expanded else []) + ([str(ID) + full] if not full.startswith("http") else []):
        if candidate in g and (wanted is None or g.nodes[candidate]["type"] in wanted):
            return candidate  # a prefixed name as kg query prints it ("method:labram"), or the part after id/

    def labels(n: str) -> list[str]:
        d = g.nodes[n]
        return [_norm(d.get("label", ""))] + [_norm(a) for a in d.get("aliases", [])]

    levels: list[Callable[[str], bool]] = [
        lambda n: _norm(g.nodes[n].get("label", "")) == key,
        lambda n: key in labels(n),
        lambda n: any(lab.startswith(key) for lab in labels(n)),
        lambda n: _norm(g.nodes[n].get("abstract", "") or "").startswith(key),
        lambda n: n.endswith(name.strip()) and "/" in name,
    ]
    for level in levels:
        found = sorted(n for n in nodes if level(n))
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            shown = [describe(g, n) for n in found[:MAX_CANDIDATES]]
            more = f" and {len(found) - MAX_CANDIDATES} more" if len(found) > MAX_CANDIDATES else ""
            raise AmbiguousNameError(
                f"{name!r} matches {len(found)} nodes; use a longer name or an IRI:\n  "
                + "\n  ".join(shown) + more,
                candidates=found,
            )
    what = " or ".join(sorted(wanted)) if wanted else "paper or entity"
    raise NotFoundError(
        f"no {what} named {name!r} in the graph; give its label, IRI or the first words of its label "
        "or abstract (kg stats lists the main entities)"
    )
