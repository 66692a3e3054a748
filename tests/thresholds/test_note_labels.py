"""Thresholds of an author's note under its label (normalize/note_labels.py): how many chapters end
on the label, and how many lines stand under it."""

import tempfile
from pathlib import Path

import pytest

from bookbuilder.normalize import note_labels
from tests.normalize.test_note_labels import book, paragraphs
from tests.thresholds.rows import Threshold


def _labels_left(text: str) -> int:
    with tempfile.TemporaryDirectory() as folder:
        return paragraphs(Path(folder), text).count("某某说")


ROWS = [
    # three chapters ending on the same label: the book's layout (a speech tag ends one or two)
    Threshold(
        "note_labels.LABEL_CHAPTERS",
        note_labels.LABEL_CHAPTERS,
        lambda n: _labels_left(book(n)),
        0,
        note_labels.LABEL_CHAPTERS - 1,
        step=-1,
    ),
    # six lines under the label at most: a note, not the story going on
    Threshold(
        "note_labels.NOTE_LINES", note_labels.NOTE_LINES, lambda n: _labels_left(book(3, under=n)), 0, 3
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.constant)
def test_each_threshold_decides_at_its_value_and_not_one_step_past(row):
    row.check()
