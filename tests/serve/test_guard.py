"""No correction loses a line (issue 51): on each kind of book (a project, a bare folder, a folder
titled by its files' names, a whole-novel file) every correction made over HTTP, and its undo,
leaves every paragraph it does not name as it was; a correction that would lose one, or change
nothing, is refused (409) with the settings file untouched; undoing everything leaves no empty
settings file behind."""

from __future__ import annotations

import html
import re
import urllib.request
from pathlib import Path

import pytest
from conftest import write_book
from test_serve import _start, _stop
from test_workbench import _post

from bookbuilder.model import Paragraph
from bookbuilder.pipeline import load_book

CHAPTERS = [
    ("第一章 山门", ["少年推开山门，门外是一片竹林。", "他在竹林里走了很久（求收藏）。"]),
    ("第二章 夜雨", ["雨下了一夜，他没有睡（求收藏）。", "天快亮时，雨停了。"]),
    ("第三章 归来", ["天亮了，他回到山门前。", "他又走了三天（求收藏），才回到家中。"]),
]
TOML = '[book]\ntitle = "山门"\nauthor = "某人"\n'


def _file(title: str | None, texts: list[str]) -> str:
    lines = ([title] if title else []) + [f"　　{t}" for t in texts]
    return "\n\n".join(lines) + "\n"


def _kind(tmp_path: Path, kind: str) -> tuple[Path, Path]:
    """(what serve is given, its settings file) for a book of this kind holding CHAPTERS."""
    whole = "\n".join(_file(t, ps) for t, ps in CHAPTERS)
    if kind == "project":
        root = write_book(tmp_path / "book", {"山门.txt": whole}, TOML)
        return root, root / "book.toml"
    if kind == "whole-novel":
        novel = tmp_path / "山门.txt"
        novel.write_text(whole, "utf-8")
        return novel, tmp_path / "山门.book.toml"
    folder = tmp_path / "山门"
    folder.mkdir()
    for k, (title, texts) in enumerate(CHAPTERS, 1):
        if kind == "bare-folder":
            (folder / f"{k:03}.txt").write_text(_file(title, texts), "utf-8")
        else:  # titled by file names: the files hold the story alone
            (folder / f"{k:03} {title.split()[1]}.txt").write_text(_file(None, texts), "utf-8")
    return folder, tmp_path / "山门.book.toml"


def story(book: Path) -> list[tuple[str, int, str]]:
    loaded = load_book(book, 1)
    return [
        (Path(b.at.path).name, b.at.line, b.text)
        for c in loaded.book.chapters()
        for b in c.blocks
        if type(b) is Paragraph
    ]


def _forms(page: str) -> list[dict]:
    """Each form's hidden fields with each of its buttons' actions (a form per button)."""
    found = []
    for form in re.findall(r"<form .*?</form>", page, re.S):
        fields = {
            k: html.unescape(v) for k, v in re.findall(r'type="hidden" name="([^"]+)" value="([^"]*)"', form)
        }
        for action in re.findall(r'name="action" value="([^"]+)"', form):
            found.append({**fields, "action": action})
    return found


def _form(url: str, page: str, action: str, **match) -> dict:
    """The form of `action` whose fields are `match`: on the page, or an entry's, as workbench.js makes
    it from the page's template and the entry's line (data-at) and title (data-expect)."""
    shown = urllib.request.urlopen(url + page).read().decode("utf-8")
    forms = _forms(shown)
    for kind, at, expect in re.findall(r'data-kind="(\w+)" data-at="([^"]*)" data-expect="([^"]*)"', shown):
        template = re.search(rf'<template id="bb-fix-{kind}">(.*?)</template>', shown, re.S).group(1)
        forms += [{**f, "at": html.unescape(at), "expect": html.unescape(expect)} for f in _forms(template)]
    return next(f for f in forms if f["action"] == action and all(f.get(k) == v for k, v in match.items()))


def _send(url: str, fields: dict) -> tuple[int, str]:
    return _post(url, fields, url.rstrip("/"))


def _undo_last(url: str) -> None:
    undo = [f for f in _forms(urllib.request.urlopen(url).read().decode("utf-8")) if f["action"] == "undo"]
    status, page = _send(url, undo[-1])
    assert status == 200, page


def _undone(url: str, book, before: list, settings, kind: str) -> None:
    """The last correction undone: the story as it was, and the settings file as it was (none for a
    book without a project's book.toml)."""
    _undo_last(url)
    assert story(book) == before
    assert not settings.exists() if kind != "project" else settings.read_text("utf-8") == TOML


