"""RDF namespaces of the public schema."""
from __future__ import annotations

from rdflib import Namespace
from rdflib.namespace import DCTERMS, OWL, PROV, RDF, RDFS, SKOS, XSD

KG = Namespace("https://w3id.org/paperkg/ontology#")
ID = Namespace("https://w3id.org/paperkg/id/")
SCHEMA = Namespace("https://schema.org/")

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
