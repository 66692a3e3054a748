"""The workbench's cleaning corrections in a real headless Chromium, on a book whose source glues an
advert with a half-width comma (云端书斋,一键直达) that the page shows full-width: text selected on
the page is removed everywhere (the EPUB loses exactly those pieces, `normalize --report` lists
them); one removal is kept alone while its pattern takes the others; undo of both gives back
book.toml byte for byte; text that would remove nothing is refused."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import write_book
from test_serve import _start, _stop
from test_workbench import confirm_removal, epub_bytes, until

from bookbuilder.pipeline import load_book

ADVERT, SELECTED = "云端书斋,一键直达", "云端书斋，一键直达"
TOML = '# 山门\n[book]\ntitle = "山门"  # mine\nauthor = "某人"\n'


@pytest.fixture
def book(tmp_path) -> Path:
    files = {
        f"{k:03d}.txt": f"第{k}章 山门\n\n　　少年推开山门,"
        f"门外是一片竹林。{ADVERT}\n\n　　他在竹林里走了很久,才停下来。\n\n"
        f"　　{ADVERT}\n\n　　天色暗了下来,他点起一盏灯。\n"
        for k in range(1, 6)
    }
    return write_book(tmp_path / "book", files, TOML)


def paragraphs(epub: bytes, path: Path) -> list[str]:
    path.write_bytes(epub)
    with zipfile.ZipFile(path) as z:
        pages = sorted(n for n in z.namelist() if re.search(r"ch\d+\.xhtml$", n))
        return [
            re.sub(r"<[^>]+>", "", p)
            for n in pages
            for p in re.findall(r"<p[^>]*>(.*?)</p>", z.read(n).decode("utf-8"), re.S)
        ]


def select(driver, words: str) -> None:
    """Select `words` in the chapter's first paragraph that holds them, as a user's mouse would."""
    driver.execute_script(
        """
        const words = arguments[0];
        const p = [...document.querySelectorAll('section p')].find(p => p.textContent.includes(words));
        const at = p.firstChild.data.indexOf(words), range = document.createRange();
        range.setStart(p.firstChild, at); range.setEnd(p.firstChild, at + words.length);
        getSelection().removeAllRanges(); getSelection().addRange(range);""",
        words,
    )


def test_in_a_browser_selected_text_is_removed_everywhere_one_removal_kept_and_undo_gives_back_book_toml(
    book, browser, tmp_path
):
    from selenium.webdriver.common.by import By

    before = epub_bytes(book)
    process, url = _start(book)
    try:
        browser.get(url + "text/ch00002.html")
        select(browser, SELECTED)
        tool = until(browser, lambda d: (t := d.find_element(By.ID, "bb-remove")).is_displayed() and t)
        tool.find_element(By.XPATH, ".//button[normalize-space()='remove this everywhere']").click()
        confirm_removal(browser, 10)
        until(
            browser,
            lambda d: (
                d.find_elements(By.CLASS_NAME, "bb-notice")
                and not any(SELECTED in p.text for p in d.find_elements(By.CSS_SELECTOR, "section > p"))
            ),
        )
        notice = browser.find_element(By.CLASS_NAME, "bb-notice").text
        assert notice.endswith(": 10 removed from the book, in 5 chapters"), notice  # the rebuild's own count
        toml = (book / "book.toml").read_text("utf-8")
        assert (
            toml.startswith(TOML)
            and f'{{regex = "{SELECTED}", kind = "inline", name = "literal-1", on = "cleaned"}}' in toml
        )
        removed_everywhere = epub_bytes(book)
        old, new = (
            paragraphs(before, tmp_path / "a.epub"),
            paragraphs(removed_everywhere, tmp_path / "b.epub"),
        )
        assert sum(p.count(SELECTED) for p in old) == 10 and not any(SELECTED in p for p in new)
        assert new == [q for p in old if (q := p.replace(SELECTED, "")) and q.strip()]  # exactly those pieces
        report = subprocess.run(
            [sys.executable, "-m", "bookbuilder", "normalize", "--report", str(book)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert len(re.findall(rf"literal-1 \[[^]]*\]: {SELECTED}$", report.stdout, re.M)) == 10, report.stdout

        marks = browser.find_elements(By.CSS_SELECTOR, ".bb-removed")
        assert len(marks) == 2 and all("literal-1" in m.text for m in marks)
        marks[1].find_element(By.XPATH, ".//button[normalize-space()='keep this']").click()  # this one alone
        until(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".bb-removed")) == 1)
        assert SELECTED in [p.text for p in browser.find_elements(By.CSS_SELECTOR, "section > p")]
        assert f'[[keep]]\nat = "002.txt:7"\ntext = "{SELECTED}"\n' in (book / "book.toml").read_text("utf-8")
        kept = paragraphs(epub_bytes(book), tmp_path / "c.epub")
        assert sum(p.count(SELECTED) for p in kept) == 1  # the rule still removes the other nine
        browser.get(url + "text/ch00003.html")
        assert (
            len(browser.find_elements(By.CSS_SELECTOR, ".bb-removed")) == 2
        )  # another chapter: both still go

        browser.get(url)
        for _ in range(2):  # undo the keep, then the pattern
            count = len(browser.find_elements(By.CSS_SELECTOR, "#corrections button"))
            browser.find_elements(By.CSS_SELECTOR, "#corrections button")[0].click()
            until(
                browser,
                lambda d, count=count: (
                    len(d.find_elements(By.CSS_SELECTOR, "#corrections button")) == count - 1
                ),
            )
    finally:
        code, said = _stop(process)
    assert (book / "book.toml").read_text("utf-8") == TOML  # byte for byte as the user wrote it
    assert epub_bytes(book) == before
    assert code == 0 and "Traceback" not in said, said


def test_in_a_browser_text_that_would_remove_nothing_is_refused_and_book_toml_left_as_it_was(book, browser):
    from selenium.webdriver.common.by import By

    process, url = _start(book)
    try:
        browser.get(url + "text/ch00001.html")
        select(browser, SELECTED)
        tool = until(browser, lambda d: (t := d.find_element(By.ID, "bb-remove")).is_displayed() and t)
        field = tool.find_element(By.NAME, "text")
        field.clear()
        field.send_keys("云端书斋，两键直达")  # edited into text the book does not hold
        tool.find_element(By.XPATH, ".//button[normalize-space()='remove this everywhere']").click()
        message = until(browser, lambda d: d.find_element(By.CLASS_NAME, "bb-error")).text
        assert "云端书斋，两键直达" in message and "not in the book's paragraphs" in message
    finally:
        _stop(process)
    assert (book / "book.toml").read_text("utf-8") == TOML


def test_a_removal_from_a_paragraph_joined_from_two_lines_cannot_be_kept_alone(tmp_path):
    """The [[keep]] would name a line that holds half the text, and stop the build (E009): refused, with the
    way out."""
    from test_workbench import _post, _token

    novel = (
        "第1章 山门\n\n　　少年推开山门，门外是一片竹林。他们云端书\n斋，一键直达，走了很久，才停下来。"
        "\n\n　　天色暗了。\n\n"
        "第2章 夜雨\n\n　　雨下了一夜，云端书斋，一键直达，他没有睡。\n"
    )
    root = write_book(tmp_path / "book", {"novel.txt": novel}, TOML)
    process, url = _start(root)
    try:
        token, origin = _token(url), url.rstrip("/")
        status, page = _post(
            url,
            {
                "action": "remove",
                "text": SELECTED,
                "token": token,
                "back": "/text/ch00001.html",
                "confirm": "2",
            },
            origin,
        )
        assert status == 200 and "2 removed from the book, in 2 chapters" in page
        status, page = _post(
            url, {"action": "keep-line", "at": "novel.txt:3", "text": SELECTED, "token": token}, origin
        )
        assert status == 409 and "does not hold" in page and "keep this rule off" in page
        status, page = _post(
            url, {"action": "keep-line", "at": "novel.txt:10", "text": SELECTED, "token": token}, origin
        )
        assert (
            status == 200 and "云端书斋，一键直达，他没有睡" not in page
        )  # back to the contents page, rebuilt
    finally:
        _stop(process)
    assert f'[[keep]]\nat = "novel.txt:10"\ntext = "{SELECTED}"\n' in (root / "book.toml").read_text("utf-8")
    assert (root / "book.toml").read_text("utf-8").count("[[keep]]") == 1


def test_a_pattern_a_suspect_group_sends_removes_the_paragraphs_it_matches_whole(book):
    """POST /correct action=remove with regex= and kind=line (what the self-check's groups call):
    the five lines that are only the advert go, the five glued to a sentence stay."""
    from test_workbench import _post, _token

    process, url = _start(book)
    try:
        token, origin = _token(url), url.rstrip("/")
        fields = {
            "action": "remove",
            "regex": "云端书斋[,，]\\s*一键直达",
            "kind": "line",
            "token": token,
            "back": "/",
            "confirm": "5",
        }
        status, page = _post(url, fields, origin)
        assert status == 200 and "5 removed from the book, in 5 chapters" in page
        status, page = _post(url, {**fields, "regex": "云端书斋[,，]两键"}, origin)
        assert status == 409 and "not in the book" in page
    finally:
        _stop(process)
    loaded = load_book(book)
    assert sum(b.text.count(SELECTED) for c in loaded.book.chapters() for b in c.blocks) == 5
    assert 'kind = "line", name = "literal-1", on = "cleaned"' in (book / "book.toml").read_text("utf-8")
