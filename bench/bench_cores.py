#!/usr/bin/env python3
"""Issue 44 item 4's figures, before and after a change, on a shared machine: `bookbuilder epub`
of a whole-novel file and of a generated folder book, as whole processes, each beside its floor
(bench_debris.py's read+decode+zip of the file, reference_zip.py's of the folder), the two trees
and the floors run in turn, round after round, so that each figure is taken at the same moments.

    python bench/bench_cores.py --before TREE --after TREE --file NOVEL.txt [-n 2000] [--runs 5]
    python bench/bench_cores.py ... --load-only    # pipeline.load_book alone, timed inside

Prints JSON per tree and book: the fastest and the median wall time, its ratio to the fastest
floor, and the CPU seconds the build's processes used (user + system, the workers included),
which the machine's other work does not inflate as it does wall time. With --load-only, the
time of load_book alone (interpreter start, imports and the EPUB left out), jobs 1 and --jobs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _measure import generated_book  # noqa: E402
from bench_debris import FLOOR  # noqa: E402


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(cmd: list[str], env: dict | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its workers)."""
    cpu, start = _children_cpu(), time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start, _children_cpu() - cpu


LOAD = """import sys, time
from bookbuilder.pipeline import load_book
start = time.perf_counter()
load_book(sys.argv[1], int(sys.argv[2]))
print(time.perf_counter() - start)
"""


def timed_load(book: Path, jobs: int, env: dict) -> tuple[float, float]:
    """(seconds of load_book as the child measured it, CPU seconds of the child and its workers)."""
    cpu = _children_cpu()
    done = subprocess.run(
        [sys.executable, "-c", LOAD, str(book), str(jobs)], check=True, capture_output=True, env=env
    )
    return float(done.stdout), _children_cpu() - cpu


def _one_round(args, tree: str, book: Path, tmp: Path, env: dict) -> list[tuple[str, tuple]]:
    """One tree's figures on one book: load_book on one process and on --jobs, or the EPUB build."""
    if args.load_only:
        return [(f"{tree} jobs={jobs}", timed_load(book, jobs, env)) for jobs in (1, args.jobs)]
    cmd = [sys.executable, "-m", "bookbuilder", "-q", "epub", str(book), "-o", str(tmp / f"{tree}.epub")]
    return [(tree, timed(cmd + ["-j", str(args.jobs)], env))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", type=Path, required=True)
    ap.add_argument("--after", type=Path, required=True)
    ap.add_argument("--file", type=Path, required=True, help="a whole-novel download")
    ap.add_argument("-n", type=int, default=2000, help="chapters of the generated folder book")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--load-only", action="store_true", help="time load_book alone, jobs 1 and --jobs")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        folder = generated_book(args.n, tmp / "folder")
        (tmp / "floor.py").write_text(FLOOR)
        floors = {
            "novel": [sys.executable, str(tmp / "floor.py"), str(args.file), str(tmp / "f.zip")],
            "folder": [sys.executable, str(HERE / "reference_zip.py"), str(folder), str(tmp / "r.zip")],
        }
        books = {"novel": args.file, "folder": folder}
        times: dict[tuple, list] = {}
        for _ in range(args.runs):
            for name, book in books.items():
                times.setdefault(("floor", name), []).append(timed(floors[name]))
                for tree in ("before", "after"):
                    env = {**os.environ, "PYTHONPATH": str(getattr(args, tree))}
                    for label, figure in _one_round(args, tree, book, tmp, env):
                        times.setdefault((label, name), []).append(figure)
        result = {}
        for (tree, name), runs in times.items():
            walls = [w for w, _ in runs]
            floor = min(w for w, _ in times[("floor", name)])
            result[f"{tree} {name}"] = {
                "wall_s_min": round(min(walls), 2),
                "wall_s_median": round(statistics.median(walls), 2),
                "ratio_to_floor_min": round(min(walls) / floor, 2),
                "cpu_s_median": round(statistics.median(c for _, c in runs), 2),
            }
        print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
