"""Evaluate paperkg's SciERC NER: span-level and doc-level scores on SciERC dev, and speed.

    python training/scierc/evaluate.py --scierc /path/to/scierc [--model kg/models/scierc_ner]
        [--abstracts abstracts.jsonl.gz --n 200] [--rules] [--json out.json]

- span level: spaCy's NER scorer (exact span and label) per label;
- doc level: for each abstract, the set of normalised entity strings (lower-case, whitespace
  collapsed) per label, predicted vs gold, micro-averaged over the abstracts;
- ``--rules``: the same doc-level figures for paperkg's rule-based mentions (Dataset counted as Material);
- ``--abstracts``: docs/s of the ``paperkg_scierc_ner`` component on the first ``--n`` abstracts
  (texts tokenized beforehand; tokenization time excluded) and of the NER pipeline on raw text.
"""
from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(HERE), str(ROOT)]

from prepare import DEFAULT_LABELS, doc_text_and_spans, read_jsonl, to_doc  # noqa: E402

RULE_TYPES = {"Method": "Method", "Task": "Task", "Metric": "Metric", "Dataset": "Material"}


def norm(text: str) -> str:
    """Lower-case, whitespace collapsed."""
    return re.sub(r"\s+", " ", text).strip().lower()


def prf(tp: int, fp: int, fn: int) -> dict[str, float]:
    """Precision, recall and F1 (0 when undefined)."""
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return {"p": round(p, 4), "r": round(r, 4), "f": round(2 * p * r / (p + r), 4) if p + r else 0.0,
            "tp": tp, "fp": fp, "fn": fn}


def doc_level(pairs: list[tuple[dict[str, set], dict[str, set]]], labels) -> dict[str, dict]:
    """Micro-averaged doc-level scores from (predicted, gold) label -> string-set pairs."""
    out = {}
    for label in labels:
        tp = fp = fn = 0
        for pred, gold in pairs:
            p, g = pred.get(label, set()), gold.get(label, set())
            tp, fp, fn = tp + len(p & g), fp + len(p - g), fn + len(g - p)
        out[label] = prf(tp, fp, fn)
    return out


def string_sets(spans, text: str) -> dict[str, set]:
    """label -> set of normalised strings of ``(start, end, label, ...)`` spans of ``text``."""
    sets: dict[str, set] = defaultdict(set)
    for s, e, label, *_ in spans:
        sets[label].add(norm(text[s:e]))
    return sets


def evaluate_dev(scierc: Path, model: str | None, labels) -> dict:
    """Span-level (spaCy scorer) and doc-level scores of the NER on SciERC dev."""
    from collections import Counter

    from spacy.training import Example

    from kg.extract.statistical import load_ner

    nlp = load_ner(model)
    records = read_jsonl(scierc / "dev.json")
    examples, pairs = [], []
    texts = []
    for rec in records:
        text, gold = doc_text_and_spans(rec, set(labels))
        texts.append(text)
        examples.append(Example(nlp.make_doc(text), to_doc(nlp, text, gold, Counter())))
        pairs.append((None, string_sets(gold, text)))
    t0 = time.perf_counter()
    predicted = list(nlp.pipe(texts))
    elapsed = time.perf_counter() - t0
    for ex, pred in zip(examples, predicted):
        ex.predicted = pred
    scores = nlp.get_pipe("ner").score(examples)
    pairs = [(string_sets([(e.start_char, e.end_char, e.label_) for e in pred.ents], text), gold)
             for pred, text, (_, gold) in zip(predicted, texts, pairs)]
    span = {k: {m: round(v, 4) for m, v in d.items()} for k, d in (scores.get("ents_per_type") or {}).items()}
    return {"span_level": {"all": {"p": round(scores["ents_p"], 4), "r": round(scores["ents_r"], 4),
                                   "f": round(scores["ents_f"], 4)}, "per_label": span},
            "doc_level": doc_level(pairs, labels), "dev_docs_per_s_raw_text": round(len(texts) / elapsed, 1),
            "_texts": texts, "_gold": [g for _, g in pairs]}


