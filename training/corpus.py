"""The training corpus: standoff annotations joined with their texts, validated, projected and split.

The annotations live in ``training/annotations/*.jsonl`` as standoff: one JSON object a line with the
corpus ``id``, the ``sha256`` of the abstract it was made on, the ``annotation`` (the gold-file shape of
``training/CONVENTIONS.md``) and the projected ``spans``. The abstracts themselves are never stored
here: :func:`join` reads them from the corpus file given by path and checks each hash, so a changed
text is caught.

    python -m training.corpus check   --corpus ../shared/data/abstracts.jsonl.gz
    python -m training.corpus import  --corpus ... ANNOTATIONS.jsonl -o training/annotations/NAME.jsonl
    python -m training.corpus gold    --corpus ... --split test -o /tmp/gold_test.json
    python -m training.corpus stats
    python -m training.corpus readings
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from training.schema import ENTITY_LISTS, forms, problems

ANNOTATIONS = Path(__file__).resolve().parent / "annotations"
SPLITS = (("train", 80), ("dev", 10), ("test", 10))


class CorpusError(Exception):
    """A corpus or annotation file that cannot be used, with the file, line and fix in the message."""


@dataclass(frozen=True)
class Span:
    """One projected occurrence of an annotated form: character offsets into the abstract."""

    start: int
    end: int
    label: str  # the entity type: Method, Dataset, Task, Metric
    text: str
    proposed: bool = False

    def as_json(self) -> list:
        return [self.start, self.end, self.label, self.text, self.proposed]


def text_hash(text: str) -> str:
    """The sha256 of an abstract (UTF-8), stored beside its annotation."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def split_of(record_id: str) -> str:
    """The fixed split of a record: a hash of its id, 80/10/10 into train, dev and test."""
    bucket = int(hashlib.sha256(record_id.encode("utf-8")).hexdigest()[:8], 16) % 100
    edge = 0
    for name, share in SPLITS:
        edge += share
        if bucket < edge:
            return name
    raise AssertionError("split shares must add up to 100")


def _occurrences(text: str, form: str) -> Iterator[int]:
    """Start offsets of ``form`` in ``text`` on token boundaries (not inside a longer word)."""
    start = text.find(form)
    while start != -1:
        end = start + len(form)
        left_ok = start == 0 or not (text[start - 1].isalnum() and form[0].isalnum())
        right_ok = end == len(text) or not (text[end].isalnum() and form[-1].isalnum())
        if left_ok and right_ok:
            yield start
        start = text.find(form, start + 1)


