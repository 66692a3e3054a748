"""A recurring line form with a number that counts up is a heading by the file's own evidence
(docs/rules-notes.md, "Headings by the file's own numbering"): numbers in any brackets, a 第N章
glued to a title with a comma; and the rows that must stay text (a poem's numbered lines, a list
of steps, a sound effect, a character counting), with a case just inside and just outside each
threshold of heading_choice."""

import pytest

from bookbuilder.pipeline import load_book
from bookbuilder.structure import heading_choice
from bookbuilder.structure.headings import Heading, candidate

BODY = "他走进院子，看见一棵老树。\n树下坐着一个老人。\n"


def chapters(tmp_path, text: str) -> list[tuple[str | None, int | None, str]]:
    path = tmp_path / "novel.txt"
    path.write_text(text, "utf-8")
    book = load_book(path, jobs=1).book
    return [(v.title, c.number, c.title) for v in book.volumes for c in v.chapters if c.kind == "chapter"]


def numbers(tmp_path, text: str) -> list[int | None]:
    return [n for _, n, _ in chapters(tmp_path, text)]


def bracketed(*labels: str) -> str:
    return "".join(f"{label}\n{BODY}" for label in labels)


@pytest.mark.parametrize(
    "line, title, number",
    [
        ("【01.】", "01", 1),
        ("【02.】 初入江湖", "02 初入江湖", 2),
        ("〔三〕", "三", 3),
        ("［１２］", "12", 12),
        ("【12章】", "12", 12),
        ("〖7〗大战", "7 大战", 7),
    ],
)
def test_a_number_in_brackets_is_a_weak_candidate(line, title, number):
    h = candidate(line, 1)
    assert (h.title, h.number, h.weak) == (title, number, True)


@pytest.mark.parametrize(
    "line", ["【砰！】", "「一」", "『二』", "【3】号房间里传来一声响。", "[1] 见《史记》。"]
)
def test_no_bracketed_candidate(line):
    h = candidate(line, 1)
    assert h is None or h.rule != "bracketed"


def test_bracketed_numbers_that_start_again_are_chapters_in_parts(tmp_path):
    """The download whose 89 chapters are 【01.】 …, counting from 1 again in each of four parts."""
    sizes = (23, 22, 22, 22)
    text = "".join(
        f"【{n:02d}.】\n{BODY}这是第{part}部分里的第{n}段。\n"
        for part, size in enumerate(sizes, 1)
        for n in range(1, size + 1)
    )
    found = chapters(tmp_path, text)
    assert len(found) == 89
    assert [v for v, n, _ in found if n == 1] == ["第一部分", "第二部分", "第三部分", "第四部分"]


CHAPTERS = bracketed("【01.】", "【02.】", "【03.】", "【04.】")


@pytest.mark.parametrize(
    "inside",
    [
        "他背起一首歌：\n1.河水长\n2.河水清\n3.河水流到我的家\n4.家门口\n",  # a poem of short numbered lines
        # a list of steps inside a chapter
        "母亲教她做饭：\n1. 先烧水\n2. 再洗米\n3. 米下锅\n她一样一样记住了。\n",
        "【砰！】\n门被风吹开了。\n",  # a sound effect in 【】
        "“一、二、三！”\n他数着。\n一\n二\n三\n大家一起跳了下去。\n",  # a character counting
        "〔一〕\n〔二〕\n〔三〕\n他把三条写在纸上。\n",  # a list in the chapters' own brackets
    ],
)
def test_lines_inside_a_chapter_stay_text(tmp_path, inside):
    text = CHAPTERS.replace(f"【02.】\n{BODY}", f"【02.】\n{BODY}{inside}")
    assert numbers(tmp_path, text) == [1, 2, 3, 4]


@pytest.mark.parametrize(
    "poem",
    [
        "1.春山\n2.夏水\n3.秋月\n4.冬雪\n",
        "〔一〕春山\n〔二〕夏水\n〔三〕秋月\n〔四〕冬雪\n",
    ],
)
def test_a_poem_of_numbered_lines_in_a_book_without_headings_is_no_chapters(tmp_path, poem):
    assert numbers(tmp_path, BODY * 3 + poem + BODY * 3) == [None]  # one headless part


