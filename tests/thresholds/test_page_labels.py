"""Thresholds of a paged site's running labels (structure/page_labels.py): how many there are, how
their numbers count on and start again, and how many must stand inside a sentence."""

import pytest

from bookbuilder.structure import page_labels
from tests.structure.test_page_labels import PAGES, count_labels, paged
from tests.structure.test_part_markers import cut_in_chapters, cut_in_sentences, taken
from tests.thresholds.rows import Threshold


def _numbered(*numbers: int) -> int:
    """Labels taken of six, numbered so."""
    text = paged()
    for n, number in enumerate(numbers, 1):
        text = text.replace(f"分节阅读 {n}\n", f"分节阅读 #{number}\n")
    return count_labels(text.replace("#", ""))


def _labels_inside(inside: int) -> int:
    """Labels taken of six, `inside` of them between halves of a sentence, the rest after one ended."""
    pages = [(end if k < inside else end + "。", start) for k, (end, start) in enumerate(PAGES)]
    return count_labels(paged(pages=pages, rule=""))


ROWS = [
    # a splitting tool's part markers: three counting on tell it; a book cut in two has one marker
    Threshold(
        "page_labels.PART_RUN", page_labels.PART_RUN, lambda n: taken(cut_in_sentences(n)), 3, 0, step=-1
    ),
    # half the markers where a tool cut is enough (the rest fell after a sentence's end)
    Threshold(
        "page_labels.PART_CUT_SHARE",
        page_labels.PART_CUT_SHARE,
        lambda share: taken(cut_in_sentences(len(PAGES), round(share * len(PAGES)))),
        len(PAGES),
        0,
        step=-1 / len(PAGES),
    ),
    # a real part's page under its label, three lines at most; a marker with more text below it
    # before the next chapter's heading stands inside that chapter
    Threshold(
        "page_labels.PART_INTRO_LINES",
        page_labels.PART_INTRO_LINES,
        lambda lines: taken(cut_in_chapters(text_after=lines)),
        0,
        4,
    ),
    Threshold(
        "page_labels.LABEL_RUN",
        page_labels.LABEL_RUN,
        lambda n: count_labels(paged(pages=(PAGES * 2)[:n])),
        page_labels.LABEL_RUN,
        0,
        step=-1,
    ),
    # half of the labels inside a sentence is enough: a site also cuts where a sentence ended
    Threshold(
        "page_labels.MID_SENTENCE_SHARE",
        page_labels.MID_SENTENCE_SHARE,
        lambda share: _labels_inside(round(share * len(PAGES))),
        len(PAGES),
        0,
        step=-1 / len(PAGES),
    ),
    # a page is never skipped: 1 2 3 4 5 7 does not count on
    Threshold(
        "page_labels.LABEL_STEP", page_labels.LABEL_STEP, lambda gap: _numbered(1, 2, 3, 4, 5, 5 + gap), 6, 0
    ),
    # a chapter's pages start again at 1, or at 2 where its first page is unlabelled: 1 2 3 2 3 4
    Threshold(
        "page_labels.FIRST_PAGE",
        page_labels.FIRST_PAGE,
        lambda first: _numbered(1, 2, 3, first, first + 1, first + 2),
        6,
        0,
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.constant)
def test_each_threshold_decides_at_its_value_and_not_one_step_past(row):
    row.check()
