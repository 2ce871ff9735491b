"""Rebuild ``tests/data/corpus_small/expected.ttl``, the golden graph of the small test corpus.

Run it after changing extraction, resolution or RDF rules on purpose, then review the diff::

    .venv/bin/python tests/regenerate_golden.py
    git diff --stat tests/data/corpus_small/expected.ttl

``tests/test_build.py::test_golden_graph_is_isomorphic`` compares a fresh build with this file and
prints the triples only in one of them when they differ.
The build runs from the repository root so that source files are recorded as
``tests/data/corpus_small/<file>``, exactly as in the test.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: the corpus, relative to the repository root (the build records source files by this path)
CORPUS = "tests/data/corpus_small"
EXPECTED = REPO / CORPUS / "expected.ttl"


@contextlib.contextmanager
def in_repo() -> Iterator[Path]:
    """Run the enclosed block with the repository root as the current directory."""
    old = os.getcwd()
    os.chdir(REPO)
    try:
        yield REPO
    finally:
        os.chdir(old)


def build_corpus(output_dir: str | Path, inputs: list[str] | None = None):
    """Build the small corpus (or ``inputs``, relative to the repository root) into ``output_dir``, in process."""
    from kg.build.pipeline import build

    output_dir = Path(output_dir).resolve()
    with in_repo():
        return build(inputs or [CORPUS], output_dir, workers=1, views=False)


def main() -> int:
    """Rebuild expected.ttl and print the summary of the build."""
    with tempfile.TemporaryDirectory() as tmp:
        summary = build_corpus(tmp)
        shutil.copyfile(Path(tmp) / "kg.ttl", EXPECTED)
    print(f"wrote {EXPECTED.relative_to(REPO)}: {summary.papers} papers, {summary.triples} triples")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    sys.exit(main())
