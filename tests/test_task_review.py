"""The task review (training.task_review): the reviewers' validator and the additions to the standoff files."""
from __future__ import annotations

import json

from training.corpus import read_standoff, standoff
from training.task_review import apply, problems

TEXT = "We study video prediction and apply our model to robot navigation. We use a transformer."
BATCH = {"a1": {"id": "a1", "title": "", "abstract": TEXT, "tasks": ["video prediction"], "methods": ["transformer"],
                "datasets": [], "metrics": []}}


def test_the_validator_accepts_a_verbatim_new_task_and_names_every_other_problem():
    good = json.dumps({"id": "a1", "add": [{"label": "robot navigation", "aliases": []}]})
    assert problems(BATCH, [good]) == []
    bad = json.dumps({"id": "a1", "add": [{"label": "Robot navigation", "aliases": []},  # not as written
                                          {"label": "video prediction", "aliases": []},  # already a task
                                          {"label": "transformer", "aliases": []}]})  # already a method
    found = problems(BATCH, [bad])
    assert len(found) == 3 and "verbatim" in found[0] and all("already" in p for p in found[1:])
    assert problems(BATCH, []) == ["1 records have no line yet, e.g. ['a1']"]


def test_applying_a_review_adds_the_tasks_places_them_and_is_idempotent(tmp_path):
    record = {"id": "a1", "title": "", "abstract": TEXT}
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps(record) + "\n", encoding="utf-8")
    ann = {"tasks": [{"label": "video prediction", "aliases": []}], "methods": [{"label": "transformer", "aliases": []}]}
    entry, _ = standoff(ann, record)
    annotations = tmp_path / "annotations"
    annotations.mkdir()
    (annotations / "a.jsonl").write_text(json.dumps(entry, sort_keys=True) + "\n", encoding="utf-8")
    review = tmp_path / "out.jsonl"
    review.write_text(json.dumps({"id": "a1", "add": [{"label": "robot navigation", "aliases": []}]}) + "\n",
                      encoding="utf-8")
    assert apply([review], corpus, annotations) == (1, 1)
    [(_, _, got)] = read_standoff([annotations / "a.jsonl"])
    assert got["task_review"] == ["robot navigation"]
    assert [t["label"] for t in got["annotation"]["tasks"]] == ["video prediction", "robot navigation"]
    start = TEXT.index("robot navigation")
    assert [start, start + 16, "Task", "robot navigation", False] in got["spans"]
    before = (annotations / "a.jsonl").read_bytes()
    assert apply([review], corpus, annotations) == (0, 0) and (annotations / "a.jsonl").read_bytes() == before


def test_a_task_that_would_take_the_place_of_an_annotated_form_is_left_out(tmp_path):
    text = "Training generative adversarial networks is hard; we study video prediction."
    record = {"id": "a1", "title": "", "abstract": text}
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps(record) + "\n", encoding="utf-8")
    entry, _ = standoff({"methods": [{"label": "generative adversarial networks", "aliases": []}]}, record)
    annotations = tmp_path / "annotations"
    annotations.mkdir()
    (annotations / "a.jsonl").write_text(json.dumps(entry, sort_keys=True) + "\n", encoding="utf-8")
    review = tmp_path / "out.jsonl"
    review.write_text(json.dumps({"id": "a1", "add": [{"label": "Training generative adversarial networks", "aliases": []},
                                                       {"label": "video prediction", "aliases": []}]}) + "\n",
                      encoding="utf-8")
    assert apply([review], corpus, annotations) == (1, 1)
    [(_, _, got)] = read_standoff([annotations / "a.jsonl"])
    assert got["task_review"] == ["video prediction"] and all(s in got["spans"] for s in entry["spans"])


def test_the_validator_reports_an_empty_form_and_a_line_that_is_no_object():
    found = problems(BATCH, ['[1, 2]', json.dumps({"id": "a1", "add": [{"label": "", "aliases": []}]})])
    assert "not a JSON object" in found[0] and "no form empty" in found[1]
