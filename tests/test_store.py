"""kg.store.local: Oxigraph-backed graphs, loading every format, persistent stores and their errors."""
from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.compare import isomorphic

from kg.errors import GraphError
from kg.namespaces import ID, KG, PREFIXES, RDF, RDFS
from kg.store.load import graph_from_options, load_graph
from kg.store.local import (
    add_triples,
    from_ox,
    new_graph,
    open_store,
    oxigraph_of,
    save_to_store,
    store_path,
    to_memory,
)

GOLDEN = Path(__file__).parent / "data" / "golden" / "graph.ttl"


@pytest.fixture(scope="module")
def reference() -> Graph:
    return Graph().parse(GOLDEN)  # rdflib's own parser, independent of Oxigraph


def test_new_graph_is_oxigraph_backed_with_prefixes():
    graph = new_graph()
    assert oxigraph_of(graph) is not None
    bound = {prefix: str(ns) for prefix, ns in graph.namespaces()}
    assert all(bound.get(prefix) == ns for prefix, ns in PREFIXES.items())
    assert len(graph) == 0


def test_add_and_add_triples():
    graph = new_graph()
    paper = ID["paper/0000000000000001"]
    graph.add((paper, RDF.type, KG.Paper))
    add_triples(graph, [(paper, RDFS.label, Literal("A")), (paper, KG.usesMethod, ID["method/x"])])
    assert len(graph) == 3
    assert (paper, RDFS.label, Literal("A")) in graph
    assert set(graph.objects(paper, KG.usesMethod)) == {ID["method/x"]}


def test_load_graph_matches_rdflib_parse(reference):
    graph = load_graph(GOLDEN)
    assert oxigraph_of(graph) is not None
    assert len(graph) == len(reference) == 557
    assert isomorphic(graph, reference)
    # plain strings read back as rdflib makes them (no explicit xsd:string)
    label = graph.value(ID["paper/c1c1c1c1c1c1c1c1"], RDFS.label)
    assert label == Literal("BERT") and label.datatype is None


@pytest.mark.parametrize("fmt, suffix", [("nt", ".nt"), ("nquads", ".nq"), ("trig", ".trig"),
                                          ("json-ld", ".jsonld"), ("xml", ".rdf"), ("turtle", ".ttl")])
def test_load_graph_reads_every_format(tmp_path, reference, fmt, suffix):
    path = tmp_path / f"g{suffix}"
    source = reference
    if fmt in ("nquads", "trig"):  # quad formats need a dataset; the triples go in a named graph
        from rdflib import Dataset

        source = Dataset()
        named = source.graph(URIRef("http://example.org/g"))
        for triple in reference:
            named.add(triple)
    path.write_bytes(source.serialize(format=fmt, encoding="utf-8"))
    assert isomorphic(load_graph(path), reference)


def test_quads_are_merged_into_the_default_graph(tmp_path):
    path = tmp_path / "g.nq"
    path.write_text('<http://e/a> <http://e/p> "1" <http://e/g1> .\n<http://e/b> <http://e/p> "2" .\n', encoding="utf-8")
    graph = load_graph(path)
    assert len(graph) == 2


def test_missing_graph_says_how_to_build(tmp_path):
    with pytest.raises(GraphError, match=r"does not exist.*kg build seeds/ --output output/"):
        load_graph(tmp_path / "kg.ttl")


def test_empty_graph_file(tmp_path):
    path = tmp_path / "kg.ttl"
    path.write_text("", encoding="utf-8")
    with pytest.raises(GraphError, match="is empty"):
        load_graph(path)


def test_malformed_graph_names_file_and_line(tmp_path):
    path = tmp_path / "bad.ttl"
    path.write_text('@prefix x: <http://x/> .\nx:a x:b x:c .\nx:a x:b "open .\n', encoding="utf-8")
    with pytest.raises(GraphError, match=r"bad\.ttl.*line 3"):
        load_graph(path)


def test_unknown_extension(tmp_path):
    path = tmp_path / "kg.csv"
    path.write_text("a,b\n", encoding="utf-8")
    with pytest.raises(GraphError, match="unknown RDF file extension"):
        load_graph(path)


def test_save_and_open_store_round_trip(tmp_path, reference):
    directory = save_to_store(load_graph(GOLDEN), tmp_path / "store")
    graph = open_store(directory, read_only=True)
    assert store_path(graph) == directory
    assert isomorphic(graph, reference)
    del graph
    # load_graph opens a directory as a store
    assert len(load_graph(directory)) == 557


