"""The trained entity model in the entity stage: its spans as mentions, confidence and its threshold, the
shipped pipeline on a small gold fixture, and the training entry point's refusal of stale annotations."""
from __future__ import annotations

from pathlib import Path

import pytest

from training.train import train

FIXTURE = Path(__file__).parent / "data" / "training"


def test_training_refuses_annotations_that_do_not_match_their_texts(tmp_path):
    from training.corpus import CorpusError

    changed = tmp_path / "corpus.jsonl"
    changed.write_text((FIXTURE / "corpus.jsonl").read_text().replace("FlowMixer", "FlowMixer2", 1))
    with pytest.raises(CorpusError, match="changed since it was annotated"):
        train(changed, tmp_path / "base", tmp_path / "model", FIXTURE / "annotations", epochs=1, threads=1)
    assert not (tmp_path / "model").exists()


TEXT = "We propose GraphMix. On Cora, GraphMix beats GCN in node classification accuracy."


def _mention(start, end, type_name, rule, confidence=None):
    from kg.extract.types import Mention

    return Mention(start, end, type_name, TEXT[start:end], rule, confidence=confidence)


def test_model_spans_become_mentions_typed_by_the_model_and_scored(nlp):
    """with_model: a rule's mention on the model's characters with another type gives way; a rule mention
    the model also finds takes the model's score; a mention the model did not see stays, unscored."""
    from kg.extract.resolution import with_model

    doc = nlp.make_doc(TEXT)
    cora, gcn, task = (TEXT.index("Cora"), TEXT.index("Cora") + 4), (45, 48), (52, 71)
    assert TEXT[slice(*gcn)] == "GCN" and TEXT[slice(*task)] == "node classification"
    found = [_mention(*cora, "Method", "title-case"),            # the model says Dataset: dropped
             _mention(*gcn, "Method", "name"),                   # the model agrees: takes its score
             _mention(*task, "Task", "phrase"),                  # not seen by the model: kept, unscored
             _mention(72, 80, "Metric", "vocabulary")]           # not seen: kept, unscored
    spans = [(*cora, "Dataset", 0.97), (*gcn, "Method", 0.91)]
    got = with_model(found, spans, doc, frozenset())
    assert sorted((m.text, m.type, m.rule, m.confidence) for m in got) == [
        ("Cora", "Dataset", "model", 0.97), ("GCN", "Method", "model", 0.91), ("GCN", "Method", "name", 0.91),
        ("accuracy", "Metric", "vocabulary", None), ("node classification", "Task", "phrase", None)]
    assert [m.text for m in with_model(found, spans, doc, frozenset({"phrase"}))].count("node classification") == 0


def test_min_confidence_keeps_scored_mentions_at_or_above_it_and_every_unscored_one():
    from kg.build.cache import above_confidence
    from kg.extract.types import PaperExtraction

    ex = PaperExtraction(mentions=[_mention(3, 10, "Method", "model", 0.4), _mention(11, 20, "Method", "model", 0.8),
                                   _mention(21, 30, "Task", "phrase")])
    assert [m.confidence for m in above_confidence(ex, 0.8).mentions] == [0.8, None]
    assert above_confidence(ex, 0.0) is ex


def test_min_confidence_filters_relations_the_same_way():
    from kg.build.cache import above_confidence
    from kg.extract.types import PaperExtraction, Relation

    def relation(obj: str, confidence: float | None) -> Relation:
        return Relation(0, 10, "comparesWith", "A", "Method", obj, "Method", "model", confidence=confidence)

    ex = PaperExtraction(relations=[relation("B", 0.3), relation("C", 0.9), relation("D", None)])
    assert [r.object for r in above_confidence(ex, 0.5).relations] == ["C", "D"]


def test_a_scored_mention_carries_kg_confidence_as_a_canonical_decimal():
    from kg.rdf.papers import decimal_text

    assert [decimal_text(x) for x in (0.95, 1.0, 0.1234, 0.0)] == ["0.95", "1.0", "0.123", "0.0"]


def test_build_refuses_a_min_confidence_outside_0_1(tmp_path):
    from click.testing import CliRunner

    from kg.cli import cli

    result = CliRunner().invoke(cli, ["build", str(FIXTURE / "corpus.jsonl"), "-o", str(tmp_path / "out"),
                                  "--min-confidence", "1.5"])
    assert result.exit_code == 2 and "1.5" in result.output and not (tmp_path / "out" / "kg.ttl").exists()


