"""Run SPARQL 1.1 queries on a graph: saved or inline, with safely bound parameters and a timeout.

On an Oxigraph-backed graph (:func:`kg.store.load.load_graph`) the query runs on Oxigraph's engine; on any
other rdflib graph it runs on rdflib's. Oxigraph cannot cancel a running query, so a timeout is
enforced from outside: by default the query runs in a thread (Oxigraph releases the GIL) which the
caller stops waiting for when time is up, costing nothing when it finishes in time; a runaway query
then goes on in the background until it ends or the process exits (what ``kg query`` does). With
``isolate=True`` it runs in a forked worker process that is killed on timeout, for long-lived hosts,
at the price of a fork per query (0.1-0.3 s on a large graph, copy-on-write).

Without a timeout, a query on Oxigraph called from the main thread still runs on another thread:
glibc gives each thread its own malloc arena, and Oxigraph's many small allocations while it evaluates
are ~1.5x slower in the main arena, which also holds the loaded graph (measured on the 30k-paper graph:
type-counts 290 -> 165 ms, top-methods 255 -> 160 ms; with MALLOC_ARENA_MAX=1 both are slow). The
hand-off to that (long-lived) thread costs ~0.03 ms. Result rows are converted inside that thread too,
each distinct term once.
"""
from __future__ import annotations

import os
import pickle
import queue
import re
import select
import signal
import threading
import time
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

import pyoxigraph as ox
from oxrdflib._converter import to_ox
from rdflib import Graph, Literal, URIRef
from rdflib.term import Node

from kg.errors import GraphError, QueryError, QueryTimeout
from kg.namespaces import PREFIXES, XSD, expand_curie
from kg.sparql.lexer import LexError
from kg.sparql.safety import DEFAULT_MAX_DEPTH, QUERY_FORMS, UPDATE_KEYWORDS, inspect, iri_problem
from kg.sparql.saved import SavedQuery, get_saved, is_saved
from kg.store.local import from_ox, oxigraph_of

__all__ = ["QueryResult", "run_query", "resolve_query", "bind_value", "check_params", "check_depth", "syntax_error", "is_update", "DEFAULT_TIMEOUT"]

DEFAULT_TIMEOUT = 30.0

Row = tuple[Node | None, ...]


@dataclass
class QueryResult:
    """The result of a query.

    ``kind`` is "select", "ask", "construct", "describe" or "update"; SELECT results have ``columns``
    and ``rows`` (tuples of rdflib terms, None where unbound); ASK has ``boolean``; CONSTRUCT and
    DESCRIBE have ``graph``.
    """

    kind: str
    columns: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    boolean: bool | None = None
    graph: Graph | None = None
    seconds: float = 0.0

    def __iter__(self) -> Iterator[Any]:
        if self.graph is not None:
            return iter(self.graph)
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.graph) if self.graph is not None else len(self.rows)

    def __bool__(self) -> bool:
        return bool(self.boolean) if self.kind == "ask" else len(self) > 0

    def dicts(self) -> list[dict[str, Node | None]]:
        """The rows as dicts keyed by column name."""
        return [dict(zip(self.columns, row)) for row in self.rows]


# --------------------------------------------------------------------------- query text


_UPDATE_KEYWORDS = {"INSERT", "DELETE", "LOAD", "CLEAR", "CREATE", "DROP", "COPY", "MOVE", "ADD", "WITH"}
_PROLOGUE = re.compile(
    r"""\s+|\#[^\n]*|(?i:PREFIX)\s+[^\s:]*:\s*<[^>]*>|(?i:BASE)\s*<[^>]*>""",
)
_KEYWORD = re.compile(r"[A-Za-z]+")


def is_update(text: str) -> bool:
    """Whether ``text`` is a SPARQL Update (its first keyword after the prologue is INSERT, DELETE, LOAD, ...)."""
    return _first_keyword(text) in _UPDATE_KEYWORDS


