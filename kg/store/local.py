"""The graph store: rdflib's API over Oxigraph (via oxrdflib), in memory or persistent on disk.

Every graph paperkg works on is an :class:`rdflib.Graph` whose triples live in the *default graph*
of a :class:`pyoxigraph.Store`, so SPARQL runs on Oxigraph's engine and parsing/serialising use its
Rust parsers while callers keep the familiar rdflib API.
"""
from __future__ import annotations

import gc
import re
import shutil
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Iterable

import pyoxigraph as ox
from oxrdflib import OxigraphStore
from oxrdflib._converter import from_ox_graph_name, to_ox, to_ox_quad_pattern
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID
from rdflib.term import Node, _toPythonMapping

from kg.store.bulkload import load_chunked
from kg.store.io import why_unwritable
from kg.errors import GraphError
from kg.namespaces import PREFIXES, XSD, XSD_STRING

BUILD_HINT = "build one with `kg build seeds/ --output output/` (or `kg build ... --store DIR` for a store)"

#: file extension -> pyoxigraph format used to parse it
PARSE_FORMATS: dict[str, ox.RdfFormat] = {
    ".ttl": ox.RdfFormat.TURTLE,
    ".turtle": ox.RdfFormat.TURTLE,
    ".nt": ox.RdfFormat.N_TRIPLES,
    ".nq": ox.RdfFormat.N_QUADS,
    ".trig": ox.RdfFormat.TRIG,
    ".jsonld": ox.RdfFormat.JSON_LD,
    ".json": ox.RdfFormat.JSON_LD,
    ".rdf": ox.RdfFormat.RDF_XML,
    ".owl": ox.RdfFormat.RDF_XML,
    ".xml": ox.RdfFormat.RDF_XML,
    ".n3": ox.RdfFormat.N3,
}


