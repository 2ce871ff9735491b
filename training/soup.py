"""Average the weights of entity taggers fine-tuned from the same encoder (a "model soup") and export
the average as a tagger directory, for measuring against the shipped one.

    python -m training.soup --output /tmp/soup TAGGER_DIR[=WEIGHT] TAGGER_DIR[=WEIGHT] ...

Each TAGGER_DIR holds a torch checkpoint (``config.json``, ``model.safetensors``) as ``python -m
training.train`` writes it to ``--keep``; ``tokenizer.json`` comes from the pretrained encoder (``--tokenizer``
to name another directory). Needs the ``train`` extra. The average runs as fast as one tagger; point
``kg/models/entity_tagger`` (or the tagger's ``model_path``) at the output to score it.
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any


def parse_member(text: str) -> tuple[Path, float]:
    """``DIR`` or ``DIR=WEIGHT`` (the last "=" parts them) -> (directory, weight, finite and positive)."""
    where, sep, weight = text.rpartition("=")
    try:
        value = float(weight) if sep else 1.0
    except ValueError:
        where, value = text, 1.0  # no weight: the "=" belongs to the path
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text}: a weight must be a finite positive number")
    return Path(where if sep else text), value


def average(members: list[tuple[Path, float]]) -> Any:  # a transformers BertForTokenClassification
    """A token classifier whose floating-point weights are the weighted mean of the members'."""
    from safetensors.torch import load_file
    from transformers import BertConfig, BertForTokenClassification

    states = [(load_file(str(d / "model.safetensors")), w) for d, w in members]
    total = sum(w for _, w in states)
    first = states[0][0]
    if any(set(s) != set(first) for s, _ in states):
        raise SystemExit("the taggers' weights differ in their names: were they trained from the same encoder?")
    mean = {k: (sum(w * s[k].float() for s, w in states) / total if first[k].is_floating_point() else first[k])
            for k in first}
    model = BertForTokenClassification(BertConfig.from_pretrained(str(members[0][0])))
    model.load_state_dict(mean)
    return model.eval()


def main(argv: list[str] | None = None) -> int:
    """The command line: average the members, export the mean to ``--output``."""
    parser = argparse.ArgumentParser(prog="python -m training.soup", description=__doc__.split("\n\n")[0])
    parser.add_argument("members", nargs="+", type=parse_member, metavar="TAGGER_DIR[=WEIGHT]")
    parser.add_argument("--output", type=Path, required=True)
    parser.add_argument("--tokenizer", type=Path, help="directory of tokenizer.json (default: the pretrained encoder's)")
    args = parser.parse_args(argv)
    from kg.extract.tagger import LABELS, TAGS
    from training.train import OVERLAP, WINDOW, export, find_base

    meta = {"labels": list(LABELS), "tags": list(TAGS), "window": WINDOW, "overlap": OVERLAP,
            "soup": [[str(d), w] for d, w in args.members]}
    export(average(args.members), None, args.tokenizer or find_base(), args.output, meta)
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
