"""RDF namespaces of the public schema."""
from __future__ import annotations

import re
from collections.abc import Mapping

from rdflib import Namespace
from rdflib.namespace import DCTERMS, OWL, PROV, RDF, RDFS, SKOS, XSD

from kg.entity_types import ENTITY_TYPES

KG = Namespace("https://w3id.org/paperkg/ontology#")

#: xsd:string as a plain string: a literal of this datatype is written and compared as a plain literal
XSD_STRING: str = str(XSD.string)
ID = Namespace("https://w3id.org/paperkg/id/")
SCHEMA = Namespace("https://schema.org/")

#: One prefix per kind of paperkg resource. Turtle and SPARQL may not have a bare "/" in a prefixed
#: name, so with ``id:`` alone an entity is written ``id:dataset\/imagenet``; with these it is
#: ``dataset:imagenet``. (Mentions and sentences, ``paper/KEY/s3``, keep one escaped slash.)
RESOURCE_PREFIXES: dict[str, str] = {
    kind: f"{ID}{kind}/"
    for kind in ("paper", *(t.segment for t in ENTITY_TYPES), "extractor", "scheme", "person")
}

#: The vocabularies' prefixes and ``id:`` for every paperkg resource: what JSON-LD's context declares.
#: JSON-LD's compact IRIs may contain "/", and its context maps ``kg:`` terms such as ``dataset`` (the
#: property kg:dataset), which a ``dataset`` prefix would shadow.
VOCABULARY_PREFIXES: dict[str, str] = {
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

#: Prefixes bound in every graph, Turtle file and SPARQL query, in a stable order.
PREFIXES: dict[str, str] = {"kg": str(KG), "id": str(ID), **RESOURCE_PREFIXES, **VOCABULARY_PREFIXES}


def compact_iri(iri: str, prefixes: Mapping[str, str] = PREFIXES) -> str | None:
    """``iri`` as ``prefix:local`` with the longest namespace of ``prefixes`` it extends, or None.

    The local part is kept as it is (no Turtle escapes): this is the form tables and JSON-LD show.
    """
    best = None
    for prefix, namespace in prefixes.items():
        if iri.startswith(namespace) and len(iri) > len(namespace) and (best is None or len(namespace) > len(best[1])):
            best = (prefix, namespace)
    return None if best is None else f"{best[0]}:{iri[len(best[1]):]}"


#: A prefixed name: ``method:bert``, ``id:method/bert``.
_CURIE = re.compile(r"([A-Za-z][\w-]*):(\S+)")


def expand_curie(text: str, prefixes: Mapping[str, str] = PREFIXES) -> str | None:
    """The IRI of the prefixed name ``text`` (``method:bert``) whose prefix is one of ``prefixes``, or None:
    the inverse of :func:`compact_iri`."""
    curie = _CURIE.fullmatch(text)
    return prefixes[curie.group(1)] + curie.group(2) if curie and curie.group(1) in prefixes else None


__all__ = ["KG", "ID", "SCHEMA", "DCTERMS", "OWL", "PROV", "RDF", "RDFS", "SKOS", "XSD", "PREFIXES",
           "RESOURCE_PREFIXES", "VOCABULARY_PREFIXES", "compact_iri", "expand_curie"]
