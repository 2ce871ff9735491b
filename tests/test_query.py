"""run_query: every saved query against the golden graph, parameters, errors, timeout, engines."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rdflib import RDF, RDFS, Graph, Literal, URIRef

from kg.errors import QueryError
from kg.namespaces import KG, RESOURCE_PREFIXES, VOCABULARY_PREFIXES, compact_iri
from kg.resolve.ids import slug
from kg.sparql.formats import parse_json
from kg.sparql.run import QueryResult, bind_value, is_update, run_query
from kg.sparql.saved import get_saved, list_saved
from kg.store.load import load_graph
from kg.store.local import add_triples, new_graph, to_memory

sys.path.insert(0, str(Path(__file__).parent))
from golden_params import GOLDEN_PARAMS  # noqa: E402

GOLDEN = Path(__file__).parent / "data" / "golden"
ID = "https://w3id.org/paperkg/id/"
XSD_INTEGER = URIRef("http://www.w3.org/2001/XMLSchema#integer")
XSD_DECIMAL = URIRef("http://www.w3.org/2001/XMLSchema#decimal")


@pytest.fixture(scope="module")
def graph():
    return load_graph(GOLDEN / "graph.ttl")


SAVED = [s.name for s in list_saved()]


def _compare(saved_name: str, result: QueryResult, expected: QueryResult) -> None:
    assert result.columns == expected.columns
    if "ORDER BY" in get_saved(saved_name).text:
        assert result.rows == expected.rows
    else:
        assert sorted(map(repr, result.rows)) == sorted(map(repr, expected.rows))


def test_at_least_twelve_saved_queries_with_descriptions():
    assert len(SAVED) >= 12
    for saved in list_saved():
        assert saved.description and saved.text.lstrip().startswith("#")


@pytest.mark.parametrize("name", SAVED)
def test_saved_query_matches_golden_result(graph, name):
    expected_file = GOLDEN / "expected" / f"{name}.json"
    assert expected_file.is_file(), f"check in the expected result of {name}"
    expected = parse_json(expected_file.read_bytes())
    result = run_query(graph, name, GOLDEN_PARAMS.get(name), timeout=None)
    assert result.kind == "select"
    assert result.rows, f"{name} should return rows on the golden graph"
    _compare(name, result, expected)


@pytest.mark.parametrize("name", SAVED)
def test_saved_query_gives_the_same_answer_on_rdflib_engine(graph, name):
    """The saved queries are portable SPARQL: rdflib's engine (the benchmark reference) agrees."""
    memory = to_memory(graph)
    ox_result = run_query(graph, name, GOLDEN_PARAMS.get(name), timeout=None)
    rdflib_result = run_query(memory, name, GOLDEN_PARAMS.get(name), timeout=None)
    _compare(name, rdflib_result, ox_result)



@pytest.fixture(scope="module")
def twins(graph):
    """The golden graph plus a twin of every labelled paper and entity: a new IRI with the same
    triples, so every label, count and value ties with another row and only IRIs tell them apart."""
    labelled = {s for s in graph.subjects(RDFS.label, None) if str(s).startswith(ID)}
    triples = list(graph)
    for s, p, o in list(triples):
        if s in labelled:
            triples.append((URIRef(f"{s}-twin"), p, o))
        if o in labelled:
            triples.append((s, p, URIRef(f"{o}-twin")))
    return sorted(triples, key=lambda t: tuple(map(str, t)))


@pytest.mark.parametrize("name", [s.name for s in list_saved() if "ORDER BY" in s.text])
def test_saved_query_order_is_total(twins, name):
    """Every ORDER BY ends in keys that make the order total (IRIs after labels), so the rows come out
    in the same order however the store was filled, and on rdflib's engine too."""
    params = GOLDEN_PARAMS.get(name)
    store = new_graph()
    add_triples(store, twins)
    expected = run_query(store, name, params, timeout=None).rows
    assert expected
    for seed in (1, 2, 3):
        shuffled = list(twins)
        random.Random(seed).shuffle(shuffled)
        reloaded = new_graph()
        add_triples(reloaded, shuffled)
        assert run_query(reloaded, name, params, timeout=None).rows == expected, seed
    assert run_query(to_memory(store), name, params, timeout=None).rows == expected



