"""The ASGI application of ``kg serve``: the SPARQL 1.1 Protocol endpoint and the web explorer.

Routes: ``/sparql`` (GET, POST), ``/health``, ``/`` (YASGUI over ``/sparql``), ``/paper/<hex>``,
``/<kind>/<slug>`` (method, dataset, task, metric, modality), ``/entity?iri=`` (any resource),
``/api/search?q=`` (the header's search box), ``/api/graph`` (the vis-network data of a query's result),
``/api/vocabulary`` (the properties and classes the graph uses, for the editor's completion) and
``/static/...`` (every asset, YASGUI and vis-network included: no CDN; only the files listed in
:func:`_static_files` are served, so no path can leave the folder).
Every query runs in a pool of worker processes (:mod:`kg.server.pool`) with a hard time limit, a memory
cap and a result limit enforced while the result streams, after the token-level checks of
:mod:`kg.server.guard`. Requests must name an allowed ``Host`` (DNS rebinding), and a browser POST from
another origin is refused unless CORS was opted into.
"""
from __future__ import annotations

import contextlib
import io
import tempfile
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any, Awaitable, Callable

import anyio
import jinja2
import networkx as nx
from rdflib import Graph, URIRef
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from kg.errors import KGError, NotFoundError, QueryError, QueryTimeout
from kg.namespaces import PREFIXES
from kg.server.explore import ENTITY_KINDS, entity_page, iri_of_path, page_path
from kg.server.guard import DEFAULT_MAX_DEPTH, Refused, check_iri, check_query
from kg.server.pool import WorkerPool
from kg.server.protocol import negotiate, parse_request
from kg.server.search import MAX_LIMIT, MAX_QUERY_CHARS, SearchIndex, build_index
from kg.sparql.run import QueryResult, check_params
from kg.sparql.saved import SavedQuery, list_saved
from kg.store.local import new_graph, oxigraph_of

__all__ = ["create_app", "DEFAULT_MAX_QUERY_BYTES", "DEFAULT_TIMEOUT", "DEFAULT_MAX_ROWS", "DEFAULT_HOSTS"]

HERE = Path(__file__).parent
DEFAULT_MAX_QUERY_BYTES = 64 * 1024
DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_ROWS = 10_000
DEFAULT_MAX_RESULT_BYTES = 64 * 1024 * 1024
DEFAULT_WORKERS = 2
#: address space a worker may add to what it holds after loading the graph, in MB
DEFAULT_WORKER_MEMORY_MB = 1024
#: Host names served by default (any other Host header gets 400: DNS rebinding)
DEFAULT_HOSTS = ("localhost", "127.0.0.1", "[::1]", "::1")
#: at most this many nodes drawn in the explorer's graph view
GRAPH_VIEW_MAX_NODES = 300
#: the query the explorer opens with (its PREFIX lines let the editor and the table use the names)
DEFAULT_QUERY = f"""PREFIX kg: <{PREFIXES['kg']}>
PREFIX rdfs: <{PREFIXES['rdfs']}>
PREFIX method: <{PREFIXES['method']}>

SELECT ?method ?label (COUNT(DISTINCT ?paper) AS ?papers) WHERE {{
  ?paper kg:usesMethod ?method .
  ?method rdfs:label ?label .
}} GROUP BY ?method ?label ORDER BY DESC(?papers) ?label LIMIT 20
"""
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
SECURITY_HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
                    "Referrer-Policy": "same-origin"}


# --------------------------------------------------------------------------- assets


#: media type of a served asset, by suffix (files without one, such as LICENSE, are plain text)
_MEDIA = {".js": "text/javascript", ".css": "text/css", ".txt": "text/plain", ".md": "text/plain", "": "text/plain"}
VENDOR = HERE / "static" / "vendor"


def _static_files() -> dict[str, tuple[Path, str]]:
    """Every asset under ``/static/``: its name in the URL -> (file, media type). Nothing else is served."""
    from kg.viz.render import _vis_dir

    vis = _vis_dir()
    files = {
        "vis-network.min.js": (vis / "vis-network.min.js", "text/javascript"),
        "vis-network.css": (vis / "vis-network.css", "text/css"),
    }
    for path in sorted((HERE / "static").iterdir()):
        if path.is_file() and path.suffix in (".js", ".css"):
            files[path.name] = (path, _MEDIA[path.suffix])
    for path in sorted(VENDOR.rglob("*")):
        if path.is_file() and path.suffix in _MEDIA and not path.name.startswith("."):
            files[path.relative_to(HERE / "static").as_posix()] = (path, _MEDIA[path.suffix])
    return files


@lru_cache(maxsize=1)
def _templates() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True,
                              undefined=jinja2.StrictUndefined)


