"""Typed relations between the named things of an abstract, from cue words and the dependency parse.

- ``evaluatedOn`` (method -> dataset): "evaluated on X", "experiments on X and Y", "X achieves ... on Y";
- ``comparesWith`` (method -> baseline): "outperforms X", "compared with X", "surpasses X", "better than X";
- ``extends`` (method -> what it builds on): "X extends Y", "X builds on Y", "X generalizes Y",
  and name variants "Y-PF", "Y++", "Y v2" of a method Y named in the same abstract;
- ``hasComponent`` (system -> module): "X consists of A and B", "X includes A", "comprising A";
- ``appliedTo`` (method -> task or modality): "apply X to T", "X is applied to T", "X for T".

When the subject is "we", "our method" or "this paper", it is what the paper proposes
(``doc._.proposed``). The ``paperkg_relations`` component stores the list on ``doc._.relations``;
it runs after ``paperkg_results`` and turns each result with a method and a dataset into
an ``evaluatedOn`` relation too.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from kg.extract.extensions import register_extensions
from kg.extract.lexicon import (COMPARE_CUES, COMPARE_PREP_CUES, COMPONENT_CUES, CUE_LIST_ENDS, EVALUATE_CUES,
                                EXTEND_CUES, GENERIC_NAMES, SELF_HEADS)
from kg.extract.types import Mention, Relation, ResultClaim

#: Prepositions after an evaluation cue that introduce the datasets.
EVAL_PREPS = frozenset({"on", "across", "using", "over", "with", "in"})

#: Name suffixes that make a variant of a named method: "-PF", "++", " v2", "-XL".
_VARIANT_SUFFIX = re.compile(r"^(?:[\s\-_]?(?:\+\+|\+|[vV]\d+(?:\.\d+)?)|[\-_](?:\d+(?:\.\d+)?|[A-Z]{1,3}|XL|Large|Base"
                             r"|Plus|Pro|Lite|Mini|Small|Tiny|Huge))$")


def is_self(head: Token) -> bool:
    """Is the phrase headed by ``head`` the paper itself or its artifact: "we", "our method", "experiments"?"""
    low, lemma = head.lower_, head.lemma_.lower()
    if low in {"we", "us"} or lemma in {"experiment", "result", "evaluation"}:
        return True
    own = any(c.lower_ in {"our", "this", "proposed"} for c in head.children)
    return lemma in SELF_HEADS and own


def is_named(m: Mention) -> bool:
    """Is the mention a specific, named thing (not a generic phrase such as "heavy architectures")?"""
    if m.text.lower() in GENERIC_NAMES:
        return False
    return m.rule != "phrase" or m.proposed or m.concept is not None


@dataclass(frozen=True)
class Named:
    """A mention with its token span in the doc."""

    start: int
    end: int
    mention: Mention


def _named(doc: Doc, mentions: Iterable[Mention]) -> list[Named]:
    out = []
    for m in mentions:
        span = doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is not None:
            out.append(Named(span.start, span.end, m))
    return sorted(out, key=lambda n: (n.start, -n.end))


def _own(proposed: list[Mention]) -> Mention | None:
    """The paper's proposed method (first one), or None."""
    methods = [p for p in proposed if p.type == "Method"]
    return min(methods, key=lambda p: p.start) if methods else None


def subject_of(doc: Doc, cue: Token, named: list[Named], proposed: list[Mention],
               types: frozenset[str] = frozenset({"Method"}), climb: int = 6,
               deps: frozenset[str] = frozenset({"nsubj", "nsubjpass", "csubj"})) -> Mention | None:
    """What a cue word is said of: the named subject of its clause, or the paper's own method for "we"."""
    tok = cue
    for _ in range(climb):
        subjects = [c for c in tok.children if c.dep_ in deps]
        if tok.dep_ in {"acl", "relcl", "appos"} and tok.head.pos_ in {"NOUN", "PROPN"}:
            subjects.append(tok.head)
        for sub in subjects:
            toks = list(sub.subtree) if sub.i != tok.head.i else [sub]
            lo, hi = toks[0].i, toks[-1].i + 1
            inside = [n for n in named if lo <= n.start and n.end <= hi and n.mention.type in types]
            if inside:
                return inside[0].mention
            if is_self(sub):
                return _own(proposed)
            return None
        if tok.head.i == tok.i or tok.dep_ in {"ROOT"}:
            break
        tok = tok.head
    return None