def resolve_query(text_or_saved_name: str) -> tuple[str, SavedQuery | None]:
    """The SPARQL text of a saved query name, a ``.rq`` file path or inline SPARQL, and the saved query if any."""
    candidate = text_or_saved_name.strip()
    if is_saved(candidate):
        saved = get_saved(candidate)
        return saved.text, saved
    if candidate.endswith(".rq") and "\n" not in candidate:
        path = Path(candidate)
        if not path.is_file():
            raise QueryError(f"query file {path} does not exist")
        try:
            return path.read_text(encoding="utf-8"), None
        except (OSError, UnicodeDecodeError) as exc:
            raise QueryError(f"cannot read query file {path}: {exc}") from exc
    if not candidate:
        raise QueryError("empty query; give SPARQL text, a .rq file or a saved query name (kg query --list)")
    if re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", candidate) and candidate.upper() not in _SPARQL_STARTS:
        get_saved(candidate)  # a saved query's name, as it looks, but none: raises, listing the known names
    return text_or_saved_name, None


#: The words that start SPARQL text (one of them alone is a syntax error, not an unknown saved query name).
_SPARQL_STARTS = frozenset({*QUERY_FORMS, *UPDATE_KEYWORDS, "PREFIX", "BASE"})
_INTEGER = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"[+-]?(\d+\.\d*|\.\d+)")


def bind_value(value: str | Node) -> Node:
    """Type a parameter value: an http(s) IRI or a prefixed name of a known prefix (``id:method/bert``)
    becomes a URIRef (QueryError if it is not a valid IRI), an integer or decimal a typed Literal (lexical
    form kept), anything else a string."""
    if isinstance(value, Node):
        return value
    text = str(value)
    iri = None
    if text.startswith(("http://", "https://")):
        iri = text
    iri = expand_curie(text) or iri
    if iri is not None:
        problem = iri_problem(iri)
        if problem:
            raise QueryError(f"parameter value {text!r} is not a valid IRI: {problem}")
        return URIRef(iri)
    if _INTEGER.fullmatch(text):
        return Literal(text, datatype=XSD.integer, normalize=False)
    if _DECIMAL.fullmatch(text):
        try:
            Decimal(text)
            return Literal(text, datatype=XSD.decimal, normalize=False)
        except InvalidOperation:
            pass
    return Literal(text)


def check_params(text: str, saved: SavedQuery | None, params: Mapping[str, Any]) -> dict[str, Node]:
    """Type ``params`` for ``text``; QueryError for a parameter the query lacks or a saved query's missing one."""
    bindings = {}
    for name, value in params.items():
        name = name.lstrip("?$")
        if saved is not None and name not in saved.params:
            known = ", ".join(saved.params) or "none"
            raise QueryError(f"saved query {saved.name!r} has no parameter {name!r} (its parameters: {known})")
        if saved is None and not re.search(rf"[?$]{re.escape(name)}\b", text):
            raise QueryError(f"the query has no variable ?{name} to bind --param {name}=... to")
        bindings[name] = bind_value(value)
    if saved is not None:
        missing = [p for p in saved.required if p not in bindings]
        if missing:
            hints = "; ".join(f"{p}: {saved.params[p]}" for p in missing)
            raise QueryError(
                f"saved query {saved.name!r} needs --param {' --param '.join(p + '=...' for p in missing)} ({hints})"
            )
    return bindings


# --------------------------------------------------------------------------- errors


_POSITION = re.compile(r"error at (\d+):(\d+):\s*(.*)", re.S)


def syntax_error(text: str, message: str, line: int | None = None, column: int | None = None) -> QueryError:
    """A QueryError for a parser's ``message`` on ``text``: line, column and a caret under the spot."""
    match = _POSITION.search(message)
    if match:
        line, column, message = int(match.group(1)), int(match.group(2)), match.group(3)
    if "Prefix not found" in message:
        message = f"undeclared prefix (declare it with PREFIX, or use one of {', '.join(p + ':' for p in PREFIXES)})"
    message = message.splitlines()[0].strip() if message.strip() else "invalid syntax"
    if len(message) > 200:
        message = message[:200] + "..."
    where = ""
    pointer = ""
    if line is not None and column is not None:
        where = f" at line {line}, column {column}"
        lines = text.splitlines()
        if 1 <= line <= len(lines):
            pointer = f"\n  {lines[line - 1]}\n  {' ' * max(column - 1, 0)}^"
    return QueryError(f"SPARQL syntax error{where}: {message}{pointer}")


# --------------------------------------------------------------------------- engines


