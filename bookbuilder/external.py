"""One way to run another program (issue 34): the judges (EPUBCheck's Java, pdftotext, calibre)
and the font look-ups (fc-match, fc-list) each get a time limit, and a program that hangs or is
gone becomes one line naming it (E412), never a hung `check --outputs` or a traceback."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

from bookbuilder.diagnostics import BookError

# Seconds each program may take. EPUBCheck reads a 2,000-chapter book in well under a minute here;
# calibre converts a 4 MB novel in about 45 s. BOOKBUILDER_JUDGE_TIMEOUT (seconds) overrides all.
LIMITS = {"java": 900, "pdftotext": 120, "ebook-convert": 1800, "ebook-meta": 300, "fc-match": 30, "fc-list": 30}
DEFAULT_LIMIT = 300


def limit(program: str) -> float:
    override = os.environ.get("BOOKBUILDER_JUDGE_TIMEOUT", "")
    return float(override) if override.replace(".", "", 1).isdigit() else LIMITS.get(Path(program).name, DEFAULT_LIMIT)


def run(command: list[str], where: str | None = None, **options) -> subprocess.CompletedProcess:
    """subprocess.run with the program's time limit; E412 when it runs past it or cannot start."""
    name = Path(command[0]).name
    try:
        return subprocess.run(command, timeout=limit(command[0]), check=False, **options)
    except subprocess.TimeoutExpired:
        raise BookError("E412", f"{name} timed out after {limit(command[0]):g} s", where) from None
    except OSError as e:
        raise BookError("E412", f"{name} could not be run: {e.strerror or e}", where) from None
