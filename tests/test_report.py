"""report.html leads with what the field is about; each section checked against the graph it was made from."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.analysis import stats
from kg.analysis.convert import typed_graph
from kg.analysis.field import central_papers
from kg.analysis.trends import compute_trends
from kg.analysis.yearcounts import counts_from_typed
from kg.cli import cli
from kg.report import render_report
from kg.sparql.run import run_query
from kg.store.load import load_graph
from kg.viz.figures import trend_figure

DATA = Path(__file__).parent / "data" / "analysis"
TRENDS = DATA / "trends.ttl"
GRAPH = TRENDS  # the rdf and g fixtures (conftest.py)
SCRIPT = "<script>alert('x')</script> sampler"


class Page(HTMLParser):
    """The parts of a report page the tests read: section ids, tables by class or id, summaries, figures."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[str] = []
        self.tables: dict[str, list[list[str]]] = {}
        self.summaries: dict[str, list[str]] = {}
        self.figures: list[dict[str, str]] = []
        self.scripts = 0
        self._table: str | None = None
        self._cell: list[str] | None = None
        self._type: str | None = None
        self._summary: list[str] | None = None
        self._caption: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script":
            self.scripts += 1
        if tag == "h2":
            self.sections.append(a.get("id", ""))
        if tag == "table":
            self._table = a.get("id") or a.get("class") or f"table{len(self.tables)}"
            self.tables[self._table] = []
        if tag == "tr" and self._table:
            self.tables[self._table].append([])
        if tag in {"td", "th"} and self._table:
            self._cell = []
        if tag == "br" and self._cell is not None:
            self._cell.append("\n")
        if tag == "section" and "data-type" in a:
            self._type = a["data-type"]
            self.summaries[self._type] = []
        if tag == "summary":
            self._summary = []
        if tag == "img":
            self.figures.append({"alt": a.get("alt", ""), "src": a.get("src", ""), "caption": ""})
        if tag == "figcaption":
            self._caption = []

    def handle_endtag(self, tag):
        if tag in {"td", "th"} and self._cell is not None:
            self.tables[self._table][-1].append("".join(self._cell).strip())
            self._cell = None
        if tag == "table":
            self._table = None
        if tag == "summary" and self._summary is not None:
            if self._type:
                self.summaries[self._type].append("".join(self._summary))
            self._summary = None
        if tag == "section":
            self._type = None
        if tag == "figcaption" and self._caption is not None:
            self.figures[-1]["caption"] = "".join(self._caption)
            self._caption = None

    def handle_data(self, data):
        for part in (self._cell, self._summary, self._caption):
            if part is not None:
                part.append(data)


