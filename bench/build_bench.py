#!/usr/bin/env python
"""Benchmark ``kg build`` against the bare spaCy pipeline, measured in the same run.

Figures (targets from the scale issue):

- overhead: cold ``kg build`` wall time / bare ``nlp.pipe`` of the same pipeline over the same texts
  with the same worker count (<= 1.3);
- peak RSS of the build, the main process and its workers together, sampled from /proc (<= 2.5 GB);
- incremental: ``kg build --append`` of a file of 300 new abstracts (the rest cached) / the cold build
  (<= 5%); the extraction code must not change during the run (the cache fingerprint covers it: every
  build would re-extract);
- scaling: cold build with 1 worker / with 2 workers (>= 1.7);
- throughput: abstracts per second per core, next to the bare spaCy figure.

    python bench/build_bench.py --corpus ../shared/data/abstracts.jsonl.gz --limit 3000
    python bench/build_bench.py --corpus ../shared/data/abstracts.jsonl.gz            # the full corpus (long)
    python bench/build_bench.py --corpus ../shared/data/abstracts.jsonl.gz --skip bare --skip scaling  # incremental only
"""
from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing as mp
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def read_corpus(path: Path, limit: int | None) -> list[str]:
    """The JSONL lines of ``path`` (gzip or not), the first ``limit`` of them."""
    opener = gzip.open if path.read_bytes()[:2] == b"\x1f\x8b" else open
    lines = []
    with opener(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                lines.append(line if line.endswith("\n") else line + "\n")
            if limit and len(lines) >= limit:
                break
    return lines


def _bare_worker(texts: list[str]) -> int:
    from kg.extract import load_nlp

    nlp = load_nlp()
    return sum(1 for _ in nlp.pipe(texts, batch_size=32))


def bare_pipe(texts: list[str], workers: int) -> float:
    """Seconds for the bare ``nlp.pipe`` (same pipeline, no extraction, RDF or writing) on ``workers`` processes,
    model loading included as in the build."""
    started = time.perf_counter()
    if workers == 1:
        _bare_worker(texts)
    else:
        size = max(8, min(64, len(texts) // (workers * 8) or 1))
        parts = [texts[i : i + size] for i in range(0, len(texts), size)]
        with ProcessPoolExecutor(workers, mp_context=mp.get_context("spawn")) as pool:
            sum(pool.map(_bare_worker, parts))
    return time.perf_counter() - started


def _tree_rss(pid: int) -> int:
    """Resident bytes of process ``pid`` and its descendants."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo += [int(c) for c in fh.read().split()]
        except (OSError, ValueError):
            continue
    return total


def run_build(args: list[str]) -> tuple[float, int, str]:
    """Run ``kg build ARGS``; return wall seconds, peak RSS of its process tree, and its output."""
    cmd = [sys.executable, "-c", "from kg.cli import main; main()", "build", *args]
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(proc.pid))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, _ = proc.communicate()
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    if proc.returncode != 0:
        raise SystemExit(f"kg build {' '.join(args)} failed:\n{out}")
    for line in out.splitlines():
        if line.startswith("extracted "):  # shows whether the cache served what it should
            print(f"  ({line})")
    return seconds, peak, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, required=True, help="JSONL(.gz) of abstracts")
    parser.add_argument("--limit", type=int, default=None, help="use the first N abstracts (default: all)")
    parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--new", type=int, default=300, help="abstracts added in the incremental rebuild")
    parser.add_argument("--scaling-limit", type=int, default=2000, help="abstracts of the 1 vs N workers runs")
    parser.add_argument("--keep", type=Path, default=None, help="keep the outputs in this directory")
    parser.add_argument("--skip", action="append", default=[], choices=["bare", "scaling"],
                        help="leave out the bare spaCy run (no overhead figure) or the 1 vs N workers runs")
    args = parser.parse_args()

    lines = read_corpus(args.corpus, args.limit)
    texts = [json.loads(line)["abstract"] for line in lines]
    w = args.workers
    tmp = Path(args.keep or tempfile.mkdtemp(prefix="kg-build-bench-"))
    tmp.mkdir(parents=True, exist_ok=True)
    base_file, new_file, small_file = tmp / "base.jsonl", tmp / "new.jsonl", tmp / "small.jsonl"
    base_file.write_text("".join(lines[: len(lines) - args.new]), encoding="utf-8")
    new_file.write_text("".join(lines[len(lines) - args.new :]), encoding="utf-8")
    small_file.write_text("".join(lines[: args.scaling_limit]), encoding="utf-8")
    base_texts = texts[: len(texts) - args.new]
    print(f"corpus: {len(lines)} abstracts ({args.corpus}), {w} workers, outputs in {tmp}")

    t_bare = None if "bare" in args.skip else bare_pipe(base_texts, w)
    if t_bare is not None:
        print(f"bare nlp.pipe, {len(base_texts)} abstracts, {w} workers: {t_bare:.1f} s")
    cache = tmp / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    t_full, rss, _ = run_build([str(base_file), "-o", str(tmp / "out"), "--no-views", "-j", str(w),
                                "--cache", str(cache)])
    print(f"kg build (cold cache), {len(base_texts)} abstracts: {t_full:.1f} s, peak RSS {rss / 2**30:.2f} GB")
    # the new abstracts arrive as a new file added to the build (their sources differ from the base's)
    t_inc, _, _ = run_build(["--append", str(new_file), "-o", str(tmp / "out"), "--no-views", "-j", str(w),
                             "--cache", str(cache)])
    print(f"kg build +{args.new} new abstracts (rest cached): {t_inc:.1f} s")

    n_small = min(args.scaling_limit, len(lines))
    t1 = tn = None
    if "scaling" not in args.skip:
        t1, _, _ = run_build([str(small_file), "-o", str(tmp / "s1"), "--no-views", "-q", "-j", "1", "--no-cache"])
        tn, _, _ = run_build([str(small_file), "-o", str(tmp / "sn"), "--no-views", "-q", "-j", str(w), "--no-cache"])
        print(f"kg build {n_small} abstracts: 1 worker {t1:.1f} s, {w} workers {tn:.1f} s")

    print()
    print(f"{'figure':<34} {'value':>10}  target")
    if t_bare is not None:
        print(f"{'extraction overhead (build/bare)':<34} {t_full / t_bare:>10.2f}  <= 1.3")
    print(f"{'peak RSS (GB)':<34} {rss / 2**30:>10.2f}  <= 2.5 (full 30k corpus)")
    print(f"{'incremental (+%d) / full' % args.new:<34} {t_inc / t_full:>10.1%}  <= 5%")
    if t1 is not None:
        print(f"{'speed-up 1 -> %d workers' % w:<34} {t1 / tn:>10.2f}  >= 1.7")
    print(f"{'throughput kg build (abs/s/core)':<34} {len(base_texts) / t_full / w:>10.1f}")
    if t_bare is not None:
        print(f"{'throughput bare spaCy (abs/s/core)':<34} {len(base_texts) / t_bare / w:>10.1f}")
    print()
    print("command: python " + " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]]))
    if args.keep is None:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
