"""Retrain paperkg's SciERC NER and install it as ``kg/models/scierc_ner``.

    python training/scierc/train.py --scierc /path/to/scierc --output kg/models/scierc_ner

Steps: convert SciERC to DocBin (:mod:`prepare`), write the training config (``config.cfg``
plus the optional warm-start callback), run ``spacy train`` on CPU, copy ``model-best`` to
``--output`` and print the dev scores and the training time.
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from prepare import DEFAULT_LABELS, convert  # noqa: E402


def write_config(dest: Path, warm_start: str | None) -> None:
    """Write ``config.cfg``, with the tok2vec warm-start callback when ``warm_start`` names a pipeline."""
    from spacy.util import load_config

    config = load_config(HERE / "config.cfg", interpolate=False)
    if warm_start:
        config["initialize"]["after_init"] = {"@callbacks": "paperkg.copy_ner_tok2vec.v1", "source": warm_start}
    config.to_disk(dest)


def default_warm_start() -> str | None:
    """The installed English pipeline (paperkg's own lookup), or None when there is none."""
    try:
        sys.path.insert(0, str(HERE.parents[1]))
        from kg.extract.model import find_model

        return find_model()
    except Exception:  # no pipeline installed: train from scratch
        return None


def main(argv: list[str] | None = None) -> None:
    """Command line of the retraining."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scierc", type=Path, required=True, help="directory holding SciERC train.json and dev.json")
    ap.add_argument("--output", type=Path, required=True, help="where to put the trained pipeline (replaced)")
    ap.add_argument("--labels", default=",".join(DEFAULT_LABELS), help="comma-separated SciERC labels to learn")
    ap.add_argument("--warm-start", default="auto",
                    help="pipeline whose NER tok2vec initialises ours ('auto': the installed English pipeline; 'none')")
    ap.add_argument("--max-epochs", type=int, default=None, help="override [training] max_epochs")
    ap.add_argument("--workdir", type=Path, default=None, help="keep the DocBins and the run here (default: a temp dir)")
    ap.add_argument("--threads", type=int, default=2, help="BLAS/OpenMP threads")
    args = ap.parse_args(argv)

    labels = {x.strip() for x in args.labels.split(",") if x.strip()}
    warm = default_warm_start() if args.warm_start == "auto" else (None if args.warm_start == "none" else args.warm_start)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="scierc_ner_"))
    work.mkdir(parents=True, exist_ok=True)
    for split in ("train", "dev"):
        stats = convert(args.scierc / f"{split}.json", work / f"{split}.spacy", labels)
        print(f"{split}: {dict(stats)}")
    write_config(work / "config.cfg", warm)

    cmd = [sys.executable, "-m", "spacy", "train", str(work / "config.cfg"), "--output", str(work / "run"),
           "--paths.train", str(work / "train.spacy"), "--paths.dev", str(work / "dev.spacy")]
    if warm:
        cmd += ["--code", str(HERE / "warmstart.py")]
    if args.max_epochs is not None:
        cmd += ["--training.max_epochs", str(args.max_epochs)]
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads), OPENBLAS_NUM_THREADS=str(args.threads),
               MKL_NUM_THREADS=str(args.threads))
    t0, c0 = time.time(), os.times()
    subprocess.run(cmd, check=True, env=env)
    wall, c1 = time.time() - t0, os.times()
    cpu = (c1.children_user + c1.children_system) - (c0.children_user + c0.children_system)

    best = work / "run" / "model-best"
    if args.output.exists():
        shutil.rmtree(args.output)
    shutil.copytree(best, args.output)
    meta = json.loads((args.output / "meta.json").read_text())
    meta["name"], meta["description"] = "scierc_ner", (
        "paperkg's NER of scientific entities, trained on SciERC train (Luan et al., 2018); "
        "see training/scierc/README.md")
    (args.output / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    size = sum(f.stat().st_size for f in args.output.rglob("*") if f.is_file())
    print(f"trained in {wall / 60:.1f} min wall, {cpu / 60:.1f} min CPU; labels {sorted(labels)}; warm start: {warm}")
    print(f"model: {args.output} ({size / 1e6:.1f} MB); dev scores: {json.dumps(meta.get('performance', {}), indent=1)}")


if __name__ == "__main__":
    main()
