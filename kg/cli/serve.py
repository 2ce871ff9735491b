"""``kg serve``: a read-only SPARQL 1.1 Protocol endpoint and web explorer over one graph."""
from __future__ import annotations

import ipaddress
from pathlib import Path

import click

from kg.cli.common import graph_options, handle_errors
from kg.errors import GraphError


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command()
@graph_options
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (loopback by default; 0.0.0.0 exposes the server to the network).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="TCP port.")
@click.option("--timeout", default=10.0, show_default=True, type=click.FloatRange(min=0.1),
              help="Time limit of one query, in seconds (503 when reached).")
@click.option("--max-rows", default=10_000, show_default=True, type=click.IntRange(min=1),
              help="Largest result (rows or triples) answered; larger ones get 400 (add LIMIT).")
@click.option("--max-query-bytes", default=64 * 1024, show_default=True, type=click.IntRange(min=64),
              help="Largest query text accepted (413 above).")
@click.option("--cors", "cors", default=None, metavar="ORIGIN", multiple=True,
              help="Allow browser pages of ORIGIN (repeatable, or '*') to call the endpoint; off by default.")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64),
              help="Query worker processes (each holds the graph; a worker past the time limit is killed).")
@click.option("--worker-memory", "worker_memory", default=1024, show_default=True, type=click.IntRange(min=0),
              metavar="MB", help="Memory a worker may use beyond the loaded graph (RLIMIT_AS); 0: no cap.")
@click.option("--max-result-bytes", default=64 * 1024 * 1024, show_default=True, type=click.IntRange(min=1024),
              help="Largest result answered, in bytes; larger ones are stopped while they stream (400).")
@click.option("--max-depth", default=64, show_default=True, type=click.IntRange(1, 10_000),
              help="Deepest nesting of { ( [ accepted in a query (400 above).")
@click.option("--allowed-host", "allowed_hosts", multiple=True, metavar="NAME",
              help="Host header to serve besides localhost, 127.0.0.1 and the bind address (repeatable).")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]))
@handle_errors
def serve(graph_path: Path | None, store: str | None, host: str, port: int, timeout: float, max_rows: int,
          max_query_bytes: int, cors: tuple[str, ...], workers: int, worker_memory: int, max_result_bytes: int,
          max_depth: int, allowed_hosts: tuple[str, ...], log_level: str) -> None:
    """Serve the graph read-only: SPARQL at /sparql, the explorer at /, liveness at /health."""
    import uvicorn

    from kg.server import create_app
    from kg.store.load import graph_from_options

    if store is not None and str(store).startswith(("http://", "https://")):
        raise GraphError(f"--store {store} is already a SPARQL endpoint; serve a graph file or a store directory")
    graph = graph_from_options(graph_path, store)
    allowed: str | list[str] | bool = False
    if cors:
        allowed = True if "*" in cors else list(cors)
    from kg.server.app import DEFAULT_HOSTS

    hosts = [*DEFAULT_HOSTS, *allowed_hosts]
    if host not in ("0.0.0.0", "::", ""):
        hosts.append(host)
    app = create_app(graph, timeout=timeout, max_rows=max_rows, max_query_bytes=max_query_bytes,
                     max_result_bytes=max_result_bytes, cors=allowed, workers=workers,
                     worker_memory_mb=worker_memory or None, max_depth=max_depth, allowed_hosts=hosts)
    if not _is_loopback(host):
        click.secho(f"warning: listening on {host}: anyone who can reach this address can query the graph",
                    fg="yellow", err=True)
        if not allowed_hosts:
            click.secho("warning: only requests for localhost/127.0.0.1 are served; name the server's public "
                        "host names with --allowed-host", fg="yellow", err=True)
    click.echo(f"serving {len(graph)} triples at http://{host}:{port}/ (SPARQL: /sparql); Ctrl-C stops", err=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=log_level == "debug")
