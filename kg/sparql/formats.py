"""Output formats of query results: a registry of writers for SELECT/ASK results and for graph results.

SELECT and ASK: ``table`` (aligned, for a terminal), and the SPARQL 1.1 results formats ``csv``, ``tsv``,
``json`` and ``xml``. CONSTRUCT and DESCRIBE: ``turtle`` or ``nt`` (or any format of :mod:`kg.rdf.formats`).
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from typing import Callable
from xml.sax.saxutils import escape, quoteattr

import pyoxigraph as ox
from oxrdflib._converter import to_ox
from rdflib import BNode, Literal, URIRef
from rdflib.term import Node

from kg.errors import QueryError
from kg.namespaces import XSD, XSD_STRING, compact_iri
from kg.rdf.formats import FORMATS as RDF_FORMATS
from kg.rdf.formats import serialize
from kg.sparql.run import QueryResult

_NUMERIC = {str(XSD.integer), str(XSD.decimal), str(XSD.double), str(XSD.float), str(XSD.int), str(XSD.long)}
CELL_WIDTH = 60


@dataclass(frozen=True)
class ResultFormat:
    """One output format for query results."""

    name: str
    media_type: str
    kinds: frozenset[str]  # result kinds it can write
    writer: Callable[[QueryResult], bytes]


# --------------------------------------------------------------------------- terms


def ntriples_term(term: Node | None) -> str:
    """A term in N-Triples syntax (as the TSV results format wants it); "" for unbound."""
    return "" if term is None else str(to_ox(term))


def compact(term: Node | None, width: int | None = CELL_WIDTH) -> str:
    """A short human form of a term for the table: prefixed IRIs, bare literal text, cut at ``width``."""
    if term is None:
        text = ""
    elif isinstance(term, URIRef):
        text = compact_iri(str(term)) or str(term)
    elif isinstance(term, BNode):
        text = f"_:{term}"
    else:
        text = str(term)
    text = " ".join(text.split())  # one line per row
    if width is not None and len(text) > width:
        text = text[: width - 1] + "…"
    return text


def _is_numeric(term: Node | None) -> bool:
    return isinstance(term, Literal) and term.datatype is not None and str(term.datatype) in _NUMERIC


# --------------------------------------------------------------------------- writers


def _table(result: QueryResult) -> bytes:
    if result.kind == "ask":
        return b"true\n" if result.boolean else b"false\n"
    if result.kind == "update":
        before, after = (int(t) for t in result.rows[0])
        return f"update applied: {before} triples before, {after} after\n".encode()
    cells = [[compact(t) for t in row] for row in result.rows]
    widths = [len(c) for c in result.columns]
    for row in cells:
        widths = [max(w, len(c)) for w, c in zip(widths, row)]
    numeric = [bool(result.rows) and all(_is_numeric(r[i]) or r[i] is None for r in result.rows)
               for i in range(len(result.columns))]

    def line(values: list[str]) -> str:
        parts = [v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)]
        return "  ".join(parts).rstrip()

    out = [line(result.columns), "  ".join("-" * w for w in widths)]
    out += [line(row) for row in cells]
    count = len(result.rows)
    out.append(f"({count} row{'s' if count != 1 else ''})")
    return ("\n".join(out) + "\n").encode()


def _csv(result: QueryResult) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    if result.kind == "ask":
        writer.writerow(["boolean"])
        writer.writerow(["true" if result.boolean else "false"])
    else:
        writer.writerow(result.columns)
        for row in result.rows:
            writer.writerow(["" if t is None else (f"_:{t}" if isinstance(t, BNode) else str(t)) for t in row])
    return buffer.getvalue().encode()


def _tsv(result: QueryResult) -> bytes:
    if result.kind == "ask":
        return b"?boolean\n" + (b"true\n" if result.boolean else b"false\n")
    lines = ["\t".join("?" + c for c in result.columns)]
    lines += ["\t".join(ntriples_term(t) for t in row) for row in result.rows]
    return ("\n".join(lines) + "\n").encode()


def json_term(term: Node) -> dict[str, str]:
    """A term as a SPARQL 1.1 JSON results binding."""
    if isinstance(term, URIRef):
        return {"type": "uri", "value": str(term)}
    if isinstance(term, BNode):
        return {"type": "bnode", "value": str(term)}
    assert isinstance(term, Literal)
    out = {"type": "literal", "value": str(term)}
    if term.language:
        out["xml:lang"] = term.language
    elif term.datatype is not None and str(term.datatype) != XSD_STRING:
        out["datatype"] = str(term.datatype)
    return out


def to_json(result: QueryResult) -> dict[str, object]:
    """The result as a SPARQL 1.1 JSON results document (a dict)."""
    if result.kind == "ask":
        return {"head": {}, "boolean": bool(result.boolean)}
    bindings = [{c: json_term(t) for c, t in zip(result.columns, row) if t is not None} for row in result.rows]
    return {"head": {"vars": list(result.columns)}, "results": {"bindings": bindings}}


def _json(result: QueryResult) -> bytes:
    return (json.dumps(to_json(result), ensure_ascii=False, indent=1) + "\n").encode()


def _xml_term(term: Node) -> str:
    if isinstance(term, URIRef):
        return f"<uri>{escape(str(term))}</uri>"
    if isinstance(term, BNode):
        return f"<bnode>{escape(str(term))}</bnode>"
    assert isinstance(term, Literal)
    attrs = ""
    if term.language:
        attrs = f" xml:lang={quoteattr(term.language)}"
    elif term.datatype is not None and str(term.datatype) != XSD_STRING:
        attrs = f" datatype={quoteattr(str(term.datatype))}"
    return f"<literal{attrs}>{escape(str(term))}</literal>"


def _xml(result: QueryResult) -> bytes:
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<sparql xmlns="http://www.w3.org/2005/sparql-results#">']
    if result.kind == "ask":
        out += ["  <head/>", f"  <boolean>{'true' if result.boolean else 'false'}</boolean>"]
    else:
        out.append("  <head>")
        out += [f"    <variable name={quoteattr(c)}/>" for c in result.columns]
        out += ["  </head>", "  <results>"]
        for row in result.rows:
            out.append("    <result>")
            out += [f"      <binding name={quoteattr(c)}>{_xml_term(t)}</binding>"
                    for c, t in zip(result.columns, row) if t is not None]
            out.append("    </result>")
        out.append("  </results>")
    out.append("</sparql>")
    return ("\n".join(out) + "\n").encode()


def _graph_writer(rdf_format: str) -> Callable[[QueryResult], bytes]:
    def write(result: QueryResult) -> bytes:
        assert result.graph is not None
        return serialize(result.graph, rdf_format)

    return write


_TABULAR = frozenset({"select", "ask"})
_GRAPH = frozenset({"construct", "describe"})

RESULT_FORMATS: dict[str, ResultFormat] = {
    "table": ResultFormat("table", "text/plain", _TABULAR | {"update"}, _table),
    "csv": ResultFormat("csv", "text/csv", _TABULAR, _csv),
    "tsv": ResultFormat("tsv", "text/tab-separated-values", _TABULAR, _tsv),
    "json": ResultFormat("json", "application/sparql-results+json", _TABULAR, _json),
    "xml": ResultFormat("xml", "application/sparql-results+xml", _TABULAR, _xml),
    **{name: ResultFormat(name, fmt.media_type, _GRAPH, _graph_writer(name)) for name, fmt in RDF_FORMATS.items()},
}

#: the format used when none is asked for, per result kind
DEFAULT_FORMAT = {"select": "table", "ask": "table", "update": "table", "construct": "turtle", "describe": "turtle"}


def render(result: QueryResult, fmt: str | None = None) -> bytes:
    """Write ``result`` in ``fmt`` (default: a table, or Turtle for graph results); QueryError if unsuitable."""
    name = fmt or DEFAULT_FORMAT[result.kind]
    spec = RESULT_FORMATS.get(name)
    if spec is None:
        raise QueryError(f"unknown result format {name!r}; use one of {', '.join(RESULT_FORMATS)}")
    if result.kind not in spec.kinds:
        fitting = ", ".join(n for n, f in RESULT_FORMATS.items() if result.kind in f.kinds)
        raise QueryError(f"--format {name} cannot write a {result.kind.upper()} result; use one of {fitting}")
    return spec.writer(result)


def parse_json(data: str | bytes) -> QueryResult:
    """Read a SPARQL 1.1 JSON results document back into a QueryResult (for golden files and tests)."""
    parsed = ox.parse_query_results(data, ox.QueryResultsFormat.JSON)
    if isinstance(parsed, ox.QueryBoolean):
        return QueryResult(kind="ask", boolean=bool(parsed))
    from kg.store.local import from_ox

    columns = [v.value for v in parsed.variables]
    return QueryResult(kind="select", columns=columns,
                       rows=[tuple(from_ox(t) for t in solution) for solution in parsed])
