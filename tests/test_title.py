"""The name a title announces ("HyperEmbed: ...") becomes a proposal of the paper."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, RDF, RDFS

from kg.cli import cli
from kg.extract.title import TITLE_RULE, title_name, title_name_type, titled_by, with_title_mention, with_title_name
from kg.extract.types import Mention, PaperExtraction
from kg.namespaces import KG


@pytest.mark.parametrize("title, name", [
    ("GrASP: Gradient-Based Affordance Selection for Planning", "GrASP"),
    ("KO codes: inventing nonlinear encoding and decoding", "KO codes"),
    ("Filtered-CoPhy: Unsupervised Learning of Counterfactual Physics", "Filtered-CoPhy"),  # a name after a hyphen
    ("i-RevNet: Deep Invertible Networks", "i-RevNet"),
    ("Self-Supervised Pretraining: a study", None),  # no part of a word is a name
    ("Multi-LLM Debate: a study", None),  # a phrase about a name: only the last word's parts count
    ("Text-to-SQL Parsing: a study", None),
    ("Protect the weak: class-focused online learning", None),  # a phrase, no name-like word
    ("Deep Learning, Briefly: a survey", None),  # a comma: a phrase
    ("Learning Explainable Models Using Attribution Priors", None),  # no colon
    ("A Very Long Four Words: a subtitle", None),
    ("", None),
    (None, None),
])
def test_title_name(title: str | None, name: str | None) -> None:
    assert title_name(title) == name


@pytest.mark.parametrize("title, abstract, name", [
    # a Title Case lead phrase the abstract writes again names the paper's work
    ("Barlow Twins: Self-Supervised Learning via Redundancy Reduction", "We propose Barlow Twins, an objective.",
     "Barlow Twins"),
    ("Algorithm of Thoughts: Enhancing Exploration", "We introduce the Algorithm of Thoughts, a strategy.",
     "Algorithm of Thoughts"),
    ("Ferret: Refer and Ground Anything", "We present Ferret, a multimodal model.", "Ferret"),
    ("Barlow Twins: Self-Supervised Learning via Redundancy Reduction", "We propose an objective.", None),  # not written
    ("Barlow Twins: Self-Supervised Learning", "We propose Barlow Twinsformer.", None),  # only inside a word
    ("Learning to Optimize: A Primer", "Learning to Optimize is a field.", None),  # a gerund starts a phrase
    ("Towards Robust Models: A Study", "Towards Robust Models we go.", None),
    ("Beyond Vector Spaces: Compact Embeddings", "Beyond Vector Spaces, we look.", None),
    ("Neural networks are robust: a study", "Neural networks are robust.", None),  # not Title Case
    ("Deep Nets, Briefly: a survey", "Deep Nets, Briefly.", None),  # a comma
    ("Very Long Title Of Five Words: a subtitle", "We call it Very Long Title Of Five Words.", None),  # 5 words
    ("Memorization: A Study", "Memorization is common. We study it.", None),  # only where any word is capitalised
    ("$\\pi$-Tuning: Transferring", "We propose $\\pi$-Tuning, a method.", None),  # LaTeX: its key would be "tuning"
])
def test_a_titles_lead_phrase_written_again_in_the_abstract_is_its_name(title: str, abstract: str,
                                                                        name: str | None) -> None:
    assert title_name(title, abstract) == name


@pytest.mark.parametrize("title, type_name", [
    ("RoboArena: A Benchmark for Robot Policies", "Dataset"),
    ("CLIPScore: A Reference-free Evaluation Metric for Image Captioning", "Metric"),
    ("HyperEmbed: Tradeoffs Between Resources and Performance", "Method"),
])
def test_the_subtitle_types_the_name(title: str, type_name: str) -> None:
    assert title_name_type(title) == type_name


TITLE = "HyperEmbed: Hyperdimensional Embeddings of N-gram Statistics"


def _props(extraction: PaperExtraction) -> list[tuple]:
    return sorted((m.start, m.end, m.type, m.text, m.rule, m.proposed, m.in_title) for m in extraction.mentions)


@pytest.mark.parametrize("abstract, mentions, expected", [
    # the abstract never writes it: a proposal in the title
    ("We embed n-gram statistics.", [Mention(9, 26, "Method", "n-gram statistics", "phrase")],
     [(0, 10, "Method", "HyperEmbed", TITLE_RULE, True, True),
      (9, 26, "Method", "n-gram statistics", "phrase", False, False)]),
    # written as mentions: every mention of it becomes the proposal, typed as it was
    ("HyperEmbed is fast. HyperEmbed wins.", [Mention(0, 10, "Method", "HyperEmbed", "name"),
                                             Mention(20, 30, "Method", "HyperEmbed", "name")],
     [(0, 10, "Method", "HyperEmbed", "name", True, False), (20, 30, "Method", "HyperEmbed", "name", True, False)]),
    # written, but no mention found it: a proposal where it is written, not inside a longer word
    ("Our HyperEmbed-X and HyperEmbed are fast.", [],
     [(21, 31, "Method", "HyperEmbed", TITLE_RULE, True, False)]),
])
def test_with_title_name(abstract: str, mentions: list[Mention], expected: list[tuple]) -> None:
    assert _props(with_title_name(PaperExtraction(mentions=mentions), TITLE, abstract)) == expected


@pytest.mark.parametrize("mentions", [
    [Mention(0, 10, "Method", "HyperEmbed", "proposal", proposed=True)],  # already proposed
    [Mention(0, 4, "Method", "HE", "abbreviation", short_form="HE", long_form="HyperEmbed", proposed=True)],
])
def test_with_title_name_leaves_what_is_proposed(mentions: list[Mention]) -> None:
    extraction = PaperExtraction(mentions=mentions)
    assert with_title_name(extraction, TITLE, "HyperEmbed is fast.") == extraction


def test_a_vocabulary_concept_a_title_leads_with_is_the_paper_s_own() -> None:
    """"SchNet: A continuous-filter ..." is the paper that introduced SchNet, though the vocabulary knows it."""
    concept = "https://w3id.org/paperkg/id/method/schnet"
    extraction = PaperExtraction(mentions=[Mention(22, 28, "Method", "SchNet", "vocabulary", concept=concept),
                                           Mention(0, 6, "Method", "layers", "phrase")])
    marked = with_title_name(extraction, "SchNet: A continuous-filter convolutional neural network",
                             "layers are applied in SchNet.")
    assert [(m.text, m.proposed, m.concept) for m in marked.mentions] == [("layers", False, None),
                                                                          ("SchNet", True, concept)]


@pytest.mark.parametrize("title", [
    "Graph Neural Networks: Foundations and Frontiers",  # a concept named in words is the field
    "SchNet: A Review of Methods and Applications",  # a survey's lead phrase is what it surveys
])
def test_a_field_or_a_surveyed_concept_a_title_leads_with_is_not_the_paper_s_own(title: str) -> None:
    name = title.partition(":")[0]
    extraction = PaperExtraction(mentions=[Mention(11, 11 + len(name), "Method", name, "vocabulary",
                                                   concept="https://w3id.org/paperkg/id/method/x")])
    assert with_title_name(extraction, title, f"We review {name} again.") == extraction


def test_no_title_name_no_change() -> None:
    extraction = PaperExtraction(mentions=[Mention(0, 2, "Method", "GP", "name")])
    assert with_title_name(extraction, "Learning with Gaussian Processes", "GP is fast.") is extraction
    assert with_title_name(extraction, None, "GP is fast.") is extraction


@pytest.mark.parametrize("title, form, titled", [
    ("Set Functions for Time Series", "Set Functions for Time Series", True),
    ("Fraternal Dropout", "fraternal dropout", True),  # case is ignored
    ("Neural Inverse Knitting: From Images to Manufacturing Instructions", "neural inverse knitting", True),
    ("Neural Inverse Knitting : From Images", "Neural Inverse Knitting", True),
    ("Decaying momentum helps neural network training", "decaying momentum", False),  # words follow
    ("Graph U-Nets", "Graph U", False),  # inside a word
    ("Graph U-Nets", "", False),
    ("Set Functions for Time Series.", "Set Functions for Time Series", True),  # a BibTeX full stop
    ("Neural Inverse Knitting \u2014 From Images to Instructions", "Neural Inverse Knitting", True),
    ("Critic Regularized Regression", "critic-regularized regression", True),  # a hyphen for a space
    ("Self-Supervised Graph Transformers", "self supervised graph transformers", True),
    ("Critic Regularized Regressions", "critic-regularized regression", False),  # inside a word
])
def test_titled_by(title: str, form: str, titled: bool) -> None:
    assert titled_by(title, form) is titled


SEFT = [Mention(0, 4, "Method", "SeFT", "abbreviation", long_form="Set Functions for Time Series", short_form="SeFT"),
        Mention(6, 35, "Method", "Set Functions for Time Series", "abbreviation",
                long_form="Set Functions for Time Series", short_form="SeFT"),
        Mention(50, 54, "Method", "SeFT", "abbreviation-use", long_form="Set Functions for Time Series"),
        Mention(60, 67, "Method", "Transformer", "model")]


def test_the_mention_a_title_is_made_of_is_proposed_and_names_the_paper() -> None:
    out = with_title_mention(PaperExtraction(mentions=SEFT), "Set Functions for Time Series")
    assert [(m.text, m.proposed) for m in out.mentions] == [
        ("SeFT", True), ("Set Functions for Time Series", True), ("SeFT", True), ("Transformer", False)]
    assert out.name == "SeFT"
    named = with_title_mention(PaperExtraction(mentions=SEFT, name="Other"), "Set Functions for Time Series")
    assert named.name == "Other"  # the abstract's own name stays


def test_a_title_made_of_a_long_form_names_the_paper_by_its_short_form() -> None:
    long_only = [SEFT[1], SEFT[3]]
    out = with_title_mention(PaperExtraction(mentions=long_only), "Set Functions for Time Series")
    assert out.name == "SeFT" and [m.proposed for m in out.mentions] == [True, False]


def test_a_title_made_of_a_proposed_artifact_with_a_coined_name_names_the_paper() -> None:
    """The abstract proposed "LFPs" too ("a model of recordings such as local field potentials (LFPs)");
    the title says which proposal is the paper's."""
    proposed = [dataclasses.replace(m, proposed=True) for m in SEFT[:2]]
    lfp = Mention(70, 74, "Method", "LFPs", "abbreviation", proposed=True)
    out = with_title_mention(PaperExtraction(mentions=[*proposed, lfp], name="LFPs"), "Set Functions for Time Series")
    assert out.name == "SeFT" and out.mentions == [*proposed, lfp]
    one_proposed = [SEFT[0], dataclasses.replace(SEFT[1], proposed=True), *SEFT[2:]]
    both = with_title_mention(PaperExtraction(mentions=one_proposed, name="Other"), "Set Functions for Time Series")
    assert both.name == "SeFT" and [m.proposed for m in both.mentions] == [True, True, True, False]
    phrase = [Mention(6, 40, "Method", "confident multiple choice learning", "model", proposed=True)]
    kept = with_title_mention(PaperExtraction(mentions=phrase, name="CMCL"), "Confident Multiple Choice Learning")
    assert kept.name == "CMCL"  # a phrase names no paper over the abstract's coined name


