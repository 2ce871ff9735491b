"""Typing, filtering and precedence of entity mentions: one registered, configured stage.

``paperkg_entities`` proposes candidate mentions (vocabularies, abbreviations, noun phrases, names,
modality cues) on ``doc._.candidates``; this stage (``paperkg_resolution``) decides which become
``doc._.mentions`` and with which type:

1. one type per vocabulary form (:func:`one_type_per_form`: "ASR" is a task or a metric), and of two crossing
   vocabulary terms the narrower concept (:func:`narrowest_terms`: "Vision Transformer architectures");
2. the entity tagger's spans join as mentions (not links, units after numbers, datasets without a capital
   or digit, tasks shaped like a coined name; a vocabulary name with a version after it, "GPT-5", of that
   name's type: :func:`family_type`) and its type wins over a heuristic rule's on the same characters;
   heuristic mentions it scores unlikely are vetoed (:func:`with_model`); a vocabulary concept of two
   readings (``kg:alsoReadAs``) and an abbreviation a rule typed by its words take the type more of its
   spans read in the paper (:func:`as_read`, :func:`abbreviations_as_read`);
3. one mention per overlapping group, by rule priority (:func:`resolve_overlaps`, ``priorities`` in the
   component's configuration);
4. the filters of what is no entity (:func:`keep_mention`, run-in headings, numeric precision, a time that is a
   phase ("at training time"), method names in passing, methods a task of the paper specialises:
   :func:`kg.extract.terms.specialised_fields`),
   the long and short forms of the definitions no rule typed (:func:`kg.extract.abbreviations.paired_mentions`),
   the types of list items (:func:`kg.extract.terms.list_types`) and of names written as datasets'
   (:func:`named_datasets`);
5. the modalities the paper works with and reports (:mod:`kg.extract.modality`).
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract import terms as T
from kg.extract.abbreviations import paired_mentions
from kg.extract.extensions import register_extensions
from kg.extract.lexicon import DATASET_NOUNS, HYPERPARAMETERS, WEAK_DATASET_NOUNS
from kg.extract.modality import in_passing, reported_modalities, working_modalities
from kg.extract.tagger import trim_edges
from kg.extract.types import Mention
from kg.extract.vocab import Vocabulary, load_vocabulary
from kg.keys import clean_label, norm_key

if TYPE_CHECKING:
    from kg.extract.tagger import TokenScores

#: Rule priority when two mentions of one type overlap (higher wins, then the longer span).
RULE_PRIORITY = {"vocabulary": 5, "metric-phrase": 5, "term-phrase": 5, "abbreviation": 4, "abbreviation-use": 4, "proposal": 4, "name": 4,
                 "title-case": 3, "phrase": 2, "task-frame": 6, "modality-cue": 1,
                 "modality-context": 1, "list-context": 4, "model": 5}

#: Rules whose mentions keep their characters and type where a model span of the same characters says
#: otherwise: vocabularies, abbreviation definitions and their uses, the proposal rules (but for the
#: readings of :func:`as_read` and :func:`abbreviations_as_read`).
PRINCIPLED_RULES: frozenset[str] = frozenset({"vocabulary", "abbreviation", "abbreviation-use", "proposal"})

#: The heuristic rules (noun phrases, task frames, capitalised terms, coined names) whose mentions
#: the model may veto.
HEURISTIC_RULES: tuple[str, ...] = ("phrase", "task-frame", "title-case", "name",
                                    "term-phrase", "list-context")


def one_type_per_form(found: list[Mention], defined: dict[str, str], span_scores: "TokenScores | None") -> list[Mention]:
    """One type for the vocabulary mentions of the same characters: where the vocabulary names concepts of two
    types there ("ASR": speech recognition, a task, and attack success rate, a metric), the type the text's
    own definition of the form gives ("automatic speech recognition (ASR)") wins, else the type the tagger
    scores higher; with neither, both stay."""
    types: dict[tuple[int, int], set[str]] = {}
    for m in found:
        if m.rule == "vocabulary":
            types.setdefault((m.start, m.end), set()).add(m.type)
    chosen: dict[tuple[int, int], str] = {}
    for (start, end), kinds in types.items():
        if len(kinds) < 2:
            continue
        text = next(m.text for m in found if (m.start, m.end) == (start, end))
        if defined.get(text) in kinds:
            chosen[(start, end)] = defined[text]
        elif span_scores is not None:
            scores = {t: span_scores.prob(start, end, t) or 0.0 for t in kinds}
            best = max(sorted(scores), key=scores.__getitem__)
            if scores[best] > 0:
                chosen[(start, end)] = best
    return [m for m in found if m.rule != "vocabulary" or chosen.get((m.start, m.end), m.type) == m.type]


def narrowest_terms(found: list[Mention], broader: Callable[[str], tuple[str, ...]]) -> list[Mention]:
    """``found`` without a vocabulary mention that crosses another of its type whose concept is narrower
    ("Transformer architectures" against "Vision Transformer" in "Vision Transformer architectures"): the
    narrower concept is the one written. ``broader(iri)`` gives a concept's broader concepts."""
    def ancestors(iri: str) -> set[str]:
        out, todo = set(), list(broader(iri))
        while todo:
            if (b := todo.pop()) not in out:
                out.add(b)
                todo.extend(broader(b))
        return out

    terms = [m for m in found if m.rule == "vocabulary" and m.concept]
    dropped = {id(k) for k in terms for m in terms if m.type == k.type and m.start < k.end and k.start < m.end
               and (m.start - k.start) * (m.end - k.end) > 0 and k.concept in ancestors(m.concept)}
    return [m for m in found if id(m) not in dropped]


