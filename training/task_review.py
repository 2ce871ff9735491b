"""The task review: reviewers add the tasks the guidelines count and an annotation left out.

    python -m training.task_review batches --corpus ../shared/data/abstracts.jsonl.gz --out DIR --n 24
    python -m training.task_review check DIR/batch_01.jsonl DIR/out_01.jsonl
    python -m training.task_review apply --corpus ../shared/data/abstracts.jsonl.gz DIR/out_*.jsonl

The annotations were made under ``CONVENTIONS.md``, whose task rules are stricter than the gold
guidelines' (2,620 abstracts held 1.6 tasks each; the dev golds, 2.0 required and 0.7 optional). A
reviewer gets a batch (id, title, abstract and the items already annotated) and the instructions in
``TASK_REVIEW.md``, and writes one line a record: ``{"id": ..., "add": [{"label": ..., "aliases": [...]}]}``.
``check`` is the validator the reviewers run; ``apply`` adds the tasks to the standoff files, places them
in the text again, and records them on the entry as ``task_review`` (the labels the review added).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from training.corpus import ANNOTATIONS, CorpusError, _occurrences, read_corpus, read_standoff, standoff, text_hash

#: The lists whose items a review may not add again as tasks.
ANNOTATED = ("tasks", "methods", "datasets", "metrics")


def batches(entries: list[dict[str, Any]], records: dict[str, dict[str, Any]], n: int, seed: int = 7
            ) -> list[list[dict[str, Any]]]:
    """``entries`` (in file order) shuffled by ``seed`` into ``n`` batches of review records (text and
    annotated labels)."""
    entries = list(entries)
    random.Random(seed).shuffle(entries)
    size = -(-len(entries) // n)
    out = []
    for b in range(n):
        rows = []
        for e in entries[b * size:(b + 1) * size]:
            ann, record = e["annotation"], records[e["id"]]
            labels = {key: [item["label"] for item in ann.get(key, [])] for key in ANNOTATED}
            labels["methods"] += [p["label"] for p in ann.get("proposes", []) if p.get("type", "Method") == "Method"]
            rows.append({"id": e["id"], "title": record.get("title", ""), "abstract": record["abstract"], **labels})
        out.append(rows)
    return out


def problems(batch: dict[str, dict[str, Any]], lines: list[str]) -> list[str]:
    """Everything wrong with a reviewer's output ``lines`` for ``batch`` (id -> review record)."""
    out: list[str] = []
    seen: set[str] = set()
    for n, line in enumerate(lines, 1):
        try:
            o = json.loads(line)
        except json.JSONDecodeError as exc:
            out.append(f"line {n}: not JSON ({exc})")
            continue
        if not isinstance(o, dict):
            out.append(f"line {n}: not a JSON object")
            continue
        rid = o.get("id")
        if rid not in batch or rid in seen:
            out.append(f"line {n}: id {rid!r} is {'twice' if rid in seen else 'not in the batch'}")
            continue
        seen.add(rid)
        if set(o) - {"id", "add", "notes"} or not isinstance(o.get("add"), list):
            out.append(f"{rid}: a line is {{\"id\", \"add\": [...], \"notes\"}}")
            continue
        record = batch[rid]
        existing = {x.lower() for key in ANNOTATED for x in record[key]}
        added: set[str] = set()
        for item in o["add"]:
            if not isinstance(item, dict) or not isinstance(item.get("label"), str) \
                    or not isinstance(item.get("aliases", []), list) \
                    or not all(isinstance(f, str) and f.strip() for f in [item["label"], *item.get("aliases", [])]):
                out.append(f"{rid}: each added item is {{\"label\": str, \"aliases\": [str]}}, no form empty: {item!r}")
                continue
            for form in [item["label"], *item.get("aliases", [])]:
                if next(_occurrences(record["abstract"], form), None) is None:
                    out.append(f"{rid}: {form!r} is not written verbatim in the abstract (same characters, "
                               "same case, whole words)")
                if form.lower() in existing or form.lower() in added:
                    out.append(f"{rid}: {form!r} is already annotated or added; do not add it again")
                added.add(form.lower())
            if not 1 <= len(item["label"].split()) <= 8:
                out.append(f"{rid}: {item['label']!r}: a task is a short noun phrase (1-8 words)")
    missing = [rid for rid in batch if rid not in seen]
    if missing:
        out.append(f"{len(missing)} records have no line yet, e.g. {missing[:5]}")
    return out


