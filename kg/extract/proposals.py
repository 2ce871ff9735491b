"""What a paper itself introduces ("we propose X", "a benchmark called X"), and its short name.

The pure function :func:`find_proposals` reads the sentences where the authors introduce something
(a proposing verb with "we"/"this paper" as subject, or a naming verb: "we term", "called", "dubbed")
and takes the names written in the clause that follows, typed by the noun that describes them
("X, a new benchmark" -> Dataset).
"""
from __future__ import annotations

import dataclasses
import re

from spacy.tokens import Doc, Span, Token

from kg.extract import terms as T
from kg.extract.lexicon import (DATASET_NOUNS, GENERIC_HEADS, GREEK_LETTERS, METRIC_NOUNS, NAMING_VERBS, OWN_NOUNS,
                                PROPOSE_VERBS)
from kg.extract.types import NAMEABLE, Mention
from kg.keys import clean_label

_SELF = {"we", "paper", "work", "study", "article", "i", "authors", "here"}
_STOP_WORDS = {"that", "which", "where", "who", "whose", "while", "whereas", "because", "since", "to", "by", "using", "via", "through"}
_VERSION = re.compile(r"^[vV]\d+(?:\.\d+)*$|^\d+(?:\.\d+)?$|^\+\+$")


def _is_self_trigger(tok: Token) -> bool:
    """Is ``tok`` a proposing/naming verb whose subject is the authors or the paper?"""
    sent = tok.sent
    for child in tok.children:
        if child.dep_ in {"nsubj", "nsubjpass"} and (child.lower_ in _SELF or child.lemma_.lower() in _SELF):
            return True
        if child.dep_ == "agent" and any(g.lower_ in _SELF for g in child.subtree):
            return True
    head = tok
    for _ in range(3):  # "we ... and propose", "we advance X by introducing Y"
        if head.dep_ in {"conj", "xcomp", "advcl", "pcomp", "prep"} and head.head is not head:
            head = head.head
            if any(c.dep_ == "nsubj" and (c.lower_ in _SELF or c.lemma_.lower() in _SELF) for c in head.children):
                return True
        else:
            break
    # surface fallback for parses that miss the subject: "We present X" within four words
    before = [t.lower_ for t in sent.doc[max(sent.start, tok.i - 4) : tok.i]]
    return any(w in {"we", "paper", "work"} for w in before)


def _window(doc: Doc, trigger: Token) -> list[Token]:
    """Tokens of the clause after a trigger: up to a relative clause, a new verb or the sentence end."""
    out: list[Token] = []
    sent_end = trigger.sent.end
    start = trigger.i + 1
    if [t.lower_ for t in doc[start : start + 2]] == ["to", "as"]:
        start += 2  # "referred to as X"
    for t in doc[start : min(sent_end, trigger.i + 30)]:
        if t.text in {".", ";", ":"} or t.lower_ in _STOP_WORDS:
            break
        if t.pos_ == "ADP" and t.lower_ not in {"of", "as"} and out:
            break  # "we propose X for/on/with Y": Y is what X is for, not what is proposed
        if t.pos_ in {"VERB", "AUX"} and t.dep_ in {"conj", "ROOT", "relcl", "ccomp"} and t.tag_ != "VBN":
            break
        out.append(t)
    return out


