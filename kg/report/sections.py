"""The report's sections, each a function returning HTML: what the field is about first, then the appendix."""
from __future__ import annotations

from typing import Any, Sequence

import networkx as nx

from kg.analysis.field import FIELD_TYPES, central_papers, modality_task_matrix, top_entities
from kg.analysis.leaderboard import Board
from kg.analysis.stats import Community
from kg.analysis.trends import Trends
from kg.report.markup import Raw, details, esc, figure, plural, table
from kg.report.plots import plot_communities, plot_degrees, plot_top_entities, plot_types

#: entities listed per type, papers shown per entity, trend rows, leaderboard boards
TOP_PER_TYPE = 10
EVIDENCE_PER_ENTITY = 8
TREND_ROWS = 8
PLOT_LINES = 5
MAX_BOARDS = 12
ENTRIES_PER_BOARD = 10
MAX_COMMUNITIES = 50


def top_entities_section(g: nx.Graph) -> str:
    """Top entities of each type by papers linked, each opening to its papers and supporting sentences."""
    parts = ['<h2 id="top-entities">Top entities</h2>',
             "<p>The methods, datasets, tasks, modalities and metrics linked to the most papers. Open an entity "
             "for its IRI and its newest papers, with the sentence supporting each link where the graph keeps one.</p>",
             '<div class="types">']
    for t in FIELD_TYPES:
        rows = top_entities(g, t, TOP_PER_TYPE, EVIDENCE_PER_ENTITY)
        parts.append(f'<section class="type" data-type="{esc(t)}"><h3>{esc(t)}</h3>')
        if not rows:
            parts.append("<p>none in the graph</p></section>")
            continue
        for r in rows:
            items = []
            for e in r.evidence:
                year = f" ({esc(e.year)})" if e.year else ""
                quote = f": <q>{esc(e.sentence)}</q>" if e.sentence else ""
                items.append(f"{esc(e.label)}{year}{quote}")
            more = r.papers - len(r.evidence)
            if more > 0:
                items.append(f"and {more} more: <code>kg query papers-using --param entity={esc(r.entity)}</code>")
            parts.append(details(f"{r.label} — {plural(r.papers, 'paper')}", items, note=f"<code>{esc(r.entity)}</code>"))
        parts.append("</section>")
    parts.append("</div>")
    return "\n".join(parts)


def _burst(e: Any) -> str:
    return "–" if e.burst is None else e.burst.text("–")


def trends_section(trends: Trends | None, reason: str = "") -> str:
    """The entities rising and falling fastest (table and line plots), or why there are none."""
    head = '<h2 id="trends">Rising and falling</h2>'
    if trends is None:
        return f"{head}<p>No trends: {esc(reason)}</p>"
    if not trends.entities:
        return f"{head}<p>No trends: no entity is linked to {trends.min_papers} papers or more.</p>"
    from kg.viz.figures import png, trend_figure

    first, last = trends.window[0], trends.window[-1]
    intro = (f"<p>Share of each year's papers linking an entity; entities with at least {trends.min_papers} "
             f"papers, ranked by the least-squares slope of the share over {first}–{last} (percentage points a "
             "year). Burst: the years Kleinberg's two-state model puts the entity in its burst state, and the "
             "burst's weight. <code>kg trends</code> gives the full lists.</p>")
    rows = []
    for direction, entities in (("rising", trends.rising(TREND_ROWS)), ("falling", trends.falling(TREND_ROWS))):
        for e in entities:
            rows.append([direction, e.label, e.type, e.papers, f"{100 * e.shares[first]:.1f}%",
                         f"{100 * e.shares[last]:.1f}%", f"{100 * e.slope:+.2f}", _burst(e)])
    tab = table(["", "entity", "type", "papers", f"share {first}", f"share {last}", "slope (pp/yr)", "burst"], rows,
                css_class="trends")
    fig = trend_figure(trends, trends.rising(PLOT_LINES), trends.falling(PLOT_LINES),
                       "Share of papers per year of the fastest rising and falling entities", width=9.5, height=3.8)
    caption = (f"Lines: the share of each year's papers linking the entity; grey band: the {len(trends.window)} "
               "years the slopes are measured over.")
    return "\n".join([head, intro, tab, figure(png(fig), "rising and falling entities", caption)])


def _shade(count: int, peak: int) -> str:
    if not count:
        return ""
    level = 0.12 + 0.88 * count / peak
    colour = "#fff" if level > 0.6 else "#111"
    return f' style="background: rgba(78, 121, 167, {level:.2f}); color: {colour}"'


