"""The interactive views in a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright).

Without a browser these tests skip locally but FAIL under CI=true: CI must run them.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import networkx as nx
import pytest

import kg.viz as viz

GRAPH = Path(__file__).parent / "data" / "analysis" / "graph.ttl"  # the g fixture (conftest.py)
ID = "https://w3id.org/paperkg/id/"
DIM = "rgba(200,200,200,0.35)"
#: the open_page fixture (conftest.py): a new page that records its errors, dialogs and requests
OpenPage = Callable[..., Any]


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory, g: nx.Graph) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("views")
    return {
        "overview": viz.write_overview(g, out / "graph.html"),
        "ego": viz.write_ego(g, "LaBraM", out / "ego.html", depth=1),
    }


class Page:
    """A page opened in the browser, recording console errors and dialogs."""

    def __init__(self, open_page: OpenPage, path: Path) -> None:
        recorded = open_page(1280, 860)
        self.page, self.errors, self.dialogs, self.requests = (recorded.page, recorded.errors, recorded.dialogs,
                                                                recorded.requests)
        self.page.goto(path.as_uri())
        self.page.wait_for_function("window.kgReady === true", timeout=20000)

    def js(self, expr: str, arg: object = None) -> object:
        return self.page.evaluate(expr, arg)

    def point_at(self, node: str) -> tuple[float, float]:
        """Zoom on ``node`` and return its position on the screen."""
        self.js("(id) => network.focus(id, {scale: 2.5, animation: false})", node)
        xy = self.js("(id) => network.canvasToDOM(network.getPositions([id])[id])", node)
        box = self.page.locator("#mynetwork").bounding_box()
        assert self.js("(p) => network.getNodeAt(p)", xy) == node
        return box["x"] + xy["x"], box["y"] + xy["y"]


def test_overview_counts_and_no_errors(open_page: OpenPage, pages: dict[str, Path], g: nx.Graph, tmp_path: Path) -> None:
    page = Page(open_page, pages["overview"])
    assert page.js("[network.body.data.nodes.length, network.body.data.edges.length]") == [
        g.number_of_nodes(), g.number_of_edges()]
    assert page.js("window.network === network && typeof network.getPositions") == "function"
    shot = tmp_path / "overview.png"
    page.page.screenshot(path=str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
    assert page.errors == []
    assert [u for u in page.requests if not u.startswith(("file:", "data:"))] == []


def test_click_highlights_neighbours(open_page: OpenPage, pages: dict[str, Path], g: nx.Graph, tmp_path: Path) -> None:
    page = Page(open_page, pages["overview"])
    node = f"{ID}method/labram"
    before = page.js("() => Object.fromEntries(nodes.get().map(n => [n.id, n.color]))")
    assert DIM not in before.values()
    x, y = page.point_at(node)
    page.page.mouse.click(x, y)
    page.page.wait_for_function("document.body.getAttribute('data-highlight') !== null")
    assert page.js("document.body.getAttribute('data-highlight')") == node
    after = page.js("() => Object.fromEntries(nodes.get().map(n => [n.id, n.color]))")
    near = {node, *g[node]}
    assert {n for n, c in after.items() if c != DIM} == near
    assert all(after[n] == before[n] for n in near)
    assert "Method: LaBraM" in page.js("document.getElementById('kg-info').textContent")
    page.page.screenshot(path=str(tmp_path / "highlight.png"))
    page.page.click("#kg-reset")
    assert page.js("() => nodes.get().filter(n => n.color === '%s').length" % DIM) == 0
    assert page.errors == []


def test_ego_view_counts(open_page: OpenPage, pages: dict[str, Path], g: nx.Graph, tmp_path: Path) -> None:
    page = Page(open_page, pages["ego"])
    ego = nx.ego_graph(g, f"{ID}method/labram", radius=1)
    assert page.js("[network.body.data.nodes.length, network.body.data.edges.length]") == [
        ego.number_of_nodes(), ego.number_of_edges()]
    assert page.js("network.getSelectedNodes()") == [f"{ID}method/labram"]
    page.page.screenshot(path=str(tmp_path / "ego.png"))
    assert page.errors == []


def test_type_filter_and_search(open_page: OpenPage, pages: dict[str, Path], g: nx.Graph) -> None:
    page = Page(open_page, pages["overview"])
    page.page.uncheck('input[data-type="Paper"]')
    hidden = page.js("() => nodes.get().filter(n => n.hidden).map(n => n.id)")
    assert set(hidden) == {n for n, t in g.nodes(data="type") if t == "Paper"}
    page.page.check('input[data-type="Paper"]')
    assert page.js("() => nodes.get().filter(n => n.hidden).length") == 0
    page.page.fill("#kg-search", "imagenet")
    page.page.press("#kg-search", "Enter")
    assert page.js("network.getSelectedNodes()") == [f"{ID}dataset/imagenet"]
    assert page.errors == []


def test_html_in_abstract_is_shown_as_text(open_page: OpenPage, pages: dict[str, Path], tmp_path: Path) -> None:
    page = Page(open_page, pages["overview"])
    paper = f"{ID}paper/b000000000000001"  # its abstract holds <img onerror> and <script> payloads
    x, y = page.point_at(paper)
    page.page.mouse.move(x, y)
    page.page.wait_for_selector("div.vis-tooltip", state="visible", timeout=5000)
    tooltip = page.js("document.querySelector('div.vis-tooltip').textContent")
    assert "<img src=x onerror=alert(1)>" in tooltip and "<script>alert('xss')</script>" in tooltip
    page.page.mouse.click(x, y)
    info = page.js("document.getElementById('kg-info').textContent")
    assert "<img src=x onerror=alert(1)>" in info
    assert page.js("document.querySelectorAll('img').length") == 0
    assert page.js("document.querySelectorAll('div.vis-tooltip script, #kg-info script').length") == 0
    page.page.wait_for_timeout(300)
    page.page.screenshot(path=str(tmp_path / "xss.png"))
    assert page.dialogs == []
    assert page.errors == []
