#!/usr/bin/env python
"""Benchmark writing a graph (``kg export``) on the Oxigraph-backed store against rdflib's serializers.

For each format, times :func:`kg.rdf.formats.serialize` on the graph as ``kg`` loads it (Oxigraph in
memory: sorting, pyoxigraph's writer and the prefix/indent pass) and rdflib's own
``Graph.serialize`` on an in-memory rdflib copy of the same graph, in the same run, and prints the
medians and their ratio. Both outputs are parsed back and compared: the same set of triples, decimals
by value (rdflib's Turtle writes "34"^^xsd:decimal as 34.0), or the same count when the graph has
blank nodes, whose labels differ between writers.

    python bench/export_bench.py --graph output/kg.ttl
    python bench/export_bench.py --graph big/kg.ttl --no-rdflib       # 30k papers: kg alone
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from decimal import Decimal, InvalidOperation
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyoxigraph as ox  # noqa: E402

from kg.namespaces import XSD  # noqa: E402
from kg.rdf.formats import get_format, serialize  # noqa: E402
from kg.store.load import load_graph  # noqa: E402
from kg.store.local import to_memory  # noqa: E402
from query_bench import timed  # noqa: E402  (bench/ is this script's directory)

_XSD_DECIMAL = str(XSD.decimal)
#: format name -> the name rdflib's serializer registry uses for it
RDFLIB_NAMES = {"turtle": "turtle", "nt": "nt", "nquads": "nquads", "trig": "trig", "rdfxml": "xml",
                "jsonld": "json-ld"}


def _value_key(term: ox.NamedNode | ox.BlankNode | ox.Literal) -> str:
    """The term in N-Triples, with decimals by value: rdflib's Turtle writes "34"^^xsd:decimal as 34.0."""
    if isinstance(term, ox.Literal) and term.datatype.value == _XSD_DECIMAL:
        try:
            return f"{Decimal(term.value).normalize()}^^decimal"
        except InvalidOperation:
            pass
    return str(term)


def triples_of(data: bytes, fmt: str) -> set[tuple[str, str, str]]:
    """The triples of ``data`` (in format ``fmt``): terms in N-Triples, decimals by value."""
    parsed = ox.parse(data, format=get_format(fmt).ox_format)
    return {(str(q.subject), str(q.predicate), _value_key(q.object)) for q in parsed}


def same_graph(ours: bytes, theirs: bytes, fmt: str) -> str:
    """Whether the two outputs hold the same graph: "same triples", "same count" (blank nodes) or what differs."""
    a, b = triples_of(ours, fmt), triples_of(theirs, fmt)
    if a == b:
        return "same triples"
    if len(a) == len(b) and any(s.startswith("_:") or o.startswith("_:") for s, _, o in a):
        return "same count"
    return f"DIFFERENT ({len(a):,} against {len(b):,} triples)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--graph", type=Path, default=Path("output/kg.ttl"), help="a built graph (output/kg.ttl)")
    parser.add_argument("--formats", nargs="+", default=["turtle", "nt"], choices=sorted(RDFLIB_NAMES))
    parser.add_argument("--repeat", type=int, default=5, help="runs per format with kg (median taken)")
    parser.add_argument("--rdflib-repeat", type=int, default=3, help="runs per format with rdflib")
    parser.add_argument("--no-rdflib", action="store_true",
                        help="time kg alone (rdflib's Turtle writer takes over 20 min on a 3M-triple graph)")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    graph = load_graph(args.graph)
    print(f"graph: {args.graph}: {len(graph):,} triples (loaded in {time.perf_counter() - started:.1f} s)")
    memory = None
    if not args.no_rdflib:
        started = time.perf_counter()
        memory = to_memory(graph)
        print(f"rdflib in-memory copy made in {time.perf_counter() - started:.1f} s")
    header = f"{'format':<8} {'kg s':>8} {'kg MB':>8} {'rdflib s':>10} {'ratio':>8} {'rdflib MB':>10}  check"
    print(header)
    print("-" * len(header))
    for fmt in args.formats:
        ours_times, ours = timed(lambda: serialize(graph, fmt), args.repeat, float("inf"))
        ours_s = statistics.median(ours_times)
        print(f"{fmt:<8} {ours_s:>8.2f} {len(ours) / 1e6:>8.1f}", end="", flush=True)
        if memory is None:
            print()
            continue
        theirs_times, theirs = timed(lambda: memory.serialize(format=RDFLIB_NAMES[fmt], encoding="utf-8"),
                                     args.rdflib_repeat, float("inf"))
        theirs_s = statistics.median(theirs_times)
        print(f" {theirs_s:>10.2f} {theirs_s / ours_s:>7.1f}x {len(theirs) / 1e6:>10.1f}  "
              f"{same_graph(ours, theirs, fmt)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
