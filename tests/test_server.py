"""``kg serve`` over real HTTP: the SPARQL 1.1 Protocol through SPARQLWrapper, the read-only limits, the
explorer's pages and escaping, and a bounded load. Each module-scoped server is a real ``kg serve``
subprocess on a free loopback port, serving the golden graph."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Iterator

import httpx
import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.compare import isomorphic

from kg.server.guard import Refused, check_query
from kg.server.protocol import negotiate, parse_request
from kg.sparql.formats import parse_json, render
from kg.sparql.run import run_query
from kg.store.load import load_graph
from server_helpers import running_server

SPARQLWrapper = pytest.importorskip("SPARQLWrapper")
from SPARQLWrapper import CSV, JSON, JSONLD, TSV, TURTLE, XML, SPARQLWrapper as Client  # noqa: E402

HERE = Path(__file__).parent
GOLDEN = HERE / "data" / "golden" / "graph.ttl"
XSS = HERE / "data" / "server" / "xss.ttl"
ID = "https://w3id.org/paperkg/id/"
PREFIXES = "PREFIX kg: <https://w3id.org/paperkg/ontology#>\nPREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
SELECT = PREFIXES + "SELECT ?paper ?label WHERE { ?paper a kg:Paper ; rdfs:label ?label } ORDER BY ?label"
ASK = PREFIXES + "ASK { ?p kg:usesMethod <https://w3id.org/paperkg/id/method/biot> }"
CONSTRUCT = PREFIXES + "CONSTRUCT { ?p rdfs:label ?l ; kg:year ?y } WHERE { ?p a kg:Paper ; rdfs:label ?l ; kg:year ?y }"
#: a few seconds of work on the golden graph: enough to pass a 0.5 s limit, short enough to end soon after
SLOW = "SELECT (COUNT(*) AS ?n) WHERE { ?a a ?c . ?d ?e ?f . ?g ?h ?i }"
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n2 ?o }"
MAX_ROWS = 300


@pytest.fixture(scope="module")
def graph() -> Graph:
    return load_graph(GOLDEN)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_server(GOLDEN, "--timeout", "2", "--max-rows", str(MAX_ROWS), "--max-query-bytes", "65536") as url:
        yield url


def client(url: str, query: str, fmt: str = JSON, method: str = "GET", request: str = "urlencoded") -> Client:
    sparql = Client(url + "/sparql")
    sparql.setQuery(query)
    sparql.setReturnFormat(fmt)
    sparql.setMethod(method)
    sparql.setRequestMethod(request)
    return sparql


def expected_rows(graph: Graph, query: str) -> list[tuple[str, ...]]:
    return [tuple(str(t) for t in row) for row in run_query(graph, query).rows]


def alive(url: str) -> None:
    """The server still answers /health and a normal query, correctly."""
    assert httpx.get(url + "/health", timeout=5).json()["status"] == "ok"
    answer = httpx.get(url + "/sparql", params={"query": SELECT}, timeout=5)
    assert answer.status_code == 200
    assert len(answer.json()["results"]["bindings"]) == 8


# --------------------------------------------------------------------------- protocol, through SPARQLWrapper


@pytest.mark.parametrize("method,request_method", [("GET", "urlencoded"), ("POST", "urlencoded"),
                                                   ("POST", "postdirectly")])
def test_select_json_every_protocol_form(server: str, graph: Graph, method: str, request_method: str) -> None:
    from SPARQLWrapper import POSTDIRECTLY, URLENCODED

    kind = {"urlencoded": URLENCODED, "postdirectly": POSTDIRECTLY}[request_method]
    result = client(server, SELECT, JSON, method, kind).query()
    assert result.response.headers["Content-Type"].startswith("application/sparql-results+json")
    data = result.convert()
    assert data["head"]["vars"] == ["paper", "label"]
    rows = [(b["paper"]["value"], b["label"]["value"]) for b in data["results"]["bindings"]]
    assert rows == expected_rows(graph, SELECT)
    assert ("https://w3id.org/paperkg/id/paper/a1a1a1a1a1a1a1a1", "BIOT") in rows


def test_select_xml(server: str, graph: Graph) -> None:
    doc = client(server, SELECT, XML).query().convert()  # an xml.dom document
    results = doc.getElementsByTagName("result")
    labels = [r.getElementsByTagName("literal")[0].firstChild.data for r in results]
    assert labels == [label for _, label in expected_rows(graph, SELECT)]


def test_select_csv_and_tsv_equal_the_local_writers(server: str, graph: Graph) -> None:
    local = run_query(graph, SELECT)
    csv_body = client(server, SELECT, CSV).query().convert()
    assert csv_body == render(local, "csv")
    tsv_body = client(server, SELECT, TSV).query().convert()
    assert tsv_body == render(local, "tsv")
    assert tsv_body.splitlines()[0] == b"?paper\t?label"


def test_ask_json_and_xml(server: str) -> None:
    assert client(server, ASK, JSON).query().convert() == {"head": {}, "boolean": True}
    doc = client(server, ASK.replace("biot", "no-such-method"), XML).query().convert()
    assert doc.getElementsByTagName("boolean")[0].firstChild.data == "false"


def test_construct_turtle_ntriples_jsonld_are_the_same_graph(server: str, graph: Graph) -> None:
    expected = run_query(graph, CONSTRUCT).graph
    assert expected is not None and len(expected) == 16
    turtle = client(server, CONSTRUCT, TURTLE).query()
    assert turtle.response.headers["Content-Type"].startswith("text/turtle")
    assert isomorphic(Graph().parse(data=turtle.convert(), format="turtle"), expected)
    jsonld = client(server, CONSTRUCT, JSONLD).query()
    assert jsonld.response.headers["Content-Type"].startswith("application/ld+json")
    assert isomorphic(Graph().parse(data=jsonld.convert().serialize(format="nt"), format="nt"), expected)
    nt = client(server, CONSTRUCT, TURTLE)
    nt.setOnlyConneg(True)
    nt.addCustomHttpHeader("Accept", "application/n-triples")
    answer = nt.query()
    assert answer.response.headers["Content-Type"].startswith("application/n-triples")
    assert isomorphic(Graph().parse(data=answer.response.read().decode(), format="nt"), expected)


def test_describe_is_a_graph(server: str) -> None:
    answer = httpx.get(server + "/sparql", params={"query": f"DESCRIBE <{ID}method/biot>"},
                       headers={"Accept": "text/turtle"})
    assert answer.status_code == 200
    described = Graph().parse(data=answer.text, format="turtle")
    assert (URIRef(f"{ID}method/biot"), URIRef("http://www.w3.org/2000/01/rdf-schema#label"), Literal("BIOT")) in described


def test_negotiation_defaults_and_406(server: str) -> None:
    plain = httpx.get(server + "/sparql", params={"query": SELECT})
    assert plain.headers["content-type"].startswith("application/sparql-results+json")
    browser = httpx.get(server + "/sparql", params={"query": CONSTRUCT},
                        headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert browser.headers["content-type"].startswith("text/turtle")
    refused = httpx.get(server + "/sparql", params={"query": SELECT}, headers={"Accept": "image/png"})
    assert refused.status_code == 406 and "application/sparql-results+json" in refused.text
    assert httpx.get(server + "/sparql", params={"query": CONSTRUCT},
                     headers={"Accept": "application/sparql-results+json"}).status_code == 406


def test_dataset_parameters_are_refused_clearly(server: str) -> None:
    for name in ("default-graph-uri", "named-graph-uri"):
        answer = httpx.get(server + "/sparql", params={"query": SELECT, name: "http://example.org/g"})
        assert answer.status_code == 400 and name in answer.text and "not supported" in answer.text
    alive(server)


def test_bad_requests_get_readable_4xx(server: str) -> None:
    syntax = httpx.get(server + "/sparql", params={"query": "SELEC ?x WHERE { ?x ?y ?z }"})
    assert syntax.status_code == 400 and "syntax error at line 1" in syntax.text
    assert httpx.get(server + "/sparql").status_code == 400
    assert httpx.post(server + "/sparql", content=b"x", headers={"Content-Type": "text/plain"}).status_code == 415
    assert httpx.put(server + "/sparql", content=b"x").status_code == 405
    path = httpx.get(server + "/sparql", params={"query": "/etc/passwd.rq"})
    assert path.status_code == 400 and "root:" not in path.text
    alive(server)


def test_saved_query_parameters_are_bound_not_pasted(server: str, graph: Graph) -> None:
    from kg.sparql.saved import get_saved

    text = get_saved("papers-using").text
    answer = httpx.post(server + "/sparql", data={"query": text, "param.entity": "BIOT"})
    assert answer.status_code == 200, answer.text
    local = run_query(graph, text, {"entity": "BIOT"})
    assert parse_json(answer.content).rows == local.rows and local.rows
    injected = httpx.post(server + "/sparql", data={"query": text, "param.entity": '"} } ; DROP ALL #'})
    assert injected.status_code == 200 and injected.json()["results"]["bindings"] == []


# --------------------------------------------------------------------------- read-only limits


def test_update_is_refused_every_way(server: str, graph: Graph) -> None:
    update = "INSERT DATA { <http://example.org/a> <http://example.org/b> <http://example.org/c> }"
    answers = [
        httpx.get(server + "/sparql", params={"query": update}),
        httpx.post(server + "/sparql", data={"update": update}),
        httpx.post(server + "/sparql", content=update, headers={"Content-Type": "application/sparql-update"}),
        httpx.post(server + "/sparql", content="PREFIX ex: <http://example.org/>\n\\u0044ELETE WHERE { ?s ?p ?o }",
                   headers={"Content-Type": "application/sparql-query"}),
    ]
    for answer in answers:
        assert answer.status_code == 403, answer.text
        assert "read-only" in answer.text
    count = httpx.get(server + "/sparql", params={"query": "SELECT (COUNT(*) AS ?n) { ?s ?p ?o }"}).json()
    assert int(count["results"]["bindings"][0]["n"]["value"]) == len(graph)
    alive(server)


@pytest.mark.parametrize("query", [
    "SELECT * WHERE { SERVICE <http://127.0.0.1:1/> { ?s ?p ?o } }",
    "SELECT * WHERE { ?x ?y ?z . service silent <http://127.0.0.1:1/> { ?s ?p ?o } }",
    "SELECT * WHERE { \\u0053ERVICE <http://127.0.0.1:1/> { ?s ?p ?o } }",
    "SELECT * WHERE { ?s ?p ?o LATERAL { SERVICE <http://127.0.0.1:1/> { ?s ?p ?o } } }",
])
def test_service_is_refused(server: str, query: str) -> None:
    answer = httpx.post(server + "/sparql", data={"query": query})
    assert answer.status_code == 403, answer.text
    assert "SERVICE" in answer.text
    alive(server)


def test_the_word_service_elsewhere_is_fine(server: str) -> None:
    query = 'SELECT ?service WHERE { BIND("SERVICE <http://127.0.0.1:1/>" AS ?service) } # SERVICE'
    answer = httpx.get(server + "/sparql", params={"query": query})
    assert answer.status_code == 200
    assert answer.json()["results"]["bindings"][0]["service"]["value"] == "SERVICE <http://127.0.0.1:1/>"


def test_one_megabyte_query_is_refused_with_413(server: str) -> None:
    big = SELECT + "\n#" + "x" * (1 << 20)
    for answer in (httpx.post(server + "/sparql", data={"query": big}),
                   httpx.post(server + "/sparql", content=big, headers={"Content-Type": "application/sparql-query"})):
        assert answer.status_code == 413, answer.text
        assert "limit" in answer.text
    alive(server)


def test_query_running_for_minutes_is_cut_by_the_limit(server: str) -> None:
    answer = httpx.get(server + "/sparql", params={"query": RUNAWAY}, timeout=30)
    assert answer.status_code == 503
    assert "2 s time limit" in answer.text
    assert answer.elapsed.total_seconds() < 10
    alive(server)
    health = httpx.get(server + "/health").json()
    assert health["timeouts"] >= 1 and health["restarts"] >= 1  # the worker was killed and replaced


def test_result_row_limit(server: str, graph: Graph) -> None:
    assert len(graph) > MAX_ROWS
    answer = httpx.get(server + "/sparql", params={"query": "SELECT * WHERE { ?s ?p ?o }"})
    assert answer.status_code == 400 and f"limit of {MAX_ROWS} rows" in answer.text
    ok = httpx.get(server + "/sparql", params={"query": f"SELECT * WHERE {{ ?s ?p ?o }} LIMIT {MAX_ROWS}"})
    assert len(ok.json()["results"]["bindings"]) == MAX_ROWS
    alive(server)


def test_cors_off_by_default_and_loopback_only(server: str) -> None:
    answer = httpx.get(server + "/sparql", params={"query": ASK}, headers={"Origin": "http://evil.example"})
    assert answer.status_code == 200 and "access-control-allow-origin" not in answer.headers
    assert server.startswith("http://127.0.0.1:")


def test_cors_when_asked() -> None:
    from starlette.testclient import TestClient

    from kg.server import create_app

    app = create_app(load_graph(GOLDEN), cors="http://notebook.example", allowed_hosts=["testserver"])
    with TestClient(app) as tc:
        ok = tc.get("/sparql", params={"query": ASK}, headers={"Origin": "http://notebook.example"})
        assert ok.headers["access-control-allow-origin"] == "http://notebook.example"
        other = tc.get("/sparql", params={"query": ASK}, headers={"Origin": "http://evil.example"})
        assert "access-control-allow-origin" not in other.headers


def test_timed_out_queries_are_killed_and_others_still_served(graph: Graph) -> None:
    from starlette.testclient import TestClient

    from kg.server import create_app

    app = create_app(graph, timeout=1.0, workers=1, allowed_hosts=["testserver"])
    with TestClient(app) as tc:
        for _ in range(3):  # one worker: each timed-out query must have been killed for the next to run
            cut = tc.get("/sparql", params={"query": RUNAWAY})
            assert cut.status_code == 503 and "time limit" in cut.text
            assert len(tc.get("/sparql", params={"query": SELECT}).json()["results"]["bindings"]) == 8
        health = tc.get("/health").json()
        assert health["timeouts"] == 3 and health["restarts"] == 3 and health["workers"] == 1


# --------------------------------------------------------------------------- units: protocol and guard


def test_negotiate() -> None:
    assert negotiate("select", "text/csv;q=0.5, application/sparql-results+xml") == ("xml", "application/sparql-results+xml")
    assert negotiate("ask", None) == ("json", "application/sparql-results+json")
    assert negotiate("construct", "application/ld+json") == ("jsonld", "application/ld+json")
    assert negotiate("construct", "*/*", "n-triples") == ("nt", "application/n-triples")
    with pytest.raises(Refused) as refused:
        negotiate("select", "text/turtle")
    assert refused.value.status == 406


def test_parse_request_forms() -> None:
    assert parse_request("GET", "", "query=ASK%7B%7D", b"").query == "ASK{}"
    assert parse_request("POST", "application/x-www-form-urlencoded", "", b"query=ASK%7B%7D&param.x=1").params == {"x": "1"}
    assert parse_request("POST", "application/sparql-query; charset=utf-8", "", b"ASK {}").query == "ASK {}"
    with pytest.raises(Refused):
        parse_request("GET", "", "query=a&query=b", b"")


def test_guard() -> None:
    with pytest.raises(Refused) as service:
        check_query("SELECT * { SERVICE <x:y> { ?s ?p ?o } }", max_bytes=1000)
    assert service.value.status == 403
    assert check_query('SELECT ?service { ?s <http://e.org/SERVICE> "service" }', max_bytes=1000).form == "SELECT"
    with pytest.raises(Refused) as big:
        check_query("ASK {}" + " " * 100, max_bytes=50)
    assert big.value.status == 413


# --------------------------------------------------------------------------- explorer pages


def test_pages_and_assets_are_served_locally(server: str) -> None:
    index = httpx.get(server + "/")
    assert index.status_code == 200 and 'id="kg-yasgui"' in index.text and 'id="kg-search"' in index.text
    csp = index.headers["Content-Security-Policy"]
    assert "script-src 'self';" in csp and "unsafe-eval" not in csp and "connect-src 'self'" in csp
    srcs = [part.split('"', 1)[0] for part in index.text.split('src="')[1:]]
    hrefs = [part.split('"', 1)[0] for part in index.text.split('rel="stylesheet" href="')[1:]]
    assert "/static/vendor/yasgui/yasgui.min.js" in srcs and "/static/vendor/yasgui/yasgui.min.css" in hrefs
    assert srcs and all(s.startswith("/static/") for s in srcs + hrefs)
    assert "//" not in "".join(srcs + hrefs)
    for src in srcs + hrefs + ["/static/vendor/yasgui/LICENSE", "/static/vendor/yasgui/THIRD-PARTY-NOTICES.txt"]:
        answer = httpx.get(server + src)
        assert answer.status_code == 200, src
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert httpx.get(server + "/static/vendor/yasgui/yasgui.min.js").headers["Content-Type"].startswith("text/javascript")
    assert "MIT License" in httpx.get(server + "/static/vendor/yasgui/LICENSE").text
    saved = json.loads(index.text.split('id="kg-saved-data">', 1)[1].split("</script>", 1)[0])
    assert any(q["name"] == "papers-using" for q in saved)
    default = json.loads(index.text.split('id="kg-default-query">', 1)[1].split("</script>", 1)[0])
    assert default.startswith("PREFIX kg: <https://w3id.org/paperkg/ontology#>")
    assert httpx.get(server + "/sparql", params={"query": default}).status_code == 200
    page = httpx.get(server + "/method/biot")  # every page has the search box
    assert 'id="kg-search"' in page.text and '<script src="/static/search.js">' in page.text


def _raw_get(url: str, path: str) -> tuple[int, bytes]:
    """GET ``path`` exactly as written (no client-side normalisation of dot segments or escapes)."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.putrequest("GET", path, skip_host=True)
        conn.putheader("Host", parts.netloc)
        conn.endheaders()
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


