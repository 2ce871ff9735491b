"""The paper map (``kg viz --papers``): papers only, linked by the entities they share (weighted
by their idf, :func:`kg.analysis.convert.paper_projection`), coloured by year; an edge's tooltip
says which entities link the two papers."""
from __future__ import annotations

from typing import Any

import networkx as nx

from kg.analysis.convert import paper_projection, papers
from kg.viz.palette import NO_YEAR

#: default number of papers on the map (the most linked ones)
PAPER_TOP = 1500
#: each paper keeps its strongest links, at most this many (the map stays readable)
LINKS_PER_PAPER = 6
#: on graphs with more papers than this, entities used by more than ``MAX_DF`` papers are skipped
#: (they weigh little and cost a quadratic number of pairs)
BIG_PROJECTION = 2000
MAX_DF = 100
#: paper radius (canvas units at zoom 1), least to most linked: papers crowd, so smaller than in the overview
RADIUS = (3.0, 10.0)


def _year(value: Any) -> int | None:
    try:
        return int(str(value)[:4])
    except (TypeError, ValueError):
        return None


def paper_view(g: nx.Graph, top: int | None = PAPER_TOP, links: int = LINKS_PER_PAPER,
               max_df: int | None = None) -> nx.Graph:
    """Return the paper map's graph: the ``top`` papers with the largest weighted degree in the
    paper projection of ``g``, each keeping its ``links`` strongest links.

    Edges carry ``weight`` (summed idf of the shared entities), ``shared`` (their IRIs, rarest
    first) and ``tooltip`` (their labels).
    """
    if max_df is None and len(papers(g)) > BIG_PROJECTION:
        max_df = MAX_DF
    p = paper_projection(g, max_df=max_df)
    strength = dict(p.degree(weight="weight"))
    if top is not None and len(p) > top:
        keep = sorted(p, key=lambda n: (-strength[n], n))[:top]
        p = p.subgraph(keep).copy()
    chosen: set[tuple[str, str]] = set()
    for node in sorted(p):
        best = sorted(p[node].items(), key=lambda kv: (-kv[1]["weight"], kv[0]))[:links]
        chosen.update((min(node, other), max(node, other)) for other, _ in best)
    view = nx.Graph(name="paper map")
    view.add_nodes_from((n, p.nodes[n]) for n in sorted(p))
    df = {e: sum(1 for x in g[e] if g.nodes[x]["type"] == "Paper") for a, b in chosen for e in p.edges[a, b]["shared"]}
    for a, b in sorted(chosen):
        data = p.edges[a, b]
        shared = sorted(data["shared"], key=lambda e: (df[e], g.nodes[e]["label"].casefold(), e))
        names = [g.nodes[e]["label"] for e in shared]
        shown = ", ".join(names[:12]) + (f" and {len(names) - 12} more" if len(names) > 12 else "")
        tooltip = f"{len(names)} shared {'entity' if len(names) == 1 else 'entities'} (weight {data['weight']:.2f}): {shown}"
        view.add_edge(a, b, weight=round(data["weight"], 4), shared=shared, tooltip=tooltip,
                      property="shares", properties=["shares"])
    return view


def year_colours(view: nx.Graph) -> tuple[dict[str, str], list[dict[str, object]]]:
    """Return paper -> colour on the year scale, and the legend ticks."""
    from kg.viz.palette import year_colour, year_legend, year_scale

    years = {n: _year(view.nodes[n].get("year")) for n in view}
    first, last = year_scale(y for y in years.values() if y is not None)
    return {n: year_colour(y, first, last) for n, y in years.items()}, year_legend(first, last)


def render_paper_map(g: nx.Graph, top: int | None = PAPER_TOP, seed: int = 0) -> str:
    """Return the self-contained page of the paper map of typed graph ``g``."""
    from kg.analysis.stats import communities, community_index
    from kg.viz import render

    view = paper_view(g, top=top)
    comms = communities(g, seed=seed)
    index = community_index(comms)
    community = {n: index[n] for n in view if n in index}
    colours, legend = year_colours(view)
    if legend and any(colours[n] == NO_YEAR for n in view):
        legend.append({"year": "no year", "color": NO_YEAR})
    strength = dict(view.degree(weight="weight"))
    score = {n: strength.get(n, 0.0) + 1e-6 for n in view}
    n_papers = len(papers(g))
    subtitle = f"top {len(view)} of {n_papers} papers by shared entities" if len(view) < n_papers else ""
    by_year = {"year": colours} if legend else {}  # no paper has a year: colour by community
    return render.render_html(view, "paperkg paper map", subtitle=subtitle, score=score, communities=comms,
                              community=community, colourings=by_year, colour_by="year" if legend else "community",
                              years=legend, seed=seed, radius=RADIUS)
