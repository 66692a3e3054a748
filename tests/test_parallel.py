"""bookbuilder.parallel: fork_map gives what a serial map gives, whichever process does the work."""
import os
import sys
import time

import pytest

from bookbuilder.diagnostics import BookError
from bookbuilder.parallel import fork_imap, fork_map

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork_map forks on Linux only")
ITEMS = list(range(400))


def slow_square(i):
    time.sleep(0.0005)  # long enough that every process takes some chunks
    return i * i


def in_child() -> bool:
    return os.getpid() != PARENT


PARENT = os.getpid()


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_results_come_back_in_input_order(jobs):
    assert fork_map(slow_square, ITEMS, jobs=jobs) == [i * i for i in ITEMS]


def test_the_first_error_in_input_order_is_raised():
    def boom(i):
        time.sleep(0.0005)
        if i in (250, 330):
            raise BookError("E101", f"bad {i}", f"f{i}.txt")
        return i

    with pytest.raises(BookError, match="bad 250"):
        fork_map(boom, ITEMS, jobs=2)


def test_only_a_childs_results_are_packed_and_unpacked():
    results = fork_map(lambda i: (slow_square(i), in_child()), ITEMS, jobs=2,
                       pack=lambda item, r: ("packed", item, r[0]), unpack=lambda item, w: (w[2], "unpacked", w[1] == item))
    assert [r[0] for r in results] == [i * i for i in ITEMS]
    mine = [r for r in results if r[1] is False]
    theirs = [r for r in results if r[1] == "unpacked"]
    assert mine and theirs and len(mine) + len(theirs) == len(ITEMS)
    assert all(r[2] for r in theirs)


def test_a_bug_in_a_child_is_raised_here_with_its_traceback():
    def buggy(i):
        time.sleep(0.0005)
        if in_child():
            raise ValueError("broken in the child")
        return i

    with pytest.raises(RuntimeError, match="ValueError: broken in the child"):
        fork_map(buggy, ITEMS, jobs=2)


def test_a_child_that_dies_is_an_error_and_leaves_no_descriptor_open():
    def dies(i):
        time.sleep(0.0005)
        if in_child():
            os._exit(3)
        return i

    before = len(os.listdir("/proc/self/fd"))
    with pytest.raises(RuntimeError, match="died"):
        fork_map(dies, ITEMS, jobs=2)
    assert fork_map(slow_square, ITEMS, jobs=2) == [i * i for i in ITEMS]
    assert len(os.listdir("/proc/self/fd")) == before


def test_small_inputs_run_here():
    assert fork_map(lambda i: in_child(), list(range(10)), jobs=2) == [False] * 10


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_streamed_results_come_in_input_order_up_to_the_first_error(jobs):
    def boom(i):
        time.sleep(0.0005)
        if i == 330:
            raise BookError("E101", "bad 330", "f330.txt")
        return i * i

    got = []
    with pytest.raises(BookError, match="bad 330"):
        for result in fork_imap(boom, ITEMS, jobs=jobs):
            got.append(result)
    assert got == [i * i for i in range(330)]


def test_a_stream_left_early_stops_its_children_and_closes_its_descriptors():
    before = len(os.listdir("/proc/self/fd"))
    stream = fork_imap(slow_square, ITEMS, jobs=2)
    assert next(stream) == 0
    stream.close()
    assert len(os.listdir("/proc/self/fd")) == before
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # no child left, not even a zombie
