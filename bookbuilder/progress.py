"""What a long command is doing, on stderr, in any terminal: a bar redrawn in place on a terminal;
where none can be drawn (a pipe, a CI log, a GUI reading stderr) a line per stage and one at about
every tenth of the work, with the time left at the rate so far (`PDF 40% 120/300 chapters, 35 s
left`). click's own bar prints its label alone there, and then nothing for minutes.

The stages call plain functions (`update(n)`, `stage(text)`, the AZW3's `status(stage, seconds)`,
the reading's `files(stage, done, total)`), so that they need not know who listens; `Silent`
listens to none of it (`bookbuilder -q`). Imports click alone: the CLI holds it from its start.
"""

from __future__ import annotations

import sys
import threading
import time

import click

STEPS = 10  # a line at about every tenth of the work where no bar can be drawn
REDRAW = 0.1  # seconds between two drawings of the bar on a terminal
BAR = 24  # characters


class Progress:
    """One command's progress under `label` (PDF, EPUB, READ): counted work (`count`, `update`)
    and named stages (`stage`). `after`: seconds before anything is shown, so that a quick
    command says nothing."""

    def __init__(self, label: str, after: float = 0.0, tty: bool | None = None):
        self.label, self.after = label, after
        self.tty = sys.stderr.isatty() if tty is None else tty
        self.start = self.drawn = time.monotonic()
        self.total, self.done, self.step, self.unit = 0, 0, 0, ""
        self.shown_stage, self.stage_text, self.dirty = "", "", False
        self.held: threading.Timer | None = None  # shows a held-back stage once `after` has passed
        self.lock = threading.Lock()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        with self.lock:
            if self.held is not None:
                self.held.cancel()
            self.after = float("inf")  # nothing more from the timer
        if self.tty and self.dirty:
            click.echo("\r\x1b[K", err=True, nl=False)

    def count(self, total: int, unit: str) -> None:
        """Counted work begins: `total` `unit`s (chapters, files)."""
        self.total, self.done, self.step, self.unit = max(total, 1), 0, 0, unit
        self.counted_from = time.monotonic()

    def update(self, n: int) -> None:
        """`n` more units done."""
        self.done += n
        step = self.done * STEPS // self.total
        if self.tty:
            self._draw(final=self.done >= self.total)
        elif step > self.step and self._late():
            self.step = step
            click.echo(f"{self.label} {self._counted()}", err=True)

    def stage(self, text: str) -> None:
        """A new stage: on a pipe, a line of its own once. Before `after` seconds it is held
        back, and shown then if it is still going on (a whole novel read in one long stage)."""
        with self.lock:
            self.stage_text = text
            if not self._late():
                if self.held is None:
                    wait = self.after - (time.monotonic() - self.start)
                    self.held = threading.Timer(wait + 0.01, self._show_held)
                    self.held.daemon = True
                    self.held.start()
            elif self.tty:
                self._draw(final=True)
            elif text != self.shown_stage:
                self.shown_stage = text
                click.echo(f"{self.label} {text}", err=True)

    def _show_held(self) -> None:
        with self.lock:
            if not self._late() or not self.stage_text:
                return
            if self.tty:
                self._draw(final=True)
            elif self.stage_text != self.shown_stage:
                self.shown_stage = self.stage_text
                click.echo(f"{self.label} {self.stage_text}", err=True)

    def status(self, stage: str, seconds: float) -> None:
        """A long step without units to count (calibre's conversion), with its seconds so far."""
        if self.tty and seconds:
            self._line(f"{stage} ({seconds:.0f} s)")
        else:
            self.stage(stage)

    __call__ = status  # RenderContext.status calls the object itself

    def files(self, stage: str, done: int, total: int) -> None:
        """The reading's hook (pipeline.load_book): `done` of `total` files, or a stage (total 0)."""
        if total == 0:
            self.stage(stage)
        else:
            if self.unit != "files" or self.total != total:
                self.count(total, "files")
                self.stage_text = stage
            self.update(done - self.done)

    def _late(self) -> bool:
        return time.monotonic() - self.start >= self.after

    def _counted(self) -> str:
        spent = time.monotonic() - self.counted_from
        left = spent * (self.total - self.done) / self.done if 0 < self.done < self.total else 0
        return f"{100 * self.done // self.total}% {self.done:,}/{self.total:,} {self.unit}, {left:.0f} s left"

    def _draw(self, final: bool) -> None:
        now = time.monotonic()
        if not self._late() or (not final and now - self.drawn < REDRAW):
            return
        self.drawn = now
        if self.total and self.done < self.total:
            filled = BAR * self.done // self.total
            self._line(f"[{'#' * filled}{'-' * (BAR - filled)}] {self._counted()}")
        else:
            self._line(self.stage_text)

    def _line(self, text: str) -> None:
        if self._late():
            click.echo(f"\r\x1b[K{self.label} {text}", err=True, nl=False)
            self.dirty = True


class Silent(Progress):
    """Progress that shows nothing (--quiet)."""

    def __init__(self):
        super().__init__("", tty=False)

    def update(self, n: int) -> None:
        return None

    def stage(self, text: str) -> None:
        return None

    def status(self, stage: str, seconds: float) -> None:
        return None

    __call__ = status

    def files(self, stage: str, done: int, total: int) -> None:
        return None
