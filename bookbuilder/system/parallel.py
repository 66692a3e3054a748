"""The one way bookbuilder runs work on several processes: a concurrent.futures executor mapping a
pure, picklable function over plain model objects, results in input order.

Every stage that needs it goes through `ordered_map` (reading the files, rendering the EPUB's
chapters) or `process_pool` (the PDF's chunks). A worker that dies (the kernel's OOM killer, a
SIGKILL) or raises something other than our own BookError is one error, E408, naming the stage
and suggesting `--jobs 1`, where the same work runs in this process and a bug shows its
traceback. A BookError raised by a worker is raised here unchanged, for the first failing item in
input order, as a serial run would.

On Linux the workers are forks of this process (they start in milliseconds, with everything
imported); elsewhere the platform's default start method is used. Any concurrent.futures.Executor
may stand in (`executor=`), e.g. a Dask or Ray one for a catalogue build on a cluster.
"""

from __future__ import annotations

import concurrent.futures as cf
import gc
import itertools
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from bookbuilder.diagnostics import BookError

T = TypeVar("T")
R = TypeVar("R")

MIN_ITEMS = 200  # below this, starting processes costs more than they save
CHUNKS_PER_WORKER = 8  # small enough that the workers finish together, large enough to pickle in bulk


# The work and its items, as a forked worker finds them in its copy of this process (`ordered_map`):
# only the items' indexes cross.
# Keyed per call, so that maps running at once on several threads (serve, a shelf) keep apart.
_INHERITED: dict[int, list] = {}
_CALLS = itertools.count()


def forks_workers() -> bool:
    """Whether workers are forks of this process, finding in their copy what it set aside for them."""
    return sys.platform.startswith("linux")


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def pool_context():
    """The multiprocessing context the pools' workers start in (a fork on Linux, else the
    platform's default): what is handed to them (a queue) is made in the same one."""
    return multiprocessing.get_context("fork" if forks_workers() else None)


def process_pool(
    jobs: int, initializer: Callable | None = None, initargs: tuple = ()
) -> cf.ProcessPoolExecutor:
    """`jobs` worker processes, each running `initializer(*initargs)` first (if given)."""
    return cf.ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=pool_context(),
        initializer=_leave_interrupts_to_the_parent,
        initargs=(initializer, initargs),
    )


def _leave_interrupts_to_the_parent(initializer: Callable | None = None, initargs: tuple = ()) -> None:
    """Ctrl-C reaches every process of the terminal's group: a worker leaves it to this process,
    which stops the workers (guarded) and says so once, instead of each printing a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)


def ordered_map(
    fn: Callable[[T], R],
    items: Iterable[T],
    jobs: int | None = None,
    *,
    stage: str,
    executor: cf.Executor | None = None,
    min_items: int = MIN_ITEMS,
    encode: Callable[[R], object] | None = None,
    decode: Callable[[object], R] | None = None,
) -> Iterator[R]:
    """fn(item) for every item, in input order, each as soon as it and those before it are done,
    on `jobs` processes (default: every core). Small inputs, or jobs = 1, run here. Iterate to the
    end or close the iterator: the processes are shut down there.

    `encode` (in the worker) and `decode` (here) carry a result across as plain data, where
    pickling the model objects themselves is what would take the time. On Linux the items are not
    sent at all, nor `fn`: the workers, forked once they are set aside, read them from their own
    copy of this process (a whole novel's chapters cost more to send than to normalize)."""
    items = list(items)
    jobs = min(jobs or default_jobs(), len(items))
    if executor is None and (jobs <= 1 or len(items) < min_items):
        yield from map(fn, items)
        return
    chunksize = max(1, len(items) // (max(jobs, 1) * CHUNKS_PER_WORKER))
    pool = executor or process_pool(jobs)
    work = partial(_encoded, fn, encode) if encode else fn
    call = next(_CALLS)
    if executor is None and forks_workers():  # the pool forks at its first task, after this
        _INHERITED[call] = (work, items)
        work, items = partial(_inherited, call), range(len(items))
        # What this process holds is left out of the collector's passes (in a worker, a pass over it
        # would write to every inherited page, each then copied): as Python's gc docs advise for forks.
        gc.freeze()
    try:
        with guarded(stage):
            for result in pool.map(work, items, chunksize=chunksize):
                yield decode(result) if decode else result
    finally:
        if _INHERITED.pop(call, None) is not None:
            gc.unfreeze()
        if executor is None:
            pool.shutdown(wait=True, cancel_futures=True)


def _encoded(fn, encode, item):
    return encode(fn(item))


def _inherited(call: int, index: int):
    work, items = _INHERITED[call]
    return work(items[index])


def stop_workers() -> None:
    """End this process's workers now, on a failure or Ctrl-C: what they are doing is not waited for."""
    for worker in multiprocessing.active_children():
        worker.terminate()


@dataclass(frozen=True)
class Remote:
    """Processes of other machines (a Dask cluster's workers) that share no files with this one:
    a concurrent.futures executor whose tasks carry their inputs, and `share`, which puts a large
    input where every task can read it, once per machine (Dask's scatter), and gives what a task
    is handed in its place."""

    executor: cf.Executor
    share: Callable[[object], object]


class guarded:
    """Turns a worker's death or unexpected exception into BookError E408 naming `stage`."""

    def __init__(self, stage: str):
        self.stage = stage

    def __enter__(self):
        return self

    def __exit__(self, kind, error, _traceback) -> bool:
        from bookbuilder.system.atomic import was_interrupted

        if error is None or isinstance(error, GeneratorExit):
            return False
        stop_workers()
        if isinstance(error, (BookError, KeyboardInterrupt)):
            return False
        if was_interrupted():  # a worker's end under Ctrl-C is the user's doing
            raise KeyboardInterrupt
        if isinstance(error, BrokenProcessPool):
            what = "a worker process died (out of memory, or killed)"
        elif isinstance(error, Exception):
            what = f"a worker process failed ({type(error).__name__}: {error})"
        else:
            return False
        raise BookError("E408", f"{what} while {self.stage}; try again with --jobs 1") from None