def _descriptor(doc: Doc, span: Span) -> str | None:
    """The type named by the noun describing ``span``: "X, a new benchmark" / "the X dataset"."""
    nxt = doc[span.end] if span.end < len(doc) else None
    if nxt is not None and nxt.lemma_.lower() in DATASET_NOUNS:
        return "Dataset"
    if nxt is not None and nxt.lemma_.lower() in METRIC_NOUNS:
        return "Metric"
    if nxt is not None and nxt.text in {",", "("}:
        k = span.end + 1
        # skip "a", adjectives, up to the apposition's head noun
        while k < min(len(doc), span.end + 10) and doc[k].pos_ in {"DET", "ADJ", "ADV", "CCONJ", "PUNCT", "NOUN", "PROPN", "VERB"}:
            hyphenated = k + 1 < len(doc) and doc[k + 1].text in {"-", "–"} and not doc[k].whitespace_
            if doc[k].pos_ == "NOUN" and not hyphenated and (k + 1 >= len(doc) or doc[k + 1].pos_ != "NOUN"):
                lemma = doc[k].lemma_.lower()
                return "Dataset" if lemma in {"resource", "dataset", "suite"} else _noun_type(lemma)
            if doc[k].text in {",", ")"} and k > span.end + 1:
                break
            k += 1
    return None


#: A short name in brackets right after a long one: "Reducing Item Discrepancy (RidCDR)".
BRACKETED_NAME = re.compile(r"\s*\(([^()\s]{2,20})\)")


def _name_spans(doc: Doc, tokens: list[Token], mentions: list[Mention]) -> list[Span]:
    """Names among ``tokens``: name-like words, defined short forms, capitalised proper nouns."""
    if not tokens:
        return []
    lo, hi = tokens[0].idx, tokens[-1].idx + len(tokens[-1])
    spans: list[Span] = []
    for m in mentions:
        if not (lo <= m.start < hi) or m.rule == "vocabulary":
            continue
        if m.rule in {"name", "title-case"} or (m.rule.startswith("abbreviation") and m.short_form == m.text):
            span = doc.char_span(m.start, m.end, alignment_mode="expand")
            if span is not None:
                spans.append(span)
    for t in tokens:
        if any(s.start <= t.i < s.end for s in spans):
            continue
        lone_proper = (t.pos_ == "PROPN" and t.text[:1].isupper() and t.i != t.sent.start and t.is_alpha
                       and t.lower_ not in GENERIC_HEADS and not t.is_stop
                       and t.dep_ in {"dobj", "appos", "attr", "oprd", "nsubjpass", "conj"}
                       and not any(c.dep_ == "compound" for c in t.children))
        if T.is_name(t.text) or lone_proper:
            if doc.vocab.strings and t.text in T.NOT_NAMES:
                continue
            spans.append(doc[t.i : t.i + 1])
    return sorted(_extend(doc, s) for s in spans)


def _defined_after(doc: Doc, window: list[Token]) -> list[Span]:
    """Short forms defined in the clause ``window``, or right after it where it was cut short, of long forms
    that start in its object, before an "of": "we propose a decaying momentum (Demon) rule", "we propose a
    novel multi-level generative model for partial label learning (MGPLL)"; not "we present an analysis of
    stochastic gradient descent with momentum (SGDM)", what the work is about."""
    if not window:
        return []
    end = next((t.i for t in window if t.lower_ == "of"), window[-1].i + 1)
    return [a.short for a in doc._.abbreviations or [] if window[0].i <= a.long.start < end]


def _noun_type(lemma: str) -> str:
    """The type of what a noun describes: a dataset noun's Dataset, a metric noun's Metric, else Method."""
    return "Dataset" if lemma in DATASET_NOUNS else "Metric" if lemma in METRIC_NOUNS else "Method"


def _is_variable(word: str) -> bool:
    """Is ``word`` written as a variable: one letter or a Greek letter's name ("i", "k", "beta")?"""
    return len(word) == 1 and word.isalpha() or word.lower() in GREEK_LETTERS


def _glued_word(doc: Doc, start: int, end: int) -> tuple[int, int]:
    """Tokens ``start:end`` widened to the hyphenated name they are part of ("Gen" in "Gen-neG", "OLE" in
    "Meta-OLE"): over hyphens glued on both sides to words that are not lower case ("BERT-based" is no name),
    and to a letter or a Greek letter's name that prefixes a name in capitals ("i-FWER", "beta-LASSO"; not
    "all-MLP")."""
    def part(t: Token) -> bool:
        return t.text.isalnum() and not t.text.islower()

    while start >= 2 and doc[start - 1].text == "-" and not doc[start - 2].whitespace_ and not doc[start - 1].whitespace_ \
            and (part(doc[start - 2]) or _is_variable(doc[start - 2].text) and doc[start].text.isupper()):
        start -= 2
    while end + 1 < len(doc) and doc[end].text == "-" and not doc[end - 1].whitespace_ and not doc[end].whitespace_ \
            and part(doc[end + 1]):
        end += 2
    return start, end


