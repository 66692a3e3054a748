"""Thresholds of an author's appeal at a chapter's edge (normalize/appeals.py): how far in from the
edge the note may stand, how long its lines may be, how far the asking may stand from what it asks
for, and how many of the author's other lines the run passes."""

import pytest

from bookbuilder.model import Location, Paragraph
from bookbuilder.normalize import appeals
from tests.normalize.test_appeals import STORY
from tests.thresholds.rows import Threshold

NAMING = "目标是点击榜，推荐榜，第一！"  # names the publication, asks nothing
OTHER = "今天去了趟医院。"  # the author's other words


def _removed(*tail: str) -> int:
    """How many lines of this chapter's end the appeals rule takes."""
    blocks = tuple(Paragraph(t, Location("f.txt", k)) for k, t in enumerate((*STORY, *tail), 1))
    return len(appeals.without_appeals(blocks)[1])


ROWS = [
    # the appeal as the n-th line from the end, the note's lines after it
    Threshold(
        "appeals.NOTE_EDGE_LINES",
        appeals.NOTE_EDGE_LINES,
        lambda n: _removed("求收藏！", *[NAMING] * (n - 1)),
        appeals.NOTE_EDGE_LINES,
        0,
    ),
    Threshold(
        "appeals.APPEAL_LONGEST",
        appeals.APPEAL_LONGEST,
        lambda n: _removed("ps：求收藏" + "啊" * (n - 6)),
        1,
        0,
    ),
    Threshold(
        "appeals.NAMING_LONGEST",
        appeals.NAMING_LONGEST,
        lambda n: _removed("求收藏！", NAMING + "啊" * (n - len(NAMING))),
        2,
        1,
    ),
    # 记得先投个月票: three characters between; four is a sentence that happens to hold both
    Threshold("appeals.ASK_GAP", appeals.ASK_GAP, lambda gap: _removed("求" + "好" * gap + "收藏！"), 1, 0),
    Threshold("appeals.OTHER_WORDS", appeals.OTHER_WORDS, lambda n: _removed("求收藏！", *[OTHER] * n), 1, 0),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.constant)
def test_each_threshold_decides_at_its_value_and_not_one_step_past(row):
    row.check()
