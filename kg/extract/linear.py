"""Multinomial logistic regression over named binary features: scoring, saving and loading.

paperkg's small trained classifiers (the relation model, the proposal model) describe each candidate by
a list of feature names and score it with one weight vector per class. The weights ship in the package
as three files: ``features.json`` (the names, in weight-row order), ``weights.npy`` (features x classes,
float16) and ``meta.json`` (the classes, the biases and whatever the trainer chose with the model).
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kg.errors import ModelError

FILES: tuple[str, ...] = ("meta.json", "features.json", "weights.npy")


class LinearModel:
    """A feature index, weights (features x classes) and biases; the classes' probabilities of feature lists."""

    def __init__(self, features: Sequence[str], weights, bias, classes: Sequence[str]) -> None:
        import numpy

        self.index = {name: i for i, name in enumerate(features)}
        self.weights = numpy.asarray(weights, dtype=numpy.float32)
        self.bias = numpy.asarray(bias, dtype=numpy.float32)
        self.classes = tuple(classes)

    def probabilities(self, rows: Sequence[Sequence[str]]):
        """Class probabilities (rows x classes) of feature lists (unknown features are ignored)."""
        import numpy

        out = numpy.tile(self.bias, (len(rows), 1))
        for i, row in enumerate(rows):
            cols = [self.index[x] for x in row if x in self.index]
            if cols:
                out[i] += self.weights[cols].sum(axis=0)
        out -= out.max(axis=1, keepdims=True)
        numpy.exp(out, out=out)
        out /= out.sum(axis=1, keepdims=True)
        return out

    def settings(self) -> dict[str, Any]:
        """What a subclass stores in ``meta.json`` beside the weights (its chosen thresholds and options)."""
        return {}

    def save(self, where: Path, meta: dict[str, Any]) -> None:
        """Write the model's three files into ``where`` (created), ``meta`` added to ``meta.json``."""
        import numpy

        where.mkdir(parents=True, exist_ok=True)
        features = sorted(self.index, key=self.index.get)
        (where / "features.json").write_text(json.dumps(features, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
        numpy.save(where / "weights.npy", self.weights.astype(numpy.float16))
        meta = {**meta, "classes": list(self.classes), "bias": [round(float(x), 6) for x in self.bias],
                **self.settings()}
        (where / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def read_linear(where: Path, what: str, retrain: str) -> tuple[list[str], Any, dict[str, Any]]:
    """The features, weights and meta of the model saved at ``where``; ModelError naming ``what`` and the
    ``retrain`` command when a file is missing, unreadable or inconsistent."""
    import numpy

    files = [where / n for n in FILES]
    if not all(p.is_file() for p in files):
        raise ModelError(f"the {what} is missing at {where} (expected meta.json, features.json and "
                         f"weights.npy); reinstall paperkg from a full checkout, or retrain it with `{retrain}`")
    try:
        meta = json.loads(files[0].read_text(encoding="utf-8"))
        features = json.loads(files[1].read_text(encoding="utf-8"))
        weights = numpy.load(files[2])
    except (OSError, ValueError) as exc:
        raise ModelError(f"cannot load the {what} at {where}: {exc}; retrain it with `{retrain}`") from exc
    if weights.shape != (len(features), len(meta.get("classes", ()))):
        raise ModelError(f"the {what} at {where} is inconsistent (weights {weights.shape}, "
                         f"{len(features)} features); retrain it with `{retrain}`")
    return features, weights, meta
