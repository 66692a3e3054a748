"""`serve`'s workbench (issue 36) in a real headless Chromium: each correction made on the pages
lands in book.toml as a person would write it, the page comes back with the change, undo brings
back the earlier EPUB; and what may not write (another origin, no token, the LAN) does not."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from conftest import write_book
from test_serve import _start, _stop

from bookbuilder.pipeline import build, load_book
from bookbuilder.serve.hosts import is_loopback
from bookbuilder.serve.workbench import refusal

NOVEL = (
    "第一章 山门\n\n　　少年推开山门，门外是一片竹林。\n\n　　本章未完，"
    "请点击下一页继续阅读\n\n　　他在竹林里走了很久。\n\n"
    "第二章 夜雨\n\n　　雨下了一夜，广告位招租，他没有睡。\n\n　　天快亮时，雨停了。\n\n"
    "第三章 归来\n\n　　天亮了，他回到山门前。\n\n归途\n\n　　他又走了三天，才回到家中。\n\n　　广告位招租\n"
)
TOML = '# 山门: a test book\n[book]\ntitle = "山门"  # the title\nauthor = "某人"\n'
SCREENSHOT = os.environ.get(
    "BOOKBUILDER_SCREENSHOT"
)  # where to keep the contents page's picture (the README's)


@pytest.fixture
def book(tmp_path) -> Path:
    return write_book(tmp_path / "book", {"novel.txt": NOVEL}, TOML)


def epub_bytes(root: Path) -> bytes:
    target, _ = build(load_book(root), "epub")
    return target.read_bytes()


def titles(driver) -> list[str]:
    from selenium.webdriver.common.by import By

    return [a.text for a in driver.find_elements(By.CSS_SELECTOR, "ol.contents a[href^='/text/']")]


def until(driver, condition, timeout: float = 30):
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(
        driver,
        timeout,
        poll_frequency=0.2,
        ignored_exceptions=(StaleElementReferenceException, NoSuchElementException),
    ).until(condition)


def correct(driver, entry: int, button: str, rename: str | None = None) -> None:
    """Open the contents entry's corrections and press one."""
    from selenium.webdriver.common.by import By

    item = driver.find_elements(By.CSS_SELECTOR, "ol.contents li:not(.volume):has(> details.bb-fix)")[entry]
    item.find_element(By.TAG_NAME, "summary").click()
    if rename is not None:
        field = item.find_element(By.NAME, "rename")
        field.clear()
        field.send_keys(rename)
    item.find_element(By.XPATH, f".//button[normalize-space()='{button}']").click()


def confirm_removal(driver, count: int) -> None:
    """On the page of what "remove everywhere" would take: its count, then the button that takes it."""
    from selenium.webdriver.common.by import By

    button = until(
        driver, lambda d: d.find_element(By.XPATH, "//button[starts-with(normalize-space(), 'remove these')]")
    )
    assert "Remove everywhere?" in driver.find_element(By.ID, "bb-preview").text
    assert button.text == f"remove these {count}"
    button.click()


def undo_all(driver) -> None:
    from selenium.webdriver.common.by import By

    while buttons := driver.find_elements(By.CSS_SELECTOR, "#corrections button"):
        count = len(buttons)
        buttons[-1].click()
        until(
            driver,
            lambda d, count=count: len(d.find_elements(By.CSS_SELECTOR, "#corrections button")) == count - 1,
        )


