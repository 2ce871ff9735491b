"""Scale features of ``kg build``: extraction cache, --append, interruption, parallel and Dask engines,
and a remote SPARQL store (a real Oxigraph server on loopback)."""
from __future__ import annotations

import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from rdflib import URIRef
from rdflib.compare import isomorphic

from kg.build.pipeline import build
from kg.errors import Interrupted
from kg.namespaces import KG
from kg.resolve.ids import paper_iri
from kg.store.load import load_graph
from kg.store.local import to_memory

DATA = Path(__file__).parent / "data" / "scale"
BASE = DATA / "base.jsonl"
NEW = DATA / "new.jsonl"
N_BASE, N_NEW = 12, 2


def abstracts(path: Path) -> list[str]:
    import json

    return [json.loads(line)["abstract"] for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def serial(tmp_path_factory) -> Path:
    """kg.ttl of the serial, uncached build of base + new (the reference the other builds must match)."""
    out = tmp_path_factory.mktemp("serial")
    summary = build([BASE, NEW], out, views=False, workers=1, cache=False)
    assert summary.papers == N_BASE + N_NEW and summary.extracted == N_BASE + N_NEW
    return out / "kg.ttl"


def same_graph(a: Path, b: Path) -> bool:
    return isomorphic(to_memory(load_graph(a)), to_memory(load_graph(b)))


# --------------------------------------------------------------------------- cache


def test_cache_hits_misses_and_pipeline_invalidation(tmp_path, monkeypatch):
    first = build([BASE], tmp_path, views=False)
    assert (first.extracted, first.cached) == (N_BASE, 0)
    assert (tmp_path / ".cache" / "extractions.sqlite").is_file()
    before = (tmp_path / "kg.ttl").read_bytes()

    again = build([BASE], tmp_path, views=False)
    assert (again.extracted, again.cached) == (0, N_BASE)
    assert (tmp_path / "kg.ttl").read_bytes() == before

    more = build([BASE, NEW], tmp_path, views=False)  # only the new abstracts are extracted
    assert (more.extracted, more.cached) == (N_NEW, N_BASE)

    monkeypatch.setattr("kg.extract.model.PIPELINE_VERSION", "test-changed-pipeline")
    changed = build([BASE], tmp_path, views=False)
    assert (changed.extracted, changed.cached) == (N_BASE, 0)
    assert (tmp_path / "kg.ttl").read_bytes() == before


def test_cache_directory_option_and_no_cache(tmp_path):
    cache_dir = tmp_path / "cache"
    build([NEW], tmp_path / "a", views=False, cache=cache_dir)
    assert (cache_dir / "extractions.sqlite").is_file()
    reused = build([NEW], tmp_path / "b", views=False, cache=cache_dir)
    assert reused.cached == N_NEW
    uncached = build([NEW], tmp_path / "c", views=False, cache=False)
    assert uncached.extracted == N_NEW and not (tmp_path / "c" / ".cache").exists()


# --------------------------------------------------------------------------- append


def test_append_links_new_mentions_to_existing_entities(tmp_path, serial):
    out = tmp_path / "out"
    build([BASE], out, views=False)
    old = load_graph(out / "kg.ttl")
    appended = build([NEW], out, views=False, append=True)
    assert appended.papers == N_BASE + N_NEW
    assert (appended.extracted, appended.cached) == (N_NEW, N_BASE)

    graph = load_graph(out / "kg.ttl")
    new_paper = URIRef(paper_iri(abstracts(NEW)[0]))
    linked = set(graph.objects(new_paper, KG.usesMethod)) | set(graph.objects(new_paper, KG.proposes))
    shared = {e for e in linked if (None, KG.usesMethod, e) in old or (None, KG.proposes, e) in old}
    assert shared, f"the new paper's methods {sorted(linked)} share no IRI with the existing graph"
    # the same entity is linked from old and new papers: one IRI
    for e in shared:
        assert len(set(graph.subjects(KG.usesMethod, e)) | set(graph.subjects(KG.proposes, e))) >= 2
    # rebuilding old + new from scratch gives the same graph
    assert same_graph(out / "kg.ttl", serial)
    assert (out / "kg.ttl").read_bytes() == serial.read_bytes()


def test_append_without_previous_build_says_what_to_do(tmp_path):
    from kg.errors import InputError

    with pytest.raises(InputError, match="--append needs a previous build"):
        build([NEW], tmp_path, views=False, append=True)


def test_cli_append_without_inputs_rebuilds(tmp_path):
    from click.testing import CliRunner

    from kg.cli import cli

    runner = CliRunner()
    out = tmp_path / "out"
    first = runner.invoke(cli, ["build", str(NEW), "-o", str(out), "--no-views", "-q"])
    assert first.exit_code == 0, first.output
    again = runner.invoke(cli, ["build", "--append", "-o", str(out), "--no-views"])
    assert again.exit_code == 0, again.output
    assert f"extracted 0 abstracts, {N_NEW} from the cache" in again.output
    missing = runner.invoke(cli, ["build", "-o", str(out)])
    assert missing.exit_code != 0


# --------------------------------------------------------------------------- interruption


def test_interrupted_build_keeps_graph_and_cache(tmp_path, monkeypatch):
    import kg.extract

    build([BASE], tmp_path, views=False)
    before = (tmp_path / "kg.ttl").read_bytes()
    manifest = (tmp_path / "manifest.json").read_bytes()
    original = kg.extract.extract_texts

    def crash_after_one(texts, nlp=None, batch_size=32):
        for i, ex in enumerate(original(texts, nlp, batch_size)):
            if i == 1:
                raise RuntimeError("simulated crash")
            yield ex

    monkeypatch.setattr(kg.extract, "extract_texts", crash_after_one)
    with pytest.raises(RuntimeError, match="simulated crash"):
        build([BASE, NEW], tmp_path, views=False)
    assert (tmp_path / "kg.ttl").read_bytes() == before
    assert (tmp_path / "manifest.json").read_bytes() == manifest
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]

    monkeypatch.setattr(kg.extract, "extract_texts", original)
    resumed = build([BASE, NEW], tmp_path, views=False)
    assert (resumed.extracted, resumed.cached) == (N_NEW - 1, N_BASE + 1)


