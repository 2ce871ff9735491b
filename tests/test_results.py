"""Quantitative results: number patterns, metric binding and the kg:Result nodes of a built graph."""
from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF, RDFS, XSD

from kg.extract.results import find_quantities
from kg.namespaces import KG

DATA = Path(__file__).parent / "data" / "relations"
ONTOLOGY = Path(__file__).parent.parent / "ontology"


def claims(nlp, text: str) -> list[tuple]:
    doc = nlp(text)
    return [(c.metric, c.value, c.numeric, c.unit, c.dataset) for c in doc._.results]


@pytest.mark.parametrize("text, expected", [
    # metric "of" number, on a dataset
    ("GraphMixer achieves an F1 score of up to 0.912 on the MoleculeNet benchmark.",
     [("F1 score", "0.912", 0.912, "absolute", "MoleculeNet")]),
    # coordinated numbers share the metric and the dataset
    ("Our sampler reaches FIDs of 2.04 @256 resolution and 3.11 @512 on ImageNet.",
     [("FIDs", "2.04", 2.04, "absolute", "ImageNet"), ("FIDs", "3.11", 3.11, "absolute", "ImageNet")]),
    # "improves <metric> by <number>"
    ("The proposed regularizer improves accuracy by 4.2% on CIFAR-100.",
     [("accuracy", "4.2%", 4.2, "percent", "CIFAR-100")]),
    # number before the metric, with its modifier; "8 layers" is a count
    ("We obtain 63% average accuracy on CIFAR-10 with only 8 layers.",
     [("average accuracy", "63%", 63.0, "percent", "CIFAR-10")]),
    # fold and x ratios of speed
    ("The solver gives a 250-fold speed-up over interior-point methods and is 3x faster than the GPU baseline.",
     [("speed-up", "250-fold", 250.0, "ratio", None), ("speed-up", "3x", 3.0, "ratio", None)]),
    # a signed gain; the dataset of one claim is not taken by the next
    ("The detector yields 41.3 mAP on COCO and gains +1.5 BLEU when used for captioning.",
     [("mAP", "41.3", 41.3, "absolute", "COCO"), ("BLEU", "+1.5", 1.5, "absolute", None)]),
    # "respectively" pairs the numbers with the datasets in order
    ("Our regularizer improves accuracy by 3.1%, 2.4% and 1.2% on CIFAR-10, CIFAR-100 and ImageNet, respectively.",
     [("accuracy", "3.1%", 3.1, "percent", "CIFAR-10"), ("accuracy", "2.4%", 2.4, "percent", "CIFAR-100"),
      ("accuracy", "1.2%", 1.2, "percent", "ImageNet")]),
    # "<number> improvement in <metric>" and LaTeX percent
    ("Across four benchmarks, our tokenizer gives up to 9\\% improvement in Cohen's kappa over strong baselines.",
     [("Cohen's kappa", "9%", 9.0, "percent", None)]),
    # a physical unit
    ("The restored images gain about 2.5 dB in PSNR over the previous best model.",
     [("PSNR", "2.5 dB", 2.5, "dB", None)]),
    # the metric is "in terms of" the number before it
    ("Our system scores 31.4 in terms of BLEU on the WMT14 test set.",
     [("BLEU", "31.4", 31.4, "absolute", "WMT14")]),
    # the metric's abbreviation in brackets stands between it and the number
    ("The recognizer achieves a word error rate (WER) of 12.5% on LibriSpeech.",
     [("WER", "12.5%", 12.5, "percent", "LibriSpeech")]),
    # a change stated after a claim is a change of its metric
    ("Our model achieves 73.1% top-1 accuracy on ImageNet, which is a 2.5% improvement over BYOL.",
     [("top-1 accuracy", "73.1%", 73.1, "percent", "ImageNet"), ("top-1 accuracy", "2.5%", 2.5, "percent", "ImageNet")]),
    # ... and leaves "respectively" pairing the claims' numbers with their datasets
    ("Our model achieves 80.1% and 70.2% accuracy on CIFAR-10 and CIFAR-100 respectively, a 2.5% gain over ResNet.",
     [("accuracy", "80.1%", 80.1, "percent", "CIFAR-10"), ("accuracy", "70.2%", 70.2, "percent", "CIFAR-100"),
      ("accuracy", "2.5%", 2.5, "percent", "CIFAR-10")]),
    # a change claims the value reached, never the one left, for each "from ... to ..."
    ("Augmentation reduces classification error from 1.17% to 0.69% on MNIST and from 8.56% to 8.16% on SVHN.",
     [("classification error", "0.69%", 0.69, "percent", "MNIST"), ("classification error", "8.16%", 8.16, "percent", "SVHN")]),
    # the value a change reaches, past a filler word
    ("Fine-tuning improves accuracy from about 70% to 75% on CIFAR-10.",
     [("accuracy", "75%", 75.0, "percent", "CIFAR-10")]),
    # a range is one value, read as its first number; a per cent in brackets is a value, not an enumeration
    ("It detects the attacks with 98-100% AUC-ROC scores and keeps a memory compression rate (96.4%).",
     [("AUC-ROC scores", "98-100%", 98.0, "percent", None), ("memory compression rate", "96.4%", 96.4, "percent", None)]),
    # a per cent sign glued to the metric
    ("Our models achieve 83.6% and 84.0%Top-1 accuracy on ImageNet.",
     [("Top-1 accuracy", "83.6%", 83.6, "percent", "ImageNet"), ("Top-1 accuracy", "84.0%", 84.0, "percent", "ImageNet")]),
    # a coordinated number takes the metric written after its neighbour, and the dataset after itself
    ("The model reaches 61.2% accuracy on CIFAR-100 and 38.5% on Tiny ImageNet.",
     [("accuracy", "61.2%", 61.2, "percent", "CIFAR-100"), ("accuracy", "38.5%", 38.5, "percent", "Tiny ImageNet")]),
    # a number in its own math ("$12.4$")
    ("The compressed model keeps a perplexity of $12.4$ on WikiText-103.",
     [("perplexity", "12.4", 12.4, "absolute", "WikiText-103")]),
    # "an increase in the <metric>"
    ("The detector gives up to a 12% increase in the AUROC over the baselines.",
     [("AUROC", "12%", 12.0, "percent", None)]),
    # "percent" written out
    ("The tracker gains 7.5 percent in success rate over the strongest baseline.",
     [("success rate", "7.5 percent", 7.5, "percent", None)]),
    # "by a factor of" (a ratio), and "close to"
    ("Pruning cuts the inference time by a factor of 12 while keeping the accuracy close to 90%.",
     [("inference time", "12", 12.0, "ratio", None), ("accuracy", "90%", 90.0, "percent", None)]),
    # a gain "on" the metric; a metric named before the number keeps it over one reached by "on"
    ("The planner improves over the baselines by 6% on success rate.",
     [("success rate", "6%", 6.0, "percent", None)]),
    # a range written with a tilde or \\sim, in its own math, also closing the sentence
    ("Our compiler reduces the latency by $20\\% \\sim 45\\%$ on edge devices.",
     [("latency", "20% ~ 45%", 20.0, "percent", None)]),
    ("Our compiler reduces the latency by $20\\% \\sim 45\\%$.", [("latency", "20% ~ 45%", 20.0, "percent", None)]),
    ("Our compiler reduces the latency by 20 ∼ 45 percent on edge devices.",
     [("latency", "20 ∼ 45 percent", 20.0, "percent", None)]),
    # a number in its own math with its spread
    ("Prompting alone gives $86.6\\%(\\pm0.6)$ accuracy on IMDB.", [("accuracy", "86.6%", 86.6, "percent", "IMDB")]),
    # "<number> faster <metric>"
    ("The new kernels give 30% faster training throughput on the same hardware.",
     [("training throughput", "30%", 30.0, "percent", None)]),
])
def test_result_forms(nlp, text, expected):
    assert claims(nlp, text) == expected


