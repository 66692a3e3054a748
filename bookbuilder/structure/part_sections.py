"""Sections titled in brackets under parts that have no chapters of their own.

三体III's 第一部 … 第六部 hold no 第N章: each part opens with a title set alone in brackets,
`【公元1453年5月,魔法师之死】`, and more stand through it (34 in the book), each before its text. No
line rule may take a bracketed line for a heading: a story's own 【签字】 or a system's 【叮！…】 are
lines of its text. What tells them apart is the book's own regularity: parts with no chapters that
open with such a line. Where most parts that hold them do, their bracketed lines are the parts'
chapters (the `part-sections` pass, after the choice; docs/rules-notes.md).
"""

from __future__ import annotations

import bisect
import re

from bookbuilder.structure.headings import Heading
from bookbuilder.structure.passes import Reading, fields, with_chosen

# A line set alone in 【】: a title's length, no brackets inside it.
_BRACKETED_LINE = re.compile(r"^【(?P<inner>[^【】]{2,64})】$")
# Three Latin letters: a site's name or address in brackets (【手机TXT小说下载网（www.…）】), not a title.
_LATIN_RUN = re.compile(r"[A-Za-z]{3}")
MIN_TEXT_AFTER = 3  # lines of text under a bracketed title before the next one: a section, not a list
MIN_PARTS = 2  # parts holding such titles, for the layout to be the book's and not one part's
RULE = "part-section"
# The rules that read a line as a part (第一部, 上部, Part 1); a book of parts alone has them read as its
# chapters (heading_choice.choose), which sections under them make parts again.
PART_RULES = frozenset(("volume", "part-en", "financial-volume"))


def part_sections(reading: Reading) -> Reading:
    """The bracketed titles of parts with no chapters as chapters, where most parts holding them
    open with one (the book's layout, not one stray line)."""
    if reading.options.heading_pattern is not None or reading.choice is None:
        return reading
    headings = reading.choice.headings
    parts = sorted(i for i, h in headings.items() if _is_part(h))
    if len(parts) < MIN_PARTS:
        return reading
    numbered = sorted(
        i for i, h in headings.items() if h.kind == "chapter" and h.number is not None and not _is_part(h)
    )
    found: dict[int, Heading] = {}
    holding = opening = 0
    for k, start in enumerate(parts):
        end = parts[k + 1] if k + 1 < len(parts) else len(reading.lines)
        if bisect.bisect_left(numbered, end) > bisect.bisect_right(numbered, start):
            continue  # a part with numbered chapters of its own: its bracketed lines are its text
        titled = section_titles(reading.lines, start + 1, end, headings)
        if titled:
            holding += 1
            opening += min(titled) == start + 1
            found.update(titled)
            found[start] = headings[start]._replace(kind="volume")
    if holding < MIN_PARTS or opening * 2 < holding:
        return reading
    return with_chosen(reading, found)


def _is_part(heading: Heading) -> bool:
    """A part's heading, read as a volume or (a book of parts alone) as a chapter; not 上篇 一、…, a
    chapter under its part's label."""
    return heading.kind == "volume" or (heading.rule in PART_RULES and heading.volume is None)


def section_titles(lines, start: int, end: int, headings: dict[int, Heading]) -> dict[int, Heading]:
    """The lines from `start` to `end` set alone in brackets, each with at least MIN_TEXT_AFTER lines
    of text after it before the next one, a heading or the part's end."""
    marked = [i for i in range(start, end) if i not in headings and bracketed_title(lines[i]) is not None]
    bounds = marked[1:] + [end]
    titled: dict[int, Heading] = {}
    for i, after in zip(marked, bounds):
        stop = min([after] + [h for h in headings if i < h < after])
        if stop - i - 1 >= MIN_TEXT_AFTER:
            number, _, _ = fields(lines[i])
            titled[i] = Heading("chapter", bracketed_title(lines[i]), None, number, rule=RULE)
    return titled


def bracketed_title(item) -> str | None:
    """The line's title, brackets kept as the book sets them, or None where it is no bracketed title."""
    text = fields(item)[2].strip()
    if text[:1] != "【" or not (m := _BRACKETED_LINE.match(text)) or _LATIN_RUN.search(m.group("inner")):
        return None
    return " ".join(text.split())
