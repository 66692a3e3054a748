"""Map a pure function over many items on several processes, for the stages whose work is per
file or per chapter (reading to normalized chapters; rendering and compressing EPUB documents).

This process works too, beside `jobs - 1` forked children: every process takes the next chunk
of items until none are left, so a slow process simply takes fewer. The chunks wait in a pipe, as
their numbers: the kernel hands each read of one number to one process, no lock needed. The
children inherit the inputs through the fork, without pickling; what a child computes comes
back pickled through a memory file (_Child), so it crosses as `pack(item, result)` (plain tuples
and strings: model objects pickle ten times slower) and is rebuilt here by `unpack(item, packed)`,
between this process's own chunks. Results come back in input order; fork_imap hands each on as
soon as it and all before it are in, so the caller's own work on them runs between chunks too.
An expected error (BookError) comes back as its Diagnostic and is raised here for the first
failing item in input order, as a serial run would.

Off Linux (Windows has no fork; on macOS it is unsafe with the system frameworks), or for small
inputs, the map runs in this process: the results are the same either way, which the tests check.
The caller runs no other threads (bookbuilder starts none): a fork copies only the calling one.
"""
from __future__ import annotations

import gc
import os
import pickle
import select
import struct
import sys
import traceback
from typing import Callable, Iterator, Sequence, TypeVar

from bookbuilder.diagnostics import BookError

T = TypeVar("T")
R = TypeVar("R")

MIN_ITEMS = 200  # below this a fork costs more than it saves
SMALLEST_CHUNK_SHARE = 64  # the last chunks hold 1/(64 × jobs) of the items: a few milliseconds
_CHUNK = struct.Struct("<i")  # a chunk's number in the pipe of chunks to take
_NOTICE = struct.Struct("<iQQ")  # chunk index (-1: the child failed), offset in the memory file, length
_FAILED = -1


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def fork_map(fn: Callable[[T], R], items: Sequence[T], jobs: int | None = None, *,
             pack: Callable[[T, R], object] | None = None, unpack: Callable[[T, object], R] | None = None,
             meanwhile: Callable[[], None] | None = None) -> list[R]:
    """[fn(item) for item in items], on `jobs` processes (default: every core). `meanwhile` is other
    work of this process: it does it first, while the children start on the chunks."""
    return list(fork_imap(fn, items, jobs, pack=pack, unpack=unpack, meanwhile=meanwhile))


def fork_imap(fn: Callable[[T], R], items: Sequence[T], jobs: int | None = None, *,
              pack: Callable[[T, R], object] | None = None, unpack: Callable[[T, object], R] | None = None,
              meanwhile: Callable[[], None] | None = None) -> Iterator[R]:
    """fork_map's results one by one, in input order, each as soon as it and all before it are in:
    what the caller does with them runs here between this process's own chunks, beside the children.
    Run it to its end (or close it): the workers are reaped there. One at a time: it freezes the
    collector's view of the heap until it ends."""
    jobs = min(jobs or default_jobs(), len(items))
    if jobs <= 1 or len(items) < MIN_ITEMS or not sys.platform.startswith("linux"):
        if meanwhile:
            meanwhile()
        yield from _results(_compute(fn, items, 0, len(items)))
        return
    bounds = chunk_bounds(len(items), jobs)
    n = len(bounds)
    next_chunk, write_end = os.pipe()
    os.write(write_end, b"".join(map(_CHUNK.pack, range(n))))  # 4 bytes a chunk: far below a pipe's 64 KiB
    os.close(write_end)  # once the numbers are read, a read returns nothing: no chunk left
    chunks: list[list | None] = [None] * n
    # Frozen objects are never visited by the collector, so the children do not copy every page
    # of the inherited heap just by collecting (the fork advice in Python's gc docs).
    gc.freeze()
    children: list[_Child] = []
    given = 0  # chunks whose results have been handed on

    def ready() -> Iterator[R]:
        nonlocal given
        while given < n and chunks[given] is not None:
            chunk, chunks[given] = chunks[given], []
            given += 1
            yield from _results(chunk)

    try:
        for _ in range(jobs - 1):
            children.append(_Child.fork(fn, items, bounds, next_chunk, pack))
        if meanwhile:
            meanwhile()
        while (k := _claim(next_chunk)) is not None:
            chunks[k] = _compute(fn, items, *bounds[k])
            for child in children:
                child.collect(chunks, items, bounds, unpack, wait=False)
            yield from ready()
        while given < n:  # the rest is the children's: hand it on as it comes
            running = [child.notices for child in children if child.pid]
            if not running:
                raise RuntimeError("a worker process ended without sending its results")
            select.select(running, [], [])
            for child in children:
                child.collect(chunks, items, bounds, unpack, wait=False)
            yield from ready()
        for child in children:
            child.collect(chunks, items, bounds, unpack, wait=True)  # until it exits: reaped
    finally:
        for child in children:
            child.stop()
        os.close(next_chunk)
        gc.unfreeze()


