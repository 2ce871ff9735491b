#!/usr/bin/env python
"""Peak memory of ``kg build`` against the size of its input: does ingest stream?

Generates JSONL inputs of the given sizes (default 0.1, 0.5 and 2 GB) in a temporary directory: the first
``--unique`` abstracts of the corpus, read again and again under new ids and titles until the file has the
size (the shape of a snapshot that holds many versions or sources of the same papers). Each is built with
``kg build`` and the peak RSS of the build's process tree (main process and workers) is reported next to
the input's size, with the time. The distinct abstracts are extracted once first, into the cache every
row reads: what grows with the input is reading, merging and writing, not extraction. The target: under
1.5 GB whatever the size.

    python bench/ingest_memory.py --corpus ../shared/data/abstracts.jsonl.gz
    python bench/ingest_memory.py --corpus ../shared/data/abstracts.jsonl.gz --sizes 0.1 --unique 500
"""
from __future__ import annotations

import argparse
import gzip
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_bench import run_build  # noqa: E402

GB = 1 << 30


def unique_records(corpus: Path, n: int) -> list[dict]:
    """The first ``n`` records of the corpus (abstract, title, year, venue)."""
    out = []
    with gzip.open(corpus, "rt", encoding="utf-8") if corpus.suffix == ".gz" else corpus.open(encoding="utf-8") as fh:
        for line in fh:
            obj = json.loads(line)
            if obj.get("abstract"):
                out.append({k: obj.get(k) for k in ("abstract", "title", "year", "venue")})
            if len(out) == n:
                break
    return out


def generate(path: Path, records: list[dict], size: float) -> int:
    """Write records cycling over ``records`` until the file holds ``size`` GB; return how many."""
    target = int(size * GB)
    written = count = 0
    with path.open("w", encoding="utf-8") as fh:
        while written < target:
            base = records[count % len(records)]
            line = json.dumps({**base, "id": f"gen-{count}", "title": f"{base.get('title') or ''} (source {count})"})
            fh.write(line + "\n")
            written += len(line) + 1
            count += 1
    return count


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--sizes", type=float, nargs="+", default=[0.1, 0.5, 2.0], help="input sizes in GB")
    ap.add_argument("--unique", type=int, default=2000, help="distinct abstracts in each input")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--views", action="store_true", help="also write graph.html and report.html")
    args = ap.parse_args()
    base = unique_records(args.corpus, args.unique)
    work = Path(tempfile.mkdtemp(prefix="kg-ingest-mem-"))
    rows = []
    try:
        cache = work / "cache"  # shared: extraction is not what this measures
        warm = work / "distinct.jsonl"
        warm.write_text("".join(json.dumps(r) + "\n" for r in base), encoding="utf-8")
        seconds, peak, _ = run_build([str(warm), "-o", str(work / "warm"), "--cache", str(cache), "-j",
                                      str(args.workers), "-q", "--no-views"])
        print(f"extracting the {len(base):,} distinct abstracts once (the cache every row reads): {seconds:.0f} s, "
              f"peak RSS {peak / GB:.2f} GB", flush=True)
        for size in args.sizes:
            src = work / f"input-{size:g}gb.jsonl"
            n = generate(src, base, size)
            out = work / f"out-{size:g}"
            flags = ["--cache", str(cache), "-j", str(args.workers), "-q"] + ([] if args.views else ["--no-views"])
            seconds, peak, _ = run_build([str(src), "-o", str(out), *flags])
            rows.append((size, src.stat().st_size / GB, n, seconds, peak / GB, (out / "kg.ttl").stat().st_size / GB))
            print(f"{size:g} GB input ({n:,} records, {len(base):,} distinct abstracts): "
                  f"{seconds:.0f} s, peak RSS {peak / GB:.2f} GB", flush=True)
            src.unlink()
            shutil.rmtree(out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("\n| input | records | build | peak RSS (tree) | kg.ttl |\n|---|---|---|---|---|")
    for size, real, n, seconds, peak, ttl in rows:
        print(f"| {real:.2f} GB | {n:,} | {seconds:.0f} s | {peak:.2f} GB | {ttl:.2f} GB |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
