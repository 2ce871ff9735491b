"""The explorer of ``kg serve`` in a real headless Chromium (Debian's /usr/bin/chromium, driven by
Playwright) against the real server: type a query into YASGUI, run it, see the rows, click a result's
IRI through to its entity page and see its papers; open a saved query with its parameter; find an
entity with the header's search box; hostile data runs nothing, in YASGUI's results, in the search
dropdown or on the pages; the pages' Content-Security-Policy lets all of it work and nothing is fetched
from another host. Without a browser these tests skip locally but FAIL under CI=true: CI must run them.

With ``KG_SCREENSHOTS=docs/img`` the first test saves the README's screenshot, docs/img/explorer.png.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from server_helpers import running_server

HERE = Path(__file__).parent
GOLDEN = HERE / "data" / "golden" / "graph.ttl"
XSS = HERE / "data" / "server" / "xss.ttl"
ID = "https://w3id.org/paperkg/id/"
#: typed into the editor on one line (a newline could accept one of the editor's completions)
QUERY = ('SELECT ?method ?label WHERE { ?paper kg:usesMethod ?method . ?method rdfs:label ?label . '
         'FILTER(?label IN ("BIOT", "LaBraM")) } GROUP BY ?method ?label ORDER BY ?label')
ACTIVE = ".tabPanel.active"
DONE = "body[data-state=done]"
WAIT = 20000
#: the open_page fixture (conftest.py): a new page that records its errors, dialogs and requests
OpenPage = Callable[..., Any]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_server(GOLDEN) as url:
        yield url


@pytest.fixture(scope="module")
def xss_server() -> Iterator[str]:
    with running_server(XSS) as url:
        yield url


class Tab:
    """A browser tab recording console errors, dialogs, the hosts it requested and any breach of the
    pages' Content-Security-Policy (enforced: the tests wait on selectors, never on evaluated code)."""

    def __init__(self, open_page: OpenPage, base: str) -> None:
        self.base = base
        recorded = open_page(1280, 900)
        self.page, self.errors, self.dialogs, self.requests = (recorded.page, recorded.errors, recorded.dialogs,
                                                                recorded.requests)
        self.posts: list[str] = []  # the bodies POSTed to /sparql
        self.page.add_init_script("document.addEventListener('securitypolicyviolation', e => console.error("
                                  "'CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))")
        self.page.on("request", self._post)

    def _post(self, request: object) -> None:
        if request.url.endswith("/sparql") and request.method == "POST":  # type: ignore[attr-defined]
            self.posts.append(request.post_data or "")  # type: ignore[attr-defined]

    def goto(self, path: str) -> None:
        self.page.goto(self.base + path)

    def foreign_requests(self) -> list[str]:
        return [u for u in self.requests if not u.startswith((self.base, "data:"))]

    def type_query(self, text: str) -> None:
        """Replace the active YASGUI tab's query by typing ``text`` into its editor."""
        self.page.click(f"{ACTIVE} .yasqe .CodeMirror")
        self.page.keyboard.press("Control+A")
        self.page.keyboard.press("Delete")
        self.page.keyboard.type(text)

    def set_query(self, text: str) -> None:
        """Replace the active tab's query through YASQE (for texts that typing would complete)."""
        self.page.evaluate("t => kgExplorer.yasgui.getTab().getYasqe().setValue(t)", text)

    def run(self, state: str = "done") -> None:
        """Press YASGUI's run button and wait until the result is drawn (``state``: done or error)."""
        self.page.evaluate("document.body.removeAttribute('data-state')")
        self.page.click(f"{ACTIVE} .yasqe_queryButton")
        self.page.wait_for_selector(f"body[data-state={state}]", timeout=WAIT)

    def headers(self) -> list[str]:
        return self.page.locator(f"{ACTIVE} .yasr table.dataTable thead th").all_text_contents()

    def rows(self) -> list[list[str]]:
        """The result table's rows without YASR's row-number column."""
        rows = self.page.locator(f"{ACTIVE} .yasr table.dataTable tbody tr")
        return [rows.nth(i).locator("td").all_text_contents()[1:] for i in range(rows.count())]

    def cells(self) -> list[str]:
        return [cell for row in self.rows() for cell in row]


