"""Judge a shelf of real downloads with no hand-made truth: per book, the chapters and volumes
found, whether the headings look sane, what the self-check still flags, the removals by rule, and
the removals at risk (removed text with story signs), to be read by hand.

    python bench/judge_shelf.py /tmp/shelf/heldout                      # this tree's bookbuilder
    python bench/judge_shelf.py /tmp/shelf/heldout --product /tmp/before --out before.json

Each book is loaded by the bookbuilder of `--product` (a source tree; default this one) in a
process of its own (a time limit each, a crash is that book's failure), which prints the cleaned
book as JSON; the book is then scored here by this tree's self-check (bookbuilder.check.suspects),
so that two versions of the product are judged by the same judge. A book is **clean** when the
self-check flags nothing in it and its headings are sane:
- no size-cut parts (W307: headings not found);
- numbering problems (W301 gaps, W302 repeats, W303 going back) in at most NUMBERING_SHARE of
  its chapters (a real download misses a chapter now and then);
- no title holding markup, a URL or a site's words (W309);
- no chapter over suspects.GIANT times the median with a heading-like line inside (I301).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench.truth import load_truths, lost_lines, score  # noqa: E402
from bookbuilder.check import suspects  # noqa: E402
from bookbuilder.model import Book, Chapter, Location, Meta, Paragraph, SceneBreak, Volume  # noqa: E402

NUMBERING_SHARE = 0.02
SECONDS = 600

# Run by the product's python: the book as plain JSON (only APIs every version has had).
DUMP = r"""
import json, sys
from bookbuilder.pipeline import load_book
from bookbuilder.check import report
from bookbuilder.model import Paragraph
loaded = load_book(sys.argv[1], jobs=1)
book = loaded.book
at = lambda a: [a.path, a.line] if a else None
out = {
  "title": book.meta.title, "author": book.meta.author, "description": book.meta.description,
  "volumes": [{"title": v.title, "at": at(v.at), "chapters": [
      {"title": c.title, "at": at(c.at), "number": c.number, "kind": c.kind,
       "blocks": [[b.text, at(b.at)] if isinstance(b, Paragraph) else [None, at(b.at)] for b in c.blocks]}
      for c in v.chapters]} for v in book.volumes],
  "diagnostics": [d.as_json() for d in report.findings(loaded.diagnostics)],
  "removed": [report.removal_json(d) for d in report.removals(loaded.diagnostics)],
}
sys.stdout.write(json.dumps(out, ensure_ascii=False))
"""


def load(product: Path, book: Path) -> dict:
    """The book read by `product`, under the name its download had (a user's copy carries no
    shelf's <owner>__<repo>__ prefix, and the product reads a title and an author from the name)."""
    with tempfile.TemporaryDirectory() as folder:
        named = Path(folder) / downloaded_name(book.name)
        (shutil.copytree if book.is_dir() else shutil.copyfile)(book, named)
        return _dumped(product, named)


def downloaded_name(local_name: str) -> str:
    """The file or folder name a shelf book had in its repository: its local name less the
    <owner>__<repo>__ prefix (and less the path's folders the shelf joined with __)."""
    return local_name.split("__")[-1] if local_name.count("__") >= 2 else local_name


def _dumped(product: Path, book: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(product), SOURCE_DATE_EPOCH="1700000000")
    try:
        done = subprocess.run(
            [sys.executable, "-c", DUMP, str(book)],
            capture_output=True,
            text=True,
            env=env,
            timeout=SECONDS,
            cwd=book.parent,
        )
    except subprocess.TimeoutExpired:
        return {"failed": f"timed out after {SECONDS} s"}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return {"failed": last[:200]}
    return json.loads(done.stdout)


def as_book(dumped: dict) -> Book:
    def place(a):
        return Location(a[0], a[1]) if a else None

    volumes = tuple(
        Volume(
            v["title"],
            tuple(
                Chapter(
                    c["title"],
                    tuple(
                        Paragraph(t, place(a)) if t is not None else SceneBreak(place(a))
                        for t, a in c["blocks"]
                    ),
                    place(c["at"]),
                    c["number"],
                    None,
                    c["kind"],
                )
                for c in v["chapters"]
            ),
            place(v["at"]),
        )
        for v in dumped["volumes"]
    )
    meta = Meta(dumped["title"], dumped["author"], "zh", "judge", description=dumped["description"] or "")
    return Book(meta, volumes)


_PERSON = re.compile(r"[他她我你]")


def at_risk(text: str) -> bool:
    """Removed text that reads as story: dialogue, a person, or a sentence of ordinary length."""
    return (
        suspects.told_as_story(text)
        or bool(_PERSON.search(text))
        and len(text) >= 10
        or len(text) >= 15
        and text.rstrip()[-1:] in "。！？"
        and not suspects.signals(text)
    )


def judge(name: str, dumped: dict) -> dict:
    if "failed" in dumped:
        return {"book": name, "failed": dumped["failed"], "clean": False}
    book = as_book(dumped)
    chapters = list(book.chapters())
    groups = suspects.find(book)
    codes = Counter(d["code"] for d in dumped["diagnostics"])
    spans, giant = _spans(chapters), suspects.giant_chapters(book)  # serve's heading suspects are these too
    giants = [
        chapters[k].title for k in sorted(giant) if _lookalike_inside(dumped, chapters[k].at.path, spans[k])
    ]
    numbering = codes["W301"] + codes["W302"] + codes["W303"]
    problems = []
    if codes["W307"]:
        problems.append("size-cut parts")
    if numbering > max(1, NUMBERING_SHARE * len(chapters)):
        problems.append(f"numbering x{numbering}")
    if any(g.first.where == "title" for g in groups):
        problems.append("titles with debris")
    if giants:
        problems.append(f"{len(giants)} giant chapters")
    text_groups = [g for g in groups if g.first.where != "title"]
    risky = [r for r in dumped["removed"] if at_risk(r["text"])]
    return {
        "book": name,
        "title": book.meta.title,
        "author": book.meta.author,
        "chapters": len(chapters),
        "volumes": sum(1 for v in book.volumes if v.title),
        "headings": problems,
        "suspect_groups": len(text_groups),
        "suspect_lines": sum(len(g.suspects) for g in text_groups),
        "suspects": [
            {
                "shape": g.shape,
                "count": len(g.suspects),
                "text": g.first.text[:80],
                "at": str(g.first.at) if g.first.at else "blurb",
            }
            for g in groups
        ],
        "removals": dict(Counter(r["rule"] for r in dumped["removed"])),
        "at_risk": [
            {"at": f"{r['path']}:{r['line']}", "rule": r["rule"], "text": r["text"][:120]} for r in risky
        ],
        "warnings": dict(codes),
        "clean": not problems and not groups,
    }


def _spans(chapters) -> list[range]:
    """The source lines each chapter holds: from its heading to the next heading of its file."""
    spans = []
    for c, after in zip(chapters, chapters[1:] + [None]):
        end = after.at.line if after is not None and after.at.path == c.at.path and after.at.line else 10**9
        spans.append(range(c.at.line or 0, end))
    return spans


def _lookalike_inside(dumped: dict, path: str, lines: range) -> bool:
    """A line inside the chapter looked like a heading and was turned down (I301)."""
    return any(
        d["code"] == "I301" and d["path"] == path and (d["line"] or 0) in lines for d in dumped["diagnostics"]
    )


def print_truth(shelf: str, verdicts: list[dict]) -> None:
    """Each labelled book's failures by its truth, then the figure and its agreement with the judge."""
    labelled = [v for v in verdicts if "right" in v]
    for v in labelled:
        if not v["right"]:
            print(f"WRONG {v['book']}")
            for line in v["wrong"]:
                print(f"    {line[:160]}")
    right = sum(v["right"] for v in labelled)
    agree = sum(v["right"] == v["clean"] for v in labelled)
    print(
        f"truth {shelf}: {right} of {len(labelled)} right ({100 * right / max(1, len(labelled)):.0f} %), "
        f"{sum(len(v['lost']) for v in labelled)} story lines lost in "
        f"{sum(bool(v['lost']) for v in labelled)} books; the self-check agrees on {agree} "
        f"(clean: {sum(v['clean'] for v in labelled)})"
    )


def books_of(shelf: Path) -> list[Path]:
    return sorted(p for p in shelf.iterdir() if p.is_dir() or p.suffix.lower() == ".txt")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("shelf", type=Path)
    parser.add_argument(
        "--product", type=Path, default=HERE, help="the bookbuilder source tree that reads the books"
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, help="every book's verdict as JSON")
    parser.add_argument(
        "--dumps",
        type=Path,
        help="keep each loaded book here and reuse it: a later judge scores "
        "the same product's reading without loading the books again",
    )
    parser.add_argument(
        "--truth",
        type=Path,
        help="a folder of truth files (bench/shelves/truth/<half>): each labelled book is also "
        "scored against what a reader wrote from its raw text, and only labelled books are read",
    )
    args = parser.parse_args()
    books = books_of(args.shelf)
    truths = load_truths(args.truth) if args.truth else {}
    if truths:
        books = [b for b in books if b.name in truths]

    def verdict(book: Path) -> dict:
        kept = args.dumps / f"{book.name}.json" if args.dumps else None
        if kept is not None and kept.exists():
            return judge(book.name, json.loads(kept.read_text("utf-8")))
        dumped = load(args.product.resolve(), book.resolve())
        if kept is not None:
            args.dumps.mkdir(parents=True, exist_ok=True)
            kept.write_text(json.dumps(dumped, ensure_ascii=False), "utf-8")
            return judge(book.name, dumped)
        return {**judge(book.name, dumped), "_dumped": dumped}

    def with_truth(book: Path) -> dict:
        judged = verdict(book)
        if book.name in truths:
            kept = args.dumps / f"{book.name}.json" if args.dumps else None
            dumped = json.loads(kept.read_text("utf-8")) if kept is not None else judged.pop("_dumped")
            judged["wrong"] = score(truths[book.name], dumped)
            judged["lost"] = lost_lines(truths[book.name], dumped)
            judged["right"] = not judged["wrong"]
        judged.pop("_dumped", None)
        return judged

    with ThreadPoolExecutor(args.jobs) as pool:
        verdicts = list(pool.map(with_truth, books))
    print(f"{'book':44} {'ch':>5} {'vol':>3} {'sus':>4} {'risk':>4}  headings")
    for v in verdicts:
        if "failed" in v:
            print(f"{v['book'][:44]:44} FAILED {v['failed']}")
            continue
        print(
            f"{v['book'][:44]:44} {v['chapters']:5} {v['volumes']:3} {v['suspect_lines']:4}"
            f" {len(v['at_risk']):4}  "
            f"{'; '.join(v['headings']) or 'sane'}"
        )
    clean = sum(v["clean"] for v in verdicts)
    sane = sum(not v.get("headings") and "failed" not in v for v in verdicts)
    quiet = sum("failed" not in v and not v["suspects"] for v in verdicts)
    print(
        f"shelf {args.shelf.name}: {len(verdicts)} books, {clean} clean "
        f"({100 * clean / max(1, len(verdicts)):.0f} %): "
        f"{sane} with sane headings, {quiet} with no suspects; "
        f"{sum(v.get('chapters', 0) for v in verdicts)} chapters, "
        f"{sum(sum(v.get('removals', {}).values()) for v in verdicts)} removals, "
        f"{sum(len(v.get('at_risk', [])) for v in verdicts)} at risk, "
        f"{sum('failed' in v for v in verdicts)} failed"
    )
    if truths:
        print_truth(args.shelf.name, verdicts)
    if args.out:
        args.out.write_text(json.dumps(verdicts, ensure_ascii=False, indent=1), "utf-8")


if __name__ == "__main__":
    main()