def test_saved_query_params_are_declared_and_required(graph):
    for saved in list_saved():
        assert set(saved.params) == set(GOLDEN_PARAMS.get(saved.name, {})), saved.name
    with pytest.raises(QueryError, match="needs --param entity"):
        run_query(graph, "papers-using", timeout=None)
    with pytest.raises(QueryError, match="has no parameter 'dataset'.*entity"):
        run_query(graph, "papers-using", {"entity": "EEG", "dataset": "x"}, timeout=None)


def test_entity_param_accepts_iri_prefixed_name_label_and_alias(graph):
    answers = [
        run_query(graph, "entity-aliases", {"entity": value}, timeout=None).rows
        for value in (f"{ID}method/cnn", "id:method/cnn", "method:cnn", "convolutional neural network", "CNN", "ConvNet")
    ]
    assert all(a == answers[0] for a in answers)
    assert {str(r[3]) for r in answers[0]} == {"CNN", "ConvNet"}
    assert run_query(graph, "entity-aliases", {"entity": "convnet"}, timeout=None).rows == []  # exact text only


def test_paper_param_accepts_iri_prefixed_name_label_and_title(graph):
    answers = [
        run_query(graph, "paper-proposes", {"paper": value}, timeout=None).rows
        for value in (f"{ID}paper/b1b1b1b1b1b1b1b1", "id:paper/b1b1b1b1b1b1b1b1", "paper:b1b1b1b1b1b1b1b1", "ViT", "An Image is Worth 16x16 Words")
    ]
    assert all(a == answers[0] for a in answers)
    assert [str(r[0]) for r in answers[0]] == [f"{ID}method/vit"]


def test_kinds_select_ask_construct_describe(graph):
    select = run_query(graph, "SELECT ?p WHERE { ?p a kg:Paper }", timeout=None)
    assert select.kind == "select" and select.columns == ["p"] and len(select.rows) == 8
    ask = run_query(graph, "ASK { ?p kg:usesDataset id:dataset\\/tuab }", timeout=None)
    assert ask.kind == "ask" and ask.boolean is True
    assert run_query(graph, "ASK { ?p kg:usesDataset id:dataset\\/nothing }", timeout=None).boolean is False
    assert run_query(graph, "ASK { ?p kg:usesDataset dataset:tuab }", timeout=None).boolean is True  # a kind's prefix
    construct = run_query(graph, "CONSTRUCT { ?p kg:usesDataset ?d } WHERE { ?p kg:usesDataset ?d }", timeout=None)
    assert construct.kind == "construct" and len(construct.graph) == 12
    describe = run_query(graph, "DESCRIBE id:dataset\\/tuab", timeout=None)
    assert describe.kind == "describe"
    assert (URIRef(f"{ID}dataset/tuab"), URIRef("http://www.w3.org/2000/01/rdf-schema#label"), Literal("TUAB")) in describe.graph


def test_unbound_values_are_none(graph):
    result = run_query(graph, "SELECT ?p ?t WHERE { ?p a kg:Paper OPTIONAL { ?p dcterms:title ?t } }", timeout=None)
    assert sum(1 for _, t in result.rows if t is None) == 2


@pytest.mark.parametrize("isolate", [False, True])
def test_same_result_in_thread_worker_process_and_directly(graph, isolate):
    with_worker = run_query(graph, "top-methods", timeout=30, isolate=isolate)
    in_process = run_query(graph, "top-methods", timeout=None)
    assert with_worker.rows == in_process.rows and with_worker.columns == in_process.columns


def test_bind_value_types():
    assert bind_value("https://example.org/x") == URIRef("https://example.org/x")
    assert bind_value("id:method/bert") == URIRef(f"{ID}method/bert")
    assert bind_value("12") == Literal("12", datatype=XSD_INTEGER)
    assert str(bind_value("0012")) == "0012"  # lexical form kept
    assert bind_value("3.5") == Literal("3.5", datatype=XSD_DECIMAL)
    assert bind_value("EEG") == Literal("EEG")
    assert bind_value("unknown:thing") == Literal("unknown:thing")


@pytest.mark.parametrize("value", ['x" } ; DROP ALL ; SELECT * { "', "?s ?p ?o", "> } UNION { ?s ?p ?o"])
def test_params_are_bound_not_pasted(graph, value):
    result = run_query(graph, "papers-using", {"entity": value}, timeout=None)
    assert result.rows == []
    assert len(graph) == 557


