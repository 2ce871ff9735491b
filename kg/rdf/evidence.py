"""Shared pieces of evidence-carrying statements: sentence nodes and entity look-up by span or name.

Mentions, results and relations carry their span, their extractor and the sentence they were found in
(:class:`Evidence`), and point to the same entity IRIs as the paper-entity links (:class:`EntityIndex`).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from rdflib import Literal, URIRef
from rdflib.namespace import DCTERMS, PROV, RDF, RDFS

from kg.entity_types import METRIC
from kg.extract.types import PaperExtraction
from kg.extract.vocab import Vocabulary
from kg.ingest.corpus import Paper
from kg.keys import norm_key
from kg.namespaces import KG
from kg.resolve.entities import Resolution
from kg.resolve.ids import entity_iri, extractor_iri, sentence_iri

Triple = tuple[URIRef, URIRef, object]


def sentence_index(extraction: PaperExtraction, offset: int) -> int | None:
    """The index of the sentence of ``extraction`` containing character ``offset``, or None."""
    return next((i for i, (a, b) in enumerate(extraction.sentences) if a <= offset < b), None)


def sentence_triples(paper: Paper, extraction: PaperExtraction, index: int) -> Iterator[Triple]:
    """The kg:Sentence node of sentence ``index`` (the same triples as the mention links emit)."""
    p = URIRef(paper.iri)
    a, b = extraction.sentences[index]
    s = sentence_iri(p, index)
    yield s, RDF.type, KG.Sentence
    yield s, DCTERMS.isPartOf, p
    yield s, KG.text, Literal(paper.abstract[a:b])
    yield s, KG.start, Literal(a)
    yield s, KG.end, Literal(b)


def extractor_triples(name: str) -> Iterator[Triple]:
    """The kg:Extractor node of the rule or model called ``name``."""
    x = extractor_iri(name)
    yield x, RDF.type, KG.Extractor
    yield x, RDFS.label, Literal(name)


@dataclass
class Evidence:
    """The evidence of one paper's statements: each node's span, extractor and sentence, and, once per
    paper, the sentences (and extractors) they cite."""

    paper: Paper
    extraction: PaperExtraction
    sentences: set[int] = field(default_factory=set)
    rules: set[str] = field(default_factory=set)

    def cite(self, node: URIRef, start: int, end: int, rule: str, in_title: bool = False) -> Iterator[Triple]:
        """``node`` was found at characters ``start:end`` by ``rule``, in the sentence holding ``start``
        (of the title when ``in_title``: no sentence node then)."""
        yield node, KG.start, Literal(start)
        yield node, KG.end, Literal(end)
        yield node, PROV.wasAttributedTo, extractor_iri(rule)
        self.rules.add(rule)
        index = None if in_title else sentence_index(self.extraction, start)
        if index is not None:
            self.sentences.add(index)
            yield node, KG.inSentence, sentence_iri(URIRef(self.paper.iri), index)

    def sentence_triples(self) -> Iterator[Triple]:
        """The kg:Sentence nodes of the sentences cited so far."""
        for index in sorted(self.sentences):
            yield from sentence_triples(self.paper, self.extraction, index)

    def extractor_triples(self) -> Iterator[Triple]:
        """The kg:Extractor nodes of the rules cited so far."""
        for rule in sorted(self.rules):
            yield from extractor_triples(rule)


@dataclass
class EntityIndex:
    """Finds the resolved entity of a span or a written name, minting metric entities when needed."""

    resolution: Resolution
    vocabulary: Vocabulary | None = None
    by_key: dict[tuple[str, str], str] = field(default_factory=dict)
    concept_by_key: dict[tuple[str, str], str] = field(default_factory=dict)
    minted: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for iri, ent in sorted(self.resolution.entities.items()):
            for form in sorted({ent.label, *ent.alt_labels}):
                self.by_key.setdefault((ent.type, norm_key(form)), iri)
        if self.vocabulary is not None:
            for term in self.vocabulary.terms:
                if not term.cue:
                    self.concept_by_key.setdefault((term.type, norm_key(term.form)), term.concept)

    def find(self, paper_iri: str, span: tuple[int, int] | None, type_name: str, text: str | None,
             concept: str | None = None) -> str | None:
        """The IRI of an existing entity: by mention span, then by normalised name, then by concept."""
        if span is not None:
            iri = self.resolution.entity_of.get((paper_iri, span[0], span[1], type_name, False))
            if iri is not None:
                return iri
        if concept and concept in self.resolution.entities:
            return concept
        if text:
            iri = self.by_key.get((type_name, norm_key(text)))
            if iri is not None:
                return iri
        return None

    def metric(self, paper_iri: str, span: tuple[int, int] | None, text: str,
               concept: str | None = None) -> tuple[str, list[Triple]]:
        """The metric entity of a result: an existing one, else a vocabulary concept, else a new entity.

        Returns the IRI and the triples to add for an entity the resolution did not have.
        """
        iri = self.find(paper_iri, span, METRIC, text, concept)
        if iri is not None:
            return iri, []
        concept = concept or self.concept_by_key.get((METRIC, norm_key(text)))
        if concept is not None and self.vocabulary is not None and concept in self.vocabulary.concepts:
            triples = list(self.vocabulary.concept_triples(concept))
            c = URIRef(concept)
            triples.append((c, RDF.type, KG.Metric))
            if not any(p == RDFS.label for _s, p, _o in triples):
                triples.append((c, RDFS.label, Literal(self.vocabulary.concepts[concept].label)))
            return concept, triples
        iri = str(entity_iri(METRIC, norm_key(text)))
        label = self.minted.setdefault(iri, text)  # one label per entity across the graph
        return iri, [(URIRef(iri), RDF.type, KG.Metric), (URIRef(iri), RDFS.label, Literal(label))]
