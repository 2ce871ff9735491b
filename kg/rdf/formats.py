"""RDF output formats: a small registry, deterministic pretty Turtle, JSON-LD with a context, atomic writes."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pyoxigraph as ox
from rdflib import Graph

from kg.errors import GraphError
from kg.namespaces import KG, PREFIXES, RDF, VOCABULARY_PREFIXES, XSD_STRING, compact_iri
from kg.store.io import atomic_open, atomic_write
from kg.store.local import as_oxigraph

__all__ = ["Format", "FORMATS", "get_format", "format_for_path", "serialize", "write_graph", "atomic_write",
           "jsonld_context", "sorted_triples", "sorted_ntriples"]

_RDF_TYPE = str(RDF.type)


@dataclass(frozen=True)
class Format:
    """One RDF serialisation format."""

    name: str
    extensions: tuple[str, ...]  # first one is the canonical extension, without dot
    media_type: str
    ox_format: ox.RdfFormat
    writer: Callable[[Graph, "Format"], bytes]


# --------------------------------------------------------------------------- triples, sorted


_TYPE_NT = b"> <" + _RDF_TYPE.encode() + b"> "
_TYPE_SORTKEY = b"> <\x01> "  # sorts before any IRI; N-Triples escapes control characters, so it is unambiguous


def to_sort_keys(data: bytes) -> bytes:
    """N-Triples in sort-key form, whose byte order is the order paperkg writes triples in: rdf:type first,
    and "> " (the end of every IRI token) as NUL, so that <a> sorts before <a/b>, i.e. by the IRI itself."""
    return data.replace(_TYPE_NT, _TYPE_SORTKEY).replace(b"> ", b"\x00 ")


def from_sort_keys(data: bytes) -> bytes:
    """The N-Triples of :func:`to_sort_keys` output."""
    return data.replace(b"\x00 ", b"> ").replace(_TYPE_SORTKEY, _TYPE_NT)


#: True when the default graph has a blank node (whose labels then need canonical relabelling).
HAS_BLANK = "ASK { { ?s ?p ?o FILTER(isBlank(?s)) } UNION { ?s ?p ?o FILTER(isBlank(?o)) } }"


def _ntriples(store: ox.Store) -> bytes:
    """The default graph as N-Triples, blank nodes relabelled canonically (RDFC-1.0) if there are any."""
    if not bool(store.query(HAS_BLANK)):
        return store.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph()) or b""
    dataset = ox.Dataset(store.quads_for_pattern(None, None, None, ox.DefaultGraph()))
    dataset.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
    return ox.serialize(dataset, format=ox.RdfFormat.N_QUADS) or b""


def sorted_ntriples(graph: Graph) -> bytes:
    """The graph as N-Triples in a stable order: subjects sorted, rdf:type first, then predicates, then objects.

    Sorting the lines of Oxigraph's N-Triples dump keeps the work in C and Rust: a 3-million-triple
    graph sorts in seconds.
    """
    data = to_sort_keys(_ntriples(as_oxigraph(graph)))
    lines = [line for line in data.split(b"\n") if line]
    del data
    lines.sort()
    if not lines:
        return b""
    return from_sort_keys(b"\n".join(lines) + b"\n")


def _sorted_quads(graph: Graph) -> ox.QuadParser:
    return ox.parse(sorted_ntriples(graph), format=ox.RdfFormat.N_TRIPLES)


def sorted_triples(graph: Graph) -> list[ox.Triple]:
    """The graph's triples as pyoxigraph Triples, in the order of :func:`sorted_ntriples`."""
    return [ox.Triple(q.subject, q.predicate, q.object) for q in _sorted_quads(graph)]


# --------------------------------------------------------------------------- writers


def prefix_header() -> bytes:
    """The @prefix lines of every Turtle file paperkg writes: all of :data:`PREFIXES`, in their order."""
    return "".join(f"@prefix {p}: <{ns}> .\n" for p, ns in PREFIXES.items()).encode()


