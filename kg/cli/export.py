"""``kg export``: write the graph in another RDF format."""
from __future__ import annotations

from pathlib import Path

import click

from kg.cli.common import DEFAULT_GRAPH, graph_options, handle_errors
from kg.formats import FORMATS


@click.command()
@click.option("--format", "fmt", type=click.Choice(list(FORMATS)), default=None,
              help="Output format (default: from --output's extension, else turtle).")
@click.option("--output", "-o", type=click.Path(path_type=Path), default=None, metavar="FILE",
              help="File to write (atomically); default standard output.")
@graph_options
@handle_errors
def export(fmt: str | None, output: Path | None, graph_path: Path | None, store: str | None) -> None:
    """Export the graph as Turtle, N-Triples, N-Quads, TriG, JSON-LD (with a kg: context) or RDF/XML.

    \b
    kg export --format jsonld --output output/kg.jsonld
    kg export --store output/store --format nt > kg.nt
    """
    from kg.formats import format_for_path, get_format, serialize, write_graph
    from kg.store import graph_from_options

    graph = graph_from_options(graph_path, store, default=DEFAULT_GRAPH)
    if output is not None:
        chosen = get_format(fmt) if fmt else format_for_path(output)
        write_graph(graph, output, chosen)
        click.echo(f"wrote {output} ({chosen.name}, {len(graph)} triples)", err=True)
    else:
        click.echo(serialize(graph, fmt or "turtle"), nl=False)