@pytest.mark.parametrize("text, expected", [
    # a value alone in brackets after what it was measured on, the metric named earlier in the clause
    ("The network reaches record accuracies for training compact models on SVHN (95.1%), STL-10 (80.2%) and "
     "CIFAR-10 (91.5%).",
     [("accuracies", "95.1%", 95.1, "percent", "SVHN"), ("accuracies", "80.2%", 80.2, "percent", "STL-10"),
      ("accuracies", "91.5%", 91.5, "percent", "CIFAR-10")]),
    # the size of a change after "by", its metric past what it is of
    ("The new potential reduces the mean absolute error of predicted energies by 25% against earlier models.",
     [("mean absolute error", "25%", 25.0, "percent", None)]),
    # the value a change reaches, its metric past what it is of
    ("The search raises the accuracy on SVHN of a published compact model from 88.1% to 90.4%.",
     [("accuracy", "90.4%", 90.4, "percent", "SVHN")]),
])
def test_a_value_set_apart_from_its_metric(nlp, text, expected):
    assert claims(nlp, text) == expected


def test_in_a_list_of_things_each_with_its_value_a_metric_measures_none_of_the_others(nlp):
    text = "It gains on retrieval (+6%), accuracy under noise (+3%) and summarization (+4%)."
    assert "+4%" not in [value for _metric, value, *_ in claims(nlp, text)]


