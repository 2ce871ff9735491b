"""Train paperkg's relation model on the training corpus and install it in the package.

    python -m training.train_relations --corpus ../shared/data/abstracts.jsonl.gz
    # -> kg/models/relations (a multinomial logistic regression over named features, seed 0)

Steps: read the standoff annotations and check every one against its text; run paperkg's pipeline (the
entity stages and the relation rules, one thread) over the train, dev and test abstracts; make the
candidate pairs of :mod:`kg.extract.relation_model` from the pipeline's own mentions (``--candidates
pipeline``, what ships: train and test candidates then look alike), from the annotated spans (``gold``)
or both; label each pair with the annotated relation facts (a fact names a pair when its subject's and
object's labels are among the pair's written forms, folded as ``training.evaluate`` folds them), NONE
otherwise; fit the weights by L-BFGS with an L2 penalty; judge each relation rule's precision on the
train and dev splits together (the rules are not fitted, and on dev alone some write a handful of facts);
choose the threshold and whether to keep every rule, the precise ones or none on the dev split; print the
dev and test table (facts P / R / F1, matched as ``training.evaluate`` matches them, before the graph: the
figures to report come from ``training.evaluate``). The test split is read only to print its row.
"""
from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Sequence

from training.classifiers import corpus_docs, install, parser, run, set_threads
from training.corpus import ANNOTATIONS, prf

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "kg" / "models" / "relations"
THRESHOLDS = tuple(round(0.025 * i, 3) for i in range(1, 37))


def gold_mentions(entry: dict[str, Any]) -> list:
    """The annotated spans as mentions (rule ``gold``), each form of an item joined to its label."""
    from kg.extract.types import Mention
    from training.schema import ENTITY_LISTS

    ann = entry["annotation"]
    label_of: dict[tuple[str, str], str] = {}
    types = {"methods": "Method", "datasets": "Dataset", "tasks": "Task", "metrics": "Metric"}
    items = [(it.get("type", "Method"), it) for it in ann.get("proposes", [])]
    items += [(types[k], it) for k in ENTITY_LISTS for it in ann.get(k, [])]
    for kind, it in items:
        for form in [it["label"], *it.get("aliases", [])]:
            label_of.setdefault((kind, form), it["label"])
    out = []
    for start, end, kind, text, proposed in entry["spans"]:
        label = label_of.get((kind, text), text)
        out.append(Mention(start, end, kind, text, "gold", long_form=label if label != text else None,
                           proposed=proposed))
    return out


