"""Trends: Kleinberg bursts, slopes, shares per year, the entity-by-year query and ``kg trends``."""
from __future__ import annotations

import csv
import io
import itertools
import json
import math
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.analysis.convert import typed_graph
from kg.analysis.trends import (
    EntityCounts, _emission_cost, burst_states, compute_trends, kleinberg_bursts, slope,
)
from kg.analysis.yearcounts import counts_from_rdf, counts_from_typed
from kg.cli import cli
from kg.errors import ArgumentError, GraphError
from kg.sparql.run import run_query
from kg.store.load import load_graph

DATA = Path(__file__).parent / "data" / "analysis" / "trends.ttl"
ID = "https://w3id.org/paperkg/id/"
YEARS = list(range(2018, 2024))
#: papers per year linking each method, as tests/data/analysis/make_trends.py writes them
METHODS = {
    "diffusion model": [0, 0, 1, 3, 6, 8],
    "GAN": [6, 5, 4, 2, 1, 0],
    "Transformer": [5, 5, 5, 5, 5, 5],
    "ResNet": [2, 2, 2, 1, 2, 2],
    "RareNet": [0, 0, 0, 0, 0, 1],
    "DDPM": [0, 0, 1, 0, 0, 0],
    "FastDiff": [0, 0, 0, 0, 1, 1],
}


@pytest.fixture(scope="module")
def rdf():
    return load_graph(DATA)


@pytest.fixture(scope="module")
def methods(rdf):
    return counts_from_rdf(rdf, "Method")


# ------------------------------------------------------------------ Kleinberg bursts


def test_obvious_burst_is_found_where_it_is():
    counts = [2, 3, 2, 20, 25, 3, 2]
    bursts = kleinberg_bursts(counts, [100] * 7)
    assert [(b.start, b.end) for b in bursts] == [(3, 4)]
    assert bursts[0].weight > 10


@pytest.mark.parametrize("counts", [[5, 5, 5, 5, 5, 5], [4, 6, 5, 5, 4, 6], [0, 0, 0, 0], [1, 0, 1, 0, 1, 0, 1]])
def test_no_burst_in_a_steady_series(counts):
    assert kleinberg_bursts(counts, [100] * len(counts)) == []
    assert burst_states(counts, [100] * len(counts)) == [0] * len(counts)


def test_a_higher_gamma_keeps_only_strong_bursts():
    counts, totals = [2, 3, 2, 20, 25, 3, 15, 2], [100] * 8
    weak_and_strong = kleinberg_bursts(counts, totals, gamma=0.1)
    strong = kleinberg_bursts(counts, totals, gamma=3.0)
    assert [(b.start, b.end) for b in weak_and_strong] == [(3, 4), (6, 6)]
    assert len(strong) == 1
    assert (strong[0].start, strong[0].end) == (3, 4)


def test_batches_of_different_sizes_are_compared_by_rate():
    # 20 of 1000 is the base rate (2%), 20 of 100 a burst
    bursts = kleinberg_bursts([20, 20, 20, 20, 20], [1000, 1000, 100, 1000, 1000])
    assert [(b.start, b.end) for b in bursts] == [(2, 2)]


def _total_cost(states, counts, totals, s=2.0, gamma=1.0):
    """The cost Kleinberg's model gives a state sequence, written out independently of the module."""
    p0 = sum(counts) / sum(totals)
    rates = [p0, min(s * p0, 0.9999)]
    cost, previous = 0.0, 0
    for state, r, d in zip(states, counts, totals):
        if state > previous:
            cost += gamma * math.log(len(counts))
        p = rates[state]
        cost -= math.log(math.comb(d, r)) + r * math.log(p) + (d - r) * math.log(1 - p)
        previous = state
    return cost


