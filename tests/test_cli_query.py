"""kg query / kg export / kg validate through click's CliRunner: every format and error path."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pyoxigraph as ox
import pytest
from click.testing import CliRunner
from rdflib import Graph
from rdflib.compare import isomorphic

from kg.cli import cli
from kg.rdf.formats import FORMATS
from kg.sparql.saved import list_saved
from kg.store.load import load_graph
from kg.store.local import open_store, save_to_store

sys.path.insert(0, str(Path(__file__).parent))
from golden_params import GOLDEN_PARAMS  # noqa: E402

GOLDEN = Path(__file__).parent / "data" / "golden" / "graph.ttl"
G = ["--graph", str(GOLDEN)]
SELECT = "SELECT ?p ?l WHERE { ?p a kg:Paper ; rdfs:label ?l } ORDER BY ?l"
SLOW = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g kg:usesMethod ?i }"  # a second or two


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str, input: str | None = None):
    return runner.invoke(cli, list(args), input=input, catch_exceptions=False)


def test_list_shows_every_saved_query_and_its_params(runner):
    result = run(runner, "query", "--list")
    assert result.exit_code == 0
    for saved in list_saved():
        assert saved.name in result.output and saved.description in result.output
    assert "--param entity=" in result.output and "--param paper=" in result.output


def test_table_is_the_default(runner):
    result = run(runner, "query", *G, SELECT)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["p", "l"] and set(lines[1]) <= {"-", " "}
    assert lines[2].split()[:2] == ["paper:c1c1c1c1c1c1c1c1", "BERT"]
    assert lines[-1] == "(8 rows)"


@pytest.mark.parametrize("fmt, parser", [("json", ox.QueryResultsFormat.JSON), ("xml", ox.QueryResultsFormat.XML),
                                         ("tsv", ox.QueryResultsFormat.TSV)])
def test_sparql_results_formats_parse_back(runner, fmt, parser):
    result = run(runner, "query", *G, SELECT, "--format", fmt)
    assert result.exit_code == 0
    solutions = list(ox.parse_query_results(result.output_bytes, parser))
    assert [s["l"].value for s in solutions] == ["BERT", "BIOT", "ECG arrhythmia LSTM", "LaBraM",
                                                 "Multimodal transformer", "ResNet", "SpeechBench", "ViT"]


def test_csv(runner):
    result = run(runner, "query", *G, SELECT, "--format", "csv")
    assert result.exit_code == 0
    rows = result.output_bytes.decode().split("\r\n")
    assert rows[0] == "p,l" and rows[1] == "https://w3id.org/paperkg/id/paper/c1c1c1c1c1c1c1c1,BERT"
    assert len([r for r in rows if r]) == 9


@pytest.mark.parametrize("fmt", ["turtle", "nt"])
def test_construct_as_turtle_or_ntriples(runner, fmt):
    query = "CONSTRUCT { ?p kg:usesDataset ?d } WHERE { ?p kg:usesDataset ?d }"
    result = run(runner, "query", *G, query, "--format", fmt)
    assert result.exit_code == 0
    graph = Graph().parse(data=result.output, format=fmt)
    assert len(graph) == 12


def test_describe_defaults_to_turtle(runner):
    result = run(runner, "query", *G, "DESCRIBE id:dataset\\/tuab")
    assert result.exit_code == 0
    assert result.output.startswith("@prefix kg:") and '"TUAB"' in result.output


def test_tabular_format_for_a_graph_result_is_an_error(runner):
    result = run(runner, "query", *G, "CONSTRUCT WHERE { ?s a kg:Paper }", "--format", "csv")
    assert result.exit_code == 2 and "cannot write a CONSTRUCT result" in result.output


def test_unknown_format(runner):
    result = run(runner, "query", *G, SELECT, "--format", "yaml")
    assert result.exit_code == 2 and "unknown result format 'yaml'" in result.output


@pytest.mark.parametrize("fmt", ["table", "json", "csv", "tsv", "xml"])
def test_ask_exits_0_when_true_and_1_when_false(runner, fmt):
    yes = run(runner, "query", *G, "ASK { ?p kg:usesDataset id:dataset\\/tuab }", "--format", fmt)
    no = run(runner, "query", *G, "ASK { ?p kg:usesDataset id:dataset\\/nothing }", "--format", fmt)
    assert (yes.exit_code, no.exit_code) == (0, 1)
    assert "true" in yes.output and "false" in no.output


@pytest.mark.parametrize("name", [s.name for s in list_saved()])
def test_every_saved_query_by_name_matches_golden(runner, name):
    params = [arg for k, v in GOLDEN_PARAMS.get(name, {}).items() for arg in ("--param", f"{k}={v}")]
    result = run(runner, "query", *G, "--name", name, *params, "--format", "json")
    assert result.exit_code == 0, result.output
    expected = json.loads((GOLDEN.parent / "expected" / f"{name}.json").read_text(encoding="utf-8"))
    got = json.loads(result.output)
    assert got["head"] == expected["head"]
    key = lambda b: json.dumps(b, sort_keys=True)  # noqa: E731
    assert sorted(map(key, got["results"]["bindings"])) == sorted(map(key, expected["results"]["bindings"]))


def test_saved_name_as_the_query_argument(runner):
    """A saved query's name given as the query runs that query: the same answer as ``--name``."""
    result = run(runner, "query", *G, "type-counts", "--format", "json")
    assert result.exit_code == 0, result.output
    expected = json.loads((GOLDEN.parent / "expected" / "type-counts.json").read_text(encoding="utf-8"))
    key = lambda b: json.dumps(b, sort_keys=True)  # noqa: E731
    got = json.loads(result.output)
    assert got["head"] == expected["head"] and got["results"]["bindings"]
    assert sorted(map(key, got["results"]["bindings"])) == sorted(map(key, expected["results"]["bindings"]))