def _unit_after_number(doc: Doc, start: int, end: int, text: str) -> bool:
    """Are characters ``start:end`` one word, a unit after a number (:func:`kg.extract.terms.unit_after_number`)?"""
    span = doc.char_span(start, end)
    return span is not None and len(span) == 1 and T.unit_after_number(doc, span.start, text[start:end])


def _is_named(text: str) -> bool:
    """Does ``text`` carry a capital or a digit somewhere, as a name does ("foundation" does not)?"""
    return any(c.isupper() or c.isdigit() for c in text)


def _named_if_dataset(text: str, label: str) -> bool:
    """A dataset is a named one (the guidelines): :func:`_is_named`."""
    return label != "Dataset" or _is_named(text)


#: a name that is another's with a version after it: "GPT-5", "Qwen2.5", "YOLOv8", "Llama 4", "MobileNet v1" (after
#: a space a whole number only: "FID 1.73" is a value, so "Llama 3.1" is left to the vocabulary's forms)
_VERSIONED = re.compile(r"(?P<base>.*?[A-Za-z])(?:-?v?\d+(?:\.\d+)*|\s+v?\d+)[a-z]?")


def family_types(vocabulary: Vocabulary) -> dict[str, str]:
    """The type of each capitalised written form of the vocabulary that names concepts of one type only
    (lower case -> type): a later version of that name is of its type (:func:`family_type`)."""
    types: dict[str, set[str]] = {}
    for t in vocabulary.terms:
        if not t.cue and any(c.isupper() for c in t.form):
            types.setdefault(t.form.lower(), set()).add(t.type)
    return {form: next(iter(ts)) for form, ts in types.items() if len(ts) == 1}


def family_type(text: str, families: dict[str, str]) -> str | None:
    """The type of the vocabulary name that ``text`` writes with a version after it ("GPT-5": GPT's, a Method),
    or None."""
    m = _VERSIONED.fullmatch(text)
    if m is None or m.group("base").islower():
        return None  # "map 3", "dice 2": a word in lower case is no name
    return families.get(m.group("base").lower())


#: a hyphenated Title-Case word is a name ("Meta-World"), never a task
HYPHENATED_TITLE = re.compile(r"[A-Z][\w]*(?:-[A-Z][\w]*)+")


