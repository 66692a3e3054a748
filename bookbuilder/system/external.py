"""One way to run another program: the judges (EPUBCheck's Java, pdftotext, calibre, Ace)
and the font look-ups (fc-match, fc-list) each get a time limit, and a program that hangs or is
gone becomes one line naming it (E412), never a hung `check --outputs` or a traceback. Nothing
else in bookbuilder starts a process."""

from __future__ import annotations

import os
import queue
import subprocess
import threading
import time
from pathlib import Path

from bookbuilder.diagnostics import BookError

# Seconds each program may take: far above what the largest book takes (bench/bench_gate.py times
# the judges), so only a program that hangs meets its limit.
# BOOKBUILDER_JUDGE_TIMEOUT (seconds) overrides all.
LIMITS = {
    "java": 900,
    "pdftotext": 120,
    "ebook-convert": 1800,
    "ebook-meta": 300,
    "fc-match": 30,
    "fc-list": 30,
    "ace-puppeteer": 600,
}
DEFAULT_LIMIT = 300
CompletedProcess = subprocess.CompletedProcess  # what run() gives back


def limit(program: str) -> float:
    override = os.environ.get("BOOKBUILDER_JUDGE_TIMEOUT", "")
    return (
        float(override)
        if override.replace(".", "", 1).isdigit()
        else LIMITS.get(Path(program).name, DEFAULT_LIMIT)
    )


def _timed_out(command: list[str], where: str | None) -> BookError:
    return BookError("E412", f"{Path(command[0]).name} timed out after {limit(command[0]):g} s", where)


def _not_started(command: list[str], where: str | None, error: OSError) -> BookError:
    return BookError("E412", f"{Path(command[0]).name} could not be run: {error.strerror or error}", where)


def run(command: list[str], where: str | None = None, **options) -> CompletedProcess:
    """subprocess.run with the program's time limit; E412 when it runs past it or cannot start."""
    try:
        return subprocess.run(command, timeout=limit(command[0]), check=False, **options)
    except subprocess.TimeoutExpired:
        raise _timed_out(command, where) from None
    except OSError as e:
        raise _not_started(command, where, e) from None


class Lines:
    """A program's output (stdout and stderr together) line by line as it writes it, for a caller
    that shows its progress: iterating gives each line, and "" every `tick` seconds the program says
    nothing. Past its time limit the program is killed and E412 raised, as by run(); E412 too when
    it cannot start. `returncode` is its exit status once every line is read."""

    def __init__(self, command: list[str], where: str | None = None, tick: float = 1.0, **options):
        self.command, self.where, self.tick, self.options = command, where, tick, options
        self.returncode: int | None = None

    def __iter__(self):
        try:
            process = subprocess.Popen(
                self.command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **self.options
            )
        except OSError as e:
            raise _not_started(self.command, self.where, e) from None
        said: queue.Queue = queue.Queue()
        threading.Thread(
            target=lambda: [said.put(line) for line in process.stdout] + [said.put(None)], daemon=True
        ).start()
        deadline = time.monotonic() + limit(self.command[0])
        try:
            while True:
                try:
                    line = said.get(timeout=max(0.0, min(self.tick, deadline - time.monotonic())))
                except queue.Empty:
                    line = ""
                if line is None:
                    break
                if time.monotonic() > deadline:
                    raise _timed_out(self.command, self.where)
                yield line
            try:
                self.returncode = process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:  # its output closed, the program still running
                raise _timed_out(self.command, self.where) from None
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
