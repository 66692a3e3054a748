import pytest

from bookbuilder.model import SceneBreak
from bookbuilder.pipeline import load_book
from bookbuilder.structure.headings import classify_heading
from bookbuilder.structure.sections import split_sections
from tests.conftest import write_book


@pytest.mark.parametrize(
    "line, kind, title, number",
    [
        ("第一章 风起", "chapter", "第一章 风起", 1),
        ("第12章", "chapter", "第12章", 12),
        ("第 3 章  夜行", "chapter", "第3章 夜行", 3),
        ("第一百零一章：终局", "chapter", "第一百零一章 终局", 101),
        ("第１２章　重逢", "chapter", "第12章 重逢", 12),
        ("第二卷 潜龙", "volume", "第二卷 潜龙", 2),
        ("楔子", "front", "楔子", None),
        ("番外一 重逢", "back", "番外一 重逢", None),
        ("第五章 归来（求收藏）", "chapter", "第五章 归来", 5),
    ],
)
def test_headings(line, kind, title, number):
    h = classify_heading(line, 1)
    assert (h.kind, h.title, h.number) == (kind, title, number)


@pytest.mark.parametrize(
    "line",
    [
        "第一回合，李四就被打倒在地。",
        "第三节课是数学课，他睡着了。",
        "第一章的内容他早已背熟，此刻……",
        "第二天一早",
        "第一章" + "很长的标题" * 7,
    ],
)
def test_not_headings(line):
    assert classify_heading(line, 1) is None


def test_scene_breaks_collapse_and_lone_ellipsis_after_open_line_is_text():
    text = "他走了。\n……\n……\n她来了。\n***\n他想说\n……\n结束。"
    (section,), _ = split_sections(text, "f.txt")
    kinds = [type(b).__name__ if isinstance(b, SceneBreak) else b.text for b in section.blocks]
    assert kinds == ["他走了。", "SceneBreak", "她来了。", "SceneBreak", "他想说", "……", "结束。"]


@pytest.mark.parametrize("line", ["……", "...", "......", "。。。", "。.。", "···", "⋯⋯"])
def test_an_ellipsis_line_in_any_spelling_after_a_finished_sentence_is_a_scene_break(line):
    for previous in ("他走了。", "他走了.", "他走了……", "“走吧。”"):
        (section,), _ = split_sections(f"{previous}\n{line}\n她来了。", "f.txt")
        assert isinstance(section.blocks[1], SceneBreak), (previous, line)
    (section,), _ = split_sections(f"他想说\n{line}\n她来了。", "f.txt")
    assert [b.text for b in section.blocks] == ["他想说", line, "她来了。"]


def test_rejected_heading_is_reported_at_info_level():
    _, notes = split_sections("第一回合，李四就被打倒在地。", "f.txt")
    assert [(n.code, n.at.line) for n in notes] == [("I301", 1)]


def test_sample_book_titles_and_missing_chapter(sample_book):
    loaded = load_book(sample_book)
    assert [c.title for c in loaded.book.chapters()] == ["第一章", "第二章"]
    (gap,) = [d for d in loaded.diagnostics if d.code == "W301"]
    assert "001" in gap.message and gap.at.path.endswith("002_486e77a6121bde4f.txt")


def test_whole_novel_file_splits_with_volumes_and_preamble(tmp_path):
    novel = tmp_path / "novel.txt"
    novel.write_text(
        "书名：测试之书\n作者：某人\n内容简介：\n这是一本书。\n\n第一卷 起\n\n第一章 开始\n正文一。\n\n"
        "第二章 继续\n第二章 继续\n正文二。\n\n第二卷 承\n\n第三章 转折\n正文三。\n",
        "utf-8",
    )
    book = load_book(novel).book
    assert book.meta.title == "测试之书" and book.meta.author == "某人"
    assert [(v.title, [c.title for c in v.chapters]) for v in book.volumes] == [
        (None, ["内容简介"]),
        ("第一卷 起", ["第一章 开始", "第二章 继续"]),
        ("第二卷 承", ["第三章 转折"]),
    ]
    second = book.volumes[1].chapters[1]
    assert [b.text for b in second.blocks] == ["正文二。"]  # repeated heading dropped