def _page(name: str, status: int = 200, **context: Any) -> HTMLResponse:
    from kg import __version__

    html = _templates().get_template(name).render(version=__version__, **context)
    return HTMLResponse(html, status_code=status, headers=SECURITY_HEADERS)


def _error(message: str, status: int) -> PlainTextResponse:
    return PlainTextResponse(message.rstrip() + "\n", status_code=status, headers={"X-Content-Type-Options": "nosniff"})


# --------------------------------------------------------------------------- the app


class _State:
    """What the handlers share: the graph, the worker pool, the typed graph (built on first use)."""

    def __init__(self, graph: Graph, pool: WorkerPool, max_query_bytes: int, max_depth: int) -> None:
        self.graph = graph
        self.pool = pool
        self.max_query_bytes = max_query_bytes
        self.max_depth = max_depth
        self.triples = len(graph)  # served read-only: counted once
        self.saved: dict[str, SavedQuery] = {q.text.strip(): q for q in list_saved()}
        self._typed: nx.Graph | None = None
        self._vocabulary: dict[str, list[str]] | None = None
        self._lock = threading.Lock()
        self._vocabulary_lock = threading.Lock()
        self.limiter = anyio.CapacityLimiter(32)
        self.search_index: SearchIndex | None = None  # built by the app's lifespan

    def build_search_index(self) -> None:
        """Index every labelled resource for ``/api/search`` (once, when the server starts)."""
        self.search_index = build_index(oxigraph_of(self.graph))

    def vocabulary(self) -> dict[str, list[str]]:
        """The properties and classes the graph uses (computed on first use): the editor completes them."""
        with self._vocabulary_lock:
            if self._vocabulary is None:
                import pyoxigraph as ox

                store = oxigraph_of(self.graph)
                found = {}
                for name, text in (("properties", "SELECT DISTINCT ?x WHERE { ?s ?x ?o }"),
                                   ("classes", "SELECT DISTINCT ?x WHERE { ?s a ?x }")):
                    found[name] = sorted({row["x"].value for row in store.query(text, use_default_graph_as_union=True)
                                          if isinstance(row["x"], ox.NamedNode)})
                self._vocabulary = found
            return self._vocabulary

    def typed(self) -> nx.Graph:
        with self._lock:
            if self._typed is None:
                from kg.analysis.convert import typed_graph

                self._typed = typed_graph(self.graph)
            return self._typed

    def substitutions(self, text: str, params: dict[str, str]) -> dict[str, list[Any]]:
        """The worker's substitutions for ``params``; Refused (400) for a parameter the query lacks, an
        invalid IRI, or a saved query run without the parameters it needs."""
        saved = self.saved.get(text.strip())
        try:
            bindings = check_params(text, saved, params)
        except QueryError as exc:
            raise Refused(str(exc).replace("--param ", "param.")) from None
        out: dict[str, list[Any]] = {}
        for name, node in bindings.items():
            if isinstance(node, URIRef):
                out[name] = ["iri", check_iri(str(node), f"parameter {name}"), None, None]
            else:
                datatype = getattr(node, "datatype", None)
                out[name] = ["literal", str(node), str(datatype) if datatype else None, getattr(node, "language", None)]
        return out


async def _read_body(request: Request, limit: int) -> bytes:
    """The request body, or Refused (413) as soon as it grows past ``limit`` bytes (never read whole)."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise Refused(f"the request body is {declared} bytes, over this server's limit of {limit} bytes", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Refused(f"the request body is over this server's limit of {limit} bytes", 413)
        chunks.append(chunk)
    return b"".join(chunks)


def _handler(func: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """Turn refusals and KGErrors into plain-text answers with their status; the server stays up."""

    async def wrapped(request: Request) -> Response:
        try:
            return await func(request)
        except Refused as exc:
            return _error(str(exc), exc.status)
        except NotFoundError as exc:
            return _error(str(exc), 404)
        except QueryTimeout as exc:  # a page's own query ran out of time: the server is busy, not the request wrong
            return _error(str(exc), 503)
        except QueryError as exc:
            return _error(str(exc), 400)
        except KGError as exc:
            return _error(str(exc), 500)

    return wrapped


def _result_of(kind: str, body: bytes) -> QueryResult:
    """A worker's SPARQL JSON (SELECT, ASK) or N-Triples (graphs) answer as a QueryResult."""
    if kind == "graph":
        graph = Graph(bind_namespaces="none")
        graph.parse(data=body, format="nt")
        return QueryResult(kind="construct", graph=graph)
    from rdflib.query import Result

    parsed = Result.parse(io.BytesIO(body), format="json")
    if parsed.type == "ASK":
        return QueryResult(kind="ask", boolean=bool(parsed.askAnswer))
    return QueryResult(kind="select", columns=[str(v) for v in parsed.vars or []], rows=[tuple(r) for r in parsed])


