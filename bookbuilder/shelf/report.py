"""What `bookbuilder build SHELF` says: progress in books as they finish, and what each running
book is doing (its stage: reading, normalizing, epub 40 %, pdf), then a summary: built,
unchanged, failed with each one's one-line error, removed, warnings, time. All on stderr, as the
one-book build's progress is, and nothing with -q.

On a terminal, a bar of books with the running books' stages beside it. Elsewhere (a CI log) a
line per book as it ends, and a running book's stages get lines of their own once it has run
STAGE_AFTER seconds: a long novel's PDF says where it is, a shelf of quick books stays one line each."""

from __future__ import annotations

import shutil
import sys
import threading
import time
import unicodedata
from dataclasses import dataclass

import click

from bookbuilder.shelf.build import ShelfSummary
from bookbuilder.shelf.task import BookResult

STAGE_AFTER = 10.0  # seconds a book runs before its stages get lines of their own (no terminal)
STAGE_EVERY = 30.0  # seconds between two lines of one book's progress within one stage (no terminal)
RUNNING_SHOWN = 3  # running books named beside the bar; the others are counted
BAR_WIDTH = 20  # the bar's own characters: fixed, so the text beside it is what a line has left
BAR_SPACE = 45  # columns the label, the bar, the count and the time left take on a terminal's line


@dataclass
class _Running:
    since: float
    stage: str = ""
    text: str = ""
    shown_at: float = float("-inf")


class ShelfProgress:
    """`start(total)` once, then `stage(name, stage, detail)` as running books tell it (from any
    thread) and `done(result)` per book built or failed."""

    def __init__(self, quiet: bool, file=None):
        self.quiet, self.file = quiet, file or sys.stderr
        self.tty = self.file.isatty()
        self.total, self.count, self.bar = 0, 0, None
        self.running: dict[str, _Running] = {}
        self.ended: set[str] = set()  # a stage told late (a cluster's event after the result) is old news
        self.lock = threading.Lock()

    def start(self, total: int) -> None:
        self.total = total
        if self.tty and not self.quiet and total:
            self.bar = click.progressbar(
                length=total,
                label="books",
                file=self.file,
                show_pos=True,
                width=BAR_WIDTH,
                item_show_func=lambda text: text,
                update_min_steps=0,  # a stage (0 books more) redraws the line too
            )
            self.bar.__enter__()

    def stage(self, name: str, stage: str, detail: str = "") -> None:
        with self.lock:
            if name in self.ended:
                return
            now = time.monotonic()
            running = self.running.setdefault(name, _Running(now))
            changed = stage != running.stage
            running.stage, running.text = stage, f"{stage} {detail}".strip()
            if self.quiet:
                return
            if self.bar is not None:
                self.bar.update(0, self._beside_the_bar())
            elif now - running.since >= STAGE_AFTER and (changed or now - running.shown_at >= STAGE_EVERY):
                running.shown_at = now
                click.echo(f"  {name}: {running.text}", file=self.file)

    def done(self, result: BookResult) -> None:
        with self.lock:
            self.count += 1
            self.running.pop(result.name, None)
            self.ended.add(result.name)
            if self.bar is not None:
                self.bar.update(1, self._beside_the_bar())
            elif not self.quiet:
                what = "FAILED" if result.failed else "built"
                notes = f", {result.warning_count} warnings" if result.warning_count else ""
                click.echo(
                    f"[{self.count}/{self.total}] {what} {result.name} ({result.seconds:.1f} s{notes})",
                    file=self.file,
                )

    def _beside_the_bar(self) -> str:
        """The longest-running books and their stages, as much as the terminal's line holds."""
        first = sorted(self.running.items(), key=lambda item: item[1].since)
        text = " · ".join(f"{name} {r.text}" for name, r in first[:RUNNING_SHOWN])
        if len(first) > RUNNING_SHOWN:
            text += f" · {len(first) - RUNNING_SHOWN} more"
        room = max(shutil.get_terminal_size().columns - BAR_SPACE, 10)
        return _cut_to_columns(text, room)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def _cut_to_columns(text: str, columns: int) -> str:
    """`text` cut to what `columns` terminal columns show: a CJK character takes two."""
    used = 0
    for i, char in enumerate(text):
        used += 2 if unicodedata.east_asian_width(char) in "WF" else 1
        if used > columns - 1:
            return text[:i] + "…"
    return text


def summary_lines(summary: ShelfSummary) -> list[str]:
    lines = [
        f"shelf: {len(summary.built)} built, {len(summary.unchanged)} unchanged, "
        f"{len(summary.failed)} failed, {len(summary.removed)} removed, "
        f"{summary.warnings} warnings, {summary.seconds:.1f} s"
    ]
    warned = sorted((r for r in summary.built if r.warning_count), key=lambda r: r.name)
    if warned:
        names = ", ".join(f"{r.name} ({r.warning_count})" for r in warned[:10])
        more = f" and {len(warned) - 10} more" if len(warned) > 10 else ""
        lines.append(f"warnings in {names}{more}: bookbuilder check BOOK lists them")
    lines += [f"failed {r.name}: {r.error}" for r in sorted(summary.failed, key=lambda r: r.name)]
    return lines