def test_save_to_store_replaces_previous_content(tmp_path):
    directory = tmp_path / "store"
    save_to_store(load_graph(GOLDEN), directory)
    small = new_graph()
    small.add((URIRef("http://e/a"), URIRef("http://e/p"), Literal("x")))
    save_to_store(small, directory)
    assert len(open_store(directory, read_only=True)) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["store"]  # no temporary or old directories left


def test_save_to_store_refuses_a_non_store_directory(tmp_path):
    (tmp_path / "notes.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(GraphError, match="not an Oxigraph store"):
        save_to_store(new_graph(), tmp_path)
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "keep me"


def test_open_missing_store_says_how_to_build(tmp_path):
    with pytest.raises(GraphError, match=r"store .* does not exist.*kg build"):
        open_store(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(GraphError, match="is not an Oxigraph store"):
        open_store(tmp_path / "empty")


def test_open_store_create_and_write(tmp_path):
    graph = open_store(tmp_path / "new", create=True)
    graph.add((URIRef("http://e/a"), URIRef("http://e/p"), BNode()))
    assert len(graph) == 1


def test_graph_from_options(tmp_path):
    with pytest.raises(GraphError, match="either --graph FILE or --store"):
        graph_from_options(GOLDEN, str(tmp_path))
    assert len(graph_from_options(GOLDEN, None)) == 557
    with pytest.raises(GraphError, match="kg build"):
        graph_from_options(None, None, default=tmp_path / "output" / "kg.ttl")
    directory = save_to_store(load_graph(GOLDEN), tmp_path / "store")
    assert len(graph_from_options(None, str(directory))) == 557


def test_to_memory_copy_is_isomorphic(reference):
    memory = to_memory(load_graph(GOLDEN))
    assert oxigraph_of(memory) is None
    assert isomorphic(memory, reference)


# from_ox builds common terms without rdflib's constructors; they must not be told apart from the
# constructors' terms in any attribute, canonical lexical form or not.
_XSD = "http://www.w3.org/2001/XMLSchema#"
_DATATYPES = [_XSD + name for name in ("string", "integer", "decimal", "double", "boolean", "gYear", "date",
                                       "anyURI", "normalizedString", "token")] + ["https://example.org/dt"]
_LEXICAL = st.one_of(st.from_regex(r"[+-]?[0-9]{0,4}(\.[0-9]{0,3})?(e[0-9])?", fullmatch=True),
                     st.text(max_size=12))


def _reference(term: ox.NamedNode | ox.Literal) -> URIRef | Literal:
    """The term as rdflib's constructors make it."""
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if term.language:
        return Literal(term.value, lang=term.language)
    datatype = term.datatype.value
    return Literal(term.value) if datatype == _XSD + "string" else Literal(term.value, datatype=URIRef(datatype))


def _same_term(made: object, expected: URIRef | Literal) -> None:
    assert type(made) is type(expected)
    assert str(made) == str(expected) and made == expected and hash(made) == hash(expected)
    assert made.n3() == expected.n3()
    if isinstance(expected, Literal):
        assert (made.language, made.datatype, made.ill_typed) == (expected.language, expected.datatype,
                                                                  expected.ill_typed)
        assert type(made.value) is type(expected.value) and made.value == expected.value
        assert made.eq(expected) and made.normalize() == expected.normalize()


@pytest.mark.filterwarnings("ignore::UserWarning")  # rdflib warns about the ill-typed inputs
@given(lexical=_LEXICAL, datatype=st.sampled_from(_DATATYPES))
@example(lexical="007", datatype=_XSD + "integer")
@example(lexical="-0", datatype=_XSD + "integer")
@example(lexical="-0", datatype=_XSD + "decimal")
@example(lexical="2.80", datatype=_XSD + "decimal")
@example(lexical=".5", datatype=_XSD + "decimal")
@example(lexical="  a  b ", datatype=_XSD + "token")
@example(lexical="2022", datatype=_XSD + "gYear")
def test_from_ox_typed_literals_equal_rdflibs(lexical, datatype):
    term = ox.Literal(lexical, datatype=ox.NamedNode(datatype))
    _same_term(from_ox(term), _reference(term))


@given(lexical=st.text(max_size=20), language=st.sampled_from(["", "en", "en-gb", "de"]))
def test_from_ox_strings_and_iris_equal_rdflibs(lexical, language):
    term = ox.Literal(lexical, language=language) if language else ox.Literal(lexical)
    _same_term(from_ox(term), _reference(term))
    iri = ox.NamedNode("https://w3id.org/paperkg/id/method/" + lexical.encode().hex())
    _same_term(from_ox(iri), _reference(iri))


def test_from_ox_other_terms():
    assert isinstance(from_ox(ox.BlankNode("b1")), BNode) and from_ox(ox.BlankNode("b1")) == BNode("b1")
    assert from_ox(None) is None