def _extend(doc: Doc, span: Span) -> Span:
    """Extend a name over adjacent Title-case words and a version: "NEF-NET V2", "RoboInter Manipulation Suite"."""
    start, end = _glued_word(doc, span.start, span.end)
    while end < len(doc) and not doc[end - 1].whitespace_ is False and end < len(doc):
        tok = doc[end]
        if tok.is_alpha and tok.text[:1].isupper() and tok.pos_ in {"PROPN", "NOUN"} and doc[end - 1].whitespace_:
            end += 1
        elif tok.text == "-" and not doc[end - 1].whitespace_ and not tok.whitespace_ and end + 1 < len(doc) \
                and doc[end + 1].text[:1].isupper() and doc[end + 1].text.isalnum():
            end += 2  # a hyphenated name: "WocaR" + "-RL"
        elif _VERSION.match(tok.text) and (doc[end - 1].whitespace_ or tok.text == "++"):
            end += 1
        else:
            break
    while start > 0 and doc[start - 1].is_alpha and doc[start - 1].text[:1].isupper() and doc[start - 1].pos_ == "PROPN" \
            and doc[start - 1].whitespace_ and doc[start - 1].i != doc[start - 1].sent.start:
        start -= 1
    return doc[start:end]


def _written_before(doc: Doc, span: Span, sent_start: int) -> bool:
    """Does the name in ``span`` occur before the sentence starting at token ``sent_start``?"""
    text = span.text
    return any(t.text == text or t.text == text.split()[0] and len(text.split()) == 1
               for t in doc[:sent_start]) or text in doc[:sent_start].text.split()


_PRIOR_WORK = re.compile(r"(?i)\b(?:recently|previously|prior|existing|earlier|introduced by|proposed by)\b")
_SELF_WORDS = re.compile(r"(?i)\b(?:we|our|us|this (?:paper|work|study|article))\b")


def _about_prior_work(sent: Span) -> bool:
    """Is the sentence about someone else's work ("X was recently introduced ... (termed Y)")?
    It says so and says nothing of the authors' own."""
    return bool(_PRIOR_WORK.search(sent.text)) and not _SELF_WORDS.search(sent.text)


#: A LaTeX command that opens a group around what it formats: "\\emph{", "\\textbf{".
_LATEX_OPENING = re.compile(r"\\[a-zA-Z]+\{")
#: Words between a naming verb and the mention it names: "termed as X", "referred to as the X".
_BEFORE_NAMED = frozenset({"to", "as", "the", "a", "an"})


def _named_mention(doc: Doc, naming_at: list[int], mentions: list[Mention]) -> Mention | None:
    """The method, dataset or metric mention (no vocabulary concept) that starts right after the first
    naming verb at ``naming_at``, past "to as", an article and a LaTeX command opening there: "a strategy
    named meta-dropout", "termed as X", "referred to as X", "which we call the X algorithm", "named \\emph{X}"."""
    if not naming_at:
        return None
    at = naming_at[0] + 1
    while at < len(doc) and (doc[at].lower_ in _BEFORE_NAMED or _LATEX_OPENING.fullmatch(doc[at].text)):
        at += 1
    if at >= len(doc):
        return None
    start = doc[at].idx
    return next((m for m in mentions if m.start == start and not m.concept and m.type in NAMEABLE), None)