def _no_name_if_task(text: str, label: str) -> bool:
    """A task is a phrase of the field, not a coined name ("PaAno", "Atlas-Discovery"); a form in capitals
    may be one ("QA", and also "TSB-AD": a stricter acronym test lost 0.004 on gold_dev_corpus)."""
    return label != "Task" or text.isupper() or not (T.is_name(text) or HYPHENATED_TITLE.fullmatch(text))


def named_dataset_phrase(text: str) -> bool:
    """Is a Title Case phrase a dataset's name, whatever the tagger scores it: a coined name's word and a
    last word that says dataset alone ("DMControl Generalization Benchmark"; not "Integrated Development
    Environment")?"""
    words = text.split()
    last = words[-1].lower()
    return last in DATASET_NOUNS and last.rstrip("s") not in WEAK_DATASET_NOUNS and any(map(T.is_name, words[:-1]))


#: The rules of an abbreviation's definition (both sides) and of its later uses.
_ABBREVIATION_RULES = frozenset({"abbreviation", "abbreviation-use"})


def _outvoted(votes: Counter, own: str, types: Iterable[str]) -> str | None:
    """The one of ``types`` with the most ``votes`` (a tie: the first by name), where it has more than
    ``own``; else None."""
    best = max(sorted(types), key=votes.__getitem__)
    return best if best != own and votes[best] > votes[own] else None


def as_read(found: list[Mention], spans: list, readings: dict[str, tuple[str, ...]]) -> list[Mention]:
    """``found`` with each concept of two ``readings`` (concept IRI -> the other types its forms may name)
    typed as the tagger reads it in this paper: where more of the tagger's spans on the very characters of
    the concept's vocabulary mentions say another allowed type than say the concept's own ("reinforcement
    learning" the paper works on is a Task), those mentions, and the abbreviations they define, take that
    type without the concept. One reading per paper, as an annotator picks one."""
    tagged = {(sp[0], sp[1]): sp[2] for sp in spans}
    votes: dict[str, Counter] = defaultdict(Counter)
    own: dict[str, str] = {}
    for m in found:
        if m.rule == "vocabulary" and m.concept in readings and (m.start, m.end) in tagged:
            votes[m.concept][tagged[(m.start, m.end)]] += 1
            own[m.concept] = m.type
    read = {iri: t for iri, c in votes.items() if (t := _outvoted(c, own[iri], readings[iri]))}
    if not read:
        return found
    defined = {(m.text.lower(), m.type): read[m.concept] for m in found if m.concept in read}
    out = []
    for m in found:
        if m.concept in read:
            m = replace(m, type=read[m.concept], concept=None)
        elif m.rule in _ABBREVIATION_RULES and m.long_form and (m.long_form.lower(), m.type) in defined:
            m = replace(m, type=defined[(m.long_form.lower(), m.type)])
        out.append(m)
    return out


def abbreviations_as_read(found: list[Mention], spans: list) -> list[Mention]:
    """``found`` with each abbreviation a rule typed by its words alone ("distributionally robust optimization
    (DRO)" a Task by its head) typed as the tagger reads it: where more of the tagger's spans on the very
    characters of its definition and uses say another type than say the rule's, all of them take that type.
    An abbreviation whose long form is a vocabulary term keeps the vocabulary's type (:func:`as_read`)."""
    tagged = {(sp[0], sp[1]): sp[2] for sp in spans}
    termed = {(m.start, m.end) for m in found if m.rule == "vocabulary"}  # read or not (:func:`as_read`)
    votes: dict[tuple[str, str], Counter] = defaultdict(Counter)
    fixed = set()
    for m in found:
        if m.rule in _ABBREVIATION_RULES and m.long_form:
            group = (m.long_form.lower(), m.type)
            if (m.start, m.end) in termed:
                fixed.add(group)
            elif (m.start, m.end) in tagged:
                votes[group][tagged[(m.start, m.end)]] += 1
    read = {g: t for g, c in votes.items() if g not in fixed and (t := _outvoted(c, g[1], c))}
    if not read:
        return found
    return [replace(m, type=read[(m.long_form.lower(), m.type)])
            if m.rule in _ABBREVIATION_RULES and m.long_form and (m.long_form.lower(), m.type) in read
            else m for m in found]