def facts(entry: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The annotated relation facts of an entry, folded."""
    from kg.extract.relation_model import fold

    return [(fold(s), r, fold(o)) for s, r, o in entry["annotation"].get("relations", [])]


def examples(doc, mentions, name, gold: list[tuple[str, str, str]], window: int = 1):
    """(feature lists, class lists) of every candidate pair of ``doc``; a pair no fact names is NONE."""
    from kg.extract import relation_model as R

    ents = R.entities(doc, mentions)
    own = R.main_artifact(ents, name)
    rows, labels = [], []
    for s, o in R.candidate_pairs(ents, window):
        found = sorted({r for fs, r, fo in gold if fs in s.forms and fo in o.forms and o.type in R.OBJECT_TYPES[r]})
        rows.append(R.pair_features(doc, s, o, own, ents))
        labels.append(found or ["NONE"])
    return rows, labels


def fit(rows: list[list[str]], labels: list[list[str]], classes: Sequence[str], l2: float = 1.0,
        min_count: int = 2, max_iter: int = 400):
    """The multinomial logistic regression on ``rows``: (features, weights, bias). Features seen in fewer
    than ``min_count`` rows are left out; a row with two relations counts once for each."""
    import numpy
    from scipy import optimize, sparse

    counts = Counter(f for row in rows for f in set(row))
    features = sorted(f for f, c in counts.items() if c >= min_count)
    index = {f: i for i, f in enumerate(features)}
    data, cols, ptr, y = [], [], [0], []
    cidx = {c: j for j, c in enumerate(classes)}
    for row, labs in zip(rows, labels):
        mine = sorted({index[f] for f in row if f in index})
        for lab in labs:
            cols += mine
            data += [1.0] * len(mine)
            ptr.append(len(cols))
            y.append(cidx[lab])
    X = sparse.csr_matrix((numpy.array(data), numpy.array(cols, dtype=numpy.int64), numpy.array(ptr)),
                          shape=(len(y), len(features)))
    Y = numpy.zeros((len(y), len(classes)))
    Y[numpy.arange(len(y)), y] = 1.0
    n, k, d = len(y), len(classes), len(features)

    def loss(theta):
        W, b = theta[: d * k].reshape(d, k), theta[d * k:]
        z = X @ W + b
        z -= z.max(axis=1, keepdims=True)
        logp = z - numpy.log(numpy.exp(z).sum(axis=1, keepdims=True))
        p = numpy.exp(logp)
        value = -(Y * logp).sum() / n + 0.5 * l2 * (W * W).sum() / n
        grad_z = (p - Y) / n
        gW = X.T @ grad_z + l2 * W / n
        return value, numpy.concatenate([numpy.asarray(gW).ravel(), grad_z.sum(axis=0)])

    theta0 = numpy.zeros(d * k + k)
    done = optimize.minimize(loss, theta0, jac=True, method="L-BFGS-B", options={"maxiter": max_iter})
    W, b = done.x[: d * k].reshape(d, k), done.x[d * k:]
    return features, W, b


def score_facts(predicted: list[list[tuple[set[str], str, set[str]]]], gold: list[list[tuple[str, str, str]]]):
    """Fact-level precision, recall and F1, one-to-one, as ``training.evaluate`` matches graph assertions."""
    tp = pred_n = gold_n = 0
    for pred, facts_ in zip(predicted, gold):
        pred = list(pred)
        pred_n += len(pred)
        for s, r, o in facts_:
            gold_n += 1
            hit = next((x for x in pred if x[1] == r and s in x[0] and o in x[2]), None)
            if hit is not None:
                pred.remove(hit)
                tp += 1
    p, r, f1 = prf(tp, pred_n, gold_n)
    return {"precision": p, "recall": r, "f1": f1,
            "tp": tp, "predicted": pred_n, "gold": gold_n}


def as_facts(doc, mentions, relations) -> list[tuple[set[str], str, set[str]]]:
    """Relations as (subject forms, predicate, object forms), the forms of the entity of each side (as the
    graph's labels and aliases would be); relations the graph would not write left out."""
    from kg.extract import relation_model as R

    ents = R.entities(doc, mentions)
    by_span = {(m.start, m.end, m.type): e for e in ents for m in e.mentions}
    by_form = {}
    for e in ents:
        for f in e.forms:
            by_form.setdefault((e.type, f), e)
    out = []
    for r in relations:
        if r.object_type not in R.OBJECT_TYPES.get(r.predicate, ()):
            continue
        sides = []
        for span, kind, text in ((r.subject_span, r.subject_type, r.subject), (r.object_span, r.object_type, r.object)):
            e = by_span.get((*span, kind)) if span else None
            e = e or by_form.get((kind, R.fold(text)))
            sides.append(e.forms if e else {R.fold(text)})
        if sides[0] == sides[1]:
            continue
        out.append((sides[0], r.predicate, sides[1]))
    return out


def main(argv: list[str] | None = None) -> int:
    options = parser("python -m training.train_relations", __doc__, OUTPUT, l2=10.0)
    options.add_argument("--candidates", choices=["pipeline", "gold", "both"], default="both",
                         help="whose mentions make the training pairs")
    options.add_argument("--window", type=int, default=1, help="sentences apart a non-proposed subject may be")
    args = options.parse_args(argv)
    return run(lambda: train(args.corpus, args.output, args.annotations, candidates=args.candidates,
                             window=args.window, l2=args.l2, min_count=args.min_count),
               lambda report: report["chosen"], indent=1)


def _rule_names(docs) -> list[str]:
    return sorted({r.rule for _, d, _ in docs for r in (d._.relations or [])})


def train(corpus: Path, output: Path, annotations: Path = ANNOTATIONS, *, candidates: str = "both",
          window: int = 1, l2: float = 10.0, min_count: int = 2, docs=None) -> dict[str, Any]:
    """Train the relation model and install it at ``output``; the dev choices and the dev/test table.

    ``docs`` (entry, doc, mentions) triples may be given (tests, experiments); else the pipeline is run."""
    from kg.extract import relation_model as R
    from kg.extract.proposals import with_proposed

    started = time.time()
    if docs is None:
        docs = [(e, d, with_proposed(list(d._.mentions or []), list(d._.proposed or [])))
                for e, d in corpus_docs(annotations, corpus, off=("paperkg_relation_model",))]
    rows, labels = [], []
    for e, d, mentions in docs:
        if e["split"] != "train":
            continue
        sources = {"pipeline": [mentions], "gold": [gold_mentions(e)], "both": [mentions, gold_mentions(e)]}[candidates]
        for ms in sources:
            r, lab = examples(d, ms, d._.paper_name, facts(e), window)
            rows += r
            labels += lab
    counts = Counter(x for lab in labels for x in lab)
    print(f"train pairs: {len(rows)}; " + ", ".join(f"{c} {counts[c]}" for c in R.CLASSES), file=sys.stderr)
    features, W, b = fit(rows, labels, R.CLASSES, l2=l2, min_count=min_count)
    model = R.RelationModel(features, W, b, R.CLASSES, window)
    print(f"fitted {len(features)} features x {len(R.CLASSES)} classes ({time.time() - started:.0f} s)",
          file=sys.stderr)

    # every candidate of dev and test scored once; thresholds and rule sets applied afterwards (the train
    # split's papers only for the rules, which were not fitted on it)
    scored: dict[str, list] = {"dev": [], "test": [], "train": []}
    for e, d, mentions in docs:
        found = [] if e["split"] == "train" else R.model_relations(d, mentions, d._.paper_name, model, 0.0)
        scored[e["split"]].append((e, d, mentions, found))
    rules = _rule_names(docs)

    def figures(split: str, threshold: float | None, keep: frozenset[str] | None):
        assert threshold is None or "train" not in split, "the model scored no train-split candidate"
        pred, gold = [], []
        for e, d, mentions, found in [x for part in split.split("+") for x in scored[part]]:
            mine = [r for r in found if threshold is not None and r.confidence >= threshold]
            rels = R.combine(d._.relations or [], mine, keep, mentions)
            pred.append(as_facts(d, mentions, rels))
            gold.append(facts(e))
        return score_facts(pred, gold)

    # a rule's precision from the train and dev splits together: on dev alone some rules write 2 to 8 facts
    per_rule = {rule: figures("train+dev", None, frozenset({rule})) for rule in rules}
    precise = frozenset(r for r, f in per_rule.items() if f["predicted"] and f["precision"] >= 0.5)
    options = {"model alone": frozenset(), "model + every rule": None, "model + precise rules": precise}
    grid = {(name, t): figures("dev", t, keep) for name, keep in options.items() for t in THRESHOLDS}
    (best_name, best_t), best = max(grid.items(), key=lambda kv: (kv[1]["f1"], kv[1]["precision"]))
    table = {"rules alone": {s: figures(s, None, None) for s in ("dev", "test")}}
    for name, keep in options.items():
        t = max(THRESHOLDS, key=lambda t: (grid[(name, t)]["f1"], grid[(name, t)]["precision"]))
        table[f"{name} (>= {t})"] = {s: figures(s, t, keep) for s in ("dev", "test")}
    chosen = {"combination": best_name, "threshold": best_t, "keep_rules": None if options[best_name] is None
              else sorted(options[best_name]), "dev": best, "per_rule_train_dev": per_rule}
    meta = {"name": "paperkg relation model", "candidates": candidates, "l2": l2, "min_count": min_count,
            "train_pairs": len(rows),
            "description": "paperkg's relation extractor: multinomial logistic regression over named features of "
                           "entity pairs, trained on the train split of paperkg's training corpus; see "
                           "training/README.md"}
    model.threshold, model.keep_rules = best_t, chosen["keep_rules"]
    install(model, output, meta)
    print("\n| relation facts | dev P / R / F1 | test P / R / F1 |\n|---|---|---|")
    for name, row in table.items():
        print(f"| {name} | " + " | ".join(f"{row[s]['precision']:.3f} / {row[s]['recall']:.3f} / {row[s]['f1']:.3f}"
                                          for s in ("dev", "test")) + " |")
    curve = {t: grid[(best_name, t)] for t in THRESHOLDS}
    print(f"\n{best_name}, dev split, by threshold: " + "; ".join(
        f"{t}: {c['precision']:.2f} / {c['recall']:.2f}" for t, c in curve.items() if round(t * 40) % 4 == 0 or t == best_t))
    print(f"\nchosen on dev: {best_name}, threshold {best_t}; model at {output} ({time.time() - started:.0f} s)")
    return {"chosen": chosen, "table": table, "curve": curve}


if __name__ == "__main__":
    set_threads(sys.argv)
    sys.exit(main())
