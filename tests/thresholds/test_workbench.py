"""Thresholds of serve's workbench (serve/preview.py, serve/guard.py): when a removal needs a tick,
how much of what it would take (or what a refused correction would lose) is shown."""

import pytest

from bookbuilder.model import Location, Paragraph
from bookbuilder.serve import guard, preview
from tests.thresholds.rows import Threshold


def _marked_starts_cut(n: int) -> bool:
    """Whether a piece n characters into its paragraph is shown with the paragraph's start cut."""
    piece = preview.Piece(0, Paragraph("天" * n + "广告" + "地" * 5, Location("f.txt", 1)), n, n + 2)
    return preview.marked(piece).startswith("…")


def _lost(n: int) -> list[Paragraph]:
    return [Paragraph(f"第{k}行", Location("f.txt", k)) for k in range(1, n + 1)]


ROWS = [
    Threshold("preview.CONFIRM_ABOVE", preview.CONFIRM_ABOVE, preview.needs_confirming, False, True),
    Threshold("preview.SHOWN_PIECES", preview.SHOWN_PIECES, lambda n: preview.unshown(list(range(n))), 0, 1),
    Threshold("preview.CONTEXT", preview.CONTEXT, _marked_starts_cut, False, True),
    Threshold("guard.SHOWN_LOST", guard.SHOWN_LOST, lambda n: "more" in guard.quoted(_lost(n)), False, True),
]


@pytest.mark.parametrize("row", ROWS, ids=[t.constant for t in ROWS])
def test_each_threshold_decides_at_its_value(row):
    row.check()
