"""Entity resolution: the mentions of all papers become canonical entities, one IRI each.

Two mentions are one entity when they have the same type and
- match the same vocabulary concept, or
- normalise to the same key (case, hyphens, spaces, plural -s folded), or
- are the two sides of an abbreviation defined anywhere in the corpus ("sparse autoencoders (SAEs)"
  makes "SAE" in any other paper the same entity).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from kg.extract.types import Mention, PaperExtraction
from kg.extract.vocab import Vocabulary
from kg.keys import form_keys, norm_key
from kg.resolve.ids import digest, entity_iri


@dataclass
class Entity:
    """A canonical entity: its IRI, type, label, other written forms and vocabulary concept."""

    iri: str
    type: str
    label: str
    alt_labels: set[str] = field(default_factory=set)
    concept: str | None = None


#: Where a mention is: (paper IRI, start, end, type, in the title rather than the abstract).
MentionKey = tuple[str, int, int, str, bool]


def mention_key(paper: str, m: Mention) -> MentionKey:
    """The key of mention ``m`` of ``paper`` in :attr:`Resolution.entity_of`."""
    return (paper, m.start, m.end, m.type, m.in_title)


@dataclass
class Resolution:
    """The entities of a corpus and, for each mention, the IRI of its entity."""

    entities: dict[str, Entity]
    entity_of: dict[MentionKey, str]  # (paper, start, end, type, in the title) -> entity IRI


def _count(counts: dict[str, int], form: str) -> None:
    counts[form] = counts.get(form, 0) + 1


def _display_form(forms: dict[str, int]) -> str:
    """The most frequent written form, preferring singular and shorter on ties (deterministic)."""
    return sorted(forms.items(), key=lambda kv: (-kv[1], len(kv[0]), kv[0]))[0][0]


def resolve(papers: Iterable[tuple[str, PaperExtraction]], vocabulary: Vocabulary | None = None) -> Resolution:
    """Resolve the mentions of ``papers`` ((paper IRI, extraction) pairs) into canonical entities.

    The keys of written forms come from the extractions' ``forms`` when they hold them (computed at
    extraction time), else they are computed here."""
    papers = list(papers)
    known: dict[str, tuple[str, str, str, str]] = {}
    for _paper, ex in papers:
        known.update(ex.forms)

    def keys(form: str) -> tuple[str, str, str, str]:
        k = known.get(form)
        if k is None:
            k = known[form] = form_keys(form)
        return k

    concept_by_form: dict[tuple[str, str], str] = {}
    if vocabulary is not None:
        for term in vocabulary.terms:
            if not term.cue:
                concept_by_form.setdefault((term.type, norm_key(term.form)), term.concept)

    # 1. abbreviation links across the corpus: (type, short key) -> long key, by frequency
    long_of_short: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for _paper, ex in papers:
        for m in ex.mentions:
            if m.long_form and m.short_form:
                long_of_short[(m.type, keys(m.short_form)[0])][keys(m.long_form)[0]] += 1
    short_map = {k: sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] for k, c in long_of_short.items()}

    def canonical(m: Mention) -> tuple[str, str | None]:
        """(canonical key, concept IRI or None) of a mention."""
        if m.concept:
            return m.concept, m.concept
        forms = [m.text] + [f for f in (m.long_form, m.short_form) if f]
        for f in forms:
            c = concept_by_form.get((m.type, keys(f)[0]))
            if c:
                return c, c
        if m.long_form:
            return keys(m.long_form)[0], None
        key = keys(m.text)[0]
        return short_map.get((m.type, key), key), None

    groups: dict[tuple[str, str], dict] = {}
    entity_of: dict[MentionKey, str] = {}
    for paper, ex in papers:
        for m in ex.mentions:
            key, concept = canonical(m)
            if not key:
                continue
            g = groups.get((m.type, key))
            if g is None:
                g = groups[(m.type, key)] = {"forms": {}, "long": {}, "short": {}, "concept": concept,
                                             "iri_keys": {}}
            _key, readable, readable_norm, _label = keys(m.long_form or m.text)
            g["iri_keys"][readable] = readable_norm
            if m.rule != "modality-cue":  # a cue implies the concept but is not a name of it
                _count(g["forms"], keys(m.text)[3])
            if m.long_form:
                _count(g["long"], keys(m.long_form)[3])
            if m.short_form:
                _count(g["short"], keys(m.short_form)[3])
            entity_of[mention_key(paper, m)] = f"{m.type}\x00{key}"

    entities: dict[str, Entity] = {}
    iri_of_group: dict[str, str] = {}
    labels = {c.iri: c for c in vocabulary.concepts.values()} if vocabulary is not None else {}
    claimed = {g["concept"] for g in groups.values() if g["concept"]}
    for (type_name, key), g in sorted(groups.items()):
        concept = g["concept"]
        if concept:
            iri = concept
            label = labels[concept].label if concept in labels else _display_form(g["forms"])
        else:
            matching = [k for k, k_norm in g["iri_keys"].items() if k_norm == key]
            iri = str(entity_iri(type_name, min(matching) if matching else key))
            if iri in entities or iri in claimed:
                # another key slugs the same ("Transformer" and "Transformer++", or a vocabulary concept's
                # IRI): distinct entities, so this one gets its own IRI
                iri = f"{iri}-{digest(key, 6)}"
            label = _display_form(g["short"]) if g["short"] else _display_form(g["forms"])
        alts = set(g["forms"]) | set(g["long"]) | set(g["short"])
        alts.discard(label)
        entities[iri] = Entity(iri=iri, type=type_name, label=label, alt_labels=alts, concept=concept)
        iri_of_group[f"{type_name}\x00{key}"] = iri
    return Resolution(entities, {k: iri_of_group[v] for k, v in entity_of.items()})
