"""Quantitative results as RDF: ``?paper kg:reportsResult ?r . ?r a kg:Result ; kg:metric ?m ; ...``."""
from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from rdflib import Literal, URIRef
from rdflib.namespace import RDF, XSD

from kg.entity_types import DATASET, METHOD
from kg.extract.types import PaperExtraction
from kg.ingest.corpus import Paper
from kg.namespaces import KG
from kg.rdf.evidence import EntityIndex, Evidence, Triple
from kg.resolve.ids import result_iri

#: Name of the extractor results are attributed to.
RESULT_EXTRACTOR = "result-pattern"


def _decimal(value: float) -> Literal:
    text = format(Decimal(repr(value)).normalize(), "f")
    return Literal(text, datatype=XSD.decimal)


def result_triples(paper: Paper, extraction: PaperExtraction, index: EntityIndex) -> Iterator[Triple]:
    """The kg:Result nodes of the claims of one paper, linked to the same entities as its mentions."""
    p = URIRef(paper.iri)
    evidence = Evidence(paper, extraction)
    for i, claim in enumerate(extraction.results):
        metric, extra = index.metric(paper.iri, claim.metric_span, claim.metric, claim.metric_concept)
        yield from extra
        r = result_iri(p, i)
        yield p, KG.reportsResult, r
        yield r, RDF.type, KG.Result
        yield r, KG.metric, URIRef(metric)
        yield r, KG.value, Literal(claim.value)
        if claim.numeric is not None:
            yield r, KG.numericValue, _decimal(claim.numeric)
        yield r, KG.unit, Literal(claim.unit)
        if claim.dataset:
            d = index.find(paper.iri, claim.dataset_span, DATASET, claim.dataset)
            if d is not None:
                yield r, KG.dataset, URIRef(d)
        if claim.method:
            m = index.find(paper.iri, claim.method_span, METHOD, claim.method)
            if m is not None:
                yield r, KG.method, URIRef(m)
        yield from evidence.cite(r, claim.start, claim.end, RESULT_EXTRACTOR)
    yield from evidence.sentence_triples()
    yield from evidence.extractor_triples()
