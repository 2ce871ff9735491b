"""The local engine: the calling process for small inputs, else a pool of spawned worker processes."""
from __future__ import annotations

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
    """Extract ``texts``; yields ``(index, extraction)`` as chunks finish (serial runs yield in order)."""
    if options.workers <= 1 or len(texts) < options.in_process_below:
        from kg.extract import extract_texts, load_nlp

        nlp = load_nlp(options.model)
        yield from enumerate(extract_texts(texts, nlp))
        return
    size = chunk_size(len(texts), options.workers, options.chunk_size)
    todo = chunks(texts, size)
    window = options.workers * 2  # chunks in flight: enough to keep workers busy, bounded memory
    ctx = mp.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=options.workers, mp_context=ctx, initializer=_init_worker,
                               initargs=(options.model,))
    running: set[Future] = set()
    finished = False
    try:
        for start, part in todo:
            running.add(pool.submit(extract_chunk, start, part, options.model))
            if len(running) >= window:
                break
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
