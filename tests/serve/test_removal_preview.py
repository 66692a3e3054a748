"""See before removing (issue 51): "remove this everywhere" first shows what would go and asks; a
removal of more than a few dozen pieces needs a tick; a selection inside a line that repeats with
other numbers or names offers that line's template, which takes the whole line everywhere it
stands and nothing else."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import write_book
from test_guard import _form, _send, story
from test_serve import _start, _stop

from bookbuilder.pipeline import load_book
from bookbuilder.serve import preview as removal_preview
from bookbuilder.serve.pages import Preview

TITLES = ["山门", "夜雨", "归来", "远行", "灯火"]
NUMBERS = "一二三四五六"
STORY = ["少年推开山门。", "雨下了一夜。", "他回到家中。", "她送他出城。", "灯下读书。"]


def _chapter(k: int) -> str:
    lines = [
        f"第{NUMBERS[k]}章 {TITLES[k]}",
        f"　　{STORY[k]}",
        f"　　站长信箱：someone{k + 1}@mail{7 * (k + 1)}.com，有事请联系。",
        f"　　{STORY[k][:-1]}，又过了一天。",
    ]
    if k + 1 < len(TITLES):
        lines.append(f"　　下一章：第{NUMBERS[k + 1]}章　{TITLES[k + 1]}>>")
    return "\n\n".join(lines) + "\n"


@pytest.fixture
def book(tmp_path) -> Path:
    files = {f"{k + 1:03}.txt": _chapter(k) for k in range(len(TITLES))}
    return write_book(tmp_path / "book", files, '[book]\ntitle = "山门"\n')


@pytest.mark.parametrize(
    "selected, count, folded",
    [
        ("站长信箱：someone", 5, "站长信箱:someone#@mail#.com,有事请联系。"),
        ("第二章　夜雨>>", 4, "下#章：第#章@>>"),  # the next chapter's title changes: a name
        ("someone3@mail21", 5, "站长信箱:someone#@mail#.com,有事请联系。"),
    ],
)
def test_a_selection_inside_a_varying_line_offers_the_line_s_template(book, selected, count, folded):
    preview = Preview(load_book(book, 1), "", 1)
    found = removal_preview.template(preview, selected)
    assert (found.count, found.folded) == (count, folded)
    lines = [
        p.text for c in preview.loaded.book.chapters() for p in c.blocks if re.fullmatch(found.regex, p.text)
    ]
    assert len(lines) == count and all(selected.split("　")[-1][:4] in "".join(lines) for _ in lines)


def test_a_selection_of_a_whole_line_or_of_prose_offers_no_template(book):
    preview = Preview(load_book(book, 1), "", 1)
    assert removal_preview.template(preview, "雨下了一夜") is None  # a story's line, said once
    assert (
        removal_preview.template(preview, "下一章：第二章　夜雨>>") is None
    )  # the line whole: no more to take


def test_the_template_removes_the_whole_repeated_line_everywhere_and_nothing_else(book):
    before = story(book)
    process, url = _start(book)
    try:
        token = _form(url, "source/0.html", "heading")["token"]
        status, page = _send(
            url, {"action": "remove", "text": "站长信箱：someone", "token": token, "back": "/"}
        )
        assert (
            status == 200 and "5 pieces in 5 chapters" in page and "<mark>站长信箱：someone</mark>1@" in page
        )
        offer = re.search(r'<p class="bb-template">.*?</p>', page, re.S).group(0)
        assert "repeats in 5 paragraphs" in offer and not (book / "book.toml").read_text().count("extra")
        template = {**_form_in(offer), "action": "remove"}
        status, page = _send(url, template)  # the template's own preview, then its confirmation
        assert status == 200 and "5 pieces in 5 chapters" in page and "bb-template" not in page
        status, page = _send(url, {**template, "confirm": "5"})
        assert status == 200 and "5 removed from the book, in 5 chapters" in page
        assert story(book) == [p for p in before if "站长信箱" not in p[2]]
    finally:
        _stop(process)


def _form_in(html_text: str) -> dict:
    import html

    return {
        k: html.unescape(v) for k, v in re.findall(r'type="hidden" name="([^"]+)" value="([^"]*)"', html_text)
    }


def test_a_removal_of_more_than_a_few_dozen_pieces_is_confirmed_by_a_tick(tmp_path):
    many = removal_preview.CONFIRM_ABOVE + 4
    files = {
        f"{k:03}.txt": f"第{k}章 山门\n\n　　少年推开山门（求收藏）。\n\n　　他走了第{k}天。\n"
        for k in range(1, many + 1)
    }
    book = write_book(tmp_path / "book", files, '[book]\ntitle = "山门"\n')
    before = story(book)
    process, url = _start(book)
    try:
        token = _form(url, "source/0.html", "heading")["token"]
        asked = {"action": "remove", "text": "（求收藏）", "token": token, "back": "/"}
        status, page = _send(url, asked)
        assert (
            status == 200 and f"{many} pieces in {many} chapters" in page and f"… and {many - 8} more" in page
        )
        assert f'type="checkbox" name="confirm" value="{many}" required' in page
        status, page = _send(url, {**asked, "confirm": str(many - 1)})  # a count the page did not show
        assert status == 200 and "Remove everywhere?" in page and story(book) == before
        status, page = _send(url, {**asked, "confirm": str(many)})
        assert status == 200 and f"{many} removed from the book" in page
        assert story(book) == [(f, n, t.replace("（求收藏）", "")) for f, n, t in before]
    finally:
        _stop(process)
