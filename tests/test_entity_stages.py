"""The entity stages: vocabularies as span_ruler patterns built from ontology/, saved with the pipeline;
one type per vocabulary form; rule priorities as the resolution stage's configuration."""
from __future__ import annotations

import json

import pytest

from spacy.pipeline import SpanRuler

from kg.extract.vocab import (METRIC_PLURAL, RULERS, VOCABULARY_SPANS, Term, load_vocabulary, mention_forms,
                              result_metric_forms, vocabulary_patterns)


def test_rulers_head_the_pipeline_and_hold_every_form(nlp):
    names = [name for name, _ in RULERS]
    assert nlp.pipe_names[: len(names)] == names
    patterns = vocabulary_patterns(load_vocabulary())
    for name, attr in RULERS:
        ruler = nlp.get_pipe(name)
        assert isinstance(ruler, SpanRuler)
        assert ruler.key == VOCABULARY_SPANS
        assert ruler.patterns == patterns[attr]
    vocabulary = load_vocabulary()
    assert sum(len(p) for p in patterns.values()) >= len(vocabulary.terms)


def test_ruler_patterns_are_saved_and_restored(nlp, tmp_path):
    ruler = nlp.get_pipe("paperkg_vocabulary_folded")
    ruler.to_disk(tmp_path / "ruler")
    lines = (tmp_path / "ruler" / "patterns").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == ruler.patterns
    restored = SpanRuler(nlp, name="restored", spans_key="restored", phrase_matcher_attr="LOWER").from_disk(
        tmp_path / "ruler")
    assert restored.patterns == ruler.patterns


def test_case_and_plural_forms(nlp):
    doc = nlp("We report MAP and top-1 accuracies of graph neural networks on ImageNet; the map is ours.")
    found = {(s.text, s.label_) for s in doc.spans[VOCABULARY_SPANS]}
    assert ("ImageNet", "Dataset") in found
    assert ("graph neural networks", "Method") in found
    assert ("accuracies", METRIC_PLURAL) in found  # a result's metric, never an entity mention
    assert not any(s.text == "map" for s in doc.spans[VOCABULARY_SPANS])  # acronyms match case exactly
    mentions = {(m.text, m.type) for m in doc._.mentions}
    assert ("accuracies", "Metric") not in mentions


@pytest.mark.parametrize("text, form, found", [
    ("The field has grown since its inception in 2014.", "inception", False),  # the word, not the network
    ("We fine-tune an Inception network on the scans.", "Inception", True),  # the proper name, as spelt
    ("We use a transformer and Transformers alike.", "Transformers", True),  # a lower-case name folds case
    ("We study semi-supervised node classification.", "semi-supervised", False),  # an adjective names no method
])
def test_a_capitalised_one_word_name_matches_as_spelt_and_an_adjective_not_at_all(nlp, text, form, found):
    doc = nlp(text)
    assert any(s.text == form and s.label_ == "Method" for s in doc.spans[VOCABULARY_SPANS]) is found


def test_forms_of_a_term():
    metric = Term("accuracy", "Metric", "iri", "accuracy")
    assert mention_forms(metric) == {"accuracy"}
    assert result_metric_forms(metric) == {"accuracy", "accuracys", "accuracies"}
    assert mention_forms(Term("FID", "Metric", "iri", "FID")) == {"FID", "FIDs"}
    assert mention_forms(Term("transformer", "Method", "iri", "transformer")) == {"transformer", "transformers"}
    assert mention_forms(Term("pixels", "Modality", "iri", "image", cue=True)) == {"pixels"}
    assert result_metric_forms(Term("transformer", "Method", "iri", "transformer")) == set()


def _mention(start, end, type_, text="ASR"):
    from kg.extract.types import Mention

    return Mention(start=start, end=end, type=type_, text=text, rule="vocabulary", concept=f"iri/{type_}")


class _Scores:
    def __init__(self, probs):
        self.probs = probs

    def prob(self, start, end, label):
        return self.probs.get(label)


def test_one_type_per_form_follows_the_definition_then_the_tagger():
    from kg.extract.resolution import one_type_per_form

    both = [_mention(0, 3, "Task"), _mention(0, 3, "Metric"), _mention(5, 8, "Method", "GAN")]
    by_definition = one_type_per_form(both, {"ASR": "Task"}, _Scores({"Metric": 0.9}))
    assert [(m.start, m.type) for m in by_definition] == [(0, "Task"), (5, "Method")]
    by_tagger = one_type_per_form(both, {}, _Scores({"Metric": 0.6, "Task": 0.1}))
    assert [(m.start, m.type) for m in by_tagger] == [(0, "Metric"), (5, "Method")]
    assert one_type_per_form(both, {}, None) == both  # nothing to decide by: both stay


