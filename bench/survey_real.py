#!/usr/bin/env python3
"""What bookbuilder makes of real downloads: for each whole-novel .txt (or folder) given, its
codec, chapters and volumes, title and author with their sources, removals per rule, and
diagnostic counts. Fetch the novels of ../shared/corpus/REAL-SOURCES.md into a scratch folder
outside the repository (never commit them), then:

    python bench/survey_real.py /tmp/real/*.txt
"""

from __future__ import annotations

import collections
import sys
import time

from bookbuilder.diagnostics import BookError
from bookbuilder.pipeline import load_book


def survey(path: str) -> None:
    start = time.perf_counter()
    try:
        loaded = load_book(path, jobs=1)
    except BookError as e:
        print(f"== {path}: {e}")
        return
    book = loaded.book
    chapters = list(book.chapters())
    sources = dict(book.meta.sources)
    codes = collections.Counter(d.code for d in loaded.diagnostics if d.code != "I201")
    removed = collections.Counter(d.message.split(":")[0] for d in loaded.diagnostics if d.code == "I201")
    files = {(f.encoding, f.method, f.replaced) for f in book.files}
    print(
        f"== {path}: {len(chapters)} chapters in {len(book.volumes)} volume(s),"
        f" {time.perf_counter() - start:.1f} s"
    )
    print(
        f"   title {book.meta.title!r} ({sources.get('title')}), author {book.meta.author!r} "
        f"({sources.get('author')})"
    )
    print(f"   files {sorted(files)}; diagnostics {dict(codes)}; removed {dict(removed)}")
    for chapter in chapters[:3] + chapters[-2:]:
        print(f"   {chapter.kind:8} {chapter.title[:40]!r} ({chapter.chars:,} chars) {chapter.at}")


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        survey(arg)
