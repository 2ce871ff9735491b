"""``kg query``: run a SPARQL query (inline, from a .rq file or saved) against the built graph."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from kg.cli.common import DEFAULT_GRAPH, graph_options, handle_errors
from kg.errors import QueryError


def _param(values: tuple[str, ...]) -> dict[str, str]:
    params = {}
    for item in values:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise QueryError(f"--param {item!r}: write --param NAME=VALUE")
        params[name.strip()] = value
    return params


def _list_saved() -> None:
    from kg.sparql.saved import list_saved

    for saved in list_saved():
        click.echo(f"{click.style(saved.name, bold=True)}  {saved.description}")
        for name, meaning in saved.params.items():
            click.echo(f"    --param {name}=...  {meaning}")


def _query_text(query: str | None, name: str | None) -> str:
    if name and query:
        raise QueryError("give a query or --name NAME, not both")
    if name:
        from kg.sparql.saved import get_saved

        return get_saved(name).name
    if not query:
        raise QueryError("no query given; pass SPARQL text, a .rq file, --name NAME or - for stdin (kg query --list)")
    if query == "-":
        return sys.stdin.read()
    path = Path(query)
    if "\n" not in query and len(query) < 4096 and path.is_file():
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise QueryError(f"cannot read query file {path}: {exc}") from exc
    return query


@click.command()
@click.argument("query", required=False)
@click.option("--name", "name", metavar="NAME", help="Run the saved query NAME (see --list).")
@click.option("--list", "list_", is_flag=True, help="List the saved queries with their parameters, then exit.")
@click.option("--param", "params", multiple=True, metavar="NAME=VALUE",
              help="Bind ?NAME to VALUE (an http(s) IRI or prefixed name becomes an IRI, a number a number, "
                   "anything else a string). Repeatable.")
@click.option("--format", "fmt", default=None, metavar="FORMAT",
              help="table (default), csv, tsv, json, xml; turtle (default) or nt for CONSTRUCT/DESCRIBE.")
@click.option("--timeout", type=float, default=30.0, show_default=True, metavar="SECONDS",
              help="Stop the query after this many seconds (0: no limit).")
@click.option("--allow-update", is_flag=True, help="Allow a SPARQL Update (INSERT/DELETE ...) to change a --store.")
@click.option("--output", "-o", type=click.Path(path_type=Path), default=None, metavar="FILE",
              help="Write the results to FILE (atomically) instead of standard output.")
@graph_options
@handle_errors
def query(query: str | None, name: str | None, list_: bool, params: tuple[str, ...], fmt: str | None,
          timeout: float, allow_update: bool, output: Path | None, graph_path: Path | None, store: str | None) -> None:
    """Run a SPARQL 1.1 QUERY: inline text, a .rq file, a saved query name, or - for standard input.

    \b
    kg query --list
    kg query --name papers-using --param entity=EEG
    kg query 'SELECT ?p ?l WHERE { ?p a kg:Paper ; rdfs:label ?l }' --format csv
    kg query my.rq --store output/store

    The prefixes kg:, id:, paper:, method:, dataset:, modality:, task:, metric:, person:, extractor:, scheme:,
    rdf:, rdfs:, owl:, xsd:, skos:, dcterms:, prov: and schema: are predeclared.
    ASK exits 0 when true and 1 when false; a syntax error exits 2, a timeout 3.
    """
    if list_:
        _list_saved()
        return
    from kg.sparql.formats import render
    from kg.sparql.run import is_update, resolve_query, run_query
    from kg.store.io import atomic_write
    from kg.store.load import graph_from_options

    text = _query_text(query, name)
    bound = _param(params)
    resolved, _ = resolve_query(text)
    update = is_update(resolved)
    if update and not allow_update:
        raise QueryError("this is a SPARQL Update, which would change the graph; refused (pass --allow-update)")
    if update and store is None:
        raise QueryError("an update needs a persistent store to change: pass --store DIR (a --graph file is not modified)")
    graph = graph_from_options(graph_path, store, default=DEFAULT_GRAPH, writable=update)
    result = run_query(graph, text, bound, timeout=timeout or None, allow_update=allow_update)
    data = render(result, fmt)
    if output is not None:
        atomic_write(output, data)
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(data, nl=False)  # bytes: written as is (CRLF of CSV kept)
    if update:
        from kg.store.local import oxigraph_of

        inner = oxigraph_of(graph)
        if inner is not None:
            inner.flush()
    if result.kind == "ask" and not result.boolean:
        sys.exit(1)