def heatmap_section(g: nx.Graph) -> str:
    """Modality × task: the number of papers having both, as a shaded table."""
    m = modality_task_matrix(g)
    head = '<h2 id="modality-task">Modalities × tasks</h2>'
    if not m.rows:
        return f"{head}<p>No paper has both a modality and a task.</p>"
    peak = max(m.counts.get((r, c), 0) for r in m.rows for c in m.columns) or 1
    cols = "".join(f'<th class="col" scope="col">{esc(m.labels[c])}</th>' for c in m.columns)
    body = []
    for r in m.rows:
        cells = "".join(
            f'<td{_shade(m.counts.get((r, c), 0), peak)}>{m.counts.get((r, c), 0) or ""}</td>' for c in m.columns)
        body.append(f'<tr><th scope="row">{esc(m.labels[r])}</th>{cells}</tr>')
    caption = (f"Papers having both the modality (row) and the task (column); the {len(m.rows)} modalities and "
               f"{len(m.columns)} tasks in the most such papers; darker = more papers (at most {peak}).")
    return (f'{head}<table class="heat" id="heatmap"><caption>{esc(caption)}</caption>'
            f'<thead><tr><th scope="col">modality \\ task</th>{cols}</tr></thead><tbody>{"".join(body)}</tbody></table>')


def leaderboard_section(boards: Sequence[Board] | None) -> str:
    """Dataset × metric: how many papers report a result, then each pair's reported values."""
    head = '<h2 id="leaderboard">Reported results</h2>'
    if boards is None:
        return f"{head}<p>Results are read from the RDF graph; this report was made from a NetworkX graph only.</p>"
    if not boards:
        return f"{head}<p>No paper reports a result on a dataset in a metric.</p>"
    shown = list(boards[:MAX_BOARDS])
    datasets = list(dict.fromkeys(b.dataset for b in shown))
    metrics = list(dict.fromkeys(b.metric for b in shown))
    by_pair = {(b.dataset, b.metric): b for b in boards}
    rows = [[d] + [by_pair[(d, m)].papers if (d, m) in by_pair else "" for m in metrics] for d in datasets]
    matrix = table(["dataset \\ metric"] + metrics, rows, css_class="leaderboard",
                   caption="Papers reporting a result on the dataset (row) in the metric (column), for the pairs "
                           "with the most results.")
    lists = []
    for b in shown:
        items = []
        for e in b.entries[:ENTRIES_PER_BOARD]:
            method = f" — {esc(e.method)}" if e.method else ""
            items.append(f"<b>{esc(e.value)}</b>{method} ({esc(e.label)})")
        if len(b.entries) > ENTRIES_PER_BOARD:
            items.append(f"and {len(b.entries) - ENTRIES_PER_BOARD} more: <code>kg query results-on-dataset</code>")
        heading = f"{b.dataset}, {b.metric}: {plural(len(b.entries), 'result')} from {plural(b.papers, 'paper')}"
        lists.append(details(heading, items))
    note = ("<p>Values as the abstracts report them, best first: the highest number, or the lowest for a metric "
            "that is better lower (error rates, FID, perplexity: <code>kg:lowerIsBetter</code>).</p>")
    return "\n".join([head, matrix, note] + lists)


def communities_section(g: nx.Graph, comms: Sequence[Community]) -> str:
    """The community table, with each community's three most central papers."""
    rows = []
    for c in list(comms)[:MAX_COMMUNITIES]:
        papers = central_papers(g, c, 3)
        shown = Raw("<br>".join(esc(g.nodes[p]["label"]) for p in papers))
        rows.append([c.id, c.size, len(c.papers), c.label, shown])
    return "\n".join([
        '<h2 id="communities">Communities</h2>',
        "<p>Louvain communities (fixed seed), labelled by their most characteristic entities: frequent in the "
        "community, rare elsewhere; central papers: the most links to other members. "
        "<code>kg viz --community ID</code> shows one.</p>",
        table(["id", "nodes", "papers", "characteristic entities", "central papers"], rows, css_class="communities"),
    ])


def appendix_section(g: nx.Graph, s: dict[str, Any]) -> str:
    """Counts by type and link, the distributions, and the most central entities by PageRank."""
    c = s["counts"]
    parts = [
        '<h2 id="appendix">Appendix: the graph itself</h2>',
        "<h3>Counts</h3>",
        table(["type", "nodes"], [[t, n] for t, n in c["by_type"].items()]),
        table(["link", "count"], [[p, n] for p, n in c["links_by_property"].items()]),
        '<h3>Plots</h3><div class="plots">',
        figure(plot_types(s), "entities per type", "Number of papers and of entities of each type."),
        figure(plot_degrees(g), "degree distribution",
               "How many nodes have each number of links, by type (log-log)."),
        figure(plot_communities(s), "community sizes", "Nodes in each of the largest Louvain communities."),
        figure(plot_top_entities(s), "top entities by type",
               "The most central entities of each type by PageRank; bar = links."),
        "</div>",
        "<h3>Most central by type</h3>",
    ]
    for t, rows in s["central"].items():
        if rows:
            parts.append(f"<h4>{esc(t)}</h4>")
            parts.append(table(["label", "PageRank", "degree", "betweenness", "IRI"],
                               [[r["label"], r["pagerank"], r["degree"], r["betweenness"], r["iri"]] for r in rows]))
    return "\n".join(parts)