@pytest.mark.parametrize("path", [
    "/static/../app.py", "/static/..%2fapp.py", "/static/%2e%2e/app.py", "/static/%2e%2e%2fapp.py",
    "/static/vendor/../../app.py", "/static/vendor/yasgui/../../../app.py", "/static/vendor/yasgui/%2e%2e/%2e%2e/explorer.js",
    "/static/vendor%2f..%2f..%2fapp.py", "/static/..%5capp.py", "/static/%252e%252e/app.py", "/static//etc/passwd",
    "/static/vendor/yasgui/", "/static/vendor", "/static/vendor/yasgui/.", "/static/./explorer.js/../../app.py",
    "/static/vendor/yasgui/yasgui.min.js/..", "/static/" + "..%2f" * 8 + "etc/passwd", "/static/%00", "/static/app.py",
])
def test_static_route_serves_only_its_listed_files(server: str, path: str) -> None:
    status, body = _raw_get(server, path)
    assert status in (400, 404), (path, status)
    assert b"create_app" not in body and b"root:" not in body


def test_search_api_prefix_index(server: str) -> None:
    def search(q: str, **more: str) -> list[dict[str, str]]:
        answer = httpx.get(server + "/api/search", params={"q": q, **more})
        assert answer.status_code == 200, answer.text
        return answer.json()

    hits = search("trans")
    assert hits[0] == {"iri": f"{ID}method/transformer", "label": "transformer", "type": "Method",
                       "url": "/method/transformer", "match": "transformer"}
    vit = next(h for h in hits if h["label"] == "ViT")
    assert vit["match"] == "Vision Transformer" and vit["url"] == "/method/vit"  # by alias, at a word start
    assert [h["label"] for h in search("vision tr")] == ["ViT"]
    assert [h["url"] for h in search("VISION   TRANS")] == ["/method/vit"]
    assert search("ransformer") == []  # word starts only
    assert search("BIOT")[0]["url"] == "/method/biot"  # the entity before the paper of the same name
    assert any(h["url"] == "/paper/a1a1a1a1a1a1a1a1" for h in search("biot"))
    assert len(search("e", limit="3")) == 3
    assert search("") == [] and search("   ") == []
    assert httpx.get(server + "/api/search", params={"q": "x" * 201}).status_code == 400
    for limit in ("0", "51", "-1", "ten", "1e3", "\u00b2", "0005", ""):
        assert httpx.get(server + "/api/search", params={"q": "a", "limit": limit}).status_code == 400


