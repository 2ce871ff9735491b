"""Which modality mentions say what data a paper works with, and which are passing remarks.

A modality named only in a release note ("code and videos are available at ...", "we open-source
code and models") is an artifact the authors share, not data the paper processes.
"""
from __future__ import annotations

import dataclasses
import re

from spacy.tokens import Doc

from kg.extract.lexicon import PASSING_HEADS
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


def passing_cue(doc: Doc, m: Mention, mentions: list[Mention]) -> bool:
    """Is the modality cue ``m`` no evidence of the paper's data? Either it modifies a noun about a
    field rather than data ("the NLP field", "LLM scaling laws"), or a word naming another modality
    comes right before it ("audio super-resolution" is no image task)."""
    if m.rule != "modality-cue":
        return False
    if in_passing(doc, m):
        return True
    return any(k.type == "Modality" and k.rule == "vocabulary" and k.concept != m.concept and k.end < m.start
               and doc.text[k.end : m.start] in {" ", "-"} for k in mentions)


def in_passing(doc: Doc, m: Mention) -> bool:
    """Does the mention ``m`` modify a noun about a field or its fame rather than name what the paper
    works with ("the NLP field", "LLM scaling laws", "the LLM community")?"""
    span = doc.char_span(m.start, m.end, alignment_mode="expand")
    if span is None:
        return False
    token = span.root
    for _ in range(3):  # up a chain of modifiers: "LLM" -> "scaling" -> "laws"
        if token.dep_ not in {"compound", "amod", "nmod", "npadvmod"} or span.start <= token.head.i < span.end:
            break
        token = token.head
        if token.lemma_.lower() in PASSING_HEADS:
            return True
    after = doc[span.end : min(span.end + 2, span.sent.end)]  # the parse may miss it: "LLM scaling laws"
    for k, t in enumerate(after):
        if t.lemma_.lower() in PASSING_HEADS and t.pos_ == "NOUN":
            return True
        if not t.is_alpha or t.is_stop or t.pos_ not in {"NOUN", "VERB", "ADJ"}:
            break
    return False


def working_modalities(doc: Doc, mentions: list[Mention]) -> list[Mention]:
    """``mentions`` without the modality mentions made in release sentences or in passing
    (:func:`passing_cue`)."""
    release = [(s.start_char, s.end_char) for s in doc.sents if release_sentence(s.text)]
    return [m for m in mentions if not (m.type == "Modality" and (any(a <= m.start < b for a, b in release)
                                                                  or passing_cue(doc, m, mentions)))]


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


#: The level of detail at which a paper's modalities are reported (slugs of ``id:modality/...``), the
#: modality list of the annotation guidelines: a narrower concept of the scheme ("satellite imagery",
#: "MRI", "music") is reported as its nearest ancestors in this set ("image" and "geospatial", "image",
#: "audio"); a concept with no ancestor here ("source code", "trajectories") is not reported.
REPORTED_MODALITIES = frozenset("""
eeg ieeg fmri ecg meg neural-recordings image video text audio speech time-series tabular graph
point-cloud set molecule protein-sequence protein-structure crystal-structure atomistic-materials
gene-expression spatial-transcriptomics radar weather-climate geospatial robot-actions pde-solutions
dialogue behavioral-video
""".split())


def _slug(iri: str) -> str:
    return iri.rsplit("/", 1)[-1]


def reported_concept(iri: str, broader) -> str:
    """The concept a modality concept ``iri`` is reported as: itself when it is in
    :data:`REPORTED_MODALITIES` or has no ancestor there, else its nearest ancestor there (of two at
    the same distance, the one whose label the narrower one's slug shares a stem with: "satellite
    imagery" is reported as "image", not "geospatial"). ``broader(iri)`` gives the IRIs of a
    concept's broader concepts. One concept, because one span backs one link."""
    if _slug(iri) in REPORTED_MODALITIES:
        return iri
    level, seen = list(broader(iri)), {iri}
    while level:
        found = sorted({b for b in level if _slug(b) in REPORTED_MODALITIES})
        if found:
            stems = {w[:4] for w in _slug(iri).split("-")}
            return min(found, key=lambda b: (not any(w[:4] in stems for w in _slug(b).split("-")), b))
        seen.update(level)
        level = [b for x in level for b in broader(x) if b not in seen]
    return iri


def reported_modalities(mentions: list[Mention], broader) -> list[Mention]:
    """``mentions`` with each modality mention's concept replaced by the concept it is reported as
    (see :func:`reported_concept`), and without the modality mentions of a concept outside
    :data:`REPORTED_MODALITIES` and its descendants."""
    out: list[Mention] = []
    for m in mentions:
        if m.type == "Modality" and m.concept:
            c = reported_concept(m.concept, broader)
            if _slug(c) not in REPORTED_MODALITIES:
                continue
            m = m if c == m.concept else dataclasses.replace(m, concept=c)
        out.append(m)
    return out
