"""Fixtures shared by the test modules: the spaCy pipeline (loaded once per session), the small-corpus
build, a module's graph file as RDF and as a typed NetworkX graph, and a headless Chromium with pages that
record what went wrong, for the browser tests."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def nlp():
    """paperkg's spaCy pipeline, loaded once per session.

    ``kg.extract.load_nlp`` is an lru_cache keyed by its arguments as written, and the build path calls
    ``load_nlp(model)`` with ``model=None``: calling it the same way here makes builds in tests reuse
    this pipeline instead of loading a second copy.
    """
    from kg.extract import load_nlp

    return load_nlp(None)


@pytest.fixture(scope="session")
def corpus_build(nlp, tmp_path_factory):
    """``(summary, output dir)`` of one build of ``tests/data/corpus_small`` (views off)."""
    from regenerate_golden import build_corpus

    out = tmp_path_factory.mktemp("corpus_small_build")
    return build_corpus(out), out


@pytest.fixture(scope="session")
def corpus_graph(corpus_build):
    """The graph of the small corpus, parsed back from its kg.ttl."""
    from rdflib import Graph

    return Graph().parse(corpus_build[1] / "kg.ttl", format="turtle")


@pytest.fixture(scope="module")
def rdf(request: pytest.FixtureRequest):
    """The graph in the test module's ``GRAPH`` file, loaded once per module."""
    from kg.store.load import load_graph

    return load_graph(request.module.GRAPH)


@pytest.fixture(scope="module")
def big():
    """A synthetic graph of a few thousand nodes in communities (the community map's input)."""
    from synthetic_map import synthetic_graph

    return synthetic_graph()


@pytest.fixture(scope="module")
def g(rdf):
    """The typed NetworkX graph of the module's ``rdf``."""
    from kg.analysis.convert import typed_graph

    return typed_graph(rdf)


#: Debian's Chromium (installed by dev.py), driven by Playwright in the browser tests
CHROMIUM = os.environ.get("KG_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def _unavailable(reason: str) -> None:
    """Skip a browser test locally; fail it under CI=true, where it must run."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"browser tests cannot run under CI: {reason} (dev.py installs chromium and playwright)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """A headless Chromium, one per test module."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e .[test])")
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        _unavailable(f"{CHROMIUM} not found (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@dataclass
class RecordedPage:
    """A browser page and what it reported: console errors and uncaught exceptions, dialogs (dismissed)
    and the URLs it requested."""

    page: Any
    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("request", lambda r: self.requests.append(r.url))


@pytest.fixture(scope="module")
def open_page(browser: Any) -> Callable[..., RecordedPage]:
    """Open a new page of the module's browser (``viewport`` width and height) that records its errors."""
    return lambda width, height: RecordedPage(browser.new_page(viewport={"width": width, "height": height}))
