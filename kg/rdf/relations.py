"""Entity-entity relations as RDF: the direct triple plus a kg:RelationAssertion evidence node."""
from __future__ import annotations

from collections.abc import Iterator

from rdflib import Literal, URIRef
from rdflib.namespace import PROV, RDF, XSD

from kg.corpus import Paper
from kg.extract.types import PaperExtraction
from kg.ids import extractor_iri, relation_iri, sentence_iri
from kg.namespaces import KG
from kg.rdf.evidence import EntityIndex, Triple, extractor_triples, sentence_index, sentence_triples
from kg.rdf.papers import decimal_text

#: Relation names of the extraction -> properties of the public schema.
RELATION_PROPERTIES: dict[str, URIRef] = {
    "evaluatedOn": KG.evaluatedOn,
    "comparesWith": KG.comparesWith,
    "extends": KG.extends,
    "hasComponent": KG.hasComponent,
    "appliedTo": KG.appliedTo,
}

#: Entity types a relation's object may have (kg:evaluatedOn's range is kg:Dataset).
OBJECT_TYPES: dict[str, frozenset[str]] = {
    "evaluatedOn": frozenset({"Dataset"}),
    "comparesWith": frozenset({"Method"}),
    "extends": frozenset({"Method"}),
    "hasComponent": frozenset({"Method"}),
    "appliedTo": frozenset({"Task", "Modality", "Dataset"}),
}


def relation_triples(paper: Paper, extraction: PaperExtraction, index: EntityIndex) -> Iterator[Triple]:
    """Relations of one paper between its resolved entities, each with its evidence node."""
    p = URIRef(paper.iri)
    sentences: set[int] = set()
    rules: set[str] = set()
    for rel in extraction.relations:
        prop = RELATION_PROPERTIES.get(rel.predicate)
        if prop is None or rel.object_type not in OBJECT_TYPES[rel.predicate]:
            continue
        s = index.find(paper.iri, rel.subject_span, rel.subject_type, rel.subject)
        o = index.find(paper.iri, rel.object_span, rel.object_type, rel.object)
        if s is None or o is None or s == o:
            continue
        subj, obj = URIRef(s), URIRef(o)
        yield subj, prop, obj
        a = relation_iri(p, rel.start, rel.end, f"{rel.predicate}-{rel.subject}-{rel.object}")
        yield a, RDF.type, KG.RelationAssertion
        yield a, RDF.subject, subj
        yield a, RDF.predicate, prop
        yield a, RDF.object, obj
        yield a, KG.start, Literal(rel.start)
        yield a, KG.end, Literal(rel.end)
        yield a, PROV.wasAttributedTo, extractor_iri(rel.rule)
        if rel.confidence is not None:
            yield a, KG.confidence, Literal(decimal_text(rel.confidence), datatype=XSD.decimal)
        rules.add(rel.rule)
        si = sentence_index(extraction, rel.start)
        if si is not None:
            sentences.add(si)
            yield a, KG.inSentence, sentence_iri(p, si)
    for si in sorted(sentences):
        yield from sentence_triples(paper, extraction, si)
    for rule in sorted(rules):
        yield from extractor_triples(rule)
