"""Clean an exported tagger's ONNX graph of work that never changes its output.

PyTorch exports BERT's scaled-dot-product attention with a guard after each softmax,
``Where(IsNaN(p), 0, p)``, for rows whose every key is masked. The tagger never has such a row: every
window starts with ``[CLS]``, which is never masked, so the guard returns its input unchanged, yet it
took about 16% of the model's time on one thread (onnxruntime's profile: ``Where`` 13.8%, ``IsNaN`` 2.5%).
:func:`drop_nan_guards` removes it; the logits are the same to the bit.

``python -m training.graph MODEL_DIR`` cleans a tagger exported before ``training.train`` did this
itself (the model shipped since 2026-12-05, cleaned on 2026-12-07); ``training.train`` cleans every export.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def drop_nan_guards(model) -> int:  # (onnx.ModelProto) -> int
    """Remove each ``Where(IsNaN(p), c, p)`` whose ``p`` is a ``Softmax``'s output and ``c`` a one-element
    constant from ``model``'s graph (in place), its readers reading ``p`` instead, and the ``IsNaN`` and
    the constant when nothing else reads them. Returns the number of guards removed."""
    from onnx import numpy_helper

    graph = model.graph
    producer = {out: node for node in graph.node for out in node.output}
    initializers = {t.name: t for t in graph.initializer}

    def one_element_constant(name: str) -> bool:
        node = producer.get(name)
        if node is not None and node.op_type == "Constant" and len(node.attribute) == 1 and node.attribute[0].name == "value":
            return numpy_helper.to_array(node.attribute[0].t).size == 1
        return name in initializers and numpy_helper.to_array(initializers[name]).size == 1

    guards = []
    for node in graph.node:
        if node.op_type != "Where" or len(node.input) != 3:
            continue
        test, value = producer.get(node.input[0]), producer.get(node.input[2])
        if test is not None and test.op_type == "IsNaN" and test.input[0] == node.input[2] \
                and value is not None and value.op_type == "Softmax" and one_element_constant(node.input[1]):
            guards.append(node)
    if not guards:
        return 0
    rename = {g.output[0]: g.input[2] for g in guards}
    outputs = {o.name for o in graph.output}
    if outputs & set(rename):
        raise ValueError(f"the NaN guard producing the graph output {sorted(outputs & set(rename))} cannot be "
                         "removed, so none was; export the model with the guarded softmax inside the graph")
    for node in graph.node:
        for i, name in enumerate(node.input):
            if name in rename:
                node.input[i] = rename[name]
    for g in guards:
        graph.node.remove(g)
    read = _read_names(graph) | outputs
    fed = {name for g in guards for name in g.input[:2]}  # each guard's IsNaN and constant
    for node in [n for n in graph.node if set(n.output) & fed and not set(n.output) & read]:
        graph.node.remove(node)
    gone = set(rename) | (fed - _read_names(graph))
    for field, kept in ((graph.value_info, [v for v in graph.value_info if v.name not in gone]),
                        (graph.initializer, [t for t in graph.initializer if t.name not in gone])):
        del field[:]
        field.extend(kept)
    return len(guards)


def _read_names(graph) -> set[str]:
    """Every tensor name a node of ``graph`` reads, subgraphs (``If``, ``Loop``, ``Scan`` bodies) included."""
    names = set()
    for node in graph.node:
        names.update(node.input)
        for attribute in node.attribute:
            for sub in [attribute.g, *attribute.graphs] if attribute.HasField("g") else attribute.graphs:
                names |= _read_names(sub)
    return names


def clean_file(path: Path) -> int:
    """:func:`drop_nan_guards` on the ONNX file at ``path``, rewritten in place atomically (a failure leaves it
    whole). Returns the number of guards removed."""
    import onnx

    from kg.store.io import atomic_write

    model = onnx.load(str(path))
    removed = drop_nan_guards(model)
    if removed:
        onnx.checker.check_model(model)
        atomic_write(path, model.SerializeToString())
    return removed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.graph", description=__doc__.split("\n\n")[0])
    parser.add_argument("model_dir", type=Path, help="a tagger's directory (holding model.onnx)")
    args = parser.parse_args(argv)
    path = args.model_dir / "model.onnx"
    if not path.is_file():
        print(f"training.graph: no model.onnx in {args.model_dir}", file=sys.stderr)
        return 2
    try:
        removed = clean_file(path)
    except ValueError as exc:
        print(f"training.graph: {path}: {exc}", file=sys.stderr)
        return 2
    print(f"{path}: {removed} NaN guards removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
