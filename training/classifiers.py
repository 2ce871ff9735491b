"""What the trainers of paperkg's small classifiers (modalities, proposals, relations) share: their command
line, the BLAS thread setting it needs before numpy loads, running the pipeline over the annotated corpus, and
installing a trained model in place."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from training.corpus import ANNOTATIONS, CorpusError, load_checked


def set_threads(argv: list[str]) -> None:
    """Set the BLAS/OpenMP thread count from ``--threads N`` or ``--threads=N`` in ``argv`` (call it
    before numpy loads: the libraries read the variables once)."""
    for i, arg in enumerate(argv):
        n = arg.split("=", 1)[1] if arg.startswith("--threads=") else \
            argv[i + 1] if arg == "--threads" and i + 1 < len(argv) else None
        if n is not None:
            for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
                os.environ[var] = n


def parser(prog: str, doc: str, output: Path, l2: float) -> argparse.ArgumentParser:
    """The trainers' common options: the corpus, the annotations, where the model goes, the L2 penalty,
    the features' minimum count and the thread count."""
    p = argparse.ArgumentParser(prog=prog, description=doc.split("\n\n")[0])
    p.add_argument("--corpus", type=Path, required=True, help="the corpus JSONL(.gz) holding the texts")
    p.add_argument("--annotations", type=Path, default=ANNOTATIONS, help="folder of standoff *.jsonl")
    p.add_argument("--output", type=Path, default=output, help="where the trained model goes (replaced)")
    p.add_argument("--l2", type=float, default=l2, help="the L2 penalty")
    p.add_argument("--min-count", type=int, default=2)
    p.add_argument("--threads", type=int, default=1, help="BLAS/OpenMP threads (set before numpy loads)")
    return p


def run(train: Callable[[], dict[str, Any]], summary: Callable[[dict[str, Any]], Any], indent: int | None = None) -> int:
    """Run ``train``; print ``summary`` of its report as JSON (0), or the corpus error (2)."""
    try:
        report = train()
    except CorpusError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary(report), indent=indent, sort_keys=True))
    return 0


def install(model, output: Path, meta: dict[str, Any]) -> None:
    """Write ``model`` (a :class:`kg.extract.linear.LinearModel`) beside ``output``, then put it in its place."""
    tmp = output.with_name(output.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    model.save(tmp, meta)
    shutil.rmtree(output, ignore_errors=True)
    tmp.rename(output)


def pipeline_docs(texts: Sequence[str], off: Sequence[str] = ("paperkg_relation_model",)) -> list:
    """The docs of paperkg's pipeline with the trained components ``off`` switched off (their models may
    not exist yet): by default up to the relation rules."""
    from kg.extract import model as kg_model

    saved = {name: kg_model.COMPONENT_CONFIG.get(name) for name in off}
    for name in off:
        kg_model.COMPONENT_CONFIG[name] = {"use_model": False}
    kg_model._load_nlp.cache_clear()
    try:
        return list(kg_model.load_nlp().pipe(texts, batch_size=16))
    finally:
        for name, config in saved.items():
            if config is None:
                kg_model.COMPONENT_CONFIG.pop(name, None)
            else:
                kg_model.COMPONENT_CONFIG[name] = config
        kg_model._load_nlp.cache_clear()


def corpus_docs(annotations: Path, corpus: Path, off: Sequence[str]) -> list[tuple[dict[str, Any], Any]]:
    """``(entry, doc)`` for every annotated abstract (hashes checked), parsed by the pipeline with the
    components ``off`` switched off (the model being trained and those after it); prints the time taken."""
    started = time.time()
    entries, records = load_checked(annotations, corpus)
    chosen = [e for _, _, e in entries]
    parsed = pipeline_docs([records[e["id"]]["abstract"] for e in chosen], off=off)
    print(f"pipeline over {len(chosen)} abstracts: {time.time() - started:.0f} s", file=sys.stderr)
    return list(zip(chosen, parsed))