@pytest.mark.parametrize("text", [
    # a clause of its own stands between the metric and the value
    "We report accuracy on four benchmarks, which were collected over 12 (15%) sites.",
    "The pruned network keeps its F1 score on CoNLL, while the model shrinks by 30%.",
])
def test_a_value_set_apart_from_a_metric_of_another_clause_is_none_of_its(nlp, text):
    assert claims(nlp, text) == []


def test_a_metric_named_before_the_number_wins_over_one_reached_by_on(nlp):
    # "ASR" is read as a metric here (attack success rate): the WER, named before 11.6, is the claim's
    text = ("The single model reaches a BLEU score of 28.6 on MuST-C, a WER of 11.6 on ASR TEDLium v3 and a BLEU "
            "score of 23.4 on WMT14.")
    assert [(metric, value) for metric, value, *_ in claims(nlp, text)] == [
        ("BLEU score", "28.6"), ("WER", "11.6"), ("BLEU score", "23.4")]


@pytest.mark.parametrize("text", [
    "We use early stopping with a patience of 10 on validation accuracy.",
    "We set a threshold of 0.5 on the F1 score of each class.",
])
def test_a_setting_on_a_metric_is_no_claim(nlp, text):
    assert claims(nlp, text) == []


@pytest.mark.parametrize("text", [
    "We collect 200k episodes across 571 scenes in 2023 with a 7B model [12].",
    "The network has 8 layers and reaches high accuracy on 40 tasks.",
    "ResNet-50 and GPT-4 are evaluated with pass@1 and top-1 accuracy (1) on 3D scenes.",
    "Our method outperforms the baselines by 14% on average.",  # no metric named: no claim
    "It uses 100-step sampling to improve FID and trains for 300 epochs.",
    "Our method improves accuracy from 70% before any training.",  # where the metric started: no claim
    "We report accuracy from the 10% held-out split of the data.",  # what the metric is drawn from
    "We compute the F1 score from a 20% subsample.",
    # a digit of a formula in math is no value
    "The estimate reaches a relative error $\\Theta(\\frac{1}{n})$ with high probability.",
    "The estimator attains an accuracy of $1-\\epsilon$ with $n$ samples.",
    "The method achieves a regret of $2\\sqrt{T}$ over $T$ rounds.",
    # nor a digit of a formula before the metric
    "Gradient descent enjoys an $O(\\sqrt{T}(1+P_T))$ dynamic regret on any comparator sequence.",
])
def test_no_claim_without_a_metric_and_a_value(nlp, text):
    assert claims(nlp, text) == []


@pytest.mark.parametrize("text, expected", [
    ("The pruned model retains 97% accuracy and 35% of the weights.", [("accuracy", "97%", 97.0, "percent", None)]),
    ("We obtain 92.3% accuracy and 60% of the parameters of ResNet-50.",
     [("accuracy", "92.3%", 92.3, "percent", None)]),
])
def test_a_number_after_a_claim_is_its_metric_only_with_a_dataset_of_its_own(nlp, text, expected):
    assert claims(nlp, text) == expected


def test_a_percentage_after_a_slash_is_a_number_and_a_fraction_is_not(nlp):
    doc = nlp.make_doc("a margin of 6.1%/8.8% in two tasks, with 1/2 of the data")
    assert "8.8%" in [q.value for q in find_quantities(doc)] and "2" not in [q.value for q in find_quantities(doc)]


def test_quantities_keep_the_number_as_written(nlp):
    doc = nlp("A 1,000-fold gain, $0.45\\%$ more, 67$\\times$ faster, -1.3 points and 12 dB.")
    found = [(q.value, q.numeric, q.unit) for q in find_quantities(doc)]
    assert found == [("1,000-fold", 1000.0, "ratio"), ("0.45%", 0.45, "percent"), ("67×", 67.0, "ratio"),
                     ("-1.3 points", -1.3, "points"), ("12 dB", 12.0, "dB")]


@pytest.mark.parametrize("text, expected", [
    ("gains of 1.0% − 1.4% overall", ("1.0% − 1.4%", 1.0, "percent")),
    ("a 9-16$\\%$ overhead", ("9-16%", 9.0, "percent")),
    ("a 2-3x speed-up", ("2-3x", 2.0, "ratio")),
    ("2-4 times faster", ("2-4 times", 2.0, "ratio")),
    ("(28-68 %) fewer screens", ("28-68 %", 28.0, "percent")),
    ("by 13.0–14.5$\\times$ at the same cost", ("13.0–14.5×", 13.0, "ratio")),
])
def test_a_range_is_one_quantity_read_as_its_first_number(nlp, text, expected):
    found = [(q.value, q.numeric, q.unit) for q in find_quantities(nlp.make_doc(text))]
    assert found == [expected]


