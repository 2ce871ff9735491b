"""paperkg's trained proposal classifier as the spaCy component ``paperkg_proposal_model``.

Whether a paper introduces a thing is a judgement about the thing, not about one sentence: "we propose
X" may be followed by "X outperforms ...", and a coined name written three times with "our" is the
paper's own even where no proposing verb stands before it. So the candidates are the paper's
*entities* (its mentions grouped by written form and abbreviation, as :func:`kg.extract.relation_model.entities`
groups them), and each is described by named features (:func:`entity_features`: its type, how it is
written (a coined name, capitals, digits), how often and where, whether the proposal rules or the
vocabulary found it, the words around its mentions and the dependency chain above them, whether the
authors speak in its sentences) and scored by a logistic regression (weights in ``kg/models/proposals``,
trained by ``python -m training.train_proposals``).

The component runs after ``paperkg_proposals`` (the rules) and replaces ``doc._.proposed`` with the
mentions of the entities it scores at ``threshold`` or more, and of those the rules proposed that it
scores at ``rule_threshold`` or more (the rules' word weighs as evidence); what the rules proposed and
the model rejects stays a plain mention. ``doc._.paper_name`` becomes the first accepted name (the rules' choice
when it is accepted). Vocabulary concepts and modality cues are never proposed.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract import terms as T
from kg.extract.extensions import register_extensions
from kg.extract.lexicon import AUTHOR_WORDS, DATASET_NOUNS, METRIC_NOUNS, NAMING_VERBS, PROPOSE_VERBS
from kg.extract.linear import LinearModel, read_linear
from kg.extract.proposals import BRACKETED_NAME
from kg.extract.relation_model import Entity, _bucket, _chain, _lemma, entities, fold
from kg.extract.types import PROPOSABLE, Mention

#: Where the trained proposal model ships, inside the package.
MODEL_DIR: Path = Path(__file__).resolve().parents[1] / "models" / "proposals"

CLASSES: tuple[str, ...] = ("NONE", "PROP")

_SELF = AUTHOR_WORDS | {"this", "here"}
_METRIC_HEADS = METRIC_NOUNS | {"complexity", "distance", "divergence"}
_CUES = PROPOSE_VERBS | NAMING_VERBS | frozenset({"novel", "new", "first", "proposed"})

RETRAIN = "python -m training.train_proposals --corpus ABSTRACTS.jsonl.gz"


def shape(text: str) -> list[str]:
    """How a written form looks: coined name, all capitals, inner capitals, digits, hyphen, capitalised."""
    words = text.split()
    out = [f"words={_bucket(len(words), (1, 2, 3, 5))}"]
    if T.is_name(text):
        out.append("isname")
    if text.isupper() and len(text) > 1:
        out.append("allcaps")
    if any(w[1:] != w[1:].lower() and not w.isupper() for w in words):
        out.append("camel")
    if any(c.isdigit() for c in text):
        out.append("digit")
    if "-" in text:
        out.append("hyphen")
    if text[:1].isupper():
        out.append("cap")
    return out


def written_count(text: str, form: str) -> int:
    """How often ``text`` writes ``form`` whole: not inside a longer word or hyphenated compound (an empty
    form: never)."""
    return sum(1 for _ in T.written_at(text, form))


def self_cue_sentences(sents: Sequence[Span]) -> list[int]:
    """The indices of the sentences where the authors speak with a proposing or naming word ("we propose")."""
    return [i for i, sent in enumerate(sents)
            if {x.lower_ for x in sent} & _SELF and {x.lemma_.lower() for x in sent} & _CUES]


def _is_named(e: Entity) -> bool:
    return any(T.is_name(m.short_form or m.text) for m in e.mentions)


def named_entities(ents: Sequence[Entity]) -> list[Entity]:
    """The paper's proposable entities written as names, in text order (what :func:`paper_features` ranks)."""
    return sorted((x for x in ents if x.type in PROPOSABLE and _is_named(x)), key=lambda x: x.mentions[0].start)