def test_a_defined_acronym_names_its_own_concept(nlp):
    doc = nlp("Automatic speech recognition (ASR) systems are brittle. We make ASR robust to noise.")
    asr = {(m.type, m.concept) for m in doc._.mentions if m.text == "ASR" and m.type != "Modality"}
    assert asr == {("Task", "https://w3id.org/paperkg/id/task/speech-recognition")}


def test_rule_priorities_are_the_resolution_stages_configuration(nlp):
    from kg.extract.resolution import RULE_PRIORITY, resolve_overlaps
    from kg.extract.types import Mention

    known = Mention(start=10, end=20, type="Method", text="flow model", rule="vocabulary", concept="iri")
    phrase = Mention(start=4, end=20, type="Method", text="latent flow model", rule="phrase")
    assert resolve_overlaps([known, phrase]) == [known]  # vocabulary 5 over phrase 2
    assert resolve_overlaps([known, phrase], {"phrase": 9, "vocabulary": 1}) == [phrase]
    assert nlp.get_pipe("paperkg_resolution").priorities == RULE_PRIORITY
    assert nlp.pipe_names.index("paperkg_entities") + 1 == nlp.pipe_names.index("paperkg_resolution")


def test_a_model_task_is_never_a_coined_name(nlp):
    from kg.extract.resolution import with_model

    doc = nlp.make_doc("On Atlas-Discovery and PaAno we study QA and anomaly detection.")
    words = ("Atlas-Discovery", "PaAno", "QA", "anomaly detection")

    def spans(label):
        return [(doc.text.index(w), doc.text.index(w) + len(w), label, 0.9) for w in words]

    assert {m.text for m in with_model([], spans("Task"), doc, frozenset())} == {"QA", "anomaly detection"}
    assert {m.text for m in with_model([], spans("Method"), doc, frozenset())} == set(words)  # names are methods


def test_a_known_name_with_a_version_after_it_is_of_that_names_type(nlp):
    from kg.extract.resolution import family_type, family_types, with_model
    from kg.extract.vocab import load_vocabulary

    families = family_types(load_vocabulary())
    # written with a hyphen, a space or nothing before the version; a name the vocabulary lacks or a word in lower
    # case decides nothing
    assert [family_type(t, families) for t in ("GPT-5", "Llama 4", "ResNet-152", "Qwen2.5", "BLEU-4", "ImageNet-1k")] \
        == ["Method", "Method", "Method", "Method", "Metric", "Dataset"]
    assert [family_type(t, families) for t in ("FooNet-3", "GPT", "top-1", "F1", "FID 1.73", "gpt-5", "map 3")] \
        == [None] * 7
    doc = nlp.make_doc("It beats frontier models (67% win rate vs. GPT-5) on BLEU-4.")
    spans = [(doc.text.index(w), doc.text.index(w) + len(w), "Metric", 0.9) for w in ("GPT-5", "BLEU-4")]
    assert sorted((m.text, m.type) for m in with_model([], spans, doc, frozenset(), families=families)) == [
        ("BLEU-4", "Metric"), ("GPT-5", "Method")]
    assert {m.type for m in with_model([], spans, doc, frozenset())} == {"Metric"}  # without the families


def test_a_dataset_is_a_cue_of_its_data_modality(nlp):
    doc = nlp("We pretrain on WikiText-103 and predict properties of the molecules in QM9.")
    found = {(s.text, s.label_) for s in doc.spans[VOCABULARY_SPANS]}
    assert {("WikiText-103", "Dataset"), ("WikiText-103", "Modality"), ("QM9", "Dataset"), ("QM9", "Modality")} <= found
    cues = {(m.text, m.concept.rsplit("/", 1)[-1]) for m in doc._.mentions if m.rule == "modality-cue"}
    assert cues >= {("WikiText-103", "text"), ("QM9", "molecule")}
    doc = nlp("We model reaction kinetics of each replica.")  # a dataset's name is written as it is
    assert not [s for s in doc.spans[VOCABULARY_SPANS] if s.label_ in {"Dataset", "Modality"}]
    terms = [t for t in load_vocabulary().terms if t.cue and t.form == "ImageNet-1k"]
    assert [(t.type, t.label) for t in terms] == [("Modality", "image")]  # an alternative label cues too, once


