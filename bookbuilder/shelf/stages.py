"""What each running book of a shelf is doing (reading, normalizing, the EPUB, the PDF 40 %), told
from wherever it runs to the process that shows the shelf's progress.

A book's task tells its stages through `BookStages`, which says a new stage at once and the
progress within one (files, chapters) at most every TELL_EVERY seconds, and hands them to the
channel of where it runs:
- in this process (`--jobs 1`): straight to the listener (`listening`);
- on this machine's process pool: a multiprocessing queue handed to the pool's workers, read here
  on a thread (`pool_channel`);
- on a Dask cluster: a structured event under a topic of this build's own (Dask's documented
  `Worker.log_event` / `Client.subscribe_topic`), so that two shelves on one cluster keep apart.
A stage is a word for progress only: a message lost (a worker gone) loses nothing else."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator

from bookbuilder.system.parallel import pool_context

TELL_EVERY = 1.0  # seconds between two tellings of progress within one stage

# (book's name, stage, how far within it: "40%", "3/10 files" or "")
Listener = Callable[[str, str, str], None]

_LISTENER: Listener | None = None  # where this process's books tell their stages


def tell(name: str, stage: str, detail: str = "") -> None:
    if _LISTENER is not None:
        _LISTENER(name, stage, detail)


@contextlib.contextmanager
def listening(listener: Listener | None) -> Iterator[None]:
    """The books built in this process, inside, tell `listener`."""
    global _LISTENER
    before, _LISTENER = _LISTENER, listener
    try:
        yield
    finally:
        _LISTENER = before


@contextlib.contextmanager
def pool_channel(listener: Listener | None):
    """(initializer, its arguments) for a process pool whose workers' books tell `listener`, here
    on a thread of this process, until the end of the block."""
    if listener is None:
        yield None, ()
        return
    queue = pool_context().SimpleQueue()  # handed to the workers as they start

    def forward() -> None:
        while (told := queue.get()) is not None:
            listener(*told)

    thread = threading.Thread(target=forward, name="shelf-stages", daemon=True)
    thread.start()
    try:
        yield _tell_the_queue, (queue,)
    finally:
        queue.put(None)
        thread.join(timeout=5)


def _tell_the_queue(queue) -> None:
    global _LISTENER
    _LISTENER = lambda name, stage, detail: queue.put((name, stage, detail))  # noqa: E731


def on_the_cluster(topic: str) -> Listener:
    """Inside a task on a Dask worker: the stages as the worker's events under `topic`."""

    def send(name: str, stage: str, detail: str) -> None:
        from distributed import get_worker

        get_worker().log_event(topic, [name, stage, detail])

    return send


class BookStages:
    """One book's stages as its build goes: `stage(text)` for a new one, `files` (the reading's
    hook, pipeline.load_book) and `chapters` (a renderer's) for the progress within it."""

    def __init__(self, name: str, send: Listener | None = None, clock: Callable[[], float] = time.monotonic):
        self.name, self.send, self.clock = name, send or tell, clock
        self.current, self.told_at = "", 0.0
        self.total = self.done = 0

    def stage(self, text: str, total: int = 0) -> None:
        self.current, self.total, self.done = text, total, 0
        self._tell("", force=True)

    def files(self, stage: str, done: int, total: int) -> None:
        if stage != self.current:
            self.stage(stage)
        if total:
            self._tell(f"{done}/{total} files")

    def chapters(self, n: int) -> None:
        self.done += n
        if self.total:
            self._tell(f"{100 * self.done // self.total}%")

    def _tell(self, detail: str, force: bool = False) -> None:
        now = self.clock()
        if force or now - self.told_at >= TELL_EVERY:
            self.told_at = now
            self.send(self.name, self.current, detail)
