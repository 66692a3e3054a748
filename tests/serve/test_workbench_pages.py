"""The workbench's pages at size and where a user looks (issue 51): a contents page whose
corrections are made when an entry is opened, source pages paged around the line asked for, each
correction's answer beside the control used and on that page only, refusals dressed as the pages,
plain words, a favicon, and the download link over the LAN. What a browser shows is asked of a
real headless Chromium; the rest of the real handler (LAN rules never by listening on a LAN address)."""

from __future__ import annotations

import re
import threading
import urllib.parse
from pathlib import Path

import pytest
from conftest import ask_handler, form_post, write_book
from test_serve import _start, _stop
from test_workbench import TOML, until

from bookbuilder.serve.pages import SOURCE_PAGE_LINES

CHAPTERS = 60  # enough for the contents page to scroll well past one window


def _line_of(chapter: int) -> int:
    """The line of the big book's chapter heading."""
    return _novel(CHAPTERS).split("\n").index(f"第{chapter}章 第{chapter}个山门") + 1


def _novel(chapters: int, paragraphs: int = 3) -> str:
    out = []
    for k in range(1, chapters + 1):
        out.append(f"第{k}章 第{k}个山门\n")
        out += [f"　　第{k}章的第{j}段，少年推开山门，门外是一片竹林。\n" for j in range(1, paragraphs + 1)]
        if k % 7 == 3:
            out.append("　　本章未完，请点击下一页继续阅读\n")
    return "".join(out)


@pytest.fixture
def big(tmp_path) -> Path:
    return write_book(tmp_path / "book", {"novel.txt": _novel(CHAPTERS)}, TOML)


@pytest.fixture
def long_file(tmp_path) -> Path:
    """A whole novel of more lines than two source pages hold."""
    paragraphs = 40
    chapters = 2 * SOURCE_PAGE_LINES // paragraphs + 5
    return write_book(tmp_path / "long", {"novel.txt": _novel(chapters, paragraphs)}, TOML)


def _site(root: Path, lan: bool = False):
    """serve's Site and handler class for `root`, its watcher running (corrections wait for it)."""
    from bookbuilder.config import load_config
    from bookbuilder.serve.hosts import allowed_hosts
    from bookbuilder.serve.server import Handler, Site, sources_signature
    from bookbuilder.serve.workbench import Bench

    site = Site(root, 1, lambda line: None)
    before = sources_signature(load_config(root))
    site.rebuild()
    site.bench = Bench(site, 3000, "http://192.168.1.5:3000/" if lan else None)
    site.hosts = allowed_hosts(3000, "0.0.0.0", "192.168.1.5") if lan else allowed_hosts(3000, "127.0.0.1")
    threading.Thread(target=site.watch, args=(before,), daemon=True).start()
    return site, type("BookHandler", (Handler,), {"site": site})


def _get(handler, path: str, client: str = "127.0.0.1", host: str = "127.0.0.1:3000") -> tuple[int, str, str]:
    """(status, headers, body) of a GET through the real handler."""
    answer = ask_handler(
        handler, client, f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()
    )
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), head.decode("latin-1"), body.decode("utf-8")


def _post(handler, fields: dict) -> tuple[int, str, str]:
    body = urllib.parse.urlencode(fields).encode()
    answer = ask_handler(handler, "127.0.0.1", form_post("/correct", b"127.0.0.1:3000", body))
    head, _, page = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), head.decode("latin-1"), page.decode("utf-8")


def test_the_contents_page_carries_one_template_not_a_form_per_entry(big):
    site, handler = _site(big)
    try:
        status, _, page = _get(handler, "/")
        assert status == 200
        entries = re.findall(
            r'<details class="bb-fix" data-kind="chapter" data-at="([^"]+)" data-expect="([^"]+)">', page
        )
        assert len(entries) == CHAPTERS and entries[1] == ("novel.txt:5", "第2章 第2个山门")
        # the forms: one template per kind of entry (a chapter, a volume, a chapter its file's name
        # titles, one a file's title line titles: serve/volume_before.py), and the undo list's (none yet)
        assert page.count("<form") == 7 and page.count('<template id="bb-fix-') == 4
    finally:
        site.stop()


