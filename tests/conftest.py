"""Fixtures shared by the test modules: the spaCy pipeline (loaded once per session) and the small-corpus build."""
from __future__ import annotations

import sys
from pathlib import Path

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
