"""Writing big graphs as sorted Turtle with bounded memory: an external merge sort of N-Triples lines.

The bytes are the same as :func:`kg.rdf.formats.serialize` (``turtle``) gives, but the graph is never held
as one N-Triples dump: it is serialised in batches, each batch's lines sorted into a temporary run
file, the runs merged, and the merged lines turned into Turtle a few thousand subjects at a time
(cut at subject boundaries, so each piece is whole subject blocks).
"""
from __future__ import annotations

import heapq
import tempfile
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path

import pyoxigraph as ox
from rdflib import Graph

from kg.namespaces import PREFIXES
from kg.rdf.formats import HAS_BLANK, from_sort_keys, prefix_header, serialize, to_sort_keys, turtle_statements
from kg.store.io import atomic_open
from kg.store.local import as_oxigraph

#: N-Triples lines sorted in memory per run (about 250 bytes each)
RUN_LINES = 400_000

#: sorted lines turned into Turtle per piece
PIECE_LINES = 50_000


def sort_key_lines(data: bytes) -> list[bytes]:
    """N-Triples bytes as unsorted lines (no newlines) in sort-key form: the order of
    :func:`kg.rdf.formats.sorted_ntriples` (rdf:type first, then IRIs compared as IRIs) is the bytes' order."""
    return [line for line in to_sort_keys(data).split(b"\n") if line]


def _runs(store: ox.Store, directory: Path, run_lines: int) -> list[Path]:
    """Dump the default graph to a file (in Rust), then cut it into sorted runs of ``run_lines`` lines."""
    dump = directory / "dump.nt"
    store.dump(output=str(dump), format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph())
    runs: list[Path] = []
    with dump.open("rb") as src:
        while True:
            data = b"".join(islice(src, run_lines))
            if not data:
                break
            lines = sort_key_lines(data)
            del data
            lines.sort()
            path = directory / f"run{len(runs):05d}.nt"
            with path.open("wb") as fh:
                fh.writelines(line + b"\n" for line in lines)
            runs.append(path)
    dump.unlink()
    return runs


def sorted_lines(graph: Graph, run_lines: int = RUN_LINES) -> Iterator[bytes]:
    """The graph's N-Triples lines (with ``\\n``) in :func:`kg.rdf.formats.sorted_ntriples` order, external sort.

    The graph must have no blank nodes (their labels would need canonicalising over the whole graph).
    """
    store = as_oxigraph(graph)
    with tempfile.TemporaryDirectory(prefix="kg-sort-") as tmp:
        runs = _runs(store, Path(tmp), run_lines)
        files = [p.open("rb") for p in runs]
        try:
            for line in heapq.merge(*files):
                yield from_sort_keys(line)
        finally:
            for fh in files:
                fh.close()


def _write_body(handle, lines: Iterator[bytes], piece_lines: int) -> None:  # type: ignore[no-untyped-def]
    write_units(handle, _turtle_pieces(lines, piece_lines))


def _subject_of(line: bytes) -> bytes:
    return line[: line.index(b" ")]


def _turtle_pieces(lines: Iterator[bytes], piece_lines: int) -> Iterator[bytes]:
    """Turtle bodies (without prefixes, pretty-printed) of consecutive whole-subject pieces of ``lines``."""
    piece: list[bytes] = []
    for line in lines:
        if len(piece) >= piece_lines and _subject_of(line) != _subject_of(piece[-1]):
            yield _turtle_body(piece)
            piece = []
        piece.append(line)
    if piece:
        yield _turtle_body(piece)


def _turtle_body(lines: list[bytes]) -> bytes:
    quads = ox.parse(b"".join(lines), format=ox.RdfFormat.N_TRIPLES)
    return turtle_statements(ox.serialize(quads, format=ox.RdfFormat.TURTLE, prefixes=PREFIXES) or b"")


def turtle_blocks(lines: list[bytes]) -> list[bytes]:
    """The Turtle subject blocks (as :mod:`kg.rdf.formats` writes them) of sort-key ``lines`` grouped by subject."""
    if not lines:
        return []
    return _turtle_body([from_sort_keys(b"\n".join(lines) + b"\n")]).split(b"\n\n")


def write_units(handle, units: Iterable[bytes]) -> None:  # type: ignore[no-untyped-def]
    """Write Turtle bodies (whole subject blocks, in subject order) to ``handle`` as :mod:`kg.rdf.formats` Turtle."""
    handle.write(prefix_header())
    first = True
    for body in units:
        if not body:
            continue
        handle.write(b"\n" if first else b"\n\n")
        handle.write(body)
        first = False
    if not first:
        handle.write(b"\n")


def turtle_pieces(lines: Iterable[bytes], piece_lines: int = PIECE_LINES) -> Iterator[bytes]:
    """Turtle bodies of sorted, distinct sort-key ``lines`` (without newlines), a few thousand subjects at a time."""
    return _turtle_pieces((from_sort_keys(line) + b"\n" for line in lines), piece_lines)


def has_blank_nodes(graph: Graph) -> bool:
    """True when some triple of ``graph`` has a blank node."""
    return bool(as_oxigraph(graph).query(HAS_BLANK))


def write_turtle(graph: Graph, path: str | Path, *, run_lines: int = RUN_LINES,
                 piece_lines: int = PIECE_LINES, blank_nodes: bool | None = None) -> Path:
    """Write ``graph`` to ``path`` as the deterministic Turtle of :mod:`kg.rdf.formats`, atomically, in bounded memory.

    Graphs with blank nodes go through :func:`kg.rdf.formats.serialize` (canonical labels need the whole graph);
    ``blank_nodes`` says whether there are any when the caller knows (saves a scan of the graph).
    """
    path = Path(path)
    with atomic_open(path) as handle:
        if blank_nodes if blank_nodes is not None else has_blank_nodes(graph):
            handle.write(serialize(graph, "turtle"))
            return path
        _write_body(handle, sorted_lines(graph, run_lines), piece_lines)
    return path