def test_a_correction_s_answer_is_on_the_page_it_sends_to_once_and_nowhere_else(big):
    site, handler = _site(big)
    try:
        token = site.bench.token
        asked = {"action": "rename", "at": "novel.txt:9", "expect": "第3章 第3个山门", "rename": "第3章 归途"}
        status, head, _ = _post(handler, {**asked, "token": token, "back": "/", "near": "c-ch00003"})
        assert status == 303
        back = re.search(r"Location: (\S+)", head).group(1)
        assert re.fullmatch(r"/\?said=[\w-]+", back)
        _, _, page = _get(handler, back)
        notice = re.search(r'<p class="bb-notice" role="status" data-near="([^"]*)">([^<]+)</p>', page)
        assert notice and notice.group(1) == "c-ch00003"
        assert notice.group(2).startswith("renamed: written in book.toml as [[fix]]")
        assert "第3章 归途" in page
        for elsewhere in ("/", "/text/ch00001.html", "/source/0.html"):  # the next page: none
            assert "bb-notice" not in _get(handler, elsewhere)[2]
        undo = {"action": "undo", "kind": "fix", "index": "0", "token": token, "back": "/"}
        says = 'at = "novel.txt:9", rename = "第3章 归途"'
        status, head, _ = _post(handler, {**undo, "says": says, "near": '"><script>'})
        assert status == 303  # an element's id only: anything else is no place
        page = _get(handler, re.search(r"Location: (\S+)", head).group(1))[2]
        assert '<p class="bb-notice" role="status" data-near="">undone: taken out of book.toml' in page
    finally:
        site.stop()


def test_a_refusal_is_a_page_dressed_as_the_others(big):
    site, handler = _site(big)
    try:
        fields = {
            "action": "not-heading",
            "at": "novel.txt:999",
            "expect": "第9章",
            "back": "/text/ch00002.html",
        }
        for token, status, back in ((site.bench.token, 409, fields["back"]), ("guess", 403, "/")):
            code, head, page = _post(handler, {**fields, "token": token})
            assert code == status and "text/html" in head
            assert '<link href="/serve.css" rel="stylesheet"/>' in page and 'class="bb-error"' in page
            assert 'rel="icon"' in page and f'<a href="{back}">back to the page</a>' in page
        assert (big / "book.toml").read_text("utf-8") == TOML
    finally:
        site.stop()


def test_over_the_lan_the_contents_page_links_the_download_page(big):
    site, handler = _site(big, lan=True)
    try:
        status, _, page = _get(handler, "/", client="192.168.1.20", host="192.168.1.5:3000")
        assert status == 200 and "<form" not in page and "<template" not in page
        assert '<a href="/download">download the book</a>' in page and '<a href="/opds">' in page
        status, _, _ = _get(handler, "/download", client="192.168.1.20", host="192.168.1.5:3000")
        assert status == 200
    finally:
        site.stop()


def test_the_favicon_is_served_to_every_client(big):
    site, handler = _site(big, lan=True)
    try:
        for client, host in (("127.0.0.1", "127.0.0.1:3000"), ("192.168.1.20", "192.168.1.5:3000")):
            for path in ("/favicon.ico", "/favicon.svg"):
                status, head, body = _get(handler, path, client, host)
                assert status == 200 and "image/svg+xml" in head and body.startswith("<svg")
    finally:
        site.stop()


def test_removals_say_what_took_them_in_plain_words(big):
    """No rule's bare name or the code's notes: what took the line, then the name to switch."""
    site, handler = _site(big)
    try:
        chapter = f"/text/{site.preview.chapters[2].name}.html"
        page = _get(handler, chapter)[2]
        assert "removed: a line websites add, on bookbuilder&#x27;s list of them (next-page)" in page
        asked = {"action": "remove", "text": "门外是一片竹林", "token": site.bench.token, "back": chapter}
        status, _, shown = _post(handler, asked)  # what it would take, shown first (wbsafe's preview)
        assert status == 200
        count = re.search(r'name="confirm" value="(\d+)"', shown).group(1)
        status, _, _ = _post(handler, {**asked, "confirm": count})
        assert status == 303
        page = _get(handler, chapter)[2]
        assert (
            "you asked for this text to be removed everywhere (pattern literal-1 in the settings file)"
            in page
        )
        contents = _get(handler, "/")[2]
        for jargon in (
            "book.toml&#x27;s own",
            "on the cleaned text",
            "not switched by name",
            " removes come back",
        ):
            assert jargon not in page + contents
        assert "text removed everywhere: <code>[normalize.junk] extra" in contents  # the list says it too
    finally:
        site.stop()


