"""Start the real ``kg serve`` (uvicorn in a subprocess) on a free loopback port, for the server tests."""
from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def running_server(graph: Path, *options: str, ready_timeout: float = 60.0) -> Iterator[str]:
    """Run ``python -m kg serve --graph GRAPH`` with ``options``; yield its base URL once /health answers."""
    port = free_port()
    cmd = [sys.executable, "-m", "kg", "serve", "--graph", str(graph), "--host", "127.0.0.1",
           "--port", str(port), "--log-level", "warning", *options]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + ready_timeout
        while True:
            if proc.poll() is not None:
                out = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
                raise RuntimeError(f"kg serve exited with {proc.returncode}:\n{out}")
            try:
                if httpx.get(url + "/health", timeout=1.0).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"kg serve did not answer /health within {ready_timeout} s")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