def paper_features(e: Entity, ents: Sequence[Entity], cues: Sequence[int],
                   named: Sequence[Entity] | None = None) -> set[str]:
    """What sets entity ``e`` apart among the paper's ``ents``: its rank, in text order, among the paper's
    entities written as names (known ones too: "GNNs" before "FastPool"), and whether it is the only one;
    whether it is written in the first sentence where the authors speak with a proposing word (``cues``:
    :func:`self_cue_sentences`), and first there; whether it is defined in any such sentence ("we propose
    X (Y)"). ``named``: :func:`named_entities` of ``ents``, when the caller has it (once per paper)."""
    f: set[str] = set()
    if _is_named(e):
        named = named_entities(ents) if named is None else named
        f.add(f"namerank={min(next((i for i, x in enumerate(named) if x is e), 2), 2)}")
        if len(named) == 1:
            f.add("only-name")
    if cues and cues[0] in e.sentences:
        f.add("in-first-selfcue")
        if min(e.sentences) == cues[0]:
            f.add("first-in-first-selfcue")
    if any(m.short_form and m.long_form and si in cues for m, (_, _, si) in zip(e.mentions, e.tokens)):
        f.add("def-in-selfcue")
    return f


def entity_features(doc: Doc, e: Entity, ents: Sequence[Entity], name: str | None,
                    sents: Sequence[Span] | None = None, text: str | None = None,
                    cues: Sequence[int] | None = None, named: Sequence[Entity] | None = None) -> list[str]:
    """The named features of entity ``e`` of ``doc`` (``ents``: all the paper's entities; ``name``: the
    name the proposal rules chose; ``sents``, ``text``, ``cues`` and ``named``: the doc's sentences, text,
    :func:`self_cue_sentences` and :func:`named_entities`, when the caller has them, once per paper: spaCy
    builds the first two anew at every access).
    Binary; the union over its mentions, each also conjoined with its type."""
    sents = list(doc.sents) if sents is None else sents
    text = doc.text if text is None else text
    cues = self_cue_sentences(sents) if cues is None else cues
    t = e.type
    f: set[str] = {f"type={t}", f"count={_bucket(len(e.mentions))}", *paper_features(e, ents, cues, named)}
    f |= {f"rule={m.rule}" for m in e.mentions}
    if e.proposed:
        f.add("ruleprop")
    if any(m.concept for m in e.mentions):
        f.add("concept")
    if any(m.short_form and m.long_form for m in e.mentions):
        f.add("abbrdef")
    if name and fold(name) in e.forms:
        f.add("rulename")
    for form in {m.short_form or m.text for m in e.mentions}:
        f.update(shape(form))
    written = max(written_count(text, form) for form in {m.short_form or m.text for m in e.mentions})
    f.add(f"written={_bucket(written)}")  # how often the abstract writes it, mention or not
    first = min(e.sentences)
    f.add(f"first={_bucket(first, (0, 1, 2, 4))}")
    f.add(f"last={max(e.sentences) == len(sents) - 1}")
    counts = sorted({len(x.mentions) for x in ents if x.type in PROPOSABLE}, reverse=True)
    f.add(f"rank={_bucket(counts.index(len(e.mentions)) if len(e.mentions) in counts else len(counts), (0, 1, 2))}")
    for a, b, si in e.tokens:
        sent = sents[si]
        span = doc[a:b]
        f.add(f"head={_lemma(span.root)}")
        words = {x.lower_ for x in sent}
        lemmas = {x.lemma_.lower() for x in sent}
        if words & _SELF:
            f.add("self-sent")
        if lemmas & _CUES:
            f.add("cue-sent")
        if words & _SELF and lemmas & _CUES:
            f.add("self-cue-sent")
        for k in (1, 2, 3):
            if a - k >= sent.start:
                f.add(f"w-{k}={_lemma(doc[a - k])}")
            if b + k - 1 < sent.end:
                f.add(f"w+{k}={_lemma(doc[b + k - 1])}")
        if a == sent.start:
            f.add("sent-start")
        f.update(_chain(doc, a, b))
    return sorted(f | {f"{t}|{x}" for x in f if not x.startswith("type=")})


class ProposalModel(LinearModel):
    """The proposal classifier: a :class:`~kg.extract.linear.LinearModel` over entity features (NONE, PROP),
    with the threshold chosen with it on the dev split."""

    def __init__(self, features: Sequence[str], weights, bias, classes: Sequence[str] = CLASSES,
                 threshold: float = 0.5, rule_threshold: float | None = None) -> None:
        super().__init__(features, weights, bias, classes)
        #: an entity is proposed at ``threshold`` or more, one the rules proposed at ``rule_threshold`` or more
        self.threshold = float(threshold)
        self.rule_threshold = self.threshold if rule_threshold is None else float(rule_threshold)

    def settings(self) -> dict:
        return {"threshold": self.threshold, "rule_threshold": self.rule_threshold}

    def accepts(self, entity: Entity, p: float, threshold: float | None = None,
                rule_threshold: float | None = None) -> bool:
        """Is ``entity``, scored ``p``, proposed (at the model's thresholds unless given)?"""
        t = self.threshold if threshold is None else threshold
        v = self.rule_threshold if rule_threshold is None else rule_threshold
        return p >= t or (entity.proposed and p >= v)


