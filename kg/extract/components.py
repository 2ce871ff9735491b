"""spaCy components of paperkg, registered as factories.

- ``paperkg_abbreviations`` (in :mod:`kg.extract.abbreviations`): long form <-> short form pairs.
- ``paperkg_entities``: candidate entity mentions (vocabularies, abbreviations, names, noun phrases);
  ``paperkg_resolution`` (:mod:`kg.extract.resolution`) types, filters and ranks them.
- ``paperkg_proposals``: what the paper itself introduces, and its name.

The components only orchestrate; the work is done by pure helpers in :mod:`kg.extract.terms`
and :mod:`kg.extract.proposals`.
"""
from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc, Span

import kg.extract.abbreviations  # noqa: F401  (registers paperkg_abbreviations)
from kg.extract import terms as T
from kg.extract.modality import implied_modalities
from kg.extract.lexicon import AMBIGUOUS_FORMS, DATASET_NOUNS, METRIC_HEADS
from kg.extract.proposals import find_proposals
from kg.extract.extensions import register_extensions
from kg.extract.types import Mention
from kg.namespaces import ID
from kg.extract.vocab import METRIC_PLURAL, VOCABULARY_SPANS, Vocabulary, load_vocabulary

class EntityRecognizer:
    """Proposes candidate entity mentions on ``doc._.candidates``: vocabulary forms, abbreviation definitions
    and their uses, noun phrases, task frames, Title-case terms, coined names and implied modalities. Which
    of them become ``doc._.mentions``, and with which type, is ``paperkg_resolution``'s decision
    (:mod:`kg.extract.resolution`)."""

    def __init__(self, nlp: Language, vocabulary: Vocabulary) -> None:
        register_extensions()
        self.vocabulary = vocabulary
        self._term_concepts: dict[str, set[str]] = {}  # looked up per abbreviation
        for t in vocabulary.terms:
            self._term_concepts.setdefault(t.form.lower(), set()).add(t.concept)

    def vocabulary_mentions(self, doc: Doc) -> list[Mention]:
        """Mentions of vocabulary concepts and cues (the spans of the vocabulary's span rulers)."""
        out = []
        for span in doc.spans.get(VOCABULARY_SPANS, ()):
            if span.label_ == METRIC_PLURAL:
                continue
            term, start, end = self.vocabulary.term(span.id_), span.start, span.end
            if span.text.lower() in AMBIGUOUS_FORMS:
                continue
            if term.type == "Metric" and end < len(doc) and doc[end].text in {"-", "–"} and not doc[end - 1].whitespace_:
                continue  # a metric cut off a hyphenated word: "training time" in "the training time-series"
            if term.type == "Metric" and span.text.replace(" ", "").isalpha() and span.text[1:].islower() \
                    and span.root.pos_ == "VERB":
                continue  # a metric word is a noun: "to speed up training", "we recall that" (an acronym or a
                # name the parser calls a verb, "using MASE and CRPS", "improves pass@1", is still the metric)
            if span.text.isupper() and start >= 2 and doc[start - 1].text in {"-", "–"} \
                    and not doc[start - 2].whitespace_ and not doc[start - 1].whitespace_:
                continue  # an acronym ending a hyphenated name is part of it: "AD" in "TSB-AD"
            if term.cue:
                if term.type != "Modality":
                    continue
                out.append(T.mention(span, "Modality", "modality-cue", concept=term.concept))
            else:
                out.append(T.mention(span, term.type, "vocabulary", concept=term.concept))
        return out

    def modality_concept(self, slug: str) -> str | None:
        """The IRI of the modality concept ``id:modality/<slug>``, or None when the scheme lacks it."""
        iri = str(ID[f"modality/{slug}"])
        return iri if iri in self.vocabulary.concepts else None

    def _redefined(self, m: Mention, abbrs) -> bool:
        """Is vocabulary mention ``m`` a short form the abstract defines as something else: by a long form
        that is no vocabulary term, or (a concept's name, not a modality cue, which a method's name may
        well be: "Fourier neural operators (FNO)" still cues PDE solutions) a term of another concept
        ("crystal structure prediction (CSP)", where the vocabulary's CSP is common spatial patterns)?"""
        for a in abbrs:
            if m.text in (a.short.text, a.short.text + "s"):
                concepts = self._term_concepts.get(a.long.text.lower())
                if concepts is None or (m.rule != "modality-cue" and m.concept not in concepts):
                    return True
        return False

    @staticmethod
    def vocabulary_types(mentions: list[Mention]) -> dict[tuple[int, int], str]:
        """The type of each vocabulary term's characters in ``mentions`` (the first, where two are written there)."""
        out: dict[tuple[int, int], str] = {}
        for m in mentions:
            if m.rule == "vocabulary":
                out.setdefault((m.start, m.end), m.type)
        return out

    @staticmethod
    def type_of_abbreviation(long: Span, termed: dict[tuple[int, int], str]) -> str | None:
        """The entity type of an abbreviation definition, or None when it names no entity (``termed``: the
        doc's :meth:`vocabulary_types`)."""
        # the long form decides; a short form alone may stand for something else ("CT")
        if (long.start_char, long.end_char) in termed:
            return termed[(long.start_char, long.end_char)]
        tokens = T._strip_edges(list(long))
        if not tokens:
            return None
        head = tokens[-1].lemma_.lower()
        if head in DATASET_NOUNS:
            return "Dataset"
        cls = T.classify_phrase(tokens)
        if cls is not None:
            return cls
        if head in METRIC_HEADS and head not in {"likelihood", "distance", "divergence"}:
            return "Metric"
        capitalised = sum(1 for t in tokens if t.text[:1].isupper())
        if capitalised >= max(2, len([t for t in tokens if t.is_alpha]) - 1):
            return "Method"
        return None

    def __call__(self, doc: Doc) -> Doc:
        abbrs = doc._.abbreviations or []
        vocabulary = self.vocabulary_mentions(doc)  # once: every abbreviation's long form is looked up in it
        termed = self.vocabulary_types(vocabulary)
        found: list[Mention] = [T.extend_term(doc, T.extend_metric(doc, m)) for m in vocabulary]
        found = [m for m in found if not self._redefined(m, abbrs)]
        abbr_mentions = list(T.abbreviation_mentions(abbrs, lambda long: self.type_of_abbreviation(long, termed)))
        found += abbr_mentions
        # later uses of a defined short form
        defined = {(m.short_form, m.type): m for m in abbr_mentions if m.short_form}
        by_text: dict[str, Mention] = {}
        for (sf, _t), m in defined.items():
            by_text.setdefault(sf, m)
            if not sf.endswith("s"):
                by_text.setdefault(sf + "s", m)
            else:
                by_text.setdefault(sf[:-1], m)
        definition_spans = {(m.start, m.end) for m in abbr_mentions}
        for start, end, text in T.word_bounds(doc) if by_text else ():
            ref = by_text.get(text)
            if ref is None:
                continue
            word = doc[start:end]
            if (word.start_char, word.end_char) not in definition_spans:
                found.append(T.mention(word, ref.type, "abbreviation-use", long_form=ref.long_form,
                                       short_form=ref.short_form, concept=ref.concept))
        for span, cls in T.phrase_candidates(doc, {a.short.text for a in abbrs}):
            found.append(T.mention(span, cls, "phrase"))
        vocabulary_tasks = {(m.start, m.end): m.concept for m in found if m.rule == "vocabulary" and m.type == "Task"}
        for span in T.framed_tasks(doc):
            # framed, a single word is a task too ("classification tasks"); a known one keeps its concept
            found.append(T.mention(span, "Task", "task-frame",
                                   concept=vocabulary_tasks.get((span.start_char, span.end_char))))
        known = [(m.start, m.end) for m in found if m.rule == "vocabulary"]
        for span in T.title_case_terms(doc):
            if any(a < span.end_char and span.start_char < b for a, b in known) and not T.specialises(span, known):
                continue  # part of a known dataset/method name
            last = span[-1].lemma_.lower()
            t = "Dataset" if T.dataset_context(span) or last in DATASET_NOUNS \
                else "Task" if T.classify_phrase(list(span)) == "Task" else "Method"
            found.append(T.mention(span, t, "title-case"))
        covered = {(m.start, m.end) for m in found if m.rule in {"vocabulary", "abbreviation", "abbreviation-use"}}
        for span in T.name_candidates(doc):
            if (span.start_char, span.end_char) in covered or T.dataset_context(span):
                continue  # a name in a dataset context is the tagger's to type (a rule of its own added nothing)
            found.append(T.mention(span, "Method", "name"))
        found += implied_modalities(doc, self.modality_concept)
        doc._.candidates = found
        return doc


@Language.factory("paperkg_entities")
def make_entity_recognizer(nlp: Language, name: str) -> EntityRecognizer:
    """Factory of the candidate-mention component (reads the vocabularies in ``ontology/``)."""
    return EntityRecognizer(nlp, load_vocabulary())


class ProposalDetector:
    """Marks the mentions of what the paper introduces and sets ``doc._.paper_name``."""

    def __init__(self) -> None:
        register_extensions()

    def __call__(self, doc: Doc) -> Doc:
        proposed, name = find_proposals(doc, doc._.mentions or [])
        doc._.mentions = sorted(set(doc._.mentions or []))
        doc._.proposed = proposed
        doc._.paper_name = name
        return doc


@Language.factory("paperkg_proposals")
def make_proposal_detector(nlp: Language, name: str) -> ProposalDetector:
    """Factory of the proposal-detection component."""
    return ProposalDetector()
