"""The transformer entity tagger: its pure helpers, the shipped model, and training end to end on a tiny corpus."""
from __future__ import annotations

import json
from pathlib import Path
from threading import current_thread, main_thread

import numpy
import pytest
from hypothesis import example, given, strategies as st

from kg.errors import ModelError
from kg.extract.tagger import TAGS, TAGGER_DIR, TokenScores, best_tags, decode, load_tagger, window_probs, windows

FIXTURE = Path(__file__).parent / "data" / "training"


@given(st.integers(0, 2000), st.integers(4, 512), st.integers(0, 200))
def test_windows_cover_every_item_within_the_size_and_share_the_overlap(n, size, overlap):
    overlap = min(overlap, size - 1)
    spans = windows(n, size, overlap)
    assert spans[0][0] == 0 and spans[-1][1] == n
    assert all(0 < b - a <= size or n == 0 for a, b in spans)
    assert all(a2 <= b1 and b1 - a2 <= overlap for (_, b1), (a2, _) in zip(spans, spans[1:]))


def _onehot(tags: list[str], p: float = 0.9) -> numpy.ndarray:
    """Each row ``p`` on its tag and the rest on "O" (on the other tags evenly, for an "O" row)."""
    out = numpy.zeros((len(tags), len(TAGS)), dtype=numpy.float32)
    for i, tag in enumerate(tags):
        if tag == "O":
            out[i] = (1 - p) / (len(TAGS) - 1)
        else:
            out[i, 0] = 1 - p
        out[i, TAGS.index(tag)] = p
    return out


def test_decode_turns_bio_tags_into_character_spans_with_the_least_sure_word_as_confidence():
    text = "We use Graph Mixers on ImageNet."
    offsets = [(0, 2), (3, 6), (7, 12), (13, 16), (16, 19), (20, 22), (23, 31), (31, 32)]  # "mix" "##ers"
    probs = _onehot(["O", "O", "B-Method", "I-Method", "I-Method", "O", "B-Dataset", "O"])
    probs[3] = _onehot(["I-Method"], 0.6)[0]
    # a word's confidence is the probability that it belongs to a span of the label: B-Method + I-Method
    assert decode(probs, offsets, text) == [(7, 19, "Method", 0.6), (23, 31, "Dataset", 0.9)]
    probs[3, TAGS.index("B-Method")], probs[3, 0] = 0.3, 0.1  # B-Method and I-Method both say "Method"
    assert decode(probs, offsets, text)[0] == (7, 19, "Method", 0.9)


def test_decode_reads_the_most_likely_valid_sequence_not_each_word_s_most_likely_tag():
    text = "benchmarks: Open LLM Leaderboard, MMLU"
    offsets = [(0, 10), (10, 11), (12, 16), (17, 19), (19, 20), (21, 27), (27, 32), (32, 33), (34, 38)]
    probs = _onehot(["O", "O", "B-Dataset", "I-Task", "I-Dataset", "I-Dataset", "I-Dataset", "O", "B-Dataset"])
    probs[3] = 0.0
    probs[3, [TAGS.index("I-Task"), TAGS.index("I-Dataset"), TAGS.index("B-Task")]] = [0.46, 0.39, 0.15]
    # word by word this reads "Open" (Dataset), "LLM" (Task), "Leaderboard" (Dataset); an I-Task cannot
    # follow a Dataset, and the valid reading keeps the name whole, as unsure as its least sure word
    assert decode(probs, offsets, text) == [(12, 32, "Dataset", 0.39), (34, 38, "Dataset", 0.9)]
    # no span opens on punctuation, nor on an I tag after an "O" (read word by word, "Open" was a method)
    assert decode(_onehot(["O", "I-Method", "O", "O", "O", "O", "O", "O", "O"]), offsets, text) == []
    assert decode(_onehot(["O", "O", "I-Method", "O", "O", "O", "O", "O", "O"]), offsets, text) == []
    # punctuation continues a span without setting its confidence
    probs = _onehot(["B-Dataset", "I-Dataset", "I-Dataset"])
    probs[1] = _onehot(["I-Dataset"], 0.5)[0]
    assert decode(probs, [(0, 4), (4, 5), (6, 9)], "Open: LLM") == [(0, 9, "Dataset", 0.9)]


