#!/usr/bin/env python3
"""PDF benchmark: the same book rendered as one WeasyPrint document and in parallel chunks, in
one run: wall time, pages per second, peak memory of the whole process tree, file size.

    python bench/bench_pdf.py -n 2000 --jobs 2      # the issue's figure (takes minutes)
    python bench/bench_pdf.py -n 300 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _measure import tree_rss

REPO = Path(__file__).resolve().parent.parent
MAKE_CORPUS = REPO / "bench" / "make_corpus.py"

RENDER = """
import sys, time, json
from pathlib import Path
from bookbuilder.pipeline import load_book, source_date_epoch
from bookbuilder.render import RenderContext, renderer, with_cover
from bookbuilder.render.pdf_pages import render_one_document, render_pdf_bytes
loaded = load_book(sys.argv[1]); book, _ = with_cover(loaded.book, loaded.config)
options = renderer("pdf").options(loaded.config)
context = RenderContext(Path(sys.argv[4]), loaded.config, source_date_epoch(), options, jobs=int(sys.argv[3]))
start = time.perf_counter()
data, _ = (render_one_document if sys.argv[2] == "one" else render_pdf_bytes)(book, options, context)
seconds = time.perf_counter() - start
Path(sys.argv[4]).write_bytes(data)
print(json.dumps({"seconds": seconds}))
"""


def measure(mode: str, corpus: Path, jobs: int, out: Path) -> dict:
    proc = subprocess.Popen(
        [sys.executable, "-c", RENDER, str(corpus), mode, str(jobs), str(out)],
        stdout=subprocess.PIPE,
        text=True,
    )
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(0.2)
    result = json.loads(proc.stdout.read())
    from pypdf import PdfReader

    pages = len(PdfReader(str(out)).pages)
    return {
        "mode": mode,
        "seconds": round(result["seconds"], 1),
        "pages": pages,
        "pages_per_s": round(pages / result["seconds"], 1),
        "peak_mb": round(peak / 2**20),
        "size_mb": round(out.stat().st_size / 2**20, 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--skip-one", action="store_true", help="only the chunked render")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        subprocess.run(
            [sys.executable, str(MAKE_CORPUS), "--out", str(corpus), "-n", str(args.n)],
            check=True,
            capture_output=True,
        )
        (corpus / "manifest.json").unlink()
        rows = [measure("chunked", corpus, args.jobs, Path(tmp) / "chunked.pdf")]
        if not args.skip_one:
            rows.append(measure("one", corpus, 1, Path(tmp) / "one.pdf"))
            rows.append(
                {
                    "speedup": round(rows[1]["seconds"] / rows[0]["seconds"], 2),
                    "size_ratio": round(rows[0]["size_mb"] / rows[1]["size_mb"], 3),
                }
            )
    print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