def _heading_line(kind: str, chapter: int) -> tuple[str, int]:
    """(file, line) of a chapter's heading in the book as _kind writes it."""
    if kind in ("whole-novel", "project"):
        return "山门.txt", 1 + 6 * chapter
    return f"{chapter + 1:03}.txt", 1


@pytest.mark.parametrize("kind", ["project", "bare-folder", "whole-novel"])
def test_each_heading_correction_and_its_undo_keep_every_other_paragraph(tmp_path, kind):
    book, settings = _kind(tmp_path, kind)
    before = story(book)
    process, url = _start(book)
    try:
        for action, chapter, extra in [
            ("not-heading", 1, {}),
            ("rename", 2, {"rename": "第三章 归途"}),
            ("volume", 1, {}),
        ]:
            name, line = _heading_line(kind, chapter)
            form = {**_form(url, "", action, expect=CHAPTERS[chapter][0]), **extra}
            assert form["at"] == f"{name}:{line}"
            status, page = _send(url, form)
            if kind == "bare-folder" and action == "not-heading":
                # a chapter file's first line titles it whatever a [[fix]] says: refused, not said to work
                assert status == 409 and "would change nothing in the book (a chapter file" in page
                assert story(book) == before and not settings.exists()
                continue
            assert status == 200, page
            after = story(book)
            if action == "not-heading":  # the heading's line reads as a paragraph now, nothing else moves
                assert [p for p in after if p[:2] != (name, line)] == before and after != before
            else:
                assert after == before
            assert ("第三章 归途" in page) == (action == "rename")
            _undone(url, book, before, settings, kind)
    finally:
        code, said = _stop(process)
    assert code == 0 and "Traceback" not in said, said


@pytest.mark.parametrize("kind", ["project", "bare-folder", "folder-titled-by-names", "whole-novel"])
def test_a_line_made_a_heading_and_a_removal_take_only_what_they_name(tmp_path, kind):
    book, settings = _kind(tmp_path, kind)
    before = story(book)
    named_line = next(p for p in before if p[2] == "天快亮时，雨停了。")
    process, url = _start(book)
    try:
        k = 0 if kind in ("whole-novel", "project") else 1
        form = _form(url, f"source/{k}.html", "heading")
        form.update(line=str(named_line[1]), expect="　　天快亮时，雨停了。", **{"as": "chapter"})
        status, page = _send(url, form)
        assert status == 200, page
        assert story(book) == [p for p in before if p != named_line]
        _undo_last(url)
        assert story(book) == before

        token = _form(url, f"source/{k}.html", "heading")["token"]
        asked = {"action": "remove", "text": "（求收藏）", "token": token, "back": "/"}
        status, page = _send(url, asked)  # first: what would go, and a question
        assert status == 200 and "Remove everywhere?" in page and "3 pieces in 3 chapters" in page
        assert story(book) == before and not (settings.exists() and "extra" in settings.read_text("utf-8"))
        status, page = _send(url, {**asked, "confirm": "3"})
        assert status == 200 and "3 removed from the book, in 3 chapters" in page
        assert story(book) == [(f, n, t.replace("（求收藏）", "")) for f, n, t in before]
        _undone(url, book, before, settings, kind)
    finally:
        code, said = _stop(process)
    assert code == 0 and "Traceback" not in said, said


def test_on_a_folder_titled_by_names_a_heading_correction_is_not_offered_and_refused_when_sent(tmp_path):
    """The chapter's first line is the story's: start a volume there would make it the volume's
    title, not a heading would change nothing. Neither is offered (a volume before the file is:
    test_volume_before.py); a page from before is refused."""
    book, settings = _kind(tmp_path, "folder-titled-by-names")
    before = story(book)
    process, url = _start(book)
    try:
        contents = urllib.request.urlopen(url).read().decode("utf-8")
        assert 'data-kind="file"' in contents and 'data-kind="chapter"' not in contents  # no line's controls
        token = _form(url, "source/0.html", "heading")["token"]
        for action in ("volume", "not-heading", "rename"):
            fields = {"action": action, "at": "002 夜雨.txt:1", "expect": "夜雨", "rename": "夜雨二"}
            status, page = _send(url, {**fields, "token": token, "back": "/"})
            assert status == 409, (action, page)
            assert not settings.exists() and story(book) == before
        assert (
            "would take story text it does not name"
            in _send(url, {"action": "volume", "at": "002 夜雨.txt:1", "expect": "夜雨", "token": token})[1]
        )
    finally:
        _stop(process)


