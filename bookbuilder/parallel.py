"""Map a pure function over many items on several processes, for the stages whose work is per
file or per chapter (decoding and parsing, normalization, lint).

Workers are forked, so they inherit the inputs (the files to read, the book to normalize) without
pickling them; what comes back is pickled, so a mapped function returns plain tuples and strings
(model objects pickle ten times slower than the same data as tuples). An expected error comes
back as its Diagnostic and is raised in the parent, the first one in input order, as a serial run
would. Off Linux (Windows has no fork; on macOS it is unsafe with the system frameworks), or for
small inputs, the map runs in this process: the results are the same either way, which the
tests check.
"""
from __future__ import annotations

import gc
import multiprocessing
import os
import sys
from typing import Callable, Sequence, TypeVar

from bookbuilder.diagnostics import BookError

T = TypeVar("T")
R = TypeVar("R")

MIN_ITEMS = 200  # below this a fork costs more than it saves
_work: tuple[Callable, Sequence] | None = None  # set in the parent just before the fork


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def fork_map(fn: Callable[[T], R], items: Sequence[T], jobs: int | None = None) -> list[R]:
    jobs = min(jobs or default_jobs(), len(items))
    if jobs <= 1 or len(items) < MIN_ITEMS or not sys.platform.startswith("linux"):
        return [fn(item) for item in items]
    global _work
    _work = (fn, items)
    # Frozen objects are never visited by the collector, so the workers do not copy every page
    # of the inherited heap just by collecting (the fork advice in Python's gc docs).
    gc.freeze()
    try:
        # A few chunks per worker even out uneven files; contiguous ranges keep results in order.
        n = jobs * 4
        bounds = [(len(items) * i // n, len(items) * (i + 1) // n) for i in range(n)]
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            chunks = pool.map(_run, bounds, chunksize=1)
    finally:
        _work = None
        gc.unfreeze()
    results: list = []
    for chunk in chunks:
        for ok, value in chunk:
            if not ok:
                raise BookError(value.code, value.message, value.at)
            results.append(value)
    return results


def _run(bounds: tuple[int, int]) -> list[tuple[bool, object]]:
    fn, items = _work
    out = []
    for item in items[bounds[0]:bounds[1]]:
        try:
            out.append((True, fn(item)))
        except BookError as e:
            out.append((False, e.diagnostic))
            break
    return out
