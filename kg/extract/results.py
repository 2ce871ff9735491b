"""Quantitative results: numbers an abstract reports for a metric ("an F1 score of 0.847 on X").

The pure helpers find number expressions (:func:`find_quantities`), metric names
(:func:`metric_spans`) and tie each number to the metric it measures (:func:`find_results`):

- number before the metric: "52.1 mAP", "47% average accuracy", "7% higher accuracy",
  "11% improvement in Cohen's kappa", "a 1,000-fold speed-up";
- metric before the number: "FIDs of 1.18", "an F1 score of up to 0.847", "accuracy is 47%",
  "improves accuracy on X by 7%", "relative pass@1 improvements of 35%";
- coordinated numbers share their neighbour's metric: "1.18 @256 resolution and 1.13 @512";
- a change states the value reached: "reduces the error from 1.17% to 0.69%" claims 0.69%;
- a range is one value: "98-100% AUC-ROC", "a 2-3x speed-up", "by 38% ~ 61%";
- ratios of speed: "4x faster", "2.5 times faster" (the speed-up metric, where no metric follows: "15% faster
  training throughput" is a claim of training throughput);
- a value set apart from its metric takes the nearest metric before it in its clause: alone in brackets after
  its dataset ("accuracies ... on SVHN (95.1%), STL-10 (80.2%)"), after "by" ("reduces the estimation error of
  atomic forces by 30%"), or the value a change reaches ("the accuracy on X of a model from 70.6% to 74.9%").

A claim needs both a metric and a number tied to it by one of these patterns; years, citations,
enumerations, names with digits ("ResNet-50", "7B"), counts of things ("571 scenes") and the digits of a
formula ("$O(\\sqrt{T})$") are not numbers of a claim. The ``paperkg_results`` component stores the claims
on ``doc._.results``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.extensions import register_extensions
from kg.extract.lexicon import (AUTHOR_WORDS, BY_FILLERS, CHANGE_NOUNS, CLAUSE_WORDS, FILL_AFTER, FILL_BEFORE,
                                FROM_FILLERS)
from kg.extract.terms import metric_modifiers_start
from kg.extract.types import Mention, ResultClaim
from kg.extract.vocab import METRIC_PLURAL, VOCABULARY_SPANS, Vocabulary, load_vocabulary

#: A number with an optional sign and unit; not part of a name ("ResNet-50", "pass@1", "7B", "@256").
_QUANTITY = re.compile(
    r"(?:(?<![\w.@^/\\\-−+'’])|(?<=%/))(?<!\^\{)"
    r"(?P<sign>[+\-−±](?=\d))?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"\}?\$?(?P<unit>\s?\\?%|\s?(?:-\s?|\s)?fold\b|\s?[x×](?![\w])|\s?\$?\\times\b|\s(?:times)\b"
    r"|\s?(?:pp|dB|ms)\b|\s(?:percentage\s+points?|percent|points?|pts|seconds|hours|minutes)\b)?\$?"
    r"(?:(?<=\d)(?![\w@^%$}/]|[.,]\d|\s?[x×]\s?\d|-\w)|(?<!\d))"
)

#: What joins the two ends of a range: a dash, a tilde ("~", "∼", "～") or LaTeX's "\\sim" (also as "$\\sim$").
RANGE_JOIN = r"(?:[-–−~∼～]|\$?\\sim\$?)"

#: A range ("98-100%", "1.0% − 1.4%", "9-16$\\%$", "2-3x", "2-4 times", "71.1% ~ 96.35%", "38\\% \\sim 61\\%"): one
#: value, read as its first number; its upper bound is the larger ("92.1% – 3.2% higher" is two numbers and a dash),
#: and "2-3 x 10^4" no ratio.
_RANGE = re.compile(
    r"(?<![\w.@^/\\\-−+'’])(?P<num>\d+(?:\.\d+)?)(?:\s?\\?%)?\s?" + RANGE_JOIN + r"\s?(?P<upper>\d+(?:\.\d+)?)"
    r"\s?\$?(?P<unit>\\?%|\s?percent\b|[x×](?!\w|\s?\d)|\\times\b|\s(?:times|fold)\b|-fold\b)\$?"
)

#: unit as written (lower case, spaces dropped) -> unit kind of kg:unit
UNIT_KINDS: dict[str, str] = {
    "%": "percent", "\\%": "percent", "percent": "percent", "pp": "points", "percentagepoint": "points",
    "percentagepoints": "points", "point": "points", "points": "points", "pts": "points", "x": "ratio", "×": "ratio",
    "fold": "ratio", "-fold": "ratio", "times": "ratio", "\\times": "ratio", "$\\times": "ratio", "db": "dB",
    "ms": "ms", "seconds": "s", "hours": "h", "minutes": "min",
}

#: What makes a bare number a ratio when it ends the text before it: "by a factor of 12", "a factor of up to $4".
_FACTOR_OF = re.compile(r"\bfactor of\s*(?:about\s+|up to\s+)?\$?$")

#: Words that join two numbers of one claim ("1.18 and 1.13", "from 70% to 75%").
COORDINATORS = frozenset({"and", ",", "to", "or", "vs", "vs.", "versus", "/"})

#: Prepositions that introduce the dataset of a claim ("on ImageNet", "for CIFAR10").
DATASET_PREPS = frozenset({"on", "in", "for", "across", "over", "at"})

#: Words after a ratio that make it a speed-up ("4x faster").
SPEED_WORDS = frozenset({"faster", "quicker", "speedup", "speed-up", "acceleration", "speedups"})


@dataclass(frozen=True)
class Quantity:
    """A number as written: tokens ``start:end`` of the doc, its value text, number and unit kind."""

    start: int
    end: int
    value: str
    numeric: float
    unit: str


@dataclass(frozen=True)
class MetricSpan:
    """A metric named in the text: tokens ``start:end``, the name as written and its concept, if any."""

    start: int
    end: int
    text: str
    concept: str | None = None


def _to_float(sign: str | None, num: str) -> float:
    value = float(num.replace(",", ""))
    return -value if sign in {"-", "−"} else value


def _is_citation_or_enumeration(text: str, start: int, end: int, unit: str = "absolute") -> bool:
    """A citation ("[12]") or, for a bare number, an enumeration ("(3)"); "(96.4%)" is a value."""
    before, after = text[:start], text[end:]
    if re.search(r"\[[\d,;\s\-–]*$", before) and re.match(r"^[\d,;\s\-–]*\]", after):
        return True
    return unit == "absolute" and bool(re.search(r"\(\s*$", before) and re.match(r"^\s*\)", after))


#: Inline math: "$...$" (no dollar inside).
_MATH = re.compile(r"\$[^$]+\$")
#: What a number's own math may hold besides it: "$15.76$", "$58.61\\%$", "$\\times 200$", "$20\\% \\sim 45\\%$",
#: "$86.6\\%(\\pm0.6)$".
_NUMBER_MATH = re.compile(r"(?:[\s\d.,+\-−±~{}()%]|\\+(?:%|times|sim|approx|pm|mathbf|textbf|bm|mathrm|text|,))*")


def _formulas(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The character ranges of the inline formulas of ``text[start:end]``: math that holds more than a number
    ("$O(\\sqrt{T}(1+P_T))$", "$n^{-1/2}$"), whose digits are no values."""
    return [(m.start(), m.end()) for m in _MATH.finditer(text, start, end)
            if not _NUMBER_MATH.fullmatch(m.group(0)[1:-1])]