def with_model(found: list[Mention], spans: list, doc: Doc, drop_rules: frozenset[str],
               span_scores: "TokenScores | None" = None, veto_rules: frozenset[str] = frozenset(),
               veto_below: float = 0.0, text: str | None = None,
               readings: dict[str, tuple[str, ...]] | None = None,
               families: dict[str, str] | None = None) -> list[Mention]:
    """``found`` without the ``drop_rules`` mentions and those of a ``veto_rules`` rule the model scores
    under ``veto_below`` for their type wherever their form is written, plus a ``"model"`` mention per
    model span (``text``: the doc's text, when the caller has it).

    Where a rule typed the very characters of a model span otherwise (a Modality cue aside), the model's
    type wins; a vocabulary concept of the same characters and type is kept on the model's mention. A
    vocabulary concept's type wins over the model's, unless ``readings`` (concept IRI -> the other types
    its forms may name) allows the model's: see :func:`as_read`. An abbreviation a rule typed by its words
    alone takes the model's reading of its definition and uses (:func:`abbreviations_as_read`).
    """
    # a vocabulary concept on the very characters of a model span decides its type (the model's span of
    # another type gives way); text that is a link is never an entity
    text = doc.text if text is None else text  # spaCy builds it from the tokens on every access
    spans = [(*trim_edges(text, sp[0], sp[1]), *sp[2:]) for sp in spans]  # "pretrained transformer": a transformer
    spans = [sp for sp in spans if sp[1] > sp[0]]
    if families:  # a known name's later version is what the name is: "vs. GPT-5" is no metric
        spans = [(a, b, family_type(text[a:b], families) or label, *rest) for a, b, label, *rest in spans]
    if readings:
        found = as_read(found, spans, readings)
    found = abbreviations_as_read(found, spans)
    known = {(m.start, m.end): m.type for m in found if m.concept}
    spans = [sp for sp in spans if known.get((sp[0], sp[1]), sp[2]) == sp[2]
             and "://" not in text[sp[0]:sp[1]] and not text[sp[0]:sp[1]].startswith("www.")
             and not _unit_after_number(doc, sp[0], sp[1], text) and _named_if_dataset(text[sp[0]:sp[1]], sp[2])
             and _no_name_if_task(text[sp[0]:sp[1]], sp[2])]
    # a principled rule's mention keeps its characters and type: the model's span of the same characters goes
    principled = {(m.start, m.end) for m in found if m.rule in PRINCIPLED_RULES}
    spans = [sp for sp in spans if (sp[0], sp[1]) not in principled]
    by_span = {(a, b): label for a, b, label, _ in spans}
    concepts = {(m.start, m.end, m.type): m for m in found if m.concept}

    def scored(m: Mention) -> Mention:
        # the model's probability of the rule's very span and type, when it scored that span; else the best
        # score of an overlapping model span of the same type
        if m.confidence is not None:
            return m
        exact = span_scores.prob(m.start, m.end, m.type) if span_scores is not None else None
        if exact is not None:
            return replace(m, confidence=exact)
        scores = [c for a, b, label, c in spans if a < m.end and m.start < b and label == m.type and c is not None]
        return replace(m, confidence=max(scores)) if scores else m

    def vetoed(m: Mention) -> bool:
        # the model scored this written form and finds this type unlikely wherever it is written
        if span_scores is None or m.rule not in veto_rules:
            return False
        if m.type == "Dataset" and m.rule == "title-case" and named_dataset_phrase(m.text):
            return False
        p = span_scores.best(text[m.start:m.end], m.type)
        return p is not None and p < veto_below

    out = [scored(m) for m in found if m.rule not in drop_rules
           and (m.type == "Modality" or m.rule in PRINCIPLED_RULES or by_span.get((m.start, m.end), m.type) == m.type)
           and not vetoed(m)]
    for a, b, label, confidence in spans:
        span = doc.char_span(a, b)
        if span is None:
            continue
        ref = concepts.get((a, b, label))
        out.append(T.mention(span, label, "model", concept=ref.concept if ref else None,
                             long_form=ref.long_form if ref else None, short_form=ref.short_form if ref else None,
                             confidence=confidence))
    return out


