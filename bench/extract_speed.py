#!/usr/bin/env python
"""Extraction speed of ``kg build`` against the bare English spaCy pipeline, one worker, in one run.

For the same N abstracts, alternating for ``--rounds`` rounds, in this process (pipelines loaded before
timing): the bare ``en_core_web_sm`` ``nlp.pipe`` (its full stock pipeline), and a cold ``kg build``
(one worker, no cache, no views) with the entity stage configured as each variant of
:data:`training.evaluate.VARIANTS` given by ``--variant`` (default: the rules alone, and what paperkg
ships). Prints each median and the ratio build ÷ bare (the target for the shipped
pipeline is <= 2.0).

    python bench/extract_speed.py --corpus ../shared/data/abstracts.jsonl.gz --n 1000 --rounds 3
"""
from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    import spacy

    from kg.build import pipeline as kg_build
    from kg.extract import model as kg_model
    from training.evaluate import SHIPPED, VARIANTS, configure

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS),
                        help="a variant of training.evaluate.VARIANTS; default: rules and shipped")
    args = parser.parse_args(argv)
    variants = args.variant or ["rules", SHIPPED]

    def use(name: str) -> None:
        configure(VARIANTS[name])

    records = []
    with gzip.open(args.corpus, "rt", encoding="utf-8") as handle:
        for line in handle:
            records.append(json.loads(line))
            if len(records) >= args.n:
                break
    texts = [r["abstract"] for r in records]
    work = Path(tempfile.mkdtemp(prefix="paperkg_speed_"))
    source = work / "input.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")

    bare_nlp = spacy.load(kg_model.find_model())
    pipelines = {}
    for name in variants:  # each variant's pipeline, loaded once, outside the timing
        use(name)
        kg_model._load_nlp.cache_clear()
        pipelines[name] = kg_model.load_nlp()

    times: dict[str, list[float]] = {"bare": [], **{name: [] for name in variants}}
    for round_ in range(args.rounds):
        started = time.perf_counter()
        for _ in bare_nlp.pipe(texts, batch_size=32):
            pass
        times["bare"].append(time.perf_counter() - started)
        for name in variants:
            use(name)  # for the cache fingerprint
            # the build loads its pipeline through _load_nlp: hand it the one loaded above
            with mock.patch.object(kg_model, "_load_nlp", lambda model, _nlp=pipelines[name]: _nlp):
                started = time.perf_counter()
                kg_build.build([source], work / f"{name}-{round_}", workers=1, views=False, cache=False)
                times[name].append(time.perf_counter() - started)
        print(f"round {round_ + 1}: " + ", ".join(f"{k} {v[-1]:.1f} s" for k, v in times.items()), flush=True)
    bare = statistics.median(times["bare"])
    print(f"\n{args.n} abstracts, one worker, {args.rounds} alternating rounds (median):")
    print(f"  bare {kg_model.find_model()} nlp.pipe: {bare:.1f} s")
    for name in variants:
        med = statistics.median(times[name])
        ratios = [t / b for t, b in zip(times[name], times["bare"])]
        print(f"  kg build, {name}: {med:.1f} s = {med / bare:.2f}x bare (pairwise {min(ratios):.2f}-{max(ratios):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