def _solution_rows(solutions: ox.QuerySolutions) -> list[Row]:
    """The solutions as tuples of rdflib terms, each distinct term converted once.

    Results repeat terms a lot (labels, counts, the entity of every row), and building an rdflib term
    costs more than hashing a pyoxigraph one, even with :func:`kg.store.local.from_ox`'s shortcuts: on the
    30k-paper graph, tasks-per-modality (22k rows) takes 471 ms with this cache against 559 ms
    converting every term, and papers-using 46 against 61 ms.
    """
    cache: dict[Any, Node | None] = {None: None}
    get = cache.get
    rows = []
    for solution in solutions:
        row = []
        for term in solution:
            node = get(term, cache)
            if node is cache:
                node = cache[term] = from_ox(term)
            row.append(node)
        rows.append(tuple(row))
    return rows


def _convert_ox(result: Any, kind_hint: str) -> QueryResult:
    if isinstance(result, ox.QueryBoolean):
        return QueryResult(kind="ask", boolean=bool(result))
    if isinstance(result, ox.QuerySolutions):
        columns = [v.value for v in result.variables]
        return QueryResult(kind="select", columns=columns, rows=_solution_rows(result))
    graph = Graph(bind_namespaces="none")
    for prefix, ns in PREFIXES.items():
        graph.bind(prefix, ns)
    graph.addN((from_ox(t.subject), from_ox(t.predicate), from_ox(t.object), graph) for t in result)
    return QueryResult(kind=kind_hint, graph=graph)


def _first_keyword(text: str) -> str:
    """The first keyword of a query after its prologue (PREFIX/BASE declarations and comments), upper-cased."""
    pos = 0
    while True:
        match = _PROLOGUE.match(text, pos)
        if not match or match.end() == pos:
            break
        pos = match.end()
    word = _KEYWORD.match(text, pos)
    return word.group(0).upper() if word else ""


def _graph_kind(text: str) -> str:
    return "describe" if _first_keyword(text) == "DESCRIBE" else "construct"


def _run_oxigraph(store: ox.Store, text: str, bindings: Mapping[str, Node]) -> QueryResult:
    substitutions = {ox.Variable(k): to_ox(v) for k, v in bindings.items()}
    try:
        result = store.query(text, prefixes=PREFIXES, substitutions=substitutions)
        return _convert_ox(result, _graph_kind(text))
    except SyntaxError as exc:
        raise syntax_error(text, str(exc)) from None
    except RuntimeError as exc:
        missing = re.search(r"variable \?(\w+) in its SELECT projection", str(exc))
        if missing:
            raise QueryError(
                f"parameter ?{missing.group(1)} must be a variable the query SELECTs: parameters are bound by "
                f"substitution (SPARQL SEP-0007); add ?{missing.group(1)} to the SELECT clause"
            ) from None
        raise QueryError(f"query failed: {exc}") from exc
    except (OSError, ValueError, TypeError) as exc:
        raise QueryError(f"query failed: {exc}") from exc


def _unreachable(exc: BaseException) -> str | None:
    """The network failure behind ``exc``, if one is (rdflib's SPARQL store reports a refused connection as
    a ValueError "You did something wrong formulating either the URI or your SPARQL query")."""
    import urllib.error

    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, urllib.error.HTTPError):
            return None  # the server answered: the query is what failed
        if isinstance(cause, (urllib.error.URLError, ConnectionError, TimeoutError)):
            return str(getattr(cause, "reason", cause))
        cause = cause.__cause__ or cause.__context__
    return None


def _run_rdflib(graph: Graph, text: str, bindings: Mapping[str, Node]) -> QueryResult:
    from pyparsing import ParseException  # rdflib's SPARQL parser is built on pyparsing

    try:
        result = graph.query(text, initNs=PREFIXES, initBindings=dict(bindings))
    except ParseException as exc:
        raise syntax_error(text, exc.msg, exc.lineno, exc.col) from None
    except Exception as exc:  # rdflib raises many exception types while evaluating
        unreachable = _unreachable(exc)
        if unreachable is not None:
            endpoint = getattr(graph.store, "query_endpoint", "the SPARQL server")
            raise GraphError(f"cannot reach {endpoint} ({unreachable}); check the URL and that the server "
                             "runs") from exc
        raise QueryError(f"query failed: {exc}") from exc
    if result.type == "ASK":
        return QueryResult(kind="ask", boolean=bool(result.askAnswer))
    if result.type == "SELECT":
        columns = [str(v) for v in result.vars or []]
        rows = [tuple(row) for row in result]
        return QueryResult(kind="select", columns=columns, rows=rows)
    out = Graph(bind_namespaces="none")
    for prefix, ns in PREFIXES.items():
        out.bind(prefix, ns)
    out.addN((s, p, o, out) for s, p, o in result)
    return QueryResult(kind=result.type.lower(), graph=out)