class _SameOrigin:
    """ASGI middleware: refuse a POST whose ``Origin`` (or ``Sec-Fetch-Site``) says another site sent it,
    unless that origin is allowed by CORS. Stops cross-site form posts from running queries."""

    def __init__(self, app: Any, allowed: list[str] | bool) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and self.allowed is not True:
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
            origin = headers.get("origin")
            host = headers.get("host", "")
            allowed = self.allowed or []
            cross = False
            if origin is not None and origin not in allowed:
                cross = origin == "null" or origin.split("://", 1)[-1] != host
            if headers.get("sec-fetch-site") == "cross-site" and (origin is None or origin not in allowed):
                cross = True
            if cross:
                await _error(f"cross-origin POST from {origin or 'another site'} refused; start the server with "
                             "--cors ORIGIN to allow that page", 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(graph: Graph, *, max_query_bytes: int = DEFAULT_MAX_QUERY_BYTES, timeout: float = DEFAULT_TIMEOUT,
               max_rows: int = DEFAULT_MAX_ROWS, max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES,
               cors: str | list[str] | bool = False, workers: int = DEFAULT_WORKERS,
               worker_memory_mb: int | None = DEFAULT_WORKER_MEMORY_MB, max_depth: int = DEFAULT_MAX_DEPTH,
               allowed_hosts: list[str] | None = None) -> Starlette:
    """The Starlette app serving ``graph`` read-only.

    ``max_query_bytes``: larger queries get 413; ``timeout``: seconds per query, after which the worker
    running it is killed (503); ``max_rows`` / ``max_result_bytes``: larger results are stopped while they
    stream (400); ``workers``: query processes; ``worker_memory_mb``: address space a worker may use beyond
    the loaded graph (None: no cap); ``max_depth``: bracket nesting allowed; ``allowed_hosts``: Host names
    served (default :data:`DEFAULT_HOSTS`); ``cors``: an origin (or list, or True for any) allowed to call
    from browsers, off by default. The workers start with the app's lifespan.
    """
    if oxigraph_of(graph) is None:  # run everything on Oxigraph, which never fetches FROM <url> graphs
        copy = new_graph()
        copy.addN((s, p, o, copy) for s, p, o in graph)
        graph = copy
    store = oxigraph_of(graph)
    data_dir = tempfile.TemporaryDirectory(prefix="kg-serve-data-")
    data = Path(data_dir.name) / "graph.nq"
    import pyoxigraph as ox

    store.dump(str(data), ox.RdfFormat.N_QUADS)
    pool = WorkerPool(data, size=workers, timeout=timeout, max_rows=max_rows, max_bytes=max_result_bytes,
                      memory_mb=worker_memory_mb, prefixes=dict(PREFIXES))
    state = _State(graph, pool, max_query_bytes, max_depth)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        async with anyio.create_task_group() as tasks:  # index the names while the workers load the graph
            tasks.start_soon(anyio.to_thread.run_sync, state.build_search_index)
            await pool.start()
        try:
            yield
        finally:
            await pool.close()
            data_dir.cleanup()

    async def run_blocking(func: Callable[..., Any], *args: Any) -> Any:
        return await anyio.to_thread.run_sync(func, *args, limiter=state.limiter)

    async def run_checked(text: str, params: dict[str, str], accept: str | None,
                          format_param: str | None) -> tuple[dict[str, Any], bytes, str]:
        found = check_query(text, max_query_bytes, max_depth)
        name, media = negotiate((found.form or "select").lower(), accept, format_param)
        subs = state.substitutions(text, params)
        header, body = await pool.run(text, name, subs)
        return header, body, media

    @_handler
    async def sparql(request: Request) -> Response:
        if len(request.url.query) > 3 * max_query_bytes:
            raise Refused(f"the query string is over this server's limit of {max_query_bytes} bytes", 413)
        body = b""
        if request.method == "POST":
            body = await _read_body(request, 3 * max_query_bytes)
        proto = parse_request(request.method, request.headers.get("content-type", ""), request.url.query, body)
        _, data, media = await run_checked(proto.query, proto.params, request.headers.get("accept"),
                                           proto.format_param)
        charset = "; charset=utf-8" if media.startswith("text/") or "json" in media or "xml" in media else ""
        return Response(data, media_type=media + charset, headers={"Vary": "Accept"})

    async def health(request: Request) -> Response:
        stats = pool.stats
        return JSONResponse({"status": "ok", "triples": state.triples, "workers": stats.workers,
                             "starting": stats.starting, "busy": stats.busy, "restarts": stats.restarts,
                             "timeouts": stats.timeouts, "crashes": stats.crashes})

    async def index(request: Request) -> Response:
        saved = [{"name": q.name, "description": q.description, "params": q.params, "text": q.text}
                 for q in list_saved()]
        from kg.viz.render import script_json

        return _page("index.html", saved=saved, saved_json=script_json(saved), prefixes_json=script_json(PREFIXES),
                     default_query_json=script_json(DEFAULT_QUERY), max_rows=max_rows, timeout=timeout)

    @_handler
    async def search(request: Request) -> Response:
        q = request.query_params.get("q", "")
        if len(q) > MAX_QUERY_CHARS:
            raise Refused(f"the search text is over {MAX_QUERY_CHARS} characters")
        raw = request.query_params.get("limit", "10")
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 3) or not 1 <= int(raw) <= MAX_LIMIT:
            raise Refused(f"limit must be a whole number from 1 to {MAX_LIMIT}")
        if state.search_index is None:
            raise Refused("the search index is still being built; try again in a moment", 503)
        index = state.search_index
        hits = await run_blocking(index.search, q, int(raw))
        return JSONResponse([hit.as_json() for hit in hits], headers={"Cache-Control": "no-store"})

    async def vocabulary(request: Request) -> Response:
        return JSONResponse(await run_blocking(state.vocabulary), headers={"Cache-Control": "public, max-age=3600"})

    async def show(iri: str) -> Response:
        check_iri(iri, "the resource")
        page = await run_blocking(lambda: entity_page(state.graph, state.typed(), iri))
        if page is None:
            return _page("missing.html", status=404, iri=iri)
        return _page("entity.html", page=page, title=page.label)

    @_handler
    async def entity(request: Request) -> Response:
        iri = request.query_params.get("iri", "").strip()
        if not iri:
            raise Refused("give the resource as /entity?iri=...")
        return await show(iri)

    @_handler
    async def readable(request: Request) -> Response:
        kind, key = request.path_params["kind"], request.path_params["key"]
        if kind not in ENTITY_KINDS:
            return _page("missing.html", status=404, iri=request.url.path)
        return await show(iri_of_path(kind, key))

    @_handler
    async def graph_view(request: Request) -> Response:
        body = await _read_body(request, 3 * max_query_bytes)
        proto = parse_request("POST", request.headers.get("content-type", ""), "", body)
        found = check_query(proto.query, max_query_bytes, max_depth)
        graphish = found.form in ("CONSTRUCT", "DESCRIBE")
        header, data = await pool.run(proto.query, "nt" if graphish else "json",
                                      state.substitutions(proto.query, proto.params))

        def build() -> dict[str, Any]:
            from kg.viz import render, views

            result = _result_of(header["kind"], data)
            if result.kind == "ask":
                return {"nodes": [], "edges": [], "message": "an ASK result names no nodes"}
            typed = state.typed()
            try:
                h = views.query_view(typed, result)
            except NotFoundError as exc:
                return {"nodes": [], "edges": [], "message": str(exc)}
            note = ""
            if h.number_of_nodes() > GRAPH_VIEW_MAX_NODES:
                h = views.overview(h, top=GRAPH_VIEW_MAX_NODES)
                note = f"showing the {GRAPH_VIEW_MAX_NODES} most central nodes"
            payload = render.payload(h)
            for node in payload["nodes"]:
                node["href"] = page_path(node["id"])
            payload["message"] = note
            return payload

        return JSONResponse(await run_blocking(build))

    static_files = _static_files()

    async def static(request: Request) -> Response:
        entry = static_files.get(request.path_params["name"])  # a listed name or nothing: no traversal
        if entry is None:
            return _error("no such file", 404)
        path, media = entry
        return Response(path.read_bytes(), media_type=media + "; charset=utf-8",
                        headers={"Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff"})

    routes = [
        Route("/sparql", sparql, methods=["GET", "POST"]),
        Route("/health", health, methods=["GET"]),
        Route("/", index, methods=["GET"]),
        Route("/entity", entity, methods=["GET"]),
        Route("/api/graph", graph_view, methods=["POST"]),
        Route("/api/search", search, methods=["GET"]),
        Route("/api/vocabulary", vocabulary, methods=["GET"]),
        Route("/static/{name:path}", static, methods=["GET"]),
        Route("/{kind}/{key:path}", readable, methods=["GET"]),
    ]
    hosts = list(allowed_hosts) if allowed_hosts is not None else list(DEFAULT_HOSTS)
    origins: list[str] | bool = False
    if cors:
        origins = True if cors is True else ([cors] if isinstance(cors, str) else list(cors))
        if isinstance(origins, list) and "*" in origins:
            origins = True
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=hosts),
                  Middleware(_SameOrigin, allowed=origins)]
    if origins:
        middleware.append(Middleware(CORSMiddleware, allow_origins=["*"] if origins is True else origins,
                                     allow_methods=["GET", "POST"], allow_headers=["Accept", "Content-Type"]))
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
