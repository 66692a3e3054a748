"""A shelf's books on a Dask cluster: `--scheduler tcp://HOST:8786`, or `[shelf] scheduler`.

Dask (`dask.distributed`, the optional extra `bookbuilder[cluster]`) is the engine: bookbuilder
connects a Client to a running scheduler and uses its concurrent.futures executor, as it would its
own process pool. Each task is bookbuilder.shelf.task.build_book with the book's bytes, so the
workers need bookbuilder installed (the same version: the results are the same bytes) but share no
files with this machine. A worker lost mid-task is Dask's to handle: it runs the task again
elsewhere, up to its `distributed.scheduler.allowed-failures`, then the future fails (KilledWorker)
and the shelf reports that book. Workers should run one thread each (`dask worker --nthreads 1`):
a book is built on one process, and several threads of one process would share one core's GIL."""

from __future__ import annotations

import contextlib

from bookbuilder.diagnostics import BookError

CONNECT_SECONDS = 20


@contextlib.contextmanager
def dask_executor(address: str):
    """(a concurrent.futures executor on the cluster at `address`, its number of worker threads)."""
    try:
        from distributed import Client
    except ImportError:
        raise BookError(
            "E420",
            "a cluster build needs dask.distributed: pip install 'bookbuilder[cluster]'",
            address,
        ) from None
    try:
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as err:
        raise BookError("E420", f"cannot reach the Dask scheduler ({err})", address) from None
    try:
        workers = sum(client.nthreads().values())
        yield client.get_executor(pure=False), max(workers, 1)
    finally:
        client.close()
