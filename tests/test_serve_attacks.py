"""``kg serve`` against hostile clients: each attack is sent to a real server subprocess, and afterwards the
server still answers ``/health`` and a normal query, and its memory (the server and its query workers)
stays under a bound. The SERVICE guard is also property-tested on generated spellings."""
from __future__ import annotations

import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Iterator

import httpx
import psutil
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.server.guard import Refused, check_query
from server_helpers import ROOT, running_server

HERE = Path(__file__).parent
GOLDEN = HERE / "data" / "golden" / "graph.ttl"
SELECT = ("PREFIX kg: <https://w3id.org/paperkg/ontology#>\nPREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
          "SELECT ?paper ?label WHERE { ?paper a kg:Paper ; rdfs:label ?label } ORDER BY ?label")
#: the server and its workers together, serving the golden graph, stay under this (they start near 200 MB)
RSS_BOUND = 900 * 1024 * 1024
MEMORY_CAP_MB = 300


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_server(GOLDEN, "--timeout", "2", "--worker-memory", str(MEMORY_CAP_MB), "--workers", "2") as url:
        yield url


def server_rss(url: str) -> int:
    """Resident memory of the ``kg serve`` listening at ``url`` plus its children, in bytes."""
    port = int(url.rsplit(":", 1)[1])
    for proc in psutil.process_iter(["cmdline"]):
        cmd = proc.info["cmdline"] or []
        if "serve" in cmd and "--port" in cmd and cmd[cmd.index("--port") + 1] == str(port):
            return proc.memory_info().rss + sum(c.memory_info().rss for c in proc.children(recursive=True))
    raise AssertionError(f"no kg serve process on port {port}")


def still_fine(url: str) -> None:
    """After an attack: /health answers, a normal query is right, and memory stays bounded."""
    health = httpx.get(url + "/health", timeout=10).json()
    # a killed worker is being replaced (``starting``) or already back; the pool never shrinks
    assert health["status"] == "ok" and health["workers"] + health["starting"] == 2, health
    answer = httpx.get(url + "/sparql", params={"query": SELECT}, timeout=30)  # waits for a replacement
    assert answer.status_code == 200 and len(answer.json()["results"]["bindings"]) == 8
    assert server_rss(url) < RSS_BOUND


