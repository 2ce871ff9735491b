#!/usr/bin/env python
"""Rebuild the held-out generality set and score it against its gold annotation.

The set is ``tests/data/generality/`` (24 abstracts and a gold file; see its README). The scorer is
NOT part of the repository: pass the path of the shared ``score.py`` with ``--scorer`` (default
``../shared/eval/score.py`` next to the checkout). Nothing here is tuned on this set; it only
measures how the extraction generalises beyond the development gold.

    python bench/score_generality.py                       # build into a temporary dir, print the table
    python bench/score_generality.py --diff                # also the missed/extra items per paper
    python bench/score_generality.py --graph out/kg.ttl    # score an existing build instead
    python bench/score_generality.py --scorer /path/to/score.py --json
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "generality"


def ontology_files() -> list[str]:
    """The ontology files the scorer needs to resolve subclasses (a built graph carries its concepts)."""
    return sorted(str(p) for p in ROOT.glob("ontology/*.ttl"))


def build(output: Path) -> Path:
    """Run ``kg build`` (this checkout's code, no cache, no views) on the set; return the Turtle path."""
    cmd = [sys.executable, "-m", "kg", "build", str(DATA / "abstracts.jsonl"), "-o", str(output),
           "--no-views", "--no-cache", "-q"]
    subprocess.run(cmd, cwd=ROOT, check=True)
    return output / "kg.ttl"


def score(scorer: Path, graph: Path, extra: list[str]) -> int:
    """Run the external scorer on the gold and ``graph`` plus the ontology; return its exit code."""
    cmd = [sys.executable, str(scorer), str(DATA / "gold.json"), str(graph), *ontology_files(), *extra]
    return subprocess.run(cmd, cwd=ROOT).returncode


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scorer", type=Path, default=ROOT.parent / "shared" / "eval" / "score.py",
                    help="path of the scorer script (default: ../shared/eval/score.py beside the checkout)")
    ap.add_argument("--graph", type=Path, help="score this Turtle file instead of rebuilding")
    ap.add_argument("--output", type=Path, help="build directory to keep (default: a temporary one)")
    ap.add_argument("--diff", action="store_true", help="list missed and extra items per paper")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    a = ap.parse_args(argv)
    if not a.scorer.is_file():
        print(f"scorer not found: {a.scorer} (pass --scorer PATH to the shared score.py)", file=sys.stderr)
        return 2
    extra = [*(["--diff"] if a.diff else []), *(["--json"] if a.json else [])]
    if a.graph:
        return score(a.scorer, a.graph, extra)
    if a.output:
        return score(a.scorer, build(a.output), extra)
    with tempfile.TemporaryDirectory(prefix="kg-generality-") as tmp:
        return score(a.scorer, build(Path(tmp)), extra)


if __name__ == "__main__":
    sys.exit(main())
