"""``kg compare``: paper profiles from the RDF graph, choosing papers, and the table, CSV and HTML outputs."""
from __future__ import annotations

import csv
import io
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.analysis.compare import ROWS, choose_papers, profiles, result_text
from kg.analysis.compare_format import to_html, to_table
from kg.analysis.convert import typed_graph
from kg.cli import cli
from kg.errors import AmbiguousNameError, ArgumentError, NotFoundError
from kg.store.load import load_graph

HERE = Path(__file__).parent / "data"
TRENDS = HERE / "analysis" / "trends.ttl"
GRAPH = TRENDS  # the rdf and g fixtures (conftest.py)
GOLDEN = HERE / "golden" / "graph.ttl"
ID = "https://w3id.org/paperkg/id/"
DDPM_P, FAST_P, SCRIPT_P = (f"{ID}paper/{y}{i:012x}" for y, i in ((2020, 0), (2023, 0), (2022, 2)))
SCRIPT = "<script>alert('x')</script> sampler"


def test_profile_rows_come_from_the_graph(rdf, g):
    ddpm, fast = profiles(rdf, g, [DDPM_P, FAST_P])
    assert (ddpm.label, ddpm.year) == ("Study 2020-0: DDPM and diffusion model and Transformer", "2020")
    assert ddpm.rows["proposes"] == ["DDPM"] and fast.rows["proposes"] == ["FastDiff"]
    assert ddpm.rows["tasks"] == ["image generation"] and ddpm.rows["datasets"] == ["CIFAR-10"]
    assert ddpm.rows["modalities"] == ["image"] and ddpm.rows["metrics"] == ["FID"]
    assert ddpm.rows["results"] == ["22.0 FID on CIFAR-10 (diffusion model)"]
    # the comparisons stated in each paper's sentences, and only those
    assert ddpm.rows["compares with"] == ["GAN"]
    assert fast.rows["compares with"] == ["DDPM", "GAN"]
    assert list(ddpm.rows) == list(ROWS)


def test_comparison_by_another_method_names_both(rdf, g):
    golden = load_graph(GOLDEN)
    gg = typed_graph(golden)
    labram, biot = profiles(golden, gg, [f"{ID}paper/a2a2a2a2a2a2a2a2", f"{ID}paper/a1a1a1a1a1a1a1a1"])
    assert labram.rows["compares with"] == ["BIOT"]  # LaBraM (proposed there) compared with BIOT
    assert biot.rows["compares with"] == []  # the comparison is stated in LaBraM's paper, not BIOT's
    assert labram.rows["results"] == ["82.6% balanced accuracy on TUAB (LaBraM)"]


def test_result_text_leaves_out_missing_parts():
    assert result_text("79.6%", "balanced accuracy", "TUAB", "BIOT") == "79.6% balanced accuracy on TUAB (BIOT)"
    assert result_text("2x", None, None, None) == "2x"
    assert result_text("0.9", "AUROC", None, "X") == "0.9 AUROC (X)"


def test_choose_papers_by_label_iri_and_prefix(g):
    chosen = choose_papers(g, ["Study 2020-0", FAST_P, "paper/2022000000000002"])
    assert chosen == [DDPM_P, FAST_P, SCRIPT_P]
    assert choose_papers(g, ["Study 2020-0", DDPM_P, FAST_P]) == [DDPM_P, FAST_P]  # duplicates once


def test_choose_papers_errors(g):
    with pytest.raises(ArgumentError, match="at least two different papers"):
        choose_papers(g, ["Study 2020-0", DDPM_P])
    with pytest.raises(ArgumentError, match="at least two"):
        choose_papers(g, [])
    with pytest.raises(NotFoundError, match="no Paper named 'no such paper'"):
        choose_papers(g, ["Study 2020-0", "no such paper"])
    with pytest.raises(AmbiguousNameError):
        choose_papers(g, ["Study 2020", "Study 2021-0"])
    with pytest.raises(ArgumentError, match="not both"):
        choose_papers(g, ["Study 2020-0"], similar_to="Study 2021-0")
    with pytest.raises(NotFoundError, match="shares no entity"):
        choose_papers(g, [], similar_to="Study 2021-3: nothing")