_LATERAL = re.compile(r"\bLATERAL\s*\{")


def _execute(graph: Graph, text: str, bindings: Mapping[str, Node], saved: SavedQuery | None = None) -> QueryResult:
    store = oxigraph_of(graph)
    if store is not None:
        return _run_oxigraph(store, text, bindings)
    if saved is not None:
        # Saved queries use LATERAL only to make Oxigraph start from the bound parameter; each LATERAL
        # group there joins on its shared variables alone, so a plain group means the same to rdflib.
        text = _LATERAL.sub("{", text)
    return _run_rdflib(graph, text, bindings)


# --------------------------------------------------------------------------- timeout


def _timeout_error(timeout: float) -> QueryTimeout:
    return QueryTimeout(
        f"query stopped after the {timeout:g} s timeout; simplify it (add LIMIT, narrow the patterns) "
        "or raise --timeout"
    )


#: stack of the threads that run queries: Oxigraph's parser recurses once per nesting level and per
#: operator of a chain (7,000 UNIONs overflow the default 8 MB); address space only, not memory used
QUERY_STACK_BYTES = 512 * 1024 * 1024
_STACK_LOCK = threading.Lock()


def _start_thread(target: Callable[[], None], name: str) -> threading.Thread:
    """Start a daemon thread with :data:`QUERY_STACK_BYTES` of stack."""
    with _STACK_LOCK:
        previous = threading.stack_size(QUERY_STACK_BYTES)
        try:
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
        finally:
            threading.stack_size(previous)
    return thread


def check_depth(text: str, max_depth: int = DEFAULT_MAX_DEPTH) -> None:
    """QueryError if ``text`` nests brackets deeper than ``max_depth`` (texts the lexer cannot read are
    left to the engine, which reports their syntax error)."""
    try:
        depth = inspect(text).depth
    except LexError:
        return
    if depth > max_depth:
        raise QueryError(f"the query nests {depth} levels of brackets, over the limit of {max_depth}; "
                         "flatten the groups")


def _in_thread(func: Callable[[], QueryResult], timeout: float | None) -> QueryResult:
    """Run ``func`` in a daemon thread; raise QueryError if it has not finished after ``timeout`` seconds
    (None: wait until it finishes)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = func()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller
            box["error"] = exc

    worker = _start_thread(target, "kg-query")
    worker.join(timeout)
    if worker.is_alive():
        raise _timeout_error(timeout or 0.0)
    if "error" in box:
        raise box["error"]
    return box["value"]


class _QueryThread:
    """One long-lived daemon thread that runs the untimed Oxigraph queries of the main thread.

    Handing a query to a waiting thread costs ~0.03 ms where starting a thread costs ~0.2 ms, which
    matters for look-ups that themselves take 0.3 ms. Made on first use; if it is still busy (the
    caller was interrupted while waiting) or the process has forked since, a fresh thread runs the query.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._pid = os.getpid()
        self._busy = False
        _start_thread(self._loop, "kg-query-main")

    def _loop(self) -> None:
        while True:
            func, box, done = self._jobs.get()
            try:
                box["value"] = func()
            except BaseException as exc:  # noqa: BLE001 - re-raised in the caller
                box["error"] = exc
            finally:
                self._busy = False
                done.release()

    def usable(self) -> bool:
        """Whether this thread can take a query now (it exists in this process and is idle)."""
        return self._pid == os.getpid() and not self._busy

    def run(self, func: Callable[[], QueryResult]) -> QueryResult:
        """Run ``func`` on this thread and wait for it (interruptible by Ctrl-C)."""
        box: dict[str, Any] = {}
        done = threading.Lock()
        done.acquire()
        self._busy = True
        self._jobs.put((func, box, done))
        done.acquire()
        if "error" in box:
            raise box["error"]
        return box["value"]


_query_thread: _QueryThread | None = None


def _off_main_thread(func: Callable[[], QueryResult]) -> QueryResult:
    """Run ``func`` on the long-lived query thread (or a fresh one if that is busy), without a time limit."""
    global _query_thread
    if _query_thread is None or _query_thread._pid != os.getpid():
        _query_thread = _QueryThread()
    if not _query_thread.usable():
        return _in_thread(func, None)
    return _query_thread.run(func)


