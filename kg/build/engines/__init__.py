"""Extraction engines: where the spaCy pipeline runs (this machine's processes, or a Dask cluster).

An engine is a function ``engine(texts, options) -> iterator of (index, PaperExtraction)``; results may
arrive in any order (the build puts them back in input order). Engines are looked up by name in
:data:`ENGINES`, so adding one is one entry here.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from kg.errors import KGError
from kg.extract.types import PaperExtraction


@dataclass(frozen=True)
class EngineOptions:
    """How to run extraction: processes or cluster workers, the spaCy pipeline, chunking."""

    workers: int = 1
    model: str | None = None
    #: inputs with fewer texts than this run in the calling process (one model load, no start-up cost)
    in_process_below: int = 256
    #: texts per task sent to a worker (None: chosen from the input size and worker count)
    chunk_size: int | None = None
    #: Dask scheduler address (None: start a LocalCluster)
    scheduler: str | None = None
    #: texts a local worker process extracts before a fresh process replaces it (None: never). A worker's
    #: resident memory grows with the texts it has seen (onnxruntime's and the allocator's retained buffers,
    #: spaCy's string store): from about 0.45 GB loaded to 0.66 GB after 250 abstracts, 0.79 GB after 1,500
    #: random ones (up to 0.95 GB in the full corpus's later, longer abstracts), 0.84 GB after 2,000 and
    #: 1.2 GB after 15,000, so a long build restarts its workers instead of letting them grow.
    recycle_after: int | None = 1500


Engine = Callable[[Sequence[str], EngineOptions], Iterator[tuple[int, PaperExtraction]]]

#: engine name -> "module:function" (imported when used, so Dask is only needed by the dask engine)
ENGINES: dict[str, str] = {
    "local": "kg.build.engines.local:run_local",
    "dask": "kg.build.engines.dask_:run_dask",
}


def get_engine(name: str) -> Engine:
    """The engine called ``name``; KGError listing the known engines otherwise."""
    target = ENGINES.get(name)
    if target is None:
        raise KGError(f"unknown extraction engine {name!r}; use one of {', '.join(ENGINES)}")
    module, attr = target.split(":")
    return getattr(importlib.import_module(module), attr)


def chunk_size(n: int, workers: int, given: int | None = None) -> int:
    """Texts per task: about 8 tasks per worker (load balance), between 8 and 64 texts (a few seconds each,
    so an interrupted build loses little work)."""
    if given:
        return given
    return max(8, min(64, n // max(1, workers * 8) or 1))


def chunks(texts: Sequence[str], size: int) -> Iterator[tuple[int, list[str]]]:
    """``(start index, texts)`` slices of ``size`` texts."""
    for start in range(0, len(texts), size):
        yield start, list(texts[start : start + size])


def extract_chunk(start: int, texts: list[str], model: str | None = None) -> list[tuple[int, PaperExtraction]]:
    """Extract a chunk in this process (the pipeline is loaded once per process); results carry their index."""
    from kg.extract import extract_texts, load_nlp

    nlp = load_nlp(model)
    return [(start + i, ex) for i, ex in enumerate(extract_texts(texts, nlp))]