@pytest.mark.parametrize("kind", ["project", "bare-folder", "folder-titled-by-names", "whole-novel"])
def test_in_a_browser_every_correction_and_its_undo_leave_every_other_paragraph(tmp_path, kind, browser):
    """The contents' corrections, a source line made a heading, selected text removed everywhere
    (seen first, then confirmed), each undone from the list of corrections in force."""
    from selenium.webdriver.common.by import By
    from test_workbench import confirm_removal, correct, titles, undo_all, until
    from test_workbench_cleaning import select

    book, settings = _kind(tmp_path, kind)
    before = story(book)
    headed = kind != "folder-titled-by-names"
    process, url = _start(book)
    try:
        browser.get(url)
        assert (
            bool(browser.find_elements(By.CSS_SELECTOR, "ol.contents details[data-kind=chapter]")) == headed
        )
        for button, entry, rename in (
            [
                ("rename", 2, "第三章 归途"),
                ("start a volume here", 1, None),
            ]
            if headed
            else []
        ):
            correct(browser, entry, button, rename=rename)
            until(
                browser, lambda d: "第三章 归途" in titles(d) or d.find_elements(By.CSS_SELECTOR, "li.volume")
            )
            assert story(book) == before
            undo_all(browser)
            assert story(book) == before
        if kind in ("project", "whole-novel"):  # the chapter's text joins the one before
            correct(browser, 1, "not a heading")
            until(browser, lambda d: len(titles(d)) == 2)
            name, line = _heading_line(kind, 1)
            assert [p for p in story(book) if p[:2] != (name, line)] == before
            undo_all(browser)
            until(browser, lambda d: len(titles(d)) == 3)
            assert story(book) == before

        source = 0 if kind in ("whole-novel", "project") else 1
        browser.get(url + f"source/{source}.html")
        line = browser.find_element(By.XPATH, "//ol[@class='source']/li[contains(., '天快亮时')]")
        line.click()
        browser.find_element(By.XPATH, "//button[normalize-space()='a heading starts here']").click()
        until(browser, lambda d: len(story(book)) == len(before) - 1)
        assert story(book) == [p for p in before if p[2] != "天快亮时，雨停了。"]
        browser.get(url)
        undo_all(browser)
        assert story(book) == before

        browser.get(url + "text/" + re.search(r'href="/text/([^"]+)"', browser.page_source).group(1))
        select(browser, "（求收藏）")
        tool = until(browser, lambda d: (t := d.find_element(By.ID, "bb-remove")).is_displayed() and t)
        tool.find_element(By.XPATH, ".//button[normalize-space()='remove this everywhere']").click()
        confirm_removal(browser, 3)
        until(browser, lambda d: d.find_elements(By.CLASS_NAME, "bb-notice"))
        assert story(book) == [(f, n, t.replace("（求收藏）", "")) for f, n, t in before]
        browser.get(url)
        undo_all(browser)
        assert story(book) == before
    finally:
        code, said = _stop(process)
    assert not settings.exists() if kind != "project" else settings.read_text("utf-8") == TOML
    assert code == 0 and "Traceback" not in said, said


def test_a_rule_switched_off_may_part_a_paragraph_its_line_had_stood_in(tmp_path):
    """A pager line between the halves of a wrapped sentence: cleaning took it and the halves were
    one paragraph; switched off, its rule brings it back between them, which loses nothing (the
    book loaded before and after, as the trial compares them); a paragraph cut short is still lost."""
    from bookbuilder.serve import guard

    prose = "".join(f"他走进第{k}个院子，看见一棵老树，树下坐着第{k}个老人。" for k in range(1, 9))
    lines = [prose[k : k + 20] for k in range(0, len(prose), 20)]  # hard-wrapped at 20 characters
    lines.insert(3, "本章未完，请点击下一页继续阅读")
    book = write_book(tmp_path / "book", {"山门.txt": "第一章 山门\n" + "\n".join(lines) + "\n"}, TOML)
    before = load_book(book, 1)
    (book / "book.toml").write_text(TOML + '[normalize.junk]\ndisable = ["next-page"]\n', "utf-8")
    after = load_book(book, 1)
    assert len(guard.story(after.book)) > len(guard.story(before.book))  # the paragraph parted
    assert guard.lost(before, after, guard.Named(rules=frozenset({"next-page"}), returns=True)) == []
    assert guard.lost(before, after, guard.Named()) != []  # not named: refused
    undo = guard.Named(rules=frozenset({guard.ANY_RULE}), changes=False, returns=True)
    assert guard.lost(after, before, undo) == []  # its undo takes the lines out of it again
