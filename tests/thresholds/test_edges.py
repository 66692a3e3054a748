"""Thresholds of edge templates (normalize/edges.py): how many of a chapter's lines are its edges,
what share of the chapters a form must stand in, how long a template may be, what a line must be
made of to be boilerplate, and how much of the book is read for its common characters."""

import pytest

from bookbuilder.model import Book, Chapter, Location, Meta, Paragraph, Volume
from bookbuilder.normalize import edges
from tests.conftest import one_file_book
from tests.thresholds.rows import Threshold

STORY = ["天色将晚，城门已闭，行人匆匆赶路。", "渡口的船夫收了缆绳，半晌才回过头来。"]
UPDATE = "书香屋 更新时间:2007-1-{n} 23:57:1{n}"  # a machine's line, chapter n's


def _left(chapters: list[list[str]], needle: str) -> int:
    """How many paragraphs still hold `needle` once the book's edge templates are cut."""
    book, _ = edges.strip_edges(one_file_book(chapters))
    return sum(needle in b.text for c in book.chapters() for b in c.blocks)


def _at_line_from_end(n: int) -> int:
    """An update line as the n-th paragraph from each of eight chapters' ends: how many are left."""
    story = [f"他走了{i}步，天色将晚。" for i in range(10)]
    return _left(
        [story[: 10 - n + 1] + [UPDATE.format(n=c)] + story[10 - n + 1 :] for c in range(8)], "更新时间"
    )


def _in_share(share: float) -> int:
    """An update line in round(share·20) of twenty chapters: how many are left."""
    k = round(share * 20)
    return _left([STORY + ([UPDATE.format(n=c)] if c < k else []) for c in range(20)], "更新时间")


def _in_chapters(k: int) -> int:
    """An update line in k of six chapters (a share too small to decide): how many are left."""
    return _left([STORY + ([UPDATE.format(n=c)] if c < k else []) for c in range(6)], "更新时间")


def _line_of(n: int) -> int:
    """A machine's line of n characters at eight chapters' ends: how many are left."""
    return _left([STORY + [("更新时间:2007-1-12 23:57:1" + "0" * n)[:n]] for _ in range(8)], "更新时间")


def _glued_of(n: int) -> int:
    """A machine's piece of n characters (its space included) glued before eight chapters' story."""
    piece = ("更新时间:2007-1-12-" + "0" * n)[: n - 1] + " "
    return _left([[piece + STORY[0], STORY[1]] for _ in range(8)], "更新时间")


def _machine_at(share: float) -> bool:
    """Whether a line of twenty characters, this share of them digits, is boilerplate."""
    digits = round(share * 20)
    return bool(edges.boilerplate("甲" * (20 - digits) + "1" * digits, frozenset()))


def _common_at(rank: int) -> bool:
    """Whether the character of this rank in a book's frequencies is among its common ones."""
    text = "".join(chr(0x4E00 + i) * (300 - i) for i in range(60))
    paragraphs = (Paragraph("开头", Location("f.txt", 1)), Paragraph(text, Location("f.txt", 2)))
    chapter = Chapter("第1章", paragraphs, Location("f.txt", 1), 1)
    return chr(0x4E00 + rank - 1) in edges.common_characters([chapter])


def _prose_at(share: float) -> bool:
    """Whether a short sentence of eight Han characters, this share of them the book's common
    ones, reads as prose."""
    common = round(share * 8)
    return bool(edges.prose("的" * common + "甲" * (8 - common) + "。", frozenset("的")))


def _beside_of(n: int) -> int:
    """A short line of n characters between a template and each of eight chapters' ends."""
    short = ("转载请保留" + "甲" * n)[:n]
    chapters = [STORY + [f"输入：中华古籍oldbook.book{c}.com", short] for c in range(8)]
    book, _ = edges.strip_edges(one_file_book(chapters))
    return sum(b.text == short for c in book.chapters() for b in c.blocks)


def _sampled_at(n: int) -> bool:
    """Whether a character n characters into a one-chapter book (after its first paragraph) is read
    for the common characters."""
    paragraphs = (
        Paragraph("开头", Location("f.txt", 1)),
        Paragraph("甲" * (n - 1) + "乙", Location("f.txt", 2)),
        Paragraph("丙", Location("f.txt", 3)),
        Paragraph("丁", Location("f.txt", 4)),
    )
    book = Book(
        Meta("书", "某", "zh", "id"), (Volume(None, (Chapter("第1章", paragraphs, Location("f.txt", 1)),)),)
    )
    return "乙" in edges.common_characters(list(book.chapters()))


ROWS = [
    # a chapter's first and last lines this many are its edges
    Threshold("edges.EDGE_LINES", edges.EDGE_LINES, _at_line_from_end, 0, 8),
    # a form at the edges of this share of the chapters is the book's template
    Threshold("edges.EDGE_SHARE", edges.EDGE_SHARE, _in_share, 0, 4, step=-0.05),
    Threshold("edges.EDGE_CHAPTERS", edges.EDGE_CHAPTERS, _in_chapters, 0, 2, step=-1),
    # a whole line this long at the most; a glued piece this long at the most
    Threshold("edges.TEMPLATE_LONGEST", edges.TEMPLATE_LONGEST, _line_of, 0, 8),
    Threshold("edges.GLUED_LONGEST", edges.GLUED_LONGEST, _glued_of, 0, 8),
    # what a line must be made of: Latin letters, digits and marks
    Threshold("edges.MACHINE_SHARE", edges.MACHINE_SHARE, _machine_at, True, False, step=-0.05),
    # the book's common characters, and the share of them a sentence of prose holds
    Threshold("edges.COMMON_CHARACTERS", edges.COMMON_CHARACTERS, _common_at, True, False),
    Threshold("edges.PROSE_SHARE", edges.PROSE_SHARE, _prose_at, True, False, step=-0.125),
    Threshold("edges.COMMON_SAMPLE", edges.COMMON_SAMPLE, _sampled_at, True, False),
    # a short line beside a template goes with it
    Threshold("edges.BESIDE_SHORT", edges.BESIDE_SHORT, _beside_of, 0, 8),
    # names joined by separators: this many are a page's title though none is a title
    Threshold(
        "edges.PAGE_TITLE_PIECES",
        edges.PAGE_TITLE_PIECES,
        lambda n: bool(edges.boilerplate("－".join(["甲乙", "丙丁", "戊己", "庚辛"][:n]), frozenset())),
        True,
        False,
        step=-1,
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=[t.constant for t in ROWS])
def test_each_threshold_decides_at_its_value_and_not_one_step_past(row):
    row.check()
