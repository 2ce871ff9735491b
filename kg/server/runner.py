"""Run the server's queries with its limits: time, result size, and a cap on runaway queries.

Oxigraph cannot cancel a running query. By default a query runs in a thread that the request stops
waiting for at the time limit (cheap: Oxigraph releases the GIL); the timed-out query then runs on in
the background, so at most ``max_runaways`` of them may be running at once before new queries are
refused with 503 until they end. With ``isolate=True`` each query runs in a forked worker process that
is killed at the limit (what :func:`kg.query.run_query` does with ``isolate``), at the price of a fork
per query.
"""
from __future__ import annotations

import os
import threading
from typing import Any, Mapping

from rdflib import Graph

from kg.errors import QueryError
from kg.query import QueryResult, run_query
from kg.server.guard import Refused

__all__ = ["QueryRunner"]


class QueryRunner:
    """Runs read-only queries on one graph with the server's limits (thread-safe, blocking)."""

    def __init__(self, graph: Graph, *, timeout: float, max_rows: int, isolate: bool = False,
                 max_runaways: int = 2) -> None:
        self.graph = graph
        self.timeout = timeout
        self.max_rows = max_rows
        self.isolate = isolate and hasattr(os, "fork")
        self.max_runaways = max_runaways
        self._runaways: set[threading.Thread] = set()
        self._lock = threading.Lock()

    def runaways(self) -> int:
        """How many timed-out queries are still running in the background."""
        with self._lock:
            self._runaways = {t for t in self._runaways if t.is_alive()}
            return len(self._runaways)

    def _timeout(self) -> Refused:
        return Refused(f"the query was stopped at this server's {self.timeout:g} s time limit; add LIMIT or "
                       "narrow the patterns", 503)

    def _in_thread(self, text: str, params: Mapping[str, Any]) -> QueryResult:
        if self.runaways() >= self.max_runaways:
            raise Refused(f"the server is still finishing {self.max_runaways} timed-out queries; try again "
                          "in a minute", 503)
        box: dict[str, Any] = {}

        def target() -> None:
            try:
                box["value"] = run_query(self.graph, text, params, timeout=None)
            except BaseException as exc:  # noqa: BLE001 - re-raised by the waiting request
                box["error"] = exc

        worker = threading.Thread(target=target, name="kg-serve-query", daemon=True)
        worker.start()
        worker.join(self.timeout)
        if worker.is_alive():
            with self._lock:
                self._runaways.add(worker)
            raise self._timeout()
        if "error" in box:
            raise box["error"]
        return box["value"]

    def run(self, text: str, params: Mapping[str, Any] | None = None) -> QueryResult:
        """Run ``text`` (already checked by :func:`kg.server.guard.check_query`); QueryError or Refused."""
        params = params or {}
        if self.isolate:
            try:
                result = run_query(self.graph, text, params, timeout=self.timeout, isolate=True)
            except QueryError as exc:
                if "timeout" in str(exc) and "stopped after" in str(exc):
                    raise self._timeout() from None
                raise
        else:
            result = self._in_thread(text, params)
        if len(result) > self.max_rows:
            unit = "triples" if result.graph is not None else "rows"
            raise Refused(f"the result has more than this server's limit of {self.max_rows} {unit}; "
                          "add LIMIT (and OFFSET to page through it)", 400)
        return result