def objects_after(doc: Doc, start: int, end: int, named: list[Named], types: frozenset[str],
                  window: int = 14) -> list[Named]:
    """Named things of ``types`` listed after token ``start`` ("X, Y and Z"), up to a clause boundary."""
    out: list[Named] = []
    i = start
    limit = min(end, start + window)
    while i < limit:
        tok = doc[i]
        if tok.lower_ in CUE_LIST_ENDS or (tok.pos_ in {"VERB", "AUX"} and tok.tag_ not in {"VBN", "VBG"} and i > start):
            break
        hit = next((n for n in named if n.start == i and n.mention.type in types
                    and (n.mention.type not in {"Method"} or is_named(n.mention))), None)
        if hit is not None:
            out.append(hit)
            i = hit.end
            continue
        i += 1
    return out


def _relation(predicate: str, subject: Mention, obj: Mention, start: int, end: int, rule: str) -> Relation:
    return Relation(start=start, end=end, predicate=predicate, subject=subject.text, subject_type=subject.type,
                    object=obj.text, object_type=obj.type, rule=rule,
                    subject_span=(subject.start, subject.end), object_span=(obj.start, obj.end))


def _span_chars(doc: Doc, a: int, b: int) -> tuple[int, int]:
    return doc[a].idx, doc[b - 1].idx + len(doc[b - 1])


def _next_prep(doc: Doc, i: int, end: int, preps: frozenset[str], gap: int = 3) -> int | None:
    """Index of a preposition of ``preps`` within ``gap`` tokens after ``i``."""
    for j in range(i + 1, min(end, i + 1 + gap)):
        if doc[j].lower_ in preps:
            return j
        if doc[j].lower_ in CUE_LIST_ENDS:
            return None
    return None


