"""Bylines (structure/bylines.py): 某某 著 and its kin under or beside the title give the author; a
story's line that ends in 著 (显著, 土著, a sentence, the particle of 他笑著) gives none."""

import pytest

from bookbuilder.pipeline import load_book
from bookbuilder.structure import bylines

STORY = "第一章 开端\n他走进院子，看见一棵老树。\n第二章 继续\n树下坐着一个老人。\n"


def _read(tmp_path, opening: str) -> tuple[str, str, list[str]]:
    path = tmp_path / "novel.txt"
    path.write_text(opening + STORY, "utf-8")
    book = load_book(path, jobs=1).book
    first = next(book.chapters())
    kept = [b.text for b in first.blocks] if first.kind == "intro" else []
    return book.meta.title, book.meta.author, kept


@pytest.mark.parametrize(
    "line, name",
    [
        ("某甲 著", "某甲"),
        ("　　某甲 著", "某甲"),  # indented, as a centred header is
        ("某甲　编著", "某甲"),
        ("（清）某甲 著", "某甲"),
        ("（清）某甲著", "某甲"),  # after a dynasty, glued is a byline too
        ("〔日〕某甲乙 著", "某甲乙"),
        ("某甲·某乙 著", "某甲·某乙"),
        ("作者 某甲", "某甲"),  # the label without its colon
        ("著者　某甲", "某甲"),
        ("作 者某甲", "某甲"),  # the label typeset with a space
    ],
)
def test_a_byline_gives_its_name(line, name):
    assert bylines.byline_author(line) == name


@pytest.mark.parametrize(
    "line",
    [
        "效果显著",
        "一群土著",
        "效果 显著",  # 显著 is one word, not a name and 著
        "他们是 土著",
        "某甲著",  # glued: only its place under the title makes it a byline
        "作者：某甲",  # a labelled field is meta.py's own
        "这部著作很有名。",
        "他笑著说，某甲 著",  # a sentence
    ],
)
def test_a_story_line_gives_no_name(line):
    assert bylines.byline_author(line) == ""


@pytest.mark.parametrize(
    "line, name",
    [
        ("某甲乙丙著", "某甲乙丙"),
        ("某甲著", "某甲"),
        ("效果显著", ""),
        ("一群土著", ""),
        ("这是名著", ""),
        ("显著", ""),
    ],
)
def test_a_glued_byline_and_the_words_that_end_in_zhu(line, name):
    assert bylines.glued_author(line) == name


@pytest.mark.parametrize(
    "line, pair",
    [
        ("天涯客 某甲 著", ("天涯客", "某甲")),
        ("《天涯客》 某甲 著", ("天涯客", "某甲")),
        ("《天涯客》某甲著", ("天涯客", "某甲")),
        ("天涯客  [明]某甲", ("天涯客", "某甲")),  # 陶庵夢憶  [明]張岱
        ("[天涯客II - 某书  某甲 著 ]", ("天涯客II - 某书", "某甲")),  # a title with spaces, in brackets
        ("[天涯客 / 某甲 著 ]", None),  # meta.py's pair, parted by its slash
        ("天涯客 某甲著", None),  # glued beside an unquoted title: a sentence's words may be so
        ("他们是 土著", None),
        ("效果非常 显著", None),
    ],
)
def test_a_title_with_its_byline_beside_it(line, pair):
    assert bylines.title_and_byline(line) == pair


@pytest.mark.parametrize(
    "opening, title, author",
    [
        ("天涯客\n某甲 著\n", "天涯客", "某甲"),
        ("天涯客\n某甲著\n", "天涯客", "某甲"),  # 東度記 / 清溪道人著
        ("《天涯客》合集\n包含三部书\n　　某甲 著\n", "天涯客", "某甲"),  # 龙族1-3's header
        ("天涯客 某甲 著\n", "天涯客", "某甲"),
        ("天涯客\n作者 某甲\n", "天涯客", "某甲"),
    ],
)
def test_a_download_with_a_byline_names_its_author(tmp_path, opening, title, author):
    got_title, got_author, kept = _read(tmp_path, opening)
    assert (got_title, got_author) == (title, author)
    assert not any(author in line for line in kept)  # the byline is no page's text


@pytest.mark.parametrize(
    "opening",
    [
        "天涯客\n效果显著\n",  # a word in 著 under the title
        "天涯客\n一群土著\n",
        "天涯客\n序言写在前面。\n某甲著\n",  # glued, but not right under the title
        "夜色很深，村里的灯一盏盏灭了，效果显著\n",
    ],
)
def test_a_story_line_in_zhu_names_no_author(tmp_path, opening):
    _, author, _ = _read(tmp_path, opening)
    assert author == "佚名"
