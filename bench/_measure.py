"""Memory of a process tree, for the benchmarks (Linux /proc)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path


def _pss(pid: str) -> int:
    """Proportional set size: shared pages counted once across the processes sharing them."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) * 1024
    return 0


def tree_rss(pid: int) -> int:
    """Memory (PSS) of a process and all its descendants, in bytes (from /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(stat[1]), []).append(int(entry))
            rss[int(entry)] = _pss(entry)
        except (OSError, IndexError, ValueError):
            continue
    total, stack = 0, [pid]
    while stack:
        p = stack.pop()
        total += rss.get(p, 0)
        stack += children.get(p, [])
    return total


def run_measured(args: list[str], interval: float = 0.02) -> tuple[float, int, subprocess.CompletedProcess]:
    """Run a command: (wall seconds, peak PSS of its whole process tree in bytes, the result)."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(interval)
    wall = time.perf_counter() - start
    out, err = proc.communicate()
    return wall, peak, subprocess.CompletedProcess(args, proc.returncode, out, err)


MAKE_CORPUS = Path(__file__).resolve().parent / "make_corpus.py"


def generated_book(n: int, folder: Path) -> Path:
    """A folder of `n` generated chapter files (bench/make_corpus.py), without its manifest."""
    import sys

    subprocess.run(
        [sys.executable, str(MAKE_CORPUS), "--out", str(folder), "-n", str(n)],
        check=True,
        capture_output=True,
    )
    (folder / "manifest.json").unlink()
    return folder