def test_in_a_browser_each_contents_correction_lands_in_book_toml_and_undo_brings_back_the_epub(
    book, browser, monkeypatch
):
    from selenium.webdriver.common.by import By

    monkeypatch.chdir(book.parent)  # paths on the pages as a user sees them: book/source/novel.txt
    before = epub_bytes(book)
    process, url = _start(book)
    try:
        browser.set_window_size(1000, 900)
        browser.get(url)
        assert titles(browser) == ["第一章 山门", "第二章 夜雨", "第三章 归来"]
        assert "none yet" in browser.find_element(By.ID, "corrections").text

        correct(browser, 1, "not a heading")
        until(browser, lambda d: titles(d) == ["第一章 山门", "第三章 归来"])
        toml = (book / "book.toml").read_text("utf-8")
        assert (
            toml.startswith(TOML) and '[[fix]]\nat = "novel.txt:9"\nas = "text"\n' in toml
        )  # the user's lines kept
        assert (
            browser.find_element(By.CLASS_NAME, "bb-notice").text
            == 'no longer a heading: written in book.toml as [[fix]] at = "novel.txt:9", as = "text"'
        )
        changed = epub_bytes(book)
        assert changed != before

        correct(browser, 1, "rename", rename="第三章 归途")
        until(browser, lambda d: titles(d) == ["第一章 山门", "第三章 归途"])
        assert '[[fix]]\nat = "novel.txt:15"\nrename = "第三章 归途"\n' in (book / "book.toml").read_text(
            "utf-8"
        )

        correct(browser, 1, "start a volume here")
        until(
            browser,
            lambda d: (
                [v.text.split("\n")[0] for v in d.find_elements(By.CSS_SELECTOR, "li.volume")]
                == ["第三章 归途"]
            ),
        )
        assert 'rename = "第三章 归途"\nas = "volume"\n' in (book / "book.toml").read_text(
            "utf-8"
        )  # the line's one entry
        listed = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#corrections li")]
        assert len(listed) == 2 and 'at = "novel.txt:9", as = "text"' in listed[0]
        if SCREENSHOT:
            browser.execute_script("document.querySelectorAll('details.bb-fix')[1].open = true")
            browser.save_screenshot(SCREENSHOT)

        browser.find_elements(By.CSS_SELECTOR, "#corrections button")[
            1
        ].click()  # undo the volume and the rename
        until(
            browser,
            lambda d: (
                titles(d) == ["第一章 山门", "第三章 归来"]
                and not d.find_elements(By.CSS_SELECTOR, "li.volume")
            ),
        )
        assert epub_bytes(book) == changed  # the one correction left: its EPUB again
        undo_all(browser)
        until(browser, lambda d: titles(d) == ["第一章 山门", "第二章 夜雨", "第三章 归来"])
    finally:
        code, said = _stop(process)
    assert (book / "book.toml").read_text("utf-8") == TOML  # as the user wrote it, byte for byte
    assert epub_bytes(book) == before
    assert code == 0 and "Traceback" not in said, said


def test_in_a_browser_a_source_line_becomes_a_heading(book, browser):
    from selenium.webdriver.common.by import By

    process, url = _start(book)
    try:
        browser.get(url + "source/0.html")
        browser.find_element(By.ID, "L19").click()
        tool = browser.find_element(By.ID, "bb-line")
        assert tool.is_displayed() and "19" in tool.text
        assert not browser.find_elements(By.CSS_SELECTOR, "#L19.heading") and browser.find_elements(
            By.CSS_SELECTOR, "#L15.heading"
        )
        tool.find_element(By.XPATH, ".//button[normalize-space()='a heading starts here']").click()
        until(
            browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#L19.heading")
        )  # back, rebuilt: a chapter starts there
        assert browser.current_url.endswith("/source/0.html?line=19")  # the line's page, the answer gone
        assert '[[fix]]\nat = "novel.txt:19"\nas = "chapter"\n' in (book / "book.toml").read_text("utf-8")
        browser.get(url)
        assert titles(browser) == ["第一章 山门", "第二章 夜雨", "第三章 归来", "归途"]
    finally:
        _stop(process)


def test_in_a_browser_a_removed_line_is_shown_in_place_and_kept_and_selected_text_is_removed_everywhere(
    book, browser
):
    from selenium.webdriver.common.by import By

    process, url = _start(book)
    try:
        browser.get(url + "text/ch00001.html")
        shown = [
            (e.tag_name, e.text.split("\n")[0]) for e in browser.find_elements(By.CSS_SELECTOR, "section > *")
        ]
        assert shown[1:] == [
            ("p", "少年推开山门，门外是一片竹林。"),
            ("div", shown[2][1]),
            ("p", "他在竹林里走了很久。"),
        ]
        removed = browser.find_element(
            By.CSS_SELECTOR, "section .bb-removed"
        )  # between the two, where it was
        assert "本章未完" in removed.text and "novel.txt:5" in removed.text
        assert "removed: a line websites add, on bookbuilder's list of them (next-page)" in removed.text
        removed.find_element(By.XPATH, ".//button[normalize-space()='keep this rule off']").click()
        until(
            browser,
            lambda d: (
                not d.find_elements(By.CSS_SELECTOR, ".bb-removed")
                and "本章未完，请点击下一页继续阅读" in d.find_element(By.TAG_NAME, "section").text
            ),
        )
        assert '[normalize.junk]\ndisable = ["next-page"]\n' in (book / "book.toml").read_text("utf-8")

        browser.get(url + "text/ch00002.html")
        browser.execute_script("""
            const p = [...document.querySelectorAll('section p')]
                .find(p => p.textContent.includes('广告位招租'));
            const at = p.firstChild.data.indexOf('广告位招租'), range = document.createRange();
            range.setStart(p.firstChild, at); range.setEnd(p.firstChild, at + 5);
            getSelection().removeAllRanges(); getSelection().addRange(range);""")
        tool = until(browser, lambda d: (t := d.find_element(By.ID, "bb-remove")).is_displayed() and t)
        assert tool.find_element(By.NAME, "text").get_attribute("value") == "广告位招租"
        tool.find_element(By.XPATH, ".//button[normalize-space()='remove this everywhere']").click()
        confirm_removal(browser, 2)
        until(browser, lambda d: "雨下了一夜，他没有睡。" in d.find_element(By.TAG_NAME, "section").text)
        marked = browser.find_element(By.CSS_SELECTOR, ".bb-removed")
        assert "广告位招租" in marked.text and "literal-1" in marked.text
        assert (
            'extra = [\n    {regex = "广告位招租", kind = "inline", name = "literal-1", on = "cleaned"},\n]'
            in (book / "book.toml").read_text("utf-8")
        )
        assert (
            ": 2 removed from the book, in 2 chapters"
            in browser.find_element(By.CLASS_NAME, "bb-notice").text
        )
        marked.find_element(
            By.XPATH, ".//button[normalize-space()='keep this rule off']"
        ).click()  # it undoes the pattern
        until(
            browser,
            lambda d: "雨下了一夜，广告位招租，他没有睡。" in d.find_element(By.TAG_NAME, "section").text,
        )
        assert "extra" not in (book / "book.toml").read_text("utf-8")
    finally:
        _stop(process)


