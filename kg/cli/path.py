"""``kg path A B``: how two papers or entities are connected."""
from __future__ import annotations

import json
from pathlib import Path

import click

from kg.cli.common import graph_options, handle_errors


@click.command("path")
@click.argument("a")
@click.argument("b")
@graph_options
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@handle_errors
def path(a: str, b: str, graph_path: Path | None, store: str | None, fmt: str) -> None:
    """Show the shortest connection between A and B (labels, IRIs or text prefixes)."""
    from kg.analysis import stats
    from kg.analysis.names import resolve
    from kg.analysis.source import read_typed_graph

    g = read_typed_graph(graph_path, store)
    steps = stats.path(g, resolve(g, a), resolve(g, b))
    if fmt == "json":
        click.echo(json.dumps(steps, indent=2, ensure_ascii=False))
        return
    for step in steps:
        if step["via"]:
            click.echo(f"   --{step['via']}--")
            if step["sentence"]:
                click.echo(f'     "{step["sentence"]}"')
        click.echo(f"{step['label']} ({step['type']}) <{step['node']}>")
