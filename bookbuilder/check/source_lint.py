"""Source lint: one function per concern, each giving coded diagnostics with path:line, over the
normalized book (`bookbuilder check` stops here); rule IDs such as UQ-1 are docs/rules.md's.
The built files are checked by bookbuilder.check.judges."""

from __future__ import annotations

import re
from functools import lru_cache

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Book, Paragraph
from bookbuilder.numerals import DIGITS
from bookbuilder.structure.chapters import RESTART_AFTER
from bookbuilder.vocabulary import BOOK_PARTS, QUOTE_MARKS

LONG_PARAGRAPH = 5_000
# W306: a chapter this long has probably swallowed the next one (a heading missed); half the
# length at which structure.chapters divides a chapter, so the warning comes first.
MISSED_HEADING_CHARS = 50_000


def lint(book: Book, per_chapter: list[list[Diagnostic]] | None = None) -> list[Diagnostic]:
    """Every check; `per_chapter`: lint_chapter's findings, in chapter order, when already made
    (pipeline.load_book makes them with the normalization, on the same processes)."""
    chapters = iter(per_chapter if per_chapter is not None else [lint_chapter(c) for c in book.chapters()])
    found: list[Diagnostic] = []
    for volume in book.volumes:
        found += numbering(volume.chapters)
        for _ in volume.chapters:
            found += next(chapters)
    return found


def lint_chapter(chapter) -> list[Diagnostic]:
    return chapter_size(chapter) + quotes_balance(chapter)


def chapter_size(chapter) -> list[Diagnostic]:
    lengths = [len(b.text) for b in chapter.blocks if type(b) is Paragraph]
    if not lengths:
        return [Diagnostic("W305", f"chapter {chapter.title!r} has no text", chapter.at)]
    found = []
    if (chars := sum(lengths)) > MISSED_HEADING_CHARS:
        found.append(
            Diagnostic(
                "W306",
                f"chapter {chapter.title!r} has {chars:,} characters: a heading may have been missed",
                chapter.at,
            )
        )
    if max(lengths) > LONG_PARAGRAPH:
        for block in chapter.blocks:
            if type(block) is Paragraph and len(block.text) > LONG_PARAGRAPH:
                found.append(
                    Diagnostic(
                        "W202",
                        f"paragraph of {len(block.text):,} characters: line breaks may be missing",
                        block.at,
                    )
                )
    return found


_QUOTE_MARK = re.compile(f"[{QUOTE_MARKS}]")
_PAIRS = (("“", "”"), ("「", "」"))
OK, CLOSED_EARLY, LEFT_OPEN = 0, 1, 2  # a quote pair's state at the end of a paragraph


def quotes_balance(chapter) -> list[Diagnostic]:
    """RULES §2.7 UQ-1: a quotation running over paragraphs opens each one and closes only the last,
    so an unclosed “ followed by a paragraph that opens with “ is not an error. A paragraph's verdict
    depends on its quote marks alone (and, for a mark left open, on the next paragraph): most
    paragraphs have none, and each sequence of marks is judged once."""
    found = []
    paragraphs = [b for b in chapter.blocks if type(b) is Paragraph]
    for i, marks in _quote_marks([p.text for p in paragraphs]):
        p = paragraphs[i]
        settled, odd, states = _judge_marks(marks)
        if settled and "””" not in p.text:
            continue
        problem = None
        if odd:
            problem = 'an odd number of straight " quotes'
        else:
            for (opening, closing), state in zip(_PAIRS, states):
                if state == CLOSED_EARLY:
                    problem = f"{closing} before any {opening}"
                    break
                if state == LEFT_OPEN:
                    following = paragraphs[i + 1].text if i + 1 < len(paragraphs) else ""
                    if not following.startswith(opening):
                        problem = f"{opening} is never closed"
                        break
            if not problem and "””" in p.text:
                problem = "”” (a doubled closing quote)"
        if problem:
            found.append(Diagnostic("W201", f"unbalanced quotation marks: {problem}", p.at))
    return found


