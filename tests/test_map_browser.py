"""The map views in a real headless Chromium (as tests/test_browser.py): what a reader sees at the
first view, read through vis-network's own API (positions, scale, font options, label boxes).

Screenshots go to each test's tmp_path and, when KG_SCREENSHOTS names a directory (e.g.
KG_SCREENSHOTS=docs/img), there too. KG_MAP_GRAPH=path/to/kg.ttl also checks (and shoots, as
map-seeds.png) the overview of that graph.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import networkx as nx
import pytest

import kg.viz as viz
from kg.analysis import convert
from kg.analysis.stats import communities
from kg.viz import views
from kg.viz.style import style
from synthetic_map import XSS_LABEL
from test_browser import Page

DATA = Path(__file__).parent / "data" / "analysis" / "graph.ttl"
GRAPH = DATA  # the g fixture (conftest.py); big is the synthetic community graph (conftest.py)
ID = "https://w3id.org/paperkg/id/"
TOP = 30
MIN_PX = 12

#: what the first view shows, from vis-network: scale, the network's box, every node's position
#: on screen, and the label of the nodes asked for (its font size on screen and its box)
VIEW = """(ids) => {
  const s = network.getScale();
  const box = document.getElementById('mynetwork').getBoundingClientRect();
  const pos = network.getPositions();
  const screen = {};
  Object.keys(pos).forEach(id => { screen[id] = network.canvasToDOM(pos[id]); });
  const labels = ids.map(id => {
    const n = network.body.nodes[id], L = n.labelModule.size;
    const a = network.canvasToDOM({x: L.left, y: L.top});
    const b = network.canvasToDOM({x: L.left + L.width, y: L.top + L.height});
    return {id: id, text: n.options.label, px: n.options.font.size * s,
            drawn: n.options.font.size * s >= n.options.scaling.label.drawThreshold - 1,
            l: a.x, t: a.y, r: b.x, b: b.y};
  });
  return {scale: s, width: box.width, height: box.height, screen: screen, labels: labels};
}"""


def shot(page: Page, tmp_path: Path, name: str) -> Path:
    """Save a screenshot in tmp_path, and in $KG_SCREENSHOTS when set."""
    path = tmp_path / name
    page.page.screenshot(path=str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("KG_SCREENSHOTS"):
        out = Path(os.environ["KG_SCREENSHOTS"])
        out.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, out / name)
    return path


def top_nodes(g: nx.Graph, n: int = TOP) -> list[str]:
    score = views.rank(g)
    return sorted(g, key=lambda x: (-score[x], x))[:n]


def check_first_view(page: Page, ids: list[str]) -> dict:
    """Assert what the issue asks of a first view; return what was read."""
    view = page.js(VIEW, ids)
    w, h = view["width"], view["height"]
    outside = [n for n, p in view["screen"].items() if not (0 <= p["x"] <= w and 0 <= p["y"] <= h)]
    assert outside == [], f"nodes outside the viewport: {outside[:5]}"
    xs = [p["x"] for p in view["screen"].values()]
    ys = [p["y"] for p in view["screen"].values()]
    if len(xs) > 1:  # the map fills the window (one way or the other)
        assert (max(xs) - min(xs)) > 0.8 * w or (max(ys) - min(ys)) > 0.8 * h
    labels = view["labels"]
    small = [(lab["text"], round(lab["px"], 2)) for lab in labels if lab["px"] < MIN_PX - 1e-6 or not lab["drawn"]]
    assert small == [], f"top labels under {MIN_PX} px on screen: {small}"
    assert all(lab["text"] for lab in labels)
    for i, a in enumerate(labels):
        assert 0 <= a["l"] and a["r"] <= w and 0 <= a["t"] and a["b"] <= h, f"label {a['text']!r} off screen"
        for b in labels[i + 1:]:
            apart = a["r"] <= b["l"] or b["r"] <= a["l"] or a["b"] <= b["t"] or b["b"] <= a["t"]
            assert apart, f"labels {a['text']!r} and {b['text']!r} overlap: {a} {b}"
    return view


def shown_labels(page: Page) -> set[str]:
    """The nodes whose label is drawn at a readable size now."""
    return set(page.js("() => { const s = network.getScale(); return Object.values(network.body.nodes)"
                       ".filter(n => n.options.font.size * s >= 10).map(n => n.id); }"))


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory, g: nx.Graph, big: nx.Graph) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("maps")
    return {
        "overview": viz.write_overview(g, out / "graph.html"),
        "papers": viz.write_paper_map(g, out / "papers.html"),
        "communities": viz.write_overview(big, out / "communities.html"),
        "dense": viz.write_overview(big, out / "dense.html", top=600),
    }


def test_first_view_is_a_readable_map(open_page: object, pages: dict[str, Path], g: nx.Graph, tmp_path: Path) -> None:
    page = Page(open_page, pages["overview"])
    ids = top_nodes(g, min(TOP, len(g)))
    check_first_view(page, ids)
    names = page.js("() => kgMap.current.names.filter(n => n.shown).map(n => n.label)")
    assert "EEG / BIOT / LaBraM" in names  # community names drawn at their centres
    shot(page, tmp_path, "map-test-graph.png")
    assert page.errors == []


def test_labels_appear_as_the_reader_zooms_in(open_page: object, pages: dict[str, Path], tmp_path: Path) -> None:
    page = Page(open_page, pages["dense"])
    before = shown_labels(page)
    assert len(before) < 600 / 2  # the first view labels the top nodes and what fits among them
    box = page.page.locator("#mynetwork").bounding_box()
    page.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(6):
        page.page.mouse.wheel(0, -300)
        page.page.wait_for_timeout(80)
    page.page.wait_for_timeout(300)
    assert page.js("network.getScale()") > 1.5 * page.js("kgMap.current.fitScale")
    after = shown_labels(page)
    assert len(after - before) >= 10  # labels hidden at the first view now show
    shot(page, tmp_path, "map-zoomed-synthetic.png")
    px = page.js("() => { const s = network.getScale(); return Object.values(network.body.nodes)"
                 ".filter(n => n.options.font.size * s >= 10).map(n => n.options.font.size * s); }")
    assert max(px) <= 18.01  # labels keep their size on screen instead of growing with the zoom
    assert page.errors == []


def test_colour_toggle(open_page: object, pages: dict[str, Path], g: nx.Graph) -> None:
    page = Page(open_page, pages["overview"])
    colours = "() => Object.fromEntries(nodes.get().map(n => [n.id, n.color]))"
    by_community = page.js(colours)
    assert page.js("document.body.getAttribute('data-colour')") == "community"
    page.page.select_option("#kg-colour", "type")
    by_type = page.js(colours)
    assert by_type == {n: style(g.nodes[n]["type"])[0] for n in g}
    assert by_type != by_community
    index = {m: c.id for c in communities(g) for m in c.members}
    assert len(set(by_community.values())) == len(set(index.values()))
    page.page.select_option("#kg-colour", "community")
    assert page.js(colours) == by_community
    assert page.errors == []


def test_paper_map(open_page: object, pages: dict[str, Path], g: nx.Graph, tmp_path: Path) -> None:
    page = Page(open_page, pages["papers"])
    papers = [n for n, t in g.nodes(data="type") if t == "Paper"]
    assert page.js("network.body.data.nodes.length") == len(papers)
    assert page.js("document.body.getAttribute('data-colour')") == "year"
    assert page.js("document.getElementById('kg-years').hidden") is False
    labels = page.js("() => nodes.get().map(n => n.fullLabel)")
    assert set(labels) == {g.nodes[p]["label"] for p in papers}
    # hovering an edge says which entities link the two papers
    a, b = f"{ID}paper/a000000000000001", f"{ID}paper/a000000000000002"
    edge = page.js("([a, b]) => edges.get().find(e => [e.from, e.to].sort().join() === [a, b].sort().join()).id",
                   [a, b])
    page.js("(id) => network.focus(id, {scale: 2, animation: false})", a)
    mid = page.js("""([a, b]) => { const p = network.getPositions([a, b]);
        return network.canvasToDOM({x: (p[a].x + p[b].x) / 2, y: (p[a].y + p[b].y) / 2}); }""", [a, b])
    assert page.js("(p) => network.getEdgeAt(p)", mid) == edge
    box = page.page.locator("#mynetwork").bounding_box()
    page.page.mouse.move(box["x"] + mid["x"], box["y"] + mid["y"])
    page.page.wait_for_selector("div.vis-tooltip", state="visible", timeout=5000)
    tip = page.js("document.querySelector('div.vis-tooltip').textContent")
    assert "shared" in tip and "EEG" in tip
    shot(page, tmp_path, "paper-map-test-graph.png")
    assert page.errors == []


def test_community_map_opens_a_community_and_comes_back(open_page: object, pages: dict[str, Path], big: nx.Graph,
                                                        tmp_path: Path) -> None:
    page = Page(open_page, pages["communities"])
    keys = page.js("network.body.data.nodes.getIds()")
    assert len(keys) == 13 and "c1" in keys
    check_first_view(page, page.js("() => kgMap.current.order.slice(0, 30)"))
    shot(page, tmp_path, "community-map-synthetic.png")
    x, y = page.point_at("c1")
    page.page.mouse.click(x, y)
    page.page.wait_for_function("document.body.getAttribute('data-view') === 'community-c1' && window.kgReady")
    crumbs = page.js("document.getElementById('kg-crumbs').textContent")
    label = communities(big)[0].label
    assert crumbs == f"All communities › community 1: {label}"
    c1 = communities(big)[0]
    assert page.js("network.body.data.nodes.length") == c1.size
    assert set(page.js("network.body.data.nodes.getIds()")) == set(c1.members)
    score = views.rank(big)
    check_first_view(page, sorted(c1.members, key=lambda n: (-score[n], n))[:TOP])
    shot(page, tmp_path, "community-view-synthetic.png")
    page.page.click("#kg-crumb-top")
    page.page.wait_for_function("document.body.getAttribute('data-view') === 'map' && window.kgReady")
    assert len(page.js("network.body.data.nodes.getIds()")) == 13
    # the browser's back button returns to the community, and forward again to the map
    page.page.go_back()
    page.page.wait_for_function("document.body.getAttribute('data-view') === 'community-c1'")
    page.page.go_back()
    page.page.wait_for_function("document.body.getAttribute('data-view') === 'map'")
    assert page.errors == [] and page.dialogs == []


def test_community_map_search_and_escaping(open_page: object, pages: dict[str, Path], big: nx.Graph) -> None:
    page = Page(open_page, pages["communities"])
    target = f"{ID}task/c5-e2"
    page.page.fill("#kg-search", big.nodes[target]["label"])
    page.page.press("#kg-search", "Enter")
    page.page.wait_for_function("document.body.getAttribute('data-view') !== 'map' && window.kgReady")
    assert page.js("network.getSelectedNodes()") == [target]
    # the community named after a label holding markup shows it as text
    cid = next(c.id for c in communities(big) if XSS_LABEL in c.label)
    page.js("(k) => kgMap.openCommunity(k)", f"c{cid}")
    page.page.wait_for_function(f"document.body.getAttribute('data-view') === 'community-c{cid}'")
    assert XSS_LABEL in page.js("document.getElementById('kg-crumb-here').textContent")
    assert page.js("document.querySelectorAll('img').length") == 0
    assert page.dialogs == [] and page.errors == []


def test_built_graph_map(open_page: object, corpus_build, tmp_path: Path) -> None:
    """The map of a graph the pipeline built: the small test corpus, or ``KG_MAP_GRAPH=path/to/kg.ttl``
    (the README's screenshot is made from the seeds graph this way)."""
    from kg.store.load import load_graph

    built = Path(os.environ.get("KG_MAP_GRAPH") or corpus_build[1] / "kg.ttl")
    g = convert.typed_graph(load_graph(built))
    path = viz.write_overview(g, tmp_path / "graph.html")
    page = Page(open_page, path)
    score = views.rank(g)
    shown = set(page.js("network.body.data.nodes.getIds()"))
    check_first_view(page, [n for n in sorted(g, key=lambda x: (-score[x], x)) if n in shown][:TOP])
    shot(page, tmp_path, "map-seeds.png")
    assert page.errors == []