def find_quantities(doc: Doc, span: Span | None = None, text: str | None = None) -> list[Quantity]:
    """Numbers of ``span`` (default: the whole doc) that could be a result value, in text order (``text``:
    the doc's text, when the caller has it: spaCy builds it anew at every access)."""
    span = span if span is not None else doc[:]
    text = doc.text if text is None else text
    out: list[Quantity] = []
    offset = span.start_char
    ranges = [r for r in _RANGE.finditer(span.text) if float(r.group("upper")) > float(r.group("num"))]
    matches = ranges + [m for m in _QUANTITY.finditer(span.text)
                        if not any(r.start() < m.end() and m.start() < r.end() for r in ranges)]
    formulas = _formulas(text, span.start_char, span.end_char) if "$" in span.text else []
    for m in sorted(matches, key=lambda m: m.start()):
        a, b = offset + m.start(), offset + m.end()
        if any(f0 < a and b <= f1 for f0, f1 in formulas):
            continue
        num, unit_text = m.group("num"), (m.group("unit") or "")
        unit = UNIT_KINDS.get(re.sub(r"\s+", "", unit_text).lower().lstrip("-") or "", "absolute") if unit_text else "absolute"
        if unit_text.strip().lower().startswith("-fold") or unit_text.strip().lower() == "fold" \
                or not unit_text and _FACTOR_OF.search(text[max(0, a - 40):a]):
            unit = "ratio"  # "a 250-fold speed-up", "by a factor of 12"
        if _is_citation_or_enumeration(text, a, b, unit):
            continue
        if not unit_text and "." not in num and "," not in num and re.fullmatch(r"(?:1[89]|20)\d\d", num):
            continue  # a year
        tokens = doc.char_span(a, b, alignment_mode="expand")
        if tokens is None:
            continue
        value = text[a:b].replace("\\%", "%").replace("\\times", "×").replace("\\sim", "~").replace("$", "") \
            .replace("}", "").strip()
        out.append(Quantity(tokens.start, tokens.end, value, _to_float(m.groupdict().get("sign"), num), unit))
    return out