def test_a_task_of_the_titles_name_stays_a_task_not_a_proposal() -> None:
    mentions = [Mention(0, 24, "Method", "Temporal Graph Reasoning", "model"),
                Mention(60, 84, "Task", "temporal graph reasoning", "model")]
    out = with_title_mention(PaperExtraction(mentions=mentions), "Temporal Graph Reasoning")
    assert [(m.type, m.proposed) for m in out.mentions] == [("Method", True), ("Task", False)]


@pytest.mark.parametrize("title, mentions", [
    ("Graph Prompt Learning: A Comprehensive Survey and Beyond",
     [Mention(0, 21, "Method", "graph prompt learning", "model")]),  # a survey introduces nothing
    ("Set Functions for Time Series and More", SEFT),  # the title says more than the name
    ("Time Series Forecasting", [Mention(0, 23, "Task", "time series forecasting", "model")]),  # the problem
    ("Gaussian Processes", [Mention(0, 18, "Method", "Gaussian processes", "vocabulary",
                                    concept="https://w3id.org/paperkg/id/method/gaussian-process")]),  # well known
    (None, SEFT),
])
def test_a_title_that_is_no_mentions_name_proposes_nothing(title: str | None, mentions: list[Mention]) -> None:
    extraction = PaperExtraction(mentions=mentions)
    assert with_title_mention(extraction, title) is extraction