def _fixture_f1(nlp) -> float:
    """All-entities F1 of the pipeline's mentions against the fixture's annotations (labels and aliases,
    case-folded, per type)."""
    import json

    from kg.extract import extract_doc
    from training.corpus import read_standoff
    from training.schema import forms

    texts = {r["id"]: r["abstract"] for r in map(json.loads, (FIXTURE / "corpus.jsonl").read_text().splitlines())}
    tp = fp = fn = 0
    for _, _, entry in read_standoff([FIXTURE / "annotations" / "fixture.jsonl"]):
        ann = entry["annotation"]
        gold = {(f.lower(), t) for key, t in (("methods", "Method"), ("datasets", "Dataset"), ("tasks", "Task"),
                                            ("metrics", "Metric")) for it in ann[key] for f in forms(it)}
        gold |= {(f.lower(), it["type"]) for it in ann["proposes"] for f in forms(it)}
        got = {(m.text.lower(), m.type) for m in extract_doc(nlp(texts[entry["id"]])).mentions if m.type != "Modality"}
        tp += len(got & gold)
        fp += len(got - gold)
        fn += len({g for g in gold if g not in got})
    return 2 * tp / (2 * tp + fp + fn)


def test_the_shipped_pipeline_scores_above_a_floor_on_the_fixture(nlp):
    """The shipped model and rules together on six invented abstracts (a floor, not a benchmark)."""
    assert _fixture_f1(nlp) >= 0.75


def test_the_shipped_model_loads_from_the_package_and_is_deterministic(nlp):
    from kg.extract.model import COMPONENT_CONFIG
    from kg.extract.tagger import TAGGER_DIR

    assert (TAGGER_DIR / "model.onnx").is_file() and "paperkg_entity_tagger" in nlp.pipe_names
    text = (FIXTURE / "corpus.jsonl").read_text()
    doc_a, doc_b = nlp(text), nlp(text)
    assert doc_a._.model_spans == doc_b._.model_spans and doc_a._.model_spans
    config = COMPONENT_CONFIG["paperkg_entity_tagger"]  # the tagger's spans from its threshold, or its label's
    floor = {label: config.get("label_thresholds", {}).get(label, config["threshold"]) for *_, label, _c in doc_a._.model_spans}
    assert all(c is not None and floor[label] <= c <= 1.0 for *_, label, c in doc_a._.model_spans)


def test_a_label_threshold_overrides_the_threshold_for_that_label_alone(nlp):
    from kg.errors import ModelError
    from kg.extract.tagger import TaggerComponent

    doc = nlp.make_doc((FIXTURE / "corpus.jsonl").read_text())
    everything = TaggerComponent(threshold=0.0)(doc)._.model_spans
    confidences = sorted(c for *_, label, c in everything if label == "Method")
    middle = confidences[len(confidences) // 2]  # keeps about half of the methods
    kept = TaggerComponent(threshold=0.0, label_thresholds={"Method": middle})(doc)._.model_spans
    assert kept == [s for s in everything if s[2] != "Method" or s[3] >= middle]
    assert any(s[2] == "Method" and s[3] < middle for s in everything)  # something was left out
    assert any(s[2] != "Method" and s[3] < middle for s in kept)  # other labels keep the global threshold
    with pytest.raises(ModelError, match="label_thresholds names \\['Modality'\\]"):
        TaggerComponent(label_thresholds={"Modality": 0.5})


def test_the_evaluation_harness_builds_a_graph_with_a_named_variant(tmp_path):
    """training.evaluate drives the real build (in its own process: it reconfigures the pipeline)."""
    import subprocess
    import sys

    from rdflib import Graph

    from kg.namespaces import KG

    script = ("import sys; from pathlib import Path; from training.evaluate import SHIPPED, VARIANTS, build_graph; "
              "print(build_graph([Path(sys.argv[1])], Path(sys.argv[2]), VARIANTS[SHIPPED]))")
    done = subprocess.run([sys.executable, "-c", script, str(FIXTURE / "corpus.jsonl"), str(tmp_path / "out")],
                          capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1], timeout=300)
    assert done.returncode == 0, done.stderr
    graph = Graph().parse(done.stdout.strip())
    assert len(set(graph.subjects(predicate=None, object=KG.Paper))) == sum(
        1 for line in (FIXTURE / "corpus.jsonl").read_text().splitlines() if line.strip())
