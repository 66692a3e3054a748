"""Whole titles (issue 32, and issue 31's item 5): a 回目 couplet set on two lines, a heading glued to
its title, a chapter file's own title line, volumes named 上卷 … 终卷, circled chapter numbers, and a
heading with a site's advert glued on. Synthetic fixtures of the real shapes; the couplets are
儒林外史's and 三國演義's (public domain). Each table has the rows that must stay as they are."""

import zipfile

import pytest
from ebooklib import epub
from pypdf import PdfReader

from bookbuilder.check import report
from bookbuilder.check.judges import outline_titles
from bookbuilder.model import Location, Paragraph
from bookbuilder.numerals import parse_numeral
from bookbuilder.pipeline import build, load_book
from bookbuilder.structure.file_titles import says_nothing, title_line
from bookbuilder.structure.headings import candidate
from tests.conftest import write_book

TEXT = (
    "　　話說山東兗州府汶上縣有個鄉村，叫做薛家集。這集上有百十來人家，都是務農為業。\n　　又一段，"
    "說的是後來的事。\n"
)
COUPLETS = [
    ("說楔子敷陳大義", "借名流隱括全文"),
    ("王孝廉村學識同科", "周蒙師暮年登上第"),
    ("周學道校士拔真才", "胡屠戶行兇鬧捷報"),
    ("范進中舉", "胡屠戶發威"),
    ("薦亡齋和尚吃官司", "打秋風鄉紳遭橫事"),
    ("王秀才議立偏房", "嚴監生疾終正寢"),
]
NUMERALS = "一二三四五六七八九十"


def novel(tmp_path, text: str):
    path = tmp_path / "novel.txt"
    path.write_text(text, "utf-8")
    return load_book(path, jobs=1)


def contents(loaded) -> list[str]:
    return [c.title for c in loaded.book.chapters() if c.kind != "intro"]


def first_paragraphs(loaded) -> list[str]:
    return [c.blocks[0].text for c in loaded.book.chapters() if c.kind != "intro"]


def two_lines(n: int, first: str, second: str, glued: bool = False, body: str = TEXT) -> str:
    return f"第{NUMERALS[n - 1]}回{'' if glued else '　'}{first}\n{second}\n{body}"


# --- 1. a couplet on two lines -------------------------------------------------------------------


def test_a_couplet_on_two_lines_is_one_title(tmp_path):
    """The traditional-script classic's shape: most headings over their second half, some with both
    halves on one line, and later ones glued to the number (第二十六回草木連天人骨白)."""
    text = "".join(two_lines(n, a, b, glued=n >= 5) for n, (a, b) in enumerate(COUPLETS[:5], 1))
    text += f"第六回　{COUPLETS[5][0]}　{COUPLETS[5][1]}\n{TEXT}"
    loaded = novel(tmp_path, text)
    assert contents(loaded) == [f"第{NUMERALS[n]}回 {a} {b}" for n, (a, b) in enumerate(COUPLETS)]
    assert all(
        p.startswith("話說山東") for p in first_paragraphs(loaded)
    )  # the half is no paragraph, not glued to one


def test_a_couplet_over_a_chapter_with_poems(tmp_path):
    """A 回 has its 有詩為證 and a poem of short lines inside: no sections' titles, the couplet is joined."""
    body = (
        TEXT + "有詩為證\n滾滾長江東逝水\n浪花淘盡英雄\n　　眾人聽了，都笑起來。\n正是\n　　一段話。"
        "\n詩曰\n　　是非成敗轉頭空，青山依舊在。\n"
    )
    text = "".join(two_lines(n, a, b, body=body) for n, (a, b) in enumerate(COUPLETS[:4], 1))
    assert contents(novel(tmp_path, text)) == [
        f"第{NUMERALS[n]}回 {a} {b}" for n, (a, b) in enumerate(COUPLETS[:4])
    ]


def test_a_couplet_under_a_bare_label(tmp_path):
    """第一回 alone, then each half on its own line (a typeset classic): one title of both."""
    text = "".join(f"第{NUMERALS[n]}回\n{a}\n{b}\n{TEXT}" for n, (a, b) in enumerate(COUPLETS[:4]))
    assert contents(novel(tmp_path, text)) == [
        f"第{NUMERALS[n]}回 {a} {b}" for n, (a, b) in enumerate(COUPLETS[:4])
    ]