def test_search_index_folds_accents_case_and_punctuation() -> None:
    from kg.server.search import SearchIndex, fold

    assert fold("Élan—VITAL: BERT-base_v2") == "elan vital bert base v2"
    index = SearchIndex([(f"{ID}method/a", "Café au lait", "Method", "Café au lait"),
                         (f"{ID}method/a", "Café au lait", "Method", "CAL"),
                         (f"{ID}paper/b", "Naïve Bayes for Cafés", "Paper", "Naïve Bayes for Cafés"),
                         (f"{ID}dataset/c", "", "Dataset", "")])
    assert len(index) == 2 and index.words == 8
    assert [h.label for h in index.search("cafe")] == ["Café au lait", "Naïve Bayes for Cafés"]
    assert [h.match for h in index.search("cal")] == ["CAL"]
    assert [h.url for h in index.search("naive b")] == ["/paper/b"]
    assert index.search("bayes f", limit=0) == [] and index.search("?!") == []
    long = "word " * 40
    assert [h.label for h in SearchIndex([(f"{ID}task/t", long.strip(), "Task", long)]).search(long)] == [long.strip()]


def test_vocabulary_api_lists_the_graphs_properties_and_classes(server: str) -> None:
    vocabulary = httpx.get(server + "/api/vocabulary").json()
    assert "https://w3id.org/paperkg/ontology#usesMethod" in vocabulary["properties"]
    assert "https://w3id.org/paperkg/ontology#Method" in vocabulary["classes"]