class Listener:
    """A TCP socket on loopback that records whether anything connected to it (an SSRF canary)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.hits = 0
        self._stop = False
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.hits += 1
            conn.close()

    def close(self) -> None:
        self._stop = True
        self._thread.join()
        self.sock.close()


@pytest.fixture
def canary() -> Iterator[Listener]:
    listener = Listener()
    yield listener
    listener.close()


# --------------------------------------------------------------------------- crashes


@pytest.mark.parametrize("query", [
    "SELECT * WHERE " + "{" * 3000 + "?s ?p ?o" + "}" * 3000,
    "SELECT * WHERE { ?s ?p ?o FILTER(" + "(" * 7000 + "1" + ")" * 7000 + ") }",
    "SELECT * WHERE { ?s ?p ?o " + "OPTIONAL { ?s ?p ?o " * 3000 + "}" * 3000 + "}",
], ids=["braces", "parentheses", "optionals"])
def test_deep_nesting_is_refused_before_the_engine(server: str, query: str) -> None:
    answer = httpx.post(server + "/sparql", data={"query": query}, timeout=30)
    assert answer.status_code == 400 and "levels of brackets, over this server's limit of 64" in answer.text
    still_fine(server)


@pytest.fixture(scope="module")
def roomy_server() -> Iterator[str]:
    """The same server with a 20 s query limit: the longest chains the size limit admits take about 1.8 s to
    parse and answer on an idle machine, too close to the 2 s limit of :func:`server` under load."""
    with running_server(GOLDEN, "--timeout", "20", "--worker-memory", str(MEMORY_CAP_MB), "--workers", "2") as url:
        yield url


def test_long_operator_chains_do_not_overflow_the_parser(roomy_server: str) -> None:
    union = "SELECT * WHERE {" + "UNION".join(["{}"] * 7000) + "}"  # 49 KB, under the 64 KiB limit
    plus = "SELECT * WHERE { BIND(" + "+".join(["1"] * 7000) + " AS ?x) }"
    for query in (union, plus):
        answer = httpx.post(roomy_server + "/sparql", content=query, timeout=30,
                            headers={"Content-Type": "application/sparql-query"})
        assert answer.status_code == 200, answer.text[:300]
    still_fine(roomy_server)


def test_kg_query_survives_a_long_chain(tmp_path: Path) -> None:
    """Before the large query stack, 7,000 UNIONs killed `kg query` with a segfault (exit 139)."""
    union = "SELECT * WHERE {" + "UNION".join(["{}"] * 7000) + "}"
    done = subprocess.run([sys.executable, "-m", "kg", "query", "--graph", str(GOLDEN), union], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]


# --------------------------------------------------------------------------- SSRF


def test_escaped_local_name_does_not_hide_service(server: str, canary: Listener) -> None:
    query = ("PREFIX e: <http://x/> SELECT * WHERE { { BIND(e:q\\# AS ?z) } UNION "
             f"{{ SERVICE <http://127.0.0.1:{canary.port}/x> {{ ?s ?p ?o }} }} }}")
    answer = httpx.post(server + "/sparql", data={"query": query})
    assert answer.status_code == 403 and "SERVICE" in answer.text
    assert canary.hits == 0
    still_fine(server)


@pytest.mark.parametrize("spelling", [
    "SERVICE", "service", "SeRvIcE", "SERVICE SILENT", "SERVICESILENT", "service\tsilent", "SERVICE#c\n",
    "\\u0053ERVICE", "\\u0073ervice",
])
def test_service_spellings_never_reach_the_network(server: str, canary: Listener, spelling: str) -> None:
    query = f"SELECT * WHERE {{ {spelling} <http://127.0.0.1:{canary.port}/x> {{ ?s ?p ?o }} }}"
    answer = httpx.post(server + "/sparql", data={"query": query})
    assert answer.status_code in (400, 403), answer.text
    assert canary.hits == 0


_DECOR = st.sampled_from([
    " ", "\n", "\t", " # SERVICE in a comment \n", ' "a \\" quoted } { string" ', " 'x#y' ", " <http://e/#a> ",
    " e:q\\# ", " e:a\\.b ", " e:%41 ", ' """long\n"string" """ ', " ?service ", " $v ", " _:b1 ", " 1.5e3 ",
    ' "x"@en ', ' "1"^^<http://www.w3.org/2001/XMLSchema#integer> ', " e: ",
])
_WRAP = st.sampled_from([
    "{}", "{ OPTIONAL {} }", "{ ?s ?p ?o MINUS {} }", "{ {} UNION {} }", "{ FILTER EXISTS {} }",
    "{ ?s ?p ?o LATERAL {} }", "{ GRAPH ?g {} }", "{ { SELECT * WHERE {} } }",
])
_CASE = st.lists(st.booleans(), min_size=7, max_size=7)


@settings(max_examples=300, deadline=None)
@given(before=st.lists(_DECOR, max_size=4), after=st.lists(_DECOR, max_size=3), wrap=_WRAP, case=_CASE,
       silent=st.sampled_from(["", " SILENT", "SILENT", " silent"]),
       target=st.sampled_from(["<http://127.0.0.1:1/x>", "e:x", "?svc", "<http://127.0.0.1:1/x#a>"]))
def test_service_hidden_any_way_is_refused(before: list[str], after: list[str], wrap: str, case: list[bool],
                                           silent: str, target: str) -> None:
    keyword = "".join(c.lower() if lower else c for c, lower in zip("SERVICE", case))
    pattern = f"{keyword}{silent} {target} {{ ?s ?p ?o }}"
    body = wrap.replace("{}", "{" + "".join(before) + pattern + "".join(after) + "}", 1)
    query = f"PREFIX e: <http://x/> SELECT * WHERE {body}"
    with pytest.raises(Refused) as refused:
        check_query(query, max_bytes=65536)
    assert refused.value.status in (400, 403)


@settings(max_examples=200, deadline=None)
@given(before=st.lists(_DECOR, max_size=4), wrap=_WRAP)
def test_the_same_texts_without_service_are_accepted(before: list[str], wrap: str) -> None:
    """The decorations alone are readable SPARQL: the guard refuses SERVICE, not the tricks around it."""
    body = wrap.replace("{}", "{" + "".join(before) + " ?s ?p ?o }", 1)
    assert check_query(f"PREFIX e: <http://x/> SELECT * WHERE {body}", max_bytes=65536).service is False


# --------------------------------------------------------------------------- resource limits


def test_cross_product_is_killed_at_the_limit_and_memory_stays_bounded(server: str) -> None:
    for query in ("CONSTRUCT { ?a ?b ?f } WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }",
                  "SELECT ?a ?f WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?c ?f",
                  "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"):
        answer = httpx.post(server + "/sparql", data={"query": query}, timeout=30)
        assert answer.status_code in (400, 503), answer.text[:200]
        assert answer.elapsed.total_seconds() < 10
        assert any(w in answer.text for w in ("time limit", "memory limit", "limit of 10000")), answer.text
        still_fine(server)


def test_two_runaways_do_not_lock_other_clients_out(server: str) -> None:
    runaway = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
    with httpx.Client(timeout=30) as client:
        threads = [threading.Thread(target=client.post, args=(server + "/sparql",), kwargs={"data": {"query": runaway}})
                   for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    still_fine(server)  # the two workers were killed and replaced; a normal query is answered at once


# --------------------------------------------------------------------------- browsers: rebinding, cross-site


def test_unknown_host_header_is_refused(server: str) -> None:
    answer = httpx.get(server + "/", headers={"Host": "evil.example"})
    assert answer.status_code == 400
    assert httpx.get(server + "/sparql", params={"query": SELECT}, headers={"Host": "evil.example"}).status_code == 400
    assert httpx.get(server + "/health", headers={"Host": "localhost"}).status_code == 200


def test_allowed_host_option() -> None:
    with running_server(GOLDEN, "--allowed-host", "kg.example") as url:
        assert httpx.get(url + "/health", headers={"Host": "kg.example"}).status_code == 200
        assert httpx.get(url + "/health", headers={"Host": "evil.example"}).status_code == 400


def test_cross_origin_form_post_is_refused(server: str) -> None:
    form = {"query": SELECT}
    evil = httpx.post(server + "/sparql", data=form, headers={"Origin": "http://evil.example"})
    assert evil.status_code == 403 and "cross-origin" in evil.text
    fetch = httpx.post(server + "/sparql", data=form, headers={"Sec-Fetch-Site": "cross-site"})
    assert fetch.status_code == 403
    same = httpx.post(server + "/sparql", data=form, headers={"Origin": server})
    assert same.status_code == 200
    assert httpx.post(server + "/sparql", data=form).status_code == 200  # curl, scripts: no Origin


# --------------------------------------------------------------------------- bad IRIs and parameters


@pytest.mark.parametrize("path", ["/entity?iri=a%20b", "/method/a%20b", "/entity?iri=http://a%3Cb%3E",
                                  "/dataset/x%22y"])
def test_invalid_iris_on_pages_are_400(server: str, path: str) -> None:
    answer = httpx.get(server + path)
    assert answer.status_code == 400 and "not a valid absolute IRI" in answer.text
    assert "\n" == answer.text[-1] and answer.text.count("\n") == 1  # one line, no traceback


def test_invalid_iri_parameter_is_400(server: str) -> None:
    from kg.sparql.saved import get_saved

    answer = httpx.post(server + "/sparql", data={"query": get_saved("papers-using").text,
                                                  "param.entity": "http://a b"})
    assert answer.status_code == 400 and "not a valid IRI" in answer.text


def test_saved_query_without_its_parameter_names_it(server: str) -> None:
    from kg.sparql.saved import get_saved

    answer = httpx.post(server + "/sparql", data={"query": get_saved("entity-aliases").text})
    assert answer.status_code == 400 and "entity-aliases" in answer.text and "param.entity" in answer.text
    free = httpx.post(server + "/sparql", data={"query": get_saved("top-methods").text})
    assert free.status_code == 200


def test_kg_query_invalid_iri_parameter_exits_2() -> None:
    from click.testing import CliRunner

    from kg.cli import cli

    result = CliRunner().invoke(cli, ["query", "--graph", str(GOLDEN), "papers-using", "--param", "entity=http://a b"])
    assert result.exit_code == 2
    assert "not a valid IRI" in result.output and "Traceback" not in result.output

