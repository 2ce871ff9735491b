"""paperkg's trained entity model as the spaCy component ``paperkg_entity_model``.

The model (a spaCy NER over its own tok2vec, trained on the train split of paperkg's training
corpus by ``python -m training.train``) ships in ``kg/models/corpus_ner``. The component runs it on a
copy of each doc's tokens and stores ``(start_char, end_char, label, None)`` tuples on
``doc._.model_spans``, labels ``Method``, ``Dataset``, ``Task``, ``Metric``. ``paperkg_entities``
turns them into mentions (rule ``"model"``); nothing else reads them.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import minibatch

from kg.extract.statistical import StatSpan, _run, _token_copy, load_ner

#: Where the trained model ships, inside the package.
MODEL_DIR: Path = Path(__file__).resolve().parents[1] / "models" / "corpus_ner"

#: The labels the model predicts.
LABELS: tuple[str, ...] = ("Method", "Dataset", "Task", "Metric")


def model_spans(tagged: Doc, labels: tuple[str, ...] = LABELS) -> list[StatSpan]:
    """The entities of a doc tagged by the model, as ``(start_char, end_char, label, None)``."""
    return [(e.start_char, e.end_char, e.label_, None) for e in tagged.ents if e.label_ in labels]


class EntityModel:
    """Sets ``doc._.model_spans`` from the trained entity model; ``doc.ents`` is left alone."""

    def __init__(self, model_path: str | None = None) -> None:
        if not Doc.has_extension("model_spans"):
            Doc.set_extension("model_spans", default=None)
        self.ner_nlp = load_ner(model_path or str(MODEL_DIR))

    def __call__(self, doc: Doc) -> Doc:
        doc._.model_spans = model_spans(_run(self.ner_nlp, [_token_copy(doc, self.ner_nlp)], batch_size=1)[0])
        return doc

    def pipe(self, docs: Iterable[Doc], batch_size: int = 64) -> Iterator[Doc]:
        """Batched version of ``__call__``."""
        for batch in minibatch(docs, size=batch_size):
            tagged = _run(self.ner_nlp, [_token_copy(d, self.ner_nlp) for d in batch], batch_size)
            for doc, t in zip(batch, tagged):
                doc._.model_spans = model_spans(t)
                yield doc


@Language.factory("paperkg_entity_model", default_config={"model_path": None})
def make_entity_model(nlp: Language, name: str, model_path: str | None) -> EntityModel:
    """Factory of the entity-model component (``model_path`` None: the model shipped in the package)."""
    return EntityModel(model_path)
