"""The trained proposal classifier (kg.extract.proposal_model) and its training entry point."""
from __future__ import annotations

import pytest

from kg.extract.types import Mention


def test_the_shipped_proposal_model_loads_once_from_the_package_and_runs_in_the_pipeline(nlp):
    from kg.extract.proposal_model import MODEL_DIR, ProposalClassifier, load_model

    assert "paperkg_proposal_model" in nlp.pipe_names
    assert nlp.pipe_names.index("paperkg_proposal_model") == nlp.pipe_names.index("paperkg_proposals") + 1
    component = nlp.get_pipe("paperkg_proposal_model")
    misses = load_model.cache_info().misses
    assert component.model is load_model(str(MODEL_DIR)) is ProposalClassifier().model
    assert load_model.cache_info().misses == misses
    assert 0.0 < component.model.rule_threshold <= component.model.threshold < 1.0


def test_a_coined_name_the_authors_introduce_is_proposed_and_a_known_method_they_use_is_not(nlp):
    doc = nlp("We propose FlowMixer, a novel architecture for time series forecasting. FlowMixer combines "
              "token mixing with a Transformer encoder. Experiments show that FlowMixer outperforms strong "
              "baselines on five benchmarks.")
    proposed = {p.text for p in doc._.proposed}
    assert "FlowMixer" in proposed and "Transformer" not in proposed
    assert doc._.paper_name == "FlowMixer"


def test_switched_off_the_component_leaves_the_rules_proposals_alone(nlp):
    from kg.extract.proposal_model import ProposalClassifier

    doc = nlp.make_doc("x")
    doc._.proposed, doc._.paper_name = [Mention(0, 1, "Method", "x", "proposal", proposed=True)], "x"
    doc = ProposalClassifier(use_model=False)(doc)
    assert [p.text for p in doc._.proposed] == ["x"] and doc._.paper_name == "x"


def test_the_model_can_overrule_the_rules_both_ways(nlp):
    """A threshold above every probability proposes nothing and keeps the rules' name; one at zero proposes
    every candidate entity (no vocabulary concept among them)."""
    from kg.extract.proposal_model import decide, load_model

    doc = nlp("We propose FlowMixer, built on BERT, for forecasting.")
    mentions, proposed, name = list(doc._.mentions), list(doc._.proposed), doc._.paper_name
    model = load_model()
    _, none, kept = decide(doc, mentions, proposed, "FlowMixer", model, threshold=1.01, rule_threshold=1.01)
    assert none == [] and kept == "FlowMixer"
    _, every, _ = decide(doc, mentions, proposed, name, model, threshold=0.0, rule_threshold=0.0)
    assert "FlowMixer" in {p.text for p in every} and not any(p.concept for p in every)
    assert all(p.proposed for p in every)


def test_a_rules_proposal_the_model_rejects_keeps_its_descriptors_type_not_the_default_method(nlp):
    """"a challenge called crystal structure prediction (CSP)": the naming verb makes the rules propose CSP as
    a Method; once the model rejects it, CSP is the task it was, not a method (nor linked to a method of the
    vocabulary that shares the short form)."""
    from kg.extract.proposal_model import decide, load_model

    doc = nlp("It is a long-standing challenge called crystal structure prediction (CSP). We study CSP.")
    start = doc.text.index("CSP")
    task = Mention(start, start + 3, "Task", "CSP", "abbreviation", long_form="crystal structure prediction",
                   short_form="CSP")
    rules = [Mention(start, start + 3, "Method", "CSP", "proposal", proposed=True)]
    mentions, proposed, _ = decide(doc, [task], rules, "CSP", load_model(), threshold=1.01, rule_threshold=1.01)
    assert proposed == [] and [(m.text, m.type, m.proposed) for m in mentions] == [("CSP", "Task", False)]
    # a type the rules read from a descriptor noun stays: "the first benchmark, R2E-Eval1," is a dataset
    doc = nlp("We build the first large-scale benchmark, R2E-Eval1, for coding assistants.")
    start = doc.text.index("R2E-Eval1")
    tagged = Mention(start, start + 9, "Method", "R2E-Eval1", "model")
    rules = [Mention(start, start + 9, "Dataset", "R2E-Eval1", "proposal", proposed=True)]
    mentions, proposed, _ = decide(doc, [tagged], rules, "R2E-Eval1", load_model(), threshold=1.01,
                                   rule_threshold=1.01)
    assert proposed == [] and [(m.text, m.type, m.proposed) for m in mentions] == [("R2E-Eval1", "Dataset", False)]


def test_extra_candidates_are_abbreviation_sides_coined_names_and_phrases_where_the_authors_speak(nlp):
    from kg.extract.proposal_model import extra_candidates

    doc = nlp("We define perspective points for scene parsing. The cross-covariance attention (XCA) is cheap.")
    found = {(m.text, m.rule) for m in extra_candidates(doc, [])}
    assert ("perspective points", "candidate-phrase") in found
    assert ("XCA", "candidate-abbreviation") in found or ("XCA", "candidate-name") in found
    taken = [Mention(doc.text.index("XCA"), doc.text.index("XCA") + 3, "Method", "XCA", "abbreviation")]
    assert "XCA" not in {m.text for m in extra_candidates(doc, taken)}


