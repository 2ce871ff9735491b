"""Which modalities a paper works with, judged by a trained classifier (spaCy component ``paperkg_modality_model``).

The entity stage's modality mentions (vocabulary cues, context words) are grouped by the concept they are
reported as. A logistic regression (:mod:`kg.extract.linear`) over named features of each group says
whether the paper processes or models that modality, or names it in passing ("unlike image models, ...").
A group scored under the threshold loses its mentions; the others' mentions carry the probability as their
confidence. The model ships in ``kg/models/modalities``; ``python -m training.train_modalities`` retrains it
and chooses the threshold on the dev split.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc

from kg.extract.extensions import register_extensions
from kg.extract.linear import LinearModel, read_linear
from kg.extract.types import Mention

MODEL_DIR: Path = Path(__file__).resolve().parents[1] / "models" / "modalities"
RETRAIN = "python -m training.train_modalities --corpus CORPUS"
#: The classes: the paper does not work with the modality, or does.
CLASSES: tuple[str, ...] = ("NO", "YES")
_SELF = frozenset({"we", "our", "us"})


def modality_groups(mentions: Sequence[Mention]) -> dict[str, list[Mention]]:
    """The modality mentions with a concept, grouped by it (concept IRI -> its mentions, in text order)."""
    groups: dict[str, list[Mention]] = {}
    for m in sorted(mentions):
        if m.type == "Modality" and m.concept:
            groups.setdefault(m.concept, []).append(m)
    return groups


def group_features(doc: Doc, group: Sequence[Mention], mentions: Sequence[Mention]) -> list[str]:
    """Named features of one concept's modality mentions in ``doc``: the concept, how often and where it is
    written, by which rule, in what words (the word before and after, the syntactic head), whether the
    authors speak in its sentences, and which other mention it sits in ("image classification"); each also
    conjoined with the concept."""
    slug = group[0].concept.rsplit("/", 1)[-1]
    sentences = [s.start_char for s in doc.sents]
    feats = {f"n={min(len(group), 3)}"}
    for m in group:
        feats |= {f"rule={m.rule}", f"form={m.text.lower()}"}
        index = sum(1 for s in sentences if s <= m.start) - 1
        feats.add(f"sent={min(index, 3)}" if index < len(sentences) - 1 else "sent=last")
        span = doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is None:
            continue
        root, sent = span.root, span.sent
        feats |= {f"dep={root.dep_}", f"head={root.head.lemma_.lower()}",
                  f"prev={doc[span.start - 1].lemma_.lower() if span.start > sent.start else '<s>'}",
                  f"next={doc[span.end].lemma_.lower() if span.end < sent.end else '</s>'}"}
        if any(t.lower_ in _SELF for t in sent):
            feats.add("we")
        feats |= {f"in={k.type}" for k in mentions
                  if k.type != "Modality" and k.start <= m.start and m.end <= k.end and (k.start, k.end) != (m.start, m.end)}
    return sorted({f"concept={slug}", *feats, *(f"{slug}|{f}" for f in feats)})


class ModalityModel(LinearModel):
    """The modality classifier (NO, YES) with the threshold chosen with it on the dev split."""

    def __init__(self, features: Sequence[str], weights, bias, classes: Sequence[str] = CLASSES,
                 threshold: float = 0.5) -> None:
        super().__init__(features, weights, bias, classes)
        self.threshold = float(threshold)

    def settings(self) -> dict:
        return {"threshold": self.threshold}

    def scores(self, doc: Doc, mentions: Sequence[Mention]) -> dict[str, float]:
        """Each modality concept of ``mentions`` -> the probability that the paper works with it."""
        groups = modality_groups(mentions)
        keys = sorted(groups)
        if not keys:
            return {}
        probs = self.probabilities([group_features(doc, groups[k], mentions) for k in keys])
        return {k: float(p[self.classes.index("YES")]) for k, p in zip(keys, probs)}


@lru_cache(maxsize=4)
def load_model(path: str | None = None) -> ModalityModel:
    """Load the trained modality model (``MODEL_DIR`` unless ``path``); cached, so it loads once per process."""
    where = Path(path) if path else MODEL_DIR
    features, weights, meta = read_linear(where, "modality model", f"{RETRAIN} --output {where}")
    return ModalityModel(features, weights, meta["bias"], meta["classes"], meta.get("threshold", 0.5))


def judged(mentions: Sequence[Mention], scores: dict[str, float], threshold: float) -> list[Mention]:
    """``mentions`` without the modality mentions of a concept scored under ``threshold``; the others'
    modality mentions carry their concept's score as confidence."""
    out = []
    for m in mentions:
        if m.type == "Modality" and m.concept in scores:
            if scores[m.concept] < threshold:
                continue
            m = dataclasses.replace(m, confidence=round(scores[m.concept], 3))
        out.append(m)
    return out


def one_concept_per_span(mentions: Sequence[Mention]) -> list[Mention]:
    """``mentions`` with one modality mention per span: where a written form cues two modalities (a dataset
    of images and text), the more confident stands (on a tie, or unscored, the concept whose IRI sorts
    first), since one span backs one link; the other modality needs a span of its own."""
    best: dict[tuple[int, int], Mention] = {}
    for m in mentions:
        if m.type == "Modality":
            k = best.get((m.start, m.end))
            if k is None or (-(m.confidence or 0.0), m.concept or "") < (-(k.confidence or 0.0), k.concept or ""):
                best[(m.start, m.end)] = m
    return [m for m in mentions if m.type != "Modality" or best[(m.start, m.end)] is m]


class ModalityClassifier:
    """Keeps the modality mentions of the concepts the model accepts on ``doc._.mentions``."""

    def __init__(self, model_path: str | None = None, threshold: float | None = None, use_model: bool = True) -> None:
        register_extensions()
        self.model = load_model(model_path or str(MODEL_DIR)) if use_model else None
        self.threshold = threshold  # None: the model's own

    def __call__(self, doc: Doc) -> Doc:
        mentions = list(doc._.mentions or [])
        if self.model is not None:  # switched off: the rules' modalities, one per span
            threshold = self.model.threshold if self.threshold is None else self.threshold
            mentions = judged(mentions, self.model.scores(doc, mentions), threshold)
        doc._.mentions = one_concept_per_span(mentions)
        return doc


@Language.factory("paperkg_modality_model", default_config={"model_path": None, "threshold": None, "use_model": True})
def make_modality_classifier(nlp: Language, name: str, model_path: str | None, threshold: float | None,
                             use_model: bool) -> ModalityClassifier:
    """Factory of the modality-model component. ``model_path`` None: the model shipped in the package;
    ``threshold`` None: the one chosen on the dev split with it; ``use_model`` false: the rules' modalities."""
    return ModalityClassifier(model_path, threshold, use_model)