@pytest.mark.parametrize("text, expected", [
    ("ResNet-50 with 3-4 layers from 2019-2020", []),  # no unit, a name, years: no range
    ("a learning rate of 1-2 x 10^{-4}", []),  # a power of ten, not a ratio
    ("a gain of 92.1% – 3.2% over it", ["92.1%", "3.2%"]),  # the second number is smaller: two numbers
])
def test_what_is_no_range(nlp, text, expected):
    assert [q.value for q in find_quantities(nlp.make_doc(text))] == expected


def test_a_per_cent_sign_glued_to_a_word_is_split(nlp):
    assert [t.text for t in nlp.make_doc("84.0%Top-1 accuracy and a 50%-quantile")] == \
        ["84.0", "%", "Top-1", "accuracy", "and", "a", "50%-quantile"]


def test_result_names_the_proposed_method_for_we(nlp):
    doc = nlp("We propose GraphMixer, a sparse transformer. With it, we achieve 52.1 mAP on COCO.")
    assert [(c.metric, c.method) for c in doc._.results] == [("mAP", "GraphMixer")]


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Graph:
    from kg.build.pipeline import build
    from kg.store.load import load_graph

    out = tmp_path_factory.mktemp("built")
    build([DATA / "abstracts.jsonl"], out)
    graph = Graph()
    for s, p, o in load_graph(out / "kg.ttl"):
        graph.add((s, p, o))
    return graph


def test_results_in_built_graph(built):
    rows = {(str(r["value"]), str(r["metric"]), str(r["dataset"] or ""), str(r["unit"]), r["numeric"].toPython())
            for r in built.query("""
        PREFIX kg: <https://w3id.org/paperkg/ontology#>
        PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
        SELECT ?value ?metric ?dataset ?unit ?numeric WHERE {
          ?paper kg:reportsResult ?r . ?r a kg:Result ; kg:value ?value ; kg:unit ?unit ; kg:numericValue ?numeric ;
             kg:metric/rdfs:label ?metric ; kg:inSentence/kg:text ?text .
          OPTIONAL { ?r kg:dataset/rdfs:label ?dataset } }""")}
    assert ("0.912", "F1", "MoleculeNet", "absolute", 0.912) in {(v, m, d, u, float(n)) for v, m, d, u, n in rows}
    assert ("81.2%", "top-1 accuracy", "ImageNet", "percent", 81.2) in {(v, m, d, u, float(n)) for v, m, d, u, n in rows}
    assert ("3x", "speed-up", "", "ratio", 3.0) in {(v, m, d, u, float(n)) for v, m, d, u, n in rows}


def test_result_entities_are_the_linked_entities(built):
    """The metric, dataset and method of a result are the very entities the paper links to."""
    for r in built.subjects(RDF.type, KG.Result):
        paper = next(built.subjects(KG.reportsResult, r))
        for prop, link in ((KG.dataset, KG.usesDataset), (KG.method, None)):
            for e in built.objects(r, prop):
                linked = set(built.objects(paper, link)) | set(built.objects(paper, KG.proposes)) if link else \
                    set(built.objects(paper, KG.usesMethod)) | set(built.objects(paper, KG.proposes))
                assert e in linked, (r, prop, e)
        metric = built.value(r, KG.metric)
        assert (metric, RDF.type, KG.Metric) in built and built.value(metric, RDFS.label) is not None
        assert built.value(r, KG.numericValue).datatype == XSD.decimal


def _violations(graph: Graph) -> list[tuple]:
    from pyshacl import validate

    shapes = Graph().parse(ONTOLOGY / "shapes.ttl")
    ontology = Graph().parse(ONTOLOGY / "kg.ttl")
    _ok, report, _text = validate(graph, shacl_graph=shapes, ont_graph=ontology, inference="rdfs")
    sh = "http://www.w3.org/ns/shacl#"
    return [(report.value(v, URIRef(sh + "focusNode")), report.value(v, URIRef(sh + "resultMessage")))
            for v in report.subjects(RDF.type, URIRef(sh + "ValidationResult"))]


def test_results_and_relations_conform_to_the_shapes(built):
    """No shape violation touches a result, a relation assertion or an entity they point to."""
    mine = set(built.subjects(RDF.type, KG.Result)) | set(built.subjects(RDF.type, KG.RelationAssertion))
    for node in list(mine):
        mine |= {o for o in built.objects(node) if isinstance(o, URIRef)}
    assert len(list(built.subjects(RDF.type, KG.Result))) >= 3
    bad = [(f, m) for f, m in _violations(built) if f in mine]
    assert bad == []


def test_numeric_value_is_a_decimal_literal(built):
    values = {built.value(r, KG.numericValue) for r in built.subjects(RDF.type, KG.Result)}
    assert Literal("0.912", datatype=XSD.decimal) in values