def _post(url: str, fields: dict, origin: str | None) -> tuple[int, str]:
    headers = {"Origin": origin} if origin else {}
    request = urllib.request.Request(url + "correct", urllib.parse.urlencode(fields).encode(), headers)
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status, answer.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8")


def _token(url: str) -> str:
    return re.search(
        r'name="token" value="([^"]+)"', urllib.request.urlopen(url).read().decode("utf-8")
    ).group(1)


def test_a_write_without_the_token_or_from_another_origin_is_refused_and_changes_nothing(book):
    process, url = _start(book)
    origin = url.rstrip("/")
    try:
        token = _token(url)
        asked = {"action": "not-heading", "at": "novel.txt:9", "expect": "第二章 夜雨", "back": "/"}
        for fields, sent_from in [
            (asked, origin),
            ({**asked, "token": "guess"}, origin),
            ({**asked, "token": token}, "http://evil.example"),
            ({**asked, "token": token}, None),
            ({**asked, "token": token}, "null"),
        ]:
            status, page = _post(url, fields, sent_from)
            assert status == 403, (fields, sent_from)
        for method in ("PUT", "DELETE"):
            request = urllib.request.Request(url + "correct", b"", {"Origin": origin}, method=method)
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request)
            assert refused.value.code == 403
        assert (book / "book.toml").read_text("utf-8") == TOML

        stale = {**asked, "token": token, "at": "novel.txt:99"}
        status, page = _post(url, stale, origin)
        assert status == 409 and "第二章 夜雨" in page and "no longer a heading at novel.txt:99" in page
        status, page = _post(
            url, {"action": "undo", "kind": "fix", "index": "0", "says": "x", "token": token}, origin
        )
        assert status == 409 and "no longer in the settings file" in page
        assert (book / "book.toml").read_text("utf-8") == TOML
        (book / "book.toml").write_text("[book\n", "utf-8")  # a hand edit half made
        status, page = _post(url, {**asked, "token": token}, origin)
        assert status == 409 and "book.toml cannot be read as TOML" in page
        assert (book / "book.toml").read_text("utf-8") == "[book\n"
    finally:
        code, said = _stop(process)
    assert code == 0 and "Traceback" not in said


def test_in_a_browser_a_form_on_another_site_cannot_change_the_book(book, browser, tmp_path):
    """Even knowing the token, a page served from another origin (another port) is refused."""
    import http.server
    import threading

    process, url = _start(book)
    token = _token(url)
    page = (
        f'<form id="f" method="post" action="{url}correct"><input name="token" value="{token}">'
        '<input name="action" value="not-heading"><input name="at" value="novel.txt:9">'
        '<input name="expect" value="第二章 夜雨"></form><script>f.submit()</script>'
    )
    (tmp_path / "evil").mkdir()
    (tmp_path / "evil" / "index.html").write_text(f'<meta charset="utf-8">{page}', "utf-8")
    handler = lambda *a: http.server.SimpleHTTPRequestHandler(*a, directory=str(tmp_path / "evil"))  # noqa: E731
    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        browser.get(f"http://127.0.0.1:{other.server_address[1]}/index.html")
        until(browser, lambda d: "refused" in d.page_source)
        assert "another page's origin" in browser.page_source
        assert (book / "book.toml").read_text("utf-8") == TOML
    finally:
        other.shutdown()
        _stop(process)