def test_entity_page_lists_papers_aliases_and_sentences(server: str) -> None:
    page = httpx.get(server + "/method/biot")
    assert page.status_code == 200
    assert "<h1 id=\"kg-label\">BIOT</h1>" in page.text
    assert 'href="/paper/a1a1a1a1a1a1a1a1"' in page.text
    assert "We propose BIOT" in page.text
    same = httpx.get(server + "/entity", params={"iri": f"{ID}method/biot"})
    assert same.text == page.text
    assert httpx.get(server + "/method/no-such-thing").status_code == 404
    assert httpx.get(server + "/nonsense/x").status_code == 404


def test_paper_page_highlights_mentions_in_place(server: str, graph: Graph) -> None:
    page = httpx.get(server + "/paper/a1a1a1a1a1a1a1a1").text
    assert ('We propose <a class="kg-mention kg-type-Method" href="/method/biot" title="Method: BIOT">BIOT</a>, '
            'a biosignal <a class="kg-mention kg-type-Method" href="/method/transformer"') in page
    assert "NeurIPS" in page and 'href="https://github.com/ycq091044/BIOT"' in page


def test_graph_api_returns_vis_data(server: str) -> None:
    answer = httpx.post(server + "/api/graph", data={"query": PREFIXES + "SELECT ?p ?m { ?p kg:usesMethod ?m }"})
    data = answer.json()
    ids = {n["id"] for n in data["nodes"]}
    assert f"{ID}method/biot" in ids and f"{ID}paper/a1a1a1a1a1a1a1a1" in ids
    assert any(n["href"] == "/method/biot" for n in data["nodes"])
    assert data["edges"]


