"""*Start a volume here* on a folder whose chapters its files' names title (issue 51): offered on
each such chapter with a title field, written as a [[volume]] naming the file, tried by the guard
(accepted when only the volume changes and every paragraph stays), and undone; over HTTP and in
Chromium. The line corrections stay refused there (tests/serve/test_guard.py)."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path

import pytest
from test_guard import TOML, _form, _kind, _send, _undone, story
from test_serve import _start, _stop

from bookbuilder.pipeline import load_book


def _text(path: Path) -> str:
    return path.read_text("utf-8") if path.exists() else ""


def _volumes(book) -> list[tuple[str | None, list[str]]]:
    return [(v.title, [c.title for c in v.chapters]) for v in load_book(book, 1).book.volumes]


# Each chapter's entry as the contents page offers it: (data-kind, its file, its title).
OFFERED = [
    ("file", "001 山门.txt", "山门"),
    ("file", "002 夜雨.txt", "夜雨"),
    ("file", "003 归来.txt", "归来"),
]


def _file_entries(url: str) -> list[tuple[str, str, str]]:
    """The entries of chapters a file's name titles (or whose file opens with a title line)."""
    contents = urllib.request.urlopen(url).read().decode("utf-8")
    return re.findall(r'data-kind="(file[^"]*)" data-at="([^"]*)" data-expect="([^"]*)"', contents)


def _titled_project(tmp_path: Path) -> tuple[Path, Path]:
    """A project whose source/ is the folder titled by its files' names (book.toml stays its own)."""
    folder, _ = _kind(tmp_path, "folder-titled-by-names")
    root = tmp_path / "book"
    root.mkdir()
    folder.rename(root / "source")
    (root / "book.toml").write_text(TOML, "utf-8")
    return root, root / "book.toml"


@pytest.mark.parametrize("kind", ["folder-titled-by-names", "project-titled-by-names"])
def test_over_http_a_volume_before_a_file_keeps_every_paragraph_and_its_undo_too(tmp_path, kind):
    book, settings = _kind(tmp_path, kind) if kind.startswith("folder") else _titled_project(tmp_path)
    written = settings.read_text("utf-8") if settings.exists() else ""
    before = story(book)
    process, url = _start(book)
    try:
        assert _file_entries(url) == OFFERED
        form = _form(url, "", "file-volume", at="002 夜雨.txt")
        assert form["expect"] == "夜雨" and "title" not in form  # the title is typed in its field

        status, page = _send(url, {**form, "title": "  "})
        assert status == 409 and "give the volume a title" in page and _text(settings) == written
        status, page = _send(url, {**form, "expect": "旧名", "title": "第二卷 风雨"})
        assert status == 409 and "reload the page" in page and _text(settings) == written

        status, page = _send(url, {**form, "title": "第二卷  风雨"})
        assert status == 200, page
        assert "a volume starts before this chapter" in page
        assert '[[volume]]\nbefore = "002 夜雨.txt"\ntitle = "第二卷 风雨"' in settings.read_text("utf-8")
        assert story(book) == before  # 夜雨 keeps its first line: no line became a title
        assert _volumes(book) == [(None, ["山门"]), ("第二卷 风雨", ["夜雨", "归来"])]
        shown = urllib.request.urlopen(url).read().decode("utf-8")
        assert '<li class="volume" id="v-1">第二卷 风雨' in shown and "a volume started before" in shown

        status, page = _send(url, {**form, "title": "第二卷 风雨"})  # the same again: no change
        assert status == 409 and "already" in page
        _undone(url, book, before, settings, "project" if kind.startswith("project") else kind)
        assert _volumes(book) == [(None, ["山门", "夜雨", "归来"])]
    finally:
        code, said = _stop(process)
    assert code == 0 and "Traceback" not in said, said


def test_offered_only_where_no_line_titles_the_chapter(tmp_path):
    """A chapter whose file opens with its heading keeps the line corrections (a [[fix]] names its
    line); a whole novel has no files to start volumes before."""
    for kind in ("bare-folder", "whole-novel"):
        (tmp_path / kind).mkdir()
        book, _ = _kind(tmp_path / kind, kind)
        process, url = _start(book)
        try:
            contents = urllib.request.urlopen(url).read().decode("utf-8")
            assert 'data-kind="file"' not in contents and contents.count('data-kind="chapter"') == 3
        finally:
            _stop(process)


def test_a_file_opening_with_blank_lines_is_offered_the_volume_not_a_rename_of_a_blank_line(tmp_path):
    """夜雨's file opens with two blank lines: no title line stands there, so its entry is the
    story-first kind (no rename of line 1, which the guard would refuse as naming no line), and its
    volume keeps every paragraph."""
    book, settings = _kind(tmp_path, "folder-titled-by-names")
    file = book / "002 夜雨.txt"
    file.write_text("\n\n" + file.read_text("utf-8"), "utf-8")
    before = story(book)
    process, url = _start(book)
    try:
        assert _file_entries(url) == OFFERED
        status, page = _send(url, {**_form(url, "", "file-volume", at="002 夜雨.txt"), "title": "第二卷"})
        assert status == 200, page
        assert story(book) == before and _volumes(book) == [(None, ["山门"]), ("第二卷", ["夜雨", "归来"])]
    finally:
        code, said = _stop(process)
    assert code == 0 and "Traceback" not in said, said


