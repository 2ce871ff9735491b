"""paperkg's trained relation extractor as the spaCy component ``paperkg_relation_model``.

Relation facts hold between the *things* an abstract names, not between single mentions: the training
corpus annotates ``[subject, relation, object]`` once a paper. So the candidates are pairs of the
paper's entities (its mentions grouped by written form, an abbreviation joined to its long form): a
subject among its methods and proposed artifacts, an object of a type the relation admits, either the
subject being what the paper proposes (anywhere in the abstract) or the two written within
``window`` sentences of each other. Each pair is described by sparse, named features
(:func:`pair_features`: the types, whether the subject is the paper's own artifact, the words around
and between the mentions, the dependency chain above the object, the sentence's cue words) and scored
by a multinomial logistic regression over the five relations and NONE (weights in
``kg/models/relations``, trained by ``python -m training.train_relations``). A pair whose best
admissible relation scores at least ``threshold`` becomes a :class:`~kg.extract.types.Relation`
(rule ``relation-model``) with that probability as its ``confidence``.

Of the pairs sharing an object, only the subject and relation scored highest are kept (a fact's object
rarely has two subjects in the corpus). The component runs after ``paperkg_relations`` (the rules) and
replaces ``doc._.relations`` with the rules' relations of ``keep_rules`` (those precise enough to keep, by
the dev split) plus the model's, one per (relation, subject, object) of the paper; it reads mentions and
never changes them. The threshold and the rules kept are chosen on the dev split by the training script
and stored with the weights (``meta.json``).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.extensions import register_extensions
from kg.extract.lexicon import GENERIC_REFERENCES
from kg.extract.linear import LinearModel, read_linear
from kg.extract.types import Mention, Relation

#: Where the trained relation model ships, inside the package.
MODEL_DIR: Path = Path(__file__).resolve().parents[1] / "models" / "relations"

#: The classes, NONE first.
CLASSES: tuple[str, ...] = ("NONE", "evaluatedOn", "comparesWith", "extends", "hasComponent", "appliedTo")

#: Entity types a relation's object may have (the public schema's ranges; as kg.rdf.relations writes them).
OBJECT_TYPES: dict[str, frozenset[str]] = {
    "evaluatedOn": frozenset({"Dataset"}),
    "comparesWith": frozenset({"Method"}),
    "extends": frozenset({"Method"}),
    "hasComponent": frozenset({"Method"}),
    "appliedTo": frozenset({"Task", "Modality", "Dataset"}),
}
SUBJECT_TYPES = frozenset({"Method"})
OBJECT_ANY = frozenset().union(*OBJECT_TYPES.values())

#: Words that make a sentence speak of the authors' own work.
SELF_WORDS = frozenset({"we", "our", "ours", "us", "proposed", "propose", "present", "introduce"})

RULE = "relation-model"

#: Mentions that are a cue to a thing, not its name ("CIFAR-10" implies the image modality): never a side.
CUE_RULES = frozenset({"modality-cue"})


def fold(form: str) -> str:
    """A written form compared loosely: lower case, hyphens as spaces, one trailing plural -s dropped."""
    words = " ".join(form.lower().replace("-", " ").split())
    return words[:-1] if words.endswith("s") and len(words) > 3 else words


@dataclass
class Entity:
    """The mentions of one thing in one abstract: one type, written forms joined by abbreviation."""

    type: str
    mentions: list[Mention] = field(default_factory=list)
    #: token spans (start, end) and sentence index of each mention, in text order
    tokens: list[tuple[int, int, int]] = field(default_factory=list)

    @property
    def forms(self) -> set[str]:
        """Every folded written form (texts, long and short forms)."""
        return {fold(f) for m in self.mentions for f in (m.text, m.long_form, m.short_form) if f}

    @property
    def proposed(self) -> bool:
        return any(m.proposed for m in self.mentions)

    @property
    def rules(self) -> set[str]:
        return {m.rule for m in self.mentions}

    @property
    def sentences(self) -> set[int]:
        return {s for _, _, s in self.tokens}

    @property
    def text(self) -> str:
        """The written form of its first mention."""
        return self.mentions[0].text


def entities(doc: Doc, mentions: Iterable[Mention]) -> list[Entity]:
    """``mentions`` grouped into the things they name: same type and folded form, or joined by an
    abbreviation (a mention's long or short form), in order of first mention; cue mentions left out."""
    sent_of = {}
    for i, s in enumerate(doc.sents):
        sent_of.update({t: i for t in range(s.start, s.end)})
    parent: dict[tuple[str, str], tuple[str, str]] = {}

    def find(k):
        while parent.setdefault(k, k) != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    ms = sorted(m for m in set(mentions) if m.rule not in CUE_RULES)
    for m in ms:
        keys = [(m.type, fold(f)) for f in (m.text, m.long_form, m.short_form) if f and fold(f)]
        for k in keys[1:]:
            a, b = find(keys[0]), find(k)
            if a != b:
                parent[b] = a
    groups: dict[tuple[str, str], Entity] = {}
    for m in ms:
        if not fold(m.text):
            continue
        span = doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is None or not len(span):
            continue
        e = groups.setdefault(find((m.type, fold(m.text))), Entity(m.type))
        e.mentions.append(m)
        e.tokens.append((span.start, span.end, sent_of.get(span.start, 0)))
    return list(groups.values())


def is_subject(e: Entity) -> bool:
    """Can ``e`` be a relation's subject: a method, or anything the paper proposes; never a generic form."""
    if not (e.type in SUBJECT_TYPES or e.proposed):
        return False
    return not e.forms <= GENERIC_REFERENCES


def candidate_pairs(ents: Sequence[Entity], window: int = 1) -> list[tuple[Entity, Entity]]:
    """(subject, object) pairs worth scoring: the subject a method or a proposed artifact, the object of a
    type some relation admits, and the subject proposed or the two within ``window`` sentences."""
    out = []
    for s in ents:
        if not is_subject(s):
            continue
        for o in ents:
            if o is s or o.type not in OBJECT_ANY or o.forms & s.forms or o.forms <= GENERIC_REFERENCES:
                continue
            if s.proposed or min(abs(a - b) for a in s.sentences for b in o.sentences) <= window:
                out.append((s, o))
    return out


def _bucket(n: int, edges: Sequence[int] = (1, 2, 3, 5, 8)) -> str:
    for e in edges:
        if n <= e:
            return str(e)
    return f">{edges[-1]}"


def _lemma(tok) -> str:
    if tok.like_num:
        return "<num>"
    return tok.lemma_.lower()


def _chain(doc: Doc, start: int, end: int, depth: int = 4) -> list[str]:
    """The dependency chain above a mention's head: "dep:head-lemma" steps up to a verb (or ``depth``)."""
    span = doc[start:end]
    tok = span.root
    out = []
    for _ in range(depth):
        head = tok.head
        if head.i == tok.i:
            break
        out.append(f"{tok.dep_}:{_lemma(head)}")
        if head.pos_ in {"VERB", "AUX"}:
            out.append(f"verb:{_lemma(head)}")
            break
        tok = head
    return out


def subject_rank(s: Entity, ents: Sequence[Entity]) -> int:
    """Where ``s`` stands among the paper's possible subjects by number of mentions (0: the most written)."""
    counts = sorted({len(e.mentions) for e in ents if is_subject(e)}, reverse=True)
    return counts.index(len(s.mentions)) if len(s.mentions) in counts else len(counts)


def pair_features(doc: Doc, s: Entity, o: Entity, own: Entity | None = None,
                  ents: Sequence[Entity] = (), sents: Sequence[Span] | None = None) -> list[str]:
    """The named features of the pair (subject ``s``, object ``o``) in ``doc`` (``own``: the paper's main
    proposed artifact, if any; ``ents``: all its entities; ``sents``: the doc's sentences, when the caller
    has them). Binary; the union over every mention of each side."""
    sents = list(doc.sents) if sents is None else sents
    t = o.type
    st = "P" if s.proposed else "M"
    rank = _bucket(subject_rank(s, ents), (0, 1, 2)) if ents else "?"
    sfirst = _bucket(min(s.sentences), (0, 1, 2, 4))
    f0 = {f"srank={rank}", f"{st}|srank={rank}", f"sfirst={sfirst}", f"{st}|sfirst={sfirst}",
          f"own={'none' if own is None else s is own}"}
    if any(m.short_form and m.long_form for m in s.mentions):
        f0.add(f"{st}|sabbr")
    f = {f"ot={t}", f"st={'P' if s.proposed else 'M'}", f"pair={'P' if s.proposed else 'M'}>{t}",
         f"sown={s is own}", f"oprop={o.proposed}", f"scount={_bucket(len(s.mentions))}",
         f"ocount={_bucket(len(o.mentions))}"}
    f |= f0
    f |= {f"srule={r}" for r in s.rules} | {f"orule={r}" for r in o.rules} | {f"{st}|srule={r}" for r in s.rules}
    f |= {f"{t}|orule={r}" for r in o.rules}
    if any(m.concept for m in o.mentions):
        f.add("oconcept")
    first = min(o.sentences)
    f.add(f"ofirst={_bucket(first, (0, 1, 2, 4))}")
    f.add(f"olast={first == len(sents) - 1}")
    dist = min(abs(a - b) for a in s.sentences for b in o.sentences)
    f.add(f"dist={_bucket(dist, (0, 1, 2, 3))}")
    f.add(f"{t}|dist={_bucket(dist, (0, 1, 2, 3))}")
    s_tokens = s.tokens
    for a, b, si in o.tokens:
        sent = sents[si]
        span = doc[a:b]
        f.add(f"{t}|ohead={_lemma(span.root)}")
        f.update(f"{t}|oword={_lemma(x)}" for x in span if x.is_alpha)
        ctx = []
        if a - 1 >= sent.start:
            ctx.append(f"w-1={_lemma(doc[a - 1])}")
            if a - 2 >= sent.start:
                ctx.append(f"w-2={_lemma(doc[a - 2])}_{_lemma(doc[a - 1])}")
        else:
            ctx.append("w-1=<s>")
        ctx.append(f"w+1={_lemma(doc[b])}" if b < sent.end else "w+1=</s>")
        ctx += _chain(doc, a, b)
        lemmas = {_lemma(x) for x in sent if x.is_alpha and not x.is_stop and not (a <= x.i < b)}
        ctx += [f"sw={w}" for w in lemmas]
        if lemmas & SELF_WORDS or any(x.lower_ in SELF_WORDS for x in sent):
            ctx.append("self-sent")
        same = [(c, d) for c, d, sj in s_tokens if sj == si]
        if same:
            ctx.append("cooc")
            c, d = min(same, key=lambda x: abs(x[0] - a))
            if d <= a:
                between, order = doc[d:a], "SO"
            else:
                between, order = doc[b:c], "OS"
            ctx.append(f"order={order}")
            ctx.append(f"gap={_bucket(len(between), (0, 1, 2, 4, 8, 15))}")
            words = [_lemma(x) for x in between if not x.is_punct]
            ctx += [f"bw={w}" for w in words]
            if len(between) <= 6:
                ctx.append(f"bseq={order}:{'_'.join(words)}")
        elif s.proposed and any(x.lower_ in {"we", "our"} for x in sent):
            ctx.append("self-cooc")
        f.update(ctx)
        f.update(f"{t}|{c}" for c in ctx)
    return sorted(f)


class RelationModel(LinearModel):
    """The relation classifier: a :class:`~kg.extract.linear.LinearModel` over pair features, with the
    sentence window, threshold and kept rules chosen with it on the dev split."""

    def __init__(self, features: Sequence[str], weights, bias, classes: Sequence[str] = CLASSES,
                 window: int = 1, threshold: float = 0.5, keep_rules: Sequence[str] | None = None) -> None:
        super().__init__(features, weights, bias, classes)
        self.window = int(window)
        #: the threshold and the rules kept that were chosen on the dev split with this model
        self.threshold = float(threshold)
        self.keep_rules = None if keep_rules is None else tuple(keep_rules)

    def settings(self) -> dict:
        return {"window": self.window, "threshold": self.threshold,
                "keep_rules": None if self.keep_rules is None else list(self.keep_rules)}


@lru_cache(maxsize=4)
def load_model(path: str | None = None) -> RelationModel:
    """Load the trained relation model (``MODEL_DIR`` unless ``path``); cached, so it loads once per process."""
    where = Path(path) if path else MODEL_DIR
    features, weights, meta = read_linear(where, "relation model", "python -m training.train_relations "
                                          f"--corpus ABSTRACTS.jsonl.gz --output {where}")
    return RelationModel(features, weights, meta["bias"], meta["classes"], meta.get("window", 1),
                         meta.get("threshold", 0.5), meta.get("keep_rules"))


def main_artifact(ents: Sequence[Entity], name: str | None) -> Entity | None:
    """The paper's main proposed artifact: the entity written as the paper's name, else its first proposal."""
    proposed = [e for e in ents if e.proposed]
    if name:
        named = [e for e in proposed if fold(name) in e.forms]
        if named:
            return named[0]
    return min(proposed, key=lambda e: e.tokens[0][0]) if proposed else None


def best_relation(probs, classes: Sequence[str], object_type: str) -> tuple[str, float]:
    """The admissible relation of highest probability for an object of ``object_type``, and that probability."""
    best, p = "NONE", -1.0
    for j, c in enumerate(classes):
        if c != "NONE" and object_type in OBJECT_TYPES[c] and float(probs[j]) > p:
            best, p = c, float(probs[j])
    return best, p


def evidence(doc: Doc, s: Entity, o: Entity) -> tuple[Mention, Mention, int, int]:
    """The subject and object mentions a relation cites and its characters, inside one sentence: where
    the two are written closest together, else the object's first mention (with the subject's first)."""
    pairs = [(abs(a - c), i, j) for i, (a, _b, si) in enumerate(o.tokens) for j, (c, _d, sj) in enumerate(s.tokens)
             if si == sj]
    if pairs:
        _, i, j = min(pairs)
        (a, b, _), (c, d, _) = o.tokens[i], s.tokens[j]
        lo, hi = min(a, c), max(b, d)
        return s.mentions[j], o.mentions[i], doc[lo].idx, doc[hi - 1].idx + len(doc[hi - 1])
    m = o.mentions[0]
    return s.mentions[0], m, m.start, m.end


def model_relations(doc: Doc, mentions: list[Mention], name: str | None, model: RelationModel,
                    threshold: float) -> list[Relation]:
    """The relations the model scores at ``threshold`` or more between the entities of ``doc``."""
    ents = entities(doc, mentions)
    pairs = candidate_pairs(ents, model.window)
    if not pairs:
        return []
    own = main_artifact(ents, name)
    sents = list(doc.sents)
    probs = model.probabilities([pair_features(doc, s, o, own, ents, sents) for s, o in pairs])
    best: dict[int, tuple[float, str, Entity, Entity]] = {}
    for (s, o), row in zip(pairs, probs):  # one relation an object: the subject and relation scored highest
        predicate, p = best_relation(row, model.classes, o.type)
        if p >= threshold and (id(o) not in best or p > best[id(o)][0]):
            best[id(o)] = (p, predicate, s, o)
    out = []
    for p, predicate, s, o in best.values():
        sm, om, start, end = evidence(doc, s, o)
        out.append(Relation(start=start, end=end, predicate=predicate, subject=sm.text, subject_type=sm.type,
                            object=om.text, object_type=om.type, rule=RULE, subject_span=(sm.start, sm.end),
                            object_span=(om.start, om.end), confidence=round(min(1.0, max(0.0, p)), 3)))
    return out


def combine(rules: Iterable[Relation], found: Iterable[Relation], keep_rules: frozenset[str] | None,
            mentions: Sequence[Mention] = ()) -> list[Relation]:
    """The rules' relations of ``keep_rules`` (None: all) and the model's ``found``, one per relation and
    pair of things (folded written forms, joined by the mentions' abbreviations); a rule's relation first,
    and none of the model's for a pair a kept rule relates already."""
    alias: dict[str, str] = {}
    for m in mentions:
        forms = [fold(f) for f in (m.text, m.long_form, m.short_form) if f]
        for f in forms:
            alias.setdefault(f, alias.get(forms[0], forms[0]))

    def key(r: Relation) -> tuple[str, str, str]:
        return r.predicate, alias.get(fold(r.subject), fold(r.subject)), alias.get(fold(r.object), fold(r.object))

    out, seen = [], set()
    kept = [r for r in rules if keep_rules is None or r.rule in keep_rules]
    stated = {key(r)[1:] for r in kept}
    for r in [*kept, *sorted(found, key=lambda r: (r.start, r.end, r.predicate, r.subject, r.object))]:
        k = key(r)
        if k in seen or (r.rule == RULE and k[1:] in stated):
            continue
        seen.add(k)
        out.append(r)
    return sorted(out, key=lambda r: (r.start, r.end, r.predicate, r.subject, r.object))


class RelationClassifier:
    """Sets ``doc._.relations`` to the kept rule relations plus the model's (needs ``doc._.mentions``)."""

    def __init__(self, model_path: str | None = None, threshold: float | None = None, use_model: bool = True,
                 keep_rules: Sequence[str] | None = None) -> None:
        register_extensions()
        self.model = load_model(model_path or str(MODEL_DIR)) if use_model else None
        if self.model is not None:  # unless given, what was chosen on the dev split with the model
            threshold = self.model.threshold if threshold is None else threshold
            keep_rules = self.model.keep_rules if keep_rules is None else keep_rules
        self.threshold = 0.5 if threshold is None else float(threshold)
        self.keep_rules = None if keep_rules is None or "*" in keep_rules else frozenset(keep_rules)

    def __call__(self, doc: Doc) -> Doc:
        from kg.extract.proposals import with_proposed

        if self.model is None and self.keep_rules is None:
            return doc  # switched off: the rules' relations as they are

        mentions = with_proposed(list(doc._.mentions or []), list(doc._.proposed or []))
        found = model_relations(doc, mentions, doc._.paper_name, self.model, self.threshold) if self.model else []
        doc._.relations = combine(doc._.relations or [], found, self.keep_rules, mentions)
        return doc

    def pipe(self, docs: Iterable[Doc], batch_size: int = 64) -> Iterator[Doc]:
        for doc in docs:
            yield self(doc)


@Language.factory("paperkg_relation_model",
                  default_config={"model_path": None, "threshold": None, "use_model": True, "keep_rules": None})
def make_relation_classifier(nlp: Language, name: str, model_path: str | None, threshold: float | None,
                             use_model: bool, keep_rules: list[str] | None) -> RelationClassifier:
    """Factory of the relation-model component. ``model_path`` None: the model shipped in the package;
    ``threshold`` and ``keep_rules`` None: those chosen on the dev split with it (its ``meta.json``);
    ``keep_rules`` ["*"]: every rule; ``use_model`` false: the rules' relations alone, unchanged."""
    return RelationClassifier(model_path, threshold, use_model, keep_rules)