@pytest.mark.parametrize(
    "second, why",
    [
        ("「你來了。」", "a short line of dialogue"),
        ("天色已晚了", "a short first sentence, shorter than a half"),
        ("話說那日天色已晚，眾人散去", "a first sentence"),
    ],
)
def test_a_short_line_under_a_heading_stays_prose(tmp_path, second, why):
    text = "".join(two_lines(n, a, second) for n, (a, _) in enumerate(COUPLETS[:4], 1))
    loaded = novel(tmp_path, text)
    assert contents(loaded) == [f"第{NUMERALS[n]}回 {a}" for n, (a, _) in enumerate(COUPLETS[:4])], why
    assert first_paragraphs(loaded)[0].startswith(
        second
    )  # (an unfinished one is unwrapped into the next: normalize's)


def test_a_poem_that_opens_each_chapter_stays_text(tmp_path):
    """A poem's lines are as short as a half, but a half is followed by prose, a poem's line by its next
    line."""
    poem = "滾滾長江東逝水\n浪花淘盡英雄\n是非成敗轉頭空\n"
    text = "".join(f"第{NUMERALS[n]}回　{a}\n{poem}{TEXT}" for n, (a, _) in enumerate(COUPLETS[:4]))
    loaded = novel(tmp_path, text)
    assert contents(loaded) == [f"第{NUMERALS[n]}回 {a}" for n, (a, _) in enumerate(COUPLETS[:4])]
    assert first_paragraphs(loaded)[0] == "滾滾長江東逝水"


def test_the_form_must_recur(tmp_path):
    """Two of six headings over a line like a half: not the book's form, the lines stay text."""
    text = two_lines(1, *COUPLETS[0]) + two_lines(2, *COUPLETS[1])
    text += "".join(f"第{NUMERALS[n]}回　{a}\n{TEXT}" for n, (a, _) in enumerate(COUPLETS[2:], 2))
    loaded = novel(tmp_path, text)
    assert contents(loaded)[:2] == ["第一回 說楔子敷陳大義", "第二回 王孝廉村學識同科"]
    assert first_paragraphs(loaded)[:2] == ["借名流隱括全文", "周蒙師暮年登上第"]


def test_a_title_given_again_on_the_next_line_is_no_second_half(tmp_path):
    """第6章 赢者通吃, then 赢者通吃 (a download of a popular history): the same title twice, not a
    couplet."""
    titles = ["赢者通吃", "体制创新", "话说凯恩斯", "日元保卫战"]
    text = "".join(f"第{n}章 {t}\n{t}\n{TEXT}" for n, t in enumerate(titles, 1))
    loaded = novel(tmp_path, text)
    assert contents(loaded) == [f"第{n}章 {t}" for n, t in enumerate(titles, 1)]


def test_a_chapter_that_opens_with_its_first_sections_title(tmp_path):
    """第二章 疑云重重, then 始作俑者 and further on more sections' titles (a history): the short line under
    the heading is the first section's title, as the others in the chapter show; it stays a line of text."""
    chapters = [
        ("疑云重重", ["始作俑者", "修约还是制宪"]),
        ("针锋相对", ["逼上梁山", "总统难题"]),
        ("剑拔弩张", ["根本共识", "旗开得胜"]),
        ("尘埃落定", ["最后一步", "大功告成"]),
    ]
    text = "".join(
        f"第{NUMERALS[n]}章 {t}\n" + "".join(f"{s}\n{TEXT}" for s in sections)
        for n, (t, sections) in enumerate(chapters)
    )
    loaded = novel(tmp_path, text)
    assert contents(loaded) == [f"第{NUMERALS[n]}章 {t}" for n, (t, _) in enumerate(chapters)]
    assert first_paragraphs(loaded)[0] == "始作俑者"


# --- 2. a heading glued to its title -------------------------------------------------------------