def _valid(tags: list[int]) -> bool:
    return all(not TAGS[t].startswith("I-") or TAGS[p][2:] == TAGS[t][2:] != "" for p, t in zip([0, *tags], tags))


def _favouring(*tags: str) -> list[list[float]]:
    return [[0.9 if t == tag else 0.1 / len(TAGS) for t in TAGS] for tag in tags]


@given(st.lists(st.lists(st.floats(0.001, 1.0), min_size=len(TAGS), max_size=len(TAGS)), min_size=1, max_size=3),
       st.lists(st.booleans(), min_size=3, max_size=3))
@example(_favouring("B-Task", "I-Task", "I-Task"), [False] * 3)
@example(_favouring("O", "I-Task", "I-Task"), [False, True, False])
def test_best_tags_is_the_most_likely_valid_sequence(rows, punctuation):
    import itertools

    logp = numpy.log(numpy.asarray(rows) / numpy.asarray(rows).sum(axis=1, keepdims=True))
    for k, masked in enumerate(punctuation[: len(rows)]):
        if masked:  # as decode passes punctuation: no B tag
            logp[k, [i for i, t in enumerate(TAGS) if t.startswith("B-")]] = -numpy.inf
    got = best_tags(logp)
    assert _valid(got)
    best = max(sum(logp[k, t] for k, t in enumerate(seq))
               for seq in itertools.product(range(len(TAGS)), repeat=len(rows)) if _valid(list(seq)))
    assert sum(logp[k, t] for k, t in enumerate(got)) == pytest.approx(best)


def test_decode_reads_each_word_from_its_first_piece_and_never_splits_a_word():
    text = "the Mixers work"
    offsets = [(0, 3), (4, 7), (7, 10), (11, 15)]  # "mix" "##ers"
    # a span ending on the word's first piece takes the rest of the word
    assert decode(_onehot(["O", "B-Method", "O", "O"]), offsets, text) == [(4, 10, "Method", 0.9)]
    # a tag on a word's later piece decides nothing
    assert decode(_onehot(["O", "O", "B-Method", "O"]), offsets, text) == []


def test_decode_keeps_hyphenated_words_whole_and_trims_edges_and_unbalanced_brackets():
    text = "zero-shot transfer and (category) shift"
    offsets = [(0, 4), (4, 5), (5, 9), (10, 18), (19, 22), (23, 24), (24, 32), (32, 33), (34, 39)]
    probs = _onehot(["B-Task", "O", "O", "I-Task", "I-Task", "O", "B-Method", "I-Method", "I-Method"])
    # "zero-shot transfer and" loses its "and"; "category) shift" has an unmatched bracket
    assert decode(probs, offsets, text) == [(0, 18, "Task", 0.9)]


def test_window_probs_runs_long_texts_in_overlapping_windows_and_keeps_the_central_prediction():
    seen = []

    def run(ids, mask):
        seen.append(len(ids))
        out = numpy.zeros((len(ids), len(ids[0]), len(TAGS)))
        for r, row in enumerate(ids):
            for c, token in enumerate(row):
                out[r, c, 0] = token + 1000 * r  # which window answered
        return out

    ids = list(range(1, 21))
    probs = window_probs(ids, run, size=10, overlap=4, cls=-1, sep=-2)
    assert seen == [4] and probs.shape == (20, len(TAGS))
    assert [int(v) % 1000 for v in probs[:, 0]] == ids  # every piece answered by a window that holds it
    assert int(probs[6, 0]) // 1000 == 1  # piece 7 stands nearer the middle of the second window (4..12)