def metric_hits(doc: Doc, vocabulary: Vocabulary) -> list[tuple[str, int, int]]:
    """``(concept, start token, end token)`` of every written form of a vocabulary metric in ``doc``, plurals
    included (the spans of the vocabulary's span rulers)."""
    out = []
    for span in doc.spans.get(VOCABULARY_SPANS, ()):
        if span.label_ in ("Metric", METRIC_PLURAL):
            term = vocabulary.term(span.id_)
            if not term.cue:
                out.append((term.concept, span.start, span.end))
    return out


def metric_spans(doc: Doc, hits: list[tuple[str, int, int]], mentions: list[Mention]) -> list[MetricSpan]:
    """Metric names in ``doc``: vocabulary hits and Metric mentions, longest first on overlap, modifiers kept."""
    cands: list[MetricSpan] = []
    for concept, s, e in hits:
        cands.append(MetricSpan(s, e, doc[s:e].text, concept))
    for m in mentions:
        if m.type != "Metric":
            continue
        span = doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is not None:
            cands.append(MetricSpan(span.start, span.end, span.text, m.concept))
    kept: list[MetricSpan] = []
    for c in sorted(cands, key=lambda c: (-(c.end - c.start), c.start, c.concept is None)):
        if any(c.start < k.end and k.start < c.end for k in kept):
            continue
        kept.append(c)
    out = []
    for k in sorted(kept, key=lambda k: k.start):
        floor = max((o.end for o in out), default=doc[k.start].sent.start)
        s = metric_modifiers_start(doc, k.start, floor)
        text = doc[s : k.end].text if s < k.start else k.text
        out.append(MetricSpan(s, k.end, text, k.concept))
    return out


#: A number (or a range) alone in its math, with its closing dollar: "15.76$", "58.61\\%$", "38\\% \\sim 61\\%$"
#: (not "1-\\epsilon$").
_OWN_MATH = re.compile(r"[+\-−±]?\d[\d.,]*\s*(?:\\?%)?(?:\s*" + RANGE_JOIN + r"\s*\d[\d.,]*\s*(?:\\?%)?)?\$?")


def _in_own_math(doc: Doc, q: Quantity, sent: Span) -> bool:
    """Is the number alone in its own math, "$15.76$" (so that the opening dollar may stand between it and
    its metric: "a perplexity of $15.76$"), rather than a digit of a formula ("$1-\\epsilon$")?"""
    if q.start <= sent.start or doc[q.start - 1].text != "$":
        return False
    written = doc[q.start:q.end].text.rstrip(".,;:")  # "$20\\%$." closes a sentence
    closed = written.endswith("$") or (q.end < len(doc) and doc[q.end].text.startswith("$"))
    return closed and _OWN_MATH.fullmatch(written) is not None