@pytest.mark.parametrize(
    "line, title",
    [
        ("第二十六回草木連天人骨白", "第二十六回 草木連天人骨白"),
        ("第三回周學道校士拔真才　胡屠戶行兇鬧捷報", "第三回 周學道校士拔真才 胡屠戶行兇鬧捷報"),
        ("第12章风起云涌", "第12章 风起云涌"),
    ],
)
def test_a_glued_heading_gets_a_separator(line, title):
    assert candidate(line, 1).title == title


def test_glued_headings_in_a_running_book(tmp_path):
    text = "".join(f"第{NUMERALS[n]}回{a}　{b}\n{TEXT}" for n, (a, b) in enumerate(COUPLETS))
    assert contents(novel(tmp_path, text)) == [
        f"第{NUMERALS[n]}回 {a} {b}" for n, (a, b) in enumerate(COUPLETS)
    ]


# --- 3. a chapter file's own title line ---------------------------------------------------------

AT = Location("x.txt", 1)


def blocks(*lines):
    return tuple(Paragraph(line, Location("x.txt", k)) for k, line in enumerate(lines, 1))


@pytest.mark.parametrize(
    "stem, says_nothing_",
    [
        ("Chapter12", True),
        ("chapter_012", True),
        ("ch 3", True),
        ("12", True),
        ("012", True),
        ("第12章", True),
        ("第十二回", True),
        ("风起", False),
        ("第12章 风起", False),
        ("12 风起", False),
        ("Prelude 1", False),
        ("①即便如此", False),
    ],
)
def test_which_names_say_nothing(stem, says_nothing_):
    assert says_nothing(stem) is says_nothing_


@pytest.mark.parametrize(
    "stem, first, title",
    [
        ("Chapter1", "*說楔子敷陳大義　借名流隱括全文", "說楔子敷陳大義 借名流隱括全文"),
        ("Chapter2", "＊王孝廉村學識同科　周蒙師暮年登上第", "王孝廉村學識同科 周蒙師暮年登上第"),
        ("12", "☆风起云涌", "风起云涌"),
        ("12", "☆风起云涌☆", "风起云涌"),
        ("12", "【风起云涌】", "风起云涌"),
        ("12", "风起云涌", "风起云涌"),
        ("第12章", "风起云涌", "第12章 风起云涌"),
        (
            "Chapter1",
            "*宴桃園豪傑三結義，斬黃巾英雄首立功",
            "宴桃園豪傑三結義，斬黃巾英雄首立功",
        ),  # a marked couplet's comma
    ],
)
def test_a_files_first_line_titles_it(stem, first, title):
    got = title_line(stem, blocks(first, "　　正文第一段，很长。"))
    assert got is not None and got[0] == title and [b.text for b in got[1]] == ["　　正文第一段，很长。"]


@pytest.mark.parametrize(
    "stem, first",
    [
        ("Chapter1", "天色已晚，他推开门走了出去。"),  # the story's first line
        ("Chapter1", "「你來了。」"),
        ("Chapter1", "*他说：“走吧。”"),  # a marked sentence
        ("12", "诗曰"),
        ("12", "这一天天色阴沉沉的从早上起就没有停过雨水他一个人慢慢地走在长长的街上"),  # longer than a title
        ("风起", "风起云涌"),  # the name says something: it titles the chapter
    ],
)
def test_a_first_line_that_is_no_title(stem, first):
    assert title_line(stem, blocks(first, "　　正文第一段，很长。")) is None


def test_a_folder_of_chapter_files_titled_inside(tmp_path):
    files = {f"Chapter{n}.txt": f"*{a}　{b}\n{TEXT}" for n, (a, b) in enumerate(COUPLETS[:3], 1)}
    files["Chapter4.txt"] = "　　天色已晚，他推开门走了出去。\n　　又一段。\n"
    loaded = load_book(write_book(tmp_path / "b", files), jobs=1)
    chapters = list(loaded.book.chapters())
    assert [c.title for c in chapters] == [f"{a} {b}" for a, b in COUPLETS[:3]] + ["Chapter4"]
    assert [c.number for c in chapters] == [1, 2, 3, None]
    assert [c.file_number for c in chapters] == [1, 2, 3, 4]
    assert chapters[0].blocks[0].text.startswith("話說") and chapters[3].blocks[0].text.startswith("天色已晚")


