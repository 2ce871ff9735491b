"""Controlled vocabularies (modalities, metrics, datasets, methods, tasks) read from ``ontology/``."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kg.entity_types import TYPE_NAMES
from kg.errors import OntologyError
from kg.resources import ontology_files


@dataclass(frozen=True)
class Term:
    """One written form of a vocabulary concept. ``cue`` forms imply the concept without naming it."""

    form: str
    type: str
    concept: str
    label: str
    cue: bool = False


@dataclass(frozen=True)
class Concept:
    """A vocabulary concept with its preferred label and broader concepts."""

    iri: str
    type: str
    label: str
    alt_labels: tuple[str, ...]
    broader: tuple[str, ...]


@dataclass(frozen=True)
class Vocabulary:
    """All vocabulary concepts and their written forms."""

    concepts: dict[str, Concept]
    terms: tuple[Term, ...]
    triples: dict[str, tuple] = None  # type: ignore[assignment]  # concept IRI -> its own triples

    def concept_triples(self, iri: str) -> tuple:
        """The triples the vocabulary states about concept ``iri`` (labels, scheme, broader, sameAs)."""
        return (self.triples or {}).get(iri, ())


@lru_cache(maxsize=4)
def load_vocabulary(files: tuple[Path, ...] | None = None) -> Vocabulary:
    """Read every concept typed kg:Method/Dataset/Modality/Task/Metric from the ontology files."""
    from rdflib import Graph, Literal, URIRef
    from rdflib.namespace import RDF, RDFS, SKOS

    from kg.namespaces import KG

    graph = Graph()
    for path in files or tuple(ontology_files()):
        try:
            graph.parse(path, format="turtle")
        except Exception as exc:  # rdflib raises many parser-specific types
            raise OntologyError(f"{path}: cannot parse vocabulary: {exc}; fix the Turtle syntax") from exc
    concepts: dict[str, Concept] = {}
    terms: list[Term] = []
    for type_name in TYPE_NAMES:
        for iri in sorted(set(graph.subjects(RDF.type, KG[type_name]))):
            label = graph.value(iri, SKOS.prefLabel) or graph.value(iri, RDFS.label)
            if label is None:
                continue
            alts = sorted({str(a) for a in graph.objects(iri, SKOS.altLabel) if isinstance(a, Literal)})
            broader = tuple(sorted(str(b) for b in graph.objects(iri, SKOS.broader)))
            concepts[str(iri)] = Concept(str(iri), type_name, str(label), tuple(alts), broader)
            for form in {str(label), *alts, *(str(x) for x in graph.objects(iri, RDFS.label))}:
                terms.append(Term(form, type_name, str(iri), str(label)))
            for cue in sorted(str(c) for c in graph.objects(iri, KG.cue)):
                terms.append(Term(cue, type_name, str(iri), str(label), cue=True))
    terms.sort(key=lambda t: (t.type, t.concept, t.form, t.cue))
    own = {iri: tuple(sorted(graph.triples((URIRef(iri), None, None)))) for iri in concepts}
    return Vocabulary(concepts, tuple(terms), own)