@pytest.fixture(scope="module")
def html(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("report") / "report.html"
    out = CliRunner().invoke(cli, ["report", "--graph", str(TRENDS), "-o", str(path)])
    assert out.exit_code == 0, out.output
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def page(html) -> Page:
    p = Page()
    p.feed(html)
    return p


def test_sections_lead_with_the_field_and_end_with_the_appendix(page):
    assert page.sections == ["top-entities", "trends", "modality-task", "leaderboard", "communities", "appendix"]


def test_top_entities_have_the_paper_counts_of_the_graph(rdf, page):
    assert page.summaries["Method"][:3] == ["Transformer — 30 papers", "diffusion model — 18 papers",
                                            "GAN — 18 papers"]
    rows = run_query(rdf, """SELECT ?label (COUNT(DISTINCT ?p) AS ?n) WHERE {
        VALUES ?link { kg:proposes kg:usesMethod kg:usesDataset kg:addressesTask kg:hasModality kg:usesMetric }
        ?p ?link ?e . ?e rdfs:label ?label } GROUP BY ?label""", timeout=None).rows
    counts = {str(label): int(n) for label, n in rows}
    for t, summaries in page.summaries.items():
        assert summaries, t
        for s in summaries:
            label, n = re.fullmatch(r"(.+) — (\d+) papers?", s).groups()
            assert counts[label] == int(n), (t, label)


def test_top_entities_open_to_their_papers_and_sentences(html):
    block = re.search(r"<summary>diffusion model — 18 papers</summary>(.*?)</details>", html, re.S).group(1)
    assert "https://w3id.org/paperkg/id/method/diffusion-model" in block
    assert block.count("<li>") == 9  # eight papers, then how to list the other ten
    assert "Study 2023-" in block and "<q>We use " in block and "and 10 more" in block


def test_trend_table_ranks_by_slope(page):
    rows = page.tables["trends"][1:]
    rising = [r for r in rows if r[0] == "rising"]
    falling = [r for r in rows if r[0] == "falling"]
    assert rising[0][1:3] == ["diffusion model", "Method"] and rising[0][6] == "+21.00"
    assert rising[0][7] == "2022–2023 (6.3)"
    assert falling[0][1] == "GAN" and falling[0][6] == "-13.00"
    assert "Transformer" not in {r[1] for r in rows}  # flat


def test_heatmap_cells_equal_a_sparql_count(rdf, page):
    table = page.tables["heatmap"]
    tasks = table[0][1:]
    shown = {(r[0], task): int(v or 0) for r in table[1:] for task, v in zip(tasks, r[1:])}
    rows = run_query(rdf, "tasks-per-modality", timeout=None).rows
    expected = {(str(r[1]), str(r[3])): int(r[4]) for r in rows}
    assert {k: v for k, v in shown.items() if v} == expected
    assert shown[("image", "image generation")] == 36


def test_leaderboard_cells_equal_a_sparql_count(rdf, page):
    table = page.tables["leaderboard"]
    metrics = table[0][1:]
    shown = {(r[0], m): int(v) for r in table[1:] for m, v in zip(metrics, r[1:]) if v}
    rows = run_query(rdf, """SELECT ?d ?m (COUNT(DISTINCT ?p) AS ?n) WHERE {
        ?p kg:reportsResult ?r . ?r kg:dataset/rdfs:label ?d ; kg:metric/rdfs:label ?m ; kg:value ?v }
        GROUP BY ?d ?m""", timeout=None).rows
    assert shown == {(str(d), str(m)): int(n) for d, m, n in rows} == {("CIFAR-10", "FID"): 36,
                                                                       ("ImageNet", "accuracy"): 11}


def test_communities_list_their_three_most_central_papers(g, page):
    comms = stats.communities(g)
    rows = page.tables["communities"][1:]
    assert len(rows) == len(comms)
    for row, c in zip(rows, comms):
        papers = row[4].split("\n") if row[4] else []
        assert len(papers) == min(3, len(c.papers))
        inside = {g.nodes[p]["label"]: sum(1 for x in g[p] if x in set(c.members)) for p in c.papers}
        assert all(p in inside for p in papers)
        assert min((inside[p] for p in papers), default=0) >= max(
            (v for k, v in inside.items() if k not in papers), default=0)
    assert [g.nodes[p]["label"] for p in central_papers(g, comms[0], 3)] == rows[0][4].split("\n")


def test_every_figure_has_a_caption_and_the_page_runs_nothing(html, page):
    assert [f["alt"] for f in page.figures] == ["rising and falling entities", "entities per type",
                                                "degree distribution", "community sizes", "top entities by type"]
    assert all(f["src"].startswith("data:image/png;base64,") and f["caption"].strip() for f in page.figures)
    assert page.scripts == 0 and SCRIPT not in html and "&lt;script&gt;" in html


def test_trend_figure_has_titles_and_axis_labels(g):
    counts, totals = counts_from_typed(g, "Method")
    t = compute_trends(counts, totals)
    fig = trend_figure(t, t.rising(3), t.falling(3), "title")
    assert fig.get_suptitle() == "title"
    for ax in fig.axes:
        assert ax.get_title() and ax.get_xlabel() == "publication year" and "share" in ax.get_ylabel()
    assert [line.get_label() for line in fig.axes[0].lines] == ["diffusion model"]


def test_without_years_or_rdf_the_sections_say_why(g, tmp_path):
    plain = load_graph(DATA / "graph.ttl")
    text = "\n".join(line for line in (DATA / "graph.ttl").read_text().splitlines() if "kg:year" not in line)
    no_years = tmp_path / "no-years.ttl"
    no_years.write_text(text, encoding="utf-8")
    page = render_report(typed_graph(load_graph(no_years)))
    assert "No trends: the graph has papers in 0 year(s)" in page
    assert "this report was made from a NetworkX graph only" in page
    small = render_report(typed_graph(plain), rdf=plain)
    assert "No trends: no entity is linked to 10 papers or more" in small