def _is_count(doc: Doc, q: Quantity, metric_starts: set[int]) -> bool:
    """Is the number a count of things ("571 scenes", "8 layers"), not a value?"""
    if q.unit != "absolute" or q.end >= len(doc):
        return False
    nxt = doc[q.end]
    if q.end in metric_starts:
        return False
    if nxt.text.startswith("@"):
        return False
    return nxt.is_alpha and nxt.pos_ in {"NOUN", "PROPN", "ADJ", "NUM"} and nxt.lower_ not in FILL_AFTER


def _only(doc: Doc, start: int, end: int, allowed: frozenset[str], skip: list[tuple[int, int]]) -> bool:
    i = start
    while i < end:
        block = next((b for b in skip if b[0] == i), None)
        if block is not None:
            i = block[1]
            continue
        tok = doc[i]
        if tok.lower_ not in allowed and tok.lemma_.lower() not in allowed:
            return False
        i += 1
    return True


#: Words that may stand between two coordinated numbers besides "on X" and "@256 resolution".
JOINERS = COORDINATORS | DATASET_PREPS | frozenset({"the", "a", "respectively", "up", "about", "around",
                                                    "nearly", "(", ")", "~", "and", "$", "with", "from"})


def _only_joiners(doc: Doc, start: int, end: int, blocks: list[tuple[int, int]]) -> bool:
    """Do tokens ``start:end`` only join two numbers ("on APPS and", "@256 resolution and")?"""
    i = start
    while i < end:
        block = next((b for b in blocks if b[0] == i), None)
        if block is not None:
            i = block[1]
            continue
        tok = doc[i]
        if tok.text.startswith("@"):
            i += 2 if i + 1 < end and doc[i + 1].pos_ == "NOUN" else 1
            continue
        if tok.lower_ not in JOINERS:
            return False
        i += 1
    return True


def _word_before(doc: Doc, start: int, floor: int, fillers: frozenset[str]) -> int:
    """The index of the first token before ``start``, back to ``floor``, that is not one of ``fillers``
    (``floor - 1`` when there is none)."""
    i = start - 1
    while i >= floor and doc[i].lower_ in fillers:
        i -= 1
    return i


def _after_from(doc: Doc, start: int, floor: int) -> bool:
    """Does the number at token ``start`` follow "from" ("from about 70% to 75%", "from the 10% split"), so
    that it is where a change starts or what something is drawn from, never a claim?"""
    i = _word_before(doc, start, floor, FROM_FILLERS)
    return i >= floor and doc[i].lower_ == "from"


#: The tags of a finite verb, which opens a clause of its own (as do :data:`CLAUSE_WORDS`).
_FINITE_TAGS = frozenset({"VBZ", "VBD", "VBP", "MD"})


def _set_apart(doc: Doc, q: Quantity, quantities: list[Quantity], sent: Span) -> int | None:
    """Where the words that set a value apart from its metric start, when they do: a value alone in brackets
    after what it was measured on ("on MNIST (99.4%)": the bracket), the size of a change ("the estimation
    error of atomic forces by 30%": the "by") or the value a change reaches ("of the baseline from 6.8% to
    1.5%": the "from"); None for any other value."""
    if sent.start < q.start and q.end < sent.end and doc[q.start - 1].text == "(" and doc[q.end].text == ")" \
            and not q.value.startswith("±") and (q.unit in {"percent", "points"} or "." in q.value):
        return q.start - 1
    i = _word_before(doc, q.start, sent.start, BY_FILLERS)
    if i >= sent.start and doc[i].lower_ == "by":
        return i
    left = next((p for p in quantities if p.end == q.start - 1), None)
    if left is None or doc[q.start - 1].lower_ != "to" or not _after_from(doc, left.start, sent.start):
        return None
    return _word_before(doc, left.start, sent.start, FROM_FILLERS)


def _governing_metric(doc: Doc, q: Quantity, quantities: list[Quantity], metrics: list[MetricSpan], sent: Span,
                      reach: int = 20) -> MetricSpan | None:
    """The metric a value set apart from it (:func:`_set_apart`) still measures: the nearest one before it in
    the same clause ("state-of-the-art accuracy on the MNIST digit recognition (99.4%)", "improves the
    accuracy on CIFAR10 of an established model from 70.64% to 74.87%")."""
    start = _set_apart(doc, q, quantities, sent)
    if start is None:
        return None
    before = [m for m in metrics if m.end <= start and start - m.end <= reach]
    if not before:
        return None
    metric = before[-1]
    if doc[start].text == "(" and any(0 < o.start < metric.start and doc[o.start - 1].text == "("
                                      for o in quantities):
        return None  # a list of things each with its value, the metric one of them: "X (+8%), faithfulness (+16%)"
    for tok in doc[metric.end:start]:
        if tok.tag_ in _FINITE_TAGS or tok.lower_ in CLAUSE_WORDS:
            return None
    return metric


