"""The map views without a browser: label geometry and overlap resolution (pure functions, with a
property test), the layouts, the colours, the community map and the paper map pages."""
from __future__ import annotations

import json
import re
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kg.viz as viz
from kg.analysis import convert
from kg.analysis.stats import communities, community_index
from kg.viz import communitymap, layout, palette, papermap, placement, views
from kg.viz.labels import (Box, Label, free_label, label_box, node_label, overlapping_pairs, resolve_overlaps,
                           text_width)
from kg.viz.style import style
from synthetic_map import XSS_LABEL, synthetic_graph

DATA = Path(__file__).parent / "data" / "analysis" / "graph.ttl"
GRAPH = DATA  # the g fixture (conftest.py); big is the synthetic community graph (conftest.py)
ID = "https://w3id.org/paperkg/id/"


def palette_type(node_type: str) -> str:
    return style(node_type)[0]


def blocks(html: str) -> dict[str, dict]:
    """Every JSON block of a page, by id."""
    return {m.group(1): json.loads(m.group(2))
            for m in re.finditer(r'<script type="application/json" id="([^"]+)">(.*?)</script>', html, re.S)}


# label geometry ------------------------------------------------------------------------------

def test_text_width_grows_with_text_and_size() -> None:
    assert text_width("", 14) == 0
    assert text_width("EEG", 14) < text_width("EEG / BIOT", 14)
    assert text_width("LaBraM", 28) == pytest.approx(2 * text_width("LaBraM", 14))
    assert text_width("LaBraM", 14, bold=True) > text_width("LaBraM", 14)
    # DejaVu Sans (Chromium's sans-serif here) measures "EEG foundation models" at 163.9 px in 14 px
    assert 163.9 <= text_width("EEG foundation models", 14) <= 163.9 * 1.1


def test_label_box_hangs_under_the_node_and_keeps_its_screen_size() -> None:
    box = label_box(100, 50, 10, "BIOT", 14, scale=1.0)
    assert box.top == pytest.approx(50 + 10 + 7 + 4) and box.height == pytest.approx(14)
    assert (box.left + box.right) / 2 == pytest.approx(100)
    zoomed = label_box(100, 50, 10, "BIOT", 14, scale=2.0)  # twice the zoom: half the canvas size
    assert zoomed.width == pytest.approx(box.width / 2) and zoomed.height == pytest.approx(7)


def test_box_overlap() -> None:
    a, b = Box(0, 0, 10, 10), Box(10, 0, 20, 10)
    assert not a.overlaps(b) and a.overlaps(b, pad=0.1)
    assert Box(2, 2, 5, 5).inside(a) and not b.inside(a)


def test_resolve_overlaps_separates_a_pile() -> None:
    labels = [node_label(f"n{i}", 0, 0, 5, f"label {i}", 14) for i in range(10)]
    assert len(overlapping_pairs(labels)) == 45
    moved = resolve_overlaps(labels, pad=2)
    placed = [Label(lab.key, *moved[lab.key], lab.dx, lab.dy, lab.width, lab.height) for lab in labels]
    assert overlapping_pairs(placed, gap=1.99) == []
    assert resolve_overlaps(labels, pad=2) == moved  # deterministic


def test_resolve_overlaps_keeps_fixed_labels_and_bounds() -> None:
    fixed = free_label("fixed", 0, 0, "EEG / BIOT", 14, weight=0)
    other = free_label("other", 5, 3, "LaBraM", 14)
    bounds = Box(-200, -100, 200, 100)
    moved = resolve_overlaps([fixed, other], pad=3, bounds=bounds)
    assert moved["fixed"] == (0, 0)
    box = Label("other", *moved["other"], other.dx, other.dy, other.width, other.height).box
    assert box.inside(bounds) and not box.overlaps(fixed.box, 1.49)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(-300, 300), st.floats(-150, 150), st.text(min_size=1, max_size=24),
                          st.floats(11, 18), st.floats(0.5, 3)), min_size=1, max_size=30))
def test_resolve_overlaps_property(items: list[tuple[float, float, str, float, float]]) -> None:
    """Any 30 labels that fit in a map-sized box end up apart, inside it; the keys are all kept."""
    labels = [node_label(f"k{i}", x, y, 6, text, px, weight=w) for i, (x, y, text, px, w) in enumerate(items)]
    bounds = Box(-1200, -800, 1200, 800)
    moved = resolve_overlaps(labels, pad=3, bounds=bounds)
    assert set(moved) == {lab.key for lab in labels}
    placed = [Label(lab.key, *moved[lab.key], lab.dx, lab.dy, lab.width, lab.height) for lab in labels]
    assert overlapping_pairs(placed, gap=2.99) == []
    assert all(lab.box.inside(bounds) for lab in placed)


# layouts and colours -------------------------------------------------------------------------