def _in_worker(func: Callable[[], QueryResult], timeout: float) -> QueryResult:
    """Run ``func`` in a forked child; kill it and raise QueryError if it takes more than ``timeout`` seconds."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: compute, send the pickled outcome, exit without cleanup
        os.close(read_fd)
        code = 0
        try:
            try:
                outcome: tuple[str, Any] = ("ok", func())
            except QueryError as exc:
                outcome = ("error", str(exc))
            except BaseException as exc:  # noqa: BLE001 - report everything to the parent
                outcome = ("error", f"query failed: {type(exc).__name__}: {exc}")
            payload = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
            view = memoryview(payload)
            while view:
                written = os.write(write_fd, view)
                view = view[written:]
        except BaseException:  # noqa: BLE001
            code = 1
        finally:
            os._exit(code)
    os.close(write_fd)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _timeout_error(timeout)
            ready, _, _ = select.select([read_fd], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(read_fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        raise
    finally:
        os.close(read_fd)
        os.waitpid(pid, 0)
    if not chunks:
        raise QueryError("the query worker process died without an answer (out of memory?)")
    status, value = pickle.loads(b"".join(chunks))
    if status == "error":
        raise QueryError(value)
    return value


# --------------------------------------------------------------------------- API


def _run_update(graph: Graph, text: str) -> QueryResult:
    store = oxigraph_of(graph)
    before = len(graph)
    try:
        if store is not None:
            store.update(text, prefixes=PREFIXES)
        else:
            graph.update(text, initNs=PREFIXES)
    except SyntaxError as exc:
        raise syntax_error(text, str(exc)) from None
    except Exception as exc:  # noqa: BLE001
        raise QueryError(f"update failed: {exc}") from exc
    after = len(graph)
    return QueryResult(kind="update", columns=["before", "after"],
                       rows=[(Literal(before), Literal(after))])


def _drop_columns(result: QueryResult, names: set[str]) -> None:
    """Remove the columns of bound parameters (saved queries project them only so they can be bound)."""
    keep = [i for i, c in enumerate(result.columns) if c not in names]
    if len(keep) == len(result.columns):
        return
    result.columns = [result.columns[i] for i in keep]
    result.rows = [tuple(row[i] for i in keep) for row in result.rows]


def run_query(graph: Graph, text_or_saved_name: str, params: Mapping[str, Any] | None = None,
              timeout: float | None = DEFAULT_TIMEOUT, allow_update: bool = False,
              isolate: bool = False) -> QueryResult:
    """Run a SPARQL query (inline text, a ``.rq`` file or a saved query name) on ``graph``.

    ``params`` are bound as initial bindings (never pasted into the text) after :func:`bind_value`
    typing. A SPARQL Update is refused unless ``allow_update``. With a ``timeout`` (seconds) the caller
    gets a QueryError when time is up: the query runs in a thread, or with ``isolate`` in a forked
    worker process that is then killed (see the module docstring); None sets no time limit.
    """
    text, saved = resolve_query(text_or_saved_name)
    check_depth(text)
    bindings = check_params(text, saved, params or {})
    started = time.perf_counter()
    if is_update(text):
        if not allow_update:
            raise QueryError("this is a SPARQL Update, which would change the graph; refused "
                             "(pass --allow-update, or allow_update=True, to run it)")
        if bindings:
            raise QueryError("parameters cannot be bound in a SPARQL Update")
        result = _run_update(graph, text)
    elif timeout is not None and timeout > 0:
        run_it = lambda: _execute(graph, text, bindings, saved)  # noqa: E731
        result = _in_worker(run_it, timeout) if isolate and hasattr(os, "fork") else _in_thread(run_it, timeout)
    elif oxigraph_of(graph) is not None and threading.current_thread() is threading.main_thread():
        # Off the main thread, Oxigraph's allocations come from a fresh malloc arena rather than the main
        # one that holds the loaded graph: heavy queries take ~1.5x less time (see the module docstring).
        result = _off_main_thread(lambda: _execute(graph, text, bindings, saved))
    else:
        result = _execute(graph, text, bindings, saved)
    if saved is not None and result.kind == "select" and bindings:
        _drop_columns(result, set(bindings))
    result.seconds = time.perf_counter() - started
    return result
