#!/usr/bin/env python3
"""The reading stage's passes timed one by one (bookbuilder.structure.sections.HEADING_PASSES): each
file decoded once, then read through the passes --runs times; per pass the fastest run's seconds
summed over the files, and the headings each pass decided.

    python bench/bench_passes.py novel.txt               # one whole novel
    python bench/bench_passes.py source/ --runs 5        # every .txt of a folder book

Prints JSON: per pass {"seconds", "decided"} in the order the passes run, and the files read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bookbuilder.decode.text import decode_chapter  # noqa: E402
from bookbuilder.structure.passes import Reading, run_passes  # noqa: E402
from bookbuilder.structure.sections import HEADING_PASSES  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    files = sorted(args.path.rglob("*.txt")) if args.path.is_dir() else [args.path]
    texts = [(str(f), decode_chapter(f.read_bytes(), str(f)).text) for f in files]
    best: dict[str, float] = {}
    decided: Counter = Counter()
    for run in range(args.runs):
        seconds: dict[str, float] = {}
        for shown, text in texts:
            reading = run_passes(Reading(shown, text), HEADING_PASSES, seconds=seconds)
            if run == 0:
                decided.update(s.decided_by for s in reading.sections if s.heading is not None)
        best = {name: min(best.get(name, s), s) for name, s in seconds.items()}
    print(
        json.dumps(
            {
                "files": len(texts),
                "passes": {
                    step.name: {"seconds": round(best[step.name], 4), "decided": decided[step.name]}
                    for step in HEADING_PASSES
                },
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