def chunk_bounds(count: int, jobs: int) -> list[tuple[int, int]]:
    """Contiguous chunks, from large to small (guided scheduling): each takes 1/(2 × jobs) of what
    is left, so the processes hand over few results early and finish together on small chunks."""
    bounds, start, smallest = [], 0, max(1, count // (jobs * SMALLEST_CHUNK_SHARE))
    while start < count:
        size = max(smallest, -(-(count - start) // (2 * jobs)))
        bounds.append((start, min(count, start + size)))
        start += size
    return bounds


def _claim(next_chunk: int) -> int | None:
    number = os.read(next_chunk, _CHUNK.size)  # the pipe holds whole numbers only: all or nothing
    return _CHUNK.unpack(number)[0] if number else None


def _compute(fn, items, start: int, stop: int) -> list[tuple[bool, object]]:
    out = []
    for item in items[start:stop]:
        try:
            out.append((True, fn(item)))
        except BookError as e:
            out.append((False, e.diagnostic))
            break  # the rest of this chunk could only raise later errors
    return out


def _results(chunk: list[tuple[bool, object]]) -> Iterator:
    for ok, value in chunk:
        if not ok:
            raise BookError(value.code, value.message, value.at)
        yield value


class _Child:
    """A forked worker. It computes the chunks it claims, writes each one, packed and pickled, to a
    memory file of its own, and sends a 20-byte notice on a pipe: the child never waits for
    this process to read (a pipe holds 64 KiB, and a reading thread here would wait for the GIL)."""

    def __init__(self, pid: int, notices: int, results: int):
        self.pid, self.notices, self.results = pid, notices, results
        self.pending = b""
        os.set_blocking(notices, False)

    @classmethod
    def fork(cls, fn, items, bounds, next_chunk, pack) -> "_Child":
        read_fd, write_fd = os.pipe()
        results = os.memfd_create("bookbuilder-results")
        try:
            pid = os.fork()
        except OSError:
            for fd in (read_fd, write_fd, results):
                os.close(fd)
            raise
        if pid == 0:  # the child: never returns, never runs this process's cleanup
            status = 1
            try:
                os.close(read_fd)
                status = _serve(fn, items, bounds, next_chunk, pack, write_fd, results)
            finally:
                os._exit(status)
        os.close(write_fd)
        return cls(pid, read_fd, results)

    def collect(self, chunks, items, bounds, unpack, *, wait: bool) -> None:
        """Unpack the chunks this child has finished; with `wait`, until it has finished them all."""
        while self.pid:
            if wait:
                select.select([self.notices], [], [])
            try:
                data = os.read(self.notices, 4096)
            except BlockingIOError:
                return
            if not data:  # the child has exited
                self._reap()
                return
            self.pending += data
            while len(self.pending) >= _NOTICE.size:
                k, offset, length = _NOTICE.unpack_from(self.pending)
                self.pending = self.pending[_NOTICE.size:]
                payload = pickle.loads(os.pread(self.results, length, offset))
                if k == _FAILED:
                    raise RuntimeError(f"a worker process failed:\n{payload}")
                start = bounds[k][0]
                chunks[k] = [(ok, unpack(items[start + i], value) if ok and unpack else value)
                             for i, (ok, value) in enumerate(payload)]

    def _reap(self) -> None:
        _, status = os.waitpid(self.pid, 0)
        self.pid = 0
        if status:
            raise RuntimeError(f"a worker process died (wait status {status})")

    def stop(self) -> None:
        if self.pid:  # still running: this process is leaving on an error
            try:
                os.kill(self.pid, 9)
                os.waitpid(self.pid, 0)
            except OSError:
                pass
            self.pid = 0
        for fd in (self.notices, self.results):
            os.close(fd)


def _serve(fn, items, bounds, next_chunk, pack, notices: int, results: int) -> int:
    offset = 0

    def send(k: int, payload: bytes) -> None:
        nonlocal offset
        written = 0
        while written < len(payload):
            written += os.pwrite(results, memoryview(payload)[written:], offset + written)
        os.write(notices, _NOTICE.pack(k, offset, len(payload)))  # under PIPE_BUF: written whole
        offset += len(payload)

    try:
        while (k := _claim(next_chunk)) is not None:
            chunk = _compute(fn, items, *bounds[k])
            if pack:
                start = bounds[k][0]
                chunk = [(ok, pack(items[start + i], value) if ok else value) for i, (ok, value) in enumerate(chunk)]
            send(k, pickle.dumps(chunk, protocol=pickle.HIGHEST_PROTOCOL))
        return 0
    except BaseException:  # a bug, or Ctrl-C: tell the parent, which raises it
        send(_FAILED, pickle.dumps(traceback.format_exc()))
        return 1
