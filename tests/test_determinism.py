"""The same inputs give byte-identical kg.ttl in separate processes, whatever their hash seeds.

(In one process set and dict orders repeat; across processes string hashing is randomised, so a
choice that depends on iteration order shows up only here.)
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).parent / "data" / "corpus_small"


def _build(out: Path, seed: str) -> bytes:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    subprocess.run([sys.executable, "-m", "kg", "build", str(CORPUS), "--output", str(out), "--no-views",
                    "--no-cache", "--quiet", "--workers", "1"], check=True, env=env, timeout=600)
    return (out / "kg.ttl").read_bytes()


def test_builds_in_processes_with_different_hash_seeds_are_identical(tmp_path):
    first = _build(tmp_path / "a", "1")
    second = _build(tmp_path / "b", "2024")
    assert first == second
