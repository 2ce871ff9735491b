"""Open the RDF graph an analysis command reads (``--graph FILE`` or ``--store DIR``)."""
from __future__ import annotations

from pathlib import Path

import networkx as nx
from rdflib import Graph

from kg.analysis.convert import typed_graph
from kg.errors import GraphError

DEFAULT_GRAPH = Path("output/kg.ttl")


def read_graph(graph_path: Path | None = None, store: str | None = None) -> Graph:
    """Return the rdflib Graph named by ``--graph`` / ``--store`` (default ``output/kg.ttl``)."""
    from kg.store.load import load_graph  # imported lazily: pyoxigraph is only needed when reading

    if graph_path is not None and store is not None:
        raise GraphError("give either --graph FILE or --store DIR, not both")
    if store is not None:
        if store.startswith(("http://", "https://")):
            raise GraphError(
                f"--store {store}: the analysis commands need the whole graph; export it with "
                "`kg export` and pass the file with --graph, or give a store directory"
            )
        return load_graph(Path(store))
    return load_graph(graph_path or DEFAULT_GRAPH)


def read_typed_graph(graph_path: Path | None = None, store: str | None = None) -> nx.Graph:
    """Return the typed NetworkX graph of the RDF graph named by ``--graph`` / ``--store``."""
    return typed_graph(read_graph(graph_path, store))
