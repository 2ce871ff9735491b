"""Train floret word vectors on the training pool's abstracts, for the entity model's static vectors.

    python -m training.vectors --corpus ../shared/data/abstracts.jsonl.gz \
        --pool ../shared/data/train_pool_ids.txt --exclude-seeds seeds/ --out training/vectors

Only pool records are read, and any whose text equals a seed abstract is dropped (the same rule as
:mod:`training.sample`). Each abstract is tokenized by paperkg's run-time tokenizer, one line of
space-separated tokens; floret (fastText with hashed subwords, so unseen words still get a vector)
learns CBOW vectors from them with a fixed seed, and ``spacy init vectors --mode floret`` turns them
into a vectors table the training config loads. Needs the ``train`` extra (``floret``).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from training.corpus import read_corpus
from training.sample import seed_texts, text_key

#: floret settings: 50k hashed rows of 100 dimensions (20 MB), 4-5 character n-grams, 2 hashes a word.
SETTINGS = {"model": "cbow", "mode": "floret", "dim": 100, "bucket": 50000, "minn": 4, "maxn": 5, "hashCount": 2,
            "epoch": 5, "minCount": 3}


def write_tokens(texts: list[str], dest: Path) -> int:
    """One line of tokens per text (paperkg's tokenizer); the number of tokens written."""
    from kg.extract.model import load_tokenizer

    nlp = load_tokenizer()
    count = 0
    with dest.open("w", encoding="utf-8") as handle:
        for doc in nlp.tokenizer.pipe(texts, batch_size=256):
            words = [t.text for t in doc if not t.is_space]
            count += len(words)
            handle.write(" ".join(words) + "\n")
    return count


def train_vectors(corpus: Path, pool: Path, out: Path, seeds: Path | None = None, threads: int = 1) -> Path:
    """Train the vectors and write the spaCy vectors table to ``out``; returns ``out``.

    One thread by default: fastText's asynchronous updates make multi-threaded runs differ."""
    import floret

    ids = {line.strip() for line in pool.read_text(encoding="utf-8").splitlines() if line.strip()}
    excluded = seed_texts(seeds) if seeds else set()
    texts = [r["abstract"] for r in read_corpus(corpus, ids).values() if text_key(r["abstract"]) not in excluded]
    with tempfile.TemporaryDirectory() as tmp:
        tokens = Path(tmp) / "tokens.txt"
        n = write_tokens(sorted(texts), tokens)
        print(f"{len(texts)} pool abstracts, {n} tokens")
        model = floret.train_unsupervised(str(tokens), thread=threads, **SETTINGS)
        table = Path(tmp) / "vectors.floret"
        model.save_floret_vectors(str(table))
        subprocess.run([sys.executable, "-m", "spacy", "init", "vectors", "en", str(table), str(out),
                        "--mode", "floret"], check=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.vectors", description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--pool", type=Path, required=True)
    parser.add_argument("--exclude-seeds", type=Path, help="folder of seed files whose abstracts are dropped")
    parser.add_argument("--out", type=Path, required=True, help="where the spaCy vectors table goes")
    parser.add_argument("--threads", type=int, default=1, help="more is faster but not reproducible")
    args = parser.parse_args(argv)
    train_vectors(args.corpus, args.pool, args.out, args.exclude_seeds, args.threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
