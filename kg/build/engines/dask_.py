"""The Dask engine: extraction on a Dask distributed cluster (``--scheduler ADDRESS``) or a LocalCluster.

Every worker runs the same spaCy pipeline, loaded once per worker process (``load_nlp`` is cached per
process); chunks stream back as they finish (``as_completed``) and the build orders them by index.
Remote workers need paperkg and the same spaCy pipeline installed.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence

from kg.build.engines import EngineOptions, chunk_size, chunks, extract_chunk
from kg.errors import KGError
from kg.extract.types import PaperExtraction


def _client(options: EngineOptions):  # -> (distributed.Client, LocalCluster | None)
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise KGError("the dask engine needs Dask: pip install 'paperkg[dask]' (dask and distributed)") from exc
    if options.scheduler:
        try:
            return Client(options.scheduler, timeout="30s"), None
        except (OSError, TimeoutError) as exc:
            raise KGError(f"cannot reach the Dask scheduler at {options.scheduler}: {exc}; "
                          "check the address (tcp://HOST:8786) and that `dask scheduler` runs") from exc
    cluster = LocalCluster(n_workers=max(1, options.workers), threads_per_worker=1, processes=True,
                           dashboard_address=None, host="127.0.0.1")
    return Client(cluster), cluster


def run_dask(texts: Sequence[str], options: EngineOptions) -> Iterator[tuple[int, PaperExtraction]]:
    """Extract ``texts`` on Dask workers; yields ``(index, extraction)`` as chunks finish."""
    from distributed import as_completed

    client, cluster = _client(options)
    try:
        n_workers = max(1, len(client.scheduler_info().get("workers", {})) or options.workers)
        size = chunk_size(len(texts), n_workers, options.chunk_size)
        futures = [client.submit(extract_chunk, start, part, options.model, pure=False)
                   for start, part in chunks(texts, size)]
        for future in as_completed(futures):
            yield from future.result()
            future.release()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
