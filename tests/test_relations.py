"""Typed relations: each cue pattern on real sentences, and their triples and evidence in a built graph."""
from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import Graph, URIRef
from rdflib.namespace import RDF

from kg.namespaces import KG

DATA = Path(__file__).parent / "data" / "relations"


def relations(nlp, text: str, predicate: str | None = None) -> set[tuple[str, str, str]]:
    doc = nlp(text)
    return {(r.subject, r.predicate, r.object) for r in doc._.relations if predicate in (None, r.predicate)}


@pytest.mark.parametrize("text, expected", [
    # "X outperforms A and B"
    ("We propose GraphMixer, a sparse transformer for molecular graphs. GraphMixer outperforms GIN and SchNet on QM9.",
     {("GraphMixer", "comparesWith", "GIN"), ("GraphMixer", "comparesWith", "SchNet")}),
    # "we compare our method with A and B": the subject is what the paper proposes
    ("We introduce FlowNet-R. We compare our method with RAFT and PWC-Net.",
     {("FlowNet-R", "comparesWith", "RAFT"), ("FlowNet-R", "comparesWith", "PWC-Net")}),
    # "surpasses"
    ("We present TabFormer. In our experiments, TabFormer surpasses XGBoost by a large margin.",
     {("TabFormer", "comparesWith", "XGBoost")}),
    # "better than"
    ("We present TabFormer. TabFormer is consistently better than XGBoost on tabular data.",
     {("TabFormer", "comparesWith", "XGBoost")}),
])
def test_compares_with(nlp, text, expected):
    assert relations(nlp, text, "comparesWith") == expected


@pytest.mark.parametrize("text, expected", [
    ("We propose StreamDiff. We evaluate StreamDiff on ImageNet and COCO.",
     {("StreamDiff", "evaluatedOn", "ImageNet"), ("StreamDiff", "evaluatedOn", "COCO")}),
    # "experiments on X and Y show": the paper's own method
    ("We present TabFormer. Extensive experiments on CIFAR-10 and SVHN show that the model is robust.",
     {("TabFormer", "evaluatedOn", "CIFAR-10"), ("TabFormer", "evaluatedOn", "SVHN")}),
    # from a result that names its method and dataset
    ("We propose GraphMixer. GraphMixer reaches 52.1 mAP on COCO.",
     {("GraphMixer", "evaluatedOn", "COCO")}),
])
def test_evaluated_on(nlp, text, expected):
    assert relations(nlp, text, "evaluatedOn") == expected


@pytest.mark.parametrize("text, expected", [
    ("We propose GateNet. GateNet extends ResNet with gated skip connections.", {("GateNet", "extends", "ResNet")}),
    ("We propose GateNet. Our method builds on ResNet and adds a gate to every block.", {("GateNet", "extends", "ResNet")}),
    # name variants of a method named in the same abstract
    ("This paper presents RepMatch v2, which refines the matching head of RepMatch.", {("RepMatch v2", "extends", "RepMatch")}),
    ("We introduce SimFoo++, a stronger version of SimFoo for contrastive learning.", {("SimFoo++", "extends", "SimFoo")}),
    ("We propose BoostNet-PF, which adds particle filtering to BoostNet.", {("BoostNet-PF", "extends", "BoostNet")}),
    # neither the code base nor a plural is a method the proposal extends
    ("We propose GateNet. Our code builds on PyTorch. Unlike earlier CNNs, it uses one CNN.", set()),
])
def test_extends(nlp, text, expected):
    assert relations(nlp, text, "extends") == expected


@pytest.mark.parametrize("text, expected", [
    ("We propose OmniSeg, a segmentation system. OmniSeg consists of MaskDecoder and PixelEncoder.",
     {("OmniSeg", "hasComponent", "MaskDecoder"), ("OmniSeg", "hasComponent", "PixelEncoder")}),
    ("We propose OmniSeg, a segmentation system comprising MaskDecoder and PixelEncoder.",
     {("OmniSeg", "hasComponent", "MaskDecoder"), ("OmniSeg", "hasComponent", "PixelEncoder")}),
])
def test_has_component(nlp, text, expected):
    assert relations(nlp, text, "hasComponent") == expected