def test_inline_param_must_name_a_variable(graph):
    with pytest.raises(QueryError, match=r"no variable \?nope"):
        run_query(graph, "SELECT ?p WHERE { ?p a kg:Paper }", {"nope": "1"}, timeout=None)
    result = run_query(graph, "SELECT ?p ?y WHERE { ?p kg:year ?y }", {"y": "2021"}, timeout=None)
    assert result.rows == []  # 2021 is an xsd:integer, the years are xsd:gYear
    result = run_query(graph, "SELECT ?p ?l WHERE { ?p rdfs:label ?l }", {"l": "BERT"}, timeout=None)
    assert sorted(str(r[0]) for r in result.rows) == [f"{ID}method/bert", f"{ID}paper/c1c1c1c1c1c1c1c1"]


def test_syntax_error_has_line_and_column(graph):
    with pytest.raises(QueryError, match=r"line 2, column \d+") as info:
        run_query(graph, "SELECT ?s\nWHERE { ?s ?p ?o } LIMIT x\n", timeout=None)
    assert info.value.exit_code == 2
    with pytest.raises(QueryError, match="undeclared prefix"):
        run_query(graph, "SELECT * WHERE { ?s nope:p ?o }", timeout=None)


def test_syntax_error_line_and_column_on_rdflib_engine(graph):
    with pytest.raises(QueryError, match=r"line 2, column \d+"):
        run_query(to_memory(graph), "SELECT ?s\nWHERE { ?s ?p ?o } LIMIT x\n", timeout=None)


@pytest.mark.parametrize("name", ["no-such-query", "nosuch"])
def test_unknown_saved_name_lists_known_names(graph, name):
    with pytest.raises(QueryError, match=f"unknown saved query '{name}'.*datasets-shared.*type-counts"):
        run_query(graph, name, timeout=None)
    with pytest.raises(QueryError, match="syntax error"):
        run_query(graph, "select", timeout=None)  # a query form alone is SPARQL, and wrong


def test_rq_file(graph, tmp_path):
    path = tmp_path / "q.rq"
    path.write_text("SELECT (COUNT(*) AS ?n) WHERE { ?p a kg:Paper }", encoding="utf-8")
    assert int(run_query(graph, str(path), timeout=None).rows[0][0]) == 8
    with pytest.raises(QueryError, match="does not exist"):
        run_query(graph, str(tmp_path / "missing.rq"), timeout=None)


@pytest.mark.parametrize("text, update", [
    ("INSERT DATA { <a:b> <a:c> <a:d> }", True),
    ("PREFIX x: <http://x/> # comment\n delete where { ?s x:p ?o }", True),
    ("  LOAD <http://example.org/x>", True),
    ("DROP ALL", True),
    ("# INSERT\nSELECT * WHERE { ?s ?p ?o }", False),
    ("PREFIX insert: <http://x/> SELECT * WHERE { ?s insert:p ?o }", False),
    ("ASK { ?s ?p ?o }", False),
])
def test_is_update(text, update):
    assert is_update(text) is update


def test_update_refused_unless_allowed():
    graph = load_graph(GOLDEN / "graph.ttl")
    with pytest.raises(QueryError, match="refused"):
        run_query(graph, "DELETE WHERE { ?s kg:venue ?v }", timeout=None)
    assert len(graph) == 557
    result = run_query(graph, "DELETE WHERE { ?s kg:venue ?v }", allow_update=True)
    assert result.kind == "update"
    assert len(graph) == 557 - 7


RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n2 ?o }"
SLOW = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g kg:usesMethod ?i }"  # 5.5 M rows: a second or two


def test_timeout_kills_a_runaway_query_in_an_isolated_worker(graph):
    with pytest.raises(QueryError, match="timeout"):
        run_query(graph, RUNAWAY, timeout=0.5, isolate=True)
    assert run_query(graph, "ASK { ?s ?p ?o }", timeout=5, isolate=True).boolean is True


def test_timeout_stops_waiting_for_a_slow_query_in_a_thread(graph):
    with pytest.raises(QueryError, match="stopped after the 0.1 s timeout"):
        run_query(graph, SLOW, timeout=0.1)
    assert run_query(graph, "ASK { ?s ?p ?o }", timeout=5).boolean is True