def keep_mention(m: Mention, single_task_from: float | None = None) -> bool:
    """Drop mentions too general to be entities and bare undefined acronyms of three letters or fewer. A
    one-word lower-case task ("classification") stays only framed as one ("classification tasks") or, given
    ``single_task_from``, where it is the tagger's own span (rule ``model``; a vocabulary task keeps the
    vocabulary's mention) scored at least that ("we study exploration")."""
    if m.type == "Method" and T.is_generic_method(m.text) and not (m.long_form and not T.is_generic_method(m.long_form)):
        return False
    if m.type in {"Method", "Task"} and T.ADJECTIVE_SUFFIX.search(m.text):
        return False  # "stochastic gradient-descent-based", "VWF-selective": say how or what kind, name nothing
    if m.rule == "phrase" and m.type == "Method" and " " not in m.text and "-" not in m.text and m.text.islower():
        return False  # "memory", "testing": a single common word is no method name
    if any(c in m.text for c in "*&") or "@" in re.sub(r"[A-Za-z]@(?:\d+|k)\b", "", m.text) or "---" in m.text \
            or re.search(r"\(\d{4}\)", m.text):  # "pass@1", "Hits@10" are metrics
        return False  # markup or a citation, not a name
    if m.type == "Modality" and not m.concept:
        return False  # every modality is a concept of the modality scheme
    if m.type == "Metric" and norm_key(m.text) in HYPERPARAMETERS:
        return False  # "the learning rate": a setting the paper chooses, not a metric it evaluates by
    if m.rule == "name" and len(m.text) <= 3 and m.text.isupper():
        return False
    if m.type == "Task" and " " not in m.text.strip() and "-" not in m.text and not m.long_form and m.text.islower() \
            and m.rule != "task-frame" and not _sure_single_task(m, single_task_from):
        return False  # "classification", "prediction": too general alone
    return True


def _sure_single_task(m: Mention, single_task_from: float | None) -> bool:
    """Is one-word task ``m`` the tagger's own span, scored at least ``single_task_from`` (None: never)?"""
    return (single_task_from is not None and m.rule == "model" and m.confidence is not None
            and m.confidence >= single_task_from)


#: A LaTeX citation key ("zhu2018learning"): a reference, not a name.
CITATION_KEY = re.compile(r"[a-z]+\d{4}[a-z]+")


def modifier_alone(doc: Doc, m: Mention) -> bool:
    """Is ``m`` one lower-case word that only modifies, or a LaTeX citation key? A tagger's word the parser
    reads as an adjective or participle ("semi-supervised", "adversarial", "fine-grained"), or as the
    modifier of the noun right after it, outside the span ("foundation" of "foundation models", "two-layer"
    of "two-layer ReLU autoencoder"), says what kind: it names nothing."""
    if m.type not in {"Method", "Task", "Metric"} or m.long_form or not m.text.islower():
        return False
    if CITATION_KEY.fullmatch(m.text):
        return True
    span = doc.char_span(m.start, m.end)
    if span is None or m.rule != "model" or " " in m.text:
        return False
    last = span[-1]
    if last.tag_ in {"JJ", "VBN"} and not any(t.pos_ in {"NOUN", "PROPN"} for t in span):
        return True
    return last.head.i == span.end and last.head.pos_ == "NOUN" and last.dep_ in {"compound", "amod", "nmod"}


