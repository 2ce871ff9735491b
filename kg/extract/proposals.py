"""What a paper itself introduces ("we propose X", "a benchmark called X"), and its short name."""
from __future__ import annotations

import dataclasses
import re

from spacy.tokens import Doc, Span, Token

from kg.extract import terms as T
from kg.extract.lexicon import DATASET_NOUNS, GENERIC_HEADS, NAMING_VERBS, PROPOSE_VERBS
from kg.extract.types import Mention

_SELF = {"we", "paper", "work", "study", "article", "i"}
_METRIC_NOUNS = {"metric", "measure", "score", "criterion", "index"}
_CUT_DEPS = {"relcl", "acl", "advcl", "prep"}


def _is_self_subject(verb: Token) -> bool:
    for child in verb.children:
        if child.dep_ in {"nsubj", "nsubjpass"} and child.lower_ in _SELF | {"paper", "work"}:
            return True
        if child.dep_ in {"nsubj"} and child.lemma_.lower() in {"paper", "work", "study"}:
            return True
        if child.dep_ == "agent" and any(g.lower_ in _SELF for g in child.subtree):
            return True
    # "this paper proposes" via conj: "we ... and propose"
    if verb.dep_ == "conj" and verb.head.pos_ in {"VERB", "AUX"}:
        return _is_self_subject(verb.head)
    if verb.dep_ in {"xcomp", "advcl"} and verb.head.pos_ == "VERB":
        return _is_self_subject(verb.head)
    return False


def _objects(verb: Token) -> list[Token]:
    objs = [c for c in verb.children if c.dep_ in {"dobj", "attr", "oprd", "nsubjpass"}]
    # "propose to use X" -> skip; "we present here X"
    more = []
    for o in objs:
        more += [c for c in o.children if c.dep_ == "conj"]
    return objs + more


def _region(obj: Token) -> list[Token]:
    """Tokens naming the object: the noun phrase, appositions and "called X", not relative clauses."""
    out: list[Token] = []
    stack = [obj]
    while stack:
        t = stack.pop()
        out.append(t)
        for c in t.children:
            if c.dep_ in _CUT_DEPS and c.lower_ not in {"called", "named", "dubbed", "termed", "coined"}:
                if c.dep_ == "acl" and c.lemma_.lower() in NAMING_VERBS:
                    stack.append(c)
                continue
            if c.dep_ in {"conj"} and c.pos_ == "VERB":
                continue
            stack.append(c)
    return sorted(out, key=lambda t: t.i)


def _descriptor_type(tokens: list[Token]) -> str:
    lemmas = {t.lemma_.lower() for t in tokens}
    if lemmas & DATASET_NOUNS:
        return "Dataset"
    if lemmas & _METRIC_NOUNS:
        return "Metric"
    return "Method"


def _capitalised_run(doc: Doc, span: Span) -> Span:
    """Extend a name over adjacent Title-case words: "RoboInter" -> "RoboInter Manipulation Suite"."""
    start, end = span.start, span.end
    while end < len(doc) and doc[end].text[:1].isupper() and doc[end].pos_ in {"PROPN", "NOUN"} and doc[end].is_alpha:
        end += 1
    return doc[start:end]


