#!/usr/bin/env python3
"""Issue 44 item 4's and issue 52 item 3's figures: `bookbuilder epub` of a whole-novel download and
of the generated 2,000-chapter folder book, as whole processes, each beside its floor (bench_debris.py's
read+decode+zip of the file, reference_zip.py's of the folder), for this commit and the one before it
side by side, so that a change's note says what it did to each ratio. The trees and the floors run in
turn, round after round, so that each figure is taken at the same moments.

    python bench/bench_cores.py --file NOVEL.txt [-n 2000] [--runs 5]      # HEAD against HEAD~1
    python bench/bench_cores.py --before TREE [--after TREE] --file NOVEL.txt
    python bench/bench_cores.py ... --load-only    # pipeline.load_book alone, timed inside

Without --before, the commit before this tree's HEAD is checked out into a temporary worktree
(removed after). Prints a table (each book: the floor, then each tree's ratio to it and CPU seconds)
and the JSON behind it: per tree and book the fastest and the median wall time, the fastest against
the fastest floor, the median of each round's ratio to that round's floor (the steadier figure on a
shared machine), and the CPU seconds the build's processes used (user + system, the workers
included), which the machine's other work does not inflate as it does wall time. With --load-only,
the time of load_book alone (interpreter start, imports and the EPUB left out), jobs 1 and --jobs.
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
ROOT = HERE.parent
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


def _previous_commit(tmp: Path) -> Path:
    """HEAD~1 of this tree, checked out (detached) under `tmp`: the default --before."""
    tree = tmp / "before"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), "HEAD~1"], check=True
    )
    return tree


def _figures(times: dict) -> dict:
    result = {}
    for (tree, name), runs in times.items():
        walls = [w for w, _ in runs]
        floors = [w for w, _ in times[("floor", name)]]
        result[f"{tree} {name}"] = {
            "wall_s_min": round(min(walls), 2),
            "wall_s_median": round(statistics.median(walls), 2),
            "ratio_to_floor_min": round(min(walls) / min(floors), 2),
            "ratio_to_floor_median": round(statistics.median(w / f for w, f in zip(walls, floors)), 2),
            "cpu_s_median": round(statistics.median(c for _, c in runs), 2),
        }
    return result


def _table(result: dict, labels: dict[str, str]) -> str:
    """Each book's floor, then each tree's ratios (fastest, median of rounds) and CPU seconds."""
    lines = [f"{'':8} {'floor':>7}" + "".join(f"  {labels[t][:28]:>28}" for t in labels)]
    lines.append(f"{'':8} {'s':>7}" + "  " + "  ".join(f"{'ratio min/median, CPU s':>28}" for _ in labels))
    for name in ("folder", "novel"):
        floor = result.get(f"floor {name}")
        if floor is None:
            continue
        row = f"{name:8} {floor['wall_s_min']:7.2f}"
        for tree in labels:
            keys = [k for k in result if k.startswith(f"{tree}") and k.endswith(f" {name}")]
            cells = [
                f"{result[k]['ratio_to_floor_min']:.2f}x/{result[k]['ratio_to_floor_median']:.2f}x "
                f"{result[k]['cpu_s_median']:.2f}"
                for k in keys
            ]
            row += "  " + f"{'; '.join(cells):>28}"
        lines.append(row)
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", type=Path, help="a source tree (default: HEAD~1 of this one)")
    ap.add_argument("--after", type=Path, default=ROOT, help="a source tree (default: this one)")
    ap.add_argument("--file", type=Path, required=True, help="a whole-novel download")
    ap.add_argument("-n", type=int, default=2000, help="chapters of the generated folder book")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--load-only", action="store_true", help="time load_book alone, jobs 1 and --jobs")
    args = ap.parse_args()
    args.file, args.after = args.file.resolve(), args.after.resolve()
    args.before = args.before.resolve() if args.before else None
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        made = args.before is None
        if made:
            args.before = _previous_commit(tmp)
        labels = {tree: f"{tree} {_described(getattr(args, tree))}" for tree in ("after", "before")}
        try:
            times = _rounds(args, tmp)
        finally:
            if made:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(args.before)])
    result = _figures(times)
    print(_table(result, labels))
    print(json.dumps(result, indent=1))


def _described(tree: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(tree), "log", "-1", "--format=%h"], capture_output=True, text=True, check=False
    )
    return done.stdout.strip() or tree.name


def _rounds(args, tmp: Path) -> dict[tuple, list]:
    """Every round: each book's floor, then each tree's build of it."""
    folder = generated_book(args.n, tmp / "folder")
    (tmp / "floor.py").write_text(FLOOR)
    floors = {
        "novel": [sys.executable, str(tmp / "floor.py"), str(args.file), str(tmp / "f.zip")],
        "folder": [sys.executable, str(HERE / "reference_zip.py"), str(folder), str(tmp / "r.zip")],
    }
    books = {"novel": args.file, "folder": folder}
    # Byte-compiled first, as in any installed copy: under PYTHONDONTWRITEBYTECODE an editable
    # tree would compile its modules again in every run (about 1 s of each)
    for tree in ("before", "after"):
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(getattr(args, tree) / "bookbuilder")], check=True
        )
    times: dict[tuple, list] = {}
    for _ in range(args.runs):
        for name, book in books.items():
            times.setdefault(("floor", name), []).append(timed(floors[name]))
            for tree in ("before", "after"):
                # PYTHONSAFEPATH: `python -m` and `-c` would put the working directory before
                # PYTHONPATH, so that run from inside a source tree every tree would be that one
                env = {**os.environ, "PYTHONPATH": str(getattr(args, tree)), "PYTHONSAFEPATH": "1"}
                for label, figure in _one_round(args, tree, book, tmp, env):
                    times.setdefault((label, name), []).append(figure)
    return times


if __name__ == "__main__":
    main()