def _cues_of_two_modalities(a: Mention, b: Mention) -> bool:
    """Are ``a`` and ``b`` one written form cueing two modalities (a dataset of images and text)? Both stand."""
    return a.type == b.type == "Modality" and (a.start, a.end) == (b.start, b.end) and a.concept != b.concept


def resolve_overlaps(mentions: list[Mention], priorities: dict[str, int] | None = None) -> list[Mention]:
    """Keep one mention per overlapping group of the same type; drop names swallowed by a longer term.
    ``priorities`` ranks the rules (higher wins, then the longer span; default :data:`RULE_PRIORITY`)."""
    priorities = RULE_PRIORITY if priorities is None else priorities
    known = [(m.start, m.end) for m in mentions if m.rule == "vocabulary"]

    def rank(m: Mention) -> tuple:
        # a name that specialises a known term outranks it: "Stochastic Normalizing Flows (SNF)"
        priority = priorities.get(m.rule, 0)
        if m.rule in {"abbreviation", "title-case"} and m.type == "Method" and T.specialises_chars(m.text, m.start, m.end, known):
            priority = max(priorities.values()) + 1
        # a total order, so the choice never depends on set iteration (hash seeds differ per process)
        return (priority, m.end - m.start, m.concept is not None, -m.start, m.rule, m.type, m.text, m.concept or "",
                m.long_form or "", m.short_form or "", m.proposed, m.in_title)

    kept: list[Mention] = []
    for m in sorted(set(mentions), key=rank, reverse=True):
        clash = False
        for k in kept:
            overlap = m.start < k.end and k.start < m.end
            if not overlap:
                continue
            if k.type == m.type and not _cues_of_two_modalities(k, m):
                clash = True
                break
            # a bare name inside a longer typed phrase or vocabulary term is part of it
            inside = k.start <= m.start and m.end <= k.end
            if inside and m.rule in {"name", "phrase"} and k.type in {"Method", "Task", "Dataset", "Metric"}:
                clash = True
                break
            if inside and k.rule == "abbreviation" and k.text == k.long_form and k.type in {"Method", "Dataset"} \
                    and m.type in {"Method", "Task"} and (k.start, k.end) != (m.start, m.end):
                clash = True  # a word of a defined name: "Score Calibration" in "Retrieval Alignment via Score Calibration"
                break
        if not clash:
            kept.append(m)
    return sorted(kept)


#: Rules whose Method a dataset's context retypes: the tagger, coined names, Title Case, abbreviations.
RETYPED_RULES: frozenset[str] = frozenset({"model", "name", "title-case", "abbreviation", "abbreviation-use"})


def headed_name(span: Span) -> Span | None:
    """The name of a span read with its own lower-case dataset noun ("LIBERO-5 suites": LIBERO-5), or None. Not
    a field's short acronym ("SSL benchmarks"), a possessive ("FooBench's datasets"), nor a name before a noun
    that also names other things unless the noun is plural or "the" comes first ("a Python environment" names
    none; "MuJoCo environments" and "the MAGICAL suite" do)."""
    if len(span) < 2:
        return None
    noun, name, doc = span[-1], span[:-1], span.doc
    if not noun.text.islower() or noun.lemma_ not in DATASET_NOUNS or name[-1].is_punct or name[-1].tag_ == "POS":
        return None
    if name.text.isalpha() and name.text.isupper() and len(name.text) <= 4:
        return None
    the = doc[span.start - 1 : span.start].text.lower() == "the"
    if noun.lemma_ in WEAK_DATASET_NOUNS and noun.text == noun.lemma_ and not the:
        return None
    return name


#: What joins two names written as one: a slash or an arrow ("CIFAR-10/CIFAR-100", "MNIST$\\to$SVHN")
_JOINED = re.compile(r"\s*(?:/|\u2192|->|\$\\(?:to|rightarrow)\$)\s*")