def _dataset_blocks(doc: Doc, datasets: list[tuple[int, int, Mention]]) -> list[tuple[int, int]]:
    """Token ranges "on [the] X [benchmark]" that a claim may step over."""
    out = []
    for s, e, _m in datasets:
        i = s
        while i > 0 and doc[i - 1].lower_ in {"the", "a"}:
            i -= 1
        if i > 0 and doc[i - 1].lower_ in DATASET_PREPS:
            j = e
            while j < len(doc) and doc[j].lemma_.lower() in {"dataset", "benchmark", "test", "set", "split"}:
                j += 1
            out.append((i - 1, j))
    return out


def _dataset_after(doc: Doc, anchor: int, limit: int, datasets: list[tuple[int, int, Mention]]) -> Mention | None:
    """The dataset named right after a claim ending at token ``anchor``: "... on X", "... for X"."""
    for s, _e, m in datasets:
        if anchor <= s < min(limit, anchor + 5):
            between = doc[anchor:s]
            if any(t.lower_ in DATASET_PREPS for t in between) and not any(t.pos_ == "VERB" for t in between):
                return m
    return None


def _dataset_before_bracket(doc: Doc, q: Quantity, datasets: list[tuple[int, int, Mention]]) -> Mention | None:
    """The dataset a value in brackets stands right after: "SVHN (95.1%)"."""
    if q.start < 1 or doc[q.start - 1].text != "(":
        return None
    return next((m for _s, e, m in datasets if e == q.start - 1), None)


def _dataset_of_sentence(doc: Doc, sent: Span, datasets: list[tuple[int, int, Mention]],
                         taken: set[tuple[int, int]]) -> Mention | None:
    """The one dataset a sentence is about ("On X, where the accuracy is 47%"), unless another claim has it."""
    in_sent = [m for s, _e, m in datasets if sent.start <= s < sent.end
               and s > sent.start and doc[s - 1].lower_ in DATASET_PREPS | {"the"}]
    if len({m.text for m in in_sent}) == 1 and (in_sent[0].start, in_sent[0].end) not in taken:
        return in_sent[0]
    return None


def _method_of(doc: Doc, tok_i: int, methods: list[tuple[int, int, Mention]], proposed: list[Mention]) -> Mention | None:
    """The method a claim is made for: the subject of a verb governing the number, or "we" -> the proposed one."""
    tok = doc[tok_i]
    seen = 0
    while seen < 8:
        for child in tok.children:
            if child.dep_ in {"nsubj", "nsubjpass"}:
                sub = list(child.subtree)
                lo, hi = sub[0].i, sub[-1].i + 1
                for s, e, m in methods:
                    if lo <= s and e <= hi:
                        return m
                if any(t.lower_ in AUTHOR_WORDS for t in sub):  # "our method achieves ..."
                    own = [p for p in proposed if p.type == "Method"]
                    return own[0] if own else None
                return None
        if tok.head.i == tok.i:
            break
        tok = tok.head
        seen += 1
    return None


def _spans_of(doc: Doc, mentions: list[Mention], type_name: str) -> list[tuple[int, int, Mention]]:
    out = []
    for m in mentions:
        if m.type == type_name:
            span = doc.char_span(m.start, m.end, alignment_mode="expand")
            if span is not None:
                out.append((span.start, span.end, m))
    return sorted(out, key=lambda x: x[0])