@pytest.mark.parametrize("isolate", [False, True])
def test_errors_inside_the_worker_come_back_as_query_errors(graph, isolate):
    with pytest.raises(QueryError, match="syntax error"):
        run_query(graph, "SELECT WHERE", timeout=5, isolate=isolate)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 40), st.sampled_from("abcd")), min_size=0, max_size=45))
@example([(40 - k, "abcd"[k % 4]) for k in range(30)])  # distinct counts: the 25th is the cut
@example([(3, "b")] * 20 + [(2, "a")] * 10)  # a tie across the 25th place
@example([(1, "a"), (2, "b")])  # fewer than 25 methods
def test_top_methods_is_the_top_25_by_papers_then_label(methods):
    """top-methods keeps only the methods that can make the cut before labelling and ordering them;
    whatever the ties at the 25th place and however few methods there are, its answer is the plain
    ranking by (papers descending, label, IRI)."""
    g = new_graph()
    memory = Graph()
    expected = []
    for k, (papers, label) in enumerate(methods):
        method = URIRef(f"{ID}method/m{k:02d}")
        for target in (g, memory):
            target.add((method, RDF.type, KG.Method))
            target.add((method, RDFS.label, Literal(label)))
            for p in range(papers):
                target.add((URIRef(f"{ID}paper/p{p}"), KG.usesMethod, method))
        expected.append((-papers, label, str(method)))
    want = [(URIRef(iri), Literal(label), Literal(-neg)) for neg, label, iri in sorted(expected)[:25]]
    for target in (g, memory):
        rows = [tuple(r) for r in run_query(target, "top-methods", timeout=None).rows]
        assert [(m, lab, int(n)) for m, lab, n in rows] == [(m, lab, int(n)) for m, lab, n in want]



@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7), st.sets(st.integers(0, 3), max_size=3), st.sets(st.integers(0, 4), max_size=3)),
                max_size=25))
def test_tasks_per_modality_counts_papers_per_pair(papers):
    """tasks-per-modality gives, per (modality, task) pair, the number of papers with both, ordered by
    modality label, count descending and task label, IRIs breaking ties (task labels repeat here)."""
    g = new_graph()
    memory = Graph()
    pairs: dict[tuple[int, int], set[int]] = {}
    for k, (_, modalities, tasks) in enumerate(papers):
        paper = URIRef(f"{ID}paper/p{k:02d}")
        for target in (g, memory):
            for m in modalities:
                target.add((paper, KG.hasModality, URIRef(f"{ID}modality/m{m}")))
                target.add((URIRef(f"{ID}modality/m{m}"), RDFS.label, Literal(f"modality {m}")))
            for t in tasks:
                target.add((paper, KG.addressesTask, URIRef(f"{ID}task/t{t}")))
                target.add((URIRef(f"{ID}task/t{t}"), RDFS.label, Literal(f"task {t % 3}")))  # shared labels
        for m in modalities:
            for t in tasks:
                pairs.setdefault((m, t), set()).add(k)
    want = sorted(((f"modality {m}", -len(ps), f"task {t % 3}", t) for (m, t), ps in pairs.items()))
    for target in (g, memory):
        rows = run_query(target, "tasks-per-modality", timeout=None).rows
        got = [(str(ml), -int(n), str(tl), int(str(task).rsplit("/t", 1)[1])) for _, ml, task, tl, n in rows]
        assert got == want


@pytest.mark.parametrize("name", ["top-methods", "top-datasets", "tasks-per-modality", "datasets-shared",
                                  "methods-shared", "modality-pairs", "papers-per-year"])
def test_a_ranking_of_nothing_is_empty_on_both_engines(name):
    """With labelled entities but no links to count, a ranking has no rows: rdflib, unlike Oxigraph,
    answers one empty group for a GROUP BY over nothing unless the query filters it out."""
    g, memory = new_graph(), Graph()
    for target in (g, memory):
        target.add((URIRef(f"{ID}task/t0"), RDFS.label, Literal("task 0")))
        target.add((URIRef(f"{ID}method/m0"), RDFS.label, Literal("method 0")))
        assert run_query(target, name, timeout=None).rows == []

