#!/usr/bin/env python3
"""Benchmark a large generated book: decode accuracy and time, normalization accuracy and time,
and the whole EPUB build's wall time and peak memory.

    python bench/bench_book.py                 # 2,000 chapters from ../shared/bench/make_corpus.py
    python bench/bench_book.py -n 300 --pdf    # also the PDF (slow)

Run it on a quiet machine; the figures go into the issue notes with this command.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MAKE_CORPUS = REPO.parent / "shared" / "bench" / "make_corpus.py"


def make_corpus(n: int, out: Path) -> Path:
    """The chapters in `out`, the golden clean text moved beside it (a sub-folder would be a volume)."""
    subprocess.run([sys.executable, str(MAKE_CORPUS), "--out", str(out), "-n", str(n), "--clean"], check=True,
                   capture_output=True)
    clean = out.parent / "clean"
    (out / "clean").rename(clean)
    return clean


def bench_decode(corpus: Path) -> dict:
    from bookbuilder.decode import decode_chapter

    manifest = json.loads((corpus / "manifest.json").read_text("utf-8"))
    datas = [(f["file"], (corpus / f["file"]).read_bytes(), f["encoding"]) for f in manifest["files"]]
    start = time.perf_counter()
    decoded = [(name, decode_chapter(data, name), data, enc) for name, data, enc in datas]
    elapsed = time.perf_counter() - start
    right = sum(d.text == _clean_reference(data, enc) for _, d, data, enc in decoded)
    return {"files": len(datas), "right": right, "decode_s": round(elapsed, 3)}


def _clean_reference(data: bytes, encoding: str) -> str:
    from bookbuilder.decode import clean_text

    return clean_text(data.decode(encoding))


def bench_normalize(corpus: Path, clean_dir: Path) -> dict:
    """Two views of accuracy. `identical_pct`: paragraphs equal to the generator's clean text.
    `recovered_pct`: paragraphs equal to what bookbuilder makes of that clean text: the clean text
    still carries the seeds' own defects (a lone 。 line, …… lines, a broken line) and lone … that
    the generator cuts out of ……, which the rules rightly fix, so this isolates how well the
    injected defects (encodings, indents, half-width marks, dots, hard wraps, blanks) are undone."""
    from bookbuilder.model import Paragraph
    from bookbuilder.pipeline import load_book

    start = time.perf_counter()
    book = load_book(corpus).book
    load_s = time.perf_counter() - start
    reference = {Path(c.at.path).name: c for c in load_book(clean_dir).book.chapters()}

    def paragraphs(chapter):
        return [b.text for b in chapter.blocks if isinstance(b, Paragraph)]

    def same(expected, actual):
        if len(expected) == len(actual):
            return sum(a == b for a, b in zip(expected, actual))
        return len(set(expected) & set(actual))

    total = identical = recovered = reference_total = 0
    for chapter in book.chapters():
        name = Path(chapter.at.path).name
        clean = (clean_dir / name).read_text("utf-8").split("\n")
        expected = [line.strip("\u3000") for line in clean[1:] if line.strip()]
        actual = paragraphs(chapter)
        total += len(expected)
        identical += same(expected, actual)
        ours = paragraphs(reference[name])
        reference_total += len(ours)
        recovered += same(ours, actual)
    return {"chapters": sum(1 for _ in book.chapters()), "paragraphs": total, "identical": identical,
            "identical_pct": round(100 * identical / total, 3), "recovered_pct": round(100 * recovered / reference_total, 3),
            "load_and_normalize_s": round(load_s, 3)}


def bench_single(n: int, tmp: Path) -> dict:
    """The whole book as one .txt: split at headings and ordered (decode, parse, structure), then
    the full load with normalization; chapter count and titles against the manifest."""
    from bookbuilder.decode import decode_chapter
    from bookbuilder.parse import split_sections
    from bookbuilder.pipeline import load_book
    from bookbuilder.structure import Assembly, file_sections_to_chapters, finish

    single = tmp / "novel.txt"
    subprocess.run([sys.executable, str(MAKE_CORPUS), "--out", str(tmp / "single"), "-n", str(n), "--single",
                    str(single), "--no-chapters"], check=True, capture_output=True)
    manifest = json.loads((tmp / "single" / "manifest.json").read_text("utf-8"))
    start = time.perf_counter()
    decoded = decode_chapter(single.read_bytes(), str(single))
    sections, _ = split_sections(decoded.text, str(single))
    asm = Assembly()
    file_sections_to_chapters(asm, str(single), sections, whole_novel=True, volume_from_folder=False)
    chapters = [c for v in finish(asm) for c in v.chapters]
    split_s = time.perf_counter() - start
    start = time.perf_counter()
    book = load_book(single).book
    load_s = time.perf_counter() - start
    titles_right = [c.title for c in book.chapters()] == [f["heading"] for f in manifest["files"]]
    return {"single_mb": round(single.stat().st_size / 2**20, 1), "single_chapters": len(chapters),
            "single_titles_right": titles_right, "single_split_s": round(split_s, 3), "single_load_s": round(load_s, 3)}


def bench_build(corpus: Path, fmt: str) -> dict:
    code = ("import time,resource,sys;from bookbuilder.pipeline import load_book,build_epub,build_pdf;"
            f"t=time.perf_counter();L=load_book(sys.argv[1]);p=build_{fmt}(L,__import__('pathlib').Path(sys.argv[2]))[0];"
            "print(time.perf_counter()-t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    out = Path(tempfile.mkdtemp()) / f"book.{fmt}"
    res = subprocess.run([sys.executable, "-c", code, str(corpus), str(out)], check=True, capture_output=True, text=True)
    wall, rss = res.stdout.split()
    return {f"{fmt}_wall_s": round(float(wall), 2), f"{fmt}_peak_mb": round(int(rss) / 1024), f"{fmt}_mb": round(out.stat().st_size / 2**20, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("--pdf", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        clean = make_corpus(args.n, corpus)
        result = {**bench_decode(corpus), **bench_normalize(corpus, clean), **bench_build(corpus, "epub"),
                  **bench_single(args.n, Path(tmp))}
        if args.pdf:
            result.update(bench_build(corpus, "pdf"))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