def test_a_source_page_holds_the_page_of_lines_around_the_one_asked_for(long_file):
    site, handler = _site(long_file)
    try:
        lines = (long_file / "source" / "novel.txt").read_text("utf-8").split("\n")
        asked = SOURCE_PAGE_LINES + 17
        page = _get(handler, f"/source/0.html?line={asked}")[2]
        numbered = [int(n) for n in re.findall(r'<li id="L(\d+)"', page)]
        assert numbered == list(range(SOURCE_PAGE_LINES + 1, 2 * SOURCE_PAGE_LINES + 1))
        assert f'<ol class="source" start="{SOURCE_PAGE_LINES + 1}">' in page
        assert f'<li id="L{asked}">{lines[asked - 1]}</li>' in page
        assert 'href="/source/0.html?page=1">lines before</a>' in page
        assert 'href="/source/0.html?page=3">lines after</a>' in page
        last = _get(handler, "/source/0.html?line=999999")[2]  # past the end: the last page
        assert f'<li id="L{len(lines)}">' in last and "lines after" not in last
        assert "lines before" not in _get(handler, "/source/0.html")[2]
        # the contents links a chapter to its line's page
        contents = _get(handler, "/")[2]
        link = re.findall(r'href="(/source/0\.html\?line=(\d+)#L\d+)"', contents)[-1]
        assert int(link[1]) > SOURCE_PAGE_LINES and f'id="L{link[1]}"' in _get(handler, link[0])[2]
    finally:
        site.stop()


def _open(driver, item) -> None:
    from selenium.webdriver.common.by import By

    item.find_element(By.TAG_NAME, "summary").click()


def test_in_a_browser_the_answer_stands_beside_the_entry_used_and_the_made_controls_work(big, browser):
    from selenium.webdriver.common.by import By

    process, url = _start(big)
    try:
        browser.set_window_size(1000, 700)
        browser.get(url)
        assert browser.execute_script("return document.forms.length") == 0  # none made up front
        entry = browser.find_element(By.ID, "c-ch00050")
        browser.execute_script("arguments[0].scrollIntoView()", entry)
        _open(browser, entry)
        field = entry.find_element(By.NAME, "rename")
        assert field.get_attribute("value") == "第50章 第50个山门"
        assert entry.find_element(By.NAME, "at").get_attribute("value") == f"novel.txt:{_line_of(50)}"
        field.clear()
        field.send_keys("第50章 归途")
        entry.find_element(By.XPATH, ".//button[normalize-space()='rename']").click()
        until(browser, lambda d: "第50章 归途" in d.find_element(By.ID, "c-ch00050").text)
        notice = until(browser, lambda d: d.find_element(By.CLASS_NAME, "bb-notice"))
        beside = browser.execute_script("return arguments[0].previousElementSibling.id", notice)
        assert beside == "c-ch00050" and notice.text.startswith("renamed:")
        in_view = (
            "const r = arguments[0].getBoundingClientRect(); return r.top > -1 && r.bottom < innerHeight + 1"
        )
        assert browser.execute_script(in_view, notice)  # scrolled to, 2,000 px down the page
        assert "said=" not in browser.current_url
        browser.refresh()
        assert not browser.find_elements(By.CLASS_NAME, "bb-notice")  # once
        browser.get(url + "text/ch00001.html")
        assert not browser.find_elements(By.CLASS_NAME, "bb-notice")  # and not on the next page

        browser.get(url)  # "start a volume here", from a made control too, then its volume's own
        _open(browser, browser.find_element(By.ID, "c-ch00010"))
        browser.find_element(
            By.XPATH, "//li[@id='c-ch00010']//button[normalize-space()='start a volume here']"
        ).click()
        volume = until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "li.volume"))
        _open(browser, volume)
        volume.find_element(By.XPATH, ".//button[normalize-space()='a chapter, not a volume']").click()
        until(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "li.volume"))
        toml = (big / "book.toml").read_text("utf-8")
        assert f'at = "novel.txt:{_line_of(10)}"\nas = "chapter"' in toml and 'rename = "第50章 归途"' in toml
    finally:
        _stop(process)


def test_in_a_browser_an_answer_whose_control_is_gone_shows_where_the_page_was(big, browser):
    from selenium.webdriver.common.by import By

    process, url = _start(big)
    try:
        browser.set_window_size(1000, 700)
        browser.get(url)
        entry = browser.find_element(By.ID, "c-ch00040")
        browser.execute_script("arguments[0].scrollIntoView()", entry)
        scrolled = browser.execute_script("return scrollY")
        _open(browser, entry)
        entry.find_element(By.XPATH, ".//button[normalize-space()='not a heading']").click()
        until(browser, lambda d: not d.find_elements(By.ID, "c-ch00040"))
        notice = until(browser, lambda d: d.find_element(By.CLASS_NAME, "bb-notice"))
        assert notice.text.startswith("no longer a heading:") and "bb-toast" in notice.get_attribute("class")
        assert notice.is_displayed() and abs(browser.execute_script("return scrollY") - scrolled) < 100
    finally:
        _stop(process)


