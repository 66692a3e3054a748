"""Thresholds of bracketed section titles under parts (structure/part_sections.py): how much text
stands under each, and how many parts hold them."""

from bookbuilder.structure import part_sections
from tests.structure.test_part_sections import parted, section_count
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