def test_token_scores_give_the_probability_of_exactly_a_span():
    text = "graph neural network"
    offsets = [(0, 5), (6, 12), (13, 20)]
    scores = TokenScores(_onehot(["B-Method", "I-Method", "I-Method"], 0.9), offsets, text)
    whole = scores.prob(0, 20, "Method")
    assert whole == pytest.approx(0.9 ** 3, abs=1e-3)
    assert scores.prob(0, 12, "Method") < 0.1  # the next piece continues the span
    assert scores.prob(0, 20, "Task") < 0.01 and scores.prob(1, 20, "Method") is None
    assert scores.best("graph neural network", "Method") == whole and scores.best("nowhere", "Method") is None


def test_the_shipped_tagger_loads_offline_once_and_gives_the_same_output_twice(nlp):
    assert (TAGGER_DIR / "model.onnx").stat().st_size < 50 * 1024 * 1024
    assert load_tagger() is load_tagger()  # loaded once per process
    meta = json.loads((TAGGER_DIR / "meta.json").read_text())
    assert tuple(meta["tags"]) == TAGS and meta["dev_span_exported"]["f1"] > 0.5
    text = "We fine-tune BERT on SQuAD and report exact match for question answering."
    first, second = load_tagger().spans(text), load_tagger().spans(text)
    assert first == second
    found = {(text[a:b], label) for a, b, label, _ in first}
    assert ("BERT", "Method") in found and ("question answering", "Task") in found
    assert all(0.0 <= c <= 1.0 for *_, c in first)


def test_the_pipeline_runs_the_tagger_and_its_spans_fall_on_token_boundaries(nlp):
    assert "paperkg_entity_tagger" in nlp.pipe_names
    doc = nlp("We evaluate ResNet-50 on CIFAR-10 for image classification, reporting top-1 accuracy.")
    starts, ends = {t.idx for t in doc}, {t.idx + len(t) for t in doc}
    assert doc._.model_spans and all(a in starts and b in ends for a, b, *_ in doc._.model_spans)


def test_piping_runs_the_model_ahead_on_its_thread_and_gives_each_doc_what_calling_it_does(nlp, monkeypatch):
    """``nlp.pipe`` tags texts ahead of the docs on a thread of its own; the docs come out in order and
    each carries exactly the spans ``__call__`` gives it, with any lookahead (0: no thread). A worker of
    a parallel build, whose siblings use the other cores, runs the model in its own thread."""
    component = nlp.get_pipe("paperkg_entity_tagger")
    texts = [f"We train a graph neural network ({i} layers) on ImageNet for image classification." for i in range(9)]
    texts += ["We fine-tune BERT on SQuAD.", "", "Transformers for speech recognition on LibriSpeech."]
    called = [(doc.text, doc._.model_spans) for doc in map(nlp, texts)]
    assert any(spans for _, spans in called)
    shipped = component.lookahead
    monkeypatch.setattr("kg.extract.tagger.default_threads", lambda: 2)  # read ahead on any machine
    try:
        for lookahead in (0, 1, 4, 64):
            component.lookahead = lookahead
            assert [(doc.text, doc._.model_spans) for doc in nlp.pipe(texts, batch_size=5)] == called
    finally:
        component.lookahead = shipped
    threads = []
    monkeypatch.setattr(component.tagger, "analyse",
                        lambda text, analyse=component.tagger.analyse: threads.append(current_thread()) or analyse(text))
    list(nlp.pipe(texts[:3]))  # a process with a second core
    assert shipped > 0 and len(threads) == 3 and main_thread() not in threads
    monkeypatch.setattr("kg.extract.tagger.default_threads", lambda: 1)  # a worker of a parallel build
    list(nlp.pipe(texts[:3]))
    assert threads[3:] == [main_thread()] * 3


def test_an_error_on_the_tagger_s_thread_reaches_the_caller(nlp, monkeypatch):
    component = nlp.get_pipe("paperkg_entity_tagger")

    def fail(text):
        raise ModelError("the tagger failed")

    monkeypatch.setattr(component, "tagger", type("Broken", (), {"analyse": staticmethod(fail)})())
    monkeypatch.setattr("kg.extract.tagger.default_threads", lambda: 2)  # the thread, on any machine
    with pytest.raises(ModelError, match="the tagger failed"):
        list(nlp.pipe(["We use BERT.", "We use GPT."]))