def test_fill_stretches_to_the_map_rectangle() -> None:
    pos = layout.fill({"a": (0, 0), "b": (1, 1), "c": (0.5, 0.2)}, width=1000, height=500, max_stretch=2)
    xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    assert (min(xs), max(xs), min(ys), max(ys)) == pytest.approx((-500, 500, -250, 250))
    band = layout.fill({"a": (0, 0), "b": (1, 1)}, width=1000, height=100, max_stretch=2)
    assert max(p[0] for p in band.values()) == pytest.approx(100)  # not more than 2x the other axis
    assert max(p[1] for p in band.values()) == pytest.approx(50)
    assert layout.fill({}) == {}


def test_pack_discs_removes_overlaps() -> None:
    centres = {str(i): (0.01 * i, 0.0) for i in range(12)}
    radii = {str(i): 1.0 + i % 3 for i in range(12)}
    packed = layout.pack_discs(centres, radii, aspect=2.0)
    keys = sorted(packed)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            d = ((packed[a][0] - packed[b][0]) ** 2 + (packed[a][1] - packed[b][1]) ** 2) ** 0.5
            assert d >= 0.97 * (radii[a] + radii[b])
    xs, ys = [p[0] for p in packed.values()], [p[1] for p in packed.values()]
    assert max(xs) - min(xs) > max(ys) - min(ys)  # wider than high
    assert layout.pack_discs(centres, radii, aspect=2.0) == packed


def test_grouped_layout_puts_communities_in_regions(g: nx.Graph) -> None:
    comms = communities(g)
    index = community_index(comms)
    pos = layout.grouped_layout(g, index)
    assert set(pos) == set(g)
    centre = {c.id: tuple(sum(pos[m][k] for m in c.members) / c.size for k in (0, 1)) for c in comms}
    for c in comms:  # every node is nearer its own community's centre than most others'
        for m in c.members:
            own = (pos[m][0] - centre[c.id][0]) ** 2 + (pos[m][1] - centre[c.id][1]) ** 2
            nearer = sum(1 for o in comms if (pos[m][0] - centre[o.id][0]) ** 2 + (pos[m][1] - centre[o.id][1]) ** 2 < own)
            assert nearer <= len(comms) // 2


def test_palette() -> None:
    assert palette.community_colour(1) == palette.COMMUNITY_COLOURS[0]
    assert palette.community_colour(None) == palette.community_colour(999) == palette.OTHER_COMMUNITY
    assert palette.sequential(0) == "#440154" and palette.sequential(1) == "#fde725"
    assert palette.year_colour(None, 2017, 2024) == palette.NO_YEAR
    ticks = palette.year_legend(2017, 2024)
    assert ticks[0]["year"] == 2017 and ticks[-1]["year"] == 2024 and len(ticks) == 5
    assert [t["year"] for t in palette.year_legend(2020, 2021)] == [2020, 2021]


def test_community_name_and_map_text() -> None:
    assert placement.community_name("EEG / BIOT / LaBraM") == "EEG / BIOT / LaBraM"
    assert placement.community_name("vision-language model / text / large language model") == "vision-language model / text"
    assert placement.community_name("a" * 50).endswith("…") and len(placement.community_name("a" * 50)) <= 30
    assert placement.map_text("This study introduces a novel method for performing") == "This study introduces a…"
    assert placement.label_px(0) == placement.TOP_PX[0] and placement.label_px(29) == placement.TOP_PX[1]
    assert placement.label_px(30) == placement.SMALL_PX


# the map of a view ---------------------------------------------------------------------------

def test_map_layout_top_labels_and_names_apart(g: nx.Graph) -> None:
    comms = communities(g)
    m = placement.map_layout(g, views.rank(g), community_index(comms), {c.id: c.label for c in comms})
    assert placement.check_layout(m) == []
    assert {c["label"] for c in m.communities} >= {"EEG / BIOT / LaBraM"}
    xs, ys = [p[0] for p in m.pos.values()], [p[1] for p in m.pos.values()]
    assert max(xs) - min(xs) <= placement.MAP_WIDTH + 1 and max(ys) - min(ys) <= placement.MAP_HEIGHT + 41
    ranks = sorted(m.rank.values())
    assert ranks == list(range(len(g)))


def test_overview_payload_colours_by_community(rdf_page: dict) -> None:
    data = rdf_page
    assert data["colorings"] == ["community", "type"] and data["colorBy"] == "community"
    by_id = {n["id"]: n for n in data["nodes"]}
    for n in data["nodes"]:
        assert n["color"] == n["colors"]["community"] == palette.community_colour(n["community"])
        assert n["colors"]["type"] == palette_type(n["type"])
        assert n["labelPx"] >= 12 if n["rank"] < placement.TOP_LABELS else n["labelPx"] < 12
    assert len({n["color"] for n in data["nodes"]}) == len({n["community"] for n in data["nodes"]})
    assert sorted(n["rank"] for n in data["nodes"]) == list(range(len(data["nodes"])))
    assert "EEG / BIOT / LaBraM" in [c["label"] for c in data["communities"]]
    assert data["options"]["nodes"]["scaling"]["label"]["enabled"] is False


@pytest.fixture(scope="module")
def rdf_page(g: nx.Graph, tmp_path_factory: pytest.TempPathFactory) -> dict:
    html = viz.write_overview(g, tmp_path_factory.mktemp("map") / "graph.html").read_text(encoding="utf-8")
    return blocks(html)["kg-data"]