# FAMILY_MIN: three supported at the least
@pytest.mark.parametrize(
    "labels, expected",
    [
        (("【01.】", "【02.】", "【03.】"), [1, 2, 3]),
        (("【01.】", "【02.】"), [None]),
    ],
)
def test_family_min(tmp_path, labels, expected):
    assert heading_choice.FAMILY_MIN == 3
    assert numbers(tmp_path, bracketed(*labels)) == expected


# FAMILY_SHARE: the numbering supports half the family, at the least
@pytest.mark.parametrize("stray, taken", [(4, True), (5, False)])
def test_family_share(tmp_path, stray, taken):
    assert heading_choice.FAMILY_SHARE == 0.5
    labels = ["【01.】", "【02.】", "【03.】", "【04.】"] + [f"【{20 * k}.】" for k in range(1, stray + 1)]
    found = numbers(tmp_path, bracketed(*labels))
    assert (found[:4] == [1, 2, 3, 4]) is taken


# LIST_GAP: numbered lines with no line between them are one list; a line between, chapters
@pytest.mark.parametrize("between, expected", [("", [None]), ("他停了一下。\n", [1, 2, 3])])
def test_list_gap(tmp_path, between, expected):
    assert heading_choice.LIST_GAP == 1
    text = BODY + "".join(f"〔{n}〕\n{between}" for n in "一二三") + BODY
    assert numbers(tmp_path, text) == expected


FIRST = Heading("chapter", "第一章 起", 1, 1)  # another rule's chapter above the family's lines


# LIST_RUN: three such lines in a row are a list; two are not (a family after another rule's chapter at line
# 1)
@pytest.mark.parametrize("run, kept", [(3, [40, 60]), (2, [10, 11, 40, 60])])
def test_list_run(run, kept):
    assert heading_choice.LIST_RUN == 3
    lines = list(range(10, 10 + run)) + [40, 60]
    family = {
        i: Heading("chapter", str(i), n, i, rule="bracketed", weak=True) for n, i in enumerate(lines, 1)
    }
    assert (
        list(
            heading_choice._without_lists(
                family, {i: i for i in range(100)}, {1: FIRST, **family}, "bracketed"
            )
        )
        == kept
    )


def test_a_first_run_over_the_chapters_is_left_to_the_contents_rule():
    """【01】 … 【04】 under a blurb, the text's 【01】 right after: the contents, not a list."""
    lines = [5, 6, 7, 8, 9, 30, 50, 70]
    family = {i: Heading("chapter", str(i), n, i, rule="arabic", weak=True) for n, i in enumerate(lines, 1)}
    assert list(heading_choice._without_lists(family, {i: i for i in range(100)}, family, "arabic")) == lines


GLUED = "第二百一十五章脚踏祥云行四海,一条竹杖伏万妖 五"


@pytest.mark.parametrize(
    "before, after, taken",
    [
        ("第二百一十四章 山高", "第二百一十六章 水长", True),  # both neighbours run on through it
        ("第二百一十四章 山高", "第二百一十七章 水长", False),  # one is not enough
        ("第二百一十三章 山高", "第二百一十六章 水长", False),
    ],
)
def test_a_title_glued_with_a_comma_needs_both_neighbours(tmp_path, before, after, taken):
    text = (
        f"第二百一十二章 甲\n{BODY}第二百一十三章 乙\n{BODY}"
        if "一十四" in before
        else f"第二百一十二章 甲\n{BODY}"
    )
    text += f"{before}\n{BODY}{GLUED}\n{BODY}{after}\n{BODY}第二百二十章 尾\n{BODY}"
    assert (215 in numbers(tmp_path, text)) is taken


@pytest.mark.parametrize(
    "line",
    [
        "第二百一十五章的故事他早已读过,此刻又想起来",  # 的 after the unit: a sentence
        "第二百一十五章他没有读完,便睡着了。",  # a full stop
    ],
)
def test_a_sentence_glued_to_a_number_stays_text(tmp_path, line):
    text = f"第二百一十四章 山高\n{BODY}{line}\n{BODY}第二百一十六章 水长\n{BODY}第二百一十七章 云深\n{BODY}"
    assert numbers(tmp_path, text) == [214, 216, 217]


