#!/usr/bin/env python3
"""Two formats of the same large book, built alternately as a user builds them (interpreter start
included): the fastest and the median wall time of each, and their ratio.

    python bench/bench_formats.py -n 2000 epub kepub --runs 7    # issue 20: the kepub within 1.3× the EPUB
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _measure import generated_book


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("formats", nargs=2)
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = generated_book(args.n, Path(tmp) / "c")
        times: dict[str, list[float]] = {f: [] for f in args.formats}
        for _ in range(args.runs):
            for fmt in args.formats:
                start = time.perf_counter()
                subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "bookbuilder",
                        fmt,
                        str(corpus),
                        "-o",
                        str(Path(tmp) / f"book.{fmt}"),
                    ],
                    check=True,
                    capture_output=True,
                )
                times[fmt].append(time.perf_counter() - start)
    first, second = args.formats
    result = {
        f: {"min_s": round(min(t), 3), "median_s": round(statistics.median(t), 3)} for f, t in times.items()
    }
    result["ratio_median"] = round(statistics.median(times[second]) / statistics.median(times[first]), 2)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
