"""Options and error handling shared by every command."""
from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any, Callable

import click

from kg.errors import KGError

DEFAULT_GRAPH = Path("output/kg.ttl")


def graph_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Add the ``--graph FILE`` / ``--store DIR|URL`` options every graph-reading command takes."""
    func = click.option(
        "--store", "store", default=None, metavar="DIR|URL",
        help="Read from a persistent Oxigraph store directory (kg build --store DIR) or a SPARQL endpoint URL.",
    )(func)
    func = click.option(
        "--graph", "graph_path", type=click.Path(path_type=Path), default=None, metavar="FILE",
        help=f"RDF file to read (default: {DEFAULT_GRAPH}).",
    )(func)
    return func


def pages_dir(graph_path: Path | None) -> Path:
    """Where a command writes a page it is given no path for: beside ``--graph``, else ``output/``."""
    return graph_path.parent if graph_path is not None else DEFAULT_GRAPH.parent


def handle_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn :class:`KGError` into a one-line message on stderr and the error's exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except KGError as exc:
            click.secho(f"error: {exc}", fg="red", err=True)
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.secho("interrupted", fg="yellow", err=True)
            sys.exit(130)

    return wrapper