def turtle_statements(body: bytes) -> bytes:
    """pyoxigraph's Turtle without its @prefix lines (written in hash order), indented with four spaces,
    a blank line between subject blocks and no final newline."""
    pos = 0
    while body.startswith(b"@prefix ", pos):
        pos = body.index(b"\n", pos) + 1
    # Literals are written with \n and \t escaped, so every physical line is one statement line and
    # a line ending in " ." closes a subject block.
    return body[pos:].replace(b" .\n", b" .\n\n").replace(b"\n\t", b"\n    ").rstrip(b"\n")


def _pretty_turtle_body(body: bytes) -> bytes:
    """pyoxigraph's Turtle under our @prefix lines, in a stable order (see :func:`turtle_statements`)."""
    body = turtle_statements(body)
    return prefix_header() + (b"\n" + body + b"\n" if body else b"")


def _write_turtle(graph: Graph, fmt: Format) -> bytes:
    """Deterministic pretty Turtle (or TriG of the default graph) over the sorted triples."""
    return _pretty_turtle_body(ox.serialize(_sorted_quads(graph), format=fmt.ox_format, prefixes=PREFIXES) or b"")


def _write_plain(graph: Graph, fmt: Format) -> bytes:
    """N-Triples and N-Quads through pyoxigraph, over the sorted triples."""
    return sorted_ntriples(graph)  # N-Quads of the default graph are N-Triples


_XMLNS = re.compile(rb'\s+xmlns:([A-Za-z_][\w.-]*)="([^"]*)"')


def _write_rdfxml(graph: Graph, fmt: Format) -> bytes:
    """RDF/XML through pyoxigraph, with the namespace declarations of the root element in a stable order."""
    data = ox.serialize(_sorted_quads(graph), format=fmt.ox_format, prefixes=PREFIXES) or b""
    start = data.find(b"<rdf:RDF")
    if start < 0:
        return data
    end = data.index(b">", start)
    declared = dict(_XMLNS.findall(data[start:end]))
    order = [p.encode() for p in PREFIXES if p.encode() in declared]
    order += sorted(k for k in declared if k not in order)
    attrs = b"".join(b' xmlns:' + k + b'="' + declared[k] + b'"' for k in order)
    return data[:start] + b"<rdf:RDF" + attrs + data[end:]


def _local_name(iri: str) -> str | None:
    if iri.startswith(str(KG)):
        local = iri[len(str(KG)):]
        if local and local.replace("_", "a").isalnum() and local not in VOCABULARY_PREFIXES:
            return local
    return None


def _compact(iri: str) -> str:
    return compact_iri(iri, VOCABULARY_PREFIXES) or iri


def jsonld_context(predicates: set[str] | None = None, classes: set[str] | None = None) -> dict[str, object]:
    """The JSON-LD @context: the prefixes of :data:`VOCABULARY_PREFIXES`, plus a bare term for each ``kg:`` class or
    property used."""
    context: dict[str, object] = dict(VOCABULARY_PREFIXES)
    for iri in sorted((predicates or set()) | (classes or set())):
        local = _local_name(iri)
        if local is not None:
            context[local] = f"kg:{local}"
    return context


def _jsonld_id(term: ox.NamedNode | ox.BlankNode) -> str:
    return f"_:{term.value}" if isinstance(term, ox.BlankNode) else _compact(term.value)


def _jsonld_value(term: ox.NamedNode | ox.BlankNode | ox.Literal) -> object:
    if not isinstance(term, ox.Literal):
        return {"@id": _jsonld_id(term)}
    if term.language:
        return {"@value": term.value, "@language": term.language}
    if term.datatype.value == XSD_STRING:
        return term.value
    return {"@value": term.value, "@type": _compact(term.datatype.value)}


