"""What `bookbuilder build SHELF` says: progress in books as they finish (a bar on a terminal, a
line per book elsewhere, nothing with -q), then a summary: built, unchanged, failed with each one's
one-line error, removed, warnings, time. All on stderr, as the one-book build's progress is."""

from __future__ import annotations

import sys

import click

from bookbuilder.shelf.build import ShelfSummary
from bookbuilder.shelf.task import BookResult


class ShelfProgress:
    """`start(total)` once, then `done(result)` per book built or failed."""

    def __init__(self, quiet: bool):
        self.quiet, self.tty = quiet, sys.stderr.isatty()
        self.total, self.count, self.bar = 0, 0, None

    def start(self, total: int) -> None:
        self.total = total
        if self.tty and not self.quiet and total:
            self.bar = click.progressbar(length=total, label="books", file=sys.stderr, show_pos=True)
            self.bar.__enter__()

    def done(self, result: BookResult) -> None:
        self.count += 1
        if self.bar is not None:
            self.bar.update(1)
        elif not self.quiet:
            what = "FAILED" if result.failed else "built"
            notes = f", {result.warning_count} warnings" if result.warning_count else ""
            click.echo(
                f"[{self.count}/{self.total}] {what} {result.name} ({result.seconds:.1f} s{notes})", err=True
            )

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


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
