"""Entity-entity relations as RDF: the direct triple plus a kg:RelationAssertion evidence node."""
from __future__ import annotations

from collections.abc import Iterator

from rdflib import Literal, URIRef
from rdflib.namespace import RDF, XSD

from kg.entity_types import DATASET, METHOD, MODALITY, TASK
from kg.extract.types import PaperExtraction
from kg.ingest.corpus import Paper
from kg.namespaces import KG
from kg.rdf.evidence import EntityIndex, Evidence, Triple
from kg.rdf.papers import decimal_text
from kg.resolve.ids import relation_iri

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
    "evaluatedOn": frozenset({DATASET}),
    "comparesWith": frozenset({METHOD}),
    "extends": frozenset({METHOD}),
    "hasComponent": frozenset({METHOD}),
    "appliedTo": frozenset({TASK, MODALITY, DATASET}),
}


def relation_triples(paper: Paper, extraction: PaperExtraction, index: EntityIndex) -> Iterator[Triple]:
    """Relations of one paper between its resolved entities, each with its evidence node."""
    p = URIRef(paper.iri)
    evidence = Evidence(paper, extraction)
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
        if rel.confidence is not None:
            yield a, KG.confidence, Literal(decimal_text(rel.confidence), datatype=XSD.decimal)
        yield from evidence.cite(a, rel.start, rel.end, rel.rule)
    yield from evidence.sentence_triples()
    yield from evidence.extractor_triples()
