"""``kg serve``: a read-only SPARQL 1.1 Protocol endpoint and a web explorer, as one Starlette ASGI app.

:func:`create_app` builds the app over a graph; :func:`from_env` builds it from environment variables
for ``uvicorn --factory`` (several worker processes).
"""
from __future__ import annotations

import os
from typing import Any

__all__ = ["create_app", "from_env"]


def create_app(graph: Any, **limits: Any) -> Any:
    """The ASGI app serving ``graph`` (see :func:`kg.server.app.create_app` for the limits)."""
    from kg.server.app import create_app as _create_app

    return _create_app(graph, **limits)


def from_env() -> Any:
    """The app for ``uvicorn --factory kg.server:from_env``: the graph from ``KG_GRAPH`` (an RDF file) or
    ``KG_STORE`` (an Oxigraph store directory, opened read-only), limits from ``KG_TIMEOUT``,
    ``KG_MAX_ROWS``, ``KG_MAX_QUERY_BYTES``, ``KG_WORKERS``, ``KG_CORS`` (an origin) and ``KG_ALLOWED_HOSTS``
    (comma-separated Host names added to the defaults)."""
    from kg.store.load import graph_from_options

    graph = graph_from_options(os.environ.get("KG_GRAPH"), os.environ.get("KG_STORE"))
    limits: dict[str, Any] = {}
    if os.environ.get("KG_TIMEOUT"):
        limits["timeout"] = float(os.environ["KG_TIMEOUT"])
    if os.environ.get("KG_MAX_ROWS"):
        limits["max_rows"] = int(os.environ["KG_MAX_ROWS"])
    if os.environ.get("KG_MAX_QUERY_BYTES"):
        limits["max_query_bytes"] = int(os.environ["KG_MAX_QUERY_BYTES"])
    if os.environ.get("KG_WORKERS"):
        limits["workers"] = int(os.environ["KG_WORKERS"])
    if os.environ.get("KG_ALLOWED_HOSTS"):
        from kg.server.app import DEFAULT_HOSTS

        limits["allowed_hosts"] = [*DEFAULT_HOSTS, *os.environ["KG_ALLOWED_HOSTS"].split(",")]
    if os.environ.get("KG_CORS"):
        limits["cors"] = os.environ["KG_CORS"]
    return create_app(graph, **limits)
