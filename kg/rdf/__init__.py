"""Turning extractions into RDF triples of the public schema (one module per kind of statement)."""
from __future__ import annotations

from kg.rdf.papers import LINK_PROPERTY, entity_triples, link_triples, paper_triples, short_title

__all__ = ["LINK_PROPERTY", "entity_triples", "link_triples", "paper_triples", "short_title"]
