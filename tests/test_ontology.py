"""Tests of the ontology, the SHACL shapes and the controlled vocabularies in ontology/."""
from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from pathlib import Path

import pyshacl
import pytest
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, OWL, RDF, RDFS, SH, SKOS

from kg.entity_types import ENTITY_TYPES, EntityType
from kg.namespaces import ID, KG, RESOURCE_PREFIXES

ROOT = Path(__file__).resolve().parent.parent
ONTOLOGY_DIR = ROOT / "ontology"
DATA = Path(__file__).resolve().parent / "data"

VOCABULARIES = {
    "vocab/modalities.ttl": (KG.Modality, "modality", ID["scheme/modalities"]),
    "vocab/metrics.ttl": (KG.Metric, "metric", ID["scheme/metrics"]),
    "vocab/datasets.ttl": (KG.Dataset, "dataset", ID["scheme/datasets"]),
    "vocab/methods.ttl": (KG.Method, "method", ID["scheme/methods"]),
    "vocab/tasks.ttl": (KG.Task, "task", ID["scheme/tasks"]),
}

REQUIRED_MODALITIES = [
    "EEG", "iEEG", "fMRI", "ECG", "MEG", "neural recordings", "image", "video", "text", "audio",
    "speech", "time series", "tabular", "graph", "point cloud", "set", "molecule", "protein sequence",
    "protein structure", "crystal structure", "atomistic (materials)", "gene expression",
    "spatial transcriptomics", "radar", "weather/climate", "geospatial", "robot actions",
    "PDE solutions", "dialogue", "behavioral video",
]


