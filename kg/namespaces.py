"""RDF namespaces of the public schema."""
from __future__ import annotations

from rdflib import Namespace, URIRef
from rdflib.namespace import DCTERMS, OWL, PROV, RDF, RDFS, SKOS, XSD

#: terms of the vocabulary namespaces, made once (Namespace makes and validates a URIRef per access)
_TERMS: dict[tuple[str, str], URIRef] = {}


class VocabularyNamespace(Namespace):
    """A namespace of a small vocabulary (classes and properties) whose terms are made once.

    The build asks for ``KG.usesMethod`` millions of times on a large corpus; not for resource
    namespaces such as ``ID``, whose terms are unbounded.
    """

    def term(self, name: str) -> URIRef:
        key = (str(self), name)
        made = _TERMS.get(key)
        if made is None:
            made = _TERMS[key] = super().term(name)
        return made


KG = VocabularyNamespace("https://w3id.org/paperkg/ontology#")
ID = Namespace("https://w3id.org/paperkg/id/")
SCHEMA = VocabularyNamespace("https://schema.org/")

#: Prefixes bound in every graph and export, in a stable order.
PREFIXES: dict[str, str] = {
    "kg": str(KG),
    "id": str(ID),
    "dcterms": str(DCTERMS),
    "owl": str(OWL),
    "prov": str(PROV),
    "rdf": str(RDF),
    "rdfs": str(RDFS),
    "schema": str(SCHEMA),
    "skos": str(SKOS),
    "xsd": str(XSD),
}

__all__ = ["KG", "ID", "SCHEMA", "DCTERMS", "OWL", "PROV", "RDF", "RDFS", "SKOS", "XSD", "PREFIXES"]