def test_type_counts_lists_every_class_with_zero_for_the_absent():
    g = new_graph()
    g.add((URIRef(f"{ID}paper/p1"), RDF.type, KG.Paper))
    g.add((URIRef(f"{ID}paper/p2"), RDF.type, KG.Paper))
    counts = {str(t): int(c) for t, c in run_query(g, "type-counts", timeout=None).rows}
    assert counts.pop(str(KG.Paper)) == 2
    assert len(counts) == 8 and set(counts.values()) == {0}, counts


@given(st.sampled_from(sorted(RESOURCE_PREFIXES)), st.text(min_size=1, max_size=40),
       st.sampled_from(["", "/s3", "/m10-25-method"]))
def test_compact_iri_takes_the_kind_prefix_and_binds_back(kind, name, part):
    local = slug(name) + part  # a paper's parts keep their slash after the prefix
    iri = f"{ID}{kind}/{local}"
    assert compact_iri(iri) == f"{kind}:{local}"  # the longest namespace, not id:
    assert bind_value(compact_iri(iri)) == URIRef(iri)
    assert compact_iri(iri, VOCABULARY_PREFIXES) == f"id:{kind}/{local}"


RANKED = """
@prefix kg: <https://w3id.org/paperkg/ontology#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix id: <https://w3id.org/paperkg/id/> .
@prefix dataset: <https://w3id.org/paperkg/id/dataset/> .
@prefix metric: <https://w3id.org/paperkg/id/metric/> .
@prefix paper: <https://w3id.org/paperkg/id/paper/> .
dataset:imagenet a kg:Dataset ; rdfs:label "ImageNet" .
metric:fid a kg:Metric ; rdfs:label "FID" ; kg:lowerIsBetter true .
metric:accuracy a kg:Metric ; rdfs:label "accuracy" .
paper:a a kg:Paper ; rdfs:label "A" ; kg:reportsResult id:r1 , id:r3 .
paper:b a kg:Paper ; rdfs:label "B" ; kg:reportsResult id:r2 , id:r4 , id:r5 .
id:r5 kg:dataset dataset:imagenet ; kg:metric metric:fid ; kg:value "state of the art" .
id:r1 kg:dataset dataset:imagenet ; kg:metric metric:fid ; kg:value "1.18" ; kg:numericValue 1.18 .
id:r2 kg:dataset dataset:imagenet ; kg:metric metric:fid ; kg:value "1.13" ; kg:numericValue 1.13 .
id:r3 kg:dataset dataset:imagenet ; kg:metric metric:accuracy ; kg:value "80.1%" ; kg:numericValue 80.1 .
id:r4 kg:dataset dataset:imagenet ; kg:metric metric:accuracy ; kg:value "82.3%" ; kg:numericValue 82.3 .
"""


@pytest.mark.parametrize("engine", ["oxigraph", "rdflib"])
@pytest.mark.parametrize("name, params", [("leaderboard", {}), ("results-on-dataset", {"entity": "ImageNet"})])
def test_leaderboards_rank_a_lower_is_better_metric_lowest_first(engine: str, name: str, params: dict) -> None:
    g = new_graph() if engine == "oxigraph" else Graph()
    g.parse(data=RANKED, format="turtle")
    result = run_query(g, name, params=params)
    col = {c: i for i, c in enumerate(result.columns)}
    ranked = [(str(r[col["metricLabel"]]), str(r[col["value"]])) for r in result.rows]
    numbered = [r for r in ranked if r[1] != "state of the art"]  # a value without a number ranks anywhere
    assert numbered == [("FID", "1.13"), ("FID", "1.18"), ("accuracy", "82.3%"), ("accuracy", "80.1%")]
    assert ("FID", "state of the art") in ranked


@settings(max_examples=200, deadline=None)
@given(prefix=st.sampled_from(sorted(RESOURCE_PREFIXES)),
       local=st.text(st.characters(blacklist_categories=("Cs", "Z", "Cc")), min_size=1, max_size=30))
def test_expand_curie_inverts_compact_iri(prefix: str, local: str) -> None:
    from kg.namespaces import PREFIXES, expand_curie

    iri = PREFIXES[prefix] + local
    assert expand_curie(compact_iri(iri)) == iri
    assert expand_curie(f"nosuchprefix:{local}") is None
