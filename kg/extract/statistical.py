"""Statistical NER of scientific entities (trained on SciERC), as the spaCy component ``paperkg_scierc_ner``.

The trained pipeline ships in ``kg/models/scierc_ner`` (retrain it with
``training/scierc/train.py``). The component runs that NER on a copy of each doc's tokens and
stores what it finds on ``doc._.stat_spans`` as ``(start_char, end_char, label, score)`` tuples,
``score`` being None (the transition-based NER gives no span confidence). The main pipeline's
``doc.ents`` and ``doc._.mentions`` are left untouched.

Use it as a component (``nlp.add_pipe("paperkg_scierc_ner")``) or call the pure helper
:func:`statistical_spans` on any Doc.
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

#: Where the trained NER ships, inside the package.
MODEL_DIR: Path = Path(__file__).resolve().parents[1] / "models" / "scierc_ner"

#: Labels reported on ``doc._.stat_spans`` (SciERC's Material covers datasets and corpora).
LABELS: tuple[str, ...] = ("Method", "Task", "Metric", "Material")

#: One statistical span: start and end characters, label, confidence (None when unknown).
StatSpan = tuple[int, int, str, "float | None"]


@lru_cache(maxsize=2)
def load_ner(path: str | None = None) -> Language:
    """Load the trained NER pipeline (``MODEL_DIR`` unless ``path``); cached, so it loads once per process."""
    import spacy

    where = Path(path) if path else MODEL_DIR
    if not (where / "config.cfg").is_file() or not (where / "ner").is_dir():
        raise ModelError(
            f"the statistical NER model is missing at {where} (expected config.cfg and ner/); "
            "reinstall paperkg from a full checkout, or retrain it with "
            f"`python training/scierc/train.py --scierc /path/to/scierc --output {where}`"
        )
    try:
        return spacy.load(where)
    except (OSError, ValueError) as exc:
        raise ModelError(f"cannot load the statistical NER model at {where}: {exc}; retrain it with "
                         "training/scierc/train.py") from exc


def _token_copy(doc: Doc, ner_nlp: Language) -> Doc:
    """A fresh Doc in ``ner_nlp``'s vocabulary with the same words and spaces (so the same text)."""
    return Doc(ner_nlp.vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc])


def _spans(tagged: Doc, labels: tuple[str, ...] = LABELS) -> list[StatSpan]:
    """The entities of ``tagged`` with a kept label, as character spans."""
    return [(e.start_char, e.end_char, e.label_, None) for e in tagged.ents if e.label_ in labels]


def _run(ner_nlp: Language, docs: list[Doc], batch_size: int) -> list[Doc]:
    """Run every component of ``ner_nlp`` over ``docs`` (already tokenized) in batches."""
    stream: Iterable[Doc] = docs
    for _name, proc in ner_nlp.pipeline:
        stream = proc.pipe(stream, batch_size=batch_size) if hasattr(proc, "pipe") else map(proc, stream)
    return list(stream)


def statistical_spans(doc: Doc, model_path: str | None = None) -> list[StatSpan]:
    """Spans the statistical NER finds in ``doc``: ``(start_char, end_char, label, None)``, in text order.

    ``doc`` is not modified; offsets index ``doc.text``.
    """
    ner_nlp = load_ner(model_path)
    return _spans(_run(ner_nlp, [_token_copy(doc, ner_nlp)], batch_size=1)[0])


class StatisticalNER:
    """Sets ``doc._.stat_spans`` from the shipped SciERC NER, leaving ``doc.ents`` alone."""

    def __init__(self, model_path: str | None = None, labels: tuple[str, ...] = LABELS) -> None:
        register_extensions()
        self.ner_nlp = load_ner(model_path)
        self.labels = tuple(labels)

    def __call__(self, doc: Doc) -> Doc:
        tagged = _run(self.ner_nlp, [_token_copy(doc, self.ner_nlp)], batch_size=1)[0]
        doc._.stat_spans = _spans(tagged, self.labels)
        return doc

    def pipe(self, docs: Iterable[Doc], batch_size: int = 64) -> Iterator[Doc]:
        """Batched version of ``__call__``."""
        for batch in minibatch(docs, size=batch_size):
            tagged = _run(self.ner_nlp, [_token_copy(d, self.ner_nlp) for d in batch], batch_size)
            for doc, t in zip(batch, tagged):
                doc._.stat_spans = _spans(t, self.labels)
                yield doc


@Language.factory("paperkg_scierc_ner", default_config={"model_path": None, "labels": list(LABELS)})
def make_statistical_ner(nlp: Language, name: str, model_path: str | None, labels: list[str]) -> StatisticalNER:
    """Factory of the statistical-NER component (``model_path`` None: the model shipped in the package)."""
    return StatisticalNER(model_path, tuple(labels))