@lru_cache(maxsize=4)
def load_model(path: str | None = None) -> ProposalModel:
    """Load the trained proposal model (``MODEL_DIR`` unless ``path``); cached, so it loads once per process."""
    where = Path(path) if path else MODEL_DIR
    features, weights, meta = read_linear(where, "proposal model", f"{RETRAIN} --output {where}")
    return ProposalModel(features, weights, meta["bias"], meta["classes"], meta.get("threshold", 0.5),
                         meta.get("rule_threshold"))


def extra_candidates(doc: Doc, mentions: Sequence[Mention],
                     kinds: Sequence[str] = ("abbreviation", "name", "phrase")) -> list[Mention]:
    """Spans no rule made a mention of that may still be the paper's own: both sides of an abbreviation
    definition ("cross-covariance attention (XCA)") and coined names ("Group-Transformer"), where no
    mention overlaps them or only shorter ones inside them do (rules ``candidate-abbreviation``,
    ``candidate-name``; typed by a name's suffix, else Method)."""
    taken = [(m.start, m.end) for m in mentions]

    def free(start: int, end: int) -> bool:
        return all(b <= start or end <= a or (start <= a and b <= end and (a, b) != (start, end)) for a, b in taken)

    out: list[Mention] = []
    for a in doc._.abbreviations or [] if "abbreviation" in kinds else []:
        long, short = a.long.text, a.short.text
        kind = T.name_suffix_type(short) or T.name_suffix_type(long) or "Method"
        for span in (a.long, a.short):
            if free(span.start_char, span.end_char):
                out.append(Mention(span.start_char, span.end_char, kind, span.text, "candidate-abbreviation",
                                   long_form=long, short_form=short))
    for span in T.name_candidates(doc) if "name" in kinds else []:
        if free(span.start_char, span.end_char) and not any((m.start, m.end) == (span.start_char, span.end_char)
                                                            for m in out):
            out.append(Mention(span.start_char, span.end_char, T.name_suffix_type(span.text) or "Method", span.text,
                               "candidate-name"))
    for sent in doc.sents if "phrase" in kinds else []:  # noun phrases where the authors speak: "we define perspective points"
        if not any(t.lower_ in _SELF for t in sent):
            continue
        for chunk in sent.noun_chunks:
            toks = [t for t in chunk if t.pos_ not in {"DET", "PRON", "NUM", "PUNCT"} and t.lower_ not in _SELF]
            if not toks or toks[-1].i != chunk.root.i or not 2 <= len(toks) <= 6 or not chunk.root.is_alpha:
                continue
            span = doc[toks[0].i : toks[-1].i + 1]
            if not free(span.start_char, span.end_char) or any((m.start, m.end) == (span.start_char, span.end_char)
                                                               for m in out):
                continue
            head = chunk.root.lemma_.lower()
            kind = "Dataset" if head in DATASET_NOUNS else "Metric" if head in _METRIC_HEADS else "Method"
            out.append(Mention(span.start_char, span.end_char, kind, span.text, "candidate-phrase"))
    return out


def candidates(ents: Iterable[Entity]) -> list[Entity]:
    """The entities that may be proposed: of a proposable type and no vocabulary concept."""
    return [e for e in ents if e.type in PROPOSABLE and not any(m.concept for m in e.mentions)]


def scored_entities(doc: Doc, mentions: list[Mention], name: str | None,
                    model: ProposalModel) -> list[tuple[Entity, float]]:
    """Each candidate entity of ``doc`` with the model's probability that the paper introduces it."""
    ents = entities(doc, mentions)
    cands = candidates(ents)
    if not cands:
        return []
    sents, text = list(doc.sents), doc.text
    cues, named = self_cue_sentences(sents), named_entities(ents)
    probs = model.probabilities([entity_features(doc, e, ents, name, sents, text, cues, named) for e in cands])
    return [(e, float(p[model.classes.index("PROP")])) for e, p in zip(cands, probs)]