def split_joined(mentions: list[Mention], text: str, families: dict[str, str]) -> list[Mention]:
    """``mentions`` with a method or dataset that joins whole names by a slash or an arrow split into them,
    each at its own characters of ``text`` and of its vocabulary type where it is a vocabulary name
    (``families``: :func:`family_types`): "GLUE/SuperGLUE" is GLUE and SuperGLUE, "MNIST$\\to$SVHN" (whose
    label drops the LaTeX) the datasets MNIST and SVHN. Not a vocabulary form ("CNN/Daily Mail"), not a name
    with a number after the slash ("CIFAR-10/100", "CLIP-L/14"), which the annotators keep whole, and not two
    letters on a side unless the other side is a vocabulary name ("AC/DC", "I/O"; "MCMC/LD" splits)."""
    out = []
    for m in mentions:
        joins = list(_JOINED.finditer(text, m.start, m.end)) if m.type in {"Method", "Dataset"} and not m.concept \
            else []
        if not joins:
            out.append(m)
            continue
        bounds = [m.start, *(b for j in joins for b in j.span()), m.end]
        parts = [(a, b, clean_label(text[a:b])) for a, b in zip(bounds[::2], bounds[1::2])]
        labels = [label for _, _, label in parts]
        if not all(label and T.is_name(label.split()[-1]) for label in labels) \
                or not (all(len(label) > 2 for label in labels) or any(label.lower() in families for label in labels)):
            out.append(m)
            continue
        for a, b, label in parts:
            kind = families.get(label.lower()) or family_type(label, families) or m.type
            out.append(replace(m, start=a, end=b, text=label, type=kind))
    return out


def named_datasets(doc: Doc, mentions: list[Mention]) -> list[Mention]:
    """A name typed Method (by a :data:`RETYPED_RULES` rule, no vocabulary concept) that the text writes as a
    dataset's (:func:`kg.extract.terms.used_as_dataset`: "We introduce 3DOS: a novel testbed") is a Dataset,
    wherever it or its short or long form is written; so is a name read with its dataset noun
    (:func:`headed_name`: "LIBERO-5 suites", the dataset LIBERO-5) and, where two or more names are listed
    right before it with commas, each of those ("SimplerEnv-Bridge, Fractal, LIBERO-5 suites")."""
    def retypable(m: Mention) -> bool:
        return m.type == "Method" and not m.concept and m.rule in RETYPED_RULES

    forms: set[str] = set()
    names: dict[str, tuple[int, str]] = {}  # a name read with its dataset noun -> the name's length and label
    ordered = sorted(mentions)
    for i, m in enumerate(ordered):
        if retypable(m) and _is_named(m.text):
            span = doc.char_span(m.start, m.end)
            if span is None:
                continue
            if T.used_as_dataset(span):
                forms.update(f for f in (m.text, m.short_form, m.long_form) if f)
            elif (name := headed_name(span)) is not None:
                names[m.text] = (name.end_char - m.start, clean_label(name.text))
                forms.update((m.text, names[m.text][1]))
                listed, end, text = [], m.start, doc.text
                for k in reversed(ordered[:i]):
                    if k.start >= m.start:
                        continue  # a mention inside this one ("LIBERO-5" of "LIBERO-5 suites")
                    if k.end > end or not retypable(k) or not _is_named(k.text) \
                            or not re.fullmatch(r"\s*,\s*", text[k.end : end]):
                        break
                    listed.append(k.text)
                    end = k.start
                if len(listed) > 1:  # "Unlike FooNet, BarSim suites ...": one name before a comma is no list
                    forms.update(listed)
    if not forms:
        return mentions

    def as_dataset(m: Mention) -> Mention:
        if m.text not in names:
            return replace(m, type="Dataset")
        length, label = names[m.text]
        return replace(m, type="Dataset", end=m.start + length, text=label)

    return sorted({as_dataset(m) if retypable(m) and m.text in forms else m for m in mentions})