def test_training_the_tagger_runs_end_to_end_on_a_tiny_corpus(tmp_path):
    """One epoch on six invented abstracts over a tiny random encoder (so training never rots)."""
    from transformers import BertConfig, BertModel

    from kg.extract.tagger import Tagger
    from training.train import train

    base = tmp_path / "base"
    BertModel(BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                         intermediate_size=64)).save_pretrained(base)
    (base / "tokenizer.json").write_bytes((TAGGER_DIR / "tokenizer.json").read_bytes())
    out = tmp_path / "tagger"
    meta = train(FIXTURE / "corpus.jsonl", base, out, FIXTURE / "annotations", epochs=3, threads=1, stop_after=1)
    assert meta["chosen_epoch"] == 1 and len(meta["history"]) == 1 and meta["stop_after"] == 1 and sorted(p.name for p in out.iterdir()) == ["meta.json", "model.onnx",
                                                                                   "tokenizer.json"]
    assert not out.with_name("tagger.work").exists() and not out.with_name("tagger.new").exists()
    spans = Tagger(str(out)).spans("We propose FlowMixer, evaluated on GLUE with accuracy.")
    assert all(label in {"Method", "Dataset", "Task", "Metric"} for _, _, label, _ in spans)
    assert "IsNaN" not in _op_types(out / "model.onnx")  # the export drops attention's NaN guards


def _op_types(path) -> set[str]:
    import onnx

    return {node.op_type for node in onnx.load(str(path)).graph.node}


def test_the_shipped_tagger_carries_no_nan_guard():
    """``python -m training.graph`` cleaned it; the guards took a sixth of the model's time."""
    ops = _op_types(TAGGER_DIR / "model.onnx")
    assert "IsNaN" not in ops and "Where" in ops  # the attention masks' own Where nodes stay


def _guarded_graph(guard: bool, tested: str = "p", kept: str = "p", test_op: str = "IsNaN", zero=(0.0,)):
    """scores (2, 3) -> Softmax -> p -> [Where(test_op(tested), zero, kept)] -> MatMul with a (3, 2) weight -> out."""
    import numpy
    from onnx import TensorProto, helper, numpy_helper

    nodes = [helper.make_node("Softmax", ["scores"], ["p"], axis=-1)]
    read = "p"
    if guard:
        test = [helper.make_node("IsNaN", [tested], ["nan"])] if test_op == "IsNaN" else \
            [helper.make_node("Constant", [], ["k"], value=numpy_helper.from_array(numpy.float32(0.5).reshape(1))),
             helper.make_node("Equal", [tested, "k"], ["nan"])]
        nodes += [*test, helper.make_node("Constant", [], ["zero"],
                                          value=numpy_helper.from_array(numpy.asarray(zero, numpy.float32))),
                  helper.make_node("Where", ["nan", "zero", kept], ["safe"])]
        read = "safe"
    nodes.append(helper.make_node("MatMul", [read, "w"], ["out"]))
    w = numpy_helper.from_array(numpy.arange(6, dtype=numpy.float32).reshape(3, 2) / 7, name="w")
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("scores", TensorProto.FLOAT, [2, 3])],
                              [helper.make_tensor_value_info("out", TensorProto.FLOAT, [2, 2])], [w])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _run(model, scores):
    import onnxruntime

    session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(["out"], {"scores": scores})[0]


def test_dropping_the_nan_guards_keeps_the_output_to_the_bit_and_removes_what_fed_them():
    import numpy

    from training.graph import drop_nan_guards

    scores = numpy.array([[0.3, -1.2, 2.5], [1e-3, 40.0, -7.0]], dtype=numpy.float32)
    model = _guarded_graph(guard=True)
    before = _run(model, scores)
    assert drop_nan_guards(model) == 1
    assert [n.op_type for n in model.graph.node] == ["Softmax", "MatMul"]
    assert numpy.array_equal(_run(model, scores), before)
    assert drop_nan_guards(model) == 0


