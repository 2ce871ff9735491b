"""Pure helpers that find and type candidate terms in a parsed abstract.

Each helper takes a spaCy ``Doc`` (and what earlier helpers found) and returns
:class:`~kg.extract.types.Mention` records; the ``paperkg_entities`` component combines them.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache

from spacy.tokens import Doc, Span, Token

from kg.extract.abbreviations import Abbreviation
from kg.extract.lexicon import (DATASET_NOUNS, EITHER_HEADS, EVALUATIVE, EXAMPLE_CUES, GENERIC_HEADS,
                                GENERIC_METHOD_TERMS, GENERIC_MODIFIERS, KIND_HEADS, LEARNING_SETTINGS, METHOD_HEADS,
                                METRIC_MODIFIERS, NOT_NAMES, NUMERIC_PRECISION, TASK_HEADS, TECHNICAL_ADJECTIVES,
                                WEAK_DATASET_NOUNS, WEAK_TASK_HEADS)
from kg.extract.tokenizer import LATEX_GROUP
from kg.extract.types import Mention
from kg.keys import clean_label, norm_key

#: Heads a task phrase may have, and heads a method phrase may have (each with the heads of either).
TASK_LIKE = TASK_HEADS | EITHER_HEADS
METHOD_LIKE = METHOD_HEADS | EITHER_HEADS
#: a token that opens a LaTeX group ("\\emph{"): no part of the word it stands before
_LATEX_GROUP = re.compile(LATEX_GROUP[0])

_NAME = re.compile(
    r"^(?=.*[A-Za-z])(?:"
    r"[A-Za-z]*[a-z][A-Z][\w\-+.]*"  # camel case: PaAno, LaBraM, iEEG
    r"|[A-Z][A-Z0-9\-+.&]*[A-Z0-9+][\w\-+]*"  # capitals and digits: BIOT, TSB-AD, GPT-4
    r"|[A-Za-z]+[\-]?\d[\w\-.]*"  # letters then digits: CIFAR10, pi-0, ResNet-50
    r"|[A-Z][a-z]+-(?:Net|Former)s?"  # a word and a model suffix: Nef-Net, U-Net's kin
    r")$"
)


def word_bounds(doc: Doc) -> list[tuple[int, int, str]]:
    """The words of ``doc`` as token bounds and text (no ``Span`` built for each): maximal runs of tokens with
    no whitespace between or in them (spaCy makes a token of a second space, "a remedy,  RTC-VAE", and of a
    newline, "which\\nrectifies"), edge punctuation and a LaTeX command's opening brace excluded
    ("\\emph{ImageNet}" is the word ImageNet); a run ends with its sentence ("ADE20k.We" is a name and the
    next sentence's first word)."""
    toks = list(doc)  # a spaCy Token is built anew at every doc[i]: once each
    text = doc.text
    out = []
    start = 0
    n = len(toks)
    while start < n:
        end = start
        while end < n - 1 and not toks[end].whitespace_ and not toks[end + 1].is_sent_start \
                and not toks[end].is_space and not toks[end + 1].is_space:
            end += 1
        lo, hi = start, end
        while lo <= hi and ((toks[lo].is_punct and toks[lo].text != "+") or toks[lo].is_space
                            or _LATEX_GROUP.fullmatch(toks[lo].text)):
            lo += 1  # a space token is a run of its own, and no word
        while hi >= lo and toks[hi].is_punct and toks[hi].text != "+":
            hi -= 1
        if lo <= hi:
            out.append((lo, hi + 1, text[toks[lo].idx : toks[hi].idx + len(toks[hi])]))
        start = end + 1
    return out


def written_at(text: str, form: str) -> Iterator[int]:
    """Where ``text`` writes ``form`` whole, not inside a longer word or hyphenated compound: the start of
    each occurrence (an empty form: none)."""
    if not form:
        return
    i, n = text.find(form), len(form)
    while i >= 0:
        before, after = text[i - 1 : i], text[i + n : i + n + 1]
        if before[:1].isalnum() or before in {"_", "-"} or after[:1].isalnum() or after in {"_", "-"}:
            i = text.find(form, i + 1)
        else:
            yield i
            i = text.find(form, i + n)


def is_generic_method(text: str) -> bool:
    """Is ``text`` a method name too general to be a node ("neural networks", "deep learning", "policy")?"""
    return norm_key(text) in GENERIC_METHOD_TERMS


@lru_cache(maxsize=1 << 16)  # asked of every word, three times an abstract
def is_name(text: str) -> bool:
    """Does ``text`` look like the name of an artifact (PaAno, BIOT, TSB-AD, CIFAR10)?"""
    text = clean_label(text)
    if text in NOT_NAMES or len(text) < 2 or len(text) > 40:
        return False
    if re.fullmatch(r"[\d.,%x×\-+]+", text) or re.fullmatch(r"\d+[A-Za-z]{0,2}", text):
        return False
    if re.match(r"^(?:19|20)\d\d[a-z]?$", text) or re.match(r"^[vV]\d+(?:\.\d+)*$", text):
        return False
    return bool(_NAME.match(text))


#: words that, after a hyphen, say how a method works rather than which task it solves ("representation-based")
_MANNER_WORDS = frozenset({"based", "driven", "guided", "aware", "free", "agnostic"})
#: hyphenated endings that make an adjective of what comes before ("graph-based", "task-specific", "LM-only")
ADJECTIVE_SUFFIX = re.compile("-(?:" + "|".join(sorted(_MANNER_WORDS | {
    "like", "style", "inspired", "trained", "enhanced", "augmented", "only", "selective", "specific", "dependent",
    "invariant", "equivariant"})) + ")$", re.I)


def _is_acronym(token: Token) -> bool:
    """An upper-case acronym ("OR", "ECD"), whatever the tagger made of it ("OR" is often a conjunction)."""
    return len(token.text) >= 2 and token.text.isupper() and token.text.isalpha()


#: a number with a unit or factor, however the tagger read it: "4.67$\\times$", "10x", "3.5%"
_QUANTITY = re.compile(r"\d[\d.,]*(?:\$?\\times\$?|×|x|%)?")


def _strip_edges(tokens: list[Token]) -> list[Token]:
    while tokens and not _is_acronym(tokens[0]) and (
        _QUANTITY.fullmatch(tokens[0].text)
        or tokens[0].lower_ in GENERIC_MODIFIERS
        or tokens[0].lower_ in EVALUATIVE
        or tokens[0].tag_ in {"JJR", "RBR"} and (len(tokens) < 2 or tokens[1].text != "-")  # "greater control", not "higher-order"
        or tokens[0].pos_ in {"DET", "PRON", "NUM", "ADV", "CCONJ", "PUNCT", "ADP", "PART", "SYM"}
        or tokens[0].tag_ in {"PRP$", "WDT", "-LRB-", "-RRB-"}
    ):
        tokens = tokens[1:]
    while tokens and (tokens[-1].is_punct or tokens[-1].pos_ in {"ADP", "CCONJ", "DET"}):
        tokens = tokens[:-1]
    return tokens


def _phrase_span(doc: Doc, tokens: list[Token]) -> Span | None:
    if not tokens:
        return None
    return doc[tokens[0].i : tokens[-1].i + 1]


def _head_class(token: Token) -> str | None:
    lemma = token.lemma_.lower()
    low = token.lower_
    if lemma in TASK_LIKE or low in TASK_LIKE:
        return "Task"
    if lemma in METHOD_LIKE or low in METHOD_LIKE:
        return "Method"
    return None


def classify_phrase(tokens: list[Token]) -> str | None:
    """Type a cleaned noun phrase by its head noun and modifiers: Task, Method or None."""
    if not tokens:
        return None
    head = tokens[-1]
    cls = _head_class(head)
    mods = [t for t in tokens[:-1] if t.lower_ not in GENERIC_MODIFIERS and not t.is_punct]
    if cls is None:
        return None
    lemma = head.lemma_.lower()
    if lemma == "learning" and mods and any(t.lower_ in LEARNING_SETTINGS for t in mods):
        return "Task"
    if cls == "Task":
        if len(tokens) == 1:
            return None  # "classification", "prediction": too general alone
        if lemma in WEAK_TASK_HEADS and len(mods) < 1:
            return None
        return "Task" if mods or lemma not in WEAK_TASK_HEADS else None
    # Method: generic heads need a specific, non-generic modifier
    if head.lower_ in GENERIC_HEADS or lemma in GENERIC_HEADS:
        specific = [t for t in mods if (t.pos_ in {"NOUN", "PROPN"} or t.lower_ in TECHNICAL_ADJECTIVES
                                        or "-" in t.text or is_name(t.text)) and t.lower_ not in GENERIC_HEADS]
        if not specific:
            return None
    if is_generic_method(" ".join(t.text for t in tokens)):
        return None
    return "Method"


#: Heads naming a part of a model rather than a method: "memory modules", "decoder network"
_PART_HEADS = frozenset({"module", "block", "layer", "unit", "head", "component", "encoder", "decoder", "architecture"})


def _method_core(tokens: list[Token]) -> list[Token] | None:
    """The method a phrase names, without a trailing kind word; None when nothing specific is left."""
    head = tokens[-1]
    if head.lemma_.lower() in _PART_HEADS or (head.lemma_.lower() == "network" and len(tokens) >= 2
                                              and tokens[-2].lemma_.lower() in _PART_HEADS):
        return tokens if any(is_name(t.text) for t in tokens) else None
    if head.lemma_.lower() not in KIND_HEADS:
        return tokens
    core = _strip_edges(tokens[:-1])
    if not core or any(is_name(t.text) for t in core) and len(core) == 1:
        return tokens if core else None
    if len(core) == 1 and core[0].text.islower():
        return None  # "augmentation method", "Bayesian method"
    if classify_phrase(core) != "Method" and not any(t.lower_ in TECHNICAL_ADJECTIVES for t in core):
        return None
    return core


def whole_words(span: Span) -> Span:
    """``span`` widened to whole hyphenated words: "shot generalization" -> "zero-shot generalization"."""
    doc, start, end = span.doc, span.start, span.end
    while start > span.sent.start and not doc[start - 1].whitespace_ and (
            doc[start - 1].text in {"-", "–"} or doc[start].text in {"-", "–"}):
        start -= 1
    return doc[start:end] if start != span.start else span


#: chunk heads that frame the words before them as tasks: "interpolation and classification tasks"
_TASK_FRAMES = frozenset({"task", "problem", "benchmark"})


def _conjuncts(tokens: list[Token]) -> list[list[Token]]:
    """The parts of a coordinated phrase when each part has a noun of its own ("path exploration and
    path smoothing"); the phrase itself otherwise ("fast and efficient detection")."""
    parts: list[list[Token]] = [[]]
    for t in tokens:
        if t.pos_ == "CCONJ" or t.text == ",":
            parts.append([])
        else:
            parts[-1].append(t)
    parts = [_strip_edges(p) for p in parts]
    if len(parts) < 2 or not all(p and p[-1].pos_ in {"NOUN", "PROPN"} for p in parts):
        return [tokens]
    return parts


def framed_tasks(doc: Doc) -> Iterator[Span]:
    """Tasks named before "tasks"/"problems"/"benchmarks", single words included: "interpolation and
    classification tasks", "regression problems", "multi-step forecasting benchmarks"."""
    for chunk in doc.noun_chunks:
        tokens = [t for t in chunk if not t.is_punct or t.text in {"-", "–", ","}]
        if len(tokens) < 2 or tokens[-1].lemma_.lower() not in _TASK_FRAMES:
            continue
        for part in _conjuncts(tokens[:-1]) if len(tokens) > 2 else [_strip_edges(tokens[:-1])]:
            part = _strip_edges(part)
            if not part or part[-1].pos_ not in {"NOUN", "PROPN"} and not part[-1].lower_.endswith("ing"):
                continue
            head = part[-1].lemma_.lower()
            if head in TASK_LIKE and head not in WEAK_TASK_HEADS or len(part) > 1 and classify_phrase(part) == "Task":
                yield whole_words(doc[part[0].i : part[-1].i + 1])


def phrase_candidates(doc: Doc, short_forms: Iterable[str] = ()) -> Iterator[tuple[Span, str]]:
    """Task and method phrases from the parser's noun chunks, cut at their first typed head.

    A chunk right after one of the text's defined ``short_forms`` starts at that short form: the parser
    leaves "OR" out of "OR prediction" when it takes it for a conjunction.
    """
    shorts = frozenset(short_forms)
    for chunk in doc.noun_chunks:
        tokens = list(chunk)
        while tokens[0].i > 0 and doc[tokens[0].i - 1].text in shorts and doc[tokens[0].i - 1].whitespace_:
            tokens.insert(0, doc[tokens[0].i - 1])
        for part in _conjuncts(tokens):
            yield from _chunk_candidates(doc, part)


def _chunk_candidates(doc: Doc, chunk: list[Token]) -> Iterator[tuple[Span, str]]:
    """:func:`phrase_candidates` of one noun chunk (or one conjunct of it)."""
    tokens = _strip_edges(list(chunk))
    if not tokens:
        return
    # look for the rightmost typed head, then shorter prefixes ending in a typed head
    for j in range(len(tokens) - 1, -1, -1):
        sub = _strip_edges(tokens[: j + 1])
        if not sub or sub[-1].pos_ not in {"NOUN", "PROPN", "X", "ADJ", "VERB"}:
            continue
        cls = classify_phrase(sub)
        if cls is None:
            continue
        if j < len(tokens) - 1 and tokens[j + 1].pos_ == "NOUN" and tokens[-1].lower_ not in GENERIC_HEADS:
            # "anomaly detection performance": the sub-phrase is a modifier of a non-generic head
            if cls == "Method" or tokens[-1].lemma_.lower() not in {"method", "model", "framework", "approach", "benchmark", "task"}:
                continue
        if cls == "Method":
            sub = _method_core(sub)
            if sub is None:
                break
        span = _phrase_span(doc, sub)
        if span is not None:
            span = whole_words(span)
            yield span, cls
            break


def unit_after_number(doc: Doc, start: int, text: str) -> bool:
    """Is ``text``, written from token ``start``, a unit after a number ("6 dB", "40 GB", "100 ms", "40  GB"): a
    word of four characters or fewer after a number in digits ("one HALO" is none), however spaced but for a
    line break ("Table 2\nXYZ")?"""
    before = start - 1
    while before >= 0 and doc[before].is_space and "\n" not in doc[before].text:
        before -= 1
    return before >= 0 and doc[before].like_num and any(c.isdigit() for c in doc[before].text) and len(text) <= 4


def name_candidates(doc: Doc) -> Iterator[Span]:
    """Name-like words (PaAno, BIOT, TSB-AD), with a trailing version number (AlphaFold 3, v2)."""
    for start, end, text in word_bounds(doc):
        if "(" in text or ")" in text or "/" in text and len(text) > 12:
            continue
        if not is_name(text) or ADJECTIVE_SUFFIX.search(text):
            continue  # "DGN-based" says how something works; the name is DGN
        if unit_after_number(doc, start, text):
            continue
        if end < len(doc) and re.fullmatch(r"[vV]?\d+(\.\d+)?", doc[end].text) and doc[end].i == end and doc[end - 1].whitespace_:
            end += 1
        yield doc[start:end]


def _word_before(doc: Doc, start: int, floor: int) -> Span | None:
    """The whole word right before token ``start``: the tokens written without a space between them
    ("worst-class", "top-1"), from ``floor`` at the earliest, without an opening bracket or quote glued to
    it; None where there is no such word, or only part of one (a dangling or spaced hyphen)."""
    j = start - 1
    if j < floor or (doc[j].is_punct and doc[j].text != "-"):
        return None
    while j > floor and not doc[j - 1].whitespace_ and (doc[j - 1].text == "-" or not doc[j - 1].is_punct):
        j -= 1
    if doc[j].text == "-" or (j > 0 and doc[j - 1].text == "-" and not doc[j - 1].whitespace_):
        return None  # "- accuracy", or the floor cut a hyphenated word
    return doc[j:start]


def metric_modifiers_start(doc: Doc, start: int, floor: int, alone_stop: frozenset[str] = frozenset(),
                           attached: bool = False) -> int:
    """Where the modifiers that name a different metric ("worst-class", "top-1", "zero-shot", "average")
    begin before token ``start``, at ``floor`` at the earliest (``start`` itself when there are none).

    A modifier is a whole word, taken whole or not at all: "sub-linear" is no "linear". A word of
    ``alone_stop`` stops the extension unless it is hyphenated; with ``attached``, so does a one-token
    word the parser reads as a verb ("we test latency")."""
    while start > floor:
        word = _word_before(doc, start, floor)
        if word is None:
            break
        pieces = [t.lower_ for t in word if t.text != "-"]
        if not (word.text.lower() in METRIC_MODIFIERS or (pieces and all(p in METRIC_MODIFIERS for p in pieces))):
            break
        if len(word) == 1 and (word.text.lower() in alone_stop or (attached and word[0].pos_ in {"VERB", "AUX"})):
            break
        start = word.start
    return start


def extend_metric(doc: Doc, m: Mention) -> Mention:
    """Extend a one-word vocabulary metric over the modifiers that make it a named metric of its own:
    "accuracy" -> "worst-class accuracy", "zero-shot accuracy", never "competitive accuracy", "the best
    accuracy" or "sub-linear regret".

    The extended metric is its own entity (no vocabulary concept): "average accuracy" is not "accuracy".
    """
    if m.type != "Metric" or m.rule != "vocabulary":
        return m
    span = doc.char_span(m.start, m.end, alignment_mode="expand")
    if span is None or len(span) != 1 or not span.text.islower():
        return m
    start = metric_modifiers_start(doc, span.start, span.sent.start, GENERIC_MODIFIERS, attached=True)
    if start == span.start:
        return m
    ext = doc[start : span.end]
    return Mention(ext.start_char, ext.end_char, "Metric", clean_label(ext.text), "metric-phrase")


def specialises_chars(text: str, start: int, end: int, known: Iterable[tuple[int, int]]) -> bool:
    """Does the name ``text`` (characters ``start:end``) strictly contain a known term and add a
    specific word to it ("Lightning Attention", "Stochastic Normalizing Flows"; not "Pretrained
    Language Models", whose extra word is generic)?"""
    if (start, end) in set(known):
        return False
    inner = [(a, b) for a, b in known if start <= a and b <= end]
    if not inner or any(a < end and start < b and not (start <= a and b <= end) for a, b in known):
        return False
    rest = text
    for a, b in sorted(inner, reverse=True):
        rest = rest[: a - start] + " " + rest[b - start :]
    extra = [w.lower() for w in re.findall(r"[A-Za-z][\w-]*", rest)]
    return any(w not in GENERIC_MODIFIERS and w not in GENERIC_HEADS and w not in {"deep", "pretrained", "pre-trained"}
               for w in extra)


def specialises(span: Span, known: Iterable[tuple[int, int]]) -> bool:
    """:func:`specialises_chars` for a span."""
    return specialises_chars(span.text, span.start_char, span.end_char, known)


#: what separates the items of an enumeration ("DINO, SigLIP, MAE", "DINO and MAE")
_LIST_GAP = re.compile(r"\s*(?:,|;|,?\s+(?:and|or))\s+$|^\s*(?:,|;|,?\s+(?:and|or))\s+")


def list_types(mentions: list[Mention], text: str) -> list[Mention]:
    """Type an acronym metric by its enumeration: "encoders (e.g., DINO, SigLIP, MAE)" lists methods, so
    this "MAE" is the masked autoencoder, not the mean absolute error. Needs a method on each side
    it has a neighbour on; the retyped mention loses the metric concept."""
    ordered = sorted(mentions)
    out = []
    for i, m in enumerate(ordered):
        if m.type == "Metric" and m.rule == "vocabulary" and m.text.rstrip("s").isupper():
            before = [k for k in ordered[:i] if k.end <= m.start][-1:]
            after = [k for k in ordered[i + 1 :] if k.start >= m.end][:1]
            neighbours = [k for k in before if _LIST_GAP.fullmatch(text[k.end : m.start])] + \
                         [k for k in after if _LIST_GAP.fullmatch(text[m.end : k.start])]
            if neighbours and all(k.type == "Method" for k in neighbours):
                m = Mention(m.start, m.end, "Method", m.text, "list-context")
        out.append(m)
    return out


def specialised_fields(mentions: list[Mention], labels: Mapping[str, str] | None = None) -> list[Mention]:
    """``mentions`` without the methods that a longer task of the paper specialises: where the paper works
    on "safe RL" or "preference-based reinforcement learning", "reinforcement learning (RL)" is the field
    that task belongs to, not a method it uses. A method is its vocabulary concept (written as a mention's
    text, long form or the concept's label in ``labels``), else its long form or text; every mention of
    it goes, unless the paper proposes it. The task ends with one of those forms, a phrase or a name, after
    a space ("graph self-supervised learning" specialises no "supervised learning", "dataset distillation"
    no "distillation")."""
    def key(m: Mention) -> str:
        return m.concept or (m.long_form or m.text).lower()

    labels = labels or {}
    forms: dict[str, set[str]] = {}
    for m in mentions:
        if m.type == "Method" and not m.proposed:
            label = labels.get(m.concept or "")
            # a phrase or a name; one common word ("distillation", "attention") is too general a form
            forms.setdefault(key(m), set()).update(f.lower() for f in (m.text, m.long_form, label)
                                                   if f and (" " in f.strip() or not f.islower()))
    tasks = {m.text.lower() for m in mentions if m.type == "Task" and " " in m.text.strip()}
    field = {k for k, fs in forms.items() if any(t.endswith(" " + f) for t in tasks for f in fs)}
    return [m for m in mentions if not (m.type == "Method" and not m.proposed and key(m) in field)]


def numeric_precision(doc: Doc, m: Mention) -> bool:
    """Is a "precision" mention the numerical sense ("to arbitrary precision", "mixed precision", "8-bit
    precision") rather than the metric?"""
    if not m.text.lower().endswith("precision"):
        return False
    span = doc.char_span(m.start, m.end, alignment_mode="expand")
    if span is None or span.end < 2:
        return False
    prev = doc[span.end - 2]  # the word before "precision", inside the mention or before it
    return prev.lower_ in NUMERIC_PRECISION or prev.lower_.endswith("-bit") or bool(re.fullmatch(r"(?i)fp\d+|bf16|int\d+", prev.text))


def hyphen_modifier(doc: Doc, m: Mention) -> bool:
    """Is a one-word lower-case mention the second half of a hyphenated modifier ("low-precision quantized
    integers", "a high-accuracy classifier", "no-regret learning")? Such a compound says what kind of thing
    it is, not which quantity is measured."""
    span = doc.char_span(m.start, m.end)
    if span is None or len(span) != 1 or span.start < 2 or not span.text.islower():
        return False
    hyphen, before = doc[span.start - 1], doc[span.start - 2]
    # "micro-F1" and "R-precision" name metrics: the modifier is a lower-case word, and not one that makes a
    # metric's name ("macro-recall", "test-accuracy")
    return (hyphen.text == "-" and not hyphen.whitespace_ and not before.whitespace_ and before.is_alpha
            and before.text.islower() and len(before) > 1 and before.lower_ not in METRIC_MODIFIERS)


def time_of_phase(doc: Doc, m: Mention) -> bool:
    """Is a metric ending in "time" the phase something happens in ("available at training time", "at test
    time"), not the time measured?"""
    span = doc.char_span(m.start, m.end)
    return span is not None and span[-1].lower_ == "time" and span.start > 0 and doc[span.start - 1].lower_ == "at"


def is_heading(m: Mention, text: str) -> bool:
    """Is the mention a run-in heading ("*Accuracy:* experiments on ...", "Efficiency: ...")? A heading
    names a quality the paper claims, not a metric it reports."""
    return re.match(r"[*_]*\s*:", text[m.end : m.end + 4]) is not None and m.text[:1].isupper()


#: adjectives that never make a known method more specific ("pretrained transformer" is a transformer)
_PLAIN_ADJECTIVES = frozenset("pretrained pre-trained large deep vanilla standard foundation visual generalist".split())


def extend_term(doc: Doc, m: Mention) -> Mention:
    """Extend a vocabulary method or task over the modifiers that make it a more specific one:
    "matrix factorisation" -> "semi-nonnegative matrix factorisation", "pruning" -> "layer pruning".

    Taken in: noun compounds, hyphenated words and technical adjectives attached inside the term;
    not generic or evaluative words. The extended term is its own entity (no vocabulary concept).
    """
    acronym_task = m.type == "Task" and m.text.isupper() and len(m.text) <= 4  # "QA" -> "embodied QA"
    if m.type not in {"Method", "Task"} or m.rule != "vocabulary" or not (m.text[:1].islower() or acronym_task) \
            or m.type == "Method" and is_generic_method(m.text):
        return m  # "attention": a generic word is no base for a name ("research attention")
    span = doc.char_span(m.start, m.end, alignment_mode="expand")
    if span is None or span[-1].dep_ == "compound" and span[-1].head.i >= span.end \
            and span[-1].head.lemma_.lower() not in KIND_HEADS:
        return m  # the term modifies a noun after it ("device calibration tuning steps"; not "layer pruning method")
    start = span.start
    while start > span.sent.start:
        prev = doc[start - 1]
        low = prev.lower_
        hyphen_piece = start - 2 >= span.sent.start and doc[start - 2].text == "-" and not doc[start - 2].whitespace_
        ok_word = prev.is_alpha and not prev.is_stop and low not in GENERIC_MODIFIERS and low not in EVALUATIVE \
            and prev.dep_ in {"amod", "compound", "nmod"} and prev.head.i >= span.start
        if ok_word and (prev.pos_ in {"NOUN", "PROPN"} and not prev.text.isupper()
                        or prev.pos_ == "ADJ" and low not in _PLAIN_ADJECTIVES
                        and (low in TECHNICAL_ADJECTIVES or hyphen_piece or low.startswith(("non", "semi", "multi")))):
            start -= 1
        elif prev.text in {"-", "–"} and not prev.whitespace_ and start - 2 >= span.sent.start \
                and not doc[start - 2].whitespace_ and doc[start - 2].is_alpha:
            start -= 1
        else:
            break
    while start < span.start and doc[start].text in {"-", "–"}:
        start += 1
    # a hyphenated word is taken whole or not at all ("mini-batch SGD"; not "scale" of "large-scale")
    while start < span.start and start > span.sent.start and not doc[start - 1].whitespace_:
        word_start = start
        while word_start > span.sent.start and not doc[word_start - 1].whitespace_:
            word_start -= 1
        pieces = [t.lower_ for t in doc[word_start:start] if t.is_alpha]
        if doc[word_start].is_alpha and all(p not in GENERIC_MODIFIERS and p not in _PLAIN_ADJECTIVES for p in pieces):
            start = word_start
        else:
            while start < span.start and not doc[start - 1].whitespace_:
                start += 1
        break
    if start == span.start:
        return m
    ext = doc[start : span.end]
    head = span[-1].lemma_.lower()
    # a technique done to a thing is a task: "layer pruning", "model merging"
    type_name = "Task" if m.type == "Method" and head in TASK_HEADS else m.type
    return Mention(ext.start_char, ext.end_char, type_name, clean_label(ext.text), "term-phrase")


def title_case_terms(doc: Doc) -> Iterator[Span]:
    """Runs of two or more Title-case words inside a sentence ("Random Network Distillation")."""
    toks = list(doc)  # a spaCy Token is built anew at every doc[i]: once each
    i = 0
    n = len(toks)
    while i < n:
        t = toks[i]
        if t.is_sent_start or not (t.is_alpha and t.text[:1].isupper() and not t.is_upper or is_name(t.text)):
            i += 1
            continue
        if toks[i - 1].text in {"-", "–"} and not toks[i - 1].whitespace_:
            i += 1  # the tail of a hyphenated word ("Multi-Time" at a sentence start)
            continue
        j = i
        while j + 1 < n and not toks[j + 1].is_sent_start and (
            (toks[j + 1].is_alpha and toks[j + 1].text[:1].isupper()) or is_name(toks[j + 1].text)
            or (toks[j + 1].text in {"-", "–"} and not toks[j].whitespace_ and j + 2 < n and toks[j + 2].text[:1].isupper())
        ):
            j += 1
        words = [w for w in toks[i : j + 1] if w.is_alpha or is_name(w.text)]
        spaced = any(w.whitespace_ for w in toks[i:j])  # "ImageNet-C" is one word, not a title-case term
        if len(words) >= 2 and spaced and not all(is_name(w.text) for w in words):
            yield doc[i : j + 1]
        i = j + 1


def dataset_context(span: Span) -> bool:
    """Is a name used as a dataset: "the X dataset", "X benchmark", "the X and Y datasets"?"""
    doc = span.doc
    nxt = doc[span.end] if span.end < len(doc) else None
    if nxt is not None and nxt.lemma_.lower() in DATASET_NOUNS:
        return True
    # "X and Y datasets": the name heads into a dataset noun through a conjunction
    head = span.root.head
    hops = 0
    while hops < 3 and head is not None:
        if head.lemma_.lower() in DATASET_NOUNS and head.i > span.start:
            return True
        if head.dep_ == "conj" or span.root.dep_ in {"compound", "conj", "appos", "nmod"}:
            head = head.head if head.head is not head else None
            hops += 1
            continue
        break
    return appositive_dataset(span) or name_suffix_type(span.text) == "Dataset"


def appositive_dataset(span: Span, marks: frozenset[str] = frozenset({","})) -> bool:
    """Does an appositive after the name (after one of ``marks``) say it is a dataset: "X, a human-verified
    dataset with ...", "X: a novel testbed for ..."? The word decides where the parser misreads it
    ("testbed" as a verb)."""
    doc = span.doc
    after = doc[span.end : min(span.sent.end, span.end + 7)]
    if len(after) >= 3 and after[0].text in marks and after[1].lower_ in {"a", "an", "the"}:
        for t in after[2:]:
            modifier = t.dep_ == "compound" or doc[t.i + 1 : t.i + 2].text == "-"  # "the benchmark leader"
            if (t.lemma_.lower() in DATASET_NOUNS or t.lower_ in DATASET_NOUNS) and not modifier:
                return True
            if t.pos_ not in {"ADJ", "NOUN", "PROPN", "PUNCT", "ADV", "NUM"} or t.text == ",":
                break
    return False


def used_as_dataset(span: Span) -> bool:
    """Is a name written as a dataset's: "the X benchmark", "the BringBackShapes (BBS) environment",
    "X: a novel testbed", "X, a dataset of ...", "RoboInter-Data", "benchmarks such as X and Y"
    (:func:`listed_under`)? A field's acronym before a dataset noun names none ("RL benchmarks", "SSL
    datasets"), nor a name before a noun that also names other things unless "the" comes first and no "of"
    follows (not "a Python environment", "the X collection of checkpoints")."""
    doc, i = span.doc, span.end
    if doc[i : i + 1].text == "(" and doc[i + 2 : i + 3].text == ")":
        i += 3  # past its short form: "the BringBackShapes (BBS) environment"
    noun = doc[i] if i < len(doc) and doc[i].pos_ in {"NOUN", "PROPN"} else None  # not "X challenges the view"
    lemma = noun.lemma_.lower() if noun is not None else ""
    if lemma in DATASET_NOUNS and not span.text.replace("-", "").isupper() \
            and (lemma not in WEAK_DATASET_NOUNS or (doc[span.start - 1 : span.start].text.lower() == "the"
                                                      and doc[i + 1 : i + 2].text != "of")):
        return True
    return (appositive_dataset(span, frozenset({",", ":"})) or name_suffix_type(span.text) == "Dataset"
            or listed_under(span) in DATASET_NOUNS - {"challenge"})


def listed_under(span: Span, reach: int = 12) -> str | None:
    """The lemma of the noun a name is listed as an example of (a Hearst pattern): "benchmarks such as TIDIGITS
    and SHD", "datasets including A, B and C", "environments like X", "benchmarks (e.g., A, B)"; None when the
    name is in no such list. The list may hold only names, commas, conjunctions and brackets, and the noun
    stands right before the cue ("Transformers pre-trained on text corpora, such as mBERT": not corpora)."""
    doc, sent = span.doc, span.sent
    i = span.start - 1
    while i >= max(sent.start, span.start - reach):
        tok = doc[i]
        cue = tok.lower_ in EXAMPLE_CUES or (tok.lower_ == "as" and i > sent.start and doc[i - 1].lower_ == "such")
        if cue:
            j = i - (2 if tok.lower_ == "as" else 1)
            if j >= sent.start and doc[j].text == "(":
                j -= 1  # "benchmarks (e.g., A, B)"; after a comma the examples may be of an earlier noun
            return doc[j].lemma_.lower() if j >= sent.start and doc[j].pos_ in {"NOUN", "PROPN"} else None
        if tok.pos_ in {"VERB", "AUX", "ADP", "DET", "PRON", "ADV"}:  # a clause, not a list of names
            return None
        i -= 1
    return None


#: last parts of hyphenated names that say what the name is ("RoboInter-Data", "X-VLA")
_DATA_SUFFIXES = frozenset("data dataset datasets bench benchmark set corpus suite db".split())
_MODEL_SUFFIXES = frozenset("vla vlm lm llm gpt net former agent model".split())


def name_suffix_type(name: str) -> str | None:
    """The type a hyphenated name's last part gives: "RoboInter-Data" a Dataset, "RoboInter-VLA" a Method."""
    if "-" not in name:
        return None
    last = name.rsplit("-", 1)[1].lower()
    return "Dataset" if last in _DATA_SUFFIXES else "Method" if last in _MODEL_SUFFIXES else None


def mention(span: Span, type_name: str, rule: str, **extra: object) -> Mention:
    """A :class:`Mention` of ``span`` typed ``type_name`` by ``rule``."""
    return Mention(
        start=span.start_char,
        end=span.end_char,
        type=type_name,
        text=clean_label(span.text),
        rule=rule,
        **extra,  # type: ignore[arg-type]
    )


def abbreviation_mentions(abbrs: Iterable[Abbreviation], type_of) -> Iterator[Mention]:
    """Mentions of both sides of each abbreviation definition, typed by ``type_of(long_span)``."""
    for a in abbrs:
        t = type_of(a.long)
        if t is None:
            continue
        lf, sf = clean_label(a.long.text), clean_label(a.short.text)
        yield mention(a.long, t, "abbreviation", long_form=lf, short_form=sf)
        yield mention(a.short, t, "abbreviation", long_form=lf, short_form=sf)