def find_results(doc: Doc, hits: list[tuple[str, int, int]], mentions: list[Mention],
                 proposed: list[Mention] | None = None) -> list[ResultClaim]:
    """The quantitative claims of ``doc``, given metric vocabulary ``hits`` and the entity ``mentions``."""
    proposed = proposed or []
    metrics_all = metric_spans(doc, hits, mentions)
    datasets = _spans_of(doc, mentions, "Dataset")
    # a claim's method is a named one (not a generic phrase such as "the solver")
    methods = _spans_of(doc, [m for m in [*mentions, *proposed] if m.rule != "phrase" or m.proposed], "Method")
    blocks = _dataset_blocks(doc, datasets)
    out: list[ResultClaim] = []
    text = doc.text
    for sent in doc.sents:
        metrics = [m for m in metrics_all if sent.start <= m.start < sent.end]
        quantities = find_quantities(doc, sent, text) if metrics else []
        if not quantities:
            continue
        starts = {m.start for m in metrics}
        bound: dict[int, MetricSpan] = {}
        for qi, q in enumerate(quantities):
            if _is_count(doc, q, starts):
                continue
            nxt_q = quantities[qi + 1].start if qi + 1 < len(quantities) else sent.end
            prev_q = quantities[qi - 1].end if qi > 0 else sent.start
            after = [m for m in metrics if q.end <= m.start < nxt_q and m.start - q.end <= 4
                     and _only(doc, q.end, m.start, FILL_AFTER, [])]
            opening = q.start - 1 if _in_own_math(doc, q, sent) else q.start
            before = [m for m in metrics if prev_q <= m.end <= opening and opening - m.end <= 8
                      and _only(doc, m.end, opening, FILL_BEFORE, blocks)]
            speed = q.unit == "ratio" and q.end < sent.end and doc[q.end].lower_ in SPEED_WORDS
            # over "on", only a gain ("by 6% on success rate"), never a setting ("a patience of 10 on validation
            # accuracy"), and one before the number wins ("a WER of 11.61 on ASR")
            over_on = bool(after) and any(t.lower_ == "on" for t in doc[q.end:after[0].start])
            if after and not (over_on and (before or q.unit not in {"percent", "points"})):
                bound[qi] = after[0]
            elif speed:
                bound[qi] = MetricSpan(q.end, q.end + 1, "speed-up", _speed_concept())
            elif before:
                bound[qi] = before[-1]
            elif (governing := _governing_metric(doc, q, quantities, metrics, sent)) is not None:
                bound[qi] = governing
        # coordinated numbers share a metric: "1.18 @256 resolution and 1.13 @512"
        changed = True
        shared: set[int] = set()
        while changed:
            changed = False
            for qi, q in enumerate(quantities):
                if qi in bound or _is_count(doc, q, starts):
                    continue
                for qj in (qi - 1, qi + 1):
                    if qj not in bound or not 0 <= qj < len(quantities):
                        continue
                    other = quantities[qj]
                    lo, hi = (other.end, q.start) if qj < qi else (q.end, other.start)
                    between = doc[lo:hi]
                    # the neighbour's own metric may stand between where both name their dataset after them:
                    # "54.6% accuracy for X and 43.9% for Y" (not "97% accuracy and 35% of the weights")
                    theirs = [(bound[qj].start, bound[qj].end)] if lo <= bound[qj].start < bound[qj].end <= hi \
                        and _dataset_after(doc, q.end, sent.end, datasets) is not None else []
                    if (hi - lo <= 8 and other.unit == q.unit and any(t.lower_ in COORDINATORS for t in between)
                            and _only_joiners(doc, lo, hi, blocks + theirs)):
                        bound[qi] = bound[qj]
                        shared.add(qi)
                        changed = True
                        break
        # "from 1.17% to 0.69%": the claim is the value reached, never the one left
        for qi in [qi for qi in bound if _after_from(doc, quantities[qi].start, sent.start)]:
            del bound[qi]
        assigned = _respectively(doc, sent, quantities, bound, datasets)
        # a change stated after a claim is a change of its metric: "73.1% accuracy, a 2.5% improvement"
        # (bound after "respectively" has paired the claims' numbers with their datasets)
        for qi, q in enumerate(quantities):
            if qi in bound or q.unit not in {"percent", "points"} or q.end >= sent.end \
                    or doc[q.end].lower_ not in CHANGE_NOUNS:
                continue
            earlier = [qj for qj in bound if qj < qi and quantities[qj].unit in {"percent", "points"}]
            if earlier and bound[max(earlier)].start < q.start:
                bound[qi] = bound[max(earlier)]
        direct: dict[int, Mention | None] = {}
        for qi, metric in sorted(bound.items()):
            q = quantities[qi]
            nxt_q = quantities[qi + 1].start if qi + 1 < len(quantities) else sent.end
            anchor = max(q.end, metric.end) if metric.start >= q.end else q.end
            dataset = assigned.get(qi) or _dataset_before_bracket(doc, q, datasets)
            lo_gap, hi_gap = min(metric.end, q.start), max(metric.end, q.start)
            # a coordinated number's dataset follows it; one between it and the shared metric is its neighbour's
            if dataset is None and qi not in shared and not any(lo_gap <= o.start < hi_gap for o in quantities):
                dataset = next((m for s, _e, m in datasets if lo_gap <= s < hi_gap), None)
            direct[qi] = dataset or _dataset_after(doc, anchor, nxt_q, datasets)
        for qi, metric in sorted(bound.items()):
            q = quantities[qi]
            # a dataset named right after a claim about another metric belongs to that claim
            taken = {(m.start, m.end) for qj, m in direct.items() if m is not None and bound[qj] is not metric}
            dataset = direct[qi] or _dataset_of_sentence(doc, sent, datasets, taken)
            method = _method_of(doc, q.start, methods, proposed)
            a = min(doc[q.start].idx, doc[metric.start].idx)
            b = max(doc[q.end - 1].idx + len(doc[q.end - 1]), doc[metric.end - 1].idx + len(doc[metric.end - 1]))
            out.append(ResultClaim(
                start=a, end=b, metric=metric.text, value=q.value, numeric=q.numeric, unit=q.unit,
                dataset=dataset.text if dataset else None, method=method.text if method else None,
                metric_span=(doc[metric.start].idx, doc[metric.end - 1].idx + len(doc[metric.end - 1]))
                if metric.text != "speed-up" or doc[metric.start].lower_ in {"speed-up", "speedup"} else None,
                metric_concept=metric.concept,
                dataset_span=(dataset.start, dataset.end) if dataset else None,
                method_span=(method.start, method.end) if method else None,
            ))
    return out


