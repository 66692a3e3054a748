"""Page numbers a conversion from print left inside sentences (normalize/page_marks.py): cut where
they count on through the book, the sentence around them whole; a story's own numbers stay."""

import pytest

from bookbuilder.normalize import page_marks
from bookbuilder.normalize.page_marks import PAGE_MARK, counting_runs, strip_page_marks
from tests.conftest import one_file_book


def texts(book):
    return [b.text for c in book.chapters() for b in c.blocks]


def test_page_numbers_counting_on_through_the_book_are_cut_and_the_sentence_stays_whole():
    """数字城堡's shape: -3- where a printed page turned, mid-word, one or two a chapter."""
    chapters = [
        [f"主任叫我先从编稿学起，这是-{n}-我编的第一期。", f"说中年丧妻的凄-{n}{n}-苦，但"]
        for n in range(3, 9)
    ]
    book, removed = strip_page_marks(one_file_book(chapters))
    assert texts(book)[:2] == ["主任叫我先从编稿学起，这是我编的第一期。", "说中年丧妻的凄-33-苦，但"]
    assert sum(len(d) for d in removed.values()) == 6  # 3 … 8 count on; 33, 44 … count no run


@pytest.mark.parametrize(
    "line",
    [
        "比分是3-2-1，他们输了。",  # digits run on past the dashes
        "日期写着2012-3-4。",
        "型号X-3-B的飞机。",
        "他喊道——3——声音很大。",  # a run of dashes is a dash, not a mark
    ],
)
def test_what_is_no_page_mark(line):
    assert not PAGE_MARK.search(line)


def test_a_storys_own_numbers_between_dashes_stay():
    """A list of -1- -5- -2- in a story's chapters: the numbers do not count on, nothing goes."""
    chapters = [[f"她在纸上写下-{n}-这个数。"] for n in (1, 5, 2, 9, 4, 7)]
    book, removed = strip_page_marks(one_file_book(chapters))
    assert removed == {} and texts(book) == [f"她在纸上写下-{n}-这个数。" for n in (1, 5, 2, 9, 4, 7)]


def test_a_mark_alone_on_its_line_takes_the_line():
    chapters = [["他走了。", f"-{n}-"] for n in range(10, 16)]
    book, _ = strip_page_marks(one_file_book(chapters))
    assert texts(book) == ["他走了。"] * 6


def test_counting_runs():
    assert counting_runs([1, 2, 3, 4, 5]) == [True] * 5
    assert counting_runs([1, 2, 3, 4, 9, 10]) == [False] * 6
    assert counting_runs([7, 1, 2, 4, 5, 6, 3]) == [False, True, True, True, True, True, False]
    assert counting_runs([3, 33, 4, 44, 5, 6, 7]) == [True, False, True, False, True, True, True]
    assert page_marks.PAGE_STEP == 3