def _quote_marks(texts: list[str]) -> list[tuple[int, str]]:
    """(index, its quote marks in order) of each text that has any: one scan of the chapter, not
    a regex call per paragraph (nine in ten have no quote mark)."""
    joined = "\n".join(texts)
    found: list[tuple[int, str]] = []
    index = position = 0
    for m in _QUOTE_MARK.finditer(joined):
        start = m.start()
        index += joined.count("\n", position, start)
        position = start
        if found and found[-1][0] == index:
            found[-1] = (index, found[-1][1] + m.group())
        else:
            found.append((index, m.group()))
    return found


@lru_cache(maxsize=4096)
def _judge_marks(m: str) -> tuple[bool, bool, tuple[int, ...]]:
    """For a paragraph's quote marks in order: (balanced at a glance: no straight quote, each pair's
    counts equal and its first closing mark after the first opening one; an odd number of straight
    quotes; per pair, OK, CLOSED_EARLY or LEFT_OPEN)."""
    settled = '"' not in m and all(
        m.count(o) == m.count(c) and (o not in m or m.index(c) > m.index(o)) for o, c in _PAIRS
    )
    states = []
    for opening, closing in _PAIRS:
        depth, state = 0, OK
        for ch in m:
            if ch == opening:
                depth += 1
            elif ch == closing:
                depth -= 1
                if depth < 0:
                    state = CLOSED_EARLY
                    break
        states.append(LEFT_OPEN if state == OK and depth > 0 else state)
    return settled, m.count('"') % 2 == 1, tuple(states)


_HALF = re.compile(
    r"[（(]\s*(" + "|".join(BOOK_PARTS + DIGITS[:5]) + r"|\d+)\s*[)）]$"
)  # （上）, （三）, (2): a part


def _halves(a: str, b: str) -> bool:
    """第二十章 X（上） and 第二十章 X（下）: one chapter in parts, each under the same number."""
    ma, mb = _HALF.search(a), _HALF.search(b)
    return bool(ma and mb and ma.group(1) != mb.group(1))


_LEADING_DIGITS = re.compile(r"\d*")


def numbering(chapters) -> list[Diagnostic]:
    """Gaps, duplicates and backward steps in chapter numbers; file names that disagree with headings."""
    found = []
    story = [c for c in chapters if c.kind == "chapter"]
    use_heading = story and all(c.number is not None for c in story)
    numbered = [(c, c.number if use_heading else c.file_number) for c in story]
    numbered = [(c, n) for c, n in numbered if n is not None]
    # numbers from file names are shown as the names write them (0012_标题.txt: 0012); a name that does not
    # open with its digits (某书第115章.txt) gives them plain, never padded to the name's length
    width = max(
        (
            len(_LEADING_DIGITS.match(c.at.path.rsplit("/", 1)[-1]).group(0))
            for c, _ in numbered
            if not use_heading
        ),
        default=0,
    )
    highest = 0
    for (a, x), (b, y) in zip(numbered, numbered[1:]):
        highest = max(highest, x)
        if y == 1 and highest >= RESTART_AFTER:
            highest = (
                0  # the numbering starts again (structure.chapters.parts_at_restarts, I306): no step back
            )
        elif y == x and not _halves(a.title, b.title):
            found.append(Diagnostic("W302", f"chapter number {y} appears twice (also at {a.at})", b.at))
        elif y < x:
            found.append(Diagnostic("W303", f"chapter number {y} comes after {x}", b.at))
        elif y > x + 1:
            shown = (lambda k: str(k).zfill(width)) if not use_heading else str
            missing = [shown(k) for k in range(x + 1, min(y, x + 6))]
            more = "…" if y - x - 1 > 5 else ""
            what = "chapter" + ("s" if y - x > 2 else "")
            found.append(
                Diagnostic(
                    "W301",
                    f"{what} {', '.join(missing)}{more} missing between {shown(x)} and {shown(y)}",
                    b.at,
                )
            )
    offsets = {}
    for c in story:
        if c.number is not None and c.file_number is not None:
            offset = offsets.setdefault("first", c.number - c.file_number)
            if c.number - c.file_number != offset:
                found.append(
                    Diagnostic(
                        "W304", f"the file name says {c.file_number} but the heading says {c.number}", c.at
                    )
                )
    return found
