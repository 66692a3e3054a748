#!/usr/bin/env python3
"""A very large whole-novel file to EPUB: wall time and peak memory (PSS of the process tree).

python bench/bench_large.py --mb 100
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import tree_rss  # noqa: E402
from bench_pdf import MAKE_CORPUS  # noqa: E402

CHAPTERS_PER_MB = 125  # make_corpus: ~2,000 chapters ≈ 16 MB of UTF-8


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=int, default=100)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        novel = Path(tmp) / "novel.txt"
        subprocess.run(
            [
                sys.executable,
                str(MAKE_CORPUS),
                "--out",
                str(Path(tmp) / "c"),
                "-n",
                str(args.mb * CHAPTERS_PER_MB),
                "--single",
                str(novel),
                "--no-chapters",
            ],
            check=True,
            capture_output=True,
        )
        start = time.perf_counter()
        log = open(
            Path(tmp) / "stderr.txt", "w+"
        )  # a file, not a pipe: thousands of warnings would fill a pipe
        proc = subprocess.Popen(
            [sys.executable, "-m", "bookbuilder", "epub", str(novel), "-o", str(Path(tmp) / "big.epub")],
            stdout=subprocess.DEVNULL,
            stderr=log,
            text=True,
        )
        peak = 0
        while proc.poll() is None:
            peak = max(peak, tree_rss(proc.pid))
            time.sleep(0.2)
        seconds = time.perf_counter() - start
        log.seek(0)
        err = log.read()
        print(
            json.dumps(
                {
                    "input_mb": round(novel.stat().st_size / 2**20, 1),
                    "exit": proc.returncode,
                    "seconds": round(seconds, 1),
                    "peak_mb": round(peak / 2**20),
                    "epub_mb": round((Path(tmp) / "big.epub").stat().st_size / 2**20, 1)
                    if proc.returncode == 0
                    else None,
                    "warnings": sum(" warning " in line for line in err.splitlines()),
                    "stderr_tail": err.strip().splitlines()[-1:],
                },
                ensure_ascii=False,
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