def screenshot_dir(tmp_path: Path) -> Path:
    """Where the README's screenshot goes: ``$KG_SCREENSHOTS`` if set, else the test's tmp dir."""
    target = Path(os.environ["KG_SCREENSHOTS"]) if os.environ.get("KG_SCREENSHOTS") else tmp_path
    target.mkdir(parents=True, exist_ok=True)
    return target


def test_type_run_see_rows_click_through(open_page: OpenPage, server: str, tmp_path: Path) -> None:
    tab = Tab(open_page, server)
    tab.goto("/")
    tab.type_query(QUERY)
    tab.page.keyboard.press("Control+Enter")  # YASQE's own key for running the query
    tab.page.wait_for_selector(DONE, timeout=WAIT)
    typed = tab.page.evaluate("kgExplorer.yasgui.getTab().getYasqe().getValue()")
    assert typed.endswith(QUERY) and "PREFIX kg: <https://w3id.org/paperkg/ontology#>" in typed  # completion added it
    assert tab.headers()[1:] == ["method", "label"]
    assert tab.rows() == [["method:biot", "BIOT"], ["method:labram", "LaBraM"]]
    links = tab.page.locator(f"{ACTIVE} .yasr tbody a.iri")
    assert [links.nth(i).get_attribute("href") for i in range(links.count())] == ["/method/biot", "/method/labram"]
    assert "2 results" in tab.page.text_content(f"{ACTIVE} .yasr_response_chip")
    tab.page.locator(f"{ACTIVE} .tableFilter").press_sequentially("labr")  # YASR's filter box
    tab.page.wait_for_function("document.querySelectorAll('.tabPanel.active .yasr tbody tr').length === 1")
    assert tab.rows() == [["method:labram", "LaBraM"]]
    tab.page.locator(f"{ACTIVE} .tableFilter").fill("")
    tab.page.locator(f"{ACTIVE} .tableFilter").press("Backspace")
    # the graph view of the same result, drawn by vis-network from /static, as a YASR view
    tab.page.click(f"{ACTIVE} .select_graph")
    tab.page.wait_for_selector(f"{ACTIVE} #kg-graph canvas", timeout=WAIT)
    tab.page.wait_for_selector("#kg-graph-message:has-text('nodes')", timeout=WAIT)
    ids = tab.page.evaluate("window.kgNetwork.body.data.nodes.getIds()")
    assert f"{ID}method/biot" in ids
    tab.page.screenshot(path=str(tmp_path / "graph.png"))
    tab.page.click(f"{ACTIVE} .select_table")
    # the default query, as a person sees it first: the README's screenshot
    tab.set_query(tab.page.evaluate("JSON.parse(document.getElementById('kg-default-query').textContent)"))
    tab.run()
    assert tab.rows()[0][:2] == ["method:transformer", "transformer"]
    tab.page.screenshot(path=str(screenshot_dir(tmp_path) / "explorer.png"))
    # click a result's IRI through to the entity page, then to its paper
    tab.page.click(f"{ACTIVE} .yasr tbody a.iri:text-is('method:biot')")
    tab.page.wait_for_url(server + "/method/biot")
    assert tab.page.text_content("#kg-label") == "BIOT"
    papers = tab.page.locator("#kg-papers a").all_text_contents()
    assert "BIOT" in papers
    tab.page.click("#kg-papers a:text-is('BIOT')")
    tab.page.wait_for_url(server + "/paper/a1a1a1a1a1a1a1a1")
    marked = tab.page.locator("#kg-abstract a.kg-mention").all_text_contents()
    assert marked[:3] == ["BIOT", "transformer", "EEG"]
    assert tab.errors == [] and tab.dialogs == []
    assert tab.foreign_requests() == []