def test_a_data_modality_must_join_a_dataset_to_a_modality(tmp_path):
    import pytest

    from kg.errors import OntologyError

    path = tmp_path / "bad.ttl"
    path.write_text("""@prefix kg: <https://w3id.org/paperkg/ontology#> .
@prefix dataset: <https://w3id.org/paperkg/id/dataset/> .
@prefix method: <https://w3id.org/paperkg/id/method/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
dataset:x a skos:Concept, kg:Dataset ; skos:prefLabel "X" ; kg:dataModality method:y .
method:y a skos:Concept, kg:Method ; skos:prefLabel "Y" .
""", encoding="utf-8")
    with pytest.raises(OntologyError, match=r"dataset/x kg:dataModality .*method/y.*ontology/vocab/"):
        load_vocabulary((path,))


def test_a_field_that_is_also_a_technique_takes_the_taggers_reading_once_per_paper(nlp):
    """as_read and with_model: "reinforcement learning" (kg:alsoReadAs kg:Task) is the Task where more of the
    tagger's spans on its vocabulary mentions read a Task than a Method: every mention of the concept and
    the abbreviation it defines, without the Method concept; a tie keeps the Method; a concept without a
    second reading keeps its type whatever the tagger says."""
    from kg.extract.resolution import as_read, with_model
    from kg.extract.types import Mention

    text = "Reinforcement learning (RL) is hard, so we study reinforcement learning and RL with a transformer."
    doc = nlp.make_doc(text)
    vocabulary = load_vocabulary()
    rl, transformer = (vocabulary.concepts[f"https://w3id.org/paperkg/id/method/{n}"] for n in
                       ("reinforcement-learning", "transformer"))
    assert rl.also_read_as == ("Task",) and transformer.also_read_as == ()
    readings = {c.iri: c.also_read_as for c in vocabulary.concepts.values() if c.also_read_as}

    def at(form, rule, n=0, concept=None, **forms):
        start = text.lower().index(form.lower(), text.lower().index(form.lower()) + 1 if n else 0)
        return Mention(start, start + len(form), "Method", text[start:start + len(form)], rule, concept, **forms)

    pair = {"long_form": "Reinforcement learning", "short_form": "RL"}
    found = [at("reinforcement learning", "vocabulary", 0, rl.iri),
             at("RL", "abbreviation", 0, None, **pair),
             at("reinforcement learning", "vocabulary", 1, rl.iri),
             at("transformer", "vocabulary", 0, transformer.iri)]
    spans = [(m.start, m.end, "Task", 0.9) for m in (found[0], found[2], found[3])]
    got = sorted((m.text, m.type, m.concept) for m in with_model(found, spans, doc, frozenset(), readings=readings)
                 if m.rule != "model")
    assert got == [("RL", "Task", None), ("Reinforcement learning", "Task", None),
                   ("reinforcement learning", "Task", None), ("transformer", "Method", transformer.iri)]
    # the definition's long form is the vocabulary term: the tagger's Method on the short forms reads nothing
    defined = found + [at("Reinforcement learning", "abbreviation", 0, None, **pair),
                       at("RL", "abbreviation-use", 1, None, **pair)]
    spans += [(m.start, m.end, "Method", 0.9) for m in defined if m.text == "RL"]
    got = {(m.text, m.rule, m.type) for m in with_model(defined, spans, doc, frozenset(), readings=readings)
           if m.rule != "model" and m.text != "transformer"}
    assert {t for _, _, t in got} == {"Task"} and len(got) == 5
    tie = spans[:1] + [(found[2].start, found[2].end, "Method", 0.9)]
    assert as_read(found, tie, readings) == found
    assert as_read(found, [(found[0].start, found[0].end, "Metric", 0.9)], readings) == found  # not allowed
    assert as_read(found, [], readings) == found


def test_an_abbreviation_typed_by_its_words_takes_the_taggers_reading(nlp):
    """abbreviations_as_read: "distributionally robust optimization (DRO)", a Task by its head word, is the
    Method the tagger reads on its definition and use; a tie keeps the rule's type; an abbreviation whose
    long form is a vocabulary term keeps the vocabulary's."""
    from kg.extract.resolution import abbreviations_as_read
    from kg.extract.types import Mention

    text = "We use distributionally robust optimization (DRO). DRO is robust. Transfer learning (TL) helps."
    long_form, short = "distributionally robust optimization", "DRO"

    def at(form, rule, n=0, type_name="Task", concept=None, long=long_form, sf=short):
        start = text.index(form, text.index(form) + 1 if n else 0)
        return Mention(start, start + len(form), type_name, form, rule, concept, long_form=long, short_form=sf)

    found = [at(long_form, "abbreviation"), at(short, "abbreviation"), at(short, "abbreviation-use", 1)]
    method = [(m.start, m.end, "Method", 0.9) for m in found]
    assert [m.type for m in abbreviations_as_read(found, method)] == ["Method"] * 3
    assert abbreviations_as_read(found, method[:1] + [(found[1].start, found[1].end, "Task", 0.9)]) == found
    tl = Mention(text.index("Transfer"), text.index("Transfer") + 17, "Method", "Transfer learning", "vocabulary",
                 "https://w3id.org/paperkg/id/method/transfer-learning")
    termed = [tl, at("Transfer learning", "abbreviation", 0, "Method", None, "Transfer learning", "TL"),
              at("TL", "abbreviation", 0, "Method", None, "Transfer learning", "TL")]
    assert abbreviations_as_read(termed, [(m.start, m.end, "Task", 0.9) for m in termed]) == termed