def test_similar_to_takes_the_nearest_neighbours(g):
    from kg.analysis.stats import similar

    chosen = choose_papers(g, [], similar_to=FAST_P, top=3)
    assert chosen[0] == FAST_P and len(chosen) == 4
    assert chosen[1:] == [s.paper for s in similar(g, FAST_P, n=3)]
    assert SCRIPT_P in chosen[1:]  # the other FastDiff paper shares the rarest entity


def test_table_has_one_column_per_paper(rdf, g):
    text = to_table(profiles(rdf, g, [DDPM_P, FAST_P, SCRIPT_P]), width=120)
    header = text.splitlines()[0]
    assert header.count("|") == 3 and "Study 2020-0" in header
    assert all(len(line) <= 120 for line in text.splitlines())
    compares = [line for line in text.splitlines() if line.startswith("compares with")]
    assert compares and "GAN" in compares[0] and "DDPM" in compares[0]


class _Cells(HTMLParser):
    """Collect the text of each table cell, and any element that could run or load something."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.active: list[str] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag in {"script", "link", "img", "iframe"} or any(k in {"src", "href"} or k.startswith("on") for k, _ in attrs):
            self.active.append(tag)
        if tag == "tr":
            self.rows.append([])
        if tag in {"td", "th"}:
            self.cell = []

    def handle_endtag(self, tag):
        if tag in {"td", "th"} and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data + " ")


def test_html_escapes_labels_and_is_self_contained(rdf, g):
    page = to_html(profiles(rdf, g, [SCRIPT_P, FAST_P]), title="t")
    assert "<script>" not in page and "&lt;script&gt;" in page
    parser = _Cells()
    parser.feed(page)
    assert parser.active == []
    header, *body = parser.rows
    assert header[1].startswith(SCRIPT)  # the label reads back as text
    assert [r[0] for r in body] == list(ROWS)
    compares = dict((r[0], r[1:]) for r in body)["compares with"]
    assert compares == ["DDPM", "DDPM GAN"]


def _run(*args: str):
    return CliRunner().invoke(cli, ["compare", "--graph", str(TRENDS), *args])


def test_cli_csv_parses_back():
    out = _run("Study 2020-0", FAST_P, "--format", "csv")
    assert out.exit_code == 0, out.output
    rows = list(csv.reader(io.StringIO(out.output)))
    table = {r[0]: r[1:] for r in rows}
    assert table["iri"] == [DDPM_P, FAST_P] and table["year"] == ["2020", "2023"]
    assert table["compares with"] == ["GAN", "DDPM; GAN"]
    assert table["results"][1] == "10.0 FID on CIFAR-10 (diffusion model)"
    assert [r[0] for r in rows[3:]] == list(ROWS)


def test_cli_html_to_a_file(tmp_path: Path):
    target = tmp_path / "out" / "compare.html"
    out = _run("--similar-to", FAST_P, "--top", "2", "--format", "html", "-o", str(target))
    assert out.exit_code == 0, out.output
    page = target.read_text(encoding="utf-8")
    parser = _Cells()
    parser.feed(page)
    assert len(parser.rows[0]) == 4  # the row names, the paper and its two neighbours
    assert "&lt;script&gt;" in page and "<script>" not in page


def test_cli_table_and_errors():
    out = _run("Study 2020-0", "Study 2021-0")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0].count("|") == 2
    out = _run("Study 2020-0")
    assert out.exit_code == 2 and "at least two different papers" in out.output
    out = _run("Study 2020-0", "nothing like this")
    assert out.exit_code == 1 and "no Paper named 'nothing like this'" in out.output
    out = _run("Study 2020-0", "--similar-to", "Study 2021-0")
    assert out.exit_code == 2 and "not both" in out.output