def test_saved_query_opens_in_a_tab_with_its_parameter(open_page: OpenPage, server: str) -> None:
    tab = Tab(open_page, server)
    tab.goto("/")
    tab.page.wait_for_selector(f"{ACTIVE} .yasqe .CodeMirror")
    tab.page.select_option("#kg-saved", "papers-using")
    tab.page.wait_for_selector(".tabsList a:has-text('papers-using')")
    assert "# name: papers-using" in tab.page.evaluate("kgExplorer.yasgui.getTab().getYasqe().getValue()")
    assert tab.page.locator(f"{ACTIVE} .gutterErrorBar .svgImg").count() == 0  # LATERAL is not flagged
    tab.page.fill("input[data-param=entity]", "BIOT")
    tab.page.press("input[data-param=entity]", "Enter")
    tab.page.wait_for_selector(DONE, timeout=WAIT)
    assert "paper:a1a1a1a1a1a1a1a1" in tab.cells()
    # POSTed to this server's endpoint with the parameter beside the query (bound, never pasted)
    assert any("param.entity=BIOT" in body and "query=" in body for body in tab.posts)
    # the first tab is still there, with its own query and no parameter
    tab.page.click(".tabsList a:has-text('Query')")
    tab.page.wait_for_selector("#kg-params:empty", state="attached")
    assert tab.page.input_value("#kg-saved") == ""
    assert tab.errors == []


def test_errors_are_shown_and_the_page_keeps_working(open_page: OpenPage, server: str) -> None:
    tab = Tab(open_page, server)
    tab.goto("/")
    tab.page.wait_for_selector(f"{ACTIVE} .yasqe .CodeMirror")
    tab.set_query("INSERT DATA { <http://e.org/a> <http://e.org/b> <http://e.org/c> }")
    tab.run("error")
    assert "this endpoint is read-only" in tab.page.text_content(f"{ACTIVE} .yasr .errorResult")
    tab.set_query("ASK { ?s ?p ?o }")
    tab.run()
    assert tab.page.text_content(f"{ACTIVE} .yasr .booleanResult") == "True"
    # the refused update is the only error the console saw (the browser logs the 403)
    assert all("403" in e for e in tab.errors), tab.errors


def test_editor_completes_from_this_graph_only(open_page: OpenPage, server: str) -> None:
    tab = Tab(open_page, server)
    tab.goto("/")
    tab.type_query("SELECT * WHERE { ?paper kg:uses")
    tab.page.keyboard.press("Control+Space")  # properties: the ones this graph uses, asked of this server
    tab.page.wait_for_selector(".CodeMirror-hints li", timeout=WAIT)
    hints = tab.page.locator(".CodeMirror-hints li").all_text_contents()
    assert "kg:usesMethod" in hints and "kg:usesDataset" in hints
    tab.page.keyboard.press("Escape")
    tab.type_query("PREFIX data")  # prefixes: the graph's own first
    tab.page.wait_for_selector(".CodeMirror-hints li", timeout=WAIT)
    assert "dataset: <https://w3id.org/paperkg/id/dataset/>" in tab.page.locator(".CodeMirror-hints li").all_text_contents()
    assert tab.foreign_requests() == [] and tab.errors == []


