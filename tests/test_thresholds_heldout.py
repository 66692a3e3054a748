"""Rows for thresholds named on the `heldout` branch, in the shape of tests/test_thresholds.py (which
another branch is splitting into a package): the lead moves them there at merge, and
test_thresholds.test_every_threshold_is_named counts them meanwhile."""

import pytest

from bookbuilder.structure import own_contents
from bookbuilder.structure.headings import Heading
from tests.test_thresholds import Threshold


def _repeats_dropped(gap: int) -> int:
    """How many headings own_contents drops as given again where `gap` lines stand between 第1章 风起
    and 第一章 【风起】 (the next chapter far below)."""
    found = {
        0: Heading("chapter", "第1章 风起", 1, 0),
        gap + 1: Heading("chapter", "第一章 【风起】", 1, gap + 1),
        gap + 12: Heading("chapter", "第2章 云涌", 2, gap + 12),
    }
    return len(own_contents.drop_contents(found, {i: i for i in found})[2])


HELDOUT_THRESHOLDS = [
    Threshold("own_contents.REPEAT_GAP", own_contents.REPEAT_GAP, _repeats_dropped, 1, 0),
]


@pytest.mark.parametrize("row", HELDOUT_THRESHOLDS, ids=[t.constant for t in HELDOUT_THRESHOLDS])
def test_each_threshold_decides_at_its_value_and_not_one_step_past(row):
    assert row.probe(row.value) == row.at, f"{row.constant} = {row.value}"
    assert row.probe(row.value + row.step) == row.past, f"{row.constant} {row.step:+}"
