"""Folder books as a reader judges them: a site's page title over every file (structure/
folder_pages.py), the title a file's text gives over its name's (file_titles.py), an index or
contents file used as contents (contents_file.py), a name a zip mangled read again (decode/names.py),
and a play's scene labels inside its chapter files."""

import pytest

from bookbuilder.decode.names import readable_name
from bookbuilder.pipeline import load_book
from bookbuilder.structure import contents_file, folder_pages
from tests.conftest import write_book

PROSE = "　　他走进院子，看见一棵老树{k}。\n　　树下坐着一个老人，正在喝茶。\n"


def _book(tmp_path, files: dict[str, str]):
    loaded = load_book(write_book(tmp_path / "b", files, ""), jobs=1)
    chapters = list(loaded.book.chapters())
    return loaded, [c.title for c in chapters], [[b.text for b in c.blocks] for c in chapters]


# ---- a site's page title over every file


def test_the_line_every_file_opens_with_is_the_sites_page_title(tmp_path):
    files = {f"{k}.txt": f"天涯客 → 正文\n第{k}章 风起{k}\n" + PROSE.format(k=k) for k in range(1, 5)}
    loaded, titles, texts = _book(tmp_path, files)
    assert titles == [f"第{k}章 风起{k}" for k in range(1, 5)]
    assert not any("天涯客" in line for text in texts for line in text)
    assert sum(d.code == "I303" for d in loaded.diagnostics) == 4  # each removal said, with its line


def test_the_books_name_over_every_number_named_file_is_no_title(tmp_path):
    files = {f"{k}.txt": "天涯客\n" + PROSE.format(k=k) for k in range(1, 5)}
    _, titles, texts = _book(tmp_path, files)
    assert titles == ["第一章", "第二章", "第三章", "第四章"]
    assert texts[0][0].startswith("他走进院子")


@pytest.mark.parametrize(
    "opening",
    [
        "第一场",  # a play's scene label opens every episode: the story's
        "他醒来的时候，天已经亮了。",  # a sentence each file opens with
    ],
)
def test_a_line_of_the_story_each_file_opens_with_stays(tmp_path, opening):
    files = {f"第{k}集 相遇.txt": f"{opening}\n" + PROSE.format(k=k) for k in range(1, 5)}
    _, _, texts = _book(tmp_path, files)
    assert all(text[0] == opening for text in texts)


def test_a_line_only_some_files_open_with_stays(tmp_path):
    files = {
        f"{k}.txt": ("天涯客\n" if k <= 2 else "") + f"第{k}章 风起\n" + PROSE.format(k=k)
        for k in range(1, 5)
    }
    assert folder_pages.page_title(["天涯客", "天涯客", "第3章 风起", "第4章 风起"]) == ""
    loaded, _, _ = _book(tmp_path, files)
    assert not any(d.code == "I303" and "page title" in d.message for d in loaded.diagnostics)


# ---- the title the text gives


@pytest.mark.parametrize(
    "name, first, title",
    [
        ("Prelude 1.txt", "Prelude 1", "Prelude 1"),
        (
            "①即便如此，日常仍在继续。.txt",
            "① 即便如此，日常仍在继续。",
            "① 即便如此，日常仍在继续。",
        ),  # as the text writes it
        (
            "Interlude 3.txt",
            "Interlude……",
            "Interlude 3",
        ),  # the name less its number: the name tells them apart
        ("风起.txt", "风起", "风起"),
    ],
)
def test_the_files_name_again_on_its_first_line_is_its_title(tmp_path, name, first, title):
    _, titles, texts = _book(tmp_path, {name: f"{first}\n" + PROSE.format(k=1)})
    assert titles == [title]
    assert texts[0][0].startswith("他走进院子")  # the line is no paragraph


@pytest.mark.parametrize(
    "name, first",
    [
        ("风起.txt", "他走了"),  # a short first line that is not the name: the story's
        ("风起.txt", "风起云涌，天下大乱。"),  # the name starts the line: a sentence, not the title
        ("Interlude 3.txt", "Inter"),  # a part of the name is no title
    ],
)
def test_a_first_line_that_is_not_the_name_stays_text(tmp_path, name, first):
    _, titles, texts = _book(tmp_path, {name: f"{first}\n" + PROSE.format(k=1)})
    assert titles == [name[:-4]]
    assert texts[0][0] == first


