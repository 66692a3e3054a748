#!/usr/bin/env python3
"""Benchmark a large generated book: decode accuracy and time, normalization accuracy and time,
and the whole EPUB build's wall time and peak memory.

    python bench/bench_book.py                 # 2,000 chapters from bench/make_corpus.py
    python bench/bench_book.py -n 300 --pdf    # also the PDF (slow)

Run it on a quiet machine; the figures go into the issue notes with this command.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from _measure import run_measured

REPO = Path(__file__).resolve().parent.parent
MAKE_CORPUS = REPO / "bench" / "make_corpus.py"


def make_corpus(n: int, out: Path) -> Path:
    """The chapters in `out`, the golden clean text moved beside it (a sub-folder would be a volume)."""
    subprocess.run(
        [sys.executable, str(MAKE_CORPUS), "--out", str(out), "-n", str(n), "--clean"],
        check=True,
        capture_output=True,
    )
    clean = out.parent / "clean"
    (out / "clean").rename(clean)
    return clean


def bench_decode(corpus: Path) -> dict:
    from bookbuilder.decode.text import decode_chapter

    manifest = json.loads((corpus / "manifest.json").read_text("utf-8"))
    datas = [(f["file"], (corpus / f["file"]).read_bytes(), f["encoding"]) for f in manifest["files"]]
    start = time.perf_counter()
    decoded = [(name, decode_chapter(data, name), data, enc) for name, data, enc in datas]
    elapsed = time.perf_counter() - start
    right = sum(d.text == _clean_reference(data, enc) for _, d, data, enc in decoded)
    return {"files": len(datas), "right": right, "decode_s": round(elapsed, 3)}


def _clean_reference(data: bytes, encoding: str) -> str:
    from bookbuilder.decode.text import clean_text

    return clean_text(data.decode(encoding))


# What RULES.md requires to change in the generator's clean text itself. make_corpus builds its
# "clean" chapters from the seeds' paragraphs and sentences, so they still carry the seeds' own
# defects, and its sentence splitter (after every …) leaves lone … in them:
_LONE_ELLIPSIS = re.compile("(?<!…)…(?!…)")  # EL-1: a lone … becomes ……
_BREAK_LINE = re.compile(r"^[…—]+$")  # SB-1: a …… line is a scene break
_ORPHAN_LINE = re.compile(r"^[。！？，、；：”’」』）》]+$")  # UW-2: a lone 。 joins the line before
_OPEN_END = re.compile(r"[\u4e00-\u9fffA-Za-z0-9]$")  # UW-1: a line ending mid-sentence joins the next


def rules_change(paragraphs: list[str]) -> dict[int, str]:
    """Index → the RULES.md rule that must change that clean paragraph (or join it to a neighbour)."""
    why: dict[int, str] = {}
    for i, p in enumerate(paragraphs):
        if _BREAK_LINE.match(p):
            why[i] = "SB-1 …… line → scene break"
        elif _ORPHAN_LINE.match(p):
            why[i] = why.setdefault(i - 1, "UW-2 lone 。 appended") if i else "UW-2 lone 。 appended"
        elif _LONE_ELLIPSIS.search(p):
            why[i] = "EL-1 lone … → ……"
        if len(p) >= 10 and _OPEN_END.search(p) and i + 1 < len(paragraphs):
            why.setdefault(i, "UW-1 open line joins the next")
            why.setdefault(i + 1, "UW-1 open line joins the next")
    return why


def bench_normalize(corpus: Path, clean_dir: Path) -> dict:
    """Paragraphs identical to the generator's clean text (indentation stripped), matched in order
    per chapter. `identical_pct` is the issue's figure over all clean paragraphs. Some clean
    paragraphs must differ under RULES.md (see rules_change): `identical_pct_rest` is the same figure
    over the others, the paragraphs where any difference is a normalization error."""
    from bookbuilder.model import Paragraph
    from bookbuilder.pipeline import load_book

    start = time.perf_counter()
    book = load_book(corpus).book
    load_s = time.perf_counter() - start
    total = identical = rest = rest_identical = 0
    reasons: Counter = Counter()
    for chapter in book.chapters():
        clean = (clean_dir / Path(chapter.at.path).name).read_text("utf-8").split("\n")
        expected = [line.strip("\u3000") for line in clean[1:] if line.strip()]
        actual = [b.text for b in chapter.blocks if isinstance(b, Paragraph)]
        matcher = difflib.SequenceMatcher(None, expected, actual, autojunk=False)
        matched = {i for a, _, n in matcher.get_matching_blocks() for i in range(a, a + n)}
        why = rules_change(expected)
        reasons.update(why.values())
        total += len(expected)
        identical += len(matched)
        rest += len(expected) - len(why)
        rest_identical += len(matched - set(why))
    return {
        "chapters": sum(1 for _ in book.chapters()),
        "paragraphs": total,
        "identical": identical,
        "identical_pct": round(100 * identical / total, 2),
        "rules_change": dict(reasons.most_common()),
        "rest": rest,
        "identical_pct_rest": round(100 * rest_identical / rest, 3),
        "load_and_normalize_s": round(load_s, 3),
    }


def bench_normalize_time(corpus: Path) -> dict:
    """Normalization alone, on the book as parsed (every rule on), in this process (best of three)."""
    from bookbuilder.normalize.rules import SWITCHES, normalizer
    from bookbuilder.pipeline import load_book

    project = Path(tempfile.mkdtemp())
    shutil.copytree(corpus, project / "source", copy_function=os.link)  # a symlink would point outside: E006
    (project / "book.toml").write_text(
        "[normalize]\n" + "".join(f"{name} = false\n" for name in sorted(SWITCHES)), "utf-8"
    )
    raw = load_book(project, jobs=1).book
    rules = normalizer({}, raw.meta.language)
    chapters = list(raw.chapters())

    def best(run) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
        return round(min(times), 3)

    return {"normalize_s": best(lambda: [rules.chapter(c) for c in chapters])}


def bench_single(n: int, tmp: Path) -> dict:
    """The whole book as one .txt: split at headings and ordered (decode, parse, structure), then
    the full load with normalization; chapter count and titles against the manifest."""
    from bookbuilder.decode.text import decode_chapter
    from bookbuilder.pipeline import load_book
    from bookbuilder.structure.chapters import Assembly, file_parts, finish
    from bookbuilder.structure.sections import split_sections

    single = tmp / "novel.txt"
    subprocess.run(
        [
            sys.executable,
            str(MAKE_CORPUS),
            "--out",
            str(tmp / "single"),
            "-n",
            str(n),
            "--single",
            str(single),
            "--no-chapters",
        ],
        check=True,
        capture_output=True,
    )
    manifest = json.loads((tmp / "single" / "manifest.json").read_text("utf-8"))
    start = time.perf_counter()
    decoded = decode_chapter(single.read_bytes(), str(single))
    sections, _ = split_sections(decoded.text, str(single))
    asm = Assembly()
    asm.take(file_parts(str(single), sections, whole_novel=True), volume_from_folder=False)
    chapters = [c for v in finish(asm) for c in v.chapters]
    split_s = time.perf_counter() - start
    start = time.perf_counter()
    book = load_book(single).book
    load_s = time.perf_counter() - start
    titles_right = [c.title for c in book.chapters()] == [f["heading"] for f in manifest["files"]]
    return {
        "single_mb": round(single.stat().st_size / 2**20, 1),
        "single_chapters": len(chapters),
        "single_titles_right": titles_right,
        "single_split_s": round(split_s, 3),
        "single_load_s": round(load_s, 3),
    }


def bench_build(corpus: Path, fmt: str, jobs: int, runs: int) -> dict:
    """`bookbuilder <fmt>` as a user runs it (interpreter start and imports included), `runs` times:
    the fastest and the median wall time, and the peak memory (PSS) of the whole process tree.
    Wall time on this shared machine varies by ±20 % from minute to minute, hence several runs,
    each right after a run of the issue's yardstick (reference_zip.py), whose figures say how
    fast the machine was meanwhile. bookbuilder's modules are byte-compiled first, as in any
    installed copy: an editable one under PYTHONDONTWRITEBYTECODE would compile them on every run."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "bookbuilder")], check=True)
    out = Path(tempfile.mkdtemp()) / f"book.{fmt}"
    command = [sys.executable, "-m", "bookbuilder", fmt, str(corpus), "-o", str(out), "-j", str(jobs)]
    yardstick = [
        sys.executable,
        str(Path(__file__).with_name("reference_zip.py")),
        str(corpus),
        str(out.with_suffix(".zip")),
    ]
    walls, references = [], []
    for _ in range(runs):  # timed alone: sampling /proc for memory takes CPU from the build
        for times, args in ((references, yardstick), (walls, command)):
            start = time.perf_counter()
            subprocess.run(args, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
    _, peak, _ = run_measured(command, interval=0.05)
    return {
        f"{fmt}_jobs": jobs,
        f"{fmt}_wall_s_min": round(min(walls), 2),
        f"{fmt}_wall_s_median": round(statistics.median(walls), 2),
        "reference_zip_s_min": round(min(references), 2),
        "reference_zip_s_median": round(statistics.median(references), 2),
        f"{fmt}_peak_mb": round(peak / 2**20),
        f"{fmt}_mb": round(out.stat().st_size / 2**20, 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("--pdf", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument(
        "--runs", type=int, default=9, help="EPUB builds to time (the figure is the fastest and the median)"
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        clean = make_corpus(args.n, corpus)
        result = {
            **bench_decode(corpus),
            **bench_normalize(corpus, clean),
            **bench_normalize_time(corpus),
            **bench_build(corpus, "epub", args.jobs, args.runs),
            **bench_single(args.n, Path(tmp)),
        }
        if args.pdf:
            result.update(bench_build(corpus, "pdf", args.jobs, 1))
    print(json.dumps(result, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
