"""Train paperkg's entity model on the training corpus and install it in the package.

    python -m training.vectors --corpus ../shared/data/abstracts.jsonl.gz --pool ../shared/data/train_pool_ids.txt \
        --exclude-seeds seeds/ --out /tmp/vectors
    python -m training.train --corpus ../shared/data/abstracts.jsonl.gz --vectors /tmp/vectors --threads 1
    # -> kg/models/corpus_ner, the shipped model (span categoriser, 25 epochs at most, seed 0)

Steps: read the standoff annotations (``training/annotations/*.jsonl``, or ``--annotations DIR``),
check every one against its text (hash, spans), write the train and dev splits as spaCy DocBins
tokenized as at run time (:mod:`training.docs`), run ``spacy train`` on CPU with a fixed seed, copy
``model-best`` to ``--output`` and print the dev scores. Two families: ``--arch spancat`` (the default and
what ships: ``training/spancat.cfg``, a span categoriser over every 1-6 token span with per-span
probabilities) and ``--arch ner`` (``training/scierc/config.cfg``: spaCy's CPU NER, warm-started from the
installed English pipeline's NER when no vectors are given). The test split is never read here.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from training.corpus import ANNOTATIONS, CorpusError, load_checked

ROOT = Path(__file__).resolve().parents[1]
#: architecture -> its training config
CONFIGS = {"ner": ROOT / "training" / "scierc" / "config.cfg", "spancat": ROOT / "training" / "spancat.cfg"}
WARMSTART = ROOT / "training" / "scierc" / "warmstart.py"
OUTPUT = ROOT / "kg" / "models" / "corpus_ner"


def write_config(dest: Path, warm_start: str | None, seed: int, vectors: Path | None = None,
                 arch: str = "ner") -> None:
    """The training config at ``dest``: the architecture's config, this seed, the warm start if any, and
    static word vectors (``training.vectors``) when ``vectors`` is given."""
    from spacy.util import load_config

    config = load_config(CONFIGS[arch], interpolate=False)
    config["system"]["seed"] = seed
    if vectors is not None:
        config["paths"]["vectors"] = str(vectors)
        if arch == "ner":
            config["components"]["ner"]["model"]["tok2vec"]["embed"]["include_static_vectors"] = True
    elif arch == "spancat":
        config["components"]["tok2vec"]["model"]["embed"]["include_static_vectors"] = False
    if warm_start:
        config["initialize"]["after_init"] = {"@callbacks": "paperkg.copy_ner_tok2vec.v1", "source": warm_start}
    config.to_disk(dest)


def train(corpus: Path, output: Path, annotations: Path = ANNOTATIONS, *, warm_start: str | None = "auto",
          max_epochs: int | None = None, seed: int = 0, workdir: Path | None = None, threads: int = 2,
          vectors: Path | None = None, arch: str = "spancat") -> dict:
    """Train the entity model from ``annotations`` joined with ``corpus``; install it at ``output``.

    Returns the dev scores spaCy recorded for the best model. Raises CorpusError when an annotation
    does not match its text (nothing is trained then).
    """
    from kg.extract.model import find_model, load_tokenizer
    from training.docs import write_docbins

    entries, records = load_checked(annotations, corpus)
    if warm_start == "auto":
        # the English pipeline's NER tok2vec has no static-vector input, so it only fits without vectors
        warm_start = None if vectors is not None or arch != "ner" else find_model()
    work = workdir or Path(tempfile.mkdtemp(prefix="paperkg_ner_"))
    nlp = load_tokenizer()  # tokenize exactly as the pipeline does at run time
    stats = write_docbins(nlp, [e for _, _, e in entries], {k: r["abstract"] for k, r in records.items()}, work,
                          splits=("train", "dev"))
    for split, counts in stats.items():
        print(f"{split}: {dict(counts)}")
    if not stats["dev"]["docs"]:
        raise CorpusError("the dev split is empty; annotate more abstracts (the split is fixed by the id's hash)")
    write_config(work / "config.cfg", warm_start, seed, vectors, arch)
    cmd = [sys.executable, "-m", "spacy", "train", str(work / "config.cfg"), "--output", str(work / "run"),
           "--paths.train", str(work / "train.spacy"), "--paths.dev", str(work / "dev.spacy")]
    if warm_start:
        cmd += ["--code", str(WARMSTART)]
    if max_epochs is not None:
        cmd += ["--training.max_epochs", str(max_epochs)]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads),
               MKL_NUM_THREADS=str(threads), PYTHONHASHSEED="0")
    started = time.time()
    subprocess.run(cmd, check=True, env=env)
    best = work / "run" / "model-best"
    tmp = output.with_name(output.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(best, tmp)
    meta = json.loads((tmp / "meta.json").read_text())
    meta["name"], meta["description"] = "corpus_ner", (
        "paperkg's entity model (Method, Dataset, Task, Metric), trained on the train split of "
        "paperkg's training corpus; see training/README.md")
    (tmp / "meta.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    if output.exists():
        shutil.rmtree(output)
    tmp.rename(output)
    print(f"trained in {(time.time() - started) / 60:.1f} min; warm start: {warm_start}; model at {output}")
    return meta.get("performance", {})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True, help="the corpus JSONL(.gz) holding the texts")
    parser.add_argument("--annotations", type=Path, default=ANNOTATIONS, help="folder of standoff *.jsonl")
    parser.add_argument("--output", type=Path, default=OUTPUT, help="where the trained model goes (replaced)")
    parser.add_argument("--warm-start", default="auto",
                        help="pipeline whose NER tok2vec initialises ours ('auto': the installed one; 'none')")
    parser.add_argument("--max-epochs", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", type=Path, default=None, help="keep the DocBins and the run here")
    parser.add_argument("--vectors", type=Path, help="a spaCy vectors table (python -m training.vectors)")
    parser.add_argument("--threads", type=int, default=2, help="BLAS/OpenMP threads")
    parser.add_argument("--arch", choices=sorted(CONFIGS), default="spancat", help="the model family (ner: a transition NER)")
    args = parser.parse_args(argv)
    try:
        scores = train(args.corpus, args.output, args.annotations,
                       warm_start=None if args.warm_start == "none" else args.warm_start,
                       max_epochs=args.max_epochs, seed=args.seed, workdir=args.workdir,
                       threads=args.threads, vectors=args.vectors, arch=args.arch)
    except CorpusError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(scores, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
