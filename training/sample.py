"""Draw the training-corpus sample: pool ids only, stratified by venue and year.

    python -m training.sample --corpus ../shared/data/abstracts.jsonl.gz \
        --pool ../shared/data/train_pool_ids.txt --exclude-jsonl ../shared/eval/dev_corpus60.jsonl \
        --exclude-jsonl tests/data/generality/abstracts.jsonl --exclude-seeds seeds/ \
        --n 1020 --double 104 --out training/annotations/sample.tsv

A later draw leaves out the ids of earlier ones (``--skip training/annotations/sample.tsv``), as the
second draw of 2026-12-05 did (``--n 280 --double 0 --seed 18 --out training/annotations/sample_2.tsv``).

Each (venue, year) stratum gets a share proportional to the square root of its size, so the small
early years are not swamped by 2024. Records whose text equals (whitespace-insensitively) a seed
abstract or an excluded record are dropped even when their id is in the pool. The draw is fixed by
``--seed``. The output lists ``id``, ``venue``, ``year`` and ``double`` (1 when the record is one of
the independently double-annotated ones).
"""
from __future__ import annotations

import argparse
import gzip
import json
import math
import random
import re
from collections import defaultdict
from pathlib import Path


def text_key(text: str) -> str:
    """Whitespace- and case-insensitive key of an abstract, for exclusion by text."""
    return re.sub(r"\s+", " ", text).strip().lower()


def seed_texts(folder: Path) -> set[str]:
    """Keys of every abstract in the seed files (header line excluded)."""
    keys = set()
    for path in sorted(folder.glob("*.txt")):
        paragraphs = re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))
        lines = paragraphs[0].split("\n", 1)
        paragraphs[0] = lines[1] if len(lines) > 1 else ""
        keys.update(text_key(p) for p in paragraphs if p.strip())
    return keys


def allocate(sizes: dict[tuple, int], n: int) -> dict[tuple, int]:
    """Split ``n`` over strata proportionally to sqrt(size), largest remainders first."""
    weights = {k: math.sqrt(v) for k, v in sizes.items()}
    total = sum(weights.values())
    raw = {k: n * w / total for k, w in weights.items()}
    out = {k: min(sizes[k], int(r)) for k, r in raw.items()}
    for k in sorted(raw, key=lambda k: raw[k] - int(raw[k]), reverse=True):
        if sum(out.values()) >= n:
            break
        if out[k] < sizes[k]:
            out[k] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", required=True, type=Path)
    ap.add_argument("--pool", required=True, type=Path)
    ap.add_argument("--exclude-jsonl", action="append", default=[], type=Path)
    ap.add_argument("--exclude-seeds", type=Path)
    ap.add_argument("--n", type=int, default=1020)
    ap.add_argument("--double", type=int, default=104)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--skip", action="append", default=[], type=Path,
                    help="a sample TSV of an earlier draw: its ids are not drawn again")
    ap.add_argument("--out", required=True, type=Path)
    args = ap.parse_args(argv)

    pool = set(args.pool.read_text().split())
    banned_ids: set[str] = set()
    for path in args.skip:
        banned_ids.update(line.split("\t", 1)[0] for line in path.read_text(encoding="utf-8").splitlines()[1:] if line)
    banned_texts = seed_texts(args.exclude_seeds) if args.exclude_seeds else set()
    for path in args.exclude_jsonl:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                banned_ids.add(str(rec.get("id")))
                banned_texts.add(text_key(rec.get("abstract", "")))
    strata: dict[tuple, list[str]] = defaultdict(list)
    with gzip.open(args.corpus, "rt", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if rec["id"] not in pool or rec["id"] in banned_ids:
                continue
            if text_key(rec["abstract"]) in banned_texts or len(rec["abstract"].split()) < 40:
                continue
            strata[(rec["venue"], int(rec["year"]))].append(rec["id"])
    rng = random.Random(args.seed)
    quota = allocate({k: len(v) for k, v in strata.items()}, args.n)
    chosen: list[tuple[str, str, int]] = []
    for key in sorted(strata):
        ids = sorted(strata[key])
        for rid in rng.sample(ids, quota[key]):
            chosen.append((rid, key[0], key[1]))
    double = set(rng.sample(sorted(c[0] for c in chosen), args.double))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as fh:
        fh.write("id\tvenue\tyear\tdouble\n")
        for rid, venue, year in sorted(chosen):
            fh.write(f"{rid}\t{venue}\t{year}\t{int(rid in double)}\n")
    print(f"{len(chosen)} records in {len(quota)} strata, {len(double)} double -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