@pytest.mark.parametrize("seed", range(25))
def test_viterbi_finds_the_cheapest_state_sequence(seed):
    rng = random.Random(seed)
    n = rng.randint(2, 7)
    totals = [rng.randint(5, 60) for _ in range(n)]
    counts = [rng.randint(0, max(1, d // 3)) for d in totals]
    counts[rng.randrange(n)] += 1
    found = burst_states(counts, totals)
    best = min(_total_cost(seq, counts, totals) for seq in itertools.product((0, 1), repeat=n))
    assert _total_cost(found, counts, totals) == pytest.approx(best)


def test_burst_weight_is_the_cost_saved_in_the_burst_state():
    counts, totals = [1, 1, 9, 8, 1], [50] * 5
    (burst,) = kleinberg_bursts(counts, totals)
    p0 = sum(counts) / sum(totals)
    saved = sum(_emission_cost(counts[t], totals[t], p0) - _emission_cost(counts[t], totals[t], 2 * p0)
                for t in range(burst.start, burst.end + 1))
    assert (burst.start, burst.end) == (2, 3) and burst.weight == pytest.approx(saved)


def test_bad_batches_are_refused():
    with pytest.raises(ArgumentError, match="3 counts for 2 batch totals"):
        kleinberg_bursts([1, 2, 3], [10, 10])
    with pytest.raises(ArgumentError, match="11 relevant documents of 10"):
        kleinberg_bursts([11], [10])


# ------------------------------------------------------------------ slopes and trends


def test_slope_is_least_squares():
    assert slope([1, 2, 3], [2, 4, 6]) == pytest.approx(2.0)
    assert slope([2019, 2020, 2021, 2022], [0.1, 0.1, 0.3, 0.3]) == pytest.approx(0.08)
    assert slope([2020, 2020], [0.1, 0.5]) == 0.0
    assert slope([2020], [0.1]) == 0.0


def test_counts_per_year_from_the_graph(methods):
    counts, totals = methods
    assert totals == {y: 10 for y in YEARS}
    by_label = {e.label: [e.counts.get(y, 0) for y in YEARS] for e in counts}
    assert by_label == METHODS
    assert {e.type for e in counts} == {"Method"}  # kg:Model entities (DDPM) count as methods


def test_rdf_and_typed_graph_give_the_same_counts(rdf):
    g = typed_graph(rdf)
    for entity_type in (None, "Method", "Dataset", "Modality"):
        assert counts_from_rdf(rdf, entity_type) == counts_from_typed(g, entity_type)


def test_rising_falling_and_minimum_support(methods):
    counts, totals = methods
    t = compute_trends(counts, totals, last=5, min_papers=10)
    assert t.window == [2019, 2020, 2021, 2022, 2023]
    assert {e.label for e in t.entities} == {"diffusion model", "GAN", "Transformer", "ResNet"}
    (up,) = t.rising(5)
    (down,) = t.falling(5)
    # shares 2019-2023: 0, .1, .3, .6, .8 and .5, .4, .2, .1, 0
    assert (up.label, up.slope) == ("diffusion model", pytest.approx(0.21))
    assert (down.label, down.slope) == ("GAN", pytest.approx(-0.13))
    assert up.shares[2023] == pytest.approx(0.8) and up.counts[2023] == 8
    assert (up.burst.start, up.burst.end) == (2022, 2023)
    assert down.burst.start == 2018
    flat = {e.label: e for e in t.entities}["Transformer"]
    assert flat.slope == pytest.approx(0.0) and flat.burst is None
    everything = compute_trends(counts, totals, last=5, min_papers=1)
    assert "RareNet" in {e.label for e in everything.rising(10)}


def test_last_n_years_sets_the_window(methods):
    counts, totals = methods
    t = compute_trends(counts, totals, last=2)
    assert t.window == [2022, 2023]
    gan = {e.label: e for e in t.entities}["GAN"]
    assert gan.slope == pytest.approx(-0.1)


def test_trend_errors(methods):
    counts, totals = methods
    with pytest.raises(ArgumentError, match="--last 1"):
        compute_trends(counts, totals, last=1)
    with pytest.raises(GraphError, match="papers in 1 year"):
        compute_trends(counts, {2020: 10}, last=5)
    with pytest.raises(GraphError, match="more than the 1 papers"):
        compute_trends([EntityCounts("x", "X", "Method", {2020: 3})], {2020: 1, 2021: 1}, min_papers=1)


def test_entity_by_year_query_counts_match_a_direct_count(rdf):
    rows = run_query(rdf, "entity-by-year", timeout=None).rows
    assert {str(r[2]) for r in rows} == {"Method", "Dataset", "Task", "Modality", "Metric"}
    direct = run_query(rdf, """SELECT ?e ?y (COUNT(DISTINCT ?p) AS ?n) WHERE {
        ?p kg:usesDataset ?e ; kg:year ?y } GROUP BY ?e ?y""", timeout=None).rows
    datasets = {(str(r[0]), str(r[3])): int(r[4]) for r in rows if str(r[2]) == "Dataset"}
    assert datasets == {(str(e), str(y)): int(n) for e, y, n in direct}
    only = run_query(rdf, "entity-by-year", {"type": "Dataset"}, timeout=None)
    assert only.columns == ["entity", "label", "year", "papers"]
    assert {(str(r[0]), str(r[2])): int(r[3]) for r in only.rows} == datasets


# ------------------------------------------------------------------ the command


def _run(*args: str):
    return CliRunner().invoke(cli, ["trends", "--graph", str(DATA), *args])


def test_cli_table():
    out = _run("--type", "method", "--top", "5")
    assert out.exit_code == 0, out.output
    rising, falling = out.output.split("Rising")[1].split("Falling")
    assert "diffusion model" in rising and "GAN" not in rising
    assert "GAN" in falling.split("Strongest bursts")[0] and "+21.00" in rising and "-13.00" in falling
    assert "RareNet" not in out.output


def test_cli_csv_parses_back():
    out = _run("--type", "Method", "--format", "csv", "--min-papers", "1")
    assert out.exit_code == 0, out.output
    rows = list(csv.DictReader(io.StringIO(out.output)))
    first = next(r for r in rows if r["list"] == "rising" and r["rank"] == "1")
    assert first["label"] == "diffusion model" and float(first["slope"]) == pytest.approx(0.21)
    assert [int(first[f"papers_{y}"]) for y in YEARS] == METHODS["diffusion model"]
    assert float(first["share_2022"]) == pytest.approx(0.6)
    assert (first["burst_start"], first["burst_end"]) == ("2022", "2023")


def test_cli_json_parses_back():
    out = _run("--format", "json", "--top", "3")
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["years"] == YEARS and doc["window"] == YEARS[1:]
    assert doc["papers_per_year"]["2020"] == 10
    assert [e["label"] for e in doc["rising"]][0] == "diffusion model"
    assert doc["falling"][0]["label"] == "GAN" and doc["falling"][0]["type"] == "Method"
    assert doc["rising"][0]["counts"]["2023"] == 8 and doc["rising"][0]["burst"]["start"] == 2022
    assert len(doc["rising"]) == 3


def test_cli_plot_writes_a_png(tmp_path: Path):
    target = tmp_path / "plots" / "trends.png"
    out = _run("--type", "Method", "--plot", str(target))
    assert out.exit_code == 0, out.output
    data = target.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


@pytest.mark.parametrize("suffix, magic", [(".svg", b"<?xml"), (".pdf", b"%PDF")])
def test_cli_plot_format_follows_the_extension(tmp_path: Path, suffix: str, magic: bytes):
    target = tmp_path / f"trends{suffix}"
    out = _run("--type", "Method", "--plot", str(target))
    assert out.exit_code == 0, out.output
    assert target.read_bytes().startswith(magic)


def test_cli_plot_refuses_a_format_it_cannot_draw(tmp_path: Path):
    out = _run("--plot", str(tmp_path / "trends.jpg"))
    assert out.exit_code == 2 and ".png, .svg, .pdf" in out.output
    assert not (tmp_path / "trends.jpg").exists()


def test_cli_errors(tmp_path: Path):
    out = _run("--last", "1")
    assert out.exit_code == 2 and "at least two years" in out.output
    out = _run("--type", "Author")
    assert out.exit_code == 2
    one_year = tmp_path / "one.ttl"
    one_year.write_text(
        '@prefix kg: <https://w3id.org/paperkg/ontology#> .\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n'
        '<https://w3id.org/paperkg/id/paper/x> a kg:Paper ; kg:year "2020"^^xsd:gYear .\n', encoding="utf-8")
    out = CliRunner().invoke(cli, ["trends", "--graph", str(one_year)])
    assert out.exit_code == 1 and "at least two years" in out.output