def test_also_read_as_must_name_another_entity_class(tmp_path):
    from kg.errors import OntologyError

    path = tmp_path / "bad.ttl"
    path.write_text("""@prefix kg: <https://w3id.org/paperkg/ontology#> .
@prefix method: <https://w3id.org/paperkg/id/method/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
method:y a skos:Concept, kg:Method ; skos:prefLabel "Y" ; kg:alsoReadAs kg:Method .
""", encoding="utf-8")
    with pytest.raises(OntologyError, match=r"method/y kg:alsoReadAs \S+ontology#Method: .*ontology/vocab/"):
        load_vocabulary((path,))
    dataset = path.read_text().replace("skos:Concept, kg:Method", "skos:Concept, kg:Dataset")
    path.write_text(dataset.replace("kg:alsoReadAs kg:Method", "kg:alsoReadAs kg:Task"), encoding="utf-8")
    with pytest.raises(OntologyError, match=r"method/y kg:alsoReadAs .*nothing for a Dataset"):
        load_vocabulary((path,))


def test_a_form_of_a_concept_of_two_readings_names_no_concept_of_the_other_type():
    """A concept whose forms may be read as another type (kg:alsoReadAs) shares no form with a concept of that
    type: read that way, a mention links to no concept, not to another one ("ASR" is speech recognition and
    attack success rate)."""
    from kg.keys import norm_key

    concepts = load_vocabulary().concepts.values()
    typed = {(norm_key(f), c.type) for c in concepts for f in (c.label, *c.alt_labels)}
    clashes = [(c.iri, f) for c in concepts for f in (c.label, *c.alt_labels)
               for t in c.also_read_as if (norm_key(f), t) in typed]
    assert [c for c in concepts if c.also_read_as] and not clashes


