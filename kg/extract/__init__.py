"""Entity extraction from abstracts with spaCy.

``extract_docs(nlp, texts)`` runs the pipeline and returns one :class:`PaperExtraction` per text.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from kg.extract.model import PIPELINE_VERSION, find_model, load_nlp
from kg.extract.types import ENTITY_TYPES, Mention, PaperExtraction, Relation, ResultClaim

__all__ = ["ENTITY_TYPES", "Mention", "PaperExtraction", "Relation", "ResultClaim", "PIPELINE_VERSION",
           "extract_doc", "extract_texts", "find_model", "load_nlp"]


def extract_doc(doc) -> PaperExtraction:
    """Turn a doc processed by paperkg's pipeline into a plain :class:`PaperExtraction`."""
    from kg.extract.proposals import code_urls, with_proposed
    from kg.keys import form_keys

    mentions = with_proposed(list(doc._.mentions or []), list(doc._.proposed or []))
    written = {f for m in mentions for f in (m.text, m.long_form, m.short_form) if f}
    return PaperExtraction(
        sentences=[(s.start_char, s.end_char) for s in doc.sents],
        mentions=mentions,
        name=doc._.paper_name,
        code_urls=code_urls(doc.text),
        results=list(doc._.results or []),
        relations=list(doc._.relations or []),
        forms={f: form_keys(f) for f in sorted(written)},
    )


def extract_texts(texts: Iterable[str], nlp=None, batch_size: int = 32) -> Iterator[PaperExtraction]:
    """Extract from each text in order (the pipeline is loaded once if ``nlp`` is not given).

    The pipeline reads each text without its invisible characters (zero-width and bidi controls); the
    offsets of what it finds are those of the text as given (:mod:`kg.extract.invisible`)."""
    from kg.extract.invisible import restore_offsets, strip_invisible

    nlp = nlp or load_nlp()
    for doc, where in nlp.pipe((strip_invisible(text) for text in texts), batch_size=batch_size, as_tuples=True):
        yield restore_offsets(extract_doc(doc), where)
