"""Opening the graph a command names: an RDF file, a local Oxigraph store directory or a remote SPARQL store.

The one place that tells local from remote (:mod:`kg.store.local`, :mod:`kg.store.remote`), so neither
of those imports the other's caller.
"""
from __future__ import annotations

from pathlib import Path

from rdflib import Graph

from kg.errors import GraphError
from kg.store.local import BUILD_HINT, new_graph, open_store, parse_into


def load_graph(path_or_store: str | Path) -> Graph:
    """Load a graph: an RDF file (.ttl, .nt, .nq, .trig, .jsonld, .rdf) parsed fast into an Oxigraph-backed
    in-memory graph, a persistent Oxigraph store directory opened read-only, or a remote SPARQL store
    (http/https URL, see :mod:`kg.store.remote`) queried where it lives."""
    if str(path_or_store).startswith(("http://", "https://")):
        from kg.store.remote import remote_graph

        return remote_graph(str(path_or_store))
    path = Path(path_or_store)
    if path.is_dir():
        return open_store(path, read_only=True)
    if not path.exists():
        raise GraphError(f"graph file {path} does not exist; {BUILD_HINT}")
    if path.stat().st_size == 0:
        raise GraphError(f"graph file {path} is empty; rebuild it: {BUILD_HINT}")
    return parse_into(new_graph(), path)


def graph_from_options(graph_path: str | Path | None = None, store: str | None = None, *,
                       default: str | Path = "output/kg.ttl", writable: bool = False) -> Graph:
    """The graph the ``--graph FILE`` / ``--store DIR|URL`` options name (``default`` when neither is given).

    A store directory is opened read-only unless ``writable``; a ``http(s)://`` store is a remote SPARQL
    endpoint, queried through rdflib's SPARQLStore.
    """
    if graph_path is not None and store is not None:
        raise GraphError("give either --graph FILE or --store DIR|URL, not both")
    if store is not None:
        if str(store).startswith(("http://", "https://")):
            if writable:
                raise GraphError(f"--store {store}: a remote SPARQL endpoint is read-only here")
            from kg.store.remote import remote_graph

            return remote_graph(str(store))
        return open_store(store, read_only=not writable)
    return load_graph(graph_path if graph_path is not None else default)
