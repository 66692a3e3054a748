#!/usr/bin/env python3
"""A serialized novel rebuilt after one chapter changed (issue 21): the PDF with no cache, cold
with an empty cache (what keeping costs), and warm after editing one chapter in the middle; the
warm build's bytes against a build of the edited book with no cache.

    python bench/bench_rebuild.py -n 300 pdf
    python bench/bench_rebuild.py -n 2000 epub
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


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return round(time.perf_counter() - start, 2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fmt", nargs="?", default="pdf")
    ap.add_argument("-n", type=int, default=300)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = generated_book(args.n, Path(tmp) / "book")
        out = Path(tmp) / "out"
        build = [sys.executable, "-m", "bookbuilder", args.fmt, str(corpus), "-o", str(out)]
        uncached = timed(build + ["--no-cache"])
        cold = timed(build)
        middle = sorted(corpus.glob("*.txt"))[args.n // 2]
        from bookbuilder.decode.text import decode_chapter

        text = decode_chapter(middle.read_bytes(), middle.name).text  # the files come in mixed encodings
        middle.write_text(text.replace("。", "！", 1), "utf-8")
        warm = timed(build)
        fresh = Path(tmp) / "fresh"
        timed(build[:-1] + [str(fresh), "--no-cache"])
        same = out.read_bytes() == fresh.read_bytes()
        shutil.rmtree(Path(tmp) / "build", ignore_errors=True)
    print(
        json.dumps(
            {
                "chapters": args.n,
                "format": args.fmt,
                "no_cache_s": uncached,
                "cold_s": cold,
                "cache_cost": round(cold / uncached - 1, 3),
                "warm_after_one_edit_s": warm,
                "warm_ratio": round(warm / cold, 2),
                "warm_same_bytes_as_no_cache": same,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
