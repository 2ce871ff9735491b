"""Quantitative results as RDF: ``?paper kg:reportsResult ?r . ?r a kg:Result ; kg:metric ?m ; ...``."""
from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from rdflib import Literal, URIRef
from rdflib.namespace import PROV, RDF, XSD

from kg.entity_types import DATASET, METHOD
from kg.extract.types import PaperExtraction
from kg.ingest.corpus import Paper
from kg.namespaces import KG
from kg.rdf.evidence import EntityIndex, Triple, extractor_triples, sentence_index, sentence_triples
from kg.resolve.ids import extractor_iri, result_iri, sentence_iri

#: Name of the extractor results are attributed to.
RESULT_EXTRACTOR = "result-pattern"


def _decimal(value: float) -> Literal:
    text = format(Decimal(repr(value)).normalize(), "f")
    return Literal(text, datatype=XSD.decimal)


def result_triples(paper: Paper, extraction: PaperExtraction, index: EntityIndex) -> Iterator[Triple]:
    """The kg:Result nodes of the claims of one paper, linked to the same entities as its mentions."""
    p = URIRef(paper.iri)
    sentences: set[int] = set()
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
        yield r, KG.start, Literal(claim.start)
        yield r, KG.end, Literal(claim.end)
        yield r, PROV.wasAttributedTo, extractor_iri(RESULT_EXTRACTOR)
        s = sentence_index(extraction, claim.start)
        if s is not None:
            sentences.add(s)
            yield r, KG.inSentence, sentence_iri(p, s)
    for s in sorted(sentences):
        yield from sentence_triples(paper, extraction, s)
    if extraction.results:
        yield from extractor_triples(RESULT_EXTRACTOR)