# --- 4. volumes of every common form -------------------------------------------------------------


@pytest.mark.parametrize(
    "line, title",
    [
        ("上卷 ·美人如玉", "上卷 美人如玉"),
        ("中卷·风雨如晦", "中卷 风雨如晦"),
        ("下卷·天意如刀", "下卷 天意如刀"),
        ("终卷·刀剑如梦", "终卷 刀剑如梦"),
        ("終卷：刀劍如夢", "終卷 刀劍如夢"),
        ("末卷 尾声", "末卷 尾声"),
        ("终卷", "终卷"),
        ("上卷", "上卷"),
        ("卷一", "卷一"),
        ("卷一·潜龙", "卷一 潜龙"),
        ("卷一：潜龙", "卷一 潜龙"),
        ("卷 一 潜龙", "卷一 潜龙"),
        ("第一卷", "第一卷"),
        ("第一卷·潜龙", "第一卷 潜龙"),
        ("第一卷：潜龙", "第一卷 潜龙"),
        ("第一卷 潜龙", "第一卷 潜龙"),
        ("第一部", "第一部"),
        ("第一部·潜龙", "第一部 潜龙"),
        ("第一季", "第一季"),
        ("第一季：潜龙", "第一季 潜龙"),
    ],
)
def test_volume_lines(line, title):
    heading = candidate(line, 1)
    assert heading.kind == "volume" and heading.title == title and not heading.weak


@pytest.mark.parametrize("line", ["第一卷 名为“寂灭针”。", "下卷帘子", "终卷了", "终卷起袖子走了"])
def test_volume_look_alikes_are_prose(line):
    assert candidate(line, 1) is None


def test_four_named_volumes(tmp_path):
    text = ""
    for k, volume in enumerate(["上卷 ·美人如玉", "中卷·风雨如晦", "下卷·天意如刀", "终卷·刀剑如梦"]):
        text += f"{volume}\n" + "".join(
            f"第{NUMERALS[2 * k + j]}章 标题\n　　他走进门来，说了一句话。\n" for j in range(2)
        )
    text += "　　他说起那本书。\n第一卷 名为“寂灭针”。\n　　这是后话。\n"
    loaded = novel(tmp_path, text)
    assert [v.title for v in loaded.book.volumes] == [
        "上卷 美人如玉",
        "中卷 风雨如晦",
        "下卷 天意如刀",
        "终卷 刀剑如梦",
    ]
    last = loaded.book.volumes[-1].chapters[-1]
    assert "第一卷 名为“寂灭针”。" in [b.text for b in last.blocks]  # the prose line stays in its chapter


def test_a_named_volume_before_its_chapter_on_one_line():
    heading = candidate("终卷·刀剑如梦 第五章 刀剑", 1)
    assert (heading.title, heading.volume, heading.number) == ("第五章 刀剑", "终卷 刀剑如梦", 5)


# --- circled numbers: the title as printed ------------------------------------------------------


@pytest.mark.parametrize("numeral, number", [("①", 1), ("⑨", 9), ("①⓪", 10), ("①①⑥", 116)])
def test_circled_chapter_numbers(numeral, number):
    assert parse_numeral(numeral) == number
    heading = candidate(f"第{numeral}章", 1)
    assert (heading.title, heading.number) == (f"第{numeral}章", number)


def test_a_book_numbered_in_circled_digits_keeps_its_titles(tmp_path):
    numerals = ["①", "②", "③", "④", "①⓪"]
    loaded = novel(
        tmp_path, "".join(f"第{n}章\n　　他走进门来，说了一句话。\n　　又一段。\n" for n in numerals)
    )
    assert contents(loaded) == [f"第{n}章" for n in numerals]


# --- issue 31 item 5: a heading with a site's advert glued on -----------------------------------