def test_a_name_written_as_a_dataset_is_one_wherever_it_stands(nlp):
    from kg.extract import terms as T
    from kg.extract.resolution import named_datasets

    def typed(text: str, forms: dict[str, str], **extra) -> dict[str, set[str]]:
        doc = nlp(text)
        mentions = []
        for form, rule in forms.items():
            for start in T.written_at(text, form):
                mentions.append(T.mention(doc.char_span(start, start + len(form)), "Method", rule, **extra.get(form, {})))
        out: dict[str, set[str]] = {}
        for m in named_datasets(doc, mentions):
            out.setdefault(m.text, set()).add(m.type)
        return out

    assert typed("We introduce 3DOS: a novel testbed for novelty detection. 3DOS is hard.",
                 {"3DOS": "model"}) == {"3DOS": {"Dataset"}}
    pair = {"long_form": "BringBackShapes", "short_form": "BBS"}
    assert typed("We test VSG in the BringBackShapes (BBS) environment. On BBS, VSG wins.",
                 {"BringBackShapes": "abbreviation", "BBS": "abbreviation-use", "VSG": "model"},
                 BringBackShapes=pair, BBS=pair) == {"BringBackShapes": {"Dataset"}, "BBS": {"Dataset"},
                                                     "VSG": {"Method"}}
    # a field's acronym before a dataset noun, a verb that looks like one, a dataset noun as a modifier, and a
    # noun that also names software or a set of models without "the" before or with "of" after name no dataset
    assert typed("SSL benchmarks are solved by FixMatch, which sets records.",
                 {"SSL": "model", "FixMatch": "name"}) == {"SSL": {"Method"}, "FixMatch": {"Method"}}
    assert typed("Prior work found that FlexNet challenges the view that depth matters.",
                 {"FlexNet": "model"}) == {"FlexNet": {"Method"}}
    assert typed("We compare against CodeForge, the benchmark leader, on HumanEval.",
                 {"CodeForge": "model"}) == {"CodeForge": {"Method"}}
    assert typed("We run PyFlow in a PyFlow environment and release the SwinLite collection of checkpoints.",
                 {"PyFlow": "model", "SwinLite": "model"}) == {"PyFlow": {"Method"}, "SwinLite": {"Method"}}
    # a name listed as an example of a dataset noun (a Hearst pattern), but not after a comma, where the examples
    # may be of an earlier noun, nor of another noun
    assert typed("It is robust on temporal benchmarks such as TIDIGITS and SHD, unlike SNN baselines.",
                 {"TIDIGITS": "model", "SHD": "model"}) == {"TIDIGITS": {"Dataset"}, "SHD": {"Dataset"}}
    assert typed("We use datasets including QM9 and ZINC, and environments like MetaWorld.",
                 {"QM9": "model", "ZINC": "model", "MetaWorld": "name"}) == {
        "QM9": {"Dataset"}, "ZINC": {"Dataset"}, "MetaWorld": {"Dataset"}}
    assert typed("Transformers pre-trained on text corpora, such as mBERT and XLMR, transfer well.",
                 {"mBERT": "model", "XLMR": "model"}) == {"mBERT": {"Method"}, "XLMR": {"Method"}}
    assert typed("Baselines such as FooNet and BarNet fail on ImageNet.",
                 {"FooNet": "model", "BarNet": "model"}) == {"FooNet": {"Method"}, "BarNet": {"Method"}}
    # a name the tagger read with its lower-case dataset noun is the dataset that noun heads, and so are the
    # names listed before it; a capitalised noun is part of a name, which may be anything
    assert typed("On AlphaSim-Easy, Gamma, BetaSim-3 suites and DeltaSim, it wins. BetaSim-3 is hard.",
                 {"AlphaSim-Easy": "model", "Gamma": "model", "BetaSim-3 suites": "model", "BetaSim-3": "model",
                  "DeltaSim": "model"}) == {
        "AlphaSim-Easy": {"Dataset"}, "Gamma": {"Dataset"}, "BetaSim-3": {"Dataset"}, "DeltaSim": {"Method"}}
    assert typed("We present Repository to Environment, a framework for coding agents.",
                 {"Repository to Environment": "title-case"}) == {"Repository to Environment": {"Method"}}
    # not a field's acronym, a possessive, a weak noun in the singular without "the", a word that names
    # nothing, nor one name before a comma
    assert typed("SSL benchmarks are solved by FooBench's datasets in a PyFlow environment.",
                 {"SSL benchmarks": "model", "FooBench's datasets": "model", "PyFlow environment": "model"}) == {
        "SSL benchmarks": {"Method"}, "FooBench's datasets": {"Method"}, "PyFlow environment": {"Method"}}
    assert typed("We compare transformers, FooNet, BarSim-3 suites. Unlike FooNet, BazSim-2 suites are hard.",
                 {"transformers": "model", "FooNet": "model", "BarSim-3 suites": "model",
                  "BazSim-2 suites": "model"}) == {"transformers": {"Method"}, "FooNet": {"Method"},
                                                   "BarSim-3": {"Dataset"}, "BazSim-2": {"Dataset"}}
    assert typed("We run the MAGICAL suite and MuJoCo environments.",
                 {"MAGICAL suite": "model", "MuJoCo environments": "model"}) == {
        "MAGICAL": {"Dataset"}, "MuJoCo": {"Dataset"}}
    # a vocabulary concept keeps its type
    assert typed("We evaluate ResNet, a benchmark of vision models.", {"ResNet": "model"},
                 ResNet={"concept": "https://w3id.org/paperkg/id/method/resnet"}) == {"ResNet": {"Method"}}


def test_the_pipeline_types_a_proposed_testbed_as_a_dataset(nlp):
    doc = nlp("We introduce 3DOS: a novel testbed for semantic novelty detection on point clouds.")
    assert {(m.text, m.type) for m in doc._.mentions if m.text == "3DOS"} == {("3DOS", "Dataset")}


def test_a_title_case_name_ending_in_a_dataset_noun_is_never_vetoed(nlp):
    from kg.extract.resolution import named_dataset_phrase

    # the tagger scores the whole form low (it reads "DMControl Generalization" as a task)
    doc = nlp("Extensive experiments conducted on DMControl Generalization Benchmark demonstrate that SRM works.")
    assert ("DMControl Generalization Benchmark", "Dataset") in {(m.text, m.type) for m in doc._.mentions}
    # a coined name's word and a last word that says dataset alone
    assert named_dataset_phrase("DMControl Generalization Benchmark") and named_dataset_phrase("RoboNet Corpus")
    assert not named_dataset_phrase("Integrated Development Environment")
    assert not named_dataset_phrase("Generalization Benchmark")
    assert not named_dataset_phrase("DMControl Test Suite")