def test_in_a_browser_no_page_asks_for_what_is_not_there(big, browser):
    """No 404 in the console: the favicon, the pages' styles and script, a refusal's page."""
    from selenium.webdriver.common.by import By

    process, url = _start(big)
    try:
        for path in ("", "text/ch00003.html", "source/0.html?line=20"):
            browser.get(url + path)
            until(browser, lambda d: d.execute_script("return document.readyState") == "complete")
        browser.get(url)
        _open(browser, browser.find_element(By.ID, "c-ch00002"))
        browser.execute_script("document.querySelector('#c-ch00002 input[name=expect]').value = 'gone'")
        browser.find_element(
            By.XPATH, "//li[@id='c-ch00002']//button[normalize-space()='not a heading']"
        ).click()
        until(browser, lambda d: "not changed" in d.title)
        assert browser.find_element(By.CLASS_NAME, "bb-error").value_of_css_property("background-color") != (
            "rgba(0, 0, 0, 0)"
        )  # the pages' own stylesheet
        icon = browser.execute_script("return fetch('/favicon.ico').then(r => r.status)")
        # by the status Chromium reports, not the digits alone: the server's port may hold "404"
        logged = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert icon == 200 and not [m for m in logged if "status of 404" in m], logged
    finally:
        _stop(process)


def test_in_a_browser_a_long_file_s_source_opens_at_the_line_and_a_heading_set_there_comes_back_there(
    long_file, browser
):
    from selenium.webdriver.common.by import By

    process, url = _start(long_file)
    try:
        browser.set_window_size(1000, 700)
        asked = SOURCE_PAGE_LINES + 300
        browser.get(url + f"source/0.html?line={asked}#L{asked}")
        line = browser.find_element(By.ID, f"L{asked}")
        in_view = (
            "const r = arguments[0].getBoundingClientRect(); return r.top > -1 && r.bottom < innerHeight + 1"
        )
        assert browser.execute_script(in_view, line)
        assert (
            browser.execute_script("return document.querySelectorAll('ol.source li').length")
            == SOURCE_PAGE_LINES
        )
        target = next(
            e
            for e in browser.find_elements(By.CSS_SELECTOR, f"#L{asked} ~ li")
            if "段" in e.text and not e.get_attribute("class")
        )
        n = target.get_attribute("id")
        target.click()
        browser.find_element(
            By.XPATH, "//form[@id='bb-line']//button[normalize-space()='a heading starts here']"
        ).click()
        until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f"#{n}.heading"))
        notice = browser.find_element(By.CLASS_NAME, "bb-notice")
        assert browser.execute_script("return arguments[0].previousElementSibling.id", notice) == n
        assert browser.execute_script(in_view, notice)
        browser.find_element(By.XPATH, "//nav[1]//a[normalize-space()='lines before']").click()
        until(browser, lambda d: d.find_elements(By.ID, "L1") and not d.find_elements(By.ID, f"L{asked}"))
    finally:
        _stop(process)


def test_a_fix_on_a_whole_novel_reads_again_from_the_fix_pass_on_and_gives_a_fresh_load_s_book(tmp_path):
    from bookbuilder.pipeline import load_book
    from bookbuilder.serve.server import Site

    novel = tmp_path / "novel.txt"
    novel.write_text(_novel(CHAPTERS), "utf-8")
    site = Site(novel, 1, lambda line: None)
    site.rebuild()
    before_fixes = site.memo["before_fixes"]["reading"]
    fixes = (
        f'[[fix]]\nat = "novel.txt:{_line_of(5)}"\nrename = "第5章 归途"\n\n'
        f'[[fix]]\nat = "novel.txt:{_line_of(9)}"\nas = "text"\n\n'
        f'[[fix]]\nat = "novel.txt:{_line_of(30)}"\nas = "volume"\n'
    )
    (tmp_path / "novel.book.toml").write_text(TOML + fixes, "utf-8")
    site.rebuild()
    assert site.memo["before_fixes"]["reading"] is before_fixes  # the passes before the fixes not run again
    fresh = load_book(novel)
    assert site.preview.loaded.book.volumes == fresh.book.volumes  # titles, blocks, who decided each
    titles = [c.title for c in fresh.book.chapters()]
    assert "第5章 归途" in titles and "第9章 第9个山门" not in titles and fresh.book.volumes[-1].title
    novel.write_text(_novel(CHAPTERS + 1), "utf-8")  # the text changed: read whole again
    site.rebuild()
    assert site.memo["before_fixes"]["reading"] is not before_fixes
    assert site.preview.loaded.book.volumes == load_book(novel).book.volumes