class MentionResolver:
    """Turns ``doc._.candidates`` into the sorted ``doc._.mentions`` (see the module's docstring).

    With ``use_model`` the spans of the trained entity tagger (``doc._.model_spans``, set by
    ``paperkg_entity_tagger``) become mentions too (rule ``"model"``), the model's type wins over a rule's
    on the same characters, a mention of a ``veto_rules`` rule goes where the tagger scores its written form
    under ``veto_below`` for its type, the rules named in ``drop_rules`` are not used, and a one-word task of
    the tagger's own (rule ``"model"``) scored at least ``single_task_from`` stays (:func:`keep_mention`).
    """

    def __init__(self, vocabulary: Vocabulary, use_model: bool = False, drop_rules: tuple[str, ...] = (),
                 veto_rules: tuple[str, ...] = (), veto_below: float = 0.0,
                 priorities: dict[str, int] | None = None, single_task_from: float | None = None) -> None:
        register_extensions()
        self.vocabulary = vocabulary
        self.use_model = use_model
        self.drop_rules = frozenset(drop_rules) if use_model else frozenset()
        self.veto_rules = frozenset(veto_rules) if use_model else frozenset()
        self.veto_below = veto_below
        self.single_task_from = single_task_from if use_model else None
        self.priorities = dict(RULE_PRIORITY if priorities is None else priorities)
        self.labels = {iri: c.label for iri, c in vocabulary.concepts.items()}
        self.readings = {iri: c.also_read_as for iri, c in vocabulary.concepts.items() if c.also_read_as}
        self.families = family_types(vocabulary)

    def __call__(self, doc: Doc) -> Doc:
        found = list(doc._.candidates or [])
        scores = getattr(doc._, "model_scores", None)
        defined = {m.short_form: m.type for m in found if m.rule == "abbreviation" and m.short_form}
        found = narrowest_terms(one_type_per_form(found, defined, scores), self.broader)
        text = doc.text  # built from the tokens on every access: once
        if self.use_model:
            found = with_model(found, getattr(doc._, "model_spans", None) or [], doc, self.drop_rules,
                               scores, self.veto_rules, self.veto_below, text, self.readings,
                               self.families)
        kept = [m for m in resolve_overlaps(found, self.priorities)
                if keep_mention(m, self.single_task_from) and not modifier_alone(doc, m)
                and not (m.type == "Metric" and (T.is_heading(m, text) or T.numeric_precision(doc, m)
                                                  or T.hyphen_modifier(doc, m) or T.time_of_phase(doc, m)))]
        kept = paired_mentions(split_joined(kept, text, self.families), doc._.abbreviations or [])
        kept = named_datasets(doc, T.list_types(T.specialised_fields(kept, self.labels), text))
        kept = [m for m in kept if not (m.type == "Method" and m.rule == "vocabulary" and in_passing(doc, m))]
        # a set: the two modalities a dataset cues may be reported as one ("lidar" and "point cloud")
        doc._.mentions = sorted(set(reported_modalities(working_modalities(doc, kept), self.broader)))
        return doc

    def broader(self, iri: str) -> tuple[str, ...]:
        """The broader concepts of vocabulary concept ``iri`` (none for an unknown IRI)."""
        concept = self.vocabulary.concepts.get(iri)
        return concept.broader if concept is not None else ()


@Language.factory("paperkg_resolution", default_config={"use_model": False, "drop_rules": [], "veto_rules": [],
                                                       "veto_below": 0.0, "priorities": None,
                                                       "single_task_from": None})
def make_mention_resolver(nlp: Language, name: str, use_model: bool, drop_rules: list[str], veto_rules: list[str],
                          veto_below: float, priorities: dict[str, int] | None,
                          single_task_from: float | None) -> MentionResolver:
    """Factory of the typing, filtering and precedence stage (``priorities`` None: :data:`RULE_PRIORITY`)."""
    return MentionResolver(load_vocabulary(), use_model, tuple(drop_rules), tuple(veto_rules), veto_below, priorities,
                           single_task_from)
