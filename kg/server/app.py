"""The ASGI application of ``kg serve``: the SPARQL 1.1 Protocol endpoint and the web explorer.

Routes: ``/sparql`` (GET, POST), ``/health``, ``/`` (query editor), ``/paper/<hex>``, ``/<kind>/<slug>``
(method, dataset, task, metric, modality), ``/entity?iri=`` (any resource), ``/api/graph`` (the
vis-network data of a query's result) and ``/static/...`` (every asset, vis-network included: no CDN).
Queries run off the event loop in worker threads, so the server answers other requests meanwhile.
"""
from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path
from typing import Any, Awaitable, Callable

import anyio
import jinja2
import networkx as nx
from rdflib import Graph
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from kg.errors import KGError, NotFoundError, QueryError
from kg.namespaces import PREFIXES
from kg.results import render
from kg.saved import list_saved
from kg.server.explore import ENTITY_KINDS, entity_page, iri_of_path, page_path
from kg.server.guard import Refused, check_query
from kg.server.protocol import negotiate, parse_request
from kg.server.runner import QueryRunner
from kg.store import new_graph, oxigraph_of

__all__ = ["create_app", "DEFAULT_MAX_QUERY_BYTES", "DEFAULT_TIMEOUT", "DEFAULT_MAX_ROWS"]

HERE = Path(__file__).parent
DEFAULT_MAX_QUERY_BYTES = 64 * 1024
DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_ROWS = 10_000
#: at most this many nodes drawn in the explorer's graph view
GRAPH_VIEW_MAX_NODES = 300
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
SECURITY_HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
                    "Referrer-Policy": "same-origin"}


# --------------------------------------------------------------------------- assets


def _static_files() -> dict[str, tuple[Path, str]]:
    from kg.viz.render import _vis_dir

    vis = _vis_dir()
    return {
        "vis-network.min.js": (vis / "vis-network.min.js", "text/javascript"),
        "vis-network.css": (vis / "vis-network.css", "text/css"),
        "explorer.js": (HERE / "static" / "explorer.js", "text/javascript"),
        "explorer.css": (HERE / "static" / "explorer.css", "text/css"),
    }


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
    """What the handlers share: the graph, the runner, the typed graph (built on first use)."""

    def __init__(self, graph: Graph, runner: QueryRunner, max_query_bytes: int) -> None:
        self.graph = graph
        self.runner = runner
        self.max_query_bytes = max_query_bytes
        self.triples = len(graph)  # served read-only: counted once
        self._typed: nx.Graph | None = None
        self._lock = threading.Lock()
        self.limiter = anyio.CapacityLimiter(32)

    def typed(self) -> nx.Graph:
        with self._lock:
            if self._typed is None:
                from kg.analysis.convert import typed_graph

                self._typed = typed_graph(self.graph)
            return self._typed


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
        except QueryError as exc:
            return _error(str(exc), 400)
        except KGError as exc:
            return _error(str(exc), 500)

    return wrapped


def create_app(graph: Graph, *, max_query_bytes: int = DEFAULT_MAX_QUERY_BYTES, timeout: float = DEFAULT_TIMEOUT,
               max_rows: int = DEFAULT_MAX_ROWS, cors: str | list[str] | bool = False, isolate: bool = False,
               max_runaways: int = 2) -> Starlette:
    """The Starlette app serving ``graph`` read-only.

    ``max_query_bytes``: larger queries get 413; ``timeout``: seconds per query (503 when reached);
    ``max_rows``: larger results get 400; ``cors``: an origin (or list, or True for any) allowed to call
    from browsers, off by default; ``isolate``: run each query in a forked process killed at the time
    limit (see :mod:`kg.server.runner`).
    """
    if oxigraph_of(graph) is None:  # run everything on Oxigraph, which never fetches FROM <url> graphs
        copy = new_graph()
        copy.addN((s, p, o, copy) for s, p, o in graph)
        graph = copy
    state = _State(graph, QueryRunner(graph, timeout=timeout, max_rows=max_rows, isolate=isolate,
                                      max_runaways=max_runaways), max_query_bytes)

    async def run_blocking(func: Callable[..., Any], *args: Any) -> Any:
        return await anyio.to_thread.run_sync(func, *args, limiter=state.limiter)

    @_handler
    async def sparql(request: Request) -> Response:
        if len(request.url.query) > 3 * max_query_bytes:
            raise Refused(f"the query string is over this server's limit of {max_query_bytes} bytes", 413)
        body = b""
        if request.method == "POST":
            body = await _read_body(request, 3 * max_query_bytes)
        proto = parse_request(request.method, request.headers.get("content-type", ""), request.url.query, body)

        def run() -> tuple[bytes, str]:
            check_query(proto.query, max_query_bytes)
            result = state.runner.run(proto.query, proto.params)
            name, media = negotiate(result.kind, request.headers.get("accept"), proto.format_param)
            return render(result, name), media

        data, media = await run_blocking(run)
        charset = "; charset=utf-8" if media.startswith("text/") or "json" in media or "xml" in media else ""
        return Response(data, media_type=media + charset, headers={"Vary": "Accept"})

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok", "triples": state.triples, "runaway_queries": state.runner.runaways()})

    async def index(request: Request) -> Response:
        saved = [{"name": q.name, "description": q.description, "params": q.params, "text": q.text}
                 for q in list_saved()]
        from kg.viz.render import script_json

        return _page("index.html", saved=saved, saved_json=script_json(saved), prefixes_json=script_json(PREFIXES),
                     max_rows=max_rows, timeout=timeout)

    async def show(iri: str) -> Response:
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

        def build() -> dict[str, Any]:
            from kg.viz import render, views

            check_query(proto.query, max_query_bytes)
            result = state.runner.run(proto.query, proto.params)
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
            data = render.payload(h)
            for node in data["nodes"]:
                node["href"] = page_path(node["id"])
            data["message"] = note
            return data

        return JSONResponse(await run_blocking(build))

    static_files = _static_files()

    async def static(request: Request) -> Response:
        entry = static_files.get(request.path_params["name"])
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
        Route("/static/{name}", static, methods=["GET"]),
        Route("/{kind}/{key:path}", readable, methods=["GET"]),
    ]
    middleware = []
    if cors:
        origins = ["*"] if cors is True else ([cors] if isinstance(cors, str) else list(cors))
        middleware.append(Middleware(CORSMiddleware, allow_origins=origins, allow_methods=["GET", "POST"],
                                     allow_headers=["Accept", "Content-Type"]))
    return Starlette(routes=routes, middleware=middleware)