def test_a_play_scene_label_is_no_number_named_files_title(tmp_path):
    files = {
        f"{k}.txt": "第一场\n" + PROSE.format(k=k) + "第二场\n" + PROSE.format(k=k + 10) for k in range(1, 4)
    }
    _, titles, texts = _book(tmp_path, files)
    assert titles == ["第一章", "第二章", "第三章"]
    assert all(text[0] == "第一场" and "第二场" in text for text in texts)


def test_a_title_line_still_titles_a_number_named_file(tmp_path):
    _, titles, _ = _book(tmp_path, {"12.txt": "风起\n" + PROSE.format(k=1)})
    assert titles == ["风起"]


def test_a_numbered_heading_the_name_numbers_titles_its_file_though_its_title_holds_a_comma(tmp_path):
    """第一章.txt … opening with 第 1 章：家人们谁懂啊，猝死还得上班 (a comma makes the line alone a weak
    heading): the name's number and the line's agree, so the line is the chapter's title."""
    names = ["家人们谁懂啊，猝死还得上班", "皇宫小卖部，开业即爆火", "言官弹劾，皇帝反击"]
    files = {
        f"第{'一二三'[k]}章.txt": f"第 {k + 1} 章：{n}\n" + PROSE.format(k=k) for k, n in enumerate(names)
    }
    _, titles, texts = _book(tmp_path, files)
    assert titles == [f"第{k + 1}章 {n}" for k, n in enumerate(names)]
    assert not any(t.startswith("第 ") for text in texts for t in text)
    # the line numbers another chapter than the name: it is the file's text, the name its title
    _, titles, texts = _book(tmp_path / "other", {"第一章.txt": "第 7 章：风起，云涌\n" + PROSE.format(k=1)})
    assert titles == ["第一章"] and texts[0][0] == "第 7 章：风起，云涌"


# ---- names a zip mangled, an index used as contents

NAMES = ["林靈素傳", "唐先生", "徐神翁"]


def _mangled(name: str) -> str:
    """The name as a zip without the UTF-8 flag unpacks it: its Big5 bytes read as CP437."""
    return name.encode("big5").decode("cp437")


@pytest.mark.parametrize("name", NAMES + ["宋傳奇"])
def test_a_cp437_mangled_big5_name_reads_again(name):
    assert readable_name(_mangled(name)) == name


@pytest.mark.parametrize("name", ["index", "Prelude 1", "Café", "林靈素傳", "①即便如此", "Ñandú"])
def test_a_name_that_is_no_mangled_chinese_stays(name):
    assert readable_name(name) == name


def test_an_index_orders_the_files_and_is_neither_chapter_nor_blurb(tmp_path):
    index = "\u3000\n目錄\n○徐神翁       ○林靈素傳       ○唐先生\n \n"
    files = {"index.txt": index}
    for k, name in enumerate(NAMES):
        files[_mangled(name) + ".txt"] = f"{name}\n" + PROSE.format(k=k)
    loaded, titles, texts = _book(tmp_path, files)
    assert titles == ["徐神翁", "林靈素傳", "唐先生"]  # the index's order, the text's titles
    assert all(text[0].startswith("他走进院子") for text in texts)
    assert loaded.book.meta.description == ""


@pytest.mark.parametrize(
    "lines, entries",
    [
        (["○甲乙       ○丙丁", "○戊己"], ["甲乙", "丙丁", "戊己"]),  # columns, each after its bullet
        (["第一章  风起", "第二章  云涌"], ["第一章  风起", "第二章  云涌"]),  # a label and its title
    ],
)
def test_a_lists_entries(lines, entries):
    assert contents_file.entries(lines) == entries