def test_the_graph_proposes_the_titles_name_with_its_mention_in_the_title(tmp_path: Path, nlp) -> None:
    source = tmp_path / "in.jsonl"
    abstract = ("Deep models for language are costly. We study distributed representations of n-gram "
                "statistics formed by hyperdimensional computing, and show a tenfold memory reduction.")
    source.write_text(json.dumps({"id": "p1", "title": TITLE, "abstract": abstract}) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["build", str(source), "-o", str(out), "--no-views", "--no-cache", "--workers", "1"])
    assert result.exit_code == 0, result.output
    g = Graph().parse(out / "kg.ttl")
    paper = next(g.subjects(DCTERMS.identifier, Literal("p1")))
    proposed = {str(g.value(e, RDFS.label)) for e in g.objects(paper, KG.proposes)}
    assert proposed == {"HyperEmbed"}
    mention = next(g.subjects(KG.inTitle, Literal(True)))
    assert (mention, RDF.type, KG.Mention) in g and g.value(mention, KG.paper) == paper
    assert (g.value(mention, KG.anchorText), g.value(mention, KG.start), g.value(mention, KG.end)) == (
        Literal("HyperEmbed"), Literal(0), Literal(10))
    assert g.value(mention, KG.inSentence) is None
    assert str(mention) == f"{paper}/t0-10-method" and isinstance(mention, URIRef)
    validated = CliRunner().invoke(cli, ["validate", "--graph", str(out / "kg.ttl")])
    assert validated.exit_code == 0, validated.output