def _parse(rel: str) -> Graph:
    return Graph().parse(ONTOLOGY_DIR / rel, format="turtle")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _norm(text: str) -> str:
    """Normalised key of a label: NFKC, case-folded, runs of non-alphanumerics collapsed."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("’", "'")
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


@pytest.fixture(scope="module")
def ontology() -> Graph:
    return _parse("kg.ttl")


@pytest.fixture(scope="module")
def shapes() -> Graph:
    return _parse("shapes.ttl")


@pytest.fixture(scope="module", params=sorted(VOCABULARIES))
def vocabulary(request) -> tuple[str, Graph]:
    return request.param, _parse(request.param)


@pytest.mark.parametrize("rel", ["kg.ttl", "shapes.ttl", *sorted(VOCABULARIES)])
def test_every_file_parses_and_is_not_empty(rel: str) -> None:
    assert len(_parse(rel)) > 50


def test_ontology_header(ontology: Graph) -> None:
    onto = URIRef("https://w3id.org/paperkg/ontology")
    assert (onto, RDF.type, OWL.Ontology) in ontology
    for prop in (DCTERMS.title, DCTERMS.description, OWL.versionInfo, DCTERMS.license):
        assert ontology.value(onto, prop) is not None, prop
    assert ontology.value(onto, DCTERMS.license) == URIRef("https://opensource.org/licenses/MIT")


EXPECTED_CLASSES = [
    "Paper", "SourceRecord", "Entity", "Method", "Model", "Dataset", "Benchmark", "Modality", "Task",
    "Metric", "Sentence", "Mention", "Extractor", "Result", "RelationAssertion",
]
EXPECTED_OBJECT_PROPERTIES = [
    "mentions", "usesMethod", "usesDataset", "hasModality", "addressesTask", "usesMetric", "proposes",
    "codeRepository", "paper", "entity", "property", "inSentence", "evaluatedOn", "comparesWith",
    "extends", "hasComponent", "appliedTo", "reportsResult", "metric", "dataset", "method",
]
EXPECTED_DATATYPE_PROPERTIES = [
    "year", "venue", "sourceFile", "position", "line", "text", "start", "end", "anchorText",
    "confidence", "value", "numericValue", "unit", "lowerIsBetter",
]


@pytest.mark.parametrize("name", EXPECTED_CLASSES)
def test_class_declared(ontology: Graph, name: str) -> None:
    assert (KG[name], RDF.type, OWL.Class) in ontology


@pytest.mark.parametrize("name", EXPECTED_OBJECT_PROPERTIES)
def test_object_property_declared(ontology: Graph, name: str) -> None:
    assert (KG[name], RDF.type, OWL.ObjectProperty) in ontology


@pytest.mark.parametrize("row", ENTITY_TYPES, ids=lambda t: t.name)
def test_each_entity_type_row_matches_the_ontology(ontology: Graph, row: EntityType) -> None:
    """The table of entity types names the ontology's class, sub-classes and link property of each type,
    and its IRI segment is a resource prefix."""
    assert (KG[row.name], RDF.type, OWL.Class) in ontology
    assert (KG[row.link], RDF.type, OWL.ObjectProperty) in ontology
    assert (KG[row.link], RDFS.range, KG[row.name]) in ontology
    assert all((KG[sub], RDFS.subClassOf, KG[row.name]) in ontology for sub in row.subclasses)
    assert RESOURCE_PREFIXES[row.segment] == f"{ID}{row.segment}/"


@pytest.mark.parametrize("name", EXPECTED_DATATYPE_PROPERTIES)
def test_datatype_property_declared(ontology: Graph, name: str) -> None:
    assert (KG[name], RDF.type, OWL.DatatypeProperty) in ontology


def test_every_kg_term_is_documented(ontology: Graph) -> None:
    kinds = (OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty)
    terms = {s for k in kinds for s in ontology.subjects(RDF.type, k) if str(s).startswith(str(KG))}
    assert len(terms) >= 50
    problems = []
    for term in sorted(terms):
        for prop in (RDFS.label, RDFS.comment, RDFS.isDefinedBy):
            if ontology.value(term, prop) is None:
                problems.append(f"{term} lacks {prop}")
        is_property = (term, RDF.type, OWL.Class) not in ontology
        if is_property:
            for prop in (RDFS.domain, RDFS.range):
                if ontology.value(term, prop) is None:
                    problems.append(f"{term} lacks {prop}")
    assert problems == []


def test_alignment(ontology: Graph) -> None:
    schema = "https://schema.org/"
    prov = "http://www.w3.org/ns/prov#"
    assert (KG.Paper, RDFS.subClassOf, URIRef(schema + "ScholarlyArticle")) in ontology
    assert (KG.Paper, RDFS.subClassOf, URIRef(prov + "Entity")) in ontology
    assert (KG.Entity, RDFS.subClassOf, SKOS.Concept) in ontology
    assert (KG.Mention, RDFS.subClassOf, URIRef(prov + "Entity")) in ontology
    assert (KG.Extractor, RDFS.subClassOf, URIRef(prov + "SoftwareAgent")) in ontology
    assert (KG.codeRepository, RDFS.subPropertyOf, URIRef(schema + "codeRepository")) in ontology
    assert (KG.Model, RDFS.subClassOf, KG.Method) in ontology
    assert (KG.Benchmark, RDFS.subClassOf, KG.Dataset) in ontology
    for sub in ("usesMethod", "usesDataset", "hasModality", "addressesTask", "usesMetric"):
        assert (KG[sub], RDFS.subPropertyOf, KG.mentions) in ontology


def test_external_properties_not_redeclared(ontology: Graph) -> None:
    for prop in (DCTERMS.abstract, DCTERMS.title, RDFS.label, SKOS.altLabel):
        assert (prop, RDF.type, None) not in ontology


# --------------------------------------------------------------------------- vocabularies


def _concepts(graph: Graph) -> set[URIRef]:
    return set(graph.subjects(RDF.type, SKOS.Concept))


def test_vocabulary_concepts_are_well_formed(vocabulary: tuple[str, Graph]) -> None:
    rel, graph = vocabulary
    cls, kind, scheme = VOCABULARIES[rel]
    concepts = _concepts(graph)
    assert len(concepts) >= 50
    assert (scheme, RDF.type, SKOS.ConceptScheme) in graph
    problems = []
    for c in sorted(concepts):
        prefs = list(graph.objects(c, SKOS.prefLabel))
        labels = list(graph.objects(c, RDFS.label))
        if len(prefs) != 1 or labels != prefs:
            problems.append(f"{c}: prefLabel {prefs} / rdfs:label {labels}")
            continue
        if (c, RDF.type, cls) not in graph:
            problems.append(f"{c} is not a {cls}")
        if (c, SKOS.inScheme, scheme) not in graph:
            problems.append(f"{c} not in {scheme}")
        if str(c) != f"{ID}{kind}/{_slug(str(prefs[0]))}":
            problems.append(f"{c} is not minted from its label {prefs[0]!r}")
        for same in graph.objects(c, OWL.sameAs):
            if not re.fullmatch(r"http://www\.wikidata\.org/entity/Q\d+", str(same)):
                problems.append(f"{c} owl:sameAs {same} is not a Wikidata item")
    assert problems == []


def test_no_label_clash_within_a_vocabulary(vocabulary: tuple[str, Graph]) -> None:
    _, graph = vocabulary
    owners: dict[str, set[URIRef]] = defaultdict(set)
    for c in _concepts(graph):
        for prop in (SKOS.prefLabel, SKOS.altLabel):
            for label in graph.objects(c, prop):
                owners[_norm(str(label))].add(c)
    clashes = {k: sorted(v) for k, v in owners.items() if len(v) > 1}
    assert clashes == {}


def test_clash_detector_catches_a_clash() -> None:
    graph = _parse("vocab/methods.ttl")
    intruder = ID["method/intruder"]
    graph.add((intruder, RDF.type, SKOS.Concept))
    graph.add((intruder, SKOS.prefLabel, Literal("Intruder")))
    graph.add((intruder, SKOS.altLabel, Literal("Graph  Neural-Networks")))
    owners: dict[str, set] = defaultdict(set)
    for c in _concepts(graph):
        for label in graph.objects(c, SKOS.altLabel):
            owners[_norm(str(label))].add(c)
    assert len(owners["graph neural networks"]) == 2


def test_broader_narrower_symmetric_and_acyclic(vocabulary: tuple[str, Graph]) -> None:
    _, graph = vocabulary
    broader = set(graph.subject_objects(SKOS.broader))
    narrower_inverted = {(o, s) for s, o in graph.subject_objects(SKOS.narrower)}
    assert broader == narrower_inverted
    concepts = _concepts(graph)
    assert all(s in concepts and o in concepts for s, o in broader)
    parents: dict = defaultdict(set)
    for s, o in broader:
        parents[s].add(o)

    def ancestors(node, seen):
        for p in parents[node]:
            if p not in seen:
                seen.add(p)
                ancestors(p, seen)
        return seen

    assert [c for c in concepts if c in ancestors(c, set())] == []


def test_required_modalities_present() -> None:
    graph = _parse("vocab/modalities.ttl")
    prefs = {str(o) for o in graph.objects(None, SKOS.prefLabel)}
    assert [m for m in REQUIRED_MODALITIES if m not in prefs] == []
    eeg, ieeg = ID["modality/eeg"], ID["modality/ieeg"]
    assert (ieeg, SKOS.broader, eeg) in graph
    assert (ID["modality/speech"], SKOS.broader, ID["modality/audio"]) in graph
    for c in _concepts(graph):
        assert graph.value(c, SKOS.definition) is not None, c


def test_modality_cues_are_unambiguous() -> None:
    graph = _parse("vocab/modalities.ttl")
    cue_owner: dict[str, set] = defaultdict(set)
    label_owner: dict[str, set] = defaultdict(set)
    for c in _concepts(graph):
        for cue in graph.objects(c, KG.cue):
            cue_owner[_norm(str(cue))].add(c)
        for prop in (SKOS.prefLabel, SKOS.altLabel):
            for label in graph.objects(c, prop):
                label_owner[_norm(str(label))].add(c)
    assert len(cue_owner) >= 100
    assert {k: v for k, v in cue_owner.items() if len(v) > 1} == {}
    # a cue may not be another concept's label (it would contradict that concept)
    assert {k: (cue_owner[k], label_owner[k]) for k in cue_owner
            if label_owner.get(k) and label_owner[k] != cue_owner[k]} == {}
    text = ID["modality/text"]
    assert {"language model", "LLM", "question answering"} <= {str(o) for o in graph.objects(text, KG.cue)}


def test_top1_accuracy_is_narrower_than_accuracy() -> None:
    graph = _parse("vocab/metrics.ttl")
    assert (ID["metric/top-1-accuracy"], SKOS.broader, ID["metric/accuracy"]) in graph
    assert graph.value(ID["metric/fid"], SKOS.prefLabel) == Literal("FID")


def test_vocabulary_sizes() -> None:
    sizes = {rel: len(_concepts(_parse(rel))) for rel in VOCABULARIES}
    assert sizes["vocab/datasets.ttl"] >= 200
    assert sizes["vocab/methods.ttl"] >= 200
    assert sizes["vocab/tasks.ttl"] >= 150
    assert sizes["vocab/metrics.ttl"] >= 80
    assert sizes["vocab/modalities.ttl"] >= 40


# --------------------------------------------------------------------------- SHACL


def _validate(data: Graph, shapes: Graph, ontology: Graph) -> tuple[bool, Graph]:
    conforms, report, _ = pyshacl.validate(data, shacl_graph=shapes, ont_graph=ontology, inference="rdfs")
    return conforms, report


def _focus_nodes(report: Graph) -> set:
    return set(report.objects(None, SH.focusNode))


PAPER = ID["paper/0123456789abcdef"]
MENTION = ID["paper/0123456789abcdef/m22-33-method"]
RESULT = ID["paper/0123456789abcdef/r0"]


@pytest.fixture()
def ok_graph() -> Graph:
    return Graph().parse(DATA / "shapes_ok.ttl", format="turtle")


def test_fixture_conforms(ok_graph: Graph, shapes: Graph, ontology: Graph) -> None:
    conforms, report = _validate(ok_graph, shapes, ontology)
    assert conforms, report.serialize(format="turtle")


def test_vocabularies_conform(shapes: Graph, ontology: Graph) -> None:
    data = Graph()
    for rel in VOCABULARIES:
        data += _parse(rel)
    conforms, report = _validate(data, shapes, ontology)
    assert conforms, _focus_nodes(report)


def _assert_violation(data: Graph, shapes: Graph, ontology: Graph, focus, path=None) -> None:
    conforms, report = _validate(data, shapes, ontology)
    assert not conforms
    assert focus in _focus_nodes(report)
    if path is not None:
        assert path in set(report.objects(None, SH.resultPath))


def test_paper_without_abstract_violates(ok_graph: Graph, shapes: Graph, ontology: Graph) -> None:
    ok_graph.remove((PAPER, DCTERMS.abstract, None))
    _assert_violation(ok_graph, shapes, ontology, PAPER, DCTERMS.abstract)


def test_paper_with_two_labels_violates(ok_graph: Graph, shapes: Graph, ontology: Graph) -> None:
    ok_graph.add((PAPER, RDFS.label, Literal("another name")))
    _assert_violation(ok_graph, shapes, ontology, PAPER, RDFS.label)


def test_mention_with_start_after_end_violates(ok_graph: Graph, shapes: Graph, ontology: Graph) -> None:
    ok_graph.set((MENTION, KG.start, Literal(40)))
    ok_graph.set((MENTION, KG.end, Literal(30)))
    _assert_violation(ok_graph, shapes, ontology, MENTION, KG.start)


def test_result_without_metric_violates(ok_graph: Graph, shapes: Graph, ontology: Graph) -> None:
    ok_graph.remove((RESULT, KG.metric, None))
    _assert_violation(ok_graph, shapes, ontology, RESULT, KG.metric)


def test_proposes_a_task_violates(ok_graph: Graph, shapes: Graph, ontology: Graph) -> None:
    task = ID["task/eeg-classification"]
    ok_graph.add((task, RDF.type, KG.Task))
    ok_graph.add((task, RDFS.label, Literal("EEG classification")))
    ok_graph.add((PAPER, KG.proposes, task))
    _assert_violation(ok_graph, shapes, ontology, PAPER, KG.proposes)


def test_entity_of_two_kinds_violates(ok_graph: Graph, shapes: Graph, ontology: Graph) -> None:
    ok_graph.add((ID["metric/accuracy"], RDF.type, KG.Task))
    _assert_violation(ok_graph, shapes, ontology, ID["metric/accuracy"])


def test_uses_dataset_pointing_to_a_method_violates(ok_graph: Graph, shapes: Graph, ontology: Graph) -> None:
    # the range of kg:usesDataset makes the method a kg:Dataset too: two kinds at once
    ok_graph.add((PAPER, KG.usesDataset, ID["method/transformer"]))
    _assert_violation(ok_graph, shapes, ontology, ID["method/transformer"])


def test_modality_outside_scheme_violates(ok_graph: Graph, shapes: Graph, ontology: Graph) -> None:
    ok_graph.remove((ID["modality/eeg"], SKOS.inScheme, None))
    _assert_violation(ok_graph, shapes, ontology, ID["modality/eeg"], SKOS.inScheme)


def test_source_record_negative_position_violates(ok_graph: Graph, shapes: Graph, ontology: Graph) -> None:
    record = ID["source/00000000000000aa"]
    ok_graph.set((record, KG.position, Literal(-1)))
    _assert_violation(ok_graph, shapes, ontology, record, KG.position)


def test_relation_with_unknown_predicate_violates(ok_graph: Graph, shapes: Graph, ontology: Graph) -> None:
    assertion = ID["paper/0123456789abcdef/a0"]
    ok_graph.set((assertion, RDF.predicate, KG.usesMethod))
    _assert_violation(ok_graph, shapes, ontology, assertion, RDF.predicate)


def test_model_counts_as_method_through_ontology(ok_graph: Graph, shapes: Graph, ontology: Graph) -> None:
    """kg:usesMethod → a kg:Model conforms only because rdfs inference uses kg:Model ⊑ kg:Method."""
    conforms, _ = _validate(ok_graph, shapes, ontology)
    assert conforms
    conforms, report, _ = pyshacl.validate(ok_graph, shacl_graph=shapes, inference="none")
    assert not conforms
    assert PAPER in _focus_nodes(report)


def test_entity_without_label_violates(ok_graph: Graph, shapes: Graph, ontology: Graph) -> None:
    method = ID["method/transformer"]
    ok_graph.remove((method, RDFS.label, None))
    _assert_violation(ok_graph, shapes, ontology, method, RDFS.label)
    assert isinstance(method, URIRef) and not isinstance(method, BNode)


def test_metrics_better_lower_say_so() -> None:
    """A metric whose definition says lower is better carries kg:lowerIsBetter, and the common ones that
    are better higher do not: the leaderboards rank by it."""
    metrics = Graph().parse(Path(__file__).resolve().parent.parent / "ontology" / "vocab" / "metrics.ttl")
    lower = {str(s).rsplit("/", 1)[1] for s in metrics.subjects(KG.lowerIsBetter, Literal(True))}
    said = {str(s).rsplit("/", 1)[1] for s, d in metrics.subject_objects(SKOS.definition)
            if re.search(r"lower is better|\bthe gaps? in\b", str(d))}
    assert said <= lower
    assert {"fid", "error-rate", "wer", "perplexity", "mae", "rmse", "latency"} <= lower
    assert not {"accuracy", "f1", "bleu", "psnr", "auroc", "success-rate"} & lower


def test_no_metric_names_its_opposite_among_its_aliases() -> None:
    """An alias means what its concept means: a lower-is-better metric holds no name of a quantity that is
    better higher ("energy efficiency" under energy consumption, "constraint satisfaction rate" under
    constraint violation), or the leaderboards would rank those results upside down."""
    metrics = Graph().parse(Path(__file__).resolve().parent.parent / "ontology" / "vocab" / "metrics.ttl")
    better_higher = re.compile(r"(?i)\b(?:efficiency|satisfaction|success|accuracy|speed|throughput|gain)\b")
    wrong = {(str(s).rsplit("/", 1)[1], str(alias)) for s in metrics.subjects(KG.lowerIsBetter, Literal(True))
             for alias in metrics.objects(s, SKOS.altLabel) if better_higher.search(str(alias))}
    assert not wrong
    assert {"energy-efficiency", "constraint-satisfaction-rate"} <= {
        str(s).rsplit("/", 1)[1] for s in metrics.subjects(SKOS.topConceptOf, None)}
