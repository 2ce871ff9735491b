"""``kg export``: write the graph in another RDF format, or as a network for Gephi/Cytoscape."""
from __future__ import annotations

from pathlib import Path

import click

from kg.analysis.export import NETWORK_FORMATS
from kg.cli.common import DEFAULT_GRAPH, graph_options, handle_errors
from kg.rdf.formats import FORMATS


@click.command()
@click.option("--format", "fmt", type=click.Choice([*FORMATS, *NETWORK_FORMATS]), default=None,
              help="Output format (default: from --output's extension; turtle on standard output).")
@click.option("--output", "-o", type=click.Path(path_type=Path), default=None, metavar="FILE",
              help="File to write (atomically); default standard output.")
@graph_options
@handle_errors
def export(fmt: str | None, output: Path | None, graph_path: Path | None, store: str | None) -> None:
    """Export the graph as Turtle, N-Triples, N-Quads, TriG, JSON-LD (with a kg: context) or RDF/XML,
    or as the typed paper-entity network in GraphML or GEXF (labels and types as attributes).

    \b
    kg export --format graphml --output output/kg.graphml
    kg export --format jsonld --output output/kg.jsonld
    kg export --store output/store --format nt > kg.nt
    """
    from kg.rdf.formats import format_for_path, get_format, serialize, write_graph
    from kg.store.load import graph_from_options

    network = fmt in NETWORK_FORMATS or (fmt is None and output is not None and any(
        output.suffix.lower() == f.extension for f in NETWORK_FORMATS.values()))
    if fmt is None and output is not None and not network:
        known = ([f".{e}" for f in FORMATS.values() for e in f.extensions]
                 + [f.extension for f in NETWORK_FORMATS.values()])
        if output.suffix.lower() not in known:
            raise click.BadParameter(f"cannot tell the format of {output} from its extension; use one of "
                                     f"{', '.join(known)}, or pass --format NAME", param_hint="--output")
    graph = graph_from_options(graph_path, store, default=DEFAULT_GRAPH)
    if network:
        from kg.analysis.export import serialize_network, write_network

        if output is None:
            click.echo(serialize_network(graph, fmt).decode("utf-8"), nl=False)
        else:
            write_network(graph, output, fmt)
            click.echo(f"wrote {output} ({fmt or output.suffix.lstrip('.')} network)", err=True)
        return
    if output is not None:
        chosen = get_format(fmt) if fmt else format_for_path(output)
        write_graph(graph, output, chosen)
        click.echo(f"wrote {output} ({chosen.name}, {len(graph)} triples)", err=True)
    else:
        click.echo(serialize(graph, fmt or "turtle"), nl=False)
