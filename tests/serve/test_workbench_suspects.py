"""The self-check's suspects on serve's pages, in a real headless Chromium: a group is removed
everywhere from the contents page (the EPUB loses exactly those pieces), or kept as the story's
(the check stops flagging it); undo gives back book.toml byte for byte. A heading suspect (a line
like a heading inside a very long chapter) offers "a heading starts here"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import write_book
from test_serve import _start, _stop
from test_workbench import confirm_removal, epub_bytes, undo_all, until
from test_workbench_cleaning import paragraphs

from bookbuilder.pipeline import load_book
from bookbuilder.serve.pages import Preview
from bookbuilder.serve.workbench import Bench

SCREENSHOT = os.environ.get(
    "BOOKBUILDER_SUSPECTS_SCREENSHOT"
)  # docs/serve-suspects.png, the README's picture
CALL = "read2();"  # a page's script call a crawler left at the end of a paragraph
TOML = '[book]\ntitle = "山门"\nauthor = "某人"\n'


@pytest.fixture
def book(tmp_path) -> Path:
    files = {
        f"{k:03d}.txt": f"第{k}章 山门\n\n　　少年推开山门，门外是一片竹林。\n\n　　天色暗了下来，"
        f"他点起一盏灯{CALL}\n"  # glued to a word: after a sentence's end, cleaning would take it
        for k in range(1, 6)
    }
    return write_book(tmp_path / "book", files, TOML)


def warnings(book: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "bookbuilder", "check", "--json", str(book)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return [d["code"] for d in json.loads(done.stdout)["diagnostics"]]


def suspects_listed(driver) -> list[str]:
    from selenium.webdriver.common.by import By

    return [
        li.get_attribute("data-shape") for li in driver.find_elements(By.CSS_SELECTOR, "#suspects > ul > li")
    ]


def test_in_a_browser_a_suspect_group_is_removed_everywhere_or_kept_and_undo_gives_back_book_toml(
    book, browser, tmp_path, monkeypatch
):
    from selenium.webdriver.common.by import By

    monkeypatch.chdir(tmp_path)  # places named as a user's would be: book/source/001.txt:5
    before = epub_bytes(book)
    assert warnings(book).count("W203") == 1  # one group: the five calls
    process, url = _start(book)
    try:
        browser.set_window_size(1000, 900)
        browser.get(url)
        assert suspects_listed(browser) == ["markup"] and "×5" in browser.find_element(By.ID, "suspects").text
        if SCREENSHOT:
            browser.execute_script("document.querySelector('#suspects details').open = true")
            browser.save_screenshot(SCREENSHOT)
        browser.execute_script("document.querySelector('#suspects details').open = true")
        browser.find_element(
            By.XPATH, "//*[@id='suspects']//button[normalize-space()='remove everywhere (5)']"
        ).click()
        confirm_removal(browser, 5)
        until(browser, lambda d: d.find_elements(By.CLASS_NAME, "bb-notice") and not suspects_listed(d))
        assert browser.find_element(By.CLASS_NAME, "bb-notice").text.endswith(
            ": 5 removed from the book, in 5 chapters"
        )
        old, new = paragraphs(before, tmp_path / "a.epub"), paragraphs(epub_bytes(book), tmp_path / "b.epub")
        assert (
            new == [p.replace(CALL, "") for p in old] and sum(p.count(CALL) for p in old) == 5
        )  # exactly those pieces
        undo_all(browser)
        until(browser, lambda d: suspects_listed(d) == ["markup"])
        assert (book / "book.toml").read_text("utf-8") == TOML

        browser.execute_script("document.querySelector('#suspects details').open = true")
        browser.find_element(
            By.XPATH, "//*[@id='suspects']//button[normalize-space()=\"keep: the story's\"]"
        ).click()
        until(browser, lambda d: not suspects_listed(d))
        assert f'[check]\nnot_debris = ["{CALL}"]\n' in (book / "book.toml").read_text("utf-8")
        assert (
            "W203" not in warnings(book) and epub_bytes(book) == before
        )  # flagged no more; the text as it was
        undo_all(browser)
        until(browser, lambda d: suspects_listed(d) == ["markup"])
    finally:
        code, said = _stop(process)
    assert (book / "book.toml").read_text("utf-8") == TOML  # byte for byte
    assert epub_bytes(book) == before
    assert code == 0 and "Traceback" not in said, said


def test_a_line_like_a_heading_inside_a_very_long_chapter_is_a_heading_suspect_with_its_correction(tmp_path):
    text = "　　他走了很远很远的路，终于停下来歇脚。\n" * 40
    long = "　　山路弯弯曲曲，他走了一整天，天黑才到山脚下。\n" * 1200
    chapters = "".join(f"第{n}章 山门\n{text}" for n in "一二三四五")
    novel = chapters + "第六章 夜雨\n" + long + "第七回合，他又输了。\n" + long
    root = write_book(tmp_path / "book", {"novel.txt": novel})
    preview = Preview(load_book(root), "", 1)
    (suspect,) = preview.heading_suspects()
    assert suspect.code == "I301" and suspect.at.line == 5 * 41 + 1 + 1200 + 1
    page = preview.contents(Bench(None, 3000))
    assert 'data-shape="heading"' in page and 'value="heading">a heading starts here</button>' in page
    assert (
        f'name="line" value="{suspect.at.line}"' in page
        and 'name="expect" value="第七回合，他又输了。"' in page
    )
    short = write_book(
        tmp_path / "short", {"novel.txt": chapters + "第六章 夜雨\n第七回合，他又输了。\n" + text}
    )
    assert not Preview(
        load_book(short), "", 1
    ).heading_suspects()  # the same line in a chapter of ordinary size