@pytest.fixture(scope="module")
def xss_server() -> Iterator[str]:
    with running_server(XSS) as url:
        yield url


def test_hostile_data_is_escaped_in_pages(xss_server: str) -> None:
    for path in ("/paper/bad0bad0bad0bad0", "/method/evil", "/entity?iri=" + httpx.QueryParams({"x": f"{ID}paper/bad0bad0bad0bad0/s0"})["x"]):
        html = httpx.get(xss_server + path).text
        assert "<script>alert" not in html and "<img src=x" not in html and "<svg" not in html
        assert 'href="javascript:' not in html
    paper = httpx.get(xss_server + "/paper/bad0bad0bad0bad0").text
    assert "&lt;img src=x onerror=alert(&#39;abstract&#39;)&gt;" in paper
    assert "&lt;script&gt;alert(&#39;label&#39;)&lt;/script&gt;" in paper


# --------------------------------------------------------------------------- bounded load


def test_bounded_load_all_answers_correct() -> None:
    spec = importlib.util.spec_from_file_location("serve_load", HERE.parent / "bench" / "serve_load.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules["serve_load"] = bench  # dataclasses look their module up there
    spec.loader.exec_module(bench)
    import asyncio

    queries = bench.workload(GOLDEN)
    assert len(queries) > 10 and any(expected for _, expected in queries)
    with running_server(GOLDEN) as url:
        result = asyncio.run(bench.run_load(url, queries, 300, 20))
        assert httpx.get(url + "/health").json()["status"] == "ok"
    assert result.errors == [] and result.wrong == 0
    assert len(result.latencies) == 300


@pytest.mark.parametrize("error, status", [("timeout", 503), ("malformed", 400)])
def test_a_page_query_out_of_time_is_busy_not_a_bad_request(error, status):
    import asyncio

    from kg.errors import QueryError, QueryTimeout
    from kg.server.app import _handler

    async def page(_request):
        raise QueryTimeout("query stopped after the 10 s timeout") if error == "timeout" else QueryError("syntax error")

    response = asyncio.run(_handler(page)(None))
    assert response.status_code == status