@pytest.mark.parametrize(
    "line, title",
    [
        (
            "第19章 论玉魄【http://www.example58.com】某58百度云搜索资源，搜小说，搜电影就是好用。",
            "第19章 论玉魄",
        ),
        ("第83章 救百度云搜索,搜小说就是方便  http://www.example58.com", "第83章 救"),
        ("第7章 夜雨【ｗｗｗ．ｅｘａｍｐｌｅ．ｃｏｍ 手机阅读】", "第7章 夜雨"),
        ("第8章 重逢 (www.example.org)", "第8章 重逢"),
        ("第9章 归来 请记住本站网址：www.example.net", "第9章 归来"),
        # no advert: a title with a site-like word and no URL, a URL that is the story's title
        ("第5章 下载", "第5章 下载"),
        ("第21章 www.example.com", "第21章 www.example.com"),
        ("第12章 输入www.example.com之后", "第12章 输入www.example.com之后"),
    ],
)
def test_a_heading_is_judged_without_its_advert(line, title):
    heading = candidate(line, 1)
    assert heading is not None and not heading.weak and heading.title == title


@pytest.mark.parametrize(
    "line, title",
    [
        (
            "54 善于以“长”取胜的广告wωw奇Xxx書còm网",
            "54 善于以“长”取胜的广告",
        ),  # a disguised domain (a real book's two titles)
        ("第3章 夜行 手机阅读 m.example.com", "第3章 夜行"),
    ],
)
def test_a_disguised_or_bare_site_address_leaves_the_title(line, title):
    assert candidate(line, 1).title == title


def test_a_chapter_with_an_advert_on_its_heading_is_not_merged(tmp_path):
    lines = [
        "第18章 开头",
        "第19章 论玉魄【http://www.example58.com】某58百度云搜索资源，搜小说，搜电影就是好用。",
        "第20章 下载",
        "第21章 救百度云搜索,搜小说就是方便  http://www.example58.com",
        "第22章 结尾",
    ]
    loaded = novel(tmp_path, "".join(f"{h}\n　　他走进门来，说了一句话。\n　　又一段。\n" for h in lines))
    assert contents(loaded) == ["第18章 开头", "第19章 论玉魄", "第20章 下载", "第21章 救", "第22章 结尾"]


# --- the same whole titles in every format -------------------------------------------------------


def test_epub_kepub_and_pdf_carry_the_whole_couplet_titles(tmp_path):
    text = "".join(two_lines(n, a, b) for n, (a, b) in enumerate(COUPLETS[:4], 1))
    root = write_book(tmp_path / "b", {"novel.txt": text}, '[book]\ntitle = "儒林外史"\n')
    loaded = load_book(root, jobs=1)
    want = [f"第{NUMERALS[n]}回 {a} {b}" for n, (a, b) in enumerate(COUPLETS[:4])]
    assert contents(loaded) == want
    shown = report.toc_text(loaded.book, loaded.diagnostics)
    assert all(title in shown for title in want)  # `bookbuilder toc` shows each whole
    made = {fmt: build(loaded, fmt, jobs=1)[0] for fmt in ("epub", "kepub", "pdf")}
    for fmt in ("epub", "kepub"):
        book = epub.read_epub(str(made[fmt]))
        assert [link.title for link in book.toc if link.title != "内容简介"] == want, fmt
        with zipfile.ZipFile(made[fmt]) as z:
            nav = z.read("EPUB/nav.xhtml").decode()
        assert all(title in nav for title in want)
    assert [t for t in outline_titles(PdfReader(str(made["pdf"]))) if t in want] == want


@pytest.mark.parametrize(
    "line, title",
    [
        # a site's label, then the title that opens with it again (水浒传 from 书香屋): once
        ("楔子 楔子　张天师祈禳瘟疫　洪太尉误走妖魔", "楔子 张天师祈禳瘟疫 洪太尉误走妖魔"),
        ("第一章 第一章 风起", "第一章 风起"),
        ("第一回 第一回", "第一回"),
        # what stays: a title that opens with the label's characters, another label, a word
        ("楔子 楔子里的人", "楔子 楔子里的人"),
        ("第一章 第一章节", "第一章 第一章节"),
        ("第一章 第二章 风起", "第一章 第二章 风起"),
        ("第十章 十年 十年", "第十章 十年 十年"),
    ],
)
def test_a_label_given_twice_is_written_once(line, title):
    assert candidate(line, 1).title == title