def test_a_missing_proposal_model_names_the_retraining_command(tmp_path):
    from kg.errors import ModelError
    from kg.extract.proposal_model import load_model

    with pytest.raises(ModelError, match="training.train_proposals"):
        load_model(str(tmp_path))


def test_proposal_training_runs_end_to_end_on_written_abstracts(nlp, tmp_path):
    """training.train_proposals on eight invented abstracts (docs given, no corpus file): a loadable model
    whose thresholds were chosen on the dev abstracts, and no temporary folder left behind."""
    from kg.extract.proposal_model import load_model
    from training.train_proposals import train

    names = ["FooNet", "BarNet", "BazNet", "QuxNet", "ZapNet", "ZipNet", "DotNet", "RayNet"]
    splits = ["train"] * 5 + ["dev", "dev", "test"]
    docs = []
    for i, (split, name) in enumerate(zip(splits, names)):
        text = f"We propose {name}, a new model for image classification. {name} outperforms ResNet on CIFAR-10."
        ann = {"proposes": [{"label": name, "aliases": [], "type": "Method"}]}
        docs.append(({"id": f"written_{i}", "split": split, "annotation": ann}, nlp(text)))
    out = tmp_path / "proposals"
    report = train(None, out, docs=docs)
    model = load_model(str(out))
    assert model.threshold == report["threshold"] and model.rule_threshold == report["rule_threshold"]
    assert set(report["table"]) >= {"rules"}
    assert not out.with_name("proposals.tmp").exists()


@pytest.mark.parametrize("name, text, short", [
    ("Analogical Reasoning Transformer Networks", "we propose Analogical Reasoning Transformer Networks (ARTNet), a", "ARTNet"),
    ("Multi-source Information-regularized Adaptation Networks",
     "called a Multi-source Information-regularized Adaptation Networks (MIAN). The", "MIAN"),
    ("FlowMixer", "We propose FlowMixer (FM).", "FlowMixer"),  # one word is already short
    ("graph neural network", "a graph neural network (the usual one)", "graph neural network"),
])
def test_a_long_name_is_replaced_by_the_short_form_the_text_gives(name, text, short):
    from kg.extract.proposal_model import short_name

    mentions = [Mention(text.index(name), text.index(name) + len(name), "Method", name, "model")]
    if short != name:
        mentions.append(Mention(text.index(short), text.index(short) + len(short), "Method", short, "model"))
    assert short_name(name, mentions, text) == short


@pytest.mark.parametrize("text, name", [
    ("We introduce Meta-OLE, a new geometry-regularized method for fast adaptation.", "Meta-OLE"),
    ("We develop a new denoising diffusion methodology, Gen-neG, that leverages side-information.", "Gen-neG"),
])
def test_a_hyphenated_name_is_named_whole(nlp, text, name):
    assert nlp(text)._.paper_name == name


@pytest.mark.parametrize("text, name", [
    ("Our method SeFT (Set Functions for Time Series) is based on differentiable set function learning.", "SeFT"),
    ("We study forecasting. Our new benchmark, TimeArena, holds 40 tasks.", "TimeArena"),
    ("Compared with our method, BERT requires ten times more memory.", None),  # a new clause
])
def test_a_name_right_after_our_method_is_the_papers_own_and_a_new_clause_is_not(nlp, text, name):
    assert nlp(text)._.paper_name == name


@pytest.mark.parametrize("text, form, expected", [
    ("PaAno beats PaAno-2 and xPaAno; PaAno.", "PaAno", 2),  # not inside a longer word or a hyphenated one
    ("BERT_base and BERT", "BERT", 1),
    ("", "BERT", 0),
    ("anything", "", 0),  # an empty form is written nowhere
])
def test_written_count_counts_whole_written_forms(text, form, expected):
    from kg.extract.proposal_model import written_count

    assert written_count(text, form) == expected


def test_paper_features_set_an_entity_apart_among_the_papers_own(nlp):
    """The first coined name, written first in the first sentence where the authors propose and defined
    there, against a later name and a phrase outside that sentence."""
    from kg.extract.proposal_model import paper_features, self_cue_sentences
    from kg.extract.relation_model import entities

    doc = nlp("Graph learning is hard. We propose Spectral Graph Embedding (SGE), a new model. "
              "SGE beats KGE-Net on link prediction.")
    sents = list(doc.sents)
    cues = self_cue_sentences(sents)
    assert cues == [1]
    ents = entities(doc, list(doc._.mentions))
    by_form = {f: e for e in ents for f in e.forms}
    assert paper_features(by_form["sge"], ents, cues) == {"namerank=0", "in-first-selfcue", "first-in-first-selfcue",
                                                          "def-in-selfcue"}
    assert paper_features(by_form["kge net"], ents, cues) == {"namerank=1"}
