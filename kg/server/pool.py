"""The server's query workers: a small pool of processes, each with the graph, its own memory cap and a
hard time limit enforced by killing it.

A request takes an idle worker (waiting at most the time limit for one), sends the checked query and
reads the answer. A worker that runs past the limit is killed and replaced; one that dies (a crash in
the engine, the memory cap) is replaced too, and the request gets a clear 5xx. Every other client goes
on being served by the other workers, and the server's own memory never holds a result larger than the
byte limit.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kg.errors import KGError
from kg.server.guard import Refused

__all__ = ["WorkerPool", "PoolStats"]

_STARTUP_TIMEOUT = 120.0
_LOG = logging.getLogger("kg.server")


@dataclass
class PoolStats:
    """Counters shown by ``/health``."""

    workers: int = 0
    starting: int = 0
    restarts: int = 0
    timeouts: int = 0
    crashes: int = 0
    busy: int = 0
    reasons: list[str] = field(default_factory=list)


class _Worker:
    def __init__(self, proc: subprocess.Popen, sock: socket.socket) -> None:
        self.proc = proc
        self.sock = sock
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def connect(self) -> None:
        self.reader, self.writer = await asyncio.open_unix_connection(sock=self.sock)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        if self.writer is not None:
            self.writer.close()
        else:
            self.sock.close()

    def exit_status(self, wait: float = 2.0) -> int | None:
        try:
            return self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None


class WorkerPool:
    """``size`` worker processes serving ``nquads`` (an N-Quads file), with the server's limits."""

    def __init__(self, nquads: Path, *, size: int, timeout: float, max_rows: int, max_bytes: int,
                 memory_mb: int | None, prefixes: dict[str, str]) -> None:
        self.size = max(1, size)
        self.timeout = timeout
        self.max_rows = max_rows
        self.max_bytes = max_bytes
        self.stats = PoolStats()
        self._dir = tempfile.TemporaryDirectory(prefix="kg-serve-")
        self._config = Path(self._dir.name) / "worker.json"
        self._config.write_text(json.dumps({"data": str(nquads), "memory_mb": memory_mb,
                                            "prefixes": prefixes}), encoding="utf-8")
        self._idle: asyncio.Queue[_Worker] | None = None
        self._all: set[_Worker] = set()
        self._closing = False

    # ------------------------------------------------------------------ lifecycle

    def _spawn_blocking(self) -> _Worker:
        parent, child = socket.socketpair()
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", RUST_BACKTRACE="0")
        proc = subprocess.Popen([sys.executable, "-m", "kg.server.worker", str(self._config), str(child.fileno())],
                                pass_fds=(child.fileno(),), stdin=subprocess.DEVNULL, env=env)
        child.close()
        parent.settimeout(_STARTUP_TIMEOUT)
        try:
            header = parent.recv(6)
        except OSError as exc:
            proc.kill()
            raise KGError(f"a query worker did not start within {_STARTUP_TIMEOUT:g} s: {exc}") from exc
        if header != struct.pack(">I", 2) + b"{}":
            proc.kill()
            raise KGError(f"a query worker failed to start (exit status {proc.wait()}); see the messages above")
        parent.setblocking(False)
        return _Worker(proc, parent)

    async def _spawn(self) -> _Worker:
        worker = await asyncio.to_thread(self._spawn_blocking)
        await worker.connect()
        self._all.add(worker)
        self.stats.workers = len(self._all)
        return worker

    async def start(self) -> None:
        """Start every worker; KGError if one cannot start."""
        self._idle = asyncio.Queue()
        for worker in await asyncio.gather(*(self._spawn() for _ in range(self.size))):
            self._idle.put_nowait(worker)

    async def close(self) -> None:
        """Stop every worker and remove the pool's files."""
        self._closing = True
        for worker in list(self._all):
            worker.kill()
            worker.exit_status()
        self._all.clear()
        self._dir.cleanup()

    def _retire(self, worker: _Worker, reason: str) -> None:
        _LOG.warning("query worker %s stopped (%s); starting a new one", worker.proc.pid, reason)
        worker.kill()
        self._all.discard(worker)
        self.stats.workers = len(self._all)
        self.stats.reasons = (self.stats.reasons + [reason])[-10:]
        if not self._closing:
            self.stats.starting += 1  # counted at once, so that workers + starting stays the pool's size
            asyncio.get_running_loop().create_task(self._replace())

    async def _replace(self) -> None:
        try:
            for attempt in range(3):
                try:
                    worker = await self._spawn()
                    break
                except KGError as exc:
                    _LOG.error("could not start a replacement query worker (attempt %d of 3): %s", attempt + 1, exc)
                    await asyncio.sleep(1.0)
            else:
                return
        finally:
            self.stats.starting -= 1
        self.stats.restarts += 1
        assert self._idle is not None
        self._idle.put_nowait(worker)

    # ------------------------------------------------------------------ queries

    async def run(self, query: str, fmt: str, subs: dict[str, list[Any]] | None = None) -> tuple[dict[str, Any], bytes]:
        """Answer ``query`` in result format ``fmt``: ``(header, body)``; :class:`Refused` with the reason."""
        if self._idle is None:
            raise KGError("the worker pool is not started")
        started = time.monotonic()
        try:
            worker = await asyncio.wait_for(self._idle.get(), self.timeout)
        except asyncio.TimeoutError:
            raise Refused(f"every query worker is busy; try again in a few seconds (time limit "
                          f"{self.timeout:g} s)", 503) from None
        self.stats.busy += 1
        try:
            request = json.dumps({"query": query, "format": fmt, "subs": subs or {}, "max_rows": self.max_rows,
                                  "max_bytes": self.max_bytes}).encode()
            assert worker.reader is not None and worker.writer is not None
            worker.writer.write(struct.pack(">I", len(request)) + request)
            left = max(0.01, self.timeout - (time.monotonic() - started))
            try:
                header, body = await asyncio.wait_for(self._read(worker), left)
            except asyncio.TimeoutError:
                self.stats.timeouts += 1
                self._retire(worker, "timeout")
                raise Refused(f"the query was stopped at this server's {self.timeout:g} s time limit; add LIMIT "
                              "or narrow the patterns", 503) from None
            except (asyncio.IncompleteReadError, ConnectionError):
                self.stats.crashes += 1
                status = worker.exit_status()
                self._retire(worker, f"exit {status}")
                raise self._death(status) from None
        finally:
            self.stats.busy -= 1
        self._idle.put_nowait(worker)
        if "syntax" in header:
            from kg.sparql.run import syntax_error

            raise Refused(str(syntax_error(query, header["syntax"])), 400)
        if header.get("status", 500) != 200:
            raise Refused(header.get("message", "the query failed"), header.get("status", 500))
        return header, body

    @staticmethod
    async def _read(worker: _Worker) -> tuple[dict[str, Any], bytes]:
        assert worker.reader is not None
        (n,) = struct.unpack(">I", await worker.reader.readexactly(4))
        header = json.loads(await worker.reader.readexactly(n))
        (n,) = struct.unpack(">I", await worker.reader.readexactly(4))
        return header, await worker.reader.readexactly(n)

    @staticmethod
    def _death(status: int | None) -> Refused:
        if status in (-signal.SIGABRT, -signal.SIGKILL, 1):
            return Refused("the query went over this server's memory limit per query and was stopped; "
                           "narrow the patterns or add LIMIT", 503)
        if status == -signal.SIGSEGV:
            return Refused("the query engine crashed on this query and was restarted; the query is refused", 500)
        return Refused(f"the query worker stopped unexpectedly (exit status {status}) and was restarted", 500)