def find_proposals(doc: Doc, mentions: list[Mention]) -> tuple[list[Mention], str | None]:
    """The mentions of what the paper proposes (typed, ``proposed=True``) and its short name."""
    by_span = {(m.start, m.end): m for m in mentions}
    abbr_sf = {(m.long_form or "").lower(): m for m in mentions if m.rule == "abbreviation" and m.short_form == m.text}
    proposed: dict[tuple[int, int], Mention] = {}
    long_forms = [m for m in mentions
                  if m.short_form and " " not in m.short_form and m.long_form == m.text and " " in m.text
                  and not m.concept]

    concept_spans = {(m.start, m.end) for m in mentions if m.concept}
    concept_forms = {m.text for m in mentions if m.concept}

    def known(span: Span) -> bool:
        """Is ``span`` written as a vocabulary concept (at its characters, or anywhere in the abstract)?"""
        return (span.start_char, span.end_char) in concept_spans or clean_label(span.text) in concept_forms

    def add(span: Span, type_name: str) -> None:
        # a name inside a defined long form ("GRAdual" of "GRAdual self-truTHifying (GRATH)") proposes it whole
        span = next((doc.char_span(m.start, m.end) for m in long_forms
                     if m.start <= span.start_char and span.end_char <= m.end), None) or span
        text = clean_label(span.text)
        if not text or text in T.NOT_NAMES or _VERSION.match(text):
            return
        key = (span.start_char, span.end_char)
        if any(k[0] <= key[0] < k[1] or key[0] <= k[0] < key[1] for k in proposed):
            return
        m = by_span.get(key)
        long_form = m.long_form if m else None
        short_form = m.short_form if m else None
        if short_form is None and text.lower() in abbr_sf:  # the long form of a defined abbreviation
            long_form, short_form = text, abbr_sf[text.lower()].short_form
        elif short_form is None and " " in text:
            # "Reducing Item Discrepancy (RidCDR)": a name in brackets right after is its short form
            after = BRACKETED_NAME.match(doc.text, key[1])
            if after and T.is_name(after.group(1)):
                long_form, short_form = text, after.group(1)
        proposed[key] = Mention(key[0], key[1], type_name, text, "proposal",
                                long_form=long_form, short_form=short_form, proposed=True)

    main_type = "Method"
    for tok in doc:
        lemma = tok.lemma_.lower()
        if lemma not in NAMING_VERBS and lemma not in PROPOSE_VERBS:
            continue
        own = _is_self_trigger(tok)  # the authors' verb
        naming = lemma in NAMING_VERBS and (tok.tag_ == "VBN" and not _about_prior_work(tok.sent) or own)
        if not naming and not (lemma in PROPOSE_VERBS and tok.pos_ in {"VERB", "AUX", "ADJ"} and own):
            continue
        window = _window(doc, tok)
        if not window:
            continue
        names = [s for s in _name_spans(doc, window, mentions)
                 + [d for d in _defined_after(doc, window) if not known(d)]
                 if not _written_before(doc, s, tok.sent.start)]
        naming_at = [t.i for t in window if t.lemma_.lower() in NAMING_VERBS and t.tag_ == "VBN"]
        lemmas = {t.lemma_.lower() for t in window}
        window_type = "Dataset" if lemmas & (DATASET_NOUNS | {"resource"}) else "Metric" if lemmas & METRIC_NOUNS else "Method"
        if names:
            for span in names:
                add(span, _descriptor(doc, span) or T.name_suffix_type(span.text) or window_type)
            if not proposed:
                continue
        else:
            # no name: the mention a naming verb introduces ("a strategy named meta-dropout", "called
            # relational graph"; a naming verb alone, "a heuristic called X", is the authors' only with
            # "we": "we call X")
            named_at = ([tok.i] if own else []) if naming else naming_at
            named = _named_mention(doc, named_at, mentions)
            named_span = doc.char_span(named.start, named.end, alignment_mode="expand") if named else None
            if named_span is not None:
                add(named_span, named.type)
        main_type = window_type
    # "our method SeFT", "our framework, X,", "our proposed model (DC-GMM)": the authors' own artifact, named
    # right after "our <noun>", or defined right after "our" ("Our Multi-Relational Poincaré model (MuRP)");
    # never a known concept ("our model (BERT)", "our Convolutional Neural Network (CNN)")
    for tok in doc:
        if tok.lower_ != "our":
            continue
        j = tok.i + 1
        while j < min(len(doc) - 1, tok.i + 3) and (doc[j].pos_ == "ADJ" or doc[j].tag_ in {"VBN", "VBD"}
                                                     or doc[j].lower_ in {"novel", "new"}):
            j += 1
        noun = doc[j].lemma_.lower() if j < len(doc) else ""
        comma = j + 1 < len(doc) and doc[j + 1].text in {",", "("}
        k = j + 1 + comma
        if noun in OWN_NOUNS and k < len(doc) and T.is_name(doc[k].text):
            span = _extend(doc, doc[k : k + 1])
            # "our method, BERT requires ...": a new clause, not the method's name
            new_clause = comma and not (span.end < len(doc) and doc[span.end].text in {",", "(", ")", ";"})
            if not known(span) and not new_clause:
                add(span, _noun_type(noun))
        for a in doc._.abbreviations or []:
            if tok.i < a.long.start <= j and T.is_name(a.short.text) and not known(a.short) and not known(a.long):
                add(a.short, T.name_suffix_type(a.short.text) or _noun_type(a.long[-1].lemma_.lower()))
    # names that extend a proposed name: "RoboInter" -> "RoboInter-VQA", "RoboInter-Data"
    stems = {p.text.split()[0].split("-")[0] for p in proposed.values() if T.is_name(p.text.split()[0])}
    for span in T.name_candidates(doc):
        first = span.text.split("-")[0]
        if first in stems and span.text not in stems and "-" in span.text:
            add(span, _descriptor(doc, span) or T.name_suffix_type(span.text) or main_type)
    out = sorted(proposed.values())
    named = [p for p in out if T.is_name(p.text) or p.short_form or p.text[:1].isupper()]
    name = None
    if named:
        # the first name; of two starting together, the whole one ("WocaR-RL", not "WocaR")
        first = min(named, key=lambda p: (p.start, -p.end))
        name = first.short_form or first.text
    elif out:
        name = out[0].text
    return out, name


