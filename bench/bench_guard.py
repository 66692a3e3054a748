#!/usr/bin/env python3
"""What trying each correction on a copy costs (bookbuilder.serve.guard): on bench_workbench.py's
generated book, the server side of a correction (POST /correct to its answer, the trial load, the
comparison of the paragraphs, the build published) for a rename and its undo, --runs times each,
and the comparison alone of two loads of the book.

    python bench/bench_guard.py -n 2000            # a folder of 2,000 chapter files
    python bench/bench_guard.py -n 2000 --whole    # the same book as one .txt

Prints JSON: seconds per run of each correction, the comparison's seconds, the paragraphs compared.
The page the browser then loads is bench_workbench.py's to time.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_workbench import make_book  # noqa: E402

from bookbuilder.config import load_config  # noqa: E402
from bookbuilder.pipeline import load_book  # noqa: E402
from bookbuilder.serve import corrections, guard  # noqa: E402
from bookbuilder.serve.server import Site, sources_signature  # noqa: E402
from bookbuilder.serve.workbench import Bench  # noqa: E402

PORT = 1  # the Host the posts name; nothing listens
HEADERS = {"Host": f"127.0.0.1:{PORT}", "Origin": f"http://127.0.0.1:{PORT}"}


def timed_post(bench: Bench, fields: dict) -> float:
    body = urllib.parse.urlencode({"token": bench.token, **fields}).encode()
    start = time.perf_counter()
    status, _, page = bench.post("127.0.0.1", HEADERS, body)
    assert status == 303, page
    return round(time.perf_counter() - start, 2)


def corrections_timed(root: Path, runs: int) -> dict:
    site = Site(root, 1, lambda line: None)
    before = sources_signature(load_config(root))
    site.rebuild()
    bench = site.bench = Bench(site, PORT)
    threading.Thread(target=site.watch, args=(before,), daemon=True).start()
    where = site.preview.chapters[len(site.preview.chapters) // 2]
    at = corrections.fix_at(site.preview.loaded.config.source, where.path, where.first)
    found: dict = {"rename_s": [], "undo_s": []}
    try:
        for _ in range(runs):
            rename = {"action": "rename", "at": at, "expect": where.chapter.title}
            found["rename_s"].append(timed_post(bench, {**rename, "rename": where.chapter.title + "（改）"}))
            entry = [c for c in corrections.in_force(corrections.read(site.preview.loaded.config.toml_path))][
                -1
            ]
            undo = {"action": "undo", "kind": entry.kind, "index": entry.index, "says": entry.says}
            found["undo_s"].append(timed_post(bench, undo))
    finally:
        site.stop()
    return found


def comparison_timed(root: Path) -> dict:
    memo: dict = {}
    first = load_book(root, 1, memo=memo)
    again = load_book(root, 1, memo=memo)
    start = time.perf_counter()
    guard.check(first, again, guard.Named(changes=False))
    return {"compare_s": round(time.perf_counter() - start, 3), "paragraphs": len(guard.story(first.book))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("--whole", action="store_true", help="the book as one .txt rather than a folder of files")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = make_book(args.n, Path(tmp) / "book", args.whole)
        found = {"chapters": args.n, "whole_novel": args.whole, **comparison_timed(root)}
        found.update(corrections_timed(root, args.runs))
    print(json.dumps(found, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
