"""Views, report and network exports written from the hand-made graph (no browser needed)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner
from rdflib import Graph

from kg.analysis.export import NETWORK_FORMATS, write_network
from kg.cli import cli
from kg.errors import NotFoundError
import kg.viz as viz
from kg.viz import views
from kg.viz.query_view import run_view_query

DATA = Path(__file__).parent / "data" / "analysis" / "graph.ttl"
GRAPH = DATA  # the rdf and g fixtures (conftest.py)
ID = "https://w3id.org/paperkg/id/"
XSS = ("<img src=x onerror=alert(1)>", "<script>alert('xss')</script>")


def page_data(html: str) -> dict:
    block = re.search(r'<script type="application/json" id="kg-data">(.*?)</script>', html, re.S)
    assert block, "data block missing"
    return json.loads(block.group(1))


def assert_self_contained(html: str) -> None:
    assert not re.search(r"<script[^>]+src\s*=", html, re.I), "external script"
    assert not re.search(r"<link[^>]+href\s*=", html, re.I), "external stylesheet"
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I), "network URL in src/href"
    assert not re.search(r"@import|url\(\s*['\"]?https?:", html, re.I), "CSS fetching from the network"


def test_overview_is_self_contained_and_complete(rdf: Graph, g: nx.Graph, tmp_path: Path) -> None:
    path = viz.write_overview(rdf, tmp_path / "graph.html")
    html = path.read_text(encoding="utf-8")
    assert_self_contained(html)
    assert "vis.Network" in html and "var network" in html
    data = page_data(html)
    assert {n["id"] for n in data["nodes"]} == set(g)
    assert len(data["edges"]) == g.number_of_edges()
    assert data["options"]["physics"]["enabled"] is False
    assert all(isinstance(n["x"], float) and isinstance(n["y"], float) for n in data["nodes"])
    types = {n["type"]: (n["color"], n["shape"]) for n in data["nodes"]}
    assert len(set(types.values())) == len(types) == 6  # one look per type
    for t in types:
        assert f'data-type="{t}"' in html  # legend and filter entry


def test_tooltips_and_escaping(rdf: Graph, tmp_path: Path) -> None:
    html = viz.write_overview(rdf, tmp_path / "graph.html").read_text(encoding="utf-8")
    for payload in XSS:
        assert payload not in html  # never raw in the page source
    data = page_data(html)
    vit = next(n for n in data["nodes"] if n["id"] == f"{ID}paper/b000000000000001")
    assert XSS[0] in vit["title"] and "Proposes: ViT" in vit["title"] and vit["title"].startswith("Paper: ")
    labram = next(n for n in data["nodes"] if n["id"] == f"{ID}method/labram")
    assert labram["title"].startswith("Method: LaBraM\nAlso: Large Brain Model")
    sentence = next(e for e in data["edges"] if {e["from"], e["to"]} == {f"{ID}paper/a000000000000001", f"{ID}method/biot"})
    assert "We propose BIOT" in sentence["title"] and "proposes" in sentence["title"]
    assert "innerHTML" not in html.split('id="kg-data"')[1]  # our script only uses textContent


def test_overview_top_and_types(g: nx.Graph) -> None:
    h = views.overview(g, types=["Method", "dataset"], top=3)
    assert h.number_of_nodes() == 3
    assert {d for _, d in h.nodes(data="type")} <= {"Method", "Dataset"}
    assert f"{ID}method/vit" in h  # the most central method


def test_ego_and_community_views(rdf: Graph, g: nx.Graph, tmp_path: Path) -> None:
    focus = f"{ID}method/labram"
    h = views.ego(g, focus, depth=1)
    assert set(h) == {focus} | set(g[focus])
    assert len(views.ego(g, focus, depth=2, max_nodes=4)) == 4
    html = viz.write_ego(rdf, "LaBraM", tmp_path / "ego.html", depth=2).read_text(encoding="utf-8")
    data = page_data(html)
    assert data["focus"] == focus
    assert {n["id"] for n in data["nodes"]} == set(nx.ego_graph(g, focus, radius=2))
    html = viz.write_community(rdf, 3, tmp_path / "c.html").read_text(encoding="utf-8")
    assert {n["id"] for n in page_data(html)["nodes"]} == {
        f"{ID}paper/c000000000000001", f"{ID}method/graph-kernel", f"{ID}dataset/qm9"}


def test_query_views(rdf: Graph, g: nx.Graph, tmp_path: Path) -> None:
    select = tmp_path / "methods.rq"
    select.write_text("PREFIX kg: <https://w3id.org/paperkg/ontology#>\n"
                      "SELECT ?p ?m WHERE { ?p kg:proposes ?m . ?p kg:hasModality <https://w3id.org/paperkg/id/modality/eeg> }")
    h = views.query_view(g, run_view_query(rdf, str(select)))
    assert len(h) == 6 and h.has_edge(f"{ID}paper/a000000000000001", f"{ID}method/biot")
    assert h.has_edge(f"{ID}method/labram", f"{ID}method/biot")  # links among the named nodes come along
    construct = ("PREFIX kg: <https://w3id.org/paperkg/ontology#>\n"
                 "CONSTRUCT { ?p kg:usesDataset ?d } WHERE { ?p kg:usesDataset ?d }")
    h = views.query_view(g, run_view_query(rdf, construct))
    assert h.number_of_edges() == 9
    assert {d for _, d in h.nodes(data="type")} == {"Paper", "Dataset"}
    out = CliRunner().invoke(cli, ["viz", "--graph", str(DATA), "--query", str(select), "-o", str(tmp_path / "q.html")])
    assert out.exit_code == 0, out.output
    empty = "SELECT ?p WHERE { ?p a <urn:nothing> }"
    with pytest.raises(NotFoundError, match="the query returned no rows"):
        views.query_view(g, run_view_query(rdf, empty))
    with pytest.raises(NotFoundError, match="names no paper or entity"):
        views.query_view(g, run_view_query(rdf, 'SELECT ?x WHERE { VALUES ?x { "text" } }'))
    assert len(page_data((tmp_path / "q.html").read_text(encoding="utf-8"))["nodes"]) == 6


def test_viz_cli_views(tmp_path: Path) -> None:
    runner = CliRunner()
    for args, name in ((["--types", "Paper,Method", "--top", "5"], "o.html"), (["--focus", "ViT"], "e.html"),
                       (["--community", "1"], "c.html")):
        out = runner.invoke(cli, ["viz", "--graph", str(DATA), *args, "-o", str(tmp_path / name)])
        assert out.exit_code == 0, out.output
        assert_self_contained((tmp_path / name).read_text(encoding="utf-8"))
    assert len(page_data((tmp_path / "o.html").read_text(encoding="utf-8"))["nodes"]) == 5
    out = runner.invoke(cli, ["viz", "--graph", str(DATA), "--community", "99", "-o", str(tmp_path / "x.html")])
    assert out.exit_code == 1 and "no community 99" in out.output
    assert not (tmp_path / "x.html").exists()


def test_report_is_self_contained(rdf: Graph, tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["report", "--graph", str(DATA), "-o", str(tmp_path / "report.html")])
    assert out.exit_code == 0, out.output
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert_self_contained(html)
    images = re.findall(r'<img alt="([^"]+)" src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    assert [alt for alt, _ in images] == ["entities per type", "degree distribution", "community sizes",
                                          "top entities by type"]  # no entity has the 10 papers trends need
    import base64
    assert all(base64.b64decode(data)[:8] == b"\x89PNG\r\n\x1a\n" for _, data in images)
    assert "EEG / BIOT / LaBraM" in html
    assert XSS[0] not in html


@pytest.mark.parametrize("fmt", sorted(NETWORK_FORMATS))
def test_network_export_reads_back(rdf: Graph, g: nx.Graph, fmt: str, tmp_path: Path) -> None:
    path = write_network(rdf, tmp_path / f"graph{NETWORK_FORMATS[fmt].extension}")
    back = nx.read_graphml(path) if fmt == "graphml" else nx.read_gexf(path)
    assert set(back) == set(g)
    assert back.number_of_edges() == g.number_of_edges()
    vit = back.nodes[f"{ID}method/vit"]
    assert (vit["type"], vit["label"], vit["aliases"]) == ("Method", "ViT", "Vision Transformer")
    edge = back.edges[f"{ID}paper/a000000000000001", f"{ID}method/biot"]
    assert edge["property"] == "proposes" and edge["properties"] == "proposes; usesMethod"
