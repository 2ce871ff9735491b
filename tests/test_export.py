"""kg.rdf.formats: every export format round-trips; Turtle is deterministic, pretty and accepted by rapper."""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.compare import isomorphic

from kg.errors import GraphError
from kg.namespaces import KG, PREFIXES, RESOURCE_PREFIXES, VOCABULARY_PREFIXES
from kg.rdf.formats import FORMATS, format_for_path, get_format, serialize, write_graph
from kg.store.io import atomic_open, atomic_write
from kg.store.load import load_graph
from kg.store.local import add_triples, new_graph, to_memory

GOLDEN = Path(__file__).parent / "data" / "golden" / "graph.ttl"
RDFLIB_FORMAT = {"turtle": "turtle", "nt": "nt", "nquads": "nquads", "trig": "trig", "jsonld": "json-ld",
                 "rdfxml": "xml"}


@pytest.fixture(scope="module")
def golden() -> Graph:
    return load_graph(GOLDEN)


@pytest.fixture(scope="module")
def reference() -> Graph:
    return Graph().parse(GOLDEN)


def _with_blank_nodes() -> Graph:
    graph = new_graph()
    paper = URIRef("https://w3id.org/paperkg/id/paper/0000000000000001")
    result, other = BNode(), BNode()
    add_triples(graph, [(paper, KG.reportsResult, result), (result, KG.value, Literal("91.2%")),
                        (result, KG.unit, Literal("percent")), (paper, KG.reportsResult, other),
                        (other, KG.value, Literal("7")), (paper, KG.venue, Literal("Tab\tand\nnewline \"q\" ."))])
    return graph


def _parse_with_rdflib(data: bytes, fmt: str) -> Graph:
    if fmt in ("nquads", "trig"):
        from rdflib import Dataset

        dataset = Dataset()
        dataset.parse(data=data, format=RDFLIB_FORMAT[fmt])
        merged = Graph()
        for s, p, o, _ in dataset.quads((None, None, None, None)):
            merged.add((s, p, o))
        return merged
    return Graph().parse(data=data, format=RDFLIB_FORMAT[fmt])


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_every_format_round_trips_to_an_isomorphic_graph(tmp_path, golden, reference, fmt):
    path = write_graph(golden, tmp_path / f"kg.{FORMATS[fmt].extensions[0]}")
    assert isomorphic(load_graph(path), reference)  # read back by Oxigraph
    assert isomorphic(_parse_with_rdflib(path.read_bytes(), fmt), reference)  # and by rdflib's parsers


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_blank_nodes_and_escapes_round_trip(tmp_path, fmt):
    graph = _with_blank_nodes()
    path = write_graph(graph, tmp_path / f"kg.{FORMATS[fmt].extensions[0]}")
    assert isomorphic(load_graph(path), to_memory(graph))


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_output_is_deterministic(golden, fmt):
    """Same graph, built in another order or another store, gives byte-identical output."""
    triples = list(golden)
    random.Random(7).shuffle(triples)
    shuffled = new_graph()
    add_triples(shuffled, triples)
    first = serialize(golden, fmt)
    assert serialize(shuffled, fmt) == first
    assert serialize(to_memory(golden), fmt) == first


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_blank_node_output_is_deterministic(fmt):
    assert serialize(_with_blank_nodes(), fmt) == serialize(_with_blank_nodes(), fmt)


def _iri(name: str) -> str:
    """The IRI a Turtle subject (``prefix:local``, slashes escaped) names."""
    prefix, local = name.split(":", 1)
    return PREFIXES[prefix] + local.replace("\\", "")


def test_turtle_is_pretty(golden):
    text = serialize(golden, "turtle").decode("utf-8")
    lines = text.splitlines()
    header = [f"@prefix {p}: <{ns}> ." for p, ns in PREFIXES.items()]
    assert lines[: len(header)] == header and lines[len(header)] == ""
    blocks = text[len("\n".join(header)) + 2:].rstrip("\n").split("\n\n")
    subjects = [block.split(" ", 1)[0] for block in blocks]
    assert len(subjects) == len(set(subjects))  # one block per subject
    assert subjects == sorted(subjects, key=_iri)  # in IRI order (id:source\/... sorts as .../id/source/...)
    paper = next(b for b in blocks if b.startswith("paper:c1c1c1c1c1c1c1c1 "))
    assert paper.startswith("paper:c1c1c1c1c1c1c1c1 a kg:Paper ;")  # rdf:type first
    predicates = [line.split()[0] for line in paper.splitlines()[1:]]
    expand = {f"{p}:": ns for p, ns in PREFIXES.items()}
    iris = [expand[p.split(":")[0] + ":"] + p.split(":", 1)[1] for p in predicates]
    assert iris == sorted(iris)  # then predicates in IRI order
    assert "kg:usesMetric metric:accuracy , metric:f1-score ;" in paper  # objects grouped and sorted
    # each kind of resource has its prefix (dataset:tuab, not id:dataset\\/tuab): only the parts of a paper,
    # such as its sentences (paper:KEY\\/s0), keep an escaped "/"
    escaped = {token.rstrip(";,.") for token in text.split() if "\\/" in token}
    assert escaped and all(re.fullmatch(r"paper:[0-9a-f]{16}\\/[a-z0-9-]+", token) for token in escaped), escaped


