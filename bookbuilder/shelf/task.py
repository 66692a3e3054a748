"""One book of a shelf built as a task: its input files in as bytes, its built files out as bytes.

The same function runs in a local process pool and on a Dask worker, so a worker needs bookbuilder
installed but no shared file system, and a cluster build gives the same bytes as a local one. The
files are laid out in a temporary folder as they are on the shelf (the book's folder or file keeps
its name: a title taken from it is the same), built there on one process, and read back; the
messages name the shelf's paths, not the temporary ones. Nothing is written on the asking machine
here: `bookbuilder.shelf.build` puts the files in place, atomically.

A task never raises for a broken book: the result says it failed, with its one-line error."""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from bookbuilder.diagnostics import BookError, Diagnostic, Severity
from bookbuilder.model import Location
from bookbuilder.shelf.stages import BookStages, on_the_cluster

WARNINGS_KEPT = 20  # a result carries this many warning lines; the count is of them all


@dataclass(frozen=True)
class BookTask:
    name: str  # the book's name on the shelf (ShelfBook.name)
    entry: str  # its folder's or file's name on the shelf
    files: dict[str, bytes]  # path relative to the shelf (posix) → content
    shelf_shown: str  # the shelf as the asking machine names it, for messages
    defaults: dict = field(default_factory=dict)  # shelf.toml's [defaults]
    epoch: int = 0  # SOURCE_DATE_EPOCH on the asking machine
    on_cluster: bool = False  # run on a Dask worker: a long PDF's documents go to the cluster too
    stage_topic: str = ""  # on a cluster: the Dask event topic its stages are told under (shelf.stages)


@dataclass(frozen=True)
class BookResult:
    name: str
    outputs: dict[str, bytes] | None  # built file name (posix, under build/<name>/) → content; None: failed
    error: str = ""
    warnings: tuple[str, ...] = ()
    warning_count: int = 0
    seconds: float = 0.0

    @property
    def failed(self) -> bool:
        return self.outputs is None


def build_book(task: BookTask) -> BookResult:
    """The book built in a temporary folder, with every format its settings (or the shelf's
    defaults) ask for, on this one process."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bookbuilder-shelf-") as tmp:
        shelf = Path(tmp) / "shelf"
        for name, content in task.files.items():
            path = shelf / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        out = Path(tmp) / "out"
        try:
            notes = _build_into(shelf / task.entry, out, task)
        except BookError as err:
            error = _on_shelf(err.diagnostic, shelf, task.shelf_shown)
            return BookResult(task.name, None, str(error), seconds=time.monotonic() - start)
        except Exception as err:  # a bug in bookbuilder: this book's failure, said in one line
            what = f"{task.name}: error: bookbuilder failed ({type(err).__name__}: {err})"
            return BookResult(task.name, None, what, seconds=time.monotonic() - start)
        outputs = {
            path.relative_to(out).as_posix(): path.read_bytes()
            for path in sorted(out.rglob("*"))
            if path.is_file() and ".cache" not in path.relative_to(out).parts
        }
    warnings = [str(_on_shelf(d, shelf, task.shelf_shown)) for d in notes if d.severity >= Severity.WARNING]
    return BookResult(
        task.name, outputs, "", tuple(warnings[:WARNINGS_KEPT]), len(warnings), time.monotonic() - start
    )


def _build_into(book_path: Path, out: Path, task: BookTask) -> list[Diagnostic]:
    from bookbuilder import pipeline

    if task.epoch:
        os.environ["SOURCE_DATE_EPOCH"] = str(task.epoch)
    stages = BookStages(task.name, on_the_cluster(task.stage_topic) if task.stage_topic else None)
    stages.stage("reading")
    loaded = pipeline.load_book(book_path, jobs=1, progress=stages.files)
    config = replace(loaded.config, output_dir=out)
    formats = task.defaults.get("formats")
    if formats and not config.has_config and not config.sidecar:
        config = replace(config, formats=tuple(formats))
    loaded = replace(loaded, config=config)
    notes = list(loaded.diagnostics)
    remote = None
    if task.on_cluster:
        from bookbuilder.shelf.cluster import documents_on_the_cluster as remote
    chapters = sum(1 for _ in loaded.book.chapters())
    for fmt in config.formats:
        stages.stage(fmt, chapters)
        _target, said = pipeline.build(
            loaded, fmt, jobs=1, cache=False, remote=remote, progress=stages.chapters
        )
        notes += said
    return notes


def _on_shelf(diagnostic: Diagnostic, shelf: Path, shown: str) -> Diagnostic:
    """The diagnostic with the temporary folder's paths put back as the shelf's."""
    temporary = (str(shelf), os.path.relpath(shelf))
    message = diagnostic.message
    for prefix in temporary:
        message = message.replace(prefix, shown)
    at = diagnostic.at
    if at is not None:
        where = Path(os.path.normpath(Path.cwd() / at.path))
        if where.is_relative_to(shelf):
            at = Location(str(Path(shown) / where.relative_to(shelf)), at.line)
    return replace(diagnostic, message=message, at=at)
