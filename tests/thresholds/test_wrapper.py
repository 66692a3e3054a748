"""Thresholds of a distributor's wrapper (normalize/wrapper.py): how far into the book's two ends
its line may stand, and how near a removed site's line must be."""

import pytest

from bookbuilder.model import Location
from bookbuilder.normalize import wrapper
from tests.conftest import one_file_book
from tests.thresholds.rows import Threshold

LEFT = "如果觉得本书不错，请尽量购买正版书籍，感谢对作者的支持！"
STORY = [f"他走进第{n}个院子，看见一棵老树。" for n in range(40)]


def _taken(at_line: int, away: int = 1) -> int:
    """Lines taken where the notice's line is the book's `at_line`-th paragraph and its last one, a
    site's line removed `away` source lines from both."""
    first = STORY[: at_line - 1] + [LEFT] + STORY[at_line - 1 : 20]
    book = one_file_book([first, STORY[:20], STORY[:20] + [LEFT]])
    places = [b.at for c in book.chapters() for b in c.blocks if b.text == LEFT]
    removed = frozenset(Location(at.path, at.line + away) for at in places)
    _, found = wrapper.strip_wrapper(book, frozenset(), frozenset(), removed)
    return sum(len(v) for v in found.values())


ROWS = [
    Threshold("wrapper.WRAPPER_LINES", wrapper.WRAPPER_LINES, _taken, 2, 0),
    Threshold("wrapper.NEIGHBOUR_LINES", wrapper.NEIGHBOUR_LINES, lambda away: _taken(1, away), 2, 0),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.constant)
def test_each_threshold_decides_at_its_value_and_not_one_step_past(row):
    row.check()