# the community map ---------------------------------------------------------------------------

def test_community_graph(big: nx.Graph) -> None:
    comms = communities(big)
    m = communitymap.community_graph(big, comms)
    own = communitymap.shown_on_map(comms)
    assert len(own) == 12 and set(m) == {f"c{i}" for i in own} | {"small"}
    assert sum(d["size"] for _, d in m.nodes(data=True)) == big.number_of_nodes()
    assert sum(d["papers"] for _, d in m.nodes(data=True)) == 12 * 110
    for a, b, d in m.edges(data=True):
        assert d["weight"] >= 1 and d["shared"] and "links across" in d["tooltip"]
    assert all(m.degree(n) <= len(m) for n in m)


def test_community_map_page(big: nx.Graph, tmp_path: Path) -> None:
    path = viz.write_overview(big, tmp_path / "graph.html")  # > MAP_NODES nodes: the community map
    html = path.read_text(encoding="utf-8")
    found = blocks(html)
    data = found["kg-data"]
    assert data["kind"] == "communities" and len(data["nodes"]) == 13
    assert set(data["groups"]) == {n["id"] for n in data["nodes"]}
    for key, group in data["groups"].items():
        b = found[group["block"]]
        assert len(b["n"]) == group["shown"] <= communitymap.COMMUNITY_TOP and len(b["e"]) == group["links"]
        assert all(0 <= i < j < len(b["n"]) for i, j, _ in b["e"])
    c1 = found[data["groups"]["c1"]["block"]]
    assert all(row[0].startswith(("paper/", "method/", "dataset/", "task/", "modality/", "metric/")) for row in c1["n"])
    assert XSS_LABEL not in html  # a community named after it: escaped in the JSON, never markup
    assert any(XSS_LABEL in n["fullLabel"] for n in data["nodes"])
    assert 'id="kg-crumbs"' in html
    assert path.stat().st_size < 3_000_000


def test_pages_are_deterministic(g: nx.Graph, big: nx.Graph, tmp_path: Path) -> None:
    for name, write in (("map", viz.write_overview), ("papers", viz.write_paper_map)):
        assert write(g, tmp_path / f"{name}-1.html").read_bytes() == write(g, tmp_path / f"{name}-2.html").read_bytes()
    small = synthetic_graph(clusters=3, papers=20, entities=30)
    one = viz.write_community_map(small, tmp_path / "c-1.html").read_bytes()
    assert one == viz.write_community_map(small, tmp_path / "c-2.html").read_bytes()


def test_overview_kinds(g: nx.Graph, big: nx.Graph, tmp_path: Path) -> None:
    data = blocks(viz.write_overview(g, tmp_path / "a.html", kind="communities").read_text(encoding="utf-8"))["kg-data"]
    assert data["kind"] == "communities"
    data = blocks(viz.write_overview(big, tmp_path / "b.html", top=200).read_text(encoding="utf-8"))["kg-data"]
    assert data["kind"] == "nodes" and len(data["nodes"]) == 200
    from kg.errors import KGError

    with pytest.raises(KGError, match="unknown overview"):
        viz.write_overview(g, tmp_path / "c.html", kind="bubbles")


# the paper map -------------------------------------------------------------------------------

def test_paper_view_links_say_why(g: nx.Graph) -> None:
    view = papermap.paper_view(g)
    assert {d for _, d in view.nodes(data="type")} == {"Paper"}
    eeg = (f"{ID}paper/a000000000000001", f"{ID}paper/a000000000000002")
    projection = convert.paper_projection(g)
    assert view.has_edge(*eeg)
    edge = view.edges[eeg]
    assert set(edge["shared"]) == set(projection.edges[eeg]["shared"])
    for e in edge["shared"]:
        assert g.nodes[e]["label"] in edge["tooltip"]
    assert edge["weight"] == pytest.approx(projection.edges[eeg]["weight"], abs=1e-3)
    few = papermap.paper_view(g, links=1)
    assert few.number_of_edges() <= view.number_of_edges()


def test_paper_map_page(g: nx.Graph, tmp_path: Path) -> None:
    html = viz.write_paper_map(g, tmp_path / "papers.html").read_text(encoding="utf-8")
    data = blocks(html)["kg-data"]
    assert data["colorBy"] == "year" and data["colorings"] == ["community", "year", "type"]
    years = {n["id"]: g.nodes[n["id"]]["year"] for n in data["nodes"]}
    first, last = min(int(y) for y in years.values() if y), max(int(y) for y in years.values() if y)
    for n in data["nodes"]:
        expected = palette.year_colour(int(years[n["id"]]) if years[n["id"]] else None, first, last)
        assert n["color"] == expected
    assert 'id="kg-years"' in html and str(first) in html
    assert all(e["title"].split(" ")[1] in ("shared", "shared") for e in data["edges"])
    assert all(e.get("width") for e in data["edges"])
    for payload in ("<img src=x onerror=alert(1)>", "<script>alert('xss')</script>"):
        assert payload not in html
