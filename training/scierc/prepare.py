"""Convert SciERC (DyGIE++ JSON) to spaCy DocBin files for NER training.

SciERC's tokens come from a PTB-style tokenizer (``-LRB-``, ``can't`` -> ``ca n't``...). At run
time paperkg's NER sees spaCy's tokenization of the raw abstract, so the abstracts are first
detokenized into plain text, re-tokenized with spaCy's English tokenizer, and the gold spans are
mapped onto the new tokens by character offsets (expanded to token boundaries).

Usage::

    python training/scierc/prepare.py --scierc /path/to/scierc --out /tmp/scierc_spacy \
        [--labels Method,Task,Metric,Material]

writes ``train.spacy`` and ``dev.spacy`` (and prints span counts).
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

#: Labels the shipped model emits by default (Generic and OtherScientificTerm are dropped).
DEFAULT_LABELS: tuple[str, ...] = ("Method", "Task", "Metric", "Material")

_BRACKETS = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}",
             "``": '"', "''": '"'}
_NO_SPACE_BEFORE = {",", ".", ";", ":", ")", "]", "}", "%", "?", "!", "'s", "'", "n't", "'re", "'ve", "'ll", "'d", "'m"}
_NO_SPACE_AFTER = {"(", "[", "{"}


def read_jsonl(path: Path) -> list[dict]:
    """The documents of one DyGIE++ JSON-lines file."""
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def detokenize(tokens: list[str]) -> tuple[str, list[tuple[int, int]]]:
    """Plain text of ``tokens`` and each token's (start, end) character offsets in it."""
    text = ""
    offsets: list[tuple[int, int]] = []
    prev = None
    for tok in tokens:
        word = _BRACKETS.get(tok, tok)
        if prev is not None and word not in _NO_SPACE_BEFORE and prev not in _NO_SPACE_AFTER:
            text += " "
        offsets.append((len(text), len(text) + len(word)))
        text += word
        prev = word
    return text, offsets


def doc_text_and_spans(record: dict, labels: set[str]) -> tuple[str, list[tuple[int, int, str]]]:
    """The detokenized abstract of one record and its gold (start_char, end_char, label) spans."""
    tokens = [t for sent in record["sentences"] for t in sent]
    text, offsets = detokenize(tokens)
    spans = []
    for sent in record["ner"]:
        for start, end, label in sent:  # inclusive document-level token offsets
            if label in labels:
                spans.append((offsets[start][0], offsets[end][1], label))
    return text, spans


def to_doc(nlp, text: str, spans: list[tuple[int, int, str]], stats: Counter):
    """A spaCy Doc of ``text`` whose ``ents`` are ``spans`` (overlaps: the longer one wins)."""
    from spacy.util import filter_spans

    doc = nlp.make_doc(text)
    ents = []
    for start, end, label in spans:
        span = doc.char_span(start, end, label=label, alignment_mode="expand")
        if span is None:
            stats["unaligned"] += 1
            continue
        if span.text != text[start:end]:
            stats["expanded"] += 1
        ents.append(span)
    kept = filter_spans(ents)
    stats["overlapping"] += len(ents) - len(kept)
    stats["spans"] += len(kept)
    doc.ents = kept
    return doc


def convert(src: Path, dest: Path, labels: set[str]) -> Counter:
    """Write ``dest`` (a DocBin) from the DyGIE++ file ``src``; return counts of what was kept."""
    import spacy
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    stats: Counter = Counter()
    db = DocBin(store_user_data=False)
    for record in read_jsonl(src):
        text, spans = doc_text_and_spans(record, labels)
        db.add(to_doc(nlp, text, spans, stats))
        stats["docs"] += 1
    dest.parent.mkdir(parents=True, exist_ok=True)
    db.to_disk(dest)
    return stats


def main(argv: list[str] | None = None) -> None:
    """Command line: convert ``train.json`` and ``dev.json`` of a SciERC directory."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scierc", type=Path, required=True, help="directory holding train.json and dev.json")
    ap.add_argument("--out", type=Path, required=True, help="directory to write train.spacy and dev.spacy")
    ap.add_argument("--labels", default=",".join(DEFAULT_LABELS), help="comma-separated labels to keep")
    args = ap.parse_args(argv)
    labels = {x.strip() for x in args.labels.split(",") if x.strip()}
    for split in ("train", "dev"):
        stats = convert(args.scierc / f"{split}.json", args.out / f"{split}.spacy", labels)
        print(f"{split}: {dict(stats)}")


if __name__ == "__main__":
    main()