def test_subfolders_are_volumes_in_natural_order(tmp_path):
    root = write_book(
        tmp_path / "b",
        {
            "10_第十卷/1.txt": "第一章 甲\n内容。",
            "2_第二卷 乙/1.txt": "第一章 乙\n内容。",
            "2_第二卷 乙/10.txt": "第十章 丙\n内容。",
            "2_第二卷 乙/2.txt": "第二章 丁\n内容。",
        },
        "",
    )
    book = load_book(root).book
    assert [v.title for v in book.volumes] == ["第二卷 乙", "第十卷"]
    assert [c.title for c in book.volumes[0].chapters] == ["第一章 乙", "第二章 丁", "第十章 丙"]


@pytest.mark.parametrize(
    "files, code, line",
    [
        ({"1.txt": "第一章 甲\n内容。", "2.txt": "第一章 乙\n内容。"}, "W302", 1),
        ({"1.txt": "第二章 甲\n内容。", "2.txt": "第一章 乙\n内容。"}, "W303", 1),
        ({"1.txt": "第一章 甲\n内容。", "2.txt": "第三章 乙\n内容。"}, "W301", 1),
        (
            {"1.txt": "第一章 甲\n内容。", "2.txt": "第二章 乙\n内容。", "3.txt": "第五章 丙\n内容。"},
            "W301",
            1,
        ),
        ({"1.txt": "第一章 甲\n\n", "2.txt": "第二章 乙\n内容。"}, "W305", 1),
        ({"1.txt": "第一章 甲\n" + "很长的段落，" * 9000}, "W306", 1),
        ({"1.txt": "第一章 甲\n" + "很长的段落" * 1100}, "W202", 2),
        ({"1.txt": "第一章 甲\n他说：“你好。\n然后走了。"}, "W201", 2),
    ],
)
def test_lint_codes_with_location(tmp_path, files, code, line):
    root = write_book(tmp_path / "b", files, "")
    found = [d for d in load_book(root).diagnostics if d.code == code]
    assert found and found[0].at.line == line


def test_multi_paragraph_quotation_is_not_unbalanced(tmp_path):
    root = write_book(tmp_path / "b", {"1.txt": "第一章 甲\n“第一段话，\n\n“第二段话。”"}, "")
    assert not [d for d in load_book(root).diagnostics if d.code == "W201"]


def test_filename_heading_mismatch(tmp_path):
    root = write_book(
        tmp_path / "b",
        {"1.txt": "第一章 甲\n内容。", "2.txt": "第二章 乙\n内容。", "3.txt": "第九章 丙\n内容。"},
        "",
    )
    codes = {d.code for d in load_book(root).diagnostics}
    assert "W304" in codes


def test_custom_heading_pattern_from_book_toml(tmp_path):
    root = write_book(
        tmp_path / "b",
        {"novel.txt": "Chapter 1\n正文一。\nChapter 2\n正文二。"},
        "[source]\nheading_pattern = '^Chapter (\\d+)$'\n",
    )
    chapters = list(load_book(root).book.chapters())
    assert [(c.title, c.number) for c in chapters] == [("Chapter 1", 1), ("Chapter 2", 2)]


def test_explicit_order_wins(tmp_path):
    root = write_book(
        tmp_path / "b",
        {"a.txt": "第一章 甲\n文。", "b.txt": "第二章 乙\n文。"},
        '[source]\norder = ["b.txt", "a.txt"]\n',
    )
    assert [c.title for c in load_book(root).book.chapters()] == ["第二章 乙", "第一章 甲"]


def test_title_from_file_name_without_number_and_hash(tmp_path):
    root = write_book(
        tmp_path / "b", {"01_序幕_d74f4373f8865ab8.txt": "正文。", "02_deadbeefcafe1234.txt": "正文。"}, ""
    )
    assert [c.title for c in load_book(root).book.chapters()] == ["序幕", "第二章"]


def test_parse_keeps_whether_a_line_was_indented_and_drops_the_indent():
    (section,), _ = split_sections("\u3000\u3000他走了。\n她来了。\n  \t又一段。", "f.txt")
    assert [(b.text, b.indented) for b in section.blocks] == [
        ("他走了。", True),
        ("她来了。", False),
        ("又一段。", True),
    ]