def apply(outputs: list[Path], corpus: Path, annotations: Path = ANNOTATIONS) -> tuple[int, int]:
    """Add the reviewed tasks of ``outputs`` to the standoff files under ``annotations`` (in place); the
    number of entries changed and of tasks added. A task is left out where placing it would take the
    place of a span already annotated."""
    adds: dict[str, list[dict[str, Any]]] = {}
    for path in outputs:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                o = json.loads(line)
                adds.setdefault(o["id"], []).extend(o["add"])  # an id in two outputs: both reviews count
    files = sorted(annotations.glob("*.jsonl"))
    entries = read_standoff(files)
    records = read_corpus(corpus, {e["id"] for _, _, e in entries})
    rows: dict[Path, list[dict[str, Any]]] = {path: [] for path in files}
    changed = added = 0
    for path, _, entry in entries:
        done = set(entry.get("task_review", []))
        record, kept = records[entry["id"]], []
        if text_hash(record["abstract"]) != entry["sha256"]:
            raise CorpusError(f"{path}: the abstract of {entry['id']} changed since it was annotated")
        ann, placed = dict(entry["annotation"]), None
        for item in adds.get(entry["id"], []):
            if item["label"] in done:
                continue
            trial = {**ann, "tasks": [*ann.get("tasks", []), {"label": item["label"],
                                                               "aliases": list(item.get("aliases", []))}]}
            # a task that would take the place of an annotated form ("training generative adversarial
            # networks" over the method "generative adversarial networks") is not added
            tried = standoff(trial, record)[0]
            if all(span in tried["spans"] for span in (placed or entry)["spans"]):
                ann, placed, done = trial, tried, done | {item["label"]}
                kept.append(item["label"])
        if kept:
            entry = {**placed, "task_review": [*entry.get("task_review", []), *kept]}
            changed, added = changed + 1, added + len(kept)
        rows[path].append(entry)
    for path, kept in rows.items():
        path.write_text("".join(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n" for e in kept),
                        encoding="utf-8")
    return changed, added


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.task_review", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    cmd = sub.add_parser("batches", help="write the review batches")
    cmd.add_argument("--corpus", type=Path, required=True)
    cmd.add_argument("--out", type=Path, required=True)
    cmd.add_argument("--n", type=int, default=24)
    cmd = sub.add_parser("check", help="validate a reviewer's output against its batch")
    cmd.add_argument("batch", type=Path)
    cmd.add_argument("output", type=Path)
    cmd = sub.add_parser("apply", help="add the reviewed tasks to the annotations")
    cmd.add_argument("--corpus", type=Path, required=True)
    cmd.add_argument("outputs", nargs="+", type=Path)
    args = parser.parse_args(argv)
    try:
        if args.command == "batches":
            entries = [e for _, _, e in read_standoff(sorted(ANNOTATIONS.glob("*.jsonl")))]
            records = read_corpus(args.corpus, {e["id"] for e in entries})
            args.out.mkdir(parents=True, exist_ok=True)
            for i, rows in enumerate(batches(entries, records, args.n), 1):
                (args.out / f"batch_{i:02d}.jsonl").write_text(
                    "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
            print(f"{len(entries)} records in {args.n} batches under {args.out}")
        elif args.command == "check":
            batch = {r["id"]: r for r in map(json.loads, args.batch.read_text(encoding="utf-8").splitlines()) if r}
            lines = [l for l in args.output.read_text(encoding="utf-8").splitlines() if l.strip()] \
                if args.output.exists() else []
            found = problems(batch, lines)
            reviewed = len(batch) - next((int(p.split()[0]) for p in found if "no line yet" in p), 0)
            print("\n".join([*found[:60], f"{reviewed}/{len(batch)} records reviewed, {len(found)} problems"]))
            return 1 if found else 0
        else:
            changed, added = apply(args.outputs, args.corpus)
            print(f"{added} tasks added to {changed} annotations")
    except (CorpusError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
