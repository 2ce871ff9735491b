"""The modality model: features of a concept's mentions, the judgement, the shipped model in the pipeline,
and its training end to end."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.extract.types import Mention

FIXTURE = Path(__file__).parent / "data" / "training"
IMAGE = "https://w3id.org/paperkg/id/modality/image"
GRAPH = "https://w3id.org/paperkg/id/modality/graph"


def _mentions(text: str, forms: dict[str, str]) -> list[Mention]:
    out = []
    for form, concept in forms.items():
        start = text.index(form)
        out.append(Mention(start, start + len(form), "Modality", form, "modality-cue", concept=concept))
    return out


def test_mentions_are_grouped_by_concept_and_described_by_named_features(nlp):
    from kg.extract.modality_model import group_features, modality_groups

    text = "We classify images with a convolutional network. Unlike graph methods, it needs no edges."
    doc = nlp(text)
    mentions = _mentions(text, {"images": IMAGE, "graph": GRAPH})
    groups = modality_groups(mentions)
    assert sorted(groups) == [GRAPH, IMAGE] and [m.text for m in groups[IMAGE]] == ["images"]
    image = group_features(doc, groups[IMAGE], mentions)
    assert {"concept=image", "n=1", "we", "sent=0", "rule=modality-cue", "image|we"} <= set(image)
    graph = group_features(doc, groups[GRAPH], mentions)
    assert "sent=last" in graph and "we" not in graph and "concept=graph" in graph
    assert image == sorted(image) and group_features(doc, groups[IMAGE], mentions) == image  # deterministic


def test_judged_drops_the_concepts_under_the_threshold_and_scores_the_others():
    from kg.extract.modality_model import judged

    text = "images and graphs"
    mentions = _mentions(text, {"images": IMAGE, "graphs": GRAPH}) + [Mention(0, 6, "Method", "images", "phrase")]
    got = judged(mentions, {IMAGE: 0.8, GRAPH: 0.1}, 0.25)
    assert [(m.text, m.type, m.confidence) for m in got] == [("images", "Modality", 0.8), ("images", "Method", None)]


def test_the_shipped_modality_model_runs_in_the_pipeline_and_scores_what_it_keeps(nlp):
    from kg.extract.modality_model import MODEL_DIR, load_model

    assert "paperkg_modality_model" in nlp.pipe_names and (MODEL_DIR / "weights.npy").is_file()
    assert 0.0 < load_model().threshold < 1.0
    doc = nlp("We propose a convolutional network for image classification and train it on images of cells.")
    kept = [m for m in doc._.mentions if m.type == "Modality"]
    assert kept and all(m.concept == IMAGE and m.confidence is not None and m.confidence >= load_model().threshold
                        for m in kept)


def test_a_missing_modality_model_names_the_retraining_command(tmp_path):
    from kg.errors import ModelError
    from kg.extract.modality_model import load_model

    with pytest.raises(ModelError, match="training.train_modalities"):
        load_model(str(tmp_path / "nowhere"))


def test_modality_training_runs_end_to_end_on_written_abstracts(nlp, tmp_path):
    """training.train_modalities on six invented abstracts (docs given, no corpus file): a loadable model."""
    from kg.extract.modality_model import load_model
    from training.corpus import read_standoff
    from training.train_modalities import train

    texts = {r["id"]: r["abstract"] for r in map(json.loads, (FIXTURE / "corpus.jsonl").read_text().splitlines())}
    docs = [(e, nlp(texts[e["id"]])) for _, _, e in read_standoff([FIXTURE / "annotations" / "fixture.jsonl"])]
    out = tmp_path / "modalities"
    report = train(None, out, docs=docs, min_count=1)
    model = load_model(str(out))
    curve = report["curve"]
    best = max(curve, key=lambda t: (curve[t]["f1"], curve[t]["precision"]))
    assert report["threshold"] == best and model.threshold == best  # chosen by dev F1, then precision
    assert not out.with_name("modalities.tmp").exists() and (out / "weights.npy").is_file()


def test_a_concept_outside_the_guidelines_list_is_not_reported():
    """"source code" has no ancestor in the modality list: its mention goes; "satellite imagery" is
    reported as its nearest ancestors in the list."""
    from kg.extract.modality import REPORTED_MODALITIES, reported_modalities

    base = "https://w3id.org/paperkg/id/modality/"
    broader = {base + "satellite-imagery": (base + "image",)}
    mentions = [Mention(0, 11, "Modality", "source code", "modality-cue", concept=base + "source-code"),
                Mention(16, 33, "Modality", "satellite imagery", "modality-cue", concept=base + "satellite-imagery"),
                Mention(40, 45, "Method", "U-Net", "name")]
    got = reported_modalities(mentions, lambda iri: broader.get(iri, ()))
    assert [(m.text, m.concept) for m in got] == [("satellite imagery", IMAGE), ("U-Net", None)]
    assert "source-code" not in REPORTED_MODALITIES and "image" in REPORTED_MODALITIES


def test_switched_off_the_component_leaves_the_rules_modalities_alone(nlp):
    from kg.extract.modality_model import ModalityClassifier

    doc = nlp("Unlike graph methods, we classify images.")
    mentions = _mentions(doc.text, {"graph": GRAPH, "images": IMAGE})
    doc._.mentions = list(mentions)
    assert ModalityClassifier(use_model=False)(doc)._.mentions == mentions
    doc._.mentions = list(mentions)
    assert ModalityClassifier(threshold=1.01)(doc)._.mentions == []  # a threshold above every score keeps none


def test_a_form_that_cues_two_modalities_keeps_the_more_confident_in_any_order():
    from itertools import permutations

    from kg.extract.modality_model import one_concept_per_span
    from kg.extract.resolution import resolve_overlaps

    image = Mention(0, 8, "Modality", "nuScenes", "modality-cue", concept=IMAGE, confidence=0.88)
    graph = Mention(0, 8, "Modality", "nuScenes", "modality-cue", concept=GRAPH, confidence=0.59)
    dataset = Mention(0, 8, "Dataset", "nuScenes", "vocabulary", concept="https://w3id.org/paperkg/id/dataset/nuscenes")
    for order in permutations([image, graph, dataset]):
        assert sorted(resolve_overlaps(list(order))) == sorted([image, graph, dataset])  # both cues stand, for the model
        assert one_concept_per_span(list(order)) == [m for m in order if m is not graph]
    tie = Mention(0, 8, "Modality", "nuScenes", "modality-cue", concept=GRAPH, confidence=0.88)
    assert one_concept_per_span([tie, image]) == one_concept_per_span([image, tie]) == [tie]  # then the first concept


def test_a_dataset_of_two_modalities_gives_the_same_links_under_any_hash_seed(tmp_path):
    import os
    import subprocess
    import sys

    script = ("from kg.extract import load_nlp\n"
              "doc = load_nlp()('We evaluate our detector on nuScenes and on VGGSound clips.')\n"
              "print(sorted((m.text, m.concept) for m in doc._.mentions if m.type == 'Modality'))\n")
    runs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2", "3")}
    assert len(runs) == 1
    assert runs.pop().count("nuScenes") == 1
