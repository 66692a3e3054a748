"""The catalogue dates a book by when its inputs last changed, as the shelf build's manifest keeps
it: a rebuild of unchanged books (or of every book, for another epoch) leaves the catalogue's bytes
as they were; a book whose content changed moves alone, to its files' time, never past
SOURCE_DATE_EPOCH where it is set."""

import os
import xml.etree.ElementTree as ET
from datetime import UTC, datetime

from click.testing import CliRunner

from bookbuilder.cli import main
from tests.shelf.shelves import make_shelf

ATOM = "{http://www.w3.org/2005/Atom}"
WRITTEN, EDITED, EPOCH = 1_600_000_000, 1_650_000_000, 1_620_000_000  # 2020-09, 2022-04, 2021-05


def _iso(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _build(shelf) -> str:
    done = CliRunner().invoke(main, ["build", str(shelf), "-j", "1"])
    assert done.exit_code == 0, done.output
    return done.output


def _catalogue(shelf) -> dict[str, bytes]:
    build = shelf / "build"
    return {
        p.relative_to(build).as_posix(): p.read_bytes()
        for p in sorted(build.rglob("*"))
        if p.is_file() and p.relative_to(build).as_posix().startswith(("catalog.", "index.html"))
    }


def _dates(shelf) -> list[tuple[str, str]]:
    """(title, updated) of each entry of the recent feed, in its order."""
    feed = ET.parse(shelf / "build" / "catalog.opds" / "recent.xml").getroot()
    return [(e.findtext(f"{ATOM}title"), e.findtext(f"{ATOM}updated")) for e in feed.iter(f"{ATOM}entry")]


def _edit(path, text: str | None, seconds: int) -> None:
    if text is not None:
        path.write_text(text, "utf-8")
    os.utime(path, (seconds, seconds))


def _written_shelf(tmp_path, monkeypatch, count: int):
    """A shelf of `count` books whose every file was last written at WRITTEN, built once."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    shelf = tmp_path / "shelf"
    make_shelf(shelf, count=count)
    for path in shelf.rglob("*"):
        if path.is_file():
            _edit(path, None, WRITTEN)
    _build(shelf)
    return shelf


def test_a_book_is_dated_by_when_its_inputs_changed_and_nothing_else_moves(tmp_path, monkeypatch):
    shelf = _written_shelf(tmp_path, monkeypatch, 3)
    first = _catalogue(shelf)
    assert _dates(shelf) == [(f"书{n}", _iso(WRITTEN)) for n in (1, 2, 3)]
    assert "2023-11-14" not in first["index.html"].decode("utf-8")
    _build(shelf)
    assert _catalogue(shelf) == first  # a rebuild: the same bytes

    chapter = shelf / "book02" / "source" / "2.txt"
    _edit(chapter, None, EDITED)  # touched, not changed: no date moves
    assert "0 built, 3 unchanged" in _build(shelf) and _catalogue(shelf) == first
    _edit(chapter, chapter.read_text("utf-8") + "新加的一段。\n", EDITED)
    assert "1 built, 2 unchanged" in _build(shelf)
    assert _dates(shelf) == [("书2", _iso(EDITED)), ("书1", _iso(WRITTEN)), ("书3", _iso(WRITTEN))]
    index = _catalogue(shelf)["index.html"].decode("utf-8")
    assert f'data-changed="{_iso(EDITED)}"' in index and index.count(f'data-changed="{_iso(WRITTEN)}"') == 2


def test_under_source_date_epoch_a_change_is_dated_no_later_than_it(tmp_path, monkeypatch):
    """Both books are built again, stamped with the new epoch as a clean build would stamp them;
    only the one whose content changed moves, and to SOURCE_DATE_EPOCH, not to its file's later
    time (which a checkout sets): the same checkout gives the same bytes."""
    shelf = _written_shelf(tmp_path, monkeypatch, 2)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
    chapter = shelf / "book01" / "source" / "1.txt"
    _edit(chapter, chapter.read_text("utf-8") + "又一段。\n", EDITED)
    assert "2 built, 0 unchanged" in _build(shelf)
    assert _dates(shelf) == [("书1", _iso(EPOCH)), ("书2", _iso(WRITTEN))]
