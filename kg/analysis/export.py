"""Write the typed paper–entity graph for network tools (Gephi, Cytoscape): GraphML and GEXF.

``NETWORK_FORMATS`` maps a format name to its writer; each writes node attributes ``iri``,
``type``, ``label``, ``aliases`` (``"; "``-joined) and, for papers, ``year`` and ``abstract``, and edge
attributes ``property``, ``properties``, ``kind`` and ``sentence``.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import networkx as nx

from kg.errors import GraphError


def flat(g: nx.Graph) -> nx.Graph:
    """Return a copy of ``g`` whose attribute values are strings or numbers (lists joined by ``"; "``)."""
    def clean(data: dict[str, Any]) -> dict[str, Any]:
        out = {}
        for key, value in data.items():
            if value is None:
                continue
            if isinstance(value, (list, tuple, set)):
                value = "; ".join(str(v) for v in value)
            elif not isinstance(value, (str, int, float, bool)):
                value = str(value)
            out[key] = value
        return out

    h = nx.Graph(name=g.graph.get("name", "paperkg"))
    h.add_nodes_from((n, clean(g.nodes[n])) for n in sorted(g))
    h.add_edges_from(sorted((u, v, clean(d)) for u, v, d in g.edges(data=True)))
    return h


def _graphml(g: nx.Graph) -> bytes:
    buffer = io.BytesIO()
    nx.write_graphml(flat(g), buffer, encoding="utf-8", prettyprint=True)
    return buffer.getvalue()


def _gexf(g: nx.Graph) -> bytes:
    buffer = io.BytesIO()
    nx.write_gexf(flat(g), buffer, encoding="utf-8", prettyprint=True)
    return buffer.getvalue()


@dataclass(frozen=True)
class NetworkFormat:
    """A network export format: its name, file extension and writer (typed graph -> bytes)."""

    name: str
    extension: str
    write: Callable[[nx.Graph], bytes]


#: network export formats by name
NETWORK_FORMATS: dict[str, NetworkFormat] = {
    "graphml": NetworkFormat("graphml", ".graphml", _graphml),
    "gexf": NetworkFormat("gexf", ".gexf", _gexf),
}


def serialize_network(graph: Any, fmt: str) -> bytes:
    """Return ``graph`` (rdflib Graph or typed NetworkX graph) serialised in network format ``fmt``."""
    from kg.analysis.convert import as_typed

    try:
        writer = NETWORK_FORMATS[fmt]
    except KeyError:
        raise GraphError(f"unknown network format {fmt!r}; choose one of {', '.join(NETWORK_FORMATS)}") from None
    return writer.write(as_typed(graph))


def write_network(graph: Any, path: str | Path, fmt: str | None = None) -> Path:
    """Write ``graph`` to ``path`` atomically; ``fmt`` defaults to the format of the file extension."""
    from kg.store.io import atomic_write

    path = Path(path)
    if fmt is None:
        by_ext = {f.extension: name for name, f in NETWORK_FORMATS.items()}
        fmt = by_ext.get(path.suffix.lower())
        if fmt is None:
            raise GraphError(f"cannot tell the network format of {path}; use a .graphml or .gexf file name")
    data = serialize_network(graph, fmt)
    atomic_write(path, data)
    return path
