"""Run the SPARQL query a ``kg viz --query`` view shows (through :mod:`kg.sparql.run` when present)."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from rdflib import Graph

from kg.errors import QueryError


def run_view_query(graph: Graph, query: str, params: dict[str, str] | None = None) -> Any:
    """Return the result of ``query`` (a ``.rq`` file, a saved query name or SPARQL text).

    The result has ``.graph`` (CONSTRUCT/DESCRIBE) or ``.rows`` (SELECT).
    """
    try:
        from kg.sparql.run import run_query
    except ImportError:
        run_query = None
    if run_query is not None:
        return run_query(graph, query, params or {})
    path = Path(query)
    text = path.read_text(encoding="utf-8") if path.suffix == ".rq" and path.is_file() else query
    try:
        result = graph.query(text)
    except Exception as exc:  # rdflib raises many parser exception types
        raise QueryError(f"query {query!r} failed: {exc}") from exc
    if result.type in ("CONSTRUCT", "DESCRIBE"):
        constructed = Graph()
        for triple in result:
            constructed.add(triple)
        return SimpleNamespace(kind="graph", graph=constructed, rows=None, columns=[])
    if result.type == "SELECT":
        columns = [str(v) for v in result.vars or []]
        return SimpleNamespace(kind="select", graph=None, rows=[tuple(r) for r in result], columns=columns)
    raise QueryError(f"query {query!r} is an ASK query: it names no nodes to show; use SELECT or CONSTRUCT")
