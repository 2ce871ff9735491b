"""Train paperkg's proposal model on the training corpus and install it in the package.

    python -m training.train_proposals --corpus ../shared/data/abstracts.jsonl.gz
    # -> kg/models/proposals (a logistic regression over named features of a paper's entities)

Steps: read the standoff annotations and check every one against its text; run paperkg's pipeline up
to the proposal rules (one thread) over the train, dev and test abstracts; group each paper's mentions
into entities (:func:`kg.extract.relation_model.entities`); label an entity PROP when one of its written
forms, folded, is a label or alias of an annotated proposal; fit by L-BFGS with an L2 penalty (the
solver of ``training.train_relations``); choose the threshold on the dev split; print the dev and test
table (entity-level proposal P / R / F1: an annotated proposal is found when an accepted entity writes
one of its forms). The test split is read only to print its row.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, Sequence

from training.classifiers import corpus_docs, install, parser, run, set_threads
from training.corpus import ANNOTATIONS, prf

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "kg" / "models" / "proposals"
THRESHOLDS = tuple(round(0.05 * i, 2) for i in range(1, 20))
#: thresholds for what the rules proposed (None: the same as for anything else)
RULE_THRESHOLDS = (None, 0.05, 0.1, 0.2, 0.3)


def gold_proposals(entry: dict[str, Any]) -> list[set[str]]:
    """The folded forms (label and aliases) of each annotated proposal of an entry."""
    from kg.extract.relation_model import fold

    return [{fold(f) for f in [it["label"], *it.get("aliases", [])] if fold(f)}
            for it in entry["annotation"].get("proposes", [])]


def labelled(doc, mentions, proposed, name, gold: list[set[str]]):
    """(entities, feature lists, labels) of the candidate entities of ``doc``, with the rules' proposals marked."""
    from kg.extract import proposal_model as P
    from kg.extract.proposals import with_proposed
    from kg.extract.relation_model import entities

    marked = with_proposed(mentions, proposed)
    ents = entities(doc, marked + P.extra_candidates(doc, marked))
    cands = P.candidates(ents)
    sents, text = list(doc.sents), doc.text
    cues, named = P.self_cue_sentences(sents), P.named_entities(ents)
    rows = [P.entity_features(doc, e, ents, name, sents, text, cues, named) for e in cands]
    labels = [["PROP"] if any(e.forms & g for g in gold) else ["NONE"] for e in cands]
    return cands, rows, labels


def score(found: Sequence[Sequence[set[str]]], gold: Sequence[Sequence[set[str]]]) -> dict[str, float]:
    """Entity-level precision, recall and F1: a found entity (its forms) is right when it writes a form of
    an annotated proposal of its paper; each annotated proposal is found at most once."""
    tp = predicted = total = 0
    for mine, theirs in zip(found, gold):
        predicted += len(mine)
        total += len(theirs)
        left = list(theirs)
        for forms in mine:
            hit = next((g for g in left if forms & g), None)
            if hit is not None:
                left.remove(hit)
                tp += 1
    p, r, f1 = prf(tp, predicted, total)
    return {"precision": p, "recall": r, "f1": f1, "tp": tp, "predicted": predicted, "gold": total}


def train(corpus: Path, output: Path, annotations: Path = ANNOTATIONS, *, l2: float = 3.0, min_count: int = 2,
          docs=None) -> dict[str, Any]:
    """Train the proposal model and install it at ``output``; the chosen threshold and the dev/test table.

    ``docs`` (entry, doc) pairs may be given (tests, experiments); else the pipeline is run."""
    from kg.extract import proposal_model as P
    from training.train_relations import fit

    started = time.time()
    if docs is None:
        docs = corpus_docs(annotations, corpus, off=("paperkg_proposal_model", "paperkg_relation_model"))
    data = {}
    for e, d in docs:
        data[id(d)] = labelled(d, list(d._.mentions or []), list(d._.proposed or []), d._.paper_name,
                               gold_proposals(e))
    rows = [r for e, d in docs if e["split"] == "train" for r in data[id(d)][1]]
    labels = [lab for e, d in docs if e["split"] == "train" for lab in data[id(d)][2]]
    print(f"train entities: {len(rows)}, proposed {sum(lab == ['PROP'] for lab in labels)}", file=sys.stderr)
    features, W, b = fit(rows, labels, P.CLASSES, l2=l2, min_count=min_count)
    model = P.ProposalModel(features, W, b, P.CLASSES)
    scored = {}
    for e, d in docs:
        if e["split"] in ("dev", "test"):
            cands, rows_, _ = data[id(d)]
            probs = model.probabilities(rows_)[:, 1] if rows_ else []
            scored.setdefault(e["split"], []).append((gold_proposals(e), list(zip(cands, map(float, probs)))))

    def figures(split: str, threshold: float | None, rule_threshold: float | None = None) -> dict[str, float]:
        """At the thresholds, or the rules' own proposals when ``threshold`` is None."""
        v = threshold if rule_threshold is None else rule_threshold
        found = [[c.forms for c, p in ents if (c.proposed if threshold is None else model.accepts(c, p, threshold, v))]
                 for _, ents in scored.get(split, [])]
        return score(found, [g for g, _ in scored.get(split, [])])

    grid = {(t, v): figures("dev", t, v) for t in THRESHOLDS for v in RULE_THRESHOLDS if v is None or v < t}
    best, best_v = max(grid, key=lambda k: (grid[k]["f1"], grid[k]["precision"]))
    curve = {t: grid[(t, None)] for t in THRESHOLDS}
    alone = max(THRESHOLDS, key=lambda t: (curve[t]["f1"], curve[t]["precision"]))
    model.threshold, model.rule_threshold = best, best if best_v is None else best_v
    table = {"rules": {s: figures(s, None) for s in ("dev", "test")},
             f"model alone (>= {alone})": {s: figures(s, alone) for s in ("dev", "test")},
             f"model (>= {best}; the rules' proposals >= {model.rule_threshold})":
                 {s: figures(s, best, model.rule_threshold) for s in ("dev", "test")}}
    meta = {"name": "paperkg proposal model", "l2": l2, "min_count": min_count, "train_entities": len(rows),
            "description": "paperkg's proposal classifier: logistic regression over named features of a paper's "
                           "entities, trained on the train split of paperkg's training corpus; see training/README.md"}
    install(model, output, meta)
    print("\n| proposals (entities) | dev P / R / F1 | test P / R / F1 |\n|---|---|---|")
    for name, row in table.items():
        print(f"| {name} | " + " | ".join(f"{row[s]['precision']:.3f} / {row[s]['recall']:.3f} / {row[s]['f1']:.3f}"
                                          for s in ("dev", "test")) + " |")
    print("\ndev split, by threshold: " + "; ".join(
        f"{t}: {c['precision']:.2f} / {c['recall']:.2f} / {c['f1']:.3f}" for t, c in curve.items()))
    print(f"\nchosen on dev: threshold {best}, for the rules' proposals {model.rule_threshold}; model at {output} "
          f"({time.time() - started:.0f} s)")
    return {"threshold": best, "rule_threshold": model.rule_threshold, "table": table, "curve": curve}


def main(argv: list[str] | None = None) -> int:
    args = parser("python -m training.train_proposals", __doc__, OUTPUT, l2=3.0).parse_args(argv)
    return run(lambda: train(args.corpus, args.output, args.annotations, l2=args.l2, min_count=args.min_count),
               lambda report: {k: report[k] for k in ("threshold", "rule_threshold")})


if __name__ == "__main__":
    set_threads(sys.argv)
    sys.exit(main())
