"""Fixtures shared by the test modules: the spaCy pipeline (loaded once per session), the small-corpus
build, and a headless Chromium for the browser tests."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Iterator

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
