"""Abbreviation detection: "long form (SF)" pairs, after Schwartz & Hearst (2003).

The pure function :func:`find_abbreviations` does the work; the ``paperkg_abbreviations`` factory
stores its result on ``doc._.abbreviations`` so later components can use it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.extensions import register_extensions
from kg.extract.types import Mention

_SHORT_FORM = re.compile(r"^[A-Za-z0-9\u0370-\u03ff][\w\u0370-\u03ff.\-+/&'²³]{0,14}$")
_LEADING_STOP = {"the", "a", "an", "our", "their", "its", "this", "these", "that", "of", "and", "or", "to", "we", "by"}


@dataclass(frozen=True)
class Abbreviation:
    """One definition found in the text: ``long`` is written out, ``short`` is its abbreviation."""

    short: Span
    long: Span


def _is_short_form(text: str) -> bool:
    if not _SHORT_FORM.match(text) or len(text) < 2:
        return False
    if not any(c.isalpha() for c in text):
        return False
    # A short form has an upper-case letter or digit somewhere beyond a plain word ("e.g." fails)
    return any(c.isupper() for c in text[1:]) or (text[0].isupper() and len(text) <= 5) or any(c.isdigit() for c in text)


def _core(short: str) -> str:
    """The letters a long form must spell: plural 's' and punctuation dropped."""
    s = short[:-1] if len(short) > 2 and short.endswith("s") and short[-2].isupper() else short
    return "".join(c for c in s.lower() if c.isalnum())


def match_long_form(short: str, words: list[str]) -> int | None:
    """Schwartz-Hearst matching: index of the first of ``words`` that starts the long form of ``short``.

    ``words`` are the words just before the parenthesis, in order. Characters of the short form
    must appear in order in the long form, and its first character must start a word.
    """
    core = _core(short)
    if not core:
        return None
    text = " ".join(words).lower()
    s_idx = len(core) - 1
    l_idx = len(text) - 1
    while s_idx >= 0:
        c = core[s_idx]
        while l_idx >= 0 and (text[l_idx] != c or (s_idx == 0 and l_idx > 0 and text[l_idx - 1].isalnum())):
            l_idx -= 1
        if l_idx < 0:
            return None
        s_idx -= 1
        l_idx -= 1
    start_char = l_idx + 1
    # which word contains start_char
    pos = 0
    for i, w in enumerate(words):
        if pos <= start_char < pos + len(w) + 1:
            return i
        pos += len(w) + 1
    return None


#: LaTeX between a long form and its bracket: a tie, which is a space ("Dynamic Gated Neuron~(DGN)"), and the end
#: of a group ("$\\textit{crystal structure prediction}$ (CSP)")
_LATEX_BEFORE_BRACKET = frozenset({"~", "}", "$", "}$"})


def find_abbreviations(doc: Doc) -> list[Abbreviation]:
    """All "long form (SF)" definitions in ``doc``, in text order."""
    out: list[Abbreviation] = []
    for open_tok in doc:
        if open_tok.text != "(" or open_tok.i == 0:
            continue
        close = next((t.i for t in doc[open_tok.i + 1 : open_tok.i + 6] if t.text in {")", ";", ","}), None)
        if close is None or close == open_tok.i + 1:
            continue
        short = doc[open_tok.i + 1 : close]
        short_text = short.text.replace(" ", "")
        if not _is_short_form(short_text):
            continue
        sent_start = open_tok.sent.start
        n_max = min(len(_core(short_text)) + 5, 2 * len(_core(short_text)) + 1)
        lo = open_tok.i
        while lo - 1 > sent_start and doc[lo - 1].text in _LATEX_BEFORE_BRACKET:
            lo -= 1
        words: list = []
        n_words = 0
        while lo > sent_start:
            prev = doc[lo - 1]
            if prev.text in {"(", ")", ";", ":", ".", ","} or prev.text in {"[", "]"}:
                break
            if prev.whitespace_ or not words:
                n_words += 1
                if n_words > n_max:
                    break
            lo -= 1
            words.insert(0, prev)
        if not words:
            continue
        # hyphenated tokens count as separate words for matching but map back to tokens
        idx = match_long_form(short_text, [w.text for w in words])
        if idx is None:
            continue
        long_tokens = words[idx:]
        while long_tokens and long_tokens[0].lower_ in _LEADING_STOP:
            long_tokens = long_tokens[1:]
        if not long_tokens or len(long_tokens) < 1:
            continue
        long = doc[long_tokens[0].i : long_tokens[-1].i + 1]
        if long.text.lower() == short.text.lower() or len(long.text) <= len(short_text):
            continue
        out.append(Abbreviation(short=short, long=long))
    return out


def find_trailing_long_forms(doc: Doc) -> list[Abbreviation]:
    """The other order, "SF (long form)": "PATE (Private Aggregation of Teacher Ensembles)".

    The bracket holds two to ten words and nothing else (no comma, no citation); the short form is
    the word right before it, and its letters must be spelt by the bracket from its first word on.
    """
    out: list[Abbreviation] = []
    for open_tok in doc:
        if open_tok.text != "(" or open_tok.i == 0 or not doc[open_tok.i - 1].whitespace_:
            continue
        close = next((t.i for t in doc[open_tok.i + 1 : open_tok.i + 13] if t.text in {")", "(", ";", ",", "."}), None)
        if close is None or doc[close].text != ")":
            continue
        inner = [t for t in doc[open_tok.i + 1 : close]]
        words = inner[0].doc[inner[0].i : close].text.split() if inner else []
        if not 2 <= len(words) <= 10 or any(t.like_num or t.lower_ in {"et", "al", "e.g.", "i.e.", "see"} for t in inner) \
                or not inner[0].is_alpha:
            continue
        lo = open_tok.i - 1
        while lo > open_tok.sent.start and not doc[lo - 1].whitespace_ and doc[lo - 1].text not in {"(", ")", "\"", "'"}:
            lo -= 1
        short = doc[lo : open_tok.i]
        short_text = short.text
        if not _is_short_form(short_text) or short_text.lower()[0] != words[0][0].lower():
            continue
        if match_long_form(short_text, words) != 0:
            continue
        out.append(Abbreviation(short=short, long=doc[open_tok.i + 1 : close]))
    return out


@Language.factory("paperkg_abbreviations")
def make_abbreviation_detector(nlp: Language, name: str) -> "AbbreviationDetector":
    """Factory of the abbreviation-detection component."""
    return AbbreviationDetector()


class AbbreviationDetector:
    """Sets ``doc._.abbreviations`` to the list of :class:`Abbreviation` found."""

    def __init__(self) -> None:
        register_extensions()

    def __call__(self, doc: Doc) -> Doc:
        doc._.abbreviations = sorted(find_abbreviations(doc) + find_trailing_long_forms(doc),
                                     key=lambda a: (a.long.start_char, a.short.start_char))
        return doc


def paired_mentions(mentions: list[Mention], abbrs: list[Abbreviation]) -> list[Mention]:
    """``mentions`` with the definitions no rule typed paired: where one type's mentions stand on both sides
    of "long form (SF)" without forms of their own ("a decaying momentum (Demon) rule", both found by the
    tagger), both, and the other mentions of that type written as the short form (uses, before or after the
    definition), carry the long and short forms."""
    at = {(m.start, m.end, m.type): m for m in mentions if not (m.long_form or m.short_form or m.concept)}
    kinds = sorted({m.type for m in mentions})
    forms: dict[tuple[int, int, str], tuple[str, str]] = {}
    uses: dict[tuple[str, str], tuple[str, str]] = {}
    for a in abbrs:
        for kind in kinds:
            long, short = (a.long.start_char, a.long.end_char, kind), (a.short.start_char, a.short.end_char, kind)
            if long in at and short in at:
                pair = (at[long].text, at[short].text)
                forms[long] = forms[short] = pair
                uses.setdefault((pair[1], kind), pair)
    if not forms:
        return mentions
    out = []
    for m in mentions:
        pair = forms.get((m.start, m.end, m.type))
        if pair is None and not (m.long_form or m.short_form or m.concept):
            pair = uses.get((m.text, m.type))
        out.append(m if pair is None else replace(m, long_form=pair[0], short_form=pair[1]))
    return out
