"""`bookbuilder build SHELF`: every book of a shelf built into SHELF/build/<name>/, incrementally.

A book is built again only when its fingerprint (bookbuilder.shelf.manifest) changed or its files
are gone; a book no longer on the shelf has its folder removed. Books run as tasks
(bookbuilder.shelf.task: bytes in, bytes out) on this machine's process pool, or on a Dask cluster
through its concurrent.futures executor (bookbuilder.shelf.cluster); either way the files are put in
place here, through bookbuilder.system.atomic, as each book finishes. A book that fails (its own
error, or the process building it died) is reported and keeps its last good files and manifest
row, so it is tried again next time; the others go on."""

from __future__ import annotations

import concurrent.futures as cf
import shutil
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from bookbuilder.diagnostics import BookError, Diagnostic
from bookbuilder.model import Location
from bookbuilder.shelf import manifest
from bookbuilder.shelf.books import SHELF_BUILD, ShelfBook, find_books, shelf_settings
from bookbuilder.shelf.stages import Listener, listening, pool_channel
from bookbuilder.shelf.task import BookResult, BookTask, build_book
from bookbuilder.system.atomic import atomic_path
from bookbuilder.system.parallel import default_jobs, process_pool, stop_workers

SAVE_EVERY = 2.0  # seconds between manifest writes while books finish (and once at the end)
IN_FLIGHT_PER_WORKER = 2  # tasks submitted ahead per worker: busy workers, bounded memory


@dataclass
class ShelfSummary:
    built: list[BookResult] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    failed: list[BookResult] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def warnings(self) -> int:
        return sum(r.warning_count for r in self.built)


@dataclass
class _Plan:
    to_build: list[ShelfBook]
    signed: dict[str, dict]  # each book's manifest row but its files: fingerprint, stat, inputs, changed


def build_shelf(
    shelf: Path,
    jobs: int | None = None,
    shard: tuple[int, int] | None = None,
    scheduler: str | None = None,
    on_start: Callable[[int], None] | None = None,
    on_result: Callable[[BookResult], None] | None = None,
    on_stage: Listener | None = None,
) -> ShelfSummary:
    """Build the shelf's books (those of `shard` K/N only, when given) on `jobs` local processes,
    or on the Dask cluster whose scheduler is at `scheduler` (or shelf.toml's [shelf] scheduler).
    `on_start` hears how many books will be built, `on_result` each book's end and `on_stage`
    what each running book is doing (shelf.stages)."""
    start = time.monotonic()
    shelf = Path(shelf)
    settings = shelf_settings(shelf)
    scheduler = scheduler or settings.get("shelf", {}).get("scheduler")
    defaults = dict(settings.get("defaults", {}))
    build_dir = shelf / SHELF_BUILD
    books, summary = _named_once(find_books(shelf))
    summary.failed = [r for r in summary.failed if manifest.in_shard(r.name, shard)]
    rows = manifest.read_manifest(build_dir)
    summary.removed = _remove_gone(build_dir, rows, {b.name for b in books}, shard)
    plan = _plan(shelf, [b for b in books if manifest.in_shard(b.name, shard)], rows, defaults, summary)
    if on_start:
        on_start(len(plan.to_build))
    topic = f"bookbuilder-stages-{uuid.uuid4().hex}" if scheduler and on_stage else ""
    tasks = (_task(shelf, book, defaults, bool(scheduler), topic) for book in plan.to_build)
    saved = time.monotonic()
    try:
        for result in _run(tasks, jobs, scheduler, on_stage, topic):
            if result.failed:
                summary.failed.append(result)
            else:
                _put_in_place(build_dir, result, rows.get(result.name, {}))
                rows[result.name] = {**plan.signed[result.name], "files": sorted(result.outputs)}
                summary.built.append(result)
            if on_result:
                on_result(result)
            if time.monotonic() - saved > SAVE_EVERY:
                manifest.write_manifest(build_dir, rows)
                saved = time.monotonic()
    finally:  # also on Ctrl-C: the books done so far are not built again
        if plan.signed or summary.removed or not (build_dir / manifest.MANIFEST_NAME).exists():
            manifest.write_manifest(build_dir, rows)
    summary.seconds = time.monotonic() - start
    return summary