def typed_forms(ann: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """Every (form, type, proposed) of an annotation: proposes first, then the entity lists."""
    out = [(form, item.get("type", "Method"), True) for item in ann.get("proposes", []) for form in forms(item)]
    types = {"methods": "Method", "datasets": "Dataset", "tasks": "Task", "metrics": "Metric"}
    out += [(form, types[key], False) for key in ENTITY_LISTS for item in ann.get(key, []) for form in forms(item)]
    return out


def project(ann: dict[str, Any], text: str) -> tuple[list[Span], list[str]]:
    """Place every label and alias of ``ann`` at all its spans in ``text``.

    Longest forms first; an occurrence inside (or overlapping) an already placed longer span is
    skipped, so "graph neural networks" wins over "neural networks" where they overlap, while
    "neural networks" elsewhere is still placed. Returns the spans in text order and the forms that
    could not be placed anywhere (not in the text, e.g. a proposed name taken from the title, or
    only inside longer spans)."""
    taken: list[tuple[int, int]] = []
    spans: list[Span] = []
    unplaced: list[str] = []
    seen: set[tuple[str, str]] = set()
    for form, kind, proposed in sorted(typed_forms(ann), key=lambda f: (-len(f[0]), not f[2], f[0])):
        if (form, kind) in seen:
            continue
        seen.add((form, kind))
        placed = False
        for start in _occurrences(text, form):
            end = start + len(form)
            if any(start < b and a < end for a, b in taken):
                continue
            taken.append((start, end))
            spans.append(Span(start, end, kind, form, proposed))
            placed = True
        if not placed:
            unplaced.append(f"{kind} {form!r}")
    return sorted(spans, key=lambda s: s.start), unplaced


def jsonl_lines(path: Path, hint: str) -> Iterator[tuple[int, Any]]:
    """(line number, value) of each non-blank line of the JSONL(.gz) file ``path``; a line that is not JSON
    raises :class:`CorpusError` naming the file, the line and ``hint`` (what the file should hold)."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError as exc:
                raise CorpusError(f"{path}:{number}: not JSON ({exc}); {hint}")


def read_corpus(path: Path, ids: set[str] | None = None) -> dict[str, dict[str, Any]]:
    """Records of a JSONL(.gz) corpus file by id (only ``ids`` when given)."""
    out: dict[str, dict[str, Any]] = {}
    try:
        for _, record in jsonl_lines(path, "the corpus is one JSON object a line"):
            if ids is None or record.get("id") in ids:
                out[record["id"]] = record
    except OSError as exc:
        raise CorpusError(f"{path}: cannot read the corpus ({exc.strerror}); pass --corpus PATH") from exc
    return out


def read_standoff(paths: Iterable[Path]) -> list[tuple[Path, int, dict[str, Any]]]:
    """Every standoff line of ``paths`` with its file and line number."""
    out = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                try:
                    out.append((path, number, json.loads(line)))
                except json.JSONDecodeError as exc:
                    raise CorpusError(f"{path}:{number}: not JSON ({exc})") from exc
    return out


def check(entries: list[tuple[Path, int, dict[str, Any]]], corpus: dict[str, dict[str, Any]],
          pool: set[str] | None = None) -> list[str]:
    """Everything wrong with standoff ``entries`` against their texts: one message a problem."""
    out: list[str] = []
    seen: dict[str, str] = {}
    for path, number, entry in entries:
        where = f"{path.name}:{number}"
        rid = entry.get("id")
        if rid in seen:
            out.append(f"{where}: {rid} is annotated twice (also {seen[rid]}); keep the adjudicated one")
            continue
        seen[rid] = where
        if pool is not None and rid not in pool:
            out.append(f"{where}: {rid} is not in the training pool; only pool records may be annotated")
        record = corpus.get(rid)
        if record is None:
            out.append(f"{where}: {rid} is not in the corpus file")
            continue
        if text_hash(record["abstract"]) != entry.get("sha256"):
            out.append(f"{where}: the abstract of {rid} changed since it was annotated (sha256 differs); "
                       "re-annotate it or restore the text")
            continue
        ann = entry.get("annotation", {})
        if ann.get("id", rid) != rid:
            out.append(f"{where}: the annotation's id {ann.get('id')} differs from the entry's {rid}")
        out += [f"{where} ({rid}): {p}" for p in problems(ann, record["abstract"], record.get("title", ""))]
        spans, _ = project(ann, record["abstract"])
        if [s.as_json() for s in spans] != entry.get("spans"):
            out.append(f"{where} ({rid}): the stored spans are stale; run `python -m training.corpus import` again")
    return out


def load_checked(annotations: Path, corpus: Path) -> tuple[list[tuple[Path, int, dict[str, Any]]], dict[str, dict[str, Any]]]:
    """The standoff entries of ``annotations/*.jsonl`` and their corpus records, checked against each other.

    Raises :class:`CorpusError` when there is no annotation file or an annotation does not match its text."""
    entries = read_standoff(sorted(annotations.glob("*.jsonl")))
    if not entries:
        raise CorpusError(f"{annotations}: no annotation files (*.jsonl)")
    records = read_corpus(corpus, {e["id"] for _, _, e in entries})
    found = check(entries, records)
    if found:
        raise CorpusError("the annotations do not match their texts:\n  " + "\n  ".join(found[:20]))
    return entries, records


def prf(tp: int, predicted: int, gold: int) -> tuple[float, float, float]:
    """Precision, recall and F1 (rounded to 3 places) of ``tp`` hits among ``predicted`` and ``gold`` items;
    an empty side scores 1.0."""
    p = tp / predicted if predicted else 1.0
    r = tp / gold if gold else 1.0
    return round(p, 3), round(r, 3), round(2 * p * r / (p + r), 3) if p + r else 0.0


def standoff(ann: dict[str, Any], record: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The standoff entry of annotation ``ann`` of ``record`` and the forms it could not place."""
    spans, unplaced = project(ann, record["abstract"])
    clean = {k: v for k, v in ann.items() if k != "id"}
    return ({"id": record["id"], "sha256": text_hash(record["abstract"]), "split": split_of(record["id"]),
             "annotation": clean, "spans": [s.as_json() for s in spans]}, unplaced)


def as_gold(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The entries as a gold file for the shared scorer (papers keyed by id)."""
    papers = {}
    for entry in entries:
        ann = entry["annotation"]
        papers[entry["id"]] = {k: ann.get(k, [] if k != "name" else None)
                               for k in ("name", "proposes", "methods", "datasets", "modalities", "tasks",
                                         "metrics", "code", "results")}
    return {"papers": papers}


def two_readings(entries: list[dict[str, Any]], least: int = 7, share: float = 0.2) -> list[str]:
    """The Method, Task and Metric vocabulary concepts the ``entries`` annotate as another of the three types
    in at least ``share`` of their (at least ``least``) annotations, each abstract counting once for each
    type it gives the concept: the concepts whose ``kg:alsoReadAs`` lets the tagger's reading decide. A form
    of two concepts ("ASR": speech recognition, attack success rate) counts for the one of the type it is
    annotated as. One line each, marked where the vocabulary says so."""
    from kg.extract.vocab import load_vocabulary
    from kg.keys import norm_key

    kinds = ("Method", "Task", "Metric")
    concepts = {c.iri: c for c in load_vocabulary().concepts.values() if c.type in kinds}
    of_form: dict[str, set[str]] = {}
    for iri, c in concepts.items():
        for f in (c.label, *c.alt_labels):
            of_form.setdefault(norm_key(f), set()).add(iri)

    def concepts_of(form: str, t: str) -> set[str]:
        found = of_form.get(norm_key(form), set())
        return {iri for iri in found if concepts[iri].type == t} or found

    counts: dict[str, Counter] = {iri: Counter() for iri in concepts}
    for entry in entries:
        read = {(iri, t) for form, t, proposed in typed_forms(entry["annotation"]) if not proposed and t in kinds
                for iri in concepts_of(form, t)}
        for iri, t in read:
            counts[iri][t] += 1
    out = []
    for iri, c in sorted(counts.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])):
        own, total = concepts[iri].type, sum(c.values())
        others = [t for t in kinds if t != own and c[t] >= share * total]
        if total >= least and others:
            missing = [t for t in others if t not in concepts[iri].also_read_as]
            stated = f"NOT STATED: kg:alsoReadAs {', '.join(missing)}" if missing else \
                "kg:alsoReadAs " + ", ".join(others)
            read_as = ", ".join(f"{t} {c[t]}" for t in kinds if c[t])
            out.append(f"{iri}\t{read_as}\t{stated}")
    return out


def _annotation_files() -> list[Path]:
    return sorted(ANNOTATIONS.glob("*.jsonl"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.corpus", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("check", "import", "gold", "stats", "readings"):
        cmd = sub.add_parser(name)
        if name not in {"stats", "readings"}:
            cmd.add_argument("--corpus", type=Path, required=True,
                             help="the corpus JSONL(.gz) holding the texts")
        if name == "check":
            cmd.add_argument("--pool", type=Path, help="the pool id list; refuse ids outside it")
            cmd.add_argument("files", nargs="*", type=Path)
        if name == "import":
            cmd.add_argument("source", type=Path, help="annotations, one gold-shaped object with `id` a line")
            cmd.add_argument("-o", "--out", type=Path, required=True)
        if name == "gold":
            cmd.add_argument("--split", choices=[s for s, _ in SPLITS] + ["all"], default="test")
            cmd.add_argument("-o", "--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except CorpusError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.command == "stats":
        entries = [e for _, _, e in read_standoff(_annotation_files())]
        splits = Counter(e["split"] for e in entries)
        types = Counter(s[2] for e in entries for s in e["spans"])
        print(f"{len(entries)} annotated abstracts: " + ", ".join(f"{k} {splits[k]}" for k, _ in SPLITS))
        print("spans: " + ", ".join(f"{k} {v}" for k, v in sorted(types.items())))
        return 0
    if args.command == "readings":
        entries = [e for _, _, e in read_standoff(_annotation_files()) if e["split"] == "train"]
        for line in two_readings(entries):
            print(line)
        return 0
    if args.command == "import":
        rows = [json.loads(line) for line in args.source.read_text(encoding="utf-8").splitlines() if line.strip()]
        corpus = read_corpus(args.corpus, {r["id"] for r in rows})
        lines, bad = [], 0
        for row in rows:
            record = corpus.get(row["id"])
            if record is None:
                raise CorpusError(f"{args.source}: {row['id']} is not in {args.corpus}")
            found = problems(row, record["abstract"], record.get("title", ""))
            if found:
                bad += 1
                print(f"{row['id']}: " + "; ".join(found), file=sys.stderr)
                continue
            entry, unplaced = standoff(row, record)
            if unplaced:
                print(f"{row['id']}: not placed in the abstract: {', '.join(unplaced)}")
            lines.append(json.dumps(entry, ensure_ascii=False, sort_keys=True))
        if bad:
            raise CorpusError(f"{args.source}: {bad} annotations are invalid (listed above); nothing written")
        tmp = args.out.with_suffix(".tmp")
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        tmp.replace(args.out)
        print(f"{len(lines)} annotations written to {args.out}")
        return 0
    files = getattr(args, "files", None) or _annotation_files()
    entries = read_standoff(files)
    corpus = read_corpus(args.corpus, {e["id"] for _, _, e in entries} or None)
    if args.command == "check":
        pool = set(args.pool.read_text().split()) if args.pool else None
        found = check(entries, corpus, pool)
        for message in found:
            print(message)
        print(f"{len(entries)} annotations checked, {len(found)} problems")
        return 1 if found else 0
    if args.command == "gold":
        chosen = [e for _, _, e in entries if args.split == "all" or e["split"] == args.split]
        args.out.write_text(json.dumps(as_gold(chosen), ensure_ascii=False, indent=1), encoding="utf-8")
        print(f"{len(chosen)} papers ({args.split}) written to {args.out}")
        return 0
    raise AssertionError(args.command)


if __name__ == "__main__":
    sys.exit(main())
