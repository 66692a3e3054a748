"""The author a book gives without a label (structure/signed.py): a name alone under the title on a
page of two lines (调频 / 饶雪漫, 我与地坛 / 史铁生), the afterword's signature (后记 … 刘慈欣, 渡航),
the book's name over a name after the story's end (天龙八部 / 金庸). On the other side: a story's
sentence or a heading is no title, a dedication or a character's name said alone is no author, a
translator's afterword and a side story sign nothing."""

import pytest

from bookbuilder.pipeline import load_book
from bookbuilder.structure import signed

STORY = "第一章 开端\n他走进院子，看见一棵老树。\n第二章 继续\n树下坐着一个老人。\n"


def _meta(tmp_path, text: str, name: str = "数字城堡.txt") -> tuple[str, str, str, str]:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    book = load_book(path, jobs=1).book
    sources = dict(book.meta.sources)
    return book.meta.title, sources["title"], book.meta.author, sources["author"]


# ---- a page of two lines over the first chapter: the title, and its author's name under it


@pytest.mark.parametrize(
    "opening, numbers",
    [
        ("  天涯客  \n某甲乙 \n\n", "１２３"),  # 调频 / 饶雪漫 / １ in a file named 数字城堡
        ("天涯客\n某甲\n", ["第一章", "第二章", "第三章"]),
        ("天涯客\n某甲\n", ["第1章", "第2章", "第3章"]),  # 我与地坛 / 史铁生 / 一 in novel.txt
    ],
)
def test_a_title_line_over_a_name_line_gives_both_over_the_file_name(tmp_path, opening, numbers):
    text = opening + "".join(f"{n}\n他走进院子，看见一棵老树。\n" for n in numbers)
    title, title_from, author, author_from = _meta(tmp_path, text)
    assert (title, title_from[:5], author_from[:5]) == ("天涯客", "text:", "text:")
    assert author == opening.split("\n")[1].strip()
    book = load_book(tmp_path / "数字城堡.txt", jobs=1).book
    assert next(book.chapters()).kind == "chapter"  # the page held only them: it goes


@pytest.mark.parametrize(
    "opening",
    [
        "天涯客\n献给母亲\n",  # a dedication under the title
        "天涯客\n效果显著\n",  # a word in 著: bylines.py's to judge, and no byline
        "他走了。\n某甲\n",  # a story's sentence is no title line
        "天涯客\n某甲说得对\n",  # longer than a name
        "天涯客\n某甲\n序言写在前面，\n",  # a page of more than the two lines: no title from it
        "书名:\n简介:某甲小说全集之天涯客\n\n经典重温\n",  # a blurb over a phrase (Kaiping23)
    ],
)
def test_lines_that_are_no_title_and_author_leave_the_file_name(tmp_path, opening):
    title, title_from, author, _ = _meta(tmp_path, opening + STORY)
    assert (title, title_from, author) == ("数字城堡", "file name", "佚名")


def test_a_characters_name_said_alone_under_the_title_is_no_author(tmp_path):
    """The heroine's name under the title, then the story says it in every chapter: a character."""
    story = "".join(f"第{n}章 开端\n阿蛮走进院子，看见一棵老树。\n" for n in "一二三四五")
    title, _, author, _ = _meta(tmp_path, "天涯客\n阿蛮\n" + story)
    assert author == "佚名"


# ---- the afterword's signature


@pytest.mark.parametrize(
    "tail",
    [
        "某甲\n",
        "　　某甲\n一九七六年五月\n",  # a date under it
        "某甲\n【天涯客续集】\n",  # the next book's name after it (三体's 后记, then 【三体Ⅱ黑暗森林】)
    ],
)
def test_the_afterwords_signature_is_the_author(tmp_path, tail):
    text = STORY + "后记\n写这本书用了三年。\n谢谢大家！\n" + tail
    title, _, author, author_from = _meta(tmp_path, text, "天涯客.txt")
    assert (title, author) == ("天涯客", "某甲") and author_from.startswith("text:")


@pytest.mark.parametrize(
    "matter, tail",
    [
        ("译后记", "某甲\n"),  # a translator's afterword
        ("番外 重逢", "阿蛮\n"),  # a side story's last line: the story's
        ("后记", "某甲\n一九七六年五月\n又及\n附言\n"),  # more than SIGNATURE_TAIL lines after the sentence
        ("后记", "某甲是个好人\n"),  # no name alone
    ],
)
def test_lines_at_other_ends_sign_nothing(tmp_path, matter, tail):
    text = STORY + f"{matter}\n写这本书用了三年。\n谢谢大家！\n" + tail
    assert _meta(tmp_path, text, "天涯客.txt")[2] == "佚名"


def test_an_afterword_signed_with_a_name_the_story_says_often_signs_nothing(tmp_path):
    story = "".join(f"第{n}章 开端\n阿蛮走进院子，看见一棵老树。\n" for n in "一二三四五")
    text = story + "后记\n写这本书用了三年。\n阿蛮\n"
    assert _meta(tmp_path, text, "天涯客.txt")[2] == "佚名"


# ---- the book's name over a name, anywhere a header stands


def test_the_books_name_over_a_name_after_the_story_is_the_author(tmp_path):
    text = STORY + "（全书完）\n天涯客\n某甲\n释名\n“天涯”这名词出于古诗。\n"
    assert _meta(tmp_path, text, "天涯客.txt")[2:] == ("某甲", "text:7")


def test_a_name_under_another_line_is_no_author(tmp_path):
    text = STORY + "（全书完）\n海角人\n某甲\n"
    assert _meta(tmp_path, text, "天涯客.txt")[2] == "佚名"


def test_a_file_name_or_a_label_still_wins_over_a_signature(tmp_path):
    text = STORY + "后记\n写这本书用了三年。\n某乙\n"
    assert _meta(tmp_path, text, "天涯客-某甲.txt")[2] == "某甲"
    assert _meta(tmp_path, "作者：某丙\n" + text, "天涯客.txt")[2] == "某丙"


def test_name_alone_shapes():
    assert signed.name_alone("　　金庸") == "金庸"
    assert [signed.name_alone(t) for t in ("献给母亲", "某甲著", "后记", "金", "某甲乙丙丁")] == [""] * 5