def test_a_contents_of_bracketed_numbers_right_over_the_first_chapter(tmp_path):
    """A 晋江-style contents 【01】 … 【04】 under the blurb, the text's 【01】 on the next line: the
    first chapter keeps its heading (it had gone with the contents), the contents goes."""
    chapters_text = "".join(f"【0{n}】\n{BODY}这是第{n}段。\n" for n in range(1, 5))
    text = (
        "《某书》\n作者：某某\n文案：\n这是一个故事。\n"
        + "".join(f"【0{n}】\n" for n in range(1, 5))
        + chapters_text
    )
    assert numbers(tmp_path, text) == [1, 2, 3, 4]


def test_a_heading_given_three_times_one_under_another_is_no_list():
    """二十 悄立雁门 three times on its lines (a 天龙八部 download, 25 chapters so): one heading, not a
    list."""
    lines = [10, 40, 41, 42, 70]
    family = {
        i: Heading("chapter", "二十", n, i, rule="bare", weak=True)
        for i, n in zip(lines, (19, 20, 20, 20, 21))
    }
    assert (
        list(heading_choice._without_lists(family, {i: i for i in range(100)}, {1: FIRST, **family}, "bare"))
        == lines
    )


@pytest.mark.parametrize(
    "again, kept", [(["负荆行", "会藩王", "托东南"], True), (["甲", "乙", "托东南"], False)]
)
def test_a_run_whose_names_come_again_later_is_a_contents_not_a_list(again, kept):
    """●第二卷 惊风密雨 over 01　负荆行… 02　会藩王… (a volume's own contents, 康熙王朝 from one download),
    the
    chapters later as 一 负荆行 …: left to the contents rule, which drops it, not dropped as a list into the
    text.
    Two of three named again is a contents; one is not."""
    names = ["负荆行", "会藩王", "托东南"]
    family = {
        10 + k: Heading("chapter", f"0{k + 1} {n}", k + 1, 10 + k, rule="arabic", weak=True)
        for k, n in enumerate(names)
    }
    family[60] = Heading("chapter", "04 祈平安", 4, 60, rule="arabic", weak=True)
    chapters = {
        30 + k: Heading("chapter", f"{'一二三'[k]} {n}", k + 1, 30 + k, rule="bare", weak=True)
        for k, n in enumerate(again)
    }
    found = heading_choice._without_lists(
        family, {i: i for i in range(100)}, {1: FIRST, **family, **chapters}, "arabic"
    )
    assert (10 in found) is kept


@pytest.mark.parametrize("entry", ["第004回 山路", "第四回 山路", "第 四 回 山路"])
def test_a_contents_entry_given_again_in_other_numerals_is_the_contents(tmp_path, entry):
    """西游记 from one download: 第001回 … 第008回, a line of 附录, 第009回 … in the contents; 第008回 had
    become a
    chapter, its title given later as 第八回 ….: the same number and name, however the number is written."""
    names = ["入山", "遇雨", "归途", "山路", "重逢", "远行"]
    contents = "".join(f"第00{n}回 {t}\n" for n, t in enumerate(names[:3], 1)) + entry + "\n附 录某某\n"
    contents += "".join(f"第00{n}回 {t}\n" for n, t in enumerate(names[4:], 5))
    text = "".join(f"第{'一二三四五六'[n]}回 {t}\n{BODY}这是第{n}段。\n" for n, t in enumerate(names))
    assert numbers(tmp_path, "《某书》\n" + contents + text) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(
    "again, volumes",
    [
        (
            "第一卷：木兰歌 ",
            ["第一卷 木兰歌"],
        ),  # named again on the first chapter's line: the contents' entry
        ("", ["卷一 木兰歌"]),  # named nowhere else: the volume opens over its own contents
    ],
)
def test_a_volume_at_the_head_of_a_contents(tmp_path, again, volumes):
    """张居正 from one download: 目录, 卷一：木兰歌, 第一回 … in the contents, then 第一卷：木兰歌 第一回 …
    over the text."""
    names = ["病皇帝", "述病情", "主事钻营"]
    contents = "目录\n卷一：木兰歌\n" + "".join(f"第{'一二三'[n]}回　{t}\n" for n, t in enumerate(names))
    text = again + "".join(f"第{'一二三'[n]}回　{t}\n{BODY}这是第{n}段。\n" for n, t in enumerate(names))
    path = tmp_path / "novel.txt"
    path.write_text("《某书》\n" + contents + text, "utf-8")
    book = load_book(path, jobs=1).book
    assert [v.title for v in book.volumes if v.title] == volumes
    assert [c.number for c in book.chapters() if c.kind == "chapter"] == [1, 2, 3]
