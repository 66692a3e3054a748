"""`bookbuilder serve`: the preview's pages, the per-file memo of its rebuilds, and the whole server
in a real headless Chromium (Debian's chromium and chromium-driver, driven by Selenium)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import write_book

from bookbuilder.pipeline import load_book
from bookbuilder.serve.pages import Preview

BOOK = {
    "001.txt": "第一章 山门\n\n　　少年推开山门。\n\n　　他在沙上写下 1<2 & 3>2。\n",
    "002.txt": "第二章 夜雨\n\n　　雨下了一夜“没有停。\n",  # an unbalanced quote: W201 on this chapter's page
    "003.txt": "第三章 归来\n\n　　天亮了，他回到山门前。\n",
}


@pytest.fixture
def book(tmp_path) -> Path:
    return write_book(tmp_path / "book", BOOK, '[book]\ntitle = "山门"\nauthor = "某人"\n')


def preview_of(root: Path) -> Preview:
    return Preview(load_book(root), "p { margin: 0; }", 7)


def html(preview: Preview, path: str) -> str:
    kind, body = preview.page(path)
    assert kind.startswith("text/html")
    return body.decode("utf-8")


def test_the_contents_page_lists_every_chapter_with_its_source_line(book):
    page = html(preview_of(book), "/")
    assert re.findall(r'<a href="/text/([^"]+)\.html">([^<]+)</a>', page) == [
        ("ch00001", "第一章 山门"),
        ("ch00002", "第二章 夜雨"),
        ("ch00003", "第三章 归来"),
    ]
    assert 'href="/source/1.html?line=1#L1">' in page  # the page of the file that holds the line
    assert 'data-build="7"' in page and 'e.data !== "7"' in page  # reloads when another build is named


def test_a_chapter_page_escapes_the_text_and_links_its_neighbours(book):
    page = html(preview_of(book), "/text/ch00001.html")
    assert "1&lt;2 &amp; 3&gt;2" in page and "1<2" not in page
    assert 'rel="next" href="/text/ch00002.html"' in page and 'rel="prev"' not in page
    assert '<link href="/styles/book.css"' in page


def test_warnings_are_shown_on_the_page_of_the_chapter_they_concern(book):
    preview = preview_of(book)
    assert "W201" in html(preview, "/text/ch00002.html")
    assert "W201" not in html(preview, "/text/ch00001.html") + html(preview, "/text/ch00003.html")
    assert "1 warning</span>" in html(preview, "/")


def test_the_self_checks_suspects_are_listed_on_the_contents_and_marked_in_place(tmp_path):
    advert = "某某App，听书声音最全，离线朗读。"
    files = {
        f"{k:03}.txt": f"第{k}章 山门\n\n　　少年推开山门。\n\n　　{advert}\n\n　　他走了。\n"
        for k in (1, 2, 3)
    }
    preview = preview_of(write_book(tmp_path / "book", files))
    contents = html(preview, "/")
    listed = re.search(r'<section id="suspects">.*?</section>', contents, re.S).group(0)
    assert 'data-shape="app-advert"' in listed and "×3" in listed
    assert f'href="/text/{preview.chapters[0].name}.html"' in listed  # its first place
    page = html(preview, f"/text/{preview.chapters[1].name}.html")
    assert f'<p class="bb-suspect" data-shape="app-advert">{advert}</p>' in page
    assert page.count("bb-suspect") == 1  # the story around it is not marked
    assert 'id="suspects"' not in html(preview_of(write_book(tmp_path / "clean", BOOK)), "/")


def test_the_source_page_numbers_the_lines(book):
    page = html(preview_of(book), "/source/0.html")
    assert '<li id="L1" class="heading">第一章 山门</li>' in page  # a chapter starts there
    assert '<li id="L5">　　他在沙上写下 1&lt;2 &amp; 3&gt;2。</li>' in page


@pytest.mark.parametrize(
    "path",
    [
        "/book.toml",
        "/source/../book.toml",
        "/source/3.html",
        "/source/-1.html",
        "/text/ch00009.html",
        "/text/../../etc/passwd",
        "/styles/../book.toml",
        "/favicon.png",
    ],
)
def test_nothing_but_the_book_is_served(book, path):
    assert preview_of(book).page(path) is None


def test_the_css_is_the_one_given(book):
    assert preview_of(book).page("/styles/book.css") == ("text/css; charset=utf-8", b"p { margin: 0; }")


def test_a_rebuild_reads_only_the_files_that_changed(book):
    memo: dict = {}
    load_book(book, memo=memo)
    assert memo["read"] == 3
    path = book / "source" / "002.txt"
    path.write_text(BOOK["002.txt"] + "　　又一段。\n", "utf-8")
    os.utime(path, ns=(time.time_ns() + 10**9,) * 2)  # a new time even on a coarse clock
    again = load_book(book, memo=memo)
    assert memo["read"] == 1
    assert again.book == load_book(book).book and again.diagnostics == load_book(book).diagnostics
    (book / "book.toml").write_text(
        '[book]\ntitle = "山门"\nauthor = "某人"\n[normalize]\nellipsis = false\n', "utf-8"
    )
    load_book(book, memo=memo)
    assert memo["read"] == 3  # other rules: every file again


def _start(book: Path, *args: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "bookbuilder", "serve", str(book), "--port", "0", *args],
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    for line in process.stderr:
        if found := re.search(r"at (http://127\.0\.0\.1:\d+/)", line):
            return process, found.group(1)
        assert time.monotonic() < deadline, "serve did not start"
    raise AssertionError(f"serve ended: {process.wait()}")


def _stop(process: subprocess.Popen) -> tuple[int, str]:
    process.send_signal(signal.SIGINT)
    try:
        return process.wait(timeout=10), process.stderr.read()
    finally:
        process.kill()


def test_in_a_browser_an_edit_appears_on_the_open_page_without_a_reload(book, browser):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    process, url = _start(book)
    try:
        browser.get(url)
        links = browser.find_elements(By.CSS_SELECTOR, "ol.contents a[href^='/text/']")
        assert [a.text for a in links] == ["第一章 山门", "第二章 夜雨", "第三章 归来"]
        links[1].click()
        WebDriverWait(browser, 10).until(lambda d: d.current_url.endswith("/text/ch00002.html"))
        assert "雨下了一夜" in browser.find_element(By.TAG_NAME, "section").text
        browser.execute_script("window.notReloaded = true")  # gone once the page reloads itself
        path = book / "source" / "002.txt"
        path.write_text(BOOK["002.txt"] + "\n　　第二天早上，雨停了。\n", "utf-8")
        # the page may reload between finding the section and reading it: look again then
        WebDriverWait(
            browser, 20, poll_frequency=0.2, ignored_exceptions=(StaleElementReferenceException,)
        ).until(lambda d: "第二天早上，雨停了。" in d.find_element(By.TAG_NAME, "section").text)
        assert browser.execute_script("return window.notReloaded === undefined")
        assert browser.current_url.endswith("/text/ch00002.html")
    finally:
        code, said = _stop(process)
    assert code == 0 and "stopped" in said and "Traceback" not in said
    assert "(1 of 3 files read)" in said  # the rebuild read the edited file only


def test_a_broken_edit_keeps_the_last_good_pages_with_the_error_on_them(book):
    import urllib.request

    process, url = _start(book)
    try:
        (book / "book.toml").write_text("[book\n", "utf-8")
        deadline = time.monotonic() + 20
        while "bb-error" not in (page := urllib.request.urlopen(url).read().decode("utf-8")):
            assert time.monotonic() < deadline, "the error never showed"
            time.sleep(0.2)
        assert "E001" in page and "第一章 山门" in page
    finally:
        code, said = _stop(process)
    assert code == 0 and "build failed, the last good one is shown" in said


def test_ctrl_c_twice_still_stops_cleanly(book):
    process, _ = _start(book)
    process.send_signal(signal.SIGINT)
    process.send_signal(signal.SIGINT)
    code, said = process.wait(timeout=10), process.stderr.read()
    assert code == 0 and said.strip().endswith("stopped") and "Traceback" not in said


def test_a_port_in_use_is_one_line_and_exit_1(book):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "bookbuilder", "serve", str(book), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 1
    assert (
        result.stderr.strip().splitlines()[-1]
        == f"error E010: cannot listen on 127.0.0.1:{port}: Address already in use"
    )
