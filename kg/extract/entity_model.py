"""paperkg's trained entity model as the spaCy component ``paperkg_entity_model``.

The model (a spaCy NER over its own tok2vec, trained on the train split of paperkg's training
corpus by ``python -m training.train``) ships in ``kg/models/corpus_ner``. The component runs it on a
copy of each doc's tokens and stores ``(start_char, end_char, label, confidence)`` tuples on
``doc._.model_spans``, labels ``Method``, ``Dataset``, ``Task``, ``Metric``. ``paperkg_entities``
turns them into mentions (rule ``"model"``); nothing else reads them.

Two model families are read. A span categoriser (``spancat_singlelabel``: one label or none for every
span of 1-6 tokens, softmax scores) gives each span its probability as the confidence, and spans under
``threshold`` are left out. A transition-based NER gives its greedy analysis and no confidence (None);
with ``beam_width`` ``k`` > 1 it keeps the ``k`` best analyses and a span's confidence is the total
probability of those that contain it (spaCy's ``scored_ents``), though measured on the dev split such
beams' best analyses are worse than the greedy one and their marginals barely separate right from
wrong spans.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import minibatch

from kg.errors import ModelError
from kg.extract.extensions import register_extensions
from kg.extract.statistical import StatSpan, _run, _token_copy

#: Where the trained model ships, inside the package.
MODEL_DIR: Path = Path(__file__).resolve().parents[1] / "models" / "corpus_ner"

#: Docs run through the model at once (bounds the span categoriser's memory: ~60 MB for 16 abstracts).
MAX_BATCH = 16

#: The labels the model predicts.
LABELS: tuple[str, ...] = ("Method", "Dataset", "Task", "Metric")


def model_spans(tagged: Doc, scores: dict | None = None, labels: tuple[str, ...] = LABELS) -> list[StatSpan]:
    """The entities of a doc tagged by the model, as ``(start_char, end_char, label, confidence)``.

    ``scores`` maps ``(start_token, end_token, label)`` to a probability (None: no confidence)."""
    out = []
    for e in tagged.ents:
        if e.label_ not in labels:
            continue
        confidence = None
        if scores is not None:
            confidence = round(min(1.0, max(0.0, float(scores.get((e.start, e.end, e.label_), 0.0)))), 3)
        out.append((e.start_char, e.end_char, e.label_, confidence))
    return out


class SpanScores:
    """The span categoriser's probabilities for every candidate span of one doc.

    ``prob(start, end, label)`` is the probability of exactly ``start:end`` (characters) being ``label``,
    None when the model did not score that span; ``best(text, label)`` the highest such probability over
    every place the written form ``text`` was scored, None when it never was."""

    __slots__ = ("_rows", "_probs", "_labels", "_text")

    def __init__(self, starts: list[int], ends: list[int], probs, labels: tuple[str, ...], text: str) -> None:
        self._rows = {(a, b): i for i, (a, b) in enumerate(zip(starts, ends))}
        self._probs, self._labels, self._text = probs, {label: j for j, label in enumerate(labels)}, text

    def prob(self, start: int, end: int, label: str) -> float | None:
        row, col = self._rows.get((start, end)), self._labels.get(label)
        return None if row is None or col is None else round(float(self._probs[row, col]), 3)

    def best(self, text: str, label: str) -> float | None:
        col = self._labels.get(label)
        if col is None or not text:
            return None
        rows, at = [], self._text.find(text)
        while at != -1:  # every place the form is written, scored or not
            row = self._rows.get((at, at + len(text)))
            if row is not None:
                rows.append(row)
            at = self._text.find(text, at + 1)
        return round(float(self._probs[rows, col].max()), 3) if rows else None

    def __len__(self) -> int:
        return len(self._rows)


def candidate_scores(docs: list[Doc], indices, scores, labels: tuple[str, ...]) -> list[SpanScores]:
    """Per doc, the :class:`SpanScores` of every candidate span the span categoriser scored."""
    import numpy

    scores = numpy.asarray(scores)
    out, offset = [], 0
    for i, doc in enumerate(docs):
        n = int(indices.lengths[i])
        pairs = numpy.asarray(indices[i].dataXd)
        starts = [doc[a].idx for a in pairs[:, 0].tolist()] if n else []
        ends = [doc[b - 1].idx + len(doc[b - 1]) for b in pairs[:, 1].tolist()] if n else []
        out.append(SpanScores(starts, ends, scores[offset:offset + n, :len(labels)], labels, doc.text))
        offset += n
    return out


@lru_cache(maxsize=4)
def load_model(path: str | None = None) -> Language:
    """Load the trained entity model (``MODEL_DIR`` unless ``path``); cached, so it loads once per process."""
    import spacy

    where = Path(path) if path else MODEL_DIR
    if not (where / "config.cfg").is_file() or not (where / "meta.json").is_file():
        raise ModelError(f"the entity model is missing at {where} (expected config.cfg and meta.json); reinstall "
                         "paperkg from a full checkout, or retrain it with `python -m training.train --corpus "
                         f"ABSTRACTS.jsonl.gz --output {where}`")
    try:
        return spacy.load(where)
    except (OSError, ValueError) as exc:
        raise ModelError(f"cannot load the entity model at {where}: {exc}; retrain it with "
                         "`python -m training.train`") from exc


def scored_spans(tagged: Doc, threshold: float = 0.0, key: str = "sc",
                 labels: tuple[str, ...] = LABELS) -> list[StatSpan]:
    """The spans a span categoriser put in ``tagged.spans[key]``, with their scores as confidence, in text
    order; spans scored under ``threshold`` are left out."""
    group = tagged.spans[key] if key in tagged.spans else []
    scores = group.attrs.get("scores") if len(group) else None
    out = []
    for i, span in enumerate(group):
        confidence = round(float(scores[i].max()), 3) if scores is not None else None
        if span.label_ in labels and (confidence is None or confidence >= threshold):
            out.append((span.start_char, span.end_char, span.label_, confidence))
    return sorted(out)


class EntityModel:
    """Sets ``doc._.model_spans`` from the trained entity model; ``doc.ents`` is left alone."""

    def __init__(self, model_path: str | None = None, beam_width: int = 1, threshold: float = 0.0) -> None:
        register_extensions()
        self._tables: list[SpanScores] = []
        self.ner_nlp = load_model(model_path or str(MODEL_DIR))
        self.beam_width = max(1, int(beam_width))
        self.threshold = float(threshold)

    def _tag(self, docs: list[Doc]) -> list[list[StatSpan]]:
        copies = [_token_copy(d, self.ner_nlp) for d in docs]
        if "spancat" in self.ner_nlp.pipe_names:
            self._tables = []
            for name, proc in self.ner_nlp.pipeline:
                if name != "spancat":
                    copies = list(proc.pipe(copies)) if hasattr(proc, "pipe") else [proc(c) for c in copies]
            spancat = self.ner_nlp.get_pipe("spancat")
            indices, scores = spancat.predict(copies)
            spancat.set_annotations(copies, (indices, scores))
            self._tables = candidate_scores(copies, indices, scores, spancat.labels)
            return [scored_spans(t, self.threshold) for t in copies]
        if self.beam_width == 1:
            return [model_spans(t) for t in _run(self.ner_nlp, copies, batch_size=len(copies))]
        for name, proc in self.ner_nlp.pipeline:
            if name != "ner":
                copies = [proc(c) for c in copies]
        ner = self.ner_nlp.get_pipe("ner")
        beams = ner.beam_parse(copies, beam_width=self.beam_width)
        scores = ner.scored_ents(beams)
        ner.set_annotations(copies, beams)
        return [model_spans(c, s) for c, s in zip(copies, scores)]

    def __call__(self, doc: Doc) -> Doc:
        return next(iter(self.pipe([doc], batch_size=1)))

    def pipe(self, docs: Iterable[Doc], batch_size: int = 64) -> Iterator[Doc]:
        """Set ``doc._.model_spans`` (and, for a span categoriser, ``doc._.model_scores``) on every doc.

        At most :data:`MAX_BATCH` docs go through the model at once, whatever the pipeline's batch size: a
        span categoriser holds activations for every candidate span of the batch (about 1,500 an abstract)."""
        for batch in minibatch(docs, size=min(batch_size, MAX_BATCH)):
            self._tables = []
            spans = self._tag(batch)
            for i, doc in enumerate(batch):
                doc._.model_spans = spans[i]
                doc._.model_scores = self._tables[i] if self._tables else None
                yield doc


@Language.factory("paperkg_entity_model", default_config={"model_path": None, "beam_width": 1, "threshold": 0.0})
def make_entity_model(nlp: Language, name: str, model_path: str | None, beam_width: int,
                      threshold: float) -> EntityModel:
    """Factory of the entity-model component (``model_path`` None: the model shipped in the package)."""
    return EntityModel(model_path, beam_width, threshold)
