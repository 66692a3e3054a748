"""A chapter's own numbered title given again as a paragraph (normalize/own_title.py): what a saved
page's title leaves once its link is cut (一念永恒 from biqukan); a title without a label, and a
sentence that names the chapter, stay."""

import pytest

from bookbuilder.normalize import own_title
from bookbuilder.pipeline import load_book

BODY = "他走进院子，看见一棵老树。\n树下坐着一个老人，正在下棋。\n"


def paragraphs(tmp_path, text: str, toml: str = "") -> list[str]:
    (tmp_path / "book.txt").write_text(text, "utf-8")
    if toml:
        (tmp_path / "book.book.toml").write_text(toml, "utf-8")
    book = load_book(tmp_path / "book.txt", jobs=1).book
    return [b.text for c in book.chapters() for b in c.blocks if hasattr(b, "text")]


def book(last_line: str, title: str = "白小纯，你和我斗？！") -> str:
    return f"第一章 开端\n{BODY}第151章 {title}\n{BODY}{last_line}\n第152章 归来\n{BODY}"


@pytest.mark.parametrize(
    "line",
    [
        "第151章白小纯，你和我斗？！：　　https://www.example.com/1_1094/6523228.html"
        "　　请记住本书首发域名：www.example.com。",
        "第151章白小纯，你和我斗？！",
        "第１５１章 白小纯，你和我斗？！：",
    ],
)
def test_the_chapter_s_own_title_again_goes(tmp_path, line):
    found = paragraphs(tmp_path, book(line))
    assert not any(t.startswith("第151章") or t.startswith("第１５１章") for t in found)
    assert found.count("树下坐着一个老人，正在下棋。") == 3


@pytest.mark.parametrize(
    "line, title",
    [
        ("第151章白小纯，你和我斗？！他笑着说完，转身走了。", "白小纯，你和我斗？！"),  # a sentence goes on
        ("第150章白小纯，你和我斗？！", "白小纯，你和我斗？！"),  # another chapter's title
    ],
)
def test_a_line_that_is_not_the_title_again_stays(tmp_path, line, title):
    assert line in paragraphs(tmp_path, book(line, title))


def test_a_title_without_a_numbered_label_may_be_a_line_of_the_story():
    from dataclasses import replace

    from tests.conftest import one_file_book

    made = one_file_book([["“风起！”", "风起"], ["第2章风起", "他走了。"]])
    first = next(iter(made.chapters()))
    made = made.with_chapters({0: replace(first, title="风起")})  # a title by layout, no label
    _, found = own_title.strip_own_titles(made, frozenset(), frozenset())
    assert list(found) == [1]  # the numbered chapter's line only


def test_switched_off_by_name(tmp_path):
    toml = f'[normalize.junk]\ndisable = ["{own_title.RULE}"]\n'
    assert "第151章白小纯，你和我斗？！" in paragraphs(tmp_path, book("第151章白小纯，你和我斗？！"), toml)