def find_proposals(doc: Doc, mentions: list[Mention]) -> tuple[list[Mention], str | None]:
    """The mentions of what the paper proposes (typed, ``proposed=True``) and its short name."""
    by_start = {}
    for m in mentions:
        by_start.setdefault(m.start, []).append(m)
    proposed: list[Mention] = []
    seen: set[tuple[int, int]] = set()

    def add(span: Span, type_name: str, descriptor_tokens: list[Token]) -> None:
        if not span.text.strip():
            return
        existing = [m for m in by_start.get(span.start_char, []) if m.end == span.end_char]
        long_form = next((m.long_form for m in existing if m.long_form), None)
        short_form = next((m.short_form for m in existing if m.short_form), None)
        key = (span.start_char, span.end_char)
        if key in seen:
            return
        seen.add(key)
        proposed.append(Mention(span.start_char, span.end_char, type_name, T.clean_label(span.text), "proposal",
                                long_form=long_form, short_form=short_form, proposed=True))

    def names_in(region: list[Token]) -> list[Span]:
        idx = {t.i for t in region}
        spans = []
        for m in mentions:
            span = doc.char_span(m.start, m.end, alignment_mode="expand")
            if span is None or not any(t.i in idx for t in span):
                continue
            if m.rule in {"name", "dataset-name"} or (m.rule == "abbreviation" and m.short_form == m.text):
                spans.append(span)
        # names the recogniser typed as vocabulary or nothing: bare capitalised words
        for t in region:
            if T.is_name(t.text) and not any(s.start <= t.i < s.end for s in spans):
                spans.append(doc[t.i : t.i + 1])
        return sorted(spans, key=lambda s: s.start)

    for sent in doc.sents:
        for tok in sent:
            lemma = tok.lemma_.lower()
            region: list[Token] = []
            if lemma in PROPOSE_VERBS and tok.pos_ == "VERB" and _is_self_subject(tok):
                for obj in _objects(tok):
                    region += _region(obj)
            elif lemma in NAMING_VERBS and tok.dep_ in {"acl", "relcl", "advcl", "conj", "ROOT"} and tok.tag_ == "VBN":
                # "a framework called X" when the framework is the paper's own
                region = [t for t in tok.subtree if t.i > tok.i]
            if not region:
                continue
            names = names_in(region)
            head_tokens = [t for t in region if t.pos_ in {"NOUN", "PROPN"}]
            if names:
                for span in names:
                    span = _capitalised_run(doc, span)
                    nxt = doc[span.end] if span.end < len(doc) else None
                    t = _descriptor_type(head_tokens)
                    if nxt is not None and nxt.lemma_.lower() in DATASET_NOUNS:
                        t = "Dataset"
                    add(span, t, head_tokens)
            else:
                # no name: a specific method phrase ("the augmented permanental process")
                for m in mentions:
                    if m.rule == "phrase" and m.type == "Method" and region and region[0].idx <= m.start < region[-1].idx + len(region[-1]):
                        span = doc.char_span(m.start, m.end, alignment_mode="expand")
                        if span is not None and span.root.lower_ not in GENERIC_HEADS:
                            add(span, "Method", head_tokens)
                        break
    # "X, a novel framework ..." / "X is a new benchmark" at the start of a sentence
    for sent in doc.sents:
        first = T.words(sent.as_doc()) if False else None  # noqa: F841 (kept simple below)
        toks = list(sent)
        if len(toks) > 3 and T.is_name(toks[0].text) and toks[1].text in {",", ":"} and toks[2].lower_ in {"a", "an"}:
            desc = toks[2:8]
            if any(t.lower_ in {"novel", "new", "simple", "unified", "general", "first"} for t in desc):
                add(doc[toks[0].i : toks[0].i + 1], _descriptor_type(desc), desc)
    name = None
    names = [p for p in proposed if T.is_name(p.text) or p.short_form]
    if names:
        first = min(names, key=lambda p: p.start)
        name = first.short_form or first.text
    elif proposed:
        name = proposed[0].text
    return proposed, name


def with_proposed(mentions: list[Mention], proposed: list[Mention]) -> list[Mention]:
    """Mentions with those of proposed artifacts marked (same span) and new ones added."""
    spans = {(p.start, p.end): p for p in proposed}
    out = []
    for m in mentions:
        p = spans.pop((m.start, m.end), None)
        if p is not None:
            out.append(dataclasses.replace(m, proposed=True, type=p.type if m.rule in {"name", "dataset-name"} else m.type))
        else:
            out.append(m)
    out += spans.values()
    return sorted(out)


_URL = re.compile(r"https?://[^\s<>\"'()\[\]{}]+[^\s<>\"'()\[\]{}.,;:!?]")


def code_urls(text: str) -> list[str]:
    """URLs of code or project pages written in the abstract, in order, without duplicates."""
    seen: list[str] = []
    for m in _URL.finditer(text):
        url = m.group(0)
        if url not in seen:
            seen.append(url)
    return seen