def test_turtle_is_accepted_by_rapper(tmp_path, golden):
    rapper = shutil.which("rapper")
    if rapper is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("rapper (Debian package raptor2-utils) is required under CI; install it with ./dev.py setup")
        pytest.skip("rapper not installed (apt-get install raptor2-utils)")
    for name, graph in (("golden", golden), ("blank", _with_blank_nodes())):
        path = write_graph(graph, tmp_path / f"{name}.ttl")
        done = subprocess.run([rapper, "-i", "turtle", "-o", "ntriples", str(path)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert f"returned {len(graph)} triples" in done.stderr
        reparsed = Graph().parse(data=done.stdout, format="nt")
        assert isomorphic(reparsed, to_memory(graph))


def test_jsonld_has_a_context_mapping_kg_terms(golden):
    document = json.loads(serialize(golden, "jsonld"))
    context = document["@context"]
    assert context["kg"] == str(KG)
    assert all(context[p] == ns for p, ns in VOCABULARY_PREFIXES.items())
    # JSON-LD's compact IRIs may hold "/", so it needs no prefix per kind; kg:dataset keeps its bare term
    assert all(context.get(k) != ns for k, ns in RESOURCE_PREFIXES.items()) and context["dataset"] == "kg:dataset"
    assert context["usesMethod"] == "kg:usesMethod" and context["Paper"] == "kg:Paper"
    bert = next(node for node in document["@graph"] if node["@id"] == "id:paper/c1c1c1c1c1c1c1c1")
    assert bert["@type"] == ["Paper"]
    assert {"@id": "id:method/bert"} in bert["usesMethod"]


def test_format_registry():
    assert set(FORMATS) == {"turtle", "nt", "nquads", "trig", "jsonld", "rdfxml"}
    assert get_format("ttl").name == "turtle" and get_format("json-ld").name == "jsonld"
    assert format_for_path("x/kg.nt").name == "nt" and format_for_path("kg.rdf").name == "rdfxml"
    assert all(f.media_type and f.extensions for f in FORMATS.values())
    with pytest.raises(GraphError, match="unknown RDF format 'yaml'"):
        get_format("yaml")
    with pytest.raises(GraphError, match="cannot tell the RDF format"):
        format_for_path("kg.csv")


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_empty_graph_serializes(tmp_path, fmt):
    """An empty graph is no bytes in the line formats, and a document of no statements in the others."""
    path = write_graph(new_graph(), tmp_path / f"empty.{FORMATS[fmt].extensions[0]}")
    data = path.read_bytes()
    if fmt in ("nt", "nquads"):
        assert data == b""
    else:
        assert data and len(load_graph(path)) == 0
        assert isomorphic(_parse_with_rdflib(data, fmt), Graph())


def test_atomic_write_replaces_whole_file(tmp_path):
    path = tmp_path / "out" / "kg.ttl"
    atomic_write(path, b"first")
    atomic_write(path, b"second")
    assert path.read_bytes() == b"second"
    assert sorted(p.name for p in path.parent.iterdir()) == ["kg.ttl"]


def test_failed_write_leaves_previous_file_untouched(tmp_path, golden, monkeypatch):
    path = tmp_path / "kg.ttl"
    path.write_bytes(b"previous")
    with pytest.raises(RuntimeError):
        with atomic_open(path) as handle:
            handle.write(b"half of a new fi")
            raise RuntimeError("disk on fire")
    assert path.read_bytes() == b"previous"

    def broken(graph, fmt):
        raise ValueError("serializer failed")

    monkeypatch.setitem(FORMATS, "turtle", FORMATS["turtle"].__class__(
        "turtle", ("ttl",), "text/turtle", FORMATS["turtle"].ox_format, broken))
    with pytest.raises(GraphError, match="serializer failed"):
        write_graph(golden, path)
    assert path.read_bytes() == b"previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kg.ttl"]