def test_the_guard_accepts_the_volume_and_its_undo_as_losing_nothing(tmp_path):
    """The trial's comparison alone (as Bench._tried makes it): the book with the [[volume]] against
    the book without it, and back."""
    from bookbuilder.serve import guard

    book, settings = _kind(tmp_path, "folder-titled-by-names")
    without = load_book(book, 1)
    settings.write_text('[[volume]]\nbefore = "003 归来.txt"\ntitle = "第二卷"\n', "utf-8")
    with_volume = load_book(book, 1)
    named = guard.named_by({"action": "file-volume"}, None, {})
    guard.check(without, with_volume, named)  # no paragraph lost or moved, and the book changed
    assert guard.lost(without, with_volume, named) == []
    undo = guard.named_by({"action": "undo", "kind": "volume", "index": "0"}, None, {"volume": []})
    assert guard.lost(with_volume, without, undo) == []
    with pytest.raises(guard.Refused, match="the volume it names is open there already"):
        guard.check(with_volume, load_book(book, 1), named)  # the same book again: no correction


def test_in_a_browser_start_a_volume_before_a_file_and_undo_it(tmp_path, browser):
    from selenium.webdriver.common.by import By
    from test_workbench import undo_all, until

    book, settings = _kind(tmp_path, "folder-titled-by-names")
    before = story(book)
    process, url = _start(book)
    try:
        browser.get(url)
        entries = browser.find_elements(
            By.CSS_SELECTOR, "ol.contents li:has(> details.bb-fix[data-kind=file])"
        )
        assert [e.find_element(By.TAG_NAME, "a").text for e in entries] == ["山门", "夜雨", "归来"]
        entry = entries[2]
        entry.find_element(By.TAG_NAME, "summary").click()
        entry.find_element(By.NAME, "title").send_keys("第二卷 归途")
        entry.find_element(By.XPATH, ".//button[normalize-space()='start a volume here']").click()
        volume = until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "li.volume"))
        assert volume.text.startswith("第二卷 归途") and "归来" in volume.text and "夜雨" not in volume.text
        notice = until(browser, lambda d: d.find_element(By.CLASS_NAME, "bb-notice"))
        assert "a volume starts before this chapter's file" in notice.text
        # Beside the chapter, whose id the new volume changed, not a toast over the corrections list.
        beside = browser.execute_script("return arguments[0].previousElementSibling", notice)
        assert beside.find_element(By.TAG_NAME, "a").text == "归来"
        assert "bb-toast" not in notice.get_attribute("class")
        assert story(book) == before
        assert 'before = "003 归来.txt"' in settings.read_text("utf-8")
        undo_all(browser)
        until(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "li.volume"))
        assert story(book) == before and not settings.exists()
    finally:
        code, said = _stop(process)
    assert code == 0 and "Traceback" not in said, said


def test_a_file_named_by_its_number_under_its_title_line_keeps_its_title_and_its_rename(tmp_path):
    """Chapter2.txt over 风起二 (structure/file_titles.py): a [[fix]] making that line a volume took
    the chapter's title for the volume's; the volume starts before the file instead, and the line's
    rename is still offered beside it."""
    from test_guard import _forms

    folder = tmp_path / "风起"
    folder.mkdir()
    for k, name in enumerate(["一", "二", "三"], 1):
        (folder / f"Chapter{k}.txt").write_text(f"风起{name}\n\n　　第{k}天，少年推开山门。\n", "utf-8")
    settings = tmp_path / "风起.book.toml"
    before = story(folder)
    assert _volumes(folder) == [(None, ["风起一", "风起二", "风起三"])]
    process, url = _start(folder)
    try:
        page = urllib.request.urlopen(url).read().decode("utf-8")
        entries = re.findall(r'data-kind="file-line" data-at="([^"]*)" data-expect="([^"]*)"', page)
        assert entries == [
            ("Chapter1.txt:1", "风起一"),
            ("Chapter2.txt:1", "风起二"),
            ("Chapter3.txt:1", "风起三"),
        ]
        template = re.search(r'<template id="bb-fix-file-line">(.*?)</template>', page, re.S).group(1)
        forms = {f["action"]: {**f, "at": "Chapter2.txt:1", "expect": "风起二"} for f in _forms(template)}
        assert set(forms) == {"rename", "file-volume"}

        status, answer = _send(url, {**forms["file-volume"], "title": "第二卷"})
        assert status == 200, answer
        assert 'before = "Chapter2.txt"' in settings.read_text("utf-8")
        assert _volumes(folder) == [(None, ["风起一"]), ("第二卷", ["风起二", "风起三"])]
        assert story(folder) == before
        _undone(url, folder, before, settings, "folder")

        status, answer = _send(url, {**forms["rename"], "rename": "风起（二）"})
        assert status == 200, answer
        assert _volumes(folder) == [(None, ["风起一", "风起（二）", "风起三"])] and story(folder) == before
        _undone(url, folder, before, settings, "folder")
    finally:
        code, said = _stop(process)
    assert code == 0 and "Traceback" not in said, said
