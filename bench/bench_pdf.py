#!/usr/bin/env python3
"""PDF benchmark: the book as one WeasyPrint document (the floor: its time divided by the cores is
the best any split can do), and `bookbuilder pdf` as a user runs it, the whole process, for this
tree and, with --before, another tree, the runs alternated round after round so that a busy
machine slows each alike. Wall time, CPU time of the process tree, pages, peak memory, size.

    python bench/bench_pdf.py -n 300 --jobs 2                          # the generated book
    python bench/bench_pdf.py --file /tmp/novel.txt --jobs 2           # a real download
    python bench/bench_pdf.py -n 300 --rounds 3 --before /work/main    # before and after

The issue 44 figure is `vs_floor`: the whole process's median wall time over (one document's ÷
jobs); the goal is 1.15 or less, at a size at most 1.15x one document's. Issue 52's is `speedup`:
one document's render over the whole process's median wall time (1.74 or more on 2 cores), each
tree's beside the other's, with the median CPU seconds of each, so that a change's note shows
what it did to the ratio measured in the same rounds on the same machine.
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

from _measure import tree_rss

REPO = Path(__file__).resolve().parent.parent
MAKE_CORPUS = REPO / "bench" / "make_corpus.py"

ONE_DOCUMENT = """
import sys, time, json
from pathlib import Path
from bookbuilder.pipeline import load_book, source_date_epoch
from bookbuilder.render import RenderContext, renderer, with_cover
from bookbuilder.render.pdf_pages import render_one_document
loaded = load_book(sys.argv[1]); book, _ = with_cover(loaded.book, loaded.config)
options = renderer("pdf").options(loaded.config)
context = RenderContext(Path(sys.argv[2]), loaded.config, source_date_epoch(), options, jobs=1)
start = time.perf_counter()
data, _ = render_one_document(book, options, context)
seconds = time.perf_counter() - start
Path(sys.argv[2]).write_bytes(data)
print(json.dumps({"seconds": seconds}))
"""
BOOKBUILDER = "import sys; from bookbuilder.cli import main; sys.argv[0] = 'bookbuilder'; sys.exit(main())"


def run(args: list[str], env: dict) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds of the process and its children, peak memory, stdout."""
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    proc = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd="/"
    )
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(0.2)
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise SystemExit(f"{' '.join(args[:4])}… failed with exit {proc.returncode}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, peak, proc.stdout.read()


def row(label: str, wall: float, cpu: float, peak: int, out: Path) -> dict:
    from pypdf import PdfReader

    reader = PdfReader(str(out))
    return {
        "run": label,
        "seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "pages": len(reader.pages),
        "outline": len(reader.outline),
        "peak_mb": round(peak / 2**20),
        "size_mb": round(out.stat().st_size / 2**20, 2),
    }


def one_document(corpus: Path, tree: Path, out: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    wall, cpu, peak, stdout = run([sys.executable, "-c", ONE_DOCUMENT, str(corpus), str(out)], env)
    found = row("one document", wall, cpu, peak, out)
    found["seconds"] = round(json.loads(stdout)["seconds"], 1)  # the render alone: no start, no load
    return found


def whole_process(label: str, corpus: Path, tree: Path, jobs: int, out: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    args = [sys.executable, "-c", BOOKBUILDER, "-q", "pdf", str(corpus), "-o", str(out), "-j", str(jobs)]
    return row(label, *run(args + ["--no-cache"], env)[:3], out)


def summary(rows: list[dict], jobs: int) -> dict:
    def median(label: str, key: str = "seconds") -> float:
        return statistics.median(r[key] for r in rows if r["run"] == label)

    found = {}
    if any(r["run"] == "one document" for r in rows):
        floor = median("one document") / jobs
        found["floor_seconds"] = round(floor, 1)
        for label in ("after", "before"):
            if any(r["run"] == label for r in rows):
                found[f"{label}_vs_floor"] = round(median(label) / floor, 2)
                found[f"{label}_size_vs_one"] = round(
                    median(label, "size_mb") / median("one document", "size_mb"), 3
                )
    for label in ("after", "before"):
        if any(r["run"] == label for r in rows):
            found[f"{label}_cpu_seconds"] = median(label, "cpu_seconds")
            found[f"{label}_peak_mb"] = max(r["peak_mb"] for r in rows if r["run"] == label)
            if "floor_seconds" in found:
                found[f"{label}_speedup"] = round(median("one document") / median(label), 2)
    if any(r["run"] == "before" for r in rows):
        found["after_vs_before"] = round(median("after") / median("before"), 3)
        found["after_vs_before_cpu"] = round(
            median("after", "cpu_seconds") / median("before", "cpu_seconds"), 3
        )
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=300, help="chapters of the generated book")
    ap.add_argument("--file", type=Path, help="a real whole-novel .txt instead of the generated book")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--before", type=Path, help="another tree timed in the same rounds (e.g. /work/main)")
    ap.add_argument("--skip-one", action="store_true", help="leave out the one-document floor")
    args = ap.parse_args()
    trees = {"after": REPO, **({"before": args.before.resolve()} if args.before else {})}
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        corpus = args.file.resolve() if args.file else Path(tmp) / "corpus"
        if not args.file:
            subprocess.run(
                [sys.executable, str(MAKE_CORPUS), "--out", str(corpus), "-n", str(args.n)],
                check=True,
                capture_output=True,
            )
            (corpus / "manifest.json").unlink()
        for k in range(args.rounds):
            if not args.skip_one:
                rows.append(one_document(corpus, REPO, Path(tmp) / "one.pdf"))
            order = list(trees.items()) if k % 2 == 0 else list(reversed(trees.items()))
            for label, tree in order:
                rows.append(whole_process(label, corpus, tree, args.jobs, Path(tmp) / f"{label}.pdf"))
            print(json.dumps(rows[-len(order) - (not args.skip_one) :]), file=sys.stderr, flush=True)
    found = summary(rows, args.jobs)
    print(json.dumps({"rows": rows, "summary": found}, indent=1))
    print(side_by_side(found), file=sys.stderr)


def side_by_side(found: dict) -> str:
    """The ratios of this tree and of --before's, one line each, as a change's note quotes them."""
    lines = []
    for label in ("after", "before"):
        if f"{label}_speedup" in found:
            lines.append(
                f"{label:6s}: {found[f'{label}_speedup']:.2f}x one document, "
                f"{found[f'{label}_vs_floor']:.2f}x the floor, size {found[f'{label}_size_vs_one']:.3f}x, "
                f"{found[f'{label}_cpu_seconds']} CPU s, peak {found[f'{label}_peak_mb']} MB"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
