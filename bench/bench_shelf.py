#!/usr/bin/env python3
"""A shelf of generated books built three ways on the same cores: one book at a time (`--jobs 1`),
on the local process pool, and on a Dask LocalCluster (a scheduler on 127.0.0.1 and one worker
process of one thread per core, through `--scheduler`); times, ratios, and whether the three give
the same bytes. Each run starts from an empty build/.

    python bench/bench_shelf.py                      # 40 books of 40 chapters, EPUB
    python bench/bench_shelf.py --books 8 --pdf      # EPUB and PDF
    python bench/bench_shelf.py --stages 40 300 --pdf   # where one book's time goes, by its size

Times on a shared machine swing with the others' load: `--stages` counts CPU seconds (this
process's), which swing far less than the clock, for books per hour per core.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _measure import MAKE_CORPUS

from bookbuilder.shelf.build import build_shelf
from bookbuilder.system.parallel import default_jobs


def make_shelf(shelf: Path, books: int, chapters: int, chars: int, formats: list[str]) -> None:
    """`books` projects of generated chapters (bench/make_corpus.py), each with a seed of its own."""
    for n in range(1, books + 1):
        book = shelf / f"book{n:03}"
        subprocess.run(
            [sys.executable, str(MAKE_CORPUS), "--out", str(book / "source"), "-n", str(chapters)]
            + ["--chars", str(chars), "--seed", str(20240601 + n)],
            check=True,
            capture_output=True,
        )
        (book / "source" / "manifest.json").unlink()
        (book / "book.toml").write_text(
            f'[book]\ntitle = "书{n}"\nauthor = "作者"\n[output]\nformats = {json.dumps(formats)}\n', "utf-8"
        )


def fingerprint(shelf: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted((shelf / "build").rglob("*")):
        if path.is_file() and path.name != "shelf-manifest.json":
            digest.update(path.relative_to(shelf).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()[:16]


def timed(shelf: Path, **how) -> tuple[float, str]:
    shutil.rmtree(shelf / "build", ignore_errors=True)
    start = time.perf_counter()
    summary = build_shelf(shelf, **how)
    seconds = time.perf_counter() - start
    assert not summary.failed, [r.error for r in summary.failed]
    return seconds, fingerprint(shelf)


def _import_stages() -> None:
    """Run on each worker: the stages imported once (returns nothing: a module does not pickle)."""
    import bookbuilder.pipeline  # noqa: F401
    import bookbuilder.render.epub  # noqa: F401


def start_cluster(workers: int):
    from distributed import Client, LocalCluster

    start = time.perf_counter()
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
    )
    with Client(cluster.scheduler_address) as client:  # a running cluster has its modules imported
        client.run(_import_stages)
    return cluster, time.perf_counter() - start


def stages(chapters: int, chars: int, formats: list[str]) -> None:
    """CPU seconds of one book of `chapters` generated chapters, on one process, by stage; and of
    the shelf's own work around it (its plan when nothing changed, its task's bytes in and out)."""
    import resource

    from bookbuilder import pipeline
    from bookbuilder.shelf.books import find_books
    from bookbuilder.shelf.build import _task
    from bookbuilder.shelf.task import build_book

    def cpu() -> float:
        used = resource.getrusage(resource.RUSAGE_SELF)
        return used.ru_utime + used.ru_stime

    with tempfile.TemporaryDirectory() as tmp:
        shelf = Path(tmp) / "shelf"
        make_shelf(shelf, 1, chapters, chars, formats)
        book = shelf / "book001"
        pipeline.load_book(book, jobs=1)  # imports and caches (fonts, rules) are not the book's
        spent = {}
        start = cpu()
        loaded = pipeline.load_book(book, jobs=1)
        spent["load (read, decode, structure, normalize, lint, self-check)"] = cpu() - start
        for fmt in formats:
            start = cpu()
            pipeline.build(loaded, fmt, jobs=1, cache=False)
            spent[fmt] = cpu() - start
        shutil.rmtree(book / "build")
        task = _task(shelf, find_books(shelf)[0], {})
        start = cpu()
        result = build_book(task)
        spent[f"the whole shelf task ({'+'.join(formats)}, files in and out as bytes)"] = cpu() - start
        sizes = sum(map(len, task.files.values())), sum(map(len, result.outputs.values()))
        build_shelf(shelf, jobs=1)
        start = time.perf_counter()
        build_shelf(shelf, jobs=1)
        spent["the shelf's plan when nothing changed (clock)"] = time.perf_counter() - start
    print(
        f"one book of {chapters} chapters x {chars} chars: "
        f"{sizes[0] / 1e6:.1f} MB in, {sizes[1] / 1e6:.1f} MB out"
    )
    for what, seconds in spent.items():
        print(f"  {what:66} {seconds:7.2f} s   {3600 / seconds:9,.0f} per hour per core")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--books", type=int, default=40)
    ap.add_argument("--chapters", type=int, default=40)
    ap.add_argument("--chars", type=int, default=2500)
    ap.add_argument("--pdf", action="store_true", help="build the PDF too")
    ap.add_argument("--runs", type=int, default=3, help="runs of each way, alternated (median kept)")
    ap.add_argument("--stages", type=int, nargs="*", metavar="CHAPTERS", help="where one book's time goes")
    args = ap.parse_args()
    formats = ["epub", "pdf"] if args.pdf else ["epub"]
    if args.stages:
        for chapters in args.stages:
            stages(chapters, args.chars, formats)
        return
    jobs = default_jobs()
    with tempfile.TemporaryDirectory() as tmp:
        shelf = Path(tmp) / "shelf"
        make_shelf(shelf, args.books, args.chapters, args.chars, formats)
        cluster, started = start_cluster(jobs)
        ways = {
            "one at a time": {"jobs": 1},
            f"local pool ({jobs})": {"jobs": jobs},
            f"LocalCluster ({jobs}x1)": {"scheduler": cluster.scheduler_address},
        }
        times: dict[str, list[float]] = {way: [] for way in ways}
        prints: set[str] = set()
        try:
            for _ in range(args.runs):
                for way, how in ways.items():
                    seconds, made = timed(shelf, **how)
                    times[way].append(seconds)
                    prints.add(made)
        finally:
            cluster.close()
    report(args, formats, jobs, started, times, prints)


def report(args, formats, jobs, started, times, prints) -> None:
    median = {way: statistics.median(t) for way, t in times.items()}
    pool = median[f"local pool ({jobs})"]
    print(
        f"{args.books} books of {args.chapters} chapters x {args.chars} chars, "
        f"{'+'.join(formats)}, {jobs} cores"
    )
    print(f"cluster started (and its workers' imports) in {started:.1f} s")
    for way, seconds in median.items():
        runs = ", ".join(f"{t:.1f}" for t in times[way])
        per_hour = args.books * 3600 / seconds / (1 if way == "one at a time" else jobs)
        print(
            f"{way:22} median {seconds:6.1f} s ({runs})  {seconds / pool:.2f}x the pool  "
            f"{per_hour:,.0f} books/hour/core"
        )
    print("same bytes every way and run:", len(prints) == 1)


if __name__ == "__main__":
    main()
