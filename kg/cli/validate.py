"""``kg validate``: check the graph against the SHACL shapes of ``ontology/shapes.ttl``."""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import click

from kg.cli.common import DEFAULT_GRAPH, graph_options, handle_errors


@click.command()
@click.option("--shapes", type=click.Path(path_type=Path, exists=True, dir_okay=False), default=None,
              metavar="FILE", help="SHACL shapes (default: ontology/shapes.ttl).")
@click.option("--limit", type=click.IntRange(min=0), default=50, show_default=True,
              help="Show at most this many results.")
@graph_options
@handle_errors
def validate(shapes: Path | None, limit: int, graph_path: Path | None, store: str | None) -> None:
    """Validate the graph with pySHACL (ontology as ont_graph, rdfs inference); exit 1 on violations."""
    from kg.rdf.validate import validate_graph
    from kg.sparql.formats import compact
    from kg.store.load import graph_from_options

    graph = graph_from_options(graph_path, store, default=DEFAULT_GRAPH)
    report = validate_graph(graph, shapes)
    if report.conforms:
        click.secho(f"conforms: {len(graph)} triples satisfy every shape", fg="green")
        return
    counts = Counter(v.severity for v in report.violations)
    summary = ", ".join(f"{n} {sev.lower()}{'s' if n != 1 else ''}" for sev, n in sorted(counts.items()))
    click.secho(f"does not conform: {summary}", fg="red", err=True)
    for v in report.violations[:limit]:
        path = f" {compact(v.path, None)}" if v.path is not None else ""
        value = f" (value: {compact(v.value)})" if v.value is not None else ""
        click.echo(f"{v.severity}: {compact(v.focus, None)}{path}: {v.message or v.constraint}{value}")
    if len(report.violations) > limit:
        click.echo(f"... and {len(report.violations) - limit} more (raise --limit)")
    sys.exit(1)