def evaluate_rules(texts: list[str], golds: list[dict], labels) -> dict:
    """Doc-level scores of paperkg's rule-based mentions on the same texts."""
    from kg.extract import load_nlp

    nlp = load_nlp()
    pairs = []
    for doc, gold in zip(nlp.pipe(texts), golds):
        spans = [(m.start, m.end, RULE_TYPES[m.type]) for m in (doc._.mentions or []) if m.type in RULE_TYPES]
        pairs.append((string_sets(spans, doc.text), gold))
    return doc_level(pairs, labels)


def speed(abstracts: Path, n: int, model: str | None) -> dict:
    """Docs/s of the component on pre-tokenized abstracts, and of the NER pipeline on raw text."""
    import spacy

    from kg.extract.statistical import StatisticalNER, load_ner

    texts = []
    with gzip.open(abstracts, "rt", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if rec.get("abstract"):
                texts.append(rec["abstract"])
            if len(texts) >= n:
                break
    tokenizer = spacy.blank("en")
    docs = [tokenizer.make_doc(t) for t in texts]
    component = StatisticalNER(model)
    component.pipe(docs[:5]).__next__()  # warm up
    t0, c0 = time.perf_counter(), time.process_time()
    done = list(component.pipe(docs, batch_size=64))
    comp, comp_cpu = time.perf_counter() - t0, time.process_time() - c0
    t0, c0 = time.perf_counter(), time.process_time()
    list(load_ner(model).pipe(texts, batch_size=64))
    raw, raw_cpu = time.perf_counter() - t0, time.process_time() - c0
    n_spans = sum(len(d._.stat_spans) for d in done)
    # per CPU second too: wall-clock figures vary with the machine's load
    return {"docs": len(docs), "component_docs_per_s": round(len(docs) / comp, 1),
            "component_docs_per_cpu_s": round(len(docs) / comp_cpu, 1),
            "raw_text_docs_per_s": round(len(docs) / raw, 1), "raw_text_docs_per_cpu_s": round(len(docs) / raw_cpu, 1),
            "spans_per_doc": round(n_spans / len(docs), 2)}


def model_size(model: str | None) -> float:
    """Size in MB of the model directory."""
    from kg.extract.statistical import MODEL_DIR

    where = Path(model) if model else MODEL_DIR
    return round(sum(f.stat().st_size for f in where.rglob("*") if f.is_file()) / 1e6, 2)


def main(argv: list[str] | None = None) -> None:
    """Command line: print (and optionally save) the figures as JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scierc", type=Path, required=True, help="directory holding SciERC dev.json")
    ap.add_argument("--model", default=None, help="model directory (default: the one shipped in kg/models)")
    ap.add_argument("--labels", default=",".join(DEFAULT_LABELS), help="labels to score")
    ap.add_argument("--abstracts", type=Path, default=None, help="abstracts.jsonl.gz for the speed figure")
    ap.add_argument("--n", type=int, default=200, help="abstracts timed")
    ap.add_argument("--rules", action="store_true", help="also score the rule-based mentions")
    ap.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = ap.parse_args(argv)
    labels = [x.strip() for x in args.labels.split(",") if x.strip()]
    res = evaluate_dev(args.scierc, args.model, labels)
    texts, golds = res.pop("_texts"), res.pop("_gold")
    if args.rules:
        res["rules_doc_level"] = evaluate_rules(texts, golds, labels)
    if args.abstracts:
        res["speed"] = speed(args.abstracts, args.n, args.model)
    res["model_mb"] = model_size(args.model)
    out = json.dumps(res, indent=1)
    print(out)
    if args.json:
        args.json.write_text(out + "\n")


if __name__ == "__main__":
    main()
