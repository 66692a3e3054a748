#!/usr/bin/env python3
"""Start-up benchmark: `bookbuilder --version` and `bookbuilder --help` against
`python -c "import click"`, the floor any click program pays. The three are run in turn, round
after round, so that a busy machine slows each alike; the figure is the ratio of medians.

    python bench/bench_start.py              # 40 rounds
    python bench/bench_start.py --rounds 100
    python bench/bench_start.py --before /work/main   # that tree's bookbuilder too, in the same rounds

The goal (issue 44): each within 1.5x of the floor.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# What the `bookbuilder` console script runs (its entry point), with this interpreter.
BOOKBUILDER = "import sys; from bookbuilder.cli import main; sys.argv[0] = 'bookbuilder'; sys.exit(main())"


def commands(products: dict[str, Path]) -> dict[str, tuple[list[str], dict]]:
    """name → (command, environment): the floor, then each tree's --version and --help."""
    found = {"import click": ([sys.executable, "-c", "import click"], dict(os.environ))}
    for label, tree in products.items():
        env = {**os.environ, "PYTHONPATH": str(tree.resolve())}  # first on sys.path: run from /
        for option in ("--version", "--help"):
            found[f"{label} {option}"] = ([sys.executable, "-c", BOOKBUILDER, option], env)
    return found


def timed(args: list[str], env: dict) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run. On a machine others share, the CPU
    time is the steadier figure: waiting for a core does not count in it."""
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL, cwd="/")  # -c puts the cwd first
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def summary(times: list[tuple[float, float]], floor: list[tuple[float, float]]) -> dict:
    """Median wall and CPU milliseconds, and each as a ratio to the floor's median."""
    row = {}
    for i, kind in enumerate(("wall", "cpu")):
        median = statistics.median(t[i] for t in times)
        row[f"{kind}_ms"] = round(1000 * median, 1)
        row[f"{kind}_ratio"] = round(median / statistics.median(t[i] for t in floor), 2)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--product", type=Path, default=REPO, help="the bookbuilder tree to time")
    ap.add_argument("--before", type=Path, help="another tree timed in the same rounds (e.g. main)")
    args = ap.parse_args()
    products = {"after": args.product, **({"before": args.before} if args.before else {})}
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands(products)}
    for command, env in commands(products).values():  # one untimed run each: files in the page cache
        timed(command, env)
    for _ in range(args.rounds):
        for name, (command, env) in commands(products).items():
            runs[name].append(timed(command, env))
    rows = {name: summary(times, runs["import click"]) for name, times in runs.items()}
    shown = {label: str(tree) for label, tree in products.items()}
    print(json.dumps({"products": shown, "rounds": args.rounds, **rows}, indent=1))


if __name__ == "__main__":
    main()
