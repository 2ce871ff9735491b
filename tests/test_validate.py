"""SHACL validation against ontology/shapes.ttl: the golden graph conforms, broken copies do not."""
from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import DCTERMS, Literal

from kg.errors import OntologyError
from kg.namespaces import ID, KG, SKOS
from kg.rdf.validate import validate_graph
from kg.store.load import load_graph

GOLDEN = Path(__file__).parent / "data" / "golden" / "graph.ttl"
BERT = ID["paper/c1c1c1c1c1c1c1c1"]


def test_golden_graph_conforms():
    report = validate_graph(load_graph(GOLDEN))
    assert report.conforms, [v.message for v in report.violations]
    assert report.violations == []


def test_missing_abstract_is_a_violation_on_that_paper():
    graph = load_graph(GOLDEN)
    graph.remove((BERT, DCTERMS.abstract, None))
    report = validate_graph(graph)
    assert not report.conforms
    assert [(v.focus, v.path) for v in report.violations] == [(BERT, DCTERMS.abstract)]
    assert report.violations[0].severity == "Violation"
    assert "abstract" in report.violations[0].message


def test_dataset_link_to_a_method_is_a_violation():
    graph = load_graph(GOLDEN)
    graph.add((BERT, KG.usesDataset, ID["method/lstm"]))
    report = validate_graph(graph)
    assert not report.conforms
    assert ID["method/lstm"] in {v.focus for v in report.violations}


def test_tagged_alias_is_a_violation():
    graph = load_graph(GOLDEN)
    graph.add((ID["method/bert"], SKOS.altLabel, Literal("BERT-base", lang="en")))
    report = validate_graph(graph)
    assert {(v.focus, v.path) for v in report.violations} == {(ID["method/bert"], SKOS.altLabel)}


def test_malformed_shapes_file(tmp_path):
    with pytest.raises(OntologyError, match="cannot parse"):
        (tmp_path / "shapes.ttl").write_text("not turtle at all", encoding="utf-8")
        validate_graph(load_graph(GOLDEN), shapes=tmp_path / "shapes.ttl")
    with pytest.raises(OntologyError, match="fix the Turtle, or leave out --shapes"):
        validate_graph(load_graph(GOLDEN), shapes=tmp_path / "shapes.ttl")


@pytest.mark.parametrize("text", ["", "@prefix ex: <urn:ex:> .\nex:a ex:b ex:c .\n"], ids=["empty", "no-shape"])
def test_a_shapes_file_without_shapes_is_refused(tmp_path, text):
    """It would check nothing, and say the graph conforms."""
    (tmp_path / "shapes.ttl").write_text(text, encoding="utf-8")
    with pytest.raises(OntologyError, match="holds no SHACL shape"):
        validate_graph(load_graph(GOLDEN), shapes=tmp_path / "shapes.ttl")


def test_a_shape_known_by_its_target_alone_is_used(tmp_path):
    """A shape need not be typed sh:NodeShape: a target and a property are enough."""
    (tmp_path / "shapes.ttl").write_text(
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "<urn:s> sh:targetSubjectsOf rdfs:label ; sh:property [ sh:path rdfs:label ; sh:minCount 5 ] .\n",
        encoding="utf-8")
    report = validate_graph(load_graph(GOLDEN), shapes=tmp_path / "shapes.ttl")
    assert not report.conforms and report.violations
