"""Remote SPARQL 1.1 stores: write with the Graph Store Protocol and SPARQL Update, read with SPARQL queries.

A remote store is named by its base URL; a URL fragment picks the server's endpoint layout
(the fragment is never sent to the server):

- ``http://host:7878`` or ``http://host:7878#oxigraph``: Oxigraph (``/query``, ``/update``, ``/store``);
- ``http://host:3030/ds#fuseki``: an Apache Jena Fuseki dataset (``/ds/query``, ``/ds/update``, ``/ds/data``);
- ``http://host:7200/repositories/ID#graphdb``: GraphDB / RDF4J (``ID``, ``ID/statements``, ``ID/rdf-graphs/service``);
- ``http://host:7001#qlever``: QLever (query and update on the base URL, no Graph Store endpoint).

A URL ending in ``/query`` or ``/sparql`` is taken as the query endpoint of an Oxigraph-style server.
``$KG_STORE_TOKEN``, when set, is sent as a bearer token (QLever's access token, a proxy's credentials).

Writing is atomic on a transactional server: the triples go to a fresh staging graph in batches of
N-Triples (``POST ...?graph=STAGING``), then one SPARQL Update ``MOVE`` replaces the default graph.
"""
from __future__ import annotations

import os
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pyoxigraph as ox
from rdflib import Graph

from kg.errors import GraphError

#: triples sent per HTTP request
BATCH_TRIPLES = 100_000

#: seconds to wait for one HTTP request
TIMEOUT = 300


@dataclass(frozen=True)
class Endpoints:
    """The three endpoints of a SPARQL server; ``data`` is None when it has no Graph Store Protocol."""

    query: str
    update: str
    data: str | None


#: layout name -> (query, update, graph store) paths appended to the base URL
LAYOUTS: dict[str, tuple[str, str, str | None]] = {
    "oxigraph": ("/query", "/update", "/store"),
    "fuseki": ("/query", "/update", "/data"),
    "graphdb": ("", "/statements", "/rdf-graphs/service"),
    "rdf4j": ("", "/statements", "/rdf-graphs/service"),
    "qlever": ("", "", None),
}


def is_remote(location: object) -> bool:
    """True when ``location`` is an http(s) URL."""
    return str(location).startswith(("http://", "https://"))


def endpoints(url: str) -> Endpoints:
    """The endpoints of the store at ``url`` (see the module docstring for the URL forms)."""
    base, _, layout = url.partition("#")
    layout = layout or "oxigraph"
    paths = LAYOUTS.get(layout)
    if paths is None:
        raise GraphError(f"--store {url}: unknown server layout #{layout}; use one of "
                         + ", ".join(f"#{k}" for k in LAYOUTS))
    base = base.rstrip("/")
    for suffix in ("/query", "/sparql"):
        if layout == "oxigraph" and base.endswith(suffix):
            base = base[: -len(suffix)]
    query, update, data = paths
    return Endpoints(base + query, base + update, base + data if data is not None else None)


def _request(url: str, data: bytes | None = None, content_type: str | None = None, method: str = "POST",
             accept: str | None = None) -> bytes:
    headers = {}
    if content_type:
        headers["Content-Type"] = content_type
    if accept:
        headers["Accept"] = accept
    token = os.environ.get("KG_STORE_TOKEN")
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
            return resp.read()
    except urllib.error.HTTPError as exc:
        detail = exc.read()[:300].decode("utf-8", "replace").strip()
        raise GraphError(f"{method} {url}: HTTP {exc.code} {exc.reason}: {detail}") from exc
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise GraphError(f"{method} {url}: cannot reach the SPARQL server ({reason}); "
                         "check the URL and that the server runs") from exc


def update(url: str, text: str) -> None:
    """Run the SPARQL Update ``text`` on the store at ``url``."""
    _request(endpoints(url).update, text.encode("utf-8"), "application/sparql-update")


def _ntriple_batches(graph: Graph, size: int) -> Iterator[bytes]:
    from kg.store.local import as_oxigraph  # the Oxigraph store under the graph (copied if it is not one)

    store = as_oxigraph(graph)
    batch: list[ox.Triple] = []
    for q in store.quads_for_pattern(None, None, None, ox.DefaultGraph()):
        batch.append(ox.Triple(q.subject, q.predicate, q.object))
        if len(batch) >= size:
            yield ox.serialize(batch, format=ox.RdfFormat.N_TRIPLES) or b""
            batch = []
    if batch:
        yield ox.serialize(batch, format=ox.RdfFormat.N_TRIPLES) or b""


def replace_graph(url: str, graph: Graph, batch: int = BATCH_TRIPLES) -> int:
    """Replace the default graph of the remote store at ``url`` by ``graph``; return the HTTP requests made.

    Batches of ``batch`` triples go to a staging graph (Graph Store Protocol), then a SPARQL Update
    moves it to the default graph, so readers never see a half-written graph.
    """
    ep = endpoints(url)
    staging = f"urn:paperkg:staging:{uuid.uuid4()}"
    requests = 0
    try:
        for chunk in _ntriple_batches(graph, batch):
            if ep.data is not None:
                target = f"{ep.data}?graph={urllib.parse.quote(staging, safe='')}"
                _request(target, chunk, "application/n-triples")
            else:
                body = f"INSERT DATA {{ GRAPH <{staging}> {{\n".encode() + chunk + b"}}"
                _request(ep.update, body, "application/sparql-update")
            requests += 1
        _request(ep.update, f"DROP SILENT DEFAULT ; MOVE SILENT <{staging}> TO DEFAULT".encode(),
                 "application/sparql-update")
        requests += 1
    except BaseException:
        try:
            _request(ep.update, f"DROP SILENT GRAPH <{staging}>".encode(), "application/sparql-update")
        except GraphError:
            pass
        raise
    return requests


def download(url: str) -> Graph:
    """The remote store's default graph, copied into an in-memory Oxigraph-backed graph."""
    from kg.store.local import new_graph, oxigraph_of

    ep = endpoints(url)
    graph = new_graph()
    if ep.data is not None:
        data = _request(f"{ep.data}?default", method="GET", accept="application/n-triples")
    else:
        data = _request(ep.query, urllib.parse.urlencode({"query": "CONSTRUCT WHERE { ?s ?p ?o }"}).encode(),
                        "application/x-www-form-urlencoded", accept="application/n-triples")
    inner = oxigraph_of(graph)
    assert inner is not None
    inner.load(data, format=ox.RdfFormat.N_TRIPLES, to_graph=ox.DefaultGraph())
    return graph


def remote_graph(url: str) -> Graph:
    """A read-only rdflib Graph whose queries run on the remote store at ``url`` (rdflib's SPARQLStore)."""
    from rdflib.plugins.stores.sparqlstore import SPARQLStore

    from kg.namespaces import PREFIXES

    graph = Graph(store=SPARQLStore(query_endpoint=endpoints(url).query, returnFormat="json"),
                  bind_namespaces="none")
    for prefix, namespace in PREFIXES.items():
        graph.bind(prefix, namespace, override=True, replace=True)
    return graph


def count(url: str) -> int:
    """The number of triples in the remote store's default graph."""
    import json

    ep = endpoints(url)
    body = urllib.parse.urlencode({"query": "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"}).encode()
    data = json.loads(_request(ep.query, body, "application/x-www-form-urlencoded",
                               accept="application/sparql-results+json"))
    return int(data["results"]["bindings"][0]["n"]["value"])


__all__ = ["Endpoints", "LAYOUTS", "count", "download", "endpoints", "is_remote", "remote_graph", "replace_graph",
           "update"]