def _write_jsonld(graph: Graph, fmt: Format) -> bytes:
    """Compact JSON-LD: {"@context": ..., "@graph": [...]}, one node object per subject, in a stable order."""
    triples = sorted_triples(graph)
    predicates = {t.predicate.value for t in triples}
    classes = {t.object.value for t in triples if t.predicate.value == _RDF_TYPE and isinstance(t.object, ox.NamedNode)}
    context = jsonld_context(predicates, classes)
    terms = {f"{KG}{k}": k for k in context if k not in VOCABULARY_PREFIXES}
    nodes: list[dict[str, object]] = []
    current: dict[str, object] | None = None
    last_subject = None
    for t in triples:
        if t.subject != last_subject:
            current = {"@id": _jsonld_id(t.subject)}
            nodes.append(current)
            last_subject = t.subject
        assert current is not None
        p = t.predicate.value
        if p == _RDF_TYPE and isinstance(t.object, ox.NamedNode):
            key, value = "@type", terms.get(t.object.value) or _compact(t.object.value)
        else:
            key, value = terms.get(p) or _compact(p), _jsonld_value(t.object)
        current.setdefault(key, []).append(value)  # type: ignore[union-attr]
    doc = {"@context": context, "@graph": nodes}
    return (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode()


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("turtle", ("ttl", "turtle"), "text/turtle", ox.RdfFormat.TURTLE, _write_turtle),
        Format("nt", ("nt",), "application/n-triples", ox.RdfFormat.N_TRIPLES, _write_plain),
        Format("nquads", ("nq",), "application/n-quads", ox.RdfFormat.N_QUADS, _write_plain),
        Format("trig", ("trig",), "application/trig", ox.RdfFormat.TRIG, _write_turtle),
        Format("jsonld", ("jsonld", "json"), "application/ld+json", ox.RdfFormat.JSON_LD, _write_jsonld),
        Format("rdfxml", ("rdf", "owl", "xml"), "application/rdf+xml", ox.RdfFormat.RDF_XML, _write_rdfxml),
    )
}

#: alternative names accepted for a format
ALIASES: dict[str, str] = {"ttl": "turtle", "ntriples": "nt", "n-triples": "nt", "nq": "nquads",
                           "n-quads": "nquads", "json-ld": "jsonld", "xml": "rdfxml", "rdf": "rdfxml"}


def get_format(name: str) -> Format:
    """The format called ``name`` (or one of its aliases); GraphError listing the known names otherwise."""
    key = name.lower()
    fmt = FORMATS.get(ALIASES.get(key, key))
    if fmt is None:
        raise GraphError(f"unknown RDF format {name!r}; use one of {', '.join(FORMATS)}")
    return fmt


def format_for_path(path: str | Path) -> Format:
    """The format whose extension ``path`` has; GraphError if none does."""
    ext = Path(path).suffix.lower().lstrip(".")
    for fmt in FORMATS.values():
        if ext in fmt.extensions:
            return fmt
    raise GraphError(f"{path}: cannot tell the RDF format from extension {ext!r}; "
                     f"pass --format NAME ({', '.join(FORMATS)}) or use one of "
                     f"{', '.join('.' + e for f in FORMATS.values() for e in f.extensions)}")


def serialize(graph: Graph, fmt: str | Format = "turtle") -> bytes:
    """Serialise ``graph`` in ``fmt`` (a name of :data:`FORMATS` or a :class:`Format`) deterministically."""
    fmt = fmt if isinstance(fmt, Format) else get_format(fmt)
    try:
        return fmt.writer(graph, fmt)
    except (ValueError, TypeError) as exc:
        raise GraphError(f"cannot serialise the graph as {fmt.name}: {exc}") from exc


def write_graph(graph: Graph, path: str | Path, fmt: str | Format | None = None) -> Path:
    """Write ``graph`` to ``path`` atomically; the format is ``fmt`` or guessed from the extension."""
    path = Path(path)
    resolved = format_for_path(path) if fmt is None else (fmt if isinstance(fmt, Format) else get_format(fmt))
    data = serialize(graph, resolved)
    with atomic_open(path) as handle:
        handle.write(data)
    return path