def test_a_guard_whose_constant_is_an_initializer_goes_with_it():
    import numpy
    from onnx import numpy_helper

    from training.graph import drop_nan_guards

    model = _guarded_graph(guard=True)
    constant = next(n for n in model.graph.node if n.op_type == "Constant")
    model.graph.node.remove(constant)
    model.graph.initializer.append(numpy_helper.from_array(numpy.zeros(1, numpy.float32), name="zero"))
    scores = numpy.array([[0.1, 0.2, 0.3], [3.0, -1.0, 0.0]], dtype=numpy.float32)
    before = _run(model, scores)
    assert drop_nan_guards(model) == 1
    assert [n.op_type for n in model.graph.node] == ["Softmax", "MatMul"]
    assert [t.name for t in model.graph.initializer] == ["w"]
    assert numpy.array_equal(_run(model, scores), before)


@pytest.mark.parametrize("why, graph", [
    ("it selects other values", dict(kept="scores")),
    ("it guards no softmax's output", dict(tested="scores", kept="scores")),
    ("it tests no NaN (an exported shape computation)", dict(test_op="Equal")),
    ("it puts more than one value in", dict(zero=(0.0, 0.0, 0.0))),
])
def test_a_where_that_is_no_softmax_nan_guard_stays(why, graph):
    from training.graph import drop_nan_guards

    model = _guarded_graph(guard=True, **graph)
    before = len(model.graph.node)
    assert drop_nan_guards(model) == 0 and len(model.graph.node) == before, why


def test_a_guard_that_is_the_graph_output_is_refused_whole():
    from onnx import TensorProto, helper

    from training.graph import drop_nan_guards

    model = _guarded_graph(guard=True)
    model.graph.output.append(helper.make_tensor_value_info("safe", TensorProto.FLOAT, [2, 3]))
    with pytest.raises(ValueError, match="graph output"):
        drop_nan_guards(model)
    assert len(model.graph.node) == 5


@given(st.integers(0, 3000), st.integers(8, 64), st.integers(0, 7))
def test_every_window_the_model_reads_opens_with_an_unmasked_cls(n, size, overlap):
    """Why the NaN guards could go (training/graph.py): no attention row is ever wholly masked."""
    seen = []

    def run(ids, mask):
        seen.append((ids, mask))
        return numpy.full((len(ids), len(ids[0]), len(TAGS)), 1 / len(TAGS), dtype=numpy.float32)

    window_probs(list(range(5, 5 + n)), run, size, overlap, cls=1, sep=2)
    for ids, mask in seen:
        assert all(row[0] == 1 and m[0] == 1 for row, m in zip(ids, mask))
    assert bool(seen) == (n > 0)


def test_a_model_dataset_without_a_capital_or_digit_is_no_named_dataset(nlp):
    from kg.extract.resolution import with_model

    text = "EEG foundation models are tested on TUAB and on CIFAR-10."
    doc = nlp.make_doc(text)
    spans = [(4, 14, "Dataset", 0.99), (text.index("TUAB"), text.index("TUAB") + 4, "Dataset", 0.99),
             (text.index("CIFAR"), text.index("CIFAR") + 8, "Dataset", 0.99)]
    got = with_model([], spans, doc, frozenset())
    assert sorted(m.text for m in got) == ["CIFAR-10", "TUAB"]


@given(st.lists(st.sampled_from(["the", "of", "pretrained", "graph", "neural", "network", ",", "-", "(GNN)", "and",
                                 "BERT's"]),
                min_size=1, max_size=8))
def test_trimmed_edges_lie_inside_the_span_and_trimming_again_changes_nothing(words):
    from kg.extract.tagger import EDGE_WORDS, trim_edges

    text = "x " + " ".join(words) + " y"
    start, end = 2, len(text) - 2
    a, b = trim_edges(text, start, end)
    assert start <= a <= b <= end and trim_edges(text, a, b) == (a, b)
    inner = text[a:b].split()
    assert len(inner) <= 1 or (inner[0].lower() not in EDGE_WORDS and inner[-1].lower() not in EDGE_WORDS)
    assert not text[a:b].endswith("'s") and text[a:b].lower() not in EDGE_WORDS


