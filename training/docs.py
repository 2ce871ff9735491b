"""The training corpus as spaCy Docs: each abstract tokenized as at run time, its projected spans as entities.

:func:`to_doc` is pure (one entry, one text, one tokenizer); :func:`write_docbins` writes one DocBin per
split. Spans that do not fall on token boundaries are snapped outwards to whole tokens
(``alignment_mode="expand"``) and counted, so a change of tokenizer that breaks the alignment shows.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Iterable

from spacy.tokens import Doc, DocBin
from spacy.util import filter_spans

#: The entity labels the model learns (the projected span types).
LABELS: tuple[str, ...] = ("Method", "Dataset", "Task", "Metric")


def to_doc(nlp: Any, entry: dict[str, Any], text: str, stats: Counter | None = None) -> Doc:
    """``text`` tokenized by ``nlp``'s tokenizer, with ``entry``'s spans as ``doc.ents`` (for a NER) and
    as ``doc.spans["sc"]`` (for a span categoriser)."""
    doc = nlp.make_doc(text)
    spans = []
    for start, end, label, _surface, _proposed in entry["spans"]:
        span = doc.char_span(start, end, label=label)
        if span is None:
            span = doc.char_span(start, end, label=label, alignment_mode="expand")
            if stats is not None:
                stats["snapped"] += 1
        if span is not None:
            spans.append(span)
    kept = filter_spans(spans)
    if stats is not None:
        stats["spans"] += len(kept)
        stats["dropped overlapping"] += len(spans) - len(kept)
    doc.ents = kept
    doc.spans["sc"] = kept
    return doc


def write_docbins(nlp: Any, entries: Iterable[dict[str, Any]], texts: dict[str, str], out: Path,
                  splits: Iterable[str] = ("train", "dev", "test")) -> dict[str, Counter]:
    """Write ``out/<split>.spacy`` for each split; the counts per split (docs, spans, snapped, dropped)."""
    wanted = set(splits)
    bins = {split: DocBin(store_user_data=False) for split in wanted}
    stats = {split: Counter() for split in wanted}
    for entry in entries:
        split = entry["split"]
        if split not in wanted:
            continue
        bins[split].add(to_doc(nlp, entry, texts[entry["id"]], stats[split]))
        stats[split]["docs"] += 1
    out.mkdir(parents=True, exist_ok=True)
    for split, docbin in bins.items():
        docbin.to_disk(out / f"{split}.spacy")
    return stats