_XSD = str(XSD)
#: lexical forms rdflib's Literal constructor keeps as they are (its canonical forms), per datatype
_CANONICAL = {
    _XSD + "integer": (re.compile(r"0|-?[1-9][0-9]*"), int),
    _XSD + "decimal": (re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?"), Decimal),
}
#: datatype IRI -> the URIRef its literals share
_DATATYPES: dict[str, URIRef] = {}
_new_str = str.__new__


def _literal(lexical: str, language: str | None, datatype: URIRef | None, value: object,
             ill_typed: bool | None) -> Literal:
    """A Literal with exactly the attributes rdflib's constructor gives one whose lexical form it keeps.

    The constructor re-validates and re-normalises the text at 1.5-6 µs a term; setting the four slots
    directly costs a fifth of that. They are rdflib 7's slots, hence the ``rdflib<8`` bound in
    pyproject.toml; ``tests/test_store.py`` checks every shortcut against the constructor.
    """
    literal = _new_str(Literal, lexical)
    literal._language = language
    literal._datatype = datatype
    literal._value = value
    literal._ill_typed = ill_typed
    return literal


def _typed_literal(lexical: str, datatype: str) -> Literal:
    """The rdflib Literal of a typed pyoxigraph literal, built directly when its lexical form is canonical."""
    dt = _DATATYPES.get(datatype)
    if dt is None:
        dt = _DATATYPES[datatype] = URIRef(datatype)
    canonical = _CANONICAL.get(datatype)
    if canonical is not None:
        pattern, to_python = canonical
        if pattern.fullmatch(lexical):
            return _literal(lexical, None, dt, to_python(lexical), False)
    elif dt not in _toPythonMapping:
        # a datatype rdflib has no Python value for (xsd:gYear, custom ones): kept verbatim (the ones whose
        # text rdflib rewrites, xsd:token and xsd:normalizedString, are in its mapping)
        return _literal(lexical, None, dt, None, None)
    return Literal(lexical, datatype=dt)


def from_ox(term: ox.NamedNode | ox.BlankNode | ox.Literal | None) -> Node | None:
    """Convert a pyoxigraph term to rdflib; plain strings become plain Literals as rdflib's parsers make them.

    The terms equal, in every attribute, what rdflib's constructors make of the same text. Oxigraph has
    already validated IRIs and language tags, so common terms skip rdflib's re-validation: IRIs, strings,
    and typed literals whose lexical form rdflib would keep as it is.
    """
    if isinstance(term, ox.NamedNode):
        return _new_str(URIRef, term.value)
    if isinstance(term, ox.Literal):
        lexical = term.value
        language = term.language
        if language:
            return _literal(lexical, language, None, lexical, None)
        datatype = term.datatype.value
        if datatype == XSD_STRING:
            return _literal(lexical, None, None, lexical, None)
        return _typed_literal(lexical, datatype)
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    if term is None:
        return None
    raise GraphError(f"unsupported RDF term {term!r} (RDF-star triples are not used by paperkg)")


class KGOxigraphStore(OxigraphStore):
    """oxrdflib's store, returning ``Literal("x")`` rather than ``Literal("x", datatype=xsd:string)``.

    Both mean the same in RDF 1.1, but rdflib compares them as different terms; this keeps graphs read
    from Oxigraph equal (and isomorphic) to the same graphs parsed by rdflib.
    """

    def triples(self, triple_pattern, context=None):  # type: ignore[no-untyped-def]
        try:
            quads = self._inner.quads_for_pattern(*to_ox_quad_pattern(triple_pattern, context))
        except (TypeError, ValueError):
            return iter(())
        return (
            ((from_ox(q.subject), from_ox(q.predicate), from_ox(q.object)),
             iter((from_ox_graph_name(q.graph_name, self),)))
            for q in quads
        )

    def query(self, query, initNs, initBindings, queryGraph, **kwargs):  # type: ignore[no-untyped-def]  # noqa: N803
        result = super().query(query, initNs, initBindings, queryGraph, **kwargs)
        if result.type == "SELECT":
            raw = result.bindings
            result.bindings = ({v: (from_ox(to_ox(t)) if t is not None else None) for v, t in row.items()}
                               for row in raw)
        elif result.type == "CONSTRUCT" and result.graph is not None:
            clean = Graph()
            clean += ((from_ox(to_ox(s)), p, from_ox(to_ox(o))) for s, p, o in result.graph)
            result.graph = clean
        return result


def _wrap(store: ox.Store, path: Path | None = None) -> Graph:
    """An rdflib Graph over ``store``'s default graph, with :data:`PREFIXES` bound."""
    graph = Graph(store=KGOxigraphStore(store=store), identifier=DATASET_DEFAULT_GRAPH_ID, bind_namespaces="none")
    for prefix, namespace in PREFIXES.items():
        graph.bind(prefix, namespace, override=True, replace=True)
    graph.store._kg_path = path  # type: ignore[attr-defined]  # where a persistent store lives
    return graph


def new_graph() -> Graph:
    """A new, empty in-memory graph backed by Oxigraph, with the prefixes of :data:`PREFIXES` bound."""
    return _wrap(ox.Store())


def oxigraph_of(graph: Graph) -> ox.Store | None:
    """The pyoxigraph store under ``graph``, or None if the graph is not Oxigraph-backed."""
    store = graph.store
    if isinstance(store, OxigraphStore):
        return store._inner
    return None


def store_path(graph: Graph) -> Path | None:
    """The directory of the persistent store under ``graph`` (None for in-memory graphs)."""
    return getattr(graph.store, "_kg_path", None)


def add_triples(graph: Graph, triples: Iterable[tuple[Node, Node, Node]]) -> None:
    """Add many rdflib triples at once (much faster than ``graph.add`` in a loop on an Oxigraph graph)."""
    inner = oxigraph_of(graph)
    if inner is None:
        graph.addN((s, p, o, graph) for s, p, o in triples)
        return
    default = ox.DefaultGraph()
    inner.extend(ox.Quad(to_ox(s), to_ox(p), to_ox(o), default) for s, p, o in triples)


def _format_for(path: Path) -> ox.RdfFormat:
    fmt = PARSE_FORMATS.get(path.suffix.lower())
    if fmt is None:
        known = ", ".join(sorted(PARSE_FORMATS))
        raise GraphError(f"{path}: unknown RDF file extension {path.suffix!r}; use one of {known}")
    return fmt


def parse_into(graph: Graph, path: str | Path, fmt: ox.RdfFormat | None = None) -> Graph:
    """Parse the RDF file ``path`` into ``graph`` (default graph; named graphs of quad formats are merged)."""
    path = Path(path)
    fmt = fmt or _format_for(path)
    inner = oxigraph_of(graph)
    try:
        if inner is not None:
            load_chunked(inner, path, fmt)
        else:
            graph.parse(str(path), format=f"ox-{fmt.file_extension}")
    except SyntaxError as exc:
        raise GraphError(f"{path}: not valid {fmt.name}: {exc}; fix the file or rebuild it ({BUILD_HINT})") from exc
    except OSError as exc:
        raise GraphError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    return graph


def _is_store_dir(path: Path) -> bool:
    return path.is_dir() and (path / "CURRENT").is_file()


def open_store(directory: str | Path, *, create: bool = False, read_only: bool = False) -> Graph:
    """Open the persistent on-disk Oxigraph store in ``directory`` as an rdflib Graph.

    With ``create`` a missing directory becomes a new empty store; otherwise a missing store is a
    :class:`GraphError` saying how to build one. ``read_only`` lets several processes read one store.
    """
    directory = Path(directory)
    if not _is_store_dir(directory):
        if not create:
            what = "is not an Oxigraph store" if directory.exists() else "does not exist"
            raise GraphError(f"store {directory} {what}; {BUILD_HINT}")
        if directory.exists() and any(directory.iterdir()):
            raise GraphError(f"{directory} exists and is not an Oxigraph store; choose an empty or new directory")
    try:
        inner = ox.Store.read_only(str(directory)) if read_only else ox.Store(str(directory))
    except OSError as exc:
        raise GraphError(
            f"cannot open store {directory}: {exc}; if another process (kg serve, kg build) holds it, "
            "stop it or open the store read-only"
        ) from exc
    return _wrap(inner, directory)


def _quads_of(graph: Graph) -> Iterable[ox.Quad]:
    default = ox.DefaultGraph()
    inner = oxigraph_of(graph)
    if inner is not None:
        return (ox.Quad(q.subject, q.predicate, q.object, default) for q in inner.quads_for_pattern(None, None, None))
    return (ox.Quad(to_ox(s), to_ox(p), to_ox(o), default) for s, p, o in graph)


def as_oxigraph(graph: Graph) -> ox.Store:
    """The Oxigraph store under ``graph``, or an in-memory copy of ``graph`` in one if it has none."""
    inner = oxigraph_of(graph)
    if inner is not None:
        return inner
    store = ox.Store()
    store.extend(_quads_of(graph))
    return store


def save_to_store(graph: Graph, directory: str | Path) -> Path:
    """Write ``graph`` into a persistent Oxigraph store at ``directory``, replacing any store there.

    The new store is built in a sibling temporary directory and swapped in only when complete, so an
    interrupted save leaves the previous store intact.
    """
    directory = Path(directory)
    if directory.exists() and not _is_store_dir(directory) and any(directory.iterdir()):
        raise GraphError(f"{directory} exists and is not an Oxigraph store; refusing to overwrite it")
    try:
        directory.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", suffix=".tmp", dir=directory.parent))
    except OSError as exc:
        raise GraphError(f"cannot write the store {directory}: {why_unwritable(directory.parent, exc)}; choose "
                         "another --store directory or make its parent writable") from exc
    try:
        target = ox.Store(str(tmp))
        target.bulk_extend(_quads_of(graph))
        target.flush()
        del target
        gc.collect()  # RocksDB closes when the store is dropped
        old = None
        if directory.exists():
            old = directory.with_name(f".{directory.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            directory.rename(old)
        tmp.rename(directory)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise GraphError(f"cannot write store {directory}: {exc}") from exc
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return directory


def to_memory(graph: Graph) -> Graph:
    """A copy of ``graph`` in rdflib's pure-Python in-memory store (for comparisons and benchmarks)."""
    out = Graph(bind_namespaces="none")
    for prefix, namespace in PREFIXES.items():
        out.bind(prefix, namespace)
    out.addN((s, p, o, out) for s, p, o in graph)
    return out