def _named_once(books: list[ShelfBook]) -> tuple[list[ShelfBook], ShelfSummary]:
    """Two entries of one name (novel/ and novel.txt) would share build/novel/: the first by path
    is built, the others fail, each saying which one it clashes with."""
    summary, first, kept = ShelfSummary(), {}, []
    for book in sorted(books, key=lambda b: (b.name, b.path.name)):
        if book.name in first:
            what = f"another book is also named {book.name} ({first[book.name].path.name}): rename one"
            error = Diagnostic("E011", what, Location(str(book.path)))
            summary.failed.append(BookResult(book.name, None, str(error)))
        else:
            first[book.name] = book
            kept.append(book)
    return kept, summary


def _plan(shelf: Path, books: list[ShelfBook], rows: dict, defaults: dict, summary: ShelfSummary) -> _Plan:
    """The books to build: those whose inputs' stat signature changed and then their contents'
    fingerprint too, or whose files are gone. A book whose times alone changed has its row's
    signature brought up to date, not built. A book with a file that cannot be read fails here."""
    from bookbuilder.pipeline import source_date_epoch

    plan, epoch = _Plan([], {}), source_date_epoch()
    for book in books:
        row = rows.get(book.name, {})
        there = all((shelf / SHELF_BUILD / book.name / name).is_file() for name in row.get("files", ()))
        try:
            names = manifest.book_inputs(shelf, book)
            stat = manifest.stat_signature(shelf, names, defaults, epoch)
            if there and row.get("stat") == stat and "changed" in row:
                summary.unchanged.append(book.name)
                continue
            plan.signed[book.name] = _signed(shelf, names, stat, (defaults, epoch), row)
        except OSError as err:  # its earlier files are kept, as a broken book's are
            where = Location(err.filename or str(book.path))
            summary.failed.append(
                BookResult(book.name, None, str(Diagnostic("E004", f"cannot read: {err.strerror}", where)))
            )
            continue
        if there and row.get("fingerprint") == plan.signed[book.name]["fingerprint"]:
            summary.unchanged.append(book.name)
            rows[book.name] = {**row, **plan.signed[book.name]}
        else:
            plan.to_build.append(book)
    return plan


def _signed(shelf: Path, names: list[str], stat: str, stated: tuple[dict, int], row: dict) -> dict:
    """The book's row as its inputs are now (its files apart): their contents read and hashed;
    `stated`: the shelf's defaults and the epoch."""
    digests = manifest.content_digests(shelf, names)
    inputs = manifest.inputs_hash(names, digests)
    return {
        "fingerprint": manifest.fingerprint(names, digests, *stated),
        "stat": stat,
        "inputs": inputs,
        "changed": manifest.changed_at(shelf, names, row, inputs),
    }


def _task(
    shelf: Path, book: ShelfBook, defaults: dict, on_cluster: bool = False, topic: str = ""
) -> BookTask:
    """The book's inputs read now, as it is about to be sent (not all books' at once)."""
    from bookbuilder.pipeline import source_date_epoch

    files = {name: (shelf / name).read_bytes() for name in manifest.book_inputs(shelf, book)}
    return BookTask(
        book.name, book.path.name, files, str(shelf), defaults, source_date_epoch(), on_cluster, topic
    )


def _remove_gone(build_dir: Path, rows: dict, on_shelf: set[str], shard) -> list[str]:
    """The build folders of books no longer on the shelf (of this shard's share), removed."""
    gone = sorted(n for n in rows if n not in on_shelf and manifest.in_shard(n, shard))
    for name in gone:
        shutil.rmtree(build_dir / name, ignore_errors=True)
        del rows[name]
    return gone


