"""Clean an exported tagger's ONNX graph of work that never changes its output.

PyTorch exports BERT's scaled-dot-product attention with a guard after each softmax,
``Where(IsNaN(p), 0, p)``, for rows whose every key is masked. The tagger never has such a row: every
window starts with ``[CLS]``, which is never masked, so the guard returns its input unchanged, yet it
took about 16% of the model's time on one thread (onnxruntime's profile: ``Where`` 13.8%, ``IsNaN`` 2.5%).
:func:`drop_nan_guards` removes it; the logits are the same to the bit.

``python -m training.graph MODEL_DIR`` cleans a tagger exported before ``training.train`` did this
itself (the model shipped on 2026-12-06); ``training.train`` cleans every export.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def drop_nan_guards(model) -> int:  # (onnx.ModelProto) -> int
    """Remove each ``Where(IsNaN(x), c, x)`` from ``model``'s graph (in place), its consumers reading ``x``
    instead, and the nodes that fed only the guards (the ``IsNaN``, the constant). Returns the number of
    guards removed."""
    graph = model.graph
    producer = {out: node for node in graph.node for out in node.output}
    rename: dict[str, str] = {}
    dropped = []
    for node in graph.node:
        if node.op_type != "Where" or len(node.input) != 3:
            continue
        test = producer.get(node.input[0])
        if test is not None and test.op_type == "IsNaN" and test.input[0] == node.input[2]:
            rename[node.output[0]] = node.input[2]
            dropped.append(node)
    if not dropped:
        return 0
    graph_outputs = {o.name for o in graph.output}
    if graph_outputs & set(rename):
        raise ValueError("a NaN guard produces a graph output; nothing was removed")
    for node in graph.node:
        for i, name in enumerate(node.input):
            if name in rename:
                node.input[i] = rename[name]
    for node in dropped:
        graph.node.remove(node)
    while True:  # what fed only the guards: no node or graph output reads it any more
        read = {name for node in graph.node for name in node.input} | graph_outputs
        unread = [n for n in graph.node if not any(out in read for out in n.output)]
        if not unread:
            return len(dropped)
        for node in unread:
            graph.node.remove(node)


def clean_file(path: Path) -> int:
    """:func:`drop_nan_guards` on the ONNX file at ``path``, rewritten in place (through a temporary file,
    so a failure leaves it whole). Returns the number of guards removed."""
    import onnx

    model = onnx.load(str(path))
    removed = drop_nan_guards(model)
    if removed:
        onnx.checker.check_model(model)
        tmp = path.with_name(path.name + ".tmp")
        onnx.save(model, str(tmp))
        tmp.replace(path)
    return removed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.graph", description=__doc__.split("\n\n")[0])
    parser.add_argument("model_dir", type=Path, help="a tagger's directory (holding model.onnx)")
    args = parser.parse_args(argv)
    path = args.model_dir / "model.onnx"
    if not path.is_file():
        print(f"training.graph: no model.onnx in {args.model_dir}", file=sys.stderr)
        return 2
    print(f"{path}: {clean_file(path)} NaN guards removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
