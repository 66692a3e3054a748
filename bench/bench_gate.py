#!/usr/bin/env python3
"""The release gate on a large book: the load, `bookbuilder check` (the source only),
`bookbuilder check --outputs` on freshly built artifacts (every check, none kept yet), and again
(every result kept). Issue 23's figures.

    python bench/bench_gate.py -n 300
    python bench/bench_gate.py -n 2000      # builds the PDF first: a few minutes
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _measure import generated_book


def timed(command: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    return time.perf_counter() - start, done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=300)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = generated_book(args.n, Path(tmp) / "book")
        bookbuilder = [sys.executable, "-m", "bookbuilder"]
        build_s, _ = timed(bookbuilder + ["build", str(corpus)])
        load = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys, time; from bookbuilder.pipeline import load_book; "
                "t = time.perf_counter(); load_book(sys.argv[1]); print(time.perf_counter() - t)",
                str(corpus),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        check_s, _ = timed(bookbuilder + ["check", str(corpus)])
        shutil.rmtree(corpus.parent / "build" / ".checks", ignore_errors=True)
        cold_s, cold = timed(bookbuilder + ["check", str(corpus), "--outputs", "--json"])
        warm_s, _ = timed(bookbuilder + ["check", str(corpus), "--outputs", "--json"])
        checks = json.loads(cold.stdout)["outputs"]["checks"]
    print(
        json.dumps(
            {
                "chapters": args.n,
                "build_s": round(build_s, 1),
                "load_s": round(float(load.stdout), 2),
                "check_s": round(check_s, 2),
                "check_outputs_s": round(cold_s, 1),
                "check_outputs_kept_s": round(warm_s, 2),
                "checks": {c["check"] + " " + Path(c["artifact"]).suffix: c["seconds"] for c in checks},
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