def test_a_chapter_repeated_word_for_word_is_left_out(tmp_path):
    """A crawler run twice over the same chapters, appending (一念永恒 from four spiders: 18 of 25,
    28 of 67, 149 of 427 chapters repeated): each chapter once. The same title over other text,
    and the same text under another title, stay."""
    chapters = {
        n: f"第{n}章 题{n}\n他走进院子，看见第{n}棵老树。\n树下坐着一个老人。\n" for n in "一二三四五"
    }
    text = "".join(chapters.values()) + chapters["一"] + chapters["二"] + "第六章 题六\n新的一章。\n"
    text += "第三章 题三\n另一段文字。\n" + "第七章 题七\n他走进院子，看见第四棵老树。\n树下坐着一个老人。\n"
    path = tmp_path / "novel.txt"
    path.write_text(text, "utf-8")
    loaded = load_book(path, jobs=1)
    assert [c.title for c in loaded.book.chapters()] == [f"第{n}章 题{n}" for n in "一二三四五六三七"]
    assert [d.at.line for d in loaded.diagnostics if d.code == "W308"] == [16, 19]
    assert [v.title for v in loaded.book.volumes] == [None]  # no part made of the repeats
    renamed = (
        chapters["一"] + chapters["二"] + chapters["二"].replace("题二", "题二1 example.com") + chapters["三"]
    )
    path.write_text(
        renamed, "utf-8"
    )  # a crawler's copy right after, its title suffixed (分宝, 分宝1 biqukan.com)
    assert [c.title for c in load_book(path, jobs=1).book.chapters()] == [f"第{n}章 题{n}" for n in "一二三"]


GARBLED = "【愛↑去△小↓說△網w    qu】"  # a site's mark, garbled so that filters miss it
SECTIONS = [f"他走进第{n}个院子，看见一棵老树。" for n in range(1, 21)]


def _copy_with(tail_at: list[int], tail: str) -> str:
    """第191章 尸峰有赏, then the same chapter again right after it, `tail` glued on these of its lines."""
    first = "第191章 尸峰有赏\n" + "\n".join(SECTIONS) + "\n"
    copy = "\n".join(t + tail if k in tail_at else t for k, t in enumerate(SECTIONS))
    return "第190章 开端\n他走了。\n" + first + "第191章 尸峰有赏\n" + copy + "\n第192章 归来\n她来了。\n"


@pytest.mark.parametrize(
    "tail_at, tail, count",
    [
        ([7], GARBLED, 3),  # the copy with a site's mark glued on one line: left out (一念永恒, biqukan)
        ([3, 9], GARBLED, 3),  # two of twenty lines: a tenth
        ([3, 9, 15], GARBLED, 4),  # three: more than a tenth, kept
        ([7], "他笑了。", 4),  # a sentence: the copy holds story the first lacks, kept
        ([7], "他又走进了另一个院子，看见许多许多棵老树和许多许多坐在树下的老人们", 4),  # over 40 characters
    ],
)
def test_a_copy_right_after_with_a_site_s_mark_glued_on_is_left_out(tmp_path, tail_at, tail, count):
    path = tmp_path / "novel.txt"
    path.write_text(_copy_with(tail_at, tail), "utf-8")
    loaded = load_book(path, jobs=1)
    assert len(list(loaded.book.chapters())) == count
    text = [b.text for c in loaded.book.chapters() for b in c.blocks if hasattr(b, "text")]
    assert all(any(t.startswith(s) for t in text) for s in SECTIONS)  # no story line lost either way


@pytest.mark.parametrize(
    "names, shown",
    [
        (
            ("某书第0000000000000000114章.txt", "某书第0000000000000000116章.txt"),
            "chapter 115 missing between 114 and 116",
        ),
        (
            ("0114_甲.txt", "0116_乙.txt"),
            "chapter 0115 missing between 0114 and 0116",
        ),  # as the names write them
    ],
)
def test_a_missing_number_is_printed_as_the_file_names_write_it(tmp_path, names, shown):
    """W301 printed chapter 0000000000000000115 for a number read from a name that does not open with
    its digits: it was padded to the name's length."""
    root = write_book(tmp_path / "b", {name: "他走进院子，看见一棵老树。" for name in names}, "")
    (gap,) = [d for d in load_book(root).diagnostics if d.code == "W301"]
    assert gap.message == shown
