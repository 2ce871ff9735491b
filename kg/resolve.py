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
from functools import lru_cache

from kg.extract.terms import clean_label, norm_key, readable_key
from kg.extract.types import Mention, PaperExtraction
from kg.extract.vocab import Vocabulary
from kg.ids import entity_iri

@dataclass
class Entity:
    """A canonical entity: its IRI, type, label, other written forms and vocabulary concept."""

    iri: str
    type: str
    label: str
    alt_labels: set[str] = field(default_factory=set)
    concept: str | None = None


@dataclass
class Resolution:
    """The entities of a corpus and, for each mention, the IRI of its entity."""

    entities: dict[str, Entity]
    entity_of: dict[tuple[str, int, int, str], str]  # (paper, start, end, type) -> entity IRI


def _display_form(forms: Counter) -> str:
    """The most frequent written form, preferring singular and shorter on ties (deterministic)."""
    return sorted(forms.items(), key=lambda kv: (-kv[1], len(kv[0]), kv[0]))[0][0]


def resolve(papers: Iterable[tuple[str, PaperExtraction]], vocabulary: Vocabulary | None = None) -> Resolution:
    """Resolve the mentions of ``papers`` ((paper IRI, extraction) pairs) into canonical entities."""
    papers = list(papers)
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
                long_of_short[(m.type, norm_key(m.short_form))][norm_key(m.long_form)] += 1
    short_map = {k: sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] for k, c in long_of_short.items()}

    def canonical(m: Mention) -> tuple[str, str | None]:
        """(canonical key, concept IRI or None) of a mention."""
        if m.concept:
            return m.concept, m.concept
        forms = [m.text] + [f for f in (m.long_form, m.short_form) if f]
        for f in forms:
            c = concept_by_form.get((m.type, norm_key(f)))
            if c:
                return c, c
        if m.long_form:
            return norm_key(m.long_form), None
        key = norm_key(m.text)
        return short_map.get((m.type, key), key), None

    clean = lru_cache(maxsize=None)(clean_label)  # written forms repeat across papers
    groups: dict[tuple[str, str], dict] = {}
    entity_of: dict[tuple[str, int, int, str], str] = {}
    for paper, ex in papers:
        for m in ex.mentions:
            key, concept = canonical(m)
            if not key:
                continue
            g = groups.get((m.type, key))
            if g is None:
                g = groups[(m.type, key)] = {"forms": Counter(), "long": Counter(), "short": Counter(),
                                             "concept": concept, "iri_keys": set()}
            g["iri_keys"].add(readable_key(m.long_form or m.text))
            if m.rule != "modality-cue":  # a cue implies the concept but is not a name of it
                g["forms"][clean(m.text)] += 1
            if m.long_form:
                g["long"][clean(m.long_form)] += 1
            if m.short_form:
                g["short"][clean(m.short_form)] += 1
            entity_of[(paper, m.start, m.end, m.type)] = f"{m.type}\x00{key}"

    entities: dict[str, Entity] = {}
    iri_of_group: dict[str, str] = {}
    labels = {c.iri: c for c in vocabulary.concepts.values()} if vocabulary is not None else {}
    for (type_name, key), g in sorted(groups.items()):
        concept = g["concept"]
        if concept:
            iri = concept
            label = labels[concept].label if concept in labels else _display_form(g["forms"])
        else:
            matching = [k for k in g["iri_keys"] if norm_key(k) == key]
            iri = str(entity_iri(type_name, min(matching) if matching else key))
            label = _display_form(g["short"]) if g["short"] else _display_form(g["forms"])
        alts = set(g["forms"]) | set(g["long"]) | set(g["short"])
        alts.discard(label)
        entities[iri] = Entity(iri=iri, type=type_name, label=label, alt_labels=alts, concept=concept)
        iri_of_group[f"{type_name}\x00{key}"] = iri
    return Resolution(entities, {k: iri_of_group[v] for k, v in entity_of.items()})
