"""Typed relations between named things of an abstract (placeholder, filled in below)."""
from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc

from kg.extract.types import Relation

if not Doc.has_extension("relations"):
    Doc.set_extension("relations", default=None)


def find_relations(doc: Doc) -> list[Relation]:
    """The relations of ``doc``."""
    return []


class RelationFinder:
    """Sets ``doc._.relations``."""

    def __call__(self, doc: Doc) -> Doc:
        doc._.relations = find_relations(doc)
        return doc


@Language.factory("paperkg_relations")
def make_relation_finder(nlp: Language, name: str) -> RelationFinder:
    """Factory of the relation-extraction component."""
    return RelationFinder()
