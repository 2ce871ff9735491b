"""Train paperkg's modality model on the training corpus and install it in the package.

    python -m training.train_modalities --corpus ../shared/data/abstracts.jsonl.gz [--threads 1]
    # -> kg/models/modalities

Runs the pipeline (up to the entity stage, the modality model switched off) over the annotated abstracts,
groups each paper's modality mentions by the concept they are reported as, labels a group YES when the
annotation lists that concept's label among the paper's modalities, fits the logistic regression on the
train split (:func:`training.train_relations.fit`), chooses the threshold by paper-level modality F1 on
the dev split and prints the dev and test figures (the test split is only reported). Deterministic: no
random step.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from training.classifiers import corpus_docs, install, parser, run, set_threads
from training.corpus import ANNOTATIONS, prf

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "kg" / "models" / "modalities"
THRESHOLDS = tuple(round(0.05 * i, 2) for i in range(1, 19))


def labelled(doc, labels: dict[str, str], gold: set[str]) -> tuple[list[str], list[list[str]], list[list[str]]]:
    """The doc's modality concepts, their feature rows and their classes (YES when ``gold``, the paper's
    annotated modality terms folded to lower case, holds the concept's label)."""
    from kg.extract.modality_model import group_features, modality_groups

    mentions = list(doc._.mentions or [])
    groups = modality_groups(mentions)
    keys = sorted(groups)
    rows = [group_features(doc, groups[k], mentions) for k in keys]
    return keys, rows, [["YES" if labels.get(k, "").lower() in gold else "NO"] for k in keys]


def train(corpus: Path | None, output: Path, annotations: Path = ANNOTATIONS, *, l2: float = 3.0,
          min_count: int = 2, docs=None) -> dict[str, Any]:
    """Train the modality model and install it at ``output``; the chosen threshold and the dev/test figures.

    ``docs`` (entry, doc) pairs may be given (tests, experiments); else the pipeline is run."""
    from kg.extract.modality_model import CLASSES, ModalityModel
    from kg.extract.vocab import load_vocabulary
    from training.train_relations import fit

    started = time.time()
    if docs is None:
        docs = corpus_docs(annotations, corpus,
                           off=("paperkg_modality_model", "paperkg_proposal_model", "paperkg_relation_model"))
    labels = {iri: c.label for iri, c in load_vocabulary().concepts.items()}
    data = []
    for e, d in docs:
        gold = {m.lower() for m in e["annotation"].get("modalities", [])}
        data.append((e["split"], gold, *labelled(d, labels, gold)))
    rows = [r for split, _, _, rs, _ in data if split == "train" for r in rs]
    ys = [y for split, _, _, _, cls in data if split == "train" for y in cls]
    features, W, b = fit(rows, ys, CLASSES, l2=l2, min_count=min_count)
    model = ModalityModel(features, W, b, CLASSES)

    def figures(split: str, threshold: float | None) -> dict[str, float]:
        tp = found = gold_n = 0
        for s, gold, keys, rs, _ in data:
            if s != split:
                continue
            probs = model.probabilities(rs)[:, CLASSES.index("YES")] if rs else []
            got = {labels.get(k, "").lower() for k, p in zip(keys, probs) if threshold is None or p >= threshold}
            tp, found, gold_n = tp + len(got & gold), found + len(got), gold_n + len(gold)
        p, r, f = prf(tp, found, gold_n)
        return {"precision": round(p, 3), "recall": round(r, 3), "f1": round(f, 3)}

    curve = {t: figures("dev", t) for t in THRESHOLDS}
    model.threshold = max(THRESHOLDS, key=lambda t: (curve[t]["f1"], curve[t]["precision"]))
    table = {"rules": {s: figures(s, None) for s in ("dev", "test")},
             f"model (>= {model.threshold})": {s: figures(s, model.threshold) for s in ("dev", "test")}}
    meta = {"name": "paperkg modality model", "l2": l2, "min_count": min_count, "train_groups": len(rows),
            "description": "paperkg's modality classifier: logistic regression over named features of a paper's "
                           "modality mentions grouped by concept, trained on the train split of paperkg's "
                           "training corpus; see training/README.md"}
    install(model, output, meta)
    print("\n| modalities (paper, term) | dev P / R / F1 | test P / R / F1 |\n|---|---|---|")
    for name, row in table.items():
        print(f"| {name} | " + " | ".join(f"{row[s]['precision']:.3f} / {row[s]['recall']:.3f} / {row[s]['f1']:.3f}"
                                          for s in ("dev", "test")) + " |")
    print("\ndev split, by threshold: " + "; ".join(
        f"{t}: {c['precision']:.2f} / {c['recall']:.2f} / {c['f1']:.3f}" for t, c in curve.items()))
    print(f"\nchosen on dev: threshold {model.threshold}; {len(rows)} train groups; model at {output} "
          f"({time.time() - started:.0f} s)")
    return {"threshold": model.threshold, "table": table, "curve": curve}


def main(argv: list[str] | None = None) -> int:
    args = parser("python -m training.train_modalities", __doc__, OUTPUT, l2=3.0).parse_args(argv)
    return run(lambda: train(args.corpus, args.output, args.annotations, l2=args.l2, min_count=args.min_count),
               lambda report: {"threshold": report["threshold"]})


if __name__ == "__main__":
    set_threads(sys.argv)
    sys.exit(main())
