"""Page numbers a conversion from print left inside the text: `这是-3-我编的第一期`, `连辞-20-职报告`
(数字城堡's download, 24 of them, each where a printed page turned, most inside a word). One number
between dashes is any text's (a score, a code, -5- in a list); what tells a page number is the
book's own regularity: the numbers count on, page after page, through the book. So a mark goes
only as one of a run of PAGE_RUN or more whose numbers rise by at most PAGE_STEP from one to the
next, in reading order; the sentence around it stays whole, only the mark is cut.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import replace

from bookbuilder.diagnostics import Diagnostic, removal
from bookbuilder.model import Book, Paragraph

RULE = "page-numbers"
PAGE_RUN = 5  # marks in one counting run, at least: fewer may be the story's own numbers
PAGE_STEP = 3  # from one mark to the next, the number rises by 1 to this (a page whose mark fell at a break)

# a number of 1 to 4 digits between two single dashes (ASCII, full-width or an em dash), not inside a
# longer run of dashes, digits or Latin letters (a date 2012-3-4, a model X-3-B, ——3——)
PAGE_MARK = re.compile(r"[-－—](?<![0-9A-Za-z\-－—][-－—])\s?(\d{1,4})\s?[-－—](?![0-9A-Za-z\-－—])")


def counting_runs(numbers: list[int]) -> list[bool]:
    """Per number, whether it stands in a run of PAGE_RUN or more that counts on (each next one of
    the run higher by 1 to PAGE_STEP), in order. A number that does not go on a run (a story's own,
    between two pages) starts one of its own and leaves the run it interrupted going."""
    run_of: list[int] = []  # per number, the run it joined
    open_runs: dict[int, int] = {}  # the last number of each run still counting → that run
    sizes: list[int] = []
    for n in numbers:
        run = next(
            (open_runs.pop(n - step) for step in range(1, PAGE_STEP + 1) if n - step in open_runs), None
        )
        if run is None:
            run = len(sizes)
            sizes.append(0)
        sizes[run] += 1
        open_runs[n] = run
        run_of.append(run)
    return [sizes[run] >= PAGE_RUN for run in run_of]


def strip_page_marks(
    book: Book, off: frozenset[str] = frozenset(), kept: frozenset = frozenset()
) -> tuple[Book, dict[int, list[Diagnostic]]]:
    """The book without the page numbers that count on through it, and each chapter's removals (by
    its index in book.chapters()). `off`: the rules book.toml switches off; paragraphs [[keep]]
    keeps (`kept`) are left as they are, and their marks still count."""
    if RULE in off:
        return book, {}
    chapters = list(book.chapters())
    found = [
        (k, j, m)
        for k, chapter in enumerate(chapters)
        for j, block in enumerate(chapter.blocks)
        if type(block) is Paragraph and ("-" in block.text or "－" in block.text or "—" in block.text)
        for m in PAGE_MARK.finditer(block.text)
    ]
    runs = counting_runs([int(m.group(1)) for _, _, m in found])
    cuts: dict[tuple[int, int], list[re.Match]] = defaultdict(list)
    for (k, j, m), counts in zip(found, runs):
        if counts and chapters[k].blocks[j].at not in kept:
            cuts[(k, j)].append(m)
    if not cuts:
        return book, {}
    removed: dict[int, list[Diagnostic]] = defaultdict(list)
    blocks = {k: list(chapters[k].blocks) for k, _ in cuts}
    for (k, j), marks in cuts.items():
        block = blocks[k][j]
        text = block.text
        for m in reversed(marks):
            removed[k].append(
                removal(
                    RULE, m.group(0), block.at, f"page {m.group(1)} of a count running on through the book"
                )
            )
            text = text[: m.start()] + text[m.end() :]
        blocks[k][j] = Paragraph(text, block.at, block.indented) if text.strip() else None
    new = {
        k: replace(chapters[k], blocks=tuple(b for b in kept if b is not None)) for k, kept in blocks.items()
    }
    return book.with_chapters(new), {k: sorted(ds, key=lambda d: d.at.line) for k, ds in removed.items()}