@pytest.mark.parametrize("text, kept", [
    ("BERT's", "BERT"), ("the deep ensemble\u2019s", "deep ensemble"), ("of", ""), ("Burger's equation", "Burger's equation"),
])
def test_trimming_drops_a_possessive_ending_and_a_function_word_alone(text, kept):
    from kg.extract.tagger import trim_edges

    a, b = trim_edges(text, 0, len(text))
    assert text[a:b] == kept


def test_no_model_span_has_unbalanced_brackets_once_widened_to_tokens(nlp):
    from kg.extract.tagger import _balanced

    doc = nlp("The time complexity of AdaBoost scales as VC(C)poly(R(C), 1/gamma), where VC(C) is the VC-dimension "
              "of C. We compare i)N-Bref and ii)BERT on code.")
    assert doc._.model_spans and all(_balanced(doc.text[a:b]) for a, b, _, _ in doc._.model_spans)


def test_a_soup_of_two_taggers_is_their_weighted_mean_and_runs_as_a_tagger(tmp_path):
    """`python -m training.soup` over two tiny random checkpoints: the mean of their weights, exported."""
    import argparse

    import pytest
    import torch
    from transformers import BertConfig, BertForTokenClassification

    from kg.extract.tagger import TAGS, Tagger
    from training.soup import average, main, parse_member

    config = BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=64, num_labels=len(TAGS))
    members = []
    for seed in (1, 2):
        torch.manual_seed(seed)
        BertForTokenClassification(config).save_pretrained(tmp_path / f"m{seed}")
        members.append(tmp_path / f"m{seed}")
    one, two = (BertForTokenClassification.from_pretrained(str(m)).state_dict() for m in members)
    mean = average([(members[0], 3.0), (members[1], 1.0)]).state_dict()
    key = "classifier.weight"
    assert torch.allclose(mean[key], (3 * one[key] + two[key]) / 4)
    (tmp_path / "tok").mkdir()
    (tmp_path / "tok" / "tokenizer.json").write_bytes((TAGGER_DIR / "tokenizer.json").read_bytes())
    out = tmp_path / "soup"
    assert main([f"{members[0]}=3", str(members[1]), "--output", str(out), "--tokenizer", str(tmp_path / "tok")]) == 0
    assert json.loads((out / "meta.json").read_text())["soup"] == [[str(members[0]), 3.0], [str(members[1]), 1.0]]
    spans = Tagger(str(out)).spans("We propose FlowMixer, evaluated on GLUE with accuracy.")
    assert all(label in {"Method", "Dataset", "Task", "Metric"} for _, _, label, _ in spans)
    assert "IsNaN" not in _op_types(out / "model.onnx")  # the export drops attention's NaN guards
    for bad in ("x=0", "x=-1", "x=nan", "x=inf"):
        with pytest.raises(argparse.ArgumentTypeError, match="positive"):
            parse_member(bad)
    assert parse_member("run=2/best=0.5") == (Path("run=2/best"), 0.5)  # a path may hold "="


def _abstract(topic: str) -> str:
    """An invented abstract whose every run of eight words names ``topic`` (so two topics share none)."""
    return (f"We study {topic}. Prior {topic} work is slow. Our {topic} method is fast, and {topic} "
            f"baselines lose to it on {topic} data; the {topic} analysis explains why.")


