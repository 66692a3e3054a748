"""bookbuilder.system.parallel: ordered_map gives what a serial map gives, whichever process does the
work; a worker's death or bug is one BookError E408 naming the stage, with nothing left running."""

import concurrent.futures as cf
import os
import signal
import threading
import time

import pytest

from bookbuilder.diagnostics import BookError
from bookbuilder.system.parallel import forks_workers, ordered_map

ITEMS = list(range(400))
PARENT = os.getpid()


def slow_square(i):
    time.sleep(0.0005)  # long enough that every worker takes some chunks
    return i * i


def where(i):
    return os.getpid() != PARENT


def boom(i):
    if i in (250, 330):
        raise BookError("E101", f"bad {i}", f"f{i}.txt")
    return i * i


def buggy(i):
    if i == 300:
        raise ValueError("broken in the worker")
    return i


def dies(i):
    if i == 300:
        os._exit(3)
    return i


def killed(i):
    if i == 300:
        os.kill(os.getpid(), signal.SIGKILL)  # what the kernel's OOM killer does
    return i


def encode(r):
    return ("sent", r, os.getpid() != PARENT)


def decode(wire):
    return wire[1], wire[2]


def omap(fn, items=ITEMS, jobs=2, **kw):
    return list(ordered_map(fn, items, jobs, stage="testing", **kw))


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_results_come_back_in_input_order(jobs):
    assert omap(slow_square, jobs=jobs) == [i * i for i in ITEMS]


def test_the_work_runs_on_other_processes_and_small_inputs_here():
    assert all(omap(where))
    assert not any(omap(where, list(range(10))))
    assert not any(omap(where, jobs=1))


def test_encode_runs_in_the_worker_and_decode_here():
    got = omap(slow_square, encode=encode, decode=decode)
    assert got == [(i * i, True) for i in ITEMS]


@pytest.mark.skipif(not forks_workers(), reason="workers are forks only on Linux")
def test_forked_workers_find_the_items_and_the_function_in_their_copy_of_this_process():
    """Neither is sent: a lock cannot be pickled, nor a lambda, yet both reach the workers."""
    locks = [threading.Lock() for _ in ITEMS]
    got = list(ordered_map(lambda lock: (os.getpid() != PARENT, lock.locked()), locks, 2, stage="testing"))
    assert got == [(True, False)] * len(ITEMS)


def test_any_executor_can_stand_in():
    with cf.ThreadPoolExecutor(2) as executor:
        assert omap(slow_square, executor=executor) == [i * i for i in ITEMS]


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_streamed_results_come_in_input_order_up_to_the_first_error(jobs):
    """The error is the first in input order; before it, results in order (a chunk that fails
    gives none of its results)."""
    got = []
    with pytest.raises(BookError, match="bad 250"):
        for result in ordered_map(boom, ITEMS, jobs, stage="testing"):
            got.append(result)
    assert got == [i * i for i in range(len(got))] and 200 <= len(got) <= 250


@pytest.mark.parametrize(
    "fn, why", [(buggy, "failed \\(ValueError: broken in the worker\\)"), (dies, "died"), (killed, "died")]
)
def test_a_worker_that_fails_or_dies_is_E408_naming_the_stage(fn, why):
    with pytest.raises(
        BookError, match=f"E408: a worker process {why}.* while testing; try again with --jobs 1"
    ):
        omap(fn)
    assert omap(slow_square) == [i * i for i in ITEMS]  # the next map starts afresh
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # no worker left, not even a zombie


def test_a_stream_left_early_stops_its_workers():
    stream = ordered_map(slow_square, ITEMS, 2, stage="testing")
    assert next(stream) == 0
    stream.close()
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)
