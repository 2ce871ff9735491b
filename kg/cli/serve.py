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
@click.option("--isolate/--no-isolate", default=False, show_default=True,
              help="Run each query in a forked process killed at the time limit (costs a fork per query).")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]))
@handle_errors
def serve(graph_path: Path | None, store: str | None, host: str, port: int, timeout: float, max_rows: int,
          max_query_bytes: int, cors: tuple[str, ...], isolate: bool, log_level: str) -> None:
    """Serve the graph read-only: SPARQL at /sparql, the explorer at /, liveness at /health."""
    import uvicorn

    from kg.server import create_app
    from kg.store import graph_from_options

    if store is not None and str(store).startswith(("http://", "https://")):
        raise GraphError(f"--store {store} is already a SPARQL endpoint; serve a graph file or a store directory")
    graph = graph_from_options(graph_path, store)
    allowed: str | list[str] | bool = False
    if cors:
        allowed = True if "*" in cors else list(cors)
    app = create_app(graph, timeout=timeout, max_rows=max_rows, max_query_bytes=max_query_bytes,
                     cors=allowed, isolate=isolate)
    if not _is_loopback(host):
        click.secho(f"warning: listening on {host}: anyone who can reach this address can query the graph",
                    fg="yellow", err=True)
    click.echo(f"serving {len(graph)} triples at http://{host}:{port}/ (SPARQL: /sparql); Ctrl-C stops", err=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=log_level == "debug")
