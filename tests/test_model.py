"""The model's records: frozen, equal by value, and whole after crossing a process boundary
(bookbuilder.system.parallel pickles them)."""

import dataclasses
import pickle

import pytest

from bookbuilder.diagnostics import BookError, Diagnostic
from bookbuilder.model import Chapter, Location, Paragraph, SceneBreak

AT = Location("ch.txt", 3)
RECORDS = [
    Location("ch.txt"),
    Location("ch.txt", 7),
    Paragraph("正文", AT),
    Paragraph("正文", AT, True),
    SceneBreak(AT),
    Chapter("第1章", (Paragraph("正文", AT), SceneBreak(Location("ch.txt", 4))), AT),
    Chapter("序", (), AT, number=0, file_number=1, kind="front"),
    Diagnostic("W201", "unbalanced"),
    Diagnostic("W201", "unbalanced", AT),
]


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: type(r).__name__)
def test_a_record_is_frozen_and_survives_pickling_whole(record):
    back = pickle.loads(pickle.dumps(record))
    assert back == record and type(back) is type(record)
    assert dataclasses.astuple(back) == dataclasses.astuple(record)  # every field, compared or not
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(record, dataclasses.fields(record)[0].name, None)


def test_replace_keeps_every_other_field():
    chapter = Chapter("序", (Paragraph("正文", AT, True),), AT, number=0, file_number=1, kind="front")
    renamed = dataclasses.replace(chapter, title="楔子")
    assert renamed.title == "楔子"
    assert [getattr(renamed, f.name) for f in dataclasses.fields(Chapter) if f.name != "title"] == [
        getattr(chapter, f.name) for f in dataclasses.fields(Chapter) if f.name != "title"
    ]


def test_book_error_crosses_a_process_boundary_whole():
    error = pickle.loads(pickle.dumps(BookError("E102", "cannot decode", Location("a.txt", 3))))
    assert error.diagnostic == Diagnostic("E102", "cannot decode", Location("a.txt", 3))
    assert str(error) == "a.txt:3: error E102: cannot decode"
