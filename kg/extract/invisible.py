"""Invisible characters: what the extractor does not see, and how its offsets return to the original text.

Zero-width characters (ZWSP, ZWNJ, ZWJ, word joiner, BOM, soft hyphen) and bidirectional controls
(LRM, RLM, ALM, the embeddings, overrides and isolates with their PDF/PDI) render as nothing, but split a
word for the tokenizer: "Trans\u200bformer" is two tokens, and no vocabulary finds it. The extractor
therefore runs on the text without them (:func:`strip_invisible`), and every offset it returns is mapped
back to the original (:meth:`OffsetMap.span`), which the graph keeps unchanged. A mapped span never begins
or ends on an invisible character, and it is widened to hold both ends of any bidi pair it holds one end
of, so an anchor text never cuts an embedding or isolate in two. Labels come from the visible text.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, replace
from functools import cached_property

from kg.extract.types import Mention, PaperExtraction, Relation, ResultClaim

#: zero-width characters: ZWSP, ZWNJ, ZWJ, word joiner, invisible operators, BOM / ZWNBSP, soft hyphen
ZERO_WIDTH = "\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u00ad"
#: bidi marks (no pair): LRM, RLM, ALM
BIDI_MARKS = "\u200e\u200f\u061c"
#: bidi openers -> the character that closes them: LRE, RLE, LRO, RLO close with PDF; LRI, RLI, FSI with PDI
BIDI_CLOSER = {"\u202a": "\u202c", "\u202b": "\u202c", "\u202d": "\u202c", "\u202e": "\u202c",
               "\u2066": "\u2069", "\u2067": "\u2069", "\u2068": "\u2069"}
INVISIBLE = ZERO_WIDTH + BIDI_MARKS + "".join(BIDI_CLOSER) + "\u202c\u2069"
_INVISIBLE = re.compile(f"[{INVISIBLE}]")


def bidi_pairs(text: str) -> dict[int, int]:
    """Each bidi opener's and closer's index -> its partner's (unpaired ones are left out)."""
    pairs: dict[int, int] = {}
    stack: list[tuple[int, str]] = []
    for i, ch in enumerate(text):
        if ch in BIDI_CLOSER:
            stack.append((i, BIDI_CLOSER[ch]))
        elif ch in "\u202c\u2069":
            for depth in range(len(stack) - 1, -1, -1):  # the innermost opener this character closes
                if stack[depth][1] == ch:
                    opener = stack[depth][0]
                    del stack[depth:]
                    pairs[opener], pairs[i] = i, opener
                    break
    return pairs


@dataclass(frozen=True)
class OffsetMap:
    """Where the characters of the visible text sit in the original: ``kept[i]`` is the original index of
    visible character ``i``; ``removed`` the sorted original indices of the invisible ones."""

    original: str
    kept: tuple[int, ...]
    removed: tuple[int, ...]

    @cached_property
    def pairs(self) -> dict[int, int]:
        """:func:`bidi_pairs` of the original text, found once for every span mapped."""
        return bidi_pairs(self.original)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of the visible span ``[start, end)``, widened over the bidi pairs it cuts."""
        n = len(self.kept)
        if start >= end:
            at = self.kept[start] if start < n else len(self.original)
            return at, at
        a, b = self.kept[start], self.kept[min(end, n) - 1] + 1
        pairs = self.pairs
        changed = True
        while changed:
            changed = False
            lo = bisect_right(self.removed, a - 1)
            hi = bisect_right(self.removed, b - 1)
            for index in self.removed[lo:hi]:
                partner = pairs.get(index)
                if partner is None:
                    continue
                if partner < a:
                    a, changed = partner, True
                elif partner >= b:
                    b, changed = partner + 1, True
        return a, b

    def optional(self, span: tuple[int, int] | None) -> tuple[int, int] | None:
        """:meth:`span` of a span that may be missing."""
        return None if span is None else self.span(*span)


def visible(text: str) -> str:
    """``text`` without its invisible characters."""
    return _INVISIBLE.sub("", text)


def strip_invisible(text: str) -> tuple[str, OffsetMap | None]:
    """The text without invisible characters, and the map back to ``text`` (None when it has none)."""
    if not _INVISIBLE.search(text):
        return text, None
    kept = tuple(i for i, ch in enumerate(text) if ch not in INVISIBLE)
    removed = tuple(i for i, ch in enumerate(text) if ch in INVISIBLE)
    return "".join(text[i] for i in kept), OffsetMap(text, kept, removed)


def _mention(m: Mention, where: OffsetMap) -> Mention:
    start, end = where.span(m.start, m.end)
    return replace(m, start=start, end=end)


def _result(r: ResultClaim, where: OffsetMap) -> ResultClaim:
    start, end = where.span(r.start, r.end)
    return replace(r, start=start, end=end, metric_span=where.optional(r.metric_span),
                   dataset_span=where.optional(r.dataset_span), method_span=where.optional(r.method_span))


def _relation(r: Relation, where: OffsetMap) -> Relation:
    start, end = where.span(r.start, r.end)
    return replace(r, start=start, end=end, subject_span=where.optional(r.subject_span),
                   object_span=where.optional(r.object_span))


def restore_offsets(extraction: PaperExtraction, where: OffsetMap | None) -> PaperExtraction:
    """``extraction`` (made from the visible text) with every offset moved to the original text."""
    if where is None:
        return extraction
    return replace(
        extraction,
        sentences=[where.span(a, b) for a, b in extraction.sentences],
        mentions=[_mention(m, where) for m in extraction.mentions],
        results=[_result(r, where) for r in extraction.results],
        relations=[_relation(r, where) for r in extraction.relations],
    )
