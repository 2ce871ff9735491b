"""The statistical NER component: loads the shipped model, finds methods, leaves the main pipeline's entities alone."""
from __future__ import annotations

import pytest
import spacy

from kg.errors import ModelError
from kg.extract.statistical import LABELS, MODEL_DIR, StatisticalNER, load_ner, statistical_spans

SENTENCE = "We train a convolutional neural network with stochastic gradient descent for image classification."


@pytest.fixture(scope="session")
def stat_nlp():
    """A blank English pipeline with the component added (the main pipeline's tokenizer rules)."""
    nlp = spacy.blank("en")
    nlp.add_pipe("paperkg_scierc_ner")
    return nlp


@pytest.fixture(scope="session")
def tagged(stat_nlp):
    return stat_nlp(SENTENCE)


def test_model_ships_small():
    size = sum(f.stat().st_size for f in MODEL_DIR.rglob("*") if f.is_file())
    assert (MODEL_DIR / "ner").is_dir() and size <= 10_000_000
    assert set(LABELS) <= set(load_ner().get_pipe("ner").labels)


def test_finds_a_method(tagged):
    methods = {tagged.text[s:e] for s, e, label, _ in tagged._.stat_spans if label == "Method"}
    assert methods & {"convolutional neural network", "stochastic gradient descent"}, tagged._.stat_spans


def test_offsets_slice_the_text(tagged):
    spans = tagged._.stat_spans
    assert spans
    for start, end, label, score in spans:
        text = tagged.text[start:end]
        assert text == text.strip() and text
        assert tagged.char_span(start, end) is not None  # on token boundaries
        assert label in LABELS and score is None


def test_leaves_ents_alone(stat_nlp):
    doc = stat_nlp.make_doc(SENTENCE)
    doc.ents = [doc.char_span(11, 39, label="KEEP")]
    before = [(e.start_char, e.end_char, e.label_) for e in doc.ents]
    stat_nlp.get_pipe("paperkg_scierc_ner")(doc)
    assert [(e.start_char, e.end_char, e.label_) for e in doc.ents] == before
    assert doc._.stat_spans


def test_helper_and_pipe_agree_with_call(stat_nlp, tagged):
    other = "Support vector machines are applied to text classification."
    component = stat_nlp.get_pipe("paperkg_scierc_ner")
    piped = list(component.pipe([stat_nlp.make_doc(SENTENCE), stat_nlp.make_doc(other)], batch_size=2))
    assert piped[0]._.stat_spans == tagged._.stat_spans
    assert piped[1]._.stat_spans == component(stat_nlp.make_doc(other))._.stat_spans
    doc = stat_nlp.make_doc(SENTENCE)
    assert statistical_spans(doc) == tagged._.stat_spans and doc._.stat_spans is None


def test_in_the_main_pipeline(nlp):
    """Added after paperkg's components, it sets stat_spans and keeps their output."""
    doc = nlp(SENTENCE)
    before = (list(doc.ents), list(doc._.mentions or []))
    StatisticalNER()(doc)
    assert (list(doc.ents), list(doc._.mentions or [])) == before
    assert any(label == "Method" for _, _, label, _ in doc._.stat_spans)


def test_missing_model_says_how_to_retrain(tmp_path):
    with pytest.raises(ModelError, match="training/scierc/train.py"):
        load_ner(str(tmp_path / "nowhere"))
