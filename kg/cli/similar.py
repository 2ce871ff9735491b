"""``kg similar PAPER``: the papers most related to a paper, and the shared entities explaining it."""
from __future__ import annotations

import json
from pathlib import Path

import click

from kg.cli.common import graph_options, handle_errors


@click.command("similar")
@click.argument("paper")
@graph_options
@click.option("-n", "n", default=10, show_default=True, type=click.IntRange(min=1), help="Number of papers listed.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@handle_errors
def similar(paper: str, graph_path: Path | None, store: str | None, n: int, fmt: str) -> None:
    """List the papers sharing the most (and rarest) entities with PAPER (label, IRI or text prefix)."""
    from kg.analysis import stats
    from kg.analysis.names import describe, resolve
    from kg.analysis.source import read_typed_graph

    g = read_typed_graph(graph_path, store)
    node = resolve(g, paper, types=["Paper"])
    ranked = stats.similar(g, node, n=n)
    if fmt == "json":
        click.echo(json.dumps({"paper": node, "similar": stats.as_dict(ranked)}, indent=2, ensure_ascii=False))
        return
    click.echo(f"papers similar to {describe(g, node)}:")
    if not ranked:
        click.echo("  (none: the paper shares no entity with another paper)")
    for i, s in enumerate(ranked, start=1):
        click.echo(f"{i:>3}. {s.score:6.2f}  {s.label}\n       <{s.paper}>\n       shared: {', '.join(s.shared_labels)}")