def test_query_from_rq_file_and_stdin(runner, tmp_path):
    path = tmp_path / "count.rq"
    path.write_text("SELECT (COUNT(*) AS ?n) WHERE { ?p a kg:Paper }\n", encoding="utf-8")
    from_file = run(runner, "query", *G, str(path), "--format", "csv")
    from_stdin = run(runner, "query", *G, "-", "--format", "csv", input=path.read_text(encoding="utf-8"))
    assert from_file.output_bytes == from_stdin.output_bytes == b"n\r\n8\r\n"


def test_output_file(runner, tmp_path):
    out = tmp_path / "res.json"
    result = run(runner, "query", *G, SELECT, "--format", "json", "--output", str(out))
    assert result.exit_code == 0
    assert len(json.loads(out.read_text(encoding="utf-8"))["results"]["bindings"]) == 8


def test_param_binding(runner):
    result = run(runner, "query", *G, "--name", "papers-using", "--param", "entity=id:modality/ecg", "--format", "csv")
    assert result.exit_code == 0
    assert {line.split(",")[1] for line in result.output.splitlines()[1:]} == {"BIOT", "ECG arrhythmia LSTM"}


def test_malformed_param(runner):
    result = run(runner, "query", *G, "--name", "papers-using", "--param", "entity")
    assert result.exit_code == 2 and "NAME=VALUE" in result.output


def test_missing_param_of_saved_query(runner):
    result = run(runner, "query", *G, "--name", "papers-using")
    assert result.exit_code == 2 and "needs --param entity=..." in result.output


def test_syntax_error_exits_2_with_line_and_column(runner):
    result = run(runner, "query", *G, "SELECT ?s\nWHERE { ?s ?p ?o } LIMIT x")
    assert result.exit_code == 2
    assert "SPARQL syntax error at line 2, column 26" in result.output


def test_unknown_saved_name_lists_names(runner):
    result = run(runner, "query", *G, "--name", "no-such-query")
    assert result.exit_code == 2
    assert all(s.name in result.output for s in list_saved())


def test_missing_graph_says_how_to_build(runner, tmp_path):
    result = run(runner, "query", "--graph", str(tmp_path / "kg.ttl"), SELECT)
    assert result.exit_code == 1 and "kg build seeds/ --output output/" in result.output
    result = run(runner, "query", "--store", str(tmp_path / "store"), SELECT)
    assert result.exit_code == 1 and "kg build" in result.output