def sentence_relations(doc: Doc, sent: Span, named: list[Named], proposed: list[Mention]) -> list[Relation]:
    """The relations one sentence states, by cue word."""
    out: list[Relation] = []
    own = _own(proposed)

    def emit(predicate: str, subject: Mention | None, objs: list[Named], cue: Token, rule: str) -> None:
        if subject is None:
            return
        for o in objs:
            if o.mention.text == subject.text or (o.mention.start, o.mention.end) == (subject.start, subject.end):
                continue
            lo = cue.i
            hi = max(o.end, cue.i + 1)
            if sent.start_char <= subject.start < sent.end_char:
                lo = min(lo, doc.char_span(subject.start, subject.end, alignment_mode="expand").start)
            a, b = _span_chars(doc, lo, hi)
            out.append(_relation(predicate, subject, o.mention, a, b, rule))

    for tok in sent:
        lemma, low = tok.lemma_.lower(), tok.lower_
        # comparesWith: "X outperforms A and B", "surpasses A"
        if lemma in COMPARE_CUES and tok.pos_ in {"VERB", "NOUN", "ADJ"}:
            objs = objects_after(doc, tok.i + 1, sent.end, named, frozenset({"Method"}))
            emit("comparesWith", subject_of(doc, tok, named, proposed) or (own if tok.dep_ != "ROOT" else None),
                 objs, tok, "relation-outperforms")
        # comparesWith: "compared with/to A", "in comparison with A", "against A", "than A", "over A"
        elif lemma in COMPARE_PREP_CUES or (low in {"than"} and tok.i > sent.start
                                             and doc[tok.i - 1].tag_ in {"JJR", "RBR"}):
            j = tok.i
            if lemma in {"compare", "comparison", "compared", "relative"}:
                j = _next_prep(doc, tok.i, sent.end, frozenset({"with", "to", "against"}))
                if j is None:
                    continue
            objs = objects_after(doc, j + 1, sent.end, named, frozenset({"Method"}), window=10)
            subject = subject_of(doc, tok, named, proposed) or own
            emit("comparesWith", subject, objs, tok, "relation-compared")
        elif low == "over" and tok.i > sent.start and doc[tok.i - 1].lemma_.lower() in {
                "improvement", "gain", "advantage", "superiority", "improve", "boost"}:
            objs = objects_after(doc, tok.i + 1, sent.end, named, frozenset({"Method"}), window=6)
            emit("comparesWith", subject_of(doc, tok, named, proposed) or own, objs, tok, "relation-compared")
        # evaluatedOn: "evaluated on A and B", "experiments on A", "results on A"
        if lemma in EVALUATE_CUES:
            j = _next_prep(doc, tok.i, sent.end, EVAL_PREPS, gap=4)
            if j is not None:
                objs = objects_after(doc, j + 1, sent.end, named, frozenset({"Dataset"}), window=16)
                subject = subject_of(doc, tok, named, proposed) or own
                emit("evaluatedOn", subject, objs, tok, "relation-evaluated")
        # extends: "X extends Y", "X builds on Y", "an extension of Y"
        if lemma in EXTEND_CUES:
            if lemma == "build":
                j = _next_prep(doc, tok.i, sent.end, frozenset({"on", "upon"}), gap=2)
                if j is None:
                    continue
                start = j + 1
            elif lemma in {"extension", "generalization", "generalisation", "variant"}:
                j = _next_prep(doc, tok.i, sent.end, frozenset({"of"}), gap=1)
                if j is None:
                    continue
                start = j + 1
            elif lemma in {"improve", "augment", "enhance"}:
                continue  # too often "improves accuracy"; name variants cover "improved Y"
            else:
                if tok.pos_ != "VERB":
                    continue
                start = tok.i + 1
            objs = objects_after(doc, start, sent.end, named, frozenset({"Method"}), window=6)[:1]
            subject = subject_of(doc, tok, named, proposed, deps=frozenset({"nsubj"}))
            if subject is None and lemma in {"extension", "generalization", "generalisation", "variant"}:
                subject = _copular_subject(doc, tok, named, proposed)
            emit("extends", subject, objs, tok, "relation-extends")
        # hasComponent: "X consists of A and B", "X comprises A", "X includes A"
        if lemma in COMPONENT_CUES and tok.pos_ == "VERB":
            start = tok.i + 1
            if lemma in {"consist", "compose"}:
                j = _next_prep(doc, tok.i, sent.end, frozenset({"of"}), gap=1)
                if j is None:
                    continue
                start = j + 1
            subject = subject_of(doc, tok, named, proposed, climb=1, deps=frozenset({"nsubj"}))
            if subject is None and own is not None and tok.dep_ in {"acl", "relcl"}:
                head = tok.head.head if tok.head.dep_ == "appos" else tok.head  # "X, a system comprising A"
                near = [n for n in named if n.start <= head.i < n.end and n.mention.type == "Method"]
                if near and near[0].mention.proposed:
                    subject = near[0].mention
            if subject is None or not (subject.proposed or subject is own or _is_own(subject, proposed)):
                continue
            objs = objects_after(doc, start, sent.end, named, frozenset({"Method"}), window=14)
            emit("hasComponent", subject, objs, tok, "relation-component")
        # appliedTo: "apply X to T", "X is applied to T"
        if lemma in {"apply", "adapt"} and tok.pos_ == "VERB":
            j = _next_prep(doc, tok.i, sent.end, frozenset({"to"}), gap=6)
            if j is None:
                continue
            targets = objects_after(doc, j + 1, sent.end, named, frozenset({"Task", "Modality", "Dataset"}), window=8)
            dobj = [n for n in named if tok.i < n.start < j and n.mention.type == "Method"]
            subject = dobj[0].mention if dobj else subject_of(doc, tok, named, proposed)
            if subject is None and any(t.lower_ in {"it", "our", "we"} for t in doc[tok.i + 1 : j]):
                subject = own
            emit("appliedTo", subject, targets, tok, "relation-applied")
    # appliedTo: "X for T" right after a named method
    for n in named:
        if not (sent.start <= n.start < sent.end) or n.mention.type != "Method" or not is_named(n.mention):
            continue
        if n.end < sent.end and doc[n.end].lower_ == "for":
            targets = objects_after(doc, n.end + 1, min(sent.end, n.end + 5), named, frozenset({"Task", "Modality"}), window=4)
            if targets and targets[0].start <= n.end + 3:
                emit("appliedTo", n.mention, targets[:1], doc[n.end], "relation-for")
    return out


