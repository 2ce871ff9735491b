"""The ``Doc`` extensions paperkg's spaCy components set, registered in one place.

Each component calls :func:`register_extensions` when it is constructed (as scispaCy's components do),
so importing a module changes nothing in spaCy's global state.
"""
from __future__ import annotations

from spacy.tokens import Doc

#: extension -> the component that sets it
EXTENSIONS: dict[str, str] = {
    "abbreviations": "paperkg_abbreviations",
    "model_spans": "paperkg_entity_tagger",
    "model_scores": "paperkg_entity_tagger",
    "candidates": "paperkg_entities",
    "mentions": "paperkg_resolution",
    "proposed": "paperkg_proposals",
    "paper_name": "paperkg_proposals",
    "results": "paperkg_results",
    "relations": "paperkg_relations",
}


def register_extensions() -> None:
    """Register every paperkg ``Doc`` extension (default None) that is not registered yet."""
    for name in EXTENSIONS:
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=None)
