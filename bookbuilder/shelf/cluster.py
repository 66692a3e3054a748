"""A shelf's books on a Dask cluster: `--scheduler tcp://HOST:8786`, or `[shelf] scheduler`.

Dask (`dask.distributed`, the optional extra `bookbuilder[cluster]`) is the engine: bookbuilder
connects a Client to a running scheduler and uses its concurrent.futures executor, as it would its
own process pool. Each task is bookbuilder.shelf.task.build_book with the book's bytes, so the
workers need bookbuilder installed (the same version: the results are the same bytes) but share no
files with this machine. A worker lost mid-task is Dask's to handle: it runs the task again
elsewhere, up to its `distributed.scheduler.allowed-failures`, then the future fails (KilledWorker)
and the shelf reports that book. Workers should run one thread each (`dask worker --nthreads 1`):
a book is built on one process, and several threads of one process would share one core's GIL.

A long book's PDF is laid out in chunks (bookbuilder.render.pdf_pages): from its book's task, on a
worker, those documents go to the cluster as tasks of their own (Dask's "tasks from tasks"), so
that one long novel is not one core's hours while the others wait."""

from __future__ import annotations

import contextlib

from bookbuilder.diagnostics import BookError
from bookbuilder.shelf.stages import Listener

CONNECT_SECONDS = 20


@contextlib.contextmanager
def dask_executor(address: str, stages: tuple[str, Listener] | None = None):
    """(a concurrent.futures executor on the cluster at `address`, its number of worker threads);
    `stages`: (topic, listener), the running books' stages told under that topic, heard here."""
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
        _check_workers(client, address)
    except BaseException:
        client.close()
        raise
    import dask

    # A book's files are its task's inputs by design (no shared file system): a 10 MB novel is not
    # the mistake Dask's warning about large graphs is there to catch.
    unwarned = {"distributed.admin.large-graph-warning-threshold": "2GiB"}
    if stages is not None:
        topic, listener = stages
        client.subscribe_topic(topic, lambda event: listener(*event[1]))
    try:
        with dask.config.set(unwarned):
            workers = sum(client.nthreads().values())
            yield client.get_executor(pure=False), max(workers, 1)
    finally:
        client.close()


@contextlib.contextmanager
def documents_on_the_cluster():
    """Inside a book's task on a Dask worker: the cluster as a system.parallel.Remote for its PDF's
    documents. The task leaves the worker's threads while it waits for them (worker_client
    secedes), so that this worker runs documents too; the project's files are scattered once."""
    from distributed import worker_client

    from bookbuilder.system.parallel import Remote

    with worker_client() as client:
        executor = client.get_executor(pure=False)

        def share(value):
            return client.scatter([value], hash=True)[0]

        yield Remote(executor, share)


def _check_workers(client, address: str) -> None:
    """At least one worker, and every worker running this bookbuilder: a cluster without workers
    would wait forever, and one of another version would make other bytes."""
    from bookbuilder import __version__

    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except TimeoutError:
        raise BookError(
            "E420", f"the Dask scheduler has no workers after {CONNECT_SECONDS} s", address
        ) from None
    try:
        versions = set(client.run(_bookbuilder_version).values())
    except Exception as err:  # a worker that cannot import bookbuilder: the error is the worker's
        raise BookError(
            "E420", f"a Dask worker cannot run bookbuilder ({type(err).__name__}: {err})", address
        ) from None
    if versions != {__version__}:
        shown = ", ".join(sorted(versions))
        raise BookError(
            "E420", f"the Dask workers run bookbuilder {shown}, this machine {__version__}", address
        )


def _bookbuilder_version() -> str:
    from bookbuilder import __version__

    return __version__
