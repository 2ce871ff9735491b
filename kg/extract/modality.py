"""Which modality mentions say what data a paper works with, and which are passing remarks.

A modality named only in a release note ("code and videos are available at ...", "we open-source
code and models") is an artifact the authors share, not data the paper processes.
"""
from __future__ import annotations

import re

from spacy.tokens import Doc

from kg.extract.types import Mention

#: a sentence that announces released artifacts rather than describing the work
RELEASE = re.compile(
    r"(?i)https?://|github\.com|\bopen[- ]sourced?\b|\b(?:publicly|freely)\s+available\b"
    r"|\b(?:code|models?|data(?:sets?)?|videos?|weights|checkpoints|demos?|project page)\b[^.]{0,80}"
    r"\b(?:(?:are|is|will be|be|made)\s+(?:publicly\s+|freely\s+)?(?:available|released|provided)|at\s*:)"
)


def release_sentence(text: str) -> bool:
    """Does the sentence ``text`` announce code, data or other released artifacts?"""
    return RELEASE.search(text) is not None


def working_modalities(doc: Doc, mentions: list[Mention]) -> list[Mention]:
    """``mentions`` without the modality mentions made in release sentences."""
    release = [(s.start_char, s.end_char) for s in doc.sents if release_sentence(s.text)]
    return [m for m in mentions if not (m.type == "Modality" and any(a <= m.start < b for a, b in release))]


#: words that name a modality only in a sentence about modalities ("three modalities (vision, language, audio)")
MODALITY_WORDS = {"vision": "image", "visual": "image", "language": "text", "linguistic": "text", "textual": "text",
                  "acoustic": "audio", "auditory": "audio"}
#: a word that, in an abstract about proteins, says which protein data it works with
PROTEIN_DATA = {"sequence": "protein-sequence", "sequences": "protein-sequence",
                "structure": "protein-structure", "structures": "protein-structure", "structural": "protein-structure"}


def implied_modalities(doc: Doc, concept_iri) -> list[Mention]:
    """Modality mentions that single words make in context: "vision" in a sentence about modalities,
    "sequence" or "structure" in an abstract about proteins. ``concept_iri(slug)`` is the IRI of a
    modality concept (None when the scheme lacks it)."""
    out: list[Mention] = []

    def add(token, slug: str) -> None:
        iri = concept_iri(slug)
        if iri is not None:
            out.append(Mention(token.idx, token.idx + len(token.text), "Modality", token.text, "modality-context",
                               concept=iri))

    for sent in doc.sents:
        if "modalit" in sent.text.lower():
            for token in sent:
                if token.lower_ in MODALITY_WORDS and token.pos_ in {"NOUN", "ADJ", "PROPN"}:
                    add(token, MODALITY_WORDS[token.lower_])
    if sum(1 for t in doc if t.lemma_.lower() == "protein") >= 2:
        seen: set[str] = set()
        for token in doc:
            slug = PROTEIN_DATA.get(token.lower_)
            if slug and slug not in seen and not (token.lower_.startswith("struct") and token.head.lower_ in {"data"}):
                seen.add(slug)
                add(token, slug)
    return out