def with_proposed(mentions: list[Mention], proposed: list[Mention]) -> list[Mention]:
    """Mentions with those of proposed artifacts marked (same span), the rest of the proposals added.

    Every other mention of a proposed name in the abstract is marked too, so the paper links to what
    it introduces by kg:proposes only.
    """
    spans = {(p.start, p.end): p for p in proposed}
    texts = {p.text: p for p in proposed}
    out = []
    for m in mentions:
        p = spans.pop((m.start, m.end), None) or texts.get(m.text) or (texts.get(m.short_form) if m.short_form else None)
        if p is not None and m.type in {"Method", "Dataset", "Metric", "Task"} and not m.concept:
            # (a vocabulary concept is well known: never what this paper introduces)
            out.append(dataclasses.replace(m, proposed=True, type=p.type, long_form=m.long_form or p.long_form,
                                           short_form=m.short_form or p.short_form))
        else:
            out.append(m)
    covered = [(m.start, m.end) for m in out]
    for p in spans.values():
        out = [m for m in out if not (m.start < p.end and p.start < m.end and m.type == p.type and not m.proposed)]
        out.append(p)
    del covered
    return sorted(set(out))


_URL = re.compile(r"https?://[^\s<>\"'()\[\]{}]+[^\s<>\"'()\[\]{}.,;:!?]")


def code_urls(text: str) -> list[str]:
    """URLs of code or project pages written in the abstract, in order, without duplicates."""
    seen: list[str] = []
    for m in _URL.finditer(text):
        url = m.group(0)
        if url not in seen:
            seen.append(url)
    return seen
