"""build/index.html in a real headless Chromium, opened from the disk (no server): its search box
finds a book by a word of its title or author (or their pinyin), its order puts the books by
title, by author or most recently changed first, and a title or name that is markup stays text."""

import os

import pytest
from click.testing import CliRunner

from bookbuilder.cli import main
from tests.conftest import write_book

MARKUP_TITLE, MARKUP_AUTHOR = '甲<b>&"乙', "<i>佚</i>名"
# (folder, title, author, when its files were written): each book's date is its own
BOOKS = [
    ("xianni", "仙逆", "耳根", 1_600_000_300),
    ("xingchen", "星辰变", "我吃西红柿", 1_600_000_100),
    ("zhetian", "遮天", "辰东", 1_600_000_200),
    ("markup", MARKUP_TITLE, MARKUP_AUTHOR, 1_600_000_000),
]


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    shelf = tmp_path_factory.mktemp("shelf")
    for folder, title, author, written in BOOKS:
        toml = f'[book]\ntitle = "{title.replace(chr(34), chr(92) + chr(34))}"\nauthor = "{author}"\n'
        root = write_book(shelf / folder, {"1.txt": f"第一章 开始\n\n　　{title}的正文。\n"}, toml)
        (root / "book.toml").write_text(toml + '[output]\nformats = ["epub"]\n', "utf-8")
        for path in root.rglob("*"):
            os.utime(path, (written, written))
    done = CliRunner().invoke(main, ["-q", "build", str(shelf), "-j", "1"])
    assert done.exit_code == 0, done.output
    return shelf / "build" / "index.html"


def _shown(browser) -> list[str]:
    """The titles of the books the page shows, in its order."""
    items = browser.find_elements("css selector", "ul.books > li")
    return [li.find_element("css selector", ".title").text for li in items if li.is_displayed()]


def test_the_page_finds_a_book_by_a_word_of_its_title_or_author(index, browser):
    browser.get(index.as_uri())
    find = browser.find_element("id", "find")
    assert find.is_displayed()  # the script ran: the search box is shown
    assert _shown(browser) == [MARKUP_TITLE, "仙逆", "星辰变", "遮天"]  # by title, as pinyin
    for words, found in [
        ("遮", ["遮天"]),
        ("耳根", ["仙逆"]),
        ("XIAN", ["仙逆"]),  # pinyin, any case
        ("xingchen", ["星辰变"]),
        ("辰", ["星辰变", "遮天"]),  # a title's word and an author's
        ("辰 东", ["遮天"]),  # every word must be found
        ("<b>", [MARKUP_TITLE]),
        ("<i>", [MARKUP_TITLE]),
        ("没有这本书", []),
    ]:
        find.clear()
        find.send_keys(words)
        assert _shown(browser) == found, words
        assert browser.find_element("id", "shown").text == f"{len(found)} of 4"
    find.clear()
    find.send_keys(" ")
    assert len(_shown(browser)) == 4 and browser.find_element("id", "shown").text == ""
    title = browser.find_element("css selector", "ul.books > li .title")
    assert title.text == MARKUP_TITLE and not title.find_elements("css selector", "b")


def test_the_page_sorts_by_title_author_and_recently_changed(index, browser):
    from selenium.webdriver.support.ui import Select

    browser.get(index.as_uri())
    order = Select(browser.find_element("id", "order"))
    order.select_by_value("author")  # chen-dong, er-gen, i-yi-i-ming, wo-chi-xi-hong-shi
    assert _shown(browser) == ["遮天", "仙逆", MARKUP_TITLE, "星辰变"]
    order.select_by_value("changed")
    assert _shown(browser) == [title for _, title, _, _ in sorted(BOOKS, key=lambda b: -b[3])]
    browser.find_element("id", "find").send_keys("辰")  # a search keeps the order
    assert _shown(browser) == ["遮天", "星辰变"]
    order.select_by_value("title")
    assert _shown(browser) == ["星辰变", "遮天"]
