"""A query worker of ``kg serve``: one process that loads the graph and answers queries sent over a socket.

Started by :class:`kg.server.pool.WorkerPool` as ``python -m kg.server.worker CONFIG.json FD``. It imports
pyoxigraph only (no rdflib), loads the graph into an in-memory store, then caps its own address space
(``RLIMIT_AS``: the size after loading plus the configured headroom) and serves requests one at a time
on a thread with a large stack, so that the engine's recursive parser cannot overflow on any text
within the server's size limit.

Frames both ways are a 4-byte big-endian length and a JSON header, then (answers only) a 4-byte length
and the body. Results are serialised by Oxigraph itself: a SELECT streams through a writer that counts
TSV lines and stops the query at ``max_rows`` + 1 rows or ``max_bytes`` bytes, then is re-serialised into
the format asked for. The worker never decides anything about safety: the server checks every text
before sending it, and the pool kills the worker at the time limit.
"""
from __future__ import annotations

import json
import resource
import socket
import struct
import sys
import threading
from typing import Any

import pyoxigraph as ox

from kg.store.bulkload import load_chunked

#: the stack of the serving thread: enough for the parser on 64 KiB of nested brackets
STACK_BYTES = 512 * 1024 * 1024

_RESULT_FORMATS = {"json": ox.QueryResultsFormat.JSON, "xml": ox.QueryResultsFormat.XML,
                   "csv": ox.QueryResultsFormat.CSV, "tsv": ox.QueryResultsFormat.TSV}
_RDF_FORMATS = {"turtle": ox.RdfFormat.TURTLE, "nt": ox.RdfFormat.N_TRIPLES, "jsonld": ox.RdfFormat.JSON_LD,
                "rdfxml": ox.RdfFormat.RDF_XML}


class LimitExceeded(Exception):
    """The result grew past a limit while it was being written."""


class _Capped:
    """A binary writer that keeps what it is given and raises once ``max_lines`` or ``max_bytes`` pass."""

    def __init__(self, max_lines: int, max_bytes: int, what: str) -> None:
        self.parts: list[bytes] = []
        self.lines = self.size = 0
        self.max_lines, self.max_bytes, self.what = max_lines, max_bytes, what

    def write(self, data: bytes) -> int:
        data = bytes(data)
        self.lines += data.count(b"\n")
        self.size += len(data)
        if self.lines > self.max_lines:
            raise LimitExceeded(f"the result has more than this server's limit of {self.max_lines - 1} "
                                f"{self.what}; add LIMIT (and OFFSET to page through it)")
        if self.size > self.max_bytes:
            raise LimitExceeded(f"the result is over this server's limit of {self.max_bytes} bytes; "
                                "add LIMIT or select fewer columns")
        self.parts.append(data)
        return len(data)

    def flush(self) -> None:
        pass

    def value(self) -> bytes:
        return b"".join(self.parts)


def _term(spec: list[Any]) -> Any:
    kind, value, datatype, lang = spec
    if kind == "iri":
        return ox.NamedNode(value)
    if lang:
        return ox.Literal(value, language=lang)
    return ox.Literal(value, datatype=ox.NamedNode(datatype) if datatype else None)


def _counted(triples: Any, limit: int) -> Any:
    for n, triple in enumerate(triples, 1):
        if n > limit:
            raise LimitExceeded(f"the result has more than this server's limit of {limit} triples; "
                                "add LIMIT (and OFFSET to page through it)")
        yield triple


def answer(store: ox.Store, request: dict[str, Any], prefixes: dict[str, str]) -> tuple[dict[str, Any], bytes]:
    """Run one request; ``({"status": 200, "kind": ...}, body)`` or an error header and an empty body."""
    subs = {ox.Variable(k): _term(v) for k, v in request.get("subs", {}).items()}
    max_rows, max_bytes, fmt = request["max_rows"], request["max_bytes"], request["format"]
    try:
        result = store.query(request["query"], prefixes=prefixes, substitutions=subs)
        if isinstance(result, ox.QueryBoolean):
            return {"status": 200, "kind": "ask"}, result.serialize(format=_RESULT_FORMATS[fmt])
        if isinstance(result, ox.QuerySolutions):
            out = _Capped(max_rows + 1, max_bytes, "rows")  # + 1: the header line
            result.serialize(out, ox.QueryResultsFormat.TSV)
            body = out.value()
            if fmt != "tsv":
                body = ox.parse_query_results(body, ox.QueryResultsFormat.TSV).serialize(format=_RESULT_FORMATS[fmt])
            return {"status": 200, "kind": "select", "rows": out.lines - 1}, body
        out = _Capped(max_rows * 1000 + 1, max_bytes, "triples")  # triples are counted by _counted
        ox.serialize(_counted(result, max_rows), out, _RDF_FORMATS[fmt], prefixes=prefixes)
        return {"status": 200, "kind": "graph"}, out.value()
    except LimitExceeded as exc:
        return {"status": 400, "message": str(exc)}, b""
    except SyntaxError as exc:
        return {"status": 400, "syntax": str(exc)}, b""
    except (RuntimeError, ValueError, TypeError) as exc:
        return {"status": 400, "message": f"query failed: {exc}"}, b""
    except OSError as exc:
        return {"status": 500, "message": f"query failed reading the store: {exc}"}, b""


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    chunks, got = [], 0
    while got < n:
        chunk = sock.recv(min(n - got, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _serve(sock: socket.socket, config: dict[str, Any]) -> None:
    store = ox.Store()
    load_chunked(store, config["data"], ox.RdfFormat.N_QUADS)
    if config.get("memory_mb"):
        with open("/proc/self/statm") as fh:
            size = int(fh.read().split()[0]) * resource.getpagesize()
        cap = size + int(config["memory_mb"]) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    sock.sendall(struct.pack(">I", 2) + b"{}")  # ready
    prefixes = config.get("prefixes", {})
    while True:
        try:
            (length,) = struct.unpack(">I", _recv_exact(sock, 4))
            request = json.loads(_recv_exact(sock, length))
        except EOFError:
            return
        try:
            header, body = answer(store, request, prefixes)
        except MemoryError:
            header, body = {"status": 503, "message": "the query went over this server's memory limit"}, b""
        head = json.dumps(header).encode()
        sock.sendall(struct.pack(">I", len(head)) + head + struct.pack(">I", len(body)) + body)


def main(argv: list[str]) -> int:
    """``python -m kg.server.worker CONFIG.json FD``: serve the socket FD until it closes."""
    with open(argv[1], encoding="utf-8") as fh:
        config = json.load(fh)
    sock = socket.socket(fileno=int(argv[2]))
    threading.stack_size(STACK_BYTES)
    errors: list[BaseException] = []

    def target() -> None:
        try:
            _serve(sock, config)
        except BaseException as exc:  # noqa: BLE001 - reported by the exit status
            errors.append(exc)

    thread = threading.Thread(target=target, name="kg-query-worker")
    thread.start()
    thread.join()
    if errors:
        print(f"kg query worker: {errors[0]!r}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