def test_a_list_without_its_label_is_a_list_and_prose_is_a_blurb(tmp_path):
    (tmp_path / "目录.txt").write_text("徐神翁\n林靈素傳\n唐先生\n", "utf-8")
    assert contents_file.read(tmp_path / "目录.txt") == ([], ["徐神翁", "林靈素傳", "唐先生"])
    (tmp_path / "目录.txt").write_text("这是一本好书。\n讲的是宋人的故事。\n", "utf-8")
    above, listed = contents_file.read(tmp_path / "目录.txt")
    assert listed == [] and [t for _, t in above] == ["这是一本好书。", "讲的是宋人的故事。", ""]


# ---- a volume in the file's name


def _volumes(loaded) -> list[tuple[str | None, list[str]]]:
    return [(v.title, [c.title for c in v.chapters]) for v in loaded.book.volumes]


def test_a_name_that_holds_its_volume_opens_it(tmp_path):
    files = {
        "楔子 楔子 天师祈福.txt": PROSE.format(k=0),
        "上卷 第一回 教头出走.txt": PROSE.format(k=1),
        "上卷 第二回 提辖打虎.txt": PROSE.format(k=2),
        "下卷 第三回 好汉聚义.txt": PROSE.format(k=3),
    }
    loaded, _, _ = _book(tmp_path, files)
    assert _volumes(loaded) == [
        (None, ["楔子 天师祈福"]),  # the label the name gives twice, once
        ("上卷", ["第一回 教头出走", "第二回 提辖打虎"]),
        ("下卷", ["第三回 好汉聚义"]),
    ]


@pytest.mark.parametrize(
    "files, volumes",
    [
        (  # no volume in the names: none opens
            {"第一回 教头出走.txt": PROSE.format(k=1), "第二回 提辖打虎.txt": PROSE.format(k=2)},
            [(None, ["第一回 教头出走", "第二回 提辖打虎"])],
        ),
        (  # the text's own heading decides, not the name
            {"上卷 第一回 教头出走.txt": "第一回 风雪山神庙\n" + PROSE.format(k=1)},
            [(None, ["第一回 风雪山神庙"])],
        ),
        ({"上卷帘子.txt": PROSE.format(k=1)}, [(None, ["上卷帘子"])]),  # a word, no volume
    ],
)
def test_a_name_without_its_volume_opens_none(tmp_path, files, volumes):
    loaded, _, _ = _book(tmp_path, files)
    assert _volumes(loaded) == volumes


# ---- a file that is a list of the chapters' titles, whatever its name


def test_a_file_listing_the_chapters_is_their_contents(tmp_path):
    names = ["风起", "云涌", "雨落", "雪飘"]
    files = {"list.txt": "\n".join(names) + "\n"}
    files |= {f"{name}.txt": PROSE.format(k=k) * 3 for k, name in enumerate(names)}
    _, titles, _ = _book(tmp_path, files)
    assert titles == names  # the list's order; the list is no chapter, nor the blurb


def test_a_short_poem_file_is_no_list(tmp_path):
    names = ["风起", "云涌", "雨落"]
    files = {"诗.txt": "床前明月光\n疑是地上霜\n举头望明月\n低头思故乡\n"}
    files |= {f"{name}.txt": PROSE.format(k=k) * 3 for k, name in enumerate(names)}
    _, titles, texts = _book(tmp_path, files)
    assert "诗" in titles and ["床前明月光", "疑是地上霜", "举头望明月", "低头思故乡"] in texts


def test_a_load_looks_for_the_folders_list_once(tmp_path, monkeypatch):
    """The list orders the files and gives the blurb above it: one search of the folder serves both."""
    names = ["风起", "云涌", "雨落", "雪飘"]
    files = {"list.txt": "\n".join(names) + "\n"}
    files |= {f"{name}.txt": PROSE.format(k=k) * 3 for k, name in enumerate(names)}
    looked: list = []
    find = contents_file.find
    monkeypatch.setattr(contents_file, "find", lambda folder: looked.append(folder) or find(folder))
    _, titles, _ = _book(tmp_path, files)
    assert titles == names and len(looked) == 1  # the list's order, from the one search