def test_the_first_correction_of_a_bare_txt_creates_the_file_bookbuilder_epub_reads(tmp_path):
    novel = tmp_path / "downloads" / "山门.txt"
    novel.parent.mkdir()
    novel.write_text(NOVEL, "utf-8")
    process, url = _start(novel)
    try:
        fields = {
            "action": "rename",
            "at": "山门.txt:15",
            "expect": "第三章 归来",
            "rename": "第三章 归途",
            "token": _token(url),
            "back": "/",
        }
        status, page = _post(url, fields, url.rstrip("/"))
        assert status == 200 and "第三章 归途" in page  # followed back to the contents, rebuilt
        assert "created" in page and "山门.book.toml" in page and "bookbuilder epub" in page
    finally:
        _stop(process)
    sidecar = tmp_path / "downloads" / "山门.book.toml"
    assert '[[fix]]\nat = "山门.txt:15"\nrename = "第三章 归途"\n' in sidecar.read_text("utf-8")
    toc = subprocess.run(
        [sys.executable, "-m", "bookbuilder", "toc", str(novel)], capture_output=True, text=True, timeout=60
    )
    assert "第三章 归途" in toc.stdout and toc.returncode == 0


@pytest.mark.parametrize(
    "client, host, origin, token, allowed",
    [
        ("127.0.0.1", "127.0.0.1:3000", "http://127.0.0.1:3000", "T", True),
        ("::1", "localhost:3000", "http://localhost:3000", "T", True),
        ("::ffff:127.0.0.1", "[::1]:3000", "http://[::1]:3000", "T", True),
        ("192.168.1.20", "192.168.1.5:3000", "http://192.168.1.5:3000", "T", False),  # over the LAN: never
        ("192.168.1.20", "127.0.0.1:3000", "http://127.0.0.1:3000", "T", False),
        ("127.0.0.1", "127.0.0.1:3000", "http://127.0.0.1:3000", "", False),  # no token
        ("127.0.0.1", "127.0.0.1:3000", "http://127.0.0.1:3000", "t", False),  # another run's
        ("127.0.0.1", "127.0.0.1:3000", "http://evil.example", "T", False),
        ("127.0.0.1", "127.0.0.1:3000", None, "T", False),
        (
            "127.0.0.1",
            "evil.example:3000",
            "http://evil.example:3000",
            "T",
            False,
        ),  # DNS rebinding: its own name
        ("127.0.0.1", "127.0.0.1:3001", "http://127.0.0.1:3001", "T", False),  # another port
    ],
)
def test_who_may_write(client, host, origin, token, allowed):
    assert (refusal(client, host, origin, token, "T", 3000) is None) == allowed


@pytest.mark.parametrize(
    "address, loopback",
    [
        ("127.0.0.1", True),
        ("127.4.5.6", True),
        ("::1", True),
        ("::ffff:127.0.0.1", True),
        ("192.168.1.20", False),
        ("10.0.0.2", False),
        ("::ffff:192.168.1.20", False),
        ("fe80::1%eth0", False),
        ("", False),
    ],
)
def test_which_clients_are_this_machine(address, loopback):
    assert is_loopback(address) == loopback


def test_a_volume_heading_on_the_contents_page_can_be_turned_into_a_chapter(tmp_path):
    novel = (
        "第一卷 风起\n\n第一章 山门\n\n　　少年推开山门。\n\n第二卷 云涌\n\n　　（本卷完）\n\n第二章 "
        "夜雨\n\n　　雨下了一夜。\n"
    )
    root = write_book(tmp_path / "book", {"novel.txt": novel}, TOML)
    process, url = _start(root)
    try:
        page = urllib.request.urlopen(url).read().decode("utf-8")
        assert re.findall(r'<li class="volume" id="v-\d+">([^<]+)', page) == ["第一卷 风起", "第二卷 云涌"]
        assert 'value="chapter">a chapter, not a volume</button>' in page
        fields = {
            "action": "chapter",
            "at": "novel.txt:7",
            "expect": "第二卷 云涌",
            "token": _token(url),
            "back": "/",
        }
        status, page = _post(url, fields, url.rstrip("/"))
        assert status == 200 and re.findall(r'<li class="volume" id="v-\d+">([^<]+)', page) == ["第一卷 风起"]
        assert '[[fix]]\nat = "novel.txt:7"\nas = "chapter"\n' in (root / "book.toml").read_text("utf-8")
    finally:
        _stop(process)


def test_a_removal_s_evidence_is_shown_beside_its_rule(book):
    from bookbuilder.diagnostics import removal
    from bookbuilder.model import Location
    from bookbuilder.serve.pages import Preview

    preview = Preview(load_book(book), "", 1)
    at = Location("novel.txt", 5)
    shown = preview._removed(removal("next-page", "本章未完", at, "a pager's line"), None)
    assert (
        "<del>本章未完</del>" in shown and "removed: a pager&#x27;s line (next-page) (novel.txt:5)" in shown
    )
    listed = "removed: a line websites add, on bookbuilder&#x27;s list of them (next-page) (novel.txt:5)"
    assert listed in preview._removed(removal("next-page", "本章未完", at), None)