@pytest.mark.parametrize("text, expected", [
    ("We present AudioLM-X. We apply AudioLM-X to speech recognition and to music generation.",
     {("AudioLM-X", "appliedTo", "speech recognition"), ("AudioLM-X", "appliedTo", "music generation")}),
    ("We propose TimeGPT for time series forecasting.", {("TimeGPT", "appliedTo", "time series forecasting")}),
])
def test_applied_to(nlp, text, expected):
    assert relations(nlp, text, "appliedTo") == expected


def test_relation_offsets_point_into_the_sentence(nlp):
    text = "We propose GraphMixer. GraphMixer outperforms GIN on QM9."
    doc = nlp(text)
    (rel,) = [r for r in doc._.relations if r.predicate == "comparesWith"]
    assert text[rel.start : rel.end] == "GraphMixer outperforms GIN"
    assert text[slice(*rel.object_span)] == "GIN"


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Graph:
    from kg.build.pipeline import build
    from kg.store.load import load_graph

    out = tmp_path_factory.mktemp("built_relations")
    build([DATA / "abstracts.jsonl"], out)
    graph = Graph()
    for t in load_graph(out / "kg.ttl"):
        graph.add(t)
    return graph


def _names(graph: Graph, node) -> set[str]:
    from rdflib.namespace import RDFS, SKOS

    return {str(x) for p in (RDFS.label, SKOS.altLabel) for x in graph.objects(node, p)}


def test_direct_triples_in_built_graph(built):
    def has(subject: str, prop, obj: str) -> bool:
        return any(subject in _names(built, s) and obj in _names(built, o) for s, o in built.subject_objects(prop))

    for subject, prop, obj in [("GraphMixer", KG.comparesWith, "GIN"), ("GraphMixer", KG.extends, "SchNet"),
                               ("GraphMixer", KG.evaluatedOn, "QM9"), ("RepMatch v2", KG.extends, "RepMatch"),
                               ("RepMatch v2", KG.comparesWith, "ViT"), ("RepMatch v2", KG.evaluatedOn, "ImageNet")]:
        assert has(subject, prop, obj), (subject, prop, obj)


def test_every_direct_triple_has_evidence(built):
    """Each relation triple is backed by a kg:RelationAssertion with its sentence, offsets and extractor."""
    for a in built.subjects(RDF.type, KG.RelationAssertion):
        s, p, o = built.value(a, RDF.subject), built.value(a, RDF.predicate), built.value(a, RDF.object)
        assert (s, p, o) in built
        sentence = built.value(a, KG.inSentence)
        assert (sentence, RDF.type, KG.Sentence) in built
        start, end = built.value(a, KG.start).toPython(), built.value(a, KG.end).toPython()
        assert built.value(sentence, KG.start).toPython() <= start < end <= built.value(sentence, KG.end).toPython()
        assert (built.value(a, URIRef("http://www.w3.org/ns/prov#wasAttributedTo")), RDF.type, KG.Extractor) in built
    for p in (KG.comparesWith, KG.evaluatedOn, KG.extends, KG.hasComponent, KG.appliedTo):
        for s, o in built.subject_objects(p):
            assert any(built.value(a, RDF.subject) == s and built.value(a, RDF.object) == o
                       for a in built.subjects(RDF.predicate, p))


def test_relation_entities_are_the_resolved_entities(built):
    """Relations connect the same entity IRIs the papers link to, never new ones."""
    linked = {o for p in (KG.usesMethod, KG.usesDataset, KG.proposes, KG.addressesTask, KG.hasModality)
              for o in built.objects(None, p)}
    for p in (KG.comparesWith, KG.evaluatedOn, KG.extends):
        for s, o in built.subject_objects(p):
            assert s in linked and o in linked