def _put_in_place(build_dir: Path, result: BookResult, row: dict) -> None:
    """The book's new files, each written atomically; those of its last build it no longer has, removed."""
    folder = (build_dir / result.name).resolve()
    for name, content in result.outputs.items():
        target = (folder / name).resolve()
        if not target.is_relative_to(folder):  # a task names files inside its book's folder only
            raise BookError("E007", f"{name} is outside the book's build folder", str(folder))
        with atomic_path(target) as tmp:
            tmp.write_bytes(content)
    for name in row.get("files", ()):
        if name not in result.outputs:
            (folder / name).unlink(missing_ok=True)


def _run(
    tasks: Iterator[BookTask], jobs: int | None, scheduler: str | None, on_stage: Listener | None, topic: str
) -> Iterator[BookResult]:
    if scheduler:
        from bookbuilder.shelf.cluster import dask_executor

        with dask_executor(scheduler, (topic, on_stage) if topic else None) as (executor, workers):
            lost = yield from _windowed(executor, tasks, IN_FLIGHT_PER_WORKER * workers)
            assert not lost  # a Dask future fails alone: only a process pool breaks as a whole
        return
    jobs = jobs or default_jobs()
    if jobs == 1:  # in this process, one book after another: no process to start or lose
        with listening(on_stage):
            yield from map(build_book, tasks)
        return
    with pool_channel(on_stage) as initializer:
        yield from _on_process_pools(tasks, jobs, initializer)


def _on_process_pools(tasks: Iterator[BookTask], jobs: int, initializer: tuple) -> Iterator[BookResult]:
    """A process that dies breaks the whole pool, failing every book in flight. So those books are
    put aside and the rest go on in a new pool; then each put aside is built alone in a pool of its
    own, where a death is that book's failure (E408) and the others are built as if nothing happened."""
    lost: list[BookTask] = []
    while True:
        broken = yield from _on_a_pool(tasks, jobs, initializer)
        lost += broken
        if not broken:
            break
    for task in lost:
        if (yield from _on_a_pool(iter([task]), 1, initializer)):
            yield _died(task, "a worker process died (out of memory, or killed)")


def _on_a_pool(tasks: Iterator[BookTask], jobs: int, initializer: tuple):
    pool = process_pool(jobs, *initializer)
    try:
        return (yield from _windowed(pool, tasks, IN_FLIGHT_PER_WORKER * jobs))
    except BaseException:  # Ctrl-C, or this process's own failure: the books running are not waited for
        stop_workers()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _windowed(executor: cf.Executor, tasks: Iterator[BookTask], window: int):
    """Results as the books finish, at most `window` submitted at a time. Returns the tasks that
    were in flight when a process pool broke (it then takes no more)."""
    in_flight: dict[cf.Future, BookTask] = {}
    broken: list[BookTask] = []
    refused = _submit(executor, _take(tasks, window), in_flight)
    if refused:
        return refused + list(in_flight.values())
    while in_flight:
        done, _ = cf.wait(in_flight, return_when=cf.FIRST_COMPLETED)
        for future in done:
            task = in_flight.pop(future)
            try:
                yield future.result()
            except BrokenProcessPool:
                broken.append(task)
            except (
                Exception
            ) as err:  # Dask: the workers running it were lost (KilledWorker), or it was cancelled
                yield _died(task, f"the cluster could not build it ({type(err).__name__}: {err})")
        if not broken:  # a pool that broke takes no more
            broken = _submit(executor, _take(tasks, window - len(in_flight)), in_flight)
        if broken:
            return broken + list(in_flight.values())
    return broken


def _submit(executor: cf.Executor, tasks: Iterable[BookTask], in_flight: dict) -> list[BookTask]:
    """Each task submitted and put in flight; [the task] a pool broken since the last wait refused
    (its books in flight say so when waited for)."""
    for task in tasks:
        try:
            in_flight[executor.submit(build_book, task)] = task
        except BrokenProcessPool:
            return [task]
    return []


def _take(tasks: Iterator[BookTask], n: int) -> Iterable[BookTask]:
    for _ in range(max(n, 0)):
        task = next(tasks, None)
        if task is None:
            return
        yield task


def _died(task: BookTask, what: str) -> BookResult:
    where = Location(str(Path(task.shelf_shown) / task.entry))
    return BookResult(task.name, None, str(Diagnostic("E408", f"{what} while building {task.name}", where)))
