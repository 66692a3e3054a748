"""A file or folder name read against the text (structure/name_against_text.py): a pinyin name
spells a title the text quotes (shendiaoxialv → 《神雕侠侣》, HLM → 《红楼梦》), a tag glued to a quoted
title goes (raw三体, 天龍八部繁BIG), a site's contents-page label after a folder's name goes (三国演义
最新章节更新列表). On the other side: a name the text does not quote, a Roman numeral, a subtitle,
a collection's name stay as they are."""

import pytest

from bookbuilder.pipeline import load_book
from bookbuilder.structure import name_against_text as nat

# 《天涯客》 quoted twice: the text's title; 《诗经》 once: another book's
STORY = "第一章 开端\n他读完《诗经》，又翻开《天涯客》。\n第二章 继续\n《天涯客》写的是一个老人。\n"


def _title(tmp_path, name: str, text: str = STORY) -> tuple[str, str, str]:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    book = load_book(path, jobs=1).book
    return book.meta.title, dict(book.meta.sources)["title"], book.meta.author


@pytest.mark.parametrize(
    "name",
    [
        "tianyake.txt",
        "tianyake_novel.txt",
        "TYK_chapter.txt",
        "raw天涯客.txt",
        "天涯客繁BIG.txt",
        "天涯客繁UTF8.txt",
    ],
)
def test_a_name_that_spells_or_tags_a_quoted_title_gives_that_title(tmp_path, name):
    title, source, _ = _title(tmp_path, name)
    assert (title, source) == ("天涯客", "file name, as the text quotes it")


@pytest.mark.parametrize(
    "name, title",
    [
        ("novel.txt", "novel"),  # spells nothing the text quotes
        ("shijing.txt", "shijing"),  # 《诗经》 quoted once: another book's
        ("天涯客II.txt", "天涯客II"),  # a series' number, not a tag
        ("天涯客繁体BIG.txt", "天涯客繁体BIG"),  # two Han characters more: more than a tag
        ("天涯客之歌.txt", "天涯客之歌"),  # no Latin letters: the name says more than the text quotes
    ],
)
def test_a_name_the_text_does_not_quote_so_stays(tmp_path, name, title):
    assert _title(tmp_path, name)[0] == title


def test_a_pinyin_name_gives_the_author_the_openings_heading_writes(tmp_path):
    text = "某甲作品集序\n我在小学时就爱读书。\n" + STORY
    assert _title(tmp_path, "tianyake_moujia.txt", text)[::2] == ("天涯客", "某甲")
    assert _title(tmp_path, "tianyake_lisi.txt", text)[::2] == ("天涯客", "佚名")  # spelled nowhere


@pytest.mark.parametrize(
    "folder, title",
    [
        ("天涯客 最新章节更新列表", "天涯客"),
        ("天涯客　章节目录", "天涯客"),
        ("天涯客 小说集", "天涯客 小说集"),  # a collection's name, no page's label
        ("最新章节", "最新章节"),  # nothing before the label
    ],
)
def test_a_folder_named_after_a_sites_contents_page(tmp_path, folder, title):
    root = tmp_path / folder
    root.mkdir()
    (root / "第一章.txt").write_text("他走进院子，看见一棵老树。\n", "utf-8")
    (root / "第二章.txt").write_text("树下坐着一个老人。\n", "utf-8")
    assert load_book(root, jobs=1).book.meta.title == title


def test_spells():
    assert nat.spells("shendiaoxialv", "神雕侠侣") and nat.spells("hlm", "红楼梦")
    assert not nat.spells("hl", "红楼") and not nat.spells("shendiao", "神雕侠侣")


def test_a_name_is_spelled_without_loading_pypinyins_phrase_dictionary():
    """A Latin file name is read against the text by each character's readings alone: the phrase
    dictionary (0.2 s to load) is left unread, and a character's several readings are all there."""
    import subprocess
    import sys

    code = (
        "import os, sys; os.environ.pop('PYPINYIN_NO_PHRASES', None)\n"
        "from bookbuilder.structure.name_against_text import spells\n"
        "print(spells('shendiaoxialv', '神雕侠侣'), spells('zhuali', '爪力'), spells('zhaoli', '爪力'),"
        " 'pypinyin.phrases_dict' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True", "True", "False"]