def test_pretraining_draws_only_train_ids_and_no_copy_of_a_held_out_text(tmp_path):
    """Ids of the dev or test split (annotated or not), and a held-out text under another id (the same
    abstract, title or most of its words), never reach the encoder."""
    from training.pretrain import pretraining_texts

    held = {"dev_annotated": ("rec_025", "graph pruning"), "test_unannotated": ("rec_013", "speech coding")}
    records = [{"id": rid, "title": f"On {topic}", "abstract": _abstract(topic)} for rid, topic in held.values()]
    records += [{"id": f"rec_00{i}", "title": f"On topic {i}", "abstract": _abstract(f"topic number {i}")}
                for i in range(4)]  # four train ids
    records[2 + 1]["abstract"] = _abstract("graph pruning").replace("We study", "Here we study")  # a copy of dev's
    records[2 + 2]["title"] = "On seed topic"  # a seed abstract's text under a train id:
    records[2 + 2]["abstract"] = _abstract("seed topic")
    records[2 + 3]["abstract"] = _abstract("excluded topic")  # an --exclude-jsonl record's text
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    pool = tmp_path / "pool.txt"
    pool.write_text("\n".join(r["id"] for r in records) + "\n", encoding="utf-8")
    annotations = tmp_path / "annotations"
    annotations.mkdir()
    (annotations / "a.jsonl").write_text(json.dumps({"id": "rec_025", "split": "dev"}) + "\n", encoding="utf-8")
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "000_x.txt").write_text("ICLR 2026 header\n\n" + _abstract("seed topic") + "\n", encoding="utf-8")
    excluded = tmp_path / "excluded.jsonl"
    excluded.write_text(json.dumps({"id": "other", "abstract": _abstract("excluded topic")}) + "\n", encoding="utf-8")

    assert pretraining_texts(corpus, pool, [excluded], seeds, annotations, 1, 0) == [_abstract("topic number 0")]
    everything = pretraining_texts(corpus, pool, [], None, annotations, 3, 0)  # no seeds, nothing excluded
    assert sorted(everything) == sorted(r["abstract"] for r in records[2:] if r["id"] != "rec_001")
    with pytest.raises(Exception, match="pass a smaller --texts"):
        pretraining_texts(corpus, pool, [excluded], seeds, annotations, 2, 0)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n', encoding="utf-8")
    with pytest.raises(Exception, match=r"bad.jsonl:1: a record without an \"abstract\""):
        pretraining_texts(corpus, pool, [bad], None, annotations, 1, 0)
    with pytest.raises(Exception, match="no annotation file"):
        pretraining_texts(corpus, pool, [], None, tmp_path / "nowhere", 1, 0)
    with pytest.raises(Exception, match="no seed abstract"):
        pretraining_texts(corpus, pool, [], annotations, annotations, 1, 0)  # a folder without *.txt


def test_pretraining_the_encoder_runs_end_to_end(tmp_path):
    """The head alone first (the encoder untouched), then everything; the result loads as a tagger's base."""
    import torch
    from transformers import AutoModelForTokenClassification, BertConfig, BertModel

    from training.pretrain import pretrain

    texts = [json.loads(line)["abstract"] for line in (FIXTURE / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    base = tmp_path / "base"
    BertModel(BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                         intermediate_size=64)).save_pretrained(base)
    (base / "tokenizer.json").write_bytes((TAGGER_DIR / "tokenizer.json").read_bytes())
    threads = torch.get_num_threads()
    before = BertModel.from_pretrained(base).state_dict()

    def encoder(path):
        model, info = AutoModelForTokenClassification.from_pretrained(path, num_labels=len(TAGS),
                                                                      output_loading_info=True)
        assert all(key.startswith("classifier.") for key in info["missing_keys"])  # the encoder loaded whole
        return model.bert.state_dict()

    probed = pretrain(texts, base, tmp_path / "probed", batch=2, threads=1, probe=1.0)
    assert probed["probing_steps"] == probed["steps"] == 3 and probed["mean_loss"] > 0
    assert all(torch.equal(before[k], v) for k, v in encoder(tmp_path / "probed").items() if k in before)
    summary = pretrain(texts, base, tmp_path / "adapted", batch=2, threads=1, probe=0.5)
    assert summary["steps"] == 3 and summary["probing_steps"] == 1
    after = encoder(tmp_path / "adapted")
    assert not torch.equal(before["embeddings.word_embeddings.weight"], after["embeddings.word_embeddings.weight"])
    assert (tmp_path / "adapted" / "tokenizer.json").exists() and torch.get_num_threads() == threads
