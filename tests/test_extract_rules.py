"""Extraction rules on short texts, with the real spaCy pipeline (loaded once per session)."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kg.extract import extract_doc
from kg.extract.terms import specialises_chars
from kg.extract.tokenizer import is_phrasal_compound

WORD = st.from_regex(r"[a-z]{2,9}", fullmatch=True).filter(
    lambda w: w not in {"of", "the", "to", "in", "on", "for", "and", "or", "an", "by", "with", "at", "from", "off",
                        "out", "over", "under", "up", "vs"})


def mentions(nlp, text: str) -> set[tuple[str, str, str]]:
    return {(m.type, m.text, m.rule) for m in extract_doc(nlp(text)).mentions}


@given(WORD, st.sampled_from(["of", "to", "and", "of-the"]), WORD)
def test_words_joined_around_a_function_word_are_a_phrasal_compound(a, joint, b):
    assert is_phrasal_compound(f"{a}-{joint}-{b}")


@given(WORD, WORD)
def test_an_ordinary_hyphenated_word_is_not_a_phrasal_compound(a, b):
    assert not is_phrasal_compound(f"{a}-{b}")
    assert not is_phrasal_compound(f"{a} of {b}")


def test_tokenizer_keeps_phrasal_compounds_whole(nlp):
    doc = nlp.make_doc("State-of-the-art out-of-distribution detection, end-to-end; multi-agent RL.")
    words = [t.text for t in doc]
    assert "State-of-the-art" in words and "out-of-distribution" in words and "end-to-end" in words
    assert "multi-agent" not in words  # ordinary compounds are split as spaCy always did


def test_a_task_phrase_with_a_phrasal_compound_is_found(nlp):
    found = mentions(nlp, "Experiments demonstrate the effectiveness of Fishr for out-of-distribution generalization.")
    assert ("Task", "out-of-distribution generalization", "phrase") in found


@pytest.mark.parametrize("text, task", [
    ("In preference-based Reinforcement Learning (RL), labels are costly.", "preference-based Reinforcement Learning"),
    ("We evaluate on the Safe Reinforcement Learning benchmark.", "Safe Reinforcement Learning"),
    ("Robust reinforcement learning is hard.", "Robust reinforcement learning"),
])
def test_reinforcement_learning_with_its_setting_is_a_task(nlp, text, task):
    found = mentions(nlp, text)
    assert ("Task", task) in {(typ, t) for typ, t, _r in found}
    inside = {t for typ, t, _ in found if typ == "Method" and t in task}
    assert not inside, inside


def test_reinforcement_learning_alone_stays_a_method(nlp):
    assert ("Method", "reinforcement learning", "vocabulary") in mentions(nlp, "We use reinforcement learning to plan.")


def test_learning_settings_of_the_vocabulary_are_tasks(nlp):
    found = mentions(nlp, "We study meta-learning, offline RL and in-context learning.")
    assert {("Task", "meta-learning"), ("Task", "offline RL"), ("Task", "in-context learning")} <= {
        (typ, t) for typ, t, _ in found}


def test_a_name_that_specialises_a_known_term_is_its_own_method(nlp):
    found = mentions(nlp, "Here we propose Stochastic Normalizing Flows (SNF), a sequence of invertible functions.")
    assert ("Method", "Stochastic Normalizing Flows", "abbreviation") in found or (
        "Method", "Stochastic Normalizing Flows", "title-case") in found
    assert not any(t == "Normalizing Flows" for _typ, t, _ in found)


def test_a_known_term_written_in_title_case_keeps_its_concept(nlp):
    doc = nlp("We fine-tune Graph Neural Networks on molecules.")
    gnn = [m for m in extract_doc(doc).mentions if m.text == "Graph Neural Networks" and m.type == "Method"]
    assert gnn and gnn[0].rule == "vocabulary" and gnn[0].concept


@pytest.mark.parametrize("text, specific", [
    ("Lightning Attention", True),
    ("Stochastic Normalizing Flows", True),
    ("Pretrained Language Models", False),  # the extra word is generic
    ("Language Models", False),  # the known term itself
])
def test_specialises(text, specific):
    known_word = "Attention" if "Attention" in text else "Normalizing Flows" if "Flows" in text else "Language Models"
    a = text.index(known_word)
    assert specialises_chars(text, 0, len(text), [(a, a + len(known_word))]) is specific


def modalities(nlp, text: str) -> set[str]:
    return {m.concept.rsplit("/", 1)[-1] for m in extract_doc(nlp(text)).mentions if m.type == "Modality"}


def test_a_modality_named_only_in_a_release_note_is_not_the_papers(nlp):
    text = ("We propose a planner for robot arms. The code and videos of our method are available at "
            "https://example.org/planner.")
    assert "video" not in modalities(nlp, text)
    assert "video" in modalities(nlp, "We propose a planner that learns from videos of robot arms.")


def test_a_narrower_modality_is_reported_at_the_annotation_level(nlp):
    found = modalities(nlp, "We segment fields in aerial images of farmland and classify MRI scans.")
    assert "image" in found and "satellite-imagery" not in found and "mri" not in found
    assert "eeg" in modalities(nlp, "We decode EEG signals recorded during sleep.")  # a reported level itself


@pytest.mark.parametrize("text, passing", [
    ("Echoing LLM scaling laws, we show that graph partitioning of road networks improves with size.", "text"),
    ("We borrow a reporting tool from the NLP field for road network partitioning.", "text"),
    ("Our filter improves audio super-resolution at a small cost.", "image"),
])
def test_a_modality_cue_in_passing_is_not_the_papers(nlp, text, passing):
    assert passing not in modalities(nlp, text)


def test_a_modality_cue_about_the_work_still_counts(nlp):
    assert "text" in modalities(nlp, "We align large language models with human preferences.")
    assert "image" in modalities(nlp, "Our filter improves super-resolution at a small cost.")


def test_modality_words_in_a_sentence_about_modalities(nlp):
    found = modalities(nlp, "We evaluate the approach across three modalities (vision, language, and audio).")
    assert {"image", "text", "audio"} <= found
    assert "text" not in modalities(nlp, "We study the language of mathematics.")


def test_protein_papers_name_their_data_by_sequence_or_structure(nlp):
    found = modalities(nlp, "Protein models learn from large sequence and structure datasets of proteins.")
    assert {"protein-sequence", "protein-structure"} <= found
    assert "protein-sequence" not in modalities(nlp, "We model a sequence of images with a structure prior.")


def test_an_acronym_listed_among_methods_is_a_method(nlp):
    found = mentions(nlp, "We use pretrained encoders (e.g., DINO, SigLIP, MAE) with trained decoders.")
    assert ("Method", "MAE", "list-context") in found
    assert ("Metric", "MAE", "vocabulary") in mentions(nlp, "We report MAE and RMSE on three datasets.")


def test_plural_metric_acronyms_are_metrics(nlp):
    found = mentions(nlp, "Our model reaches FIDs of 1.18 at 256 resolution.")
    assert ("Metric", "FIDs", "vocabulary") in found and not any(t == "FIDs" and typ == "Method" for typ, t, _ in found)


def test_a_run_in_heading_is_no_metric(nlp):
    assert not any(typ == "Metric" for typ, _t, _r in mentions(
        nlp, "The study shows two benefits. *Accuracy:* experiments on four benchmarks show consistent gains."))
    assert ("Metric", "accuracy", "vocabulary") in mentions(nlp, "The model reaches an accuracy of 95% on the test set.")


@pytest.mark.parametrize("text, term", [
    ("We use semi-nonnegative matrix factorisation.", "semi-nonnegative matrix factorisation"),
    ("We train with mini-batch stochastic gradient descent.", "mini-batch stochastic gradient descent"),
])
def test_a_known_term_with_specific_modifiers_is_a_more_specific_term(nlp, text, term):
    assert ("Method", term, "term-phrase") in mentions(nlp, text)


@pytest.mark.parametrize("text, term", [
    ("There are challenges in large-scale reinforcement learning problems.", "reinforcement learning"),
    ("We fine-tune a pretrained transformer.", "transformer"),
])
def test_generic_modifiers_and_partial_words_are_not_taken_in(nlp, text, term):
    assert ("Method", term, "vocabulary") in mentions(nlp, text)


def test_a_bracket_glued_to_the_next_word_is_split(nlp):
    assert [t.text for t in nlp.make_doc("Masking (SRM),which")] == ["Masking", "(", "SRM", ")", ",", "which"]


@pytest.mark.parametrize("text, name", [
    ("We propose a novel augmentation method, namely Spectrum Random Masking (SRM),which helps agents.", "SRM"),
    ("We propose a robust training framework, named Worst-case-aware Robust RL (WocaR-RL) that estimates rewards.",
     "WocaR-RL"),
    ("Here we propose an approach to sample target densities: Stochastic Normalizing Flows (SNF), a sequence of maps.",
     "SNF"),
])
def test_the_paper_name_is_the_short_form_of_what_it_proposes(nlp, text, name):
    assert extract_doc(nlp(text)).name == name


def test_a_bracketed_name_after_a_proposed_phrase_is_its_short_name(nlp):
    doc = nlp("In this paper, we propose Reducing Item Discrepancy (RidCDR) model on solving cross domain recommendation.")
    assert extract_doc(doc).name == "RidCDR"


@pytest.mark.parametrize("title, abstract_name, label", [
    ("GrASP: Gradient-Based Affordance Selection for Planning", None, "GrASP"),
    ("GrASP: Gradient-Based Affordance Selection for Planning", "GASP", "GrASP"),
    ("Temporal FiLM: Capturing Long-Range Sequence Dependencies", "TFiLM", "TFiLM"),
    ("Temporal FiLM: Capturing Long-Range Sequence Dependencies", None, "Temporal FiLM"),
])
def test_the_label_prefers_the_titles_name_unless_the_abstract_defines_one_word(title, abstract_name, label):
    from kg.extract.types import PaperExtraction
    from kg.ingest.corpus import Paper
    from kg.ingest.record import Record, SourceRef
    from kg.rdf.papers import short_title

    paper = Paper("https://w3id.org/paperkg/id/paper/0", "An abstract.",
                  [Record("An abstract.", SourceRef("a.jsonl", 0, 1), title=title)])
    assert short_title(paper, PaperExtraction(sentences=[(0, 12)], name=abstract_name)) == label


@pytest.mark.parametrize("text", ["The gain is 6 dB in PSNR in a real-world setting.",
                                  "This makes them impractical for real-time and resource-constrained scenarios."])
def test_a_quality_before_setting_is_no_task(nlp, text):
    assert not any(typ == "Task" for typ, _t, _r in mentions(nlp, text))


def test_a_phrase_never_starts_inside_a_hyphenated_word(nlp):
    found = mentions(nlp, "These representations enable zero-shot generalization and transfer.")
    assert ("Task", "zero-shot generalization", "phrase") in found
    assert not any(t.startswith("shot") for _typ, t, _r in found)


def test_a_unit_after_a_number_is_no_name(nlp):
    found = mentions(nlp, "It yields an increase of around 6 dB in PSNR and needs 40 GB of memory.")
    assert not any(t in {"dB", "GB"} for _typ, t, _r in found)


@pytest.mark.parametrize("text, tasks", [
    ("We evaluate the framework on interpolation and classification tasks using several datasets.",
     {"interpolation", "classification"}),
    ("It outperforms the state of the art on multi-step forecasting benchmarks.", {"multi-step forecasting"}),
])
def test_words_framed_by_tasks_or_benchmarks_are_tasks(nlp, text, tasks):
    assert tasks <= {t for typ, t, _r in mentions(nlp, text) if typ == "Task"}


def test_a_framed_known_task_keeps_its_concept(nlp):
    doc = nlp("We evaluate on image classification tasks.")
    task = [m for m in extract_doc(doc).mentions if m.type == "Task"]
    assert [(m.text, m.rule) for m in task] == [("image classification", "task-frame")] and task[0].concept


def test_coordinated_phrases_with_nouns_of_their_own_are_split(nlp):
    found = mentions(nlp, "The networks perform path exploration and path smoothing.")
    assert ("Task", "path exploration", "phrase") in found
    assert not any("and" in t.split() for _typ, t, _r in found)


def test_an_appositive_or_a_suffix_says_what_a_proposed_name_is(nlp):
    doc = nlp("We present the RoboNav Suite. It includes RoboNav-Data, a human-verified dataset with 200k episodes, "
              "while RoboNav-VLA provides a policy trained on it.")
    types = {m.text: m.type for m in extract_doc(doc).mentions if m.text.startswith("RoboNav-")}
    assert types == {"RoboNav-Data": "Dataset", "RoboNav-VLA": "Method"}


def test_a_metric_is_not_cut_off_a_hyphenated_word(nlp):
    found = mentions(nlp, "Patches are compared with normal patches extracted from the training time-series.")
    assert not any(typ == "Metric" for typ, _t, _r in found)
    assert ("Metric", "training time", "vocabulary") in mentions(nlp, "It halves the training time of the model.")


def test_a_short_form_written_before_its_long_form_is_defined(nlp):
    doc = nlp("We introduce PATE (Private Aggregation of Teacher Ensembles), a framework for private learning.")
    assert [(a.short.text, a.long.text) for a in doc._.abbreviations] == [
        ("PATE", "Private Aggregation of Teacher Ensembles")]
    doc = nlp("This follows BERT (Devlin et al. 2019) and GPT (see the appendix for details).")
    assert not doc._.abbreviations


def test_a_long_form_saying_how_is_a_method_and_its_words_are_no_entities(nlp):
    found = mentions(nlp, "We present ReCal (Retrieval Alignment via Score Calibration) for question answering.")
    assert ("Method", "Retrieval Alignment via Score Calibration") in {(typ, t) for typ, t, _ in found}
    assert not any(t == "Calibration" or t == "Retrieval Alignment" for _typ, t, _ in found)


def test_sampling_and_search_phrases_are_no_tasks(nlp):
    found = mentions(nlp, "We tune the weights with a hyperparameter search and estimate gradients by Monte-Carlo "
                          "sampling; our model searches run in parallel.")
    assert not {t for typ, t, _ in found if typ == "Task"}, found


def test_a_quality_word_does_not_make_a_task(nlp):
    found = mentions(nlp, "The learned prior allows quick adaptations and easy evaluation of new policies.")
    assert not {t for typ, t, _ in found if typ == "Task"}, found


def test_a_part_of_a_model_or_a_bare_adjective_is_no_method(nlp):
    found = mentions(nlp, "Our approach employs a bottleneck architecture trained with hierarchical Bayesian methods.")
    texts = {t for typ, t, _ in found if typ == "Method"}
    assert "bottleneck architecture" not in texts
    assert "hierarchical Bayesian" not in texts and "Bayesian" not in texts


def test_a_title_case_name_ending_in_an_activity_is_a_task(nlp):
    found = mentions(nlp, "Recurrent networks excel at Natural Language Processing and Wheeled Robot Navigating.")
    assert ("Task", "Wheeled Robot Navigating") in {(typ, t) for typ, t, _ in found}
    assert not any(typ == "Method" and t == "Wheeled Robot Navigating" for typ, t, _ in found)
    other = mentions(nlp, "We compare with Stochastic Gradient Boosting on ten tables.")
    assert not any(typ == "Task" and "Boosting" in t for typ, t, _ in other)  # a technique word is no activity


def test_constrained_reinforcement_learning_is_a_setting(nlp):
    found = mentions(nlp, "We study Constrained RL for robots with safety limits.")
    assert ("Task", "Constrained RL") in {(typ, t) for typ, t, _ in found}


def test_a_term_named_in_a_sentence_about_prior_work_is_not_proposed(nlp):
    ex = extract_doc(nlp("Flux-Net was recently introduced to model heat fields (termed Thermal Panorama). "
                         "This paper presents FLUX-NET V2, a framework for long-range heat field synthesis."))
    assert ex.name == "FLUX-NET V2"
    proposed = {m.text for m in ex.mentions if m.proposed}
    assert "Thermal Panorama" not in proposed and "Flux-Net" not in proposed
    assert any(m.text == "Flux-Net" and m.type == "Method" and not m.proposed for m in ex.mentions)


def test_the_name_after_called_is_what_is_proposed(nlp):
    ex = extract_doc(nlp("To evaluate synthesis, we construct a new Cardiac Panorama benchmark, called Panobench, "
                         "comprising 4470 recordings."))
    assert {m.text for m in ex.mentions if m.proposed} == {"Panobench"}


def test_a_metric_written_with_at_is_kept_and_a_gain_word_is_not_part_of_it(nlp):
    found = mentions(nlp, "Our agent achieves relative pass@1 improvements of 35% on code benchmarks.")
    assert ("Metric", "pass@1") in {(typ, t) for typ, t, _ in found}


def test_fairness_and_solver_cost_metrics_are_known(nlp):
    found = mentions(nlp, "We report statistical parity, equal opportunity and the number of function evaluations.")
    assert {("Metric", "statistical parity"), ("Metric", "equal opportunity"),
            ("Metric", "number of function evaluations")} <= {(typ, t) for typ, t, _ in found}


def test_an_acronym_task_takes_its_specific_modifier(nlp):
    found = mentions(nlp, "The model is evaluated on chart QA with a new reader.")
    assert ("Task", "chart QA") in {(typ, t) for typ, t, _ in found}
    assert ("Task", "QA") not in {(typ, t) for typ, t, _ in found}


def test_coordinated_qualities_do_not_make_a_task(nlp):
    found = mentions(nlp, "Operating on logits provides interpretable and efficient control of the decoder.")
    assert not any(typ == "Task" and "control" in t for typ, t, _ in found), found
    assert ("Task", "motion planning") in {(typ, t) for typ, t, _ in mentions(
        nlp, "We address motion planning for drones.")} or any(
        typ == "Task" and t == "motion planning" for typ, t, _ in mentions(nlp, "We address motion planning tasks."))


def test_an_acronym_ending_a_hyphenated_name_is_part_of_it(nlp):
    found = mentions(nlp, "We evaluate the detector on the TSB-AD benchmark and on two other suites.")
    assert not any(t == "AD" for _typ, t, _ in found), found


def test_the_base_model_is_no_method(nlp):
    found = mentions(nlp, "The adapter compresses the hidden states of the base model into calibration vectors.")
    assert not any(typ == "Method" and t == "base model" for typ, t, _ in found), found


def test_a_coined_short_form_names_a_method_and_its_long_forms_words_are_no_entities(nlp):
    found = mentions(nlp, "We propose ReLiT (Residual learning for Image Tagging), a simple approach.")
    assert ("Method", "Residual learning for Image Tagging") in {(typ, t) for typ, t, _ in found}
    assert not any(typ == "Task" and t == "Image Tagging" for typ, t, _ in found)


def test_a_method_named_about_a_field_in_passing_is_dropped(nlp):
    found = mentions(nlp, "Echoing LLM scaling laws, we show that road networks partition better with size.")
    assert not any(typ == "Method" and t == "LLM" for typ, t, _ in found), found
    found = mentions(nlp, "We fine-tune an LLM on road networks.")
    assert any(typ == "Method" and t == "LLM" for typ, t, _ in found), found


def test_a_quality_before_a_kind_word_is_no_method(nlp):
    found = mentions(nlp, "We introduce ReCal, a parameter-efficient framework that calibrates logits.")
    assert not any(typ == "Method" and "framework" in t for typ, t, _ in found), found


def test_a_known_technique_done_to_a_thing_is_a_task(nlp):
    found = mentions(nlp, "We apply channel pruning to reduce the cost of convolutional networks.")
    assert ("Task", "channel pruning", "term-phrase") in found
    assert not any(typ == "Method" and "pruning" in t for typ, t, _ in found)


@pytest.mark.parametrize("text, task", [
    ("We present a novel keyphrase extraction algorithm for scientific articles.", "keyphrase extraction"),
    ("We propose a graph-based fraud detection method that scales to millions of accounts.", "fraud detection"),
    ("Ours is a lightweight citation recommendation framework.", "citation recommendation"),
])
def test_a_method_named_after_its_task_gives_the_task(nlp, text, task):
    found = mentions(nlp, text)
    assert ("Task", task) in {(typ, t) for typ, t, _ in found}, found
    assert not any(typ == "Method" and task in t for typ, t, _ in found), found


def test_a_method_named_after_a_technique_stays_a_method(nlp):
    found = mentions(nlp, "We use a contrastive learning method to pretrain the encoder.")
    assert not any(typ == "Task" and "contrastive" in t for typ, t, _ in found), found


def test_a_defined_short_form_the_parser_takes_for_a_conjunction_starts_a_task(nlp):
    text = ("We study optical rotation (OR) and melting point (MP) of molecules. "
            "Tasks include solubility classification, MP regression and OR prediction.")
    found = mentions(nlp, text)
    assert ("Task", "OR prediction", "phrase") in found, found
    assert ("Task", "solubility classification") in {(typ, t) for typ, t, _ in found}, found


def test_a_one_word_task_that_a_longer_task_ends_with_is_that_task():
    from kg.extract.terms import specific_tasks
    from kg.extract.types import Mention

    longer = Mention(0, 20, "Task", "sequential selection", "phrase")
    again = Mention(40, 49, "Task", "selection", "task-frame")
    other = Mention(60, 74, "Task", "classification", "task-frame")
    defined = Mention(80, 82, "Task", "QA", "abbreviation", long_form="question answering", short_form="QA")
    embodied = Mention(90, 102, "Task", "embodied QAs", "phrase")
    assert specific_tasks([longer, again, other, defined, embodied]) == [longer, other, defined, embodied]


def test_a_general_task_named_again_specifically_is_one_task(nlp):
    found = mentions(nlp, "We study sequential selection problems. Fairness notions made for classification "
                          "do not transfer to a selection problem.")
    tasks = {t for typ, t, _ in found if typ == "Task"}
    assert "sequential selection" in tasks and "selection" not in tasks, found


def test_latex_tie_before_a_bracket_is_a_space_for_abbreviations(nlp):
    found = mentions(nlp, "We present the Adaptive Spectral Mixer~(ASM), a drop-in layer for vision transformers.")
    texts = {t for _typ, t, _ in found}
    assert "Adaptive Spectral Mixer" in texts and "ASM" in texts, found
    assert not any("~" in t for t in texts), found


@pytest.mark.parametrize("text, word", [
    ("ASM-based encoders outperform prior work on segmentation.", "ASM-based"),
    ("The agent gains 7 points over LM-only baselines.", "LM-only"),
])
def test_a_name_with_a_manner_suffix_is_no_name(nlp, text, word):
    found = mentions(nlp, text)
    assert not any(t == word for _typ, t, _ in found), found


@pytest.mark.parametrize("text, absent", [
    ("Pruning these heads enables greater control over the output.", "greater control"),
    ("The student reaches comparable accuracy at half the cost.", "comparable accuracy"),
    ("The student reaches higher accuracy at half the cost.", "higher accuracy"),
])
def test_a_comparative_is_no_part_of_a_task_or_metric(nlp, text, absent):
    assert not any(t == absent for _typ, t, _ in mentions(nlp, text))


def test_a_hyphenated_comparative_compound_stays(nlp):
    found = mentions(nlp, "We address higher-order motif detection in hypergraphs.")
    assert any(typ == "Task" and t.startswith("higher-order") for typ, t, _ in found), found


def test_names_listed_in_brackets_after_benchmarks_are_datasets(nlp):
    found = mentions(nlp, "Our model is strong on standard benchmarks (QuorBench, ZetaQA, etc.) and beyond.")
    assert ("Dataset", "QuorBench") in {(typ, t) for typ, t, _ in found}, found
    assert ("Dataset", "ZetaQA") in {(typ, t) for typ, t, _ in found}, found


def test_a_hyphenated_title_case_name_is_no_task(nlp):
    found = mentions(nlp, "Taking Atlas-Discovery as an example, the agent improves by 4 points.")
    assert not any(typ == "Task" for typ, _t, _ in found), found


@pytest.mark.parametrize("text", [
    "The network approximates any smooth function to arbitrary precision.",
    "Weights are stored at 4-bit precision without loss.",
])
def test_numerical_precision_is_no_metric(nlp, text):
    assert not any(typ == "Metric" for typ, _t, _ in mentions(nlp, text))


def test_precision_the_metric_stays(nlp):
    found = mentions(nlp, "The detector improves precision and mean average precision on both splits.")
    assert ("Metric", "precision") in {(typ, t) for typ, t, _ in found}, found


def test_a_technique_inside_a_longer_known_method_is_no_task(nlp):
    found = mentions(nlp, "We benchmark kernel ridge regression on tabular data.")
    assert ("Method", "kernel ridge regression") in {(typ, t) for typ, t, _ in found}, found
    assert not any(typ == "Task" and t == "ridge regression" for typ, t, _ in found), found


@pytest.mark.parametrize("text", [
    "We explain individual predictions of black-box models with Shapley values.",
    "Our decoder improves volumetric scene reconstructions over the baseline.",
])
def test_plural_outputs_are_no_task(nlp, text):
    assert not any(typ == "Task" for typ, _t, _ in mentions(nlp, text))


def test_a_speed_up_factor_is_no_part_of_a_task(nlp):
    found = mentions(nlp, "Experiments on the ABC dataset show that FooNet achieves superior semantic fidelity, "
                          "4.67$\\times$ faster inference, and more deterministic results than the baselines.")
    assert not any(typ == "Task" and t[0].isdigit() for typ, t, _ in found), found


def test_qualities_before_settings_are_no_task_even_with_commas(nlp):
    found = mentions(nlp, "Large models do well in data-rich, population-level settings but not in small cohorts.")
    assert not any(typ == "Task" for typ, _t, _ in found), found


@pytest.mark.parametrize("text, names", [
    ("Our detector wins across the Alpha, the Beta, and the GAMMA-2 datasets.", {"GAMMA-2"}),
    ("On QuickSim-Table, ZetaNav suites and Omni-Grid, it sets a new record.", {"QuickSim-Table"}),
])
def test_names_listed_before_a_dataset_noun_are_datasets(nlp, text, names):
    found = {(typ, t) for typ, t, _ in mentions(nlp, text)}
    assert all(("Dataset", n) in found for n in names), found


@pytest.mark.parametrize("text, suffix", [
    ("Training is stochastic gradient-descent-based and converges fast.", "-based"),
    ("We find face-patch-selective (FP-selective) units in the encoder.", "-selective"),
])
def test_a_hyphenated_adjective_is_no_method(nlp, text, suffix):
    found = mentions(nlp, text)
    assert not any(t.endswith(suffix) for _typ, t, _ in found), found