def _is_own(m: Mention, proposed: list[Mention]) -> bool:
    return any((p.start, p.end) == (m.start, m.end) or p.text == m.text for p in proposed)


def _copular_subject(doc: Doc, tok: Token, named: list[Named], proposed: list[Mention]) -> Mention | None:
    """"X is an extension of Y" / "X, a variant of Y": the X."""
    head = tok.head
    if tok.dep_ in {"attr", "appos"}:
        cands = [c for c in head.children if c.dep_ in {"nsubj"}] if tok.dep_ == "attr" else [head]
        for c in cands:
            toks = list(c.subtree) if c.i != head.i else [c]
            inside = [n for n in named if toks[0].i <= n.start and n.end <= toks[-1].i + 1 and n.mention.type == "Method"]
            if inside:
                return inside[0].mention
            if is_self(c):
                return _own(proposed)
    return None


def variant_relations(doc: Doc, named: list[Named]) -> list[Relation]:
    """"Y-PF", "Y++", "Y v2" extends a method Y named in the same abstract."""
    methods = [n for n in named if n.mention.type == "Method" and is_named(n.mention)]
    out: list[Relation] = []
    seen: set[tuple[str, str]] = set()
    for a in methods:
        for b in methods:
            ta, tb = a.mention.text, b.mention.text
            if len(tb) < 2 or len(ta) <= len(tb) or not ta.lower().startswith(tb.lower()):
                continue
            if not _VARIANT_SUFFIX.match(ta[len(tb):]):
                continue
            key = (ta.lower(), tb.lower())
            if key in seen:
                continue
            seen.add(key)
            out.append(_relation("extends", a.mention, b.mention, a.mention.start, a.mention.end, "relation-variant"))
    return out


def result_relations(results: list[ResultClaim], mentions: list[Mention]) -> list[Relation]:
    """"X achieves 52.1 mAP on COCO": X evaluatedOn COCO, for every result with a method and a dataset."""
    by_span = {(m.start, m.end, m.type): m for m in mentions}
    out = []
    for r in results:
        if r.method_span is None or r.dataset_span is None:
            continue
        method, dataset = by_span.get((*r.method_span, "Method")), by_span.get((*r.dataset_span, "Dataset"))
        if method is None or dataset is None:
            continue
        out.append(_relation("evaluatedOn", method, dataset, r.start, r.end, "relation-result"))
    return out


def find_relations(doc: Doc, mentions: list[Mention], proposed: list[Mention],
                   results: list[ResultClaim] | None = None) -> list[Relation]:
    """All relations of ``doc``, without duplicates (one per predicate, subject, object and sentence)."""
    own_spans = {(p.start, p.end): p for p in proposed}
    merged = [own_spans.pop((m.start, m.end), m) for m in mentions] + list(own_spans.values())
    named = _named(doc, merged)
    found: list[Relation] = []
    for sent in doc.sents:
        found += sentence_relations(doc, sent, named, proposed)
    found += variant_relations(doc, named)
    found += result_relations(results or [], merged)
    out, seen = [], set()
    for r in sorted(found, key=lambda r: (r.start, r.end, r.predicate, r.subject, r.object)):
        key = (r.predicate, r.subject_span, r.object_span, r.start)
        if key in seen or r.subject.lower() == r.object.lower():
            continue
        seen.add(key)
        out.append(r)
    return out


class RelationFinder:
    """Sets ``doc._.relations`` (needs ``doc._.mentions``; uses ``doc._.proposed`` and ``doc._.results``)."""

    def __init__(self) -> None:
        register_extensions()

    def __call__(self, doc: Doc) -> Doc:
        proposed = list(doc._.proposed or []) if Doc.has_extension("proposed") else []
        results = list(doc._.results or []) if Doc.has_extension("results") else []
        doc._.relations = find_relations(doc, list(doc._.mentions or []), proposed, results)
        return doc


@Language.factory("paperkg_relations")
def make_relation_finder(nlp: Language, name: str) -> RelationFinder:
    """Factory of the relation-extraction component."""
    return RelationFinder()
