"""``kg viz``: write an interactive HTML view (overview map, community map, paper map, ego,
community or query result)."""
from __future__ import annotations

from pathlib import Path

import click

from kg.cli.common import graph_options, handle_errors, pages_dir


@click.command("viz")
@graph_options
@click.option("--types", default=None, metavar="T1,T2",
              help="Node types to show in the overview, e.g. Paper,Method,Dataset.")
@click.option("--top", type=click.IntRange(min=1), default=None, metavar="N",
              help="Keep the N most central nodes (overview, community and paper map default 1500; ego view default 200).")
@click.option("--focus", default=None, metavar="X", help="Ego view around a paper or entity (label, IRI or prefix).")
@click.option("--depth", default=2, show_default=True, type=click.IntRange(min=1), help="Hops around --focus.")
@click.option("--community", "community_id", type=int, default=None, metavar="ID",
              help="Show one community (ids from kg stats).")
@click.option("--query", default=None, metavar="FILE.rq|NAME",
              help="Show a SPARQL result: CONSTRUCT gives the graph, SELECT the IRIs it returns.")
@click.option("--papers", is_flag=True, help="The paper map: papers linked by shared entities, coloured by year.")
@click.option("--overview", "kind", type=click.Choice(["auto", "nodes", "communities"]), default="auto",
              show_default=True,
              help="What the overview shows: the nodes, or the community map (a node per community, a "
                   "click opens one); auto: the community map above 3,000 nodes unless --top/--types.")
@click.option("--output", "-o", type=click.Path(path_type=Path), default=None,
              help="HTML file to write (default graph.html, ego.html, ... beside --graph, else in output/).")
@click.option("--seed", default=0, show_default=True, help="Seed of the layout and of Louvain.")
@handle_errors
def viz(graph_path: Path | None, store: str | None, types: str | None, top: int | None, focus: str | None,
        depth: int, community_id: int | None, query: str | None, papers: bool, kind: str, output: Path | None,
        seed: int) -> None:
    """Write a self-contained interactive view of the graph (opens offline in any browser)."""
    from kg.analysis.convert import NODE_TYPES, typed_graph
    from kg.analysis.source import read_graph
    import kg.viz as views

    chosen = [name for name, value in (("--focus", focus), ("--community", community_id), ("--query", query),
                                       ("--papers", papers or None)) if value is not None]
    if len(chosen) > 1:
        raise click.UsageError(f"choose one view: {' and '.join(chosen)} cannot be combined")
    wanted = [t.strip() for t in types.split(",") if t.strip()] if types else None
    known = {n.casefold() for n in NODE_TYPES}
    unknown = sorted({t for t in wanted or [] if t.casefold() not in known})
    if unknown:
        raise click.BadParameter(f"unknown type {', '.join(unknown)}; choose from {', '.join(NODE_TYPES)}",
                                 param_hint="--types")
    pages = pages_dir(graph_path)
    rdf = read_graph(graph_path, store)
    if query is not None:
        from kg.viz.query_view import run_view_query

        result = run_view_query(rdf, query)
        path = views.write_query_view(typed_graph(rdf), result, output or pages / "query.html",
                                      title=f"query: {query}", seed=seed)
    elif papers:
        path = views.write_paper_map(rdf, output or pages / "papers.html", top=top, seed=seed)
    elif focus is not None:
        path = views.write_ego(rdf, focus, output or pages / "ego.html", depth=depth, max_nodes=top, seed=seed)
    elif community_id is not None:
        path = views.write_community(rdf, community_id, output or pages / f"community-{community_id}.html",
                                     top=top, seed=seed)
    else:
        path = views.write_overview(rdf, output or pages / "graph.html", types=wanted, top=top, seed=seed,
                                    kind=kind)
    click.echo(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB); open it in a browser")
