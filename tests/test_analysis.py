"""Analysis on the hand-made graph tests/data/analysis/graph.ttl."""
from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner
from rdflib import Graph

from kg.analysis import convert, stats
from kg.analysis.names import resolve
from kg.cli import cli
from kg.errors import AmbiguousNameError, NotFoundError

DATA = Path(__file__).parent / "data" / "analysis" / "graph.ttl"
GRAPH = DATA  # the rdf and g fixtures (conftest.py)
ID = "https://w3id.org/paperkg/id/"
BIOT_P, LABRAM_P, EEGPT_P = (f"{ID}paper/a00000000000000{i}" for i in (1, 2, 3))
VIT_P, DEIT_P, SWIN_P = (f"{ID}paper/b00000000000000{i}" for i in (1, 2, 3))
KERNEL_P = f"{ID}paper/c000000000000001"


def test_typed_graph_nodes_and_attributes(g: nx.Graph) -> None:
    assert stats.counts(g)["by_type"] == {"Paper": 7, "Method": 8, "Dataset": 5, "Task": 3, "Modality": 2, "Metric": 2}
    vit = g.nodes[f"{ID}method/vit"]
    assert (vit["type"], vit["label"], vit["aliases"]) == ("Method", "ViT", ["Vision Transformer"])
    assert g.nodes[f"{ID}dataset/imagenet"]["type"] == "Dataset"  # kg:Benchmark maps to its parent
    assert g.nodes[BIOT_P]["proposes"] == ["BIOT"]


def test_typed_graph_edges_carry_property_and_sentence(g: nx.Graph) -> None:
    edge = g.edges[BIOT_P, f"{ID}method/biot"]
    assert edge["property"] == "proposes"
    assert edge["properties"] == ["proposes", "usesMethod"]
    assert edge["sentence"] == "We propose BIOT, a biosignal transformer for EEG."
    assert g.edges[f"{ID}method/labram", f"{ID}method/biot"]["kind"] == "relation"
    assert g.edges[BIOT_P, f"{ID}dataset/tuab"]["sentence"] == ""


def test_projection_weights_rare_entities_more(g: nx.Graph) -> None:
    p = convert.paper_projection(g)
    idf = convert.entity_idf(g)
    assert idf[f"{ID}method/labram"] > idf[f"{ID}metric/accuracy"]
    assert set(p.edges[BIOT_P, LABRAM_P]["shared"]) == {
        f"{ID}method/biot", f"{ID}modality/eeg", f"{ID}dataset/tuab", f"{ID}task/seizure-detection",
        f"{ID}metric/balanced-accuracy"}
    assert p.edges[BIOT_P, LABRAM_P]["weight"] == pytest.approx(sum(idf[e] for e in p.edges[BIOT_P, LABRAM_P]["shared"]))
    assert not p.has_edge(BIOT_P, KERNEL_P)
    assert p.edges[BIOT_P, VIT_P]["shared"] == [f"{ID}method/transformer"]
    assert p.edges[BIOT_P, VIT_P]["weight"] < p.edges[BIOT_P, LABRAM_P]["weight"]
    c = convert.cooccurrence_graph(g)
    assert c.edges[f"{ID}dataset/imagenet", f"{ID}metric/accuracy"]["weight"] == 3


def test_communities_deterministic_and_labelled(rdf: Graph) -> None:
    runs = [stats.communities(convert.typed_graph(rdf), seed=0) for _ in range(3)]
    assert [[c.members for c in run] for run in runs[1:]] == [[c.members for c in runs[0]]] * 2
    labels = [c.label for c in runs[0]]
    assert "EEG / BIOT / LaBraM" in labels
    eeg = next(c for c in runs[0] if c.label == "EEG / BIOT / LaBraM")
    assert set(eeg.papers) == {BIOT_P, LABRAM_P, EEGPT_P}
    assert any(set(c.papers) == {KERNEL_P} for c in runs[0])


def test_similarity_ranking(g: nx.Graph) -> None:
    ranked = stats.similar(g, LABRAM_P, n=10)
    assert [s.paper for s in ranked] == [BIOT_P, EEGPT_P]
    assert ranked[0].shared_labels[0] in {"BIOT", "seizure detection", "TUAB"}  # rarest shared first
    assert ranked[0].score > ranked[1].score
    vit = stats.similar(g, VIT_P, n=1)
    assert len(vit) == 1 and vit[0].paper in {DEIT_P, SWIN_P}
    assert stats.similar(g, KERNEL_P) == []


def test_path_goes_through_the_bridge(g: nx.Graph) -> None:
    steps = stats.path(g, BIOT_P, DEIT_P)
    nodes = [s["node"] for s in steps]
    assert nodes[0] == BIOT_P and nodes[-1] == DEIT_P
    assert f"{ID}method/transformer" in nodes
    for a, b in zip(nodes, nodes[1:]):
        assert g.has_edge(a, b)
    with pytest.raises(NotFoundError, match="not connected"):
        stats.path(g, BIOT_P, KERNEL_P)