def first_name(proposed: Sequence[Mention]) -> str | None:
    """The paper's name among its proposals: the first coined or capitalised one (of two starting
    together, the whole one), its short form if it has one; else the first proposal's text."""
    named = [p for p in proposed if T.is_name(p.text) or p.short_form or p.text[:1].isupper()]
    if named:
        first = min(named, key=lambda p: (p.start, -p.end))
        return first.short_form or first.text
    return min(proposed).text if proposed else None


def decide(doc: Doc, mentions: list[Mention], proposed: list[Mention], name: str | None, model: ProposalModel,
           threshold: float | None = None, rule_threshold: float | None = None
           ) -> tuple[list[Mention], list[Mention], str | None]:
    """(mentions, proposals, name) once the model has judged every entity: the proposals are the mentions
    of the entities it accepts (:meth:`ProposalModel.accepts`); the rules' name stays when its entity is
    accepted or nothing is."""
    from kg.extract.proposals import with_proposed

    marked = with_proposed(mentions, proposed)
    extra = extra_candidates(doc, marked)
    accepted = [e for e, p in scored_entities(doc, marked + extra, name, model)
                if model.accepts(e, p, threshold, rule_threshold)]
    # a rules' proposal the model rejects keeps the type its descriptor gave ("the first benchmark, R2E-Eval1,":
    # a Dataset), but Method is only the rules' default: "a challenge called crystal structure prediction (CSP)"
    # proposed CSP as a Method, and the task stays a task
    before = {(m.start, m.end, m.text): m for m in mentions}

    def rejected(m: Mention) -> Mention:
        was = before.get((m.start, m.end, m.text))
        return was if was is not None and m.type == "Method" else dataclasses.replace(m, proposed=False)

    merged = sorted({rejected(m) if m.proposed else m for m in marked})
    out = sorted({dataclasses.replace(m, proposed=True) for e in accepted for m in e.mentions})
    if name and (not accepted or any(fold(name) in e.forms for e in accepted)):
        # the rules' name, unless the model proposes other things and not it
        return merged, out, short_name(name, merged + out, doc.text)
    return merged, out, short_name(first_name(out), merged + out, doc.text)


def short_name(name: str | None, mentions: Sequence[Mention], text: str) -> str | None:
    """The short form of ``name`` when the text gives one: "Analogical Reasoning Transformer Networks
    (ARTNet)" is named ARTNet, as the guidelines want a paper's short name."""
    if not name or " " not in name:
        return name
    for m in mentions:
        if m.short_form and m.long_form and fold(m.long_form) == fold(name) and " " not in m.short_form:
            return m.short_form
    for found in re.finditer(re.escape(name) + BRACKETED_NAME.pattern, text):
        short = found.group(1)
        if T.is_name(short) and any(m.text == short for m in mentions):
            return short
    return name


class ProposalClassifier:
    """Replaces ``doc._.proposed`` and ``doc._.paper_name`` by the model's judgement of every entity."""

    def __init__(self, model_path: str | None = None, threshold: float | None = None,
                 rule_threshold: float | None = None, use_model: bool = True) -> None:
        register_extensions()
        self.model = load_model(model_path or str(MODEL_DIR)) if use_model else None
        self.threshold, self.rule_threshold = threshold, rule_threshold  # None: the model's own

    def __call__(self, doc: Doc) -> Doc:
        if self.model is None:
            return doc  # switched off: the rules' proposals as they are
        doc._.mentions, doc._.proposed, doc._.paper_name = decide(
            doc, list(doc._.mentions or []), list(doc._.proposed or []), doc._.paper_name, self.model,
            self.threshold, self.rule_threshold)
        return doc

    def pipe(self, docs: Iterable[Doc], batch_size: int = 64) -> Iterator[Doc]:
        for doc in docs:
            yield self(doc)


@Language.factory("paperkg_proposal_model", default_config={"model_path": None, "threshold": None,
                                                           "rule_threshold": None, "use_model": True})
def make_proposal_classifier(nlp: Language, name: str, model_path: str | None, threshold: float | None,
                             rule_threshold: float | None, use_model: bool) -> ProposalClassifier:
    """Factory of the proposal-model component. ``model_path`` None: the model shipped in the package;
    ``threshold`` and ``rule_threshold`` None: those chosen on the dev split with it (its ``meta.json``);
    ``use_model`` false: the rules' proposals unchanged."""
    return ProposalClassifier(model_path, threshold, rule_threshold, use_model)
