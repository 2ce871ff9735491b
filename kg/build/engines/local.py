"""The local engine: the calling process for small inputs, else a pool of spawned worker processes."""
from __future__ import annotations

import itertools
import multiprocessing as mp
import signal
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from kg.build.engines import EngineOptions, chunk_size, chunks, extract_chunk
from kg.extract.types import PaperExtraction


def _init_worker(model: str | None) -> None:
    """Load the pipeline once when the worker starts (spawned: a clean interpreter, no forked spaCy state).

    Workers ignore Ctrl-C: the parent stops them, so an interrupted build ends at once and cleanly.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from kg.extract import load_nlp

    load_nlp(model)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop the workers now, dropping their unfinished chunks (the build is failing or interrupted)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=10)


def run_local(texts: Sequence[str], options: EngineOptions) -> Iterator[tuple[int, PaperExtraction]]:
    """Extract ``texts``; yields ``(index, extraction)`` as chunks finish (serial runs yield in order).

    A parallel run goes in *generations*: each pool of fresh worker processes extracts at most
    ``options.recycle_after`` texts per worker, then is shut down and replaced, which bounds the workers'
    memory on a long build (see :class:`EngineOptions`). The pool is replaced whole, not worker by worker,
    because ``ProcessPoolExecutor(max_tasks_per_child=...)`` can deadlock on Python 3.11-3.13
    (CPython issue 115634)."""
    if options.workers <= 1 or len(texts) < options.in_process_below:
        from kg.extract import extract_texts, load_nlp

        nlp = load_nlp(options.model)
        yield from enumerate(extract_texts(texts, nlp))
        return
    size = chunk_size(len(texts), options.workers, options.chunk_size)
    todo = chunks(texts, size)
    per_pool = generation_size(len(texts), options.workers, size, options.recycle_after)
    while True:
        part = list(itertools.islice(todo, per_pool))
        if not part:
            return
        yield from _run_pool(part, options)


def generation_size(n: int, workers: int, size: int, recycle_after: int | None) -> int:
    """Chunks one pool extracts before it is replaced: ``recycle_after`` texts per worker, rounded to whole
    chunks (at least one per worker, at most every chunk); every chunk when ``recycle_after`` is None."""
    total = max(1, -(-n // size))
    if not recycle_after:
        return total
    return min(total, max(workers, (recycle_after // size) * workers))


def _run_pool(part: list[tuple[int, list[str]]], options: EngineOptions) -> Iterator[tuple[int, PaperExtraction]]:
    """Extract the chunks ``part`` on a pool of fresh spawned workers, at most two chunks per worker in
    flight (enough to keep them busy, bounded memory); the pool is stopped at once when this fails."""
    todo = iter(part)
    window = options.workers * 2
    ctx = mp.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=options.workers, mp_context=ctx, initializer=_init_worker,
                               initargs=(options.model,))
    running: set[Future] = set()
    finished = False
    try:
        for start, texts in itertools.islice(todo, window):
            running.add(pool.submit(extract_chunk, start, texts, options.model))
        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                nxt = next(todo, None)
                if nxt is not None:
                    running.add(pool.submit(extract_chunk, nxt[0], nxt[1], options.model))
                yield from future.result()
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            _stop(pool)