def test_name_resolution(g: nx.Graph) -> None:
    assert resolve(g, "LaBraM") == f"{ID}method/labram"            # exact label
    assert resolve(g, "labram", types=["Paper"]) == LABRAM_P         # label prefix, papers only
    assert resolve(g, "Large Brain Model") == f"{ID}method/labram"  # alias
    assert resolve(g, "method/vit") == f"{ID}method/vit"             # IRI suffix
    assert resolve(g, f"<{VIT_P}>") == VIT_P                         # IRI
    assert resolve(g, "method:vit") == f"{ID}method/vit"             # prefixed, as kg query prints it
    assert resolve(g, "paper:" + VIT_P.rsplit("/", 1)[1]) == VIT_P
    assert resolve(g, "We study graph kernels") == KERNEL_P          # abstract prefix
    with pytest.raises(AmbiguousNameError) as info:
        resolve(g, "de")
    assert set(info.value.candidates) == {f"{ID}method/deit", DEIT_P}
    assert "DeiT (Method)" in str(info.value) and "(Paper)" in str(info.value)
    with pytest.raises(NotFoundError, match="no paper or entity named 'nothing like this'"):
        resolve(g, "nothing like this")


def test_stats_json_cli() -> None:
    result = CliRunner().invoke(cli, ["stats", "--graph", str(DATA), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["counts"]["nodes"] == 27 and data["counts"]["edges"] == 42
    assert data["components"]["count"] == 2 and data["components"]["sizes"] == [24, 3]
    assert data["central"]["Method"][0]["label"] == "ViT"
    assert {c["label"] for c in data["communities"]} >= {"EEG / BIOT / LaBraM", "graph kernel / QM9"}


def test_stats_table_marks_a_cut_label(tmp_path: Path) -> None:
    long = "A label much longer than the sixty characters a row of the table gives it, and then some"
    graph = tmp_path / "g.ttl"
    graph.write_text(DATA.read_text(encoding="utf-8").replace("Swin Transformer: hierarchical vision transformer",
                                                              long), encoding="utf-8")
    result = CliRunner().invoke(cli, ["stats", "--graph", str(graph)])
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if line.strip().startswith("A label"))
    assert "a row of the…" in row and "and then some" not in row


def test_similar_and_path_cli() -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["similar", "LaBraM", "--graph", str(DATA), "--format", "json"])
    assert out.exit_code == 0, out.output
    assert [s["paper"] for s in json.loads(out.output)["similar"]] == [BIOT_P, EEGPT_P]
    out = runner.invoke(cli, ["path", "BIOT:", "ImageNet", "--graph", str(DATA)])
    assert out.exit_code == 0, out.output
    assert "Transformer (Method)" in out.output and "ImageNet (Dataset)" in out.output
    out = runner.invoke(cli, ["similar", "de", "--graph", str(DATA)])  # papers only: not ambiguous
    assert out.exit_code == 0 and "DeiT: data-efficient" in out.output
    out = runner.invoke(cli, ["path", "de", "ViT", "--graph", str(DATA)])
    assert out.exit_code == 1
    assert "matches 2 nodes" in out.output


def test_missing_graph_is_an_error(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["stats", "--graph", str(tmp_path / "none.ttl")])
    assert out.exit_code != 0 and "does not exist" in out.output


@pytest.mark.parametrize("text", ["x" * 80, "short", "a " * 40, "研究" * 40])
def test_cut_keeps_the_start_of_any_label_within_its_width(text: str) -> None:
    from kg.analysis.text import cut

    shown = cut(text, 60)
    assert len(shown) <= 60 and (shown == text or (shown.endswith("…") and text.startswith(shown[:-1])))
    assert len(shown) > 1  # a long word is cut, never dropped


def test_a_metric_only_a_result_names_is_linked_to_its_paper_not_isolated() -> None:
    """"2x faster" gives a result on the speed-up metric and no usesMetric mention: the paper still links to
    the metric (``reportsResult``), while a metric both used and reported keeps ``usesMetric`` first."""
    rdf = Graph().parse(data=f"""
        @prefix kg: <https://w3id.org/paperkg/ontology#> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        <{ID}paper/p1> a kg:Paper ; rdfs:label "P1" ; kg:usesMetric <{ID}metric/accuracy> ;
            kg:reportsResult <{ID}paper/p1/result/0> , <{ID}paper/p1/result/1> .
        <{ID}paper/p1/result/0> a kg:Result ; kg:metric <{ID}metric/speed-up> ; kg:value "2x" .
        <{ID}paper/p1/result/1> a kg:Result ; kg:metric <{ID}metric/accuracy> ; kg:value "91%" .
        <{ID}metric/speed-up> a kg:Metric ; rdfs:label "speed-up" .
        <{ID}metric/accuracy> a kg:Metric ; rdfs:label "accuracy" .
    """, format="turtle")
    g = convert.typed_graph(rdf)
    paper = f"{ID}paper/p1"
    assert g.edges[paper, f"{ID}metric/speed-up"]["property"] == "reportsResult"
    assert g.edges[paper, f"{ID}metric/accuracy"]["properties"] == ["usesMetric", "reportsResult"]
    assert not list(nx.isolates(g))