def _respectively(doc: Doc, sent: Span, quantities: list[Quantity], bound: dict[int, MetricSpan],
                  datasets: list[tuple[int, int, Mention]]) -> dict[int, Mention]:
    """"by 4%, 2% and 1% on A, B and C respectively": the i-th number of a group goes with the i-th dataset."""
    if not any(t.lower_ == "respectively" for t in sent):
        return {}
    out: dict[int, Mention] = {}
    groups: dict[int, list[int]] = {}
    for qi, metric in bound.items():
        groups.setdefault(id(metric), []).append(qi)
    for members in groups.values():
        members.sort()
        if len(members) < 2:
            continue
        after = quantities[members[-1]].end
        names: list[Mention] = []
        for s, _e, m in datasets:
            if after <= s < sent.end and m.text not in {n.text for n in names}:
                names.append(m)
        if len(names) == len(members):
            out.update(dict(zip(members, names)))
    return out


def _speed_concept() -> str | None:
    """The IRI of the speed-up metric concept of the vocabulary, if it has one."""
    vocabulary = load_vocabulary()
    for term in vocabulary.terms:
        if term.type == "Metric" and term.form.lower() in {"speed-up", "speedup"}:
            return term.concept
    return None


class ResultFinder:
    """Sets ``doc._.results`` to the :class:`ResultClaim` list of the doc (needs ``doc._.mentions``)."""

    def __init__(self, nlp: Language, vocabulary: Vocabulary) -> None:
        register_extensions()
        self.vocabulary = vocabulary

    def __call__(self, doc: Doc) -> Doc:
        mentions = list(doc._.mentions or [])
        proposed = list(doc._.proposed or []) if Doc.has_extension("proposed") else []
        doc._.results = find_results(doc, metric_hits(doc, self.vocabulary), mentions, proposed)
        return doc


@Language.factory("paperkg_results")
def make_result_finder(nlp: Language, name: str) -> ResultFinder:
    """Factory of the result-extraction component (reads the metric vocabulary in ``ontology/``)."""
    return ResultFinder(nlp, load_vocabulary())