# --------------------------------------------------------------------------- engines


def test_parallel_build_equals_serial(tmp_path, serial):
    summary = build([BASE, NEW], tmp_path, views=False, workers=2, cache=False, in_process_below=4, chunk_size=3)
    assert summary.extracted == N_BASE + N_NEW
    assert same_graph(tmp_path / "kg.ttl", serial)
    assert (tmp_path / "kg.ttl").read_bytes() == serial.read_bytes()


def test_recycled_workers_build_equals_serial(tmp_path, serial, monkeypatch):
    """Workers replaced by fresh processes every 3 texts (one 3-text chunk each): several pools, same bytes."""
    import kg.build.engines.local as local

    pools = []
    original = local._run_pool

    def counting(part, options):
        pools.append(len(part))
        return original(part, options)

    monkeypatch.setattr(local, "_run_pool", counting)
    build([BASE, NEW], tmp_path, views=False, workers=2, cache=False, in_process_below=4, chunk_size=3,
          recycle_after=3)
    assert len(pools) == -(-(N_BASE + N_NEW) // 6) and set(pools[:-1]) == {2}
    assert (tmp_path / "kg.ttl").read_bytes() == serial.read_bytes()


@pytest.mark.parametrize("n, workers, size, recycle, expected", [
    (30000, 2, 64, 3000, 92),   # 46 chunks of 64 per worker (2,944 texts) before the pool is replaced
    (1000, 2, 15, 3000, 67),    # fewer texts than one generation: every chunk
    (100, 2, 8, None, 13),      # never recycled: every chunk
    (30000, 2, 64, 10, 2),      # less than a chunk: one chunk per worker
    (5, 2, 8, 3, 1),            # one chunk in all
])
def test_generation_size(n, workers, size, recycle, expected):
    from kg.build.engines.local import generation_size

    assert generation_size(n, workers, size, recycle) == expected


def test_dask_local_cluster_equals_serial(tmp_path, serial):
    pytest.importorskip("distributed")
    summary = build([BASE, NEW], tmp_path, views=False, workers=2, cache=False, engine="dask", chunk_size=4)
    assert summary.extracted == N_BASE + N_NEW
    assert same_graph(tmp_path / "kg.ttl", serial)


def test_unknown_engine(tmp_path):
    from kg.errors import KGError

    with pytest.raises(KGError, match="unknown extraction engine 'spark'"):
        build([NEW], tmp_path, views=False, engine="spark", cache=False)


# --------------------------------------------------------------------------- remote store


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def oxigraph_server(tmp_path):
    """A real Oxigraph SPARQL server on a free loopback port, stopped after the test."""
    exe = shutil.which("oxigraph") or str(Path(__import__("sys").executable).parent / "oxigraph")
    if not Path(exe).exists():
        pytest.skip("the oxigraph server binary is not installed (pip install oxigraph)")
    port = _free_port()
    proc = subprocess.Popen([exe, "serve", "--location", str(tmp_path / "db"), "--bind", f"127.0.0.1:{port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{url}/query?query=ASK%7B%7D", timeout=1).read()
                break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail(f"oxigraph serve exited: {proc.stderr.read().decode()}")
                time.sleep(0.1)
        else:
            pytest.fail("oxigraph serve did not answer within 10 s")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_build_into_remote_oxigraph_server(tmp_path, oxigraph_server, monkeypatch):
    from click.testing import CliRunner

    from kg.cli import cli
    import kg.store.remote
    from kg.store.remote import count, download

    calls = []
    real_request = kg.store.remote._request
    monkeypatch.setattr(kg.store.remote, "_request", lambda *a, **k: calls.append(a[0]) or real_request(*a, **k))
    monkeypatch.setattr(kg.store.remote, "BATCH_TRIPLES", 2_000)
    summary = build([BASE], tmp_path / "out", views=False, store=oxigraph_server)
    assert oxigraph_server in summary.outputs
    # batched: a few requests, not one per triple
    assert 2 <= len(calls) <= summary.triples // 2_000 + 3

    local = load_graph(tmp_path / "out" / "kg.ttl")
    assert count(oxigraph_server) == len(local) == summary.triples
    assert isomorphic(to_memory(download(oxigraph_server)), to_memory(local))

    # queries run on the server, through load_graph and through the CLI
    remote = load_graph(oxigraph_server)
    rows = list(remote.query("SELECT (COUNT(?p) AS ?n) WHERE { ?p a <https://w3id.org/paperkg/ontology#Paper> }"))
    assert int(rows[0][0]) == N_BASE
    result = CliRunner().invoke(cli, ["query", "--store", oxigraph_server, "--format", "csv",
                                      "SELECT ?p WHERE { ?p a kg:Paper }"])
    assert result.exit_code == 0, result.output
    assert len(result.output.strip().splitlines()) == N_BASE + 1

    # --append replaces the remote graph by the rebuilt one
    build([NEW], tmp_path / "out", views=False, store=oxigraph_server, append=True)
    assert isomorphic(to_memory(download(oxigraph_server)), to_memory(load_graph(tmp_path / "out" / "kg.ttl")))


def test_remote_store_errors_name_the_url():
    from kg.errors import GraphError
    from kg.store.remote import count, endpoints

    port = _free_port()
    with pytest.raises(GraphError, match=f"127.0.0.1:{port}.*cannot reach"):
        count(f"http://127.0.0.1:{port}")
    with pytest.raises(GraphError, match="unknown server layout"):
        endpoints("http://127.0.0.1:1/x#nosuch")
    ep = endpoints("http://127.0.0.1:3030/ds#fuseki")
    assert (ep.query, ep.update, ep.data) == ("http://127.0.0.1:3030/ds/query", "http://127.0.0.1:3030/ds/update",
                                              "http://127.0.0.1:3030/ds/data")
    assert endpoints("http://127.0.0.1:7878/query").update == "http://127.0.0.1:7878/update"


# --------------------------------------------------------------------------- bounded memory


@pytest.mark.parametrize("disk_graph_above", [1, 10**6])
def test_store_filled_from_on_disk_or_in_memory_graph(tmp_path, serial, disk_graph_above):
    out = tmp_path / "out"
    build([BASE, NEW], out, views=False, cache=False, store=tmp_path / "store", disk_graph_above=disk_graph_above)
    assert (out / "kg.ttl").read_bytes() == serial.read_bytes()
    assert sorted(p.name for p in out.iterdir()) == ["kg.ttl", "manifest.json"]  # scratch store removed
    assert isomorphic(to_memory(load_graph(tmp_path / "store")), to_memory(load_graph(serial)))


@pytest.mark.parametrize("run_lines, piece_lines", [(7, 3), (500, 40), (10**6, 10**6)])
def test_external_sort_writer_matches_turtle_writer(tmp_path, serial, run_lines, piece_lines):
    from kg.rdf.formats import serialize
    from kg.rdf.streamwrite import write_turtle

    graph = load_graph(serial)
    write_turtle(graph, tmp_path / "out.ttl", run_lines=run_lines, piece_lines=piece_lines)
    assert (tmp_path / "out.ttl").read_bytes() == serialize(graph, "turtle")


def test_streaming_writer_falls_back_for_blank_nodes(tmp_path):
    from rdflib import BNode, Literal
    from rdflib.namespace import RDFS

    from kg.rdf.formats import serialize
    from kg.rdf.streamwrite import write_turtle
    from kg.store.local import add_triples, new_graph

    graph = new_graph()
    add_triples(graph, [(BNode("b1"), RDFS.label, Literal("x")), (URIRef("https://example.org/a"), RDFS.seeAlso, BNode("b1"))])
    write_turtle(graph, tmp_path / "b.ttl")
    assert (tmp_path / "b.ttl").read_bytes() == serialize(graph, "turtle")


def test_failing_parallel_build_stops_workers_and_keeps_cache(tmp_path, monkeypatch):
    import multiprocessing

    from kg.build.cache import ExtractionCache

    real_put = ExtractionCache.put
    puts = []

    def put_then_fail(self, key, extraction):
        if len(puts) == 5:
            raise KeyboardInterrupt
        puts.append(key)
        real_put(self, key, extraction)

    monkeypatch.setattr(ExtractionCache, "put", put_then_fail)
    with pytest.raises(Interrupted):  # the build's own error for Ctrl-C, naming what it kept
        build([BASE, NEW], tmp_path, views=False, workers=2, in_process_below=4, chunk_size=2)
    assert not multiprocessing.active_children()  # the worker processes were stopped
    assert not (tmp_path / "kg.ttl").exists()
    monkeypatch.setattr(ExtractionCache, "put", real_put)
    resumed = build([BASE, NEW], tmp_path, views=False)
    assert resumed.cached == 5 and resumed.extracted == N_BASE + N_NEW - 5
