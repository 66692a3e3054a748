"""Thresholds of bracketed section titles under parts (structure/part_sections.py): how much text
stands under each, and how many parts hold them."""

from bookbuilder.structure import bracketed_parts, part_sections
from tests.structure.test_part_sections import PROSE, bracketed_book, found, parted, section_count
from tests.thresholds.rows import Threshold

ROWS = [
    # a section has its text under it: three lines at least; a system's messages come closer
    Threshold(
        "part_sections.MIN_TEXT_AFTER",
        part_sections.MIN_TEXT_AFTER,
        lambda n: section_count(parted(parts=2, text_after=n)),
        4,
        0,
        step=-1,
    ),
    # two parts holding them: the book's layout; one part alone may be one story's device
    Threshold(
        "part_sections.MIN_PARTS",
        part_sections.MIN_PARTS,
        lambda n: section_count(parted(parts=n)),
        4,
        0,
        step=-1,
    ),
]

ROWS += [
    # two parts named in brackets over chapters: the book's layout; one may be a story's line
    Threshold(
        "bracketed_parts.PARTS_LEAST",
        bracketed_parts.PARTS_LEAST,
        lambda n: len([k for k, _ in found(bracketed_book(parts=n)) if k == "volume"]),
        2,
        0,
        step=-1,
    ),
    # three chapters to a part at least: a name over every other chapter is the chapter's
    Threshold(
        "bracketed_parts.CHAPTERS_A_PART",
        bracketed_parts.CHAPTERS_A_PART,
        lambda n: bool([k for k, _ in found(bracketed_book(parts=3, chapters_each=n)) if k == "volume"]),
        True,
        False,
        step=-1,
    ),
]

ROWS += [
    # a part's name in the brackets: this long at most; a longer line is an author's words
    Threshold(
        "bracketed_parts.NAME_MOST",
        bracketed_parts.NAME_MOST,
        lambda n: bool(
            [k for k, _ in found(bracketed_book(name=lambda p: f"【{'甲乙'[p] * n}】")) if k == "volume"]
        ),
        True,
        False,
    ),
]


def _parts_among_notes(share: float) -> bool:
    """Whether two bracketed names above chapters are parts where they are this share of the book's
    bracketed lines (the rest notes at chapters' ends)."""
    extra = round(2 / share) - 2
    text = bracketed_book().replace(PROSE, PROSE + "【今天有事】\n" + PROSE, extra)
    return bool([k for k, _ in found(text) if k == "volume"])


ROWS += [
    Threshold(
        "bracketed_parts.BRACKETED_SHARE",
        bracketed_parts.BRACKETED_SHARE,
        _parts_among_notes,
        True,
        False,
        step=-0.1,
    ),
]