def test_default_graph_is_output_kg_ttl(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(runner, "query", SELECT)
    assert result.exit_code == 1 and "output/kg.ttl does not exist" in result.output


def test_graph_and_store_together(runner, tmp_path):
    result = run(runner, "query", *G, "--store", str(tmp_path), SELECT)
    assert result.exit_code == 1 and "not both" in result.output


def test_timeout_stops_a_runaway_query_with_its_own_exit_code(runner):
    result = run(runner, "query", *G, SLOW, "--timeout", "0.1")
    assert result.exit_code == 3 and "timeout" in result.output  # not 2: the query is not malformed


def test_update_refused_without_allow_update(runner, tmp_path):
    store = save_to_store(load_graph(GOLDEN), tmp_path / "store")
    result = run(runner, "query", "--store", str(store), "DELETE WHERE { ?p kg:venue ?v }")
    assert result.exit_code == 2 and "refused" in result.output and "--allow-update" in result.output
    assert len(open_store(store, read_only=True)) == 557


def test_update_with_allow_update_changes_the_store(runner, tmp_path):
    store = save_to_store(load_graph(GOLDEN), tmp_path / "store")
    result = run(runner, "query", "--store", str(store), "--allow-update", "DELETE WHERE { ?p kg:venue ?v }")
    assert result.exit_code == 0, result.output
    assert "557 triples before, 550 after" in result.output
    assert len(open_store(store, read_only=True)) == 550


def test_update_on_a_graph_file_is_refused(runner):
    result = run(runner, "query", *G, "--allow-update", "DELETE WHERE { ?p kg:venue ?v }")
    assert result.exit_code == 2 and "--store DIR" in result.output


def test_query_a_store(runner, tmp_path):
    store = save_to_store(load_graph(GOLDEN), tmp_path / "store")
    result = run(runner, "query", "--store", str(store), SELECT, "--format", "csv")
    assert result.exit_code == 0 and len(result.output.splitlines()) == 9


# --------------------------------------------------------------------------- export


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_export_every_format(runner, tmp_path, fmt):
    out = tmp_path / f"kg.{FORMATS[fmt].extensions[0]}"
    by_name = run(runner, "export", *G, "--format", fmt, "--output", str(out))
    assert by_name.exit_code == 0, by_name.output
    assert isomorphic(load_graph(out), Graph().parse(GOLDEN))
    by_extension = tmp_path / f"again.{FORMATS[fmt].extensions[0]}"
    assert run(runner, "export", *G, "--output", str(by_extension)).exit_code == 0
    assert by_extension.read_bytes() == out.read_bytes()


def test_export_to_stdout_defaults_to_turtle(runner):
    result = run(runner, "export", *G)
    assert result.exit_code == 0
    assert isomorphic(Graph().parse(data=result.output, format="turtle"), Graph().parse(GOLDEN))


def test_export_unknown_extension(runner, tmp_path):
    """A usage error naming every RDF and network extension, and no file written."""
    out = tmp_path / "kg.csv"
    result = run(runner, "export", *G, "--output", str(out))
    assert result.exit_code == 2 and "cannot tell the format of" in result.output and not out.exists()
    assert ".ttl" in result.output and ".graphml" in result.output and "--format NAME" in result.output


def test_export_missing_graph(runner, tmp_path):
    result = run(runner, "export", "--graph", str(tmp_path / "nope.ttl"))
    assert result.exit_code == 1 and "kg build" in result.output


# --------------------------------------------------------------------------- validate


def test_validate_passes_on_golden(runner):
    result = run(runner, "validate", *G)
    assert result.exit_code == 0 and "conforms" in result.output


def test_validate_fails_on_a_violating_graph(runner, tmp_path):
    text = GOLDEN.read_text(encoding="utf-8")
    broken = tmp_path / "broken.ttl"
    broken.write_text(text + "\nid:paper\\/c1c1c1c1c1c1c1c1 kg:year \"twenty\" .\n", encoding="utf-8")
    result = run(runner, "validate", "--graph", str(broken))
    assert result.exit_code == 1
    assert "does not conform" in result.output
    assert "paper:c1c1c1c1c1c1c1c1 kg:year" in result.output


def test_an_unreachable_store_is_named_as_such() -> None:
    """A refused connection is no SPARQL syntax error: the message names the endpoint, the exit code is 1."""
    import socket

    with socket.socket() as s:  # a port nothing listens on once it is closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = CliRunner().invoke(cli, ["query", "--store", f"http://127.0.0.1:{port}", "--name", "type-counts"])
    assert result.exit_code == 1, result.output
    assert f"cannot reach http://127.0.0.1:{port}/query" in result.stderr and "server runs" in result.stderr
