"""A distributor's wrapper: the notice a download site puts at the top of a file and again at its end
(本书下载于…论坛 / 本作品来自互联网…24小时内删除 / 如果觉得本书不错，请尽量购买正版书籍…, 龙族III's
download; ☆本文由早安电子书网友分享☆ / ☆请勿用于商业行为，一切后果自负☆, 天龙八部's). Cleaning takes
the notice's lines that carry a site's words; a line of it with none is left, at both ends.

What tells such a line is the book's own evidence, both at once: the same line word for word among
the book's first lines and among its last and nowhere else, and at both places a line cleaning
removed as a site's right beside it. A story's sentence repeated through the book is no wrapper,
even with a site's line beside it in every chapter; a story's line that opens and closes the book
(首尾呼应) has no site's line beside it; a notice's line at one end only is left to the other rules.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from bookbuilder.diagnostics import Diagnostic, removal
from bookbuilder.model import Book, Location, Paragraph

RULE = "wrapper"
STAMP_RULE = "notice-stamp"
WRAPPER_LINES = 12  # paragraphs looked at, at each end of the book: a notice block is no longer
NEIGHBOUR_LINES = 2  # source lines from a removal, at most, for a line to stand beside it (a blank between)


# A machine's stamp closing the line: a label, then a date and a clock time (制作时间: 2011-11-29 00:16:25,
# …上传  日期：2013-1-29 11:39:46, Date: Thu, 28 Aug 1997 00:29:07 +0200). A chat log's header has no label.
_STAMP = re.compile(
    r"(?:时间|日期|[Dd]ate)\s*[:：]\s*(?:[A-Z][a-z]{2},?\s*)?"
    r"(?:\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}\s*日?|\d{1,2}\s+[A-Z][a-z]{2}\s+\d{4})"
    r"\s*\d{1,2}[:：]\d{2}(?:[:：]\d{2})?(?:\s*[+-]\d{4})?\s*$"
)


def _ends(book: Book) -> tuple[list[tuple[int, int, Paragraph]], list[tuple[int, int, Paragraph]]]:
    """(chapter index, block index, paragraph) of the book's first and last WRAPPER_LINES paragraphs."""
    every = [
        (k, j, b)
        for k, chapter in enumerate(book.chapters())
        for j, b in enumerate(chapter.blocks)
        if type(b) is Paragraph
    ]
    if len(every) < 2 * WRAPPER_LINES:
        return [], []
    return every[:WRAPPER_LINES], every[-WRAPPER_LINES:]


def _lines_by_file(removed_at: frozenset[Location]) -> dict[str, set[int]]:
    """Where cleaning removed a site's lines: each file's line numbers."""
    removed: dict[str, set[int]] = {}
    for at in removed_at:
        if at is not None and at.line:
            removed.setdefault(at.path, set()).add(at.line)
    return removed


def _beside(at: Location, removed: dict[str, set[int]]) -> bool:
    lines = removed.get(at.path, set())
    return any(at.line + d in lines for d in range(-NEIGHBOUR_LINES, NEIGHBOUR_LINES + 1) if d)


def strip_wrapper(
    book: Book, off: frozenset[str], kept: frozenset, removed_at: frozenset[Location]
) -> tuple[Book, dict[int, list[Diagnostic]]]:
    """The book without the lines of a distributor's wrapper, and each chapter's removals (by its
    index in book.chapters()). `removed_at`: where cleaning removed a site's lines; `kept`: the
    places [[keep]] keeps."""
    if RULE in off or not removed_at:
        return book, {}
    head, tail = _ends(book)
    removed = _lines_by_file(removed_at)
    beside = [(k, j, b) for k, j, b in head if _beside(b.at, removed)]
    if not beside:
        return book, {}
    texts = {b.text for _, _, b in beside}  # the book is counted for these alone
    seen = Counter(
        b.text for c in book.chapters() for b in c.blocks if type(b) is Paragraph and b.text in texts
    )
    first = {b.text: (k, j, b) for k, j, b in reversed(beside) if seen[b.text] == 2}
    pairs = [
        (first[b.text], (k, j, b))
        for k, j, b in tail
        if b.text in first and first[b.text][2].at != b.at and _beside(b.at, removed)
    ]
    places = {(k, j): b for pair in pairs for k, j, b in pair if b.at not in kept}
    evidence = "the same line at the book's start and end, a site's line removed beside it at both"
    return without_places(book, places, RULE, evidence)


def strip_stamps(
    book: Book, off: frozenset[str], kept: frozenset, removed_at: frozenset[Location]
) -> tuple[Book, dict[int, list[Diagnostic]]]:
    """The book without a notice's stamp: a line among the book's first or last WRAPPER_LINES
    paragraphs that closes with a labelled date and clock time (_STAMP), beside a line cleaning
    removed as a site's. The same stamp inside a story (a report's 日期：…) has no site's line beside
    it at the book's ends."""
    if STAMP_RULE in off or not removed_at:
        return book, {}
    removed = _lines_by_file(removed_at)
    head, tail = _ends(book)
    places = {
        (k, j): b
        for k, j, b in head + tail
        if b.at not in kept and _STAMP.search(b.text) and _beside(b.at, removed)
    }
    return without_places(
        book, places, STAMP_RULE, "a labelled date and time, a site's line removed beside it"
    )


def without_places(
    book: Book, places: dict, rule: str, evidence: str
) -> tuple[Book, dict[int, list[Diagnostic]]]:
    """The book without the paragraphs at `places` ((chapter, block) → paragraph), and each chapter's
    removals."""
    if not places:
        return book, {}
    chapters = list(book.chapters())
    found: dict[int, list[Diagnostic]] = {}
    for (k, _), b in sorted(places.items()):
        found.setdefault(k, []).append(removal(rule, b.text, b.at, evidence))
    new = {
        k: replace(
            chapters[k], blocks=tuple(b for j, b in enumerate(chapters[k].blocks) if (k, j) not in places)
        )
        for k in found
    }
    return book.with_chapters(new), found