def test_search_box_finds_entities_by_label_and_alias(open_page: OpenPage, server: str) -> None:
    tab = Tab(open_page, server)
    tab.goto("/method/biot")  # the box is in the header of every page
    tab.page.fill("#kg-search", "trans")
    tab.page.wait_for_selector("#kg-search-results[data-for=trans] li a", timeout=WAIT)
    labels = tab.page.locator("#kg-search-results .kg-search-label").all_text_contents()
    assert labels[0] == "transformer" and "ViT" in labels  # "Vision Transformer" is ViT's alias
    vit = tab.page.locator("#kg-search-results a", has_text="Vision Transformer")
    assert vit.get_attribute("href") == "/method/vit"
    # keys: down to ViT, Enter opens it
    index = labels.index("ViT")
    for _ in range(index):
        tab.page.keyboard.press("ArrowDown")
    tab.page.keyboard.press("Enter")
    tab.page.wait_for_url(server + "/method/vit")
    assert tab.page.text_content("#kg-label") == "ViT"
    # a click opens a paper; Escape closes the list
    tab.page.fill("#kg-search", "multimodal tr")
    tab.page.wait_for_selector("#kg-search-results a:has-text('Multimodal transformer')", timeout=WAIT)
    tab.page.keyboard.press("Escape")
    assert tab.page.locator("#kg-search-results").is_hidden()
    tab.page.fill("#kg-search", "multimodal tra")
    tab.page.click("#kg-search-results a:has-text('Multimodal transformer')", timeout=WAIT)
    tab.page.wait_for_url(server + "/paper/**")
    assert tab.page.text_content("#kg-label") == "Multimodal transformer"
    assert tab.errors == [] and tab.foreign_requests() == []


def test_hostile_data_runs_nothing(open_page: OpenPage, xss_server: str) -> None:
    tab = Tab(open_page, xss_server)
    tab.goto("/")
    tab.page.wait_for_selector(f"{ACTIVE} .yasqe .CodeMirror")
    tab.set_query("SELECT ?s ?label ?alias WHERE { ?s rdfs:label ?label OPTIONAL { ?s skos:altLabel ?alias } } "
                  "ORDER BY ?s ?alias")
    tab.run()
    cells = tab.cells()
    assert "<script>alert('label')</script>" in cells
    assert "\"><svg onload=alert('alias')>" in cells
    assert "<img src=x onerror=alert('entity')>" in cells
    table = f"{ACTIVE} .yasr table.dataTable tbody"
    assert tab.page.locator(f"{table} img, {table} svg, {table} script").count() == 0
    tab.page.click(f"{ACTIVE} .select_graph")
    tab.page.wait_for_selector(f"{ACTIVE} #kg-graph canvas", timeout=WAIT)
    # an IRI that is not a web address is shown, never linked
    tab.set_query("SELECT ?code WHERE { ?p kg:codeRepository ?code }")
    tab.run()
    tab.page.click(f"{ACTIVE} .select_table")
    assert tab.cells() == ["<javascript:alert('href')>"]
    assert tab.page.locator(f"{ACTIVE} .yasr a[href^='javascript']").count() == 0
    # the search dropdown shows hostile names as text
    for typed, shown in (("img", "<img src=x onerror=alert('entity')>"), ("script", "<script>alert('label')</script>"),
                         ("svg", "(\"><svg onload=alert('alias')>)"), ("alert", "<img src=x onerror=alert('entity')>")):
        tab.page.fill("#kg-search", typed)
        tab.page.wait_for_selector(f"#kg-search-results[data-for={typed}] li a", timeout=WAIT)
        assert any(shown in text for text in tab.page.locator("#kg-search-results a").all_text_contents()), typed
        assert tab.page.locator("#kg-search-results img, #kg-search-results svg, #kg-search-results script").count() == 0
    for path in ("/paper/bad0bad0bad0bad0", "/method/evil"):
        tab.goto(path)
        tab.page.wait_for_load_state("load")
    tab.goto("/paper/bad0bad0bad0bad0")
    assert tab.page.text_content("#kg-label") == "<script>alert('label')</script>"
    assert "<img src=x onerror=alert('abstract')>" in tab.page.text_content("#kg-abstract")
    assert tab.page.locator("#kg-abstract a.kg-mention").all_text_contents() == ["<img src=x onerror=alert('abstract')>"]
    assert tab.page.locator("img, svg").count() == 0
    tab.goto("/method/evil")
    assert tab.page.text_content("#kg-label") == "<img src=x onerror=alert('entity')>"
    assert "\"><svg onload=alert('alias')>" in tab.page.text_content(".kg-aliases")
    tab.page.wait_for_timeout(300)
    assert tab.dialogs == []
    assert tab.errors == []
    assert tab.foreign_requests() == []
