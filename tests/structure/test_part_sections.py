"""Sections titled in brackets under parts with no chapters (structure/part_sections.py): 三体III's
第一部 … 第六部, each opening with `【公元1453年5月,魔法师之死】`; and a story's bracketed lines."""

import pytest

from bookbuilder.structure import sections
from bookbuilder.structure.part_sections import MIN_TEXT_AFTER

PROSE = "　　天色将晚，城门已闭，行人匆匆赶路，谁也不说一句话，只听得脚步声在石板路上响着走远。\n"
ERAS = ["危机纪元元年,生命选项", "威慑纪元12年,青铜时代号", "广播纪元7年,程心", "掩体纪元67年,冥王星"]


def parted(
    parts: int = 3,
    per_part: int = 2,
    text_after: int = MIN_TEXT_AFTER,
    opening: int | None = None,
    chapters: bool = False,
) -> str:
    """A book of `parts` parts (第一部 …), each holding `per_part` bracketed section titles with
    `text_after` lines of text under each. `opening` of the parts (all by default) open with their
    first title; the others with a line of text. `chapters`: each part's text under 第N章 headings."""
    text = "　　三体\n\n" + PROSE * 4
    opening = parts if opening is None else opening
    for p in range(parts):
        text += f"\n　　第{'一二三四五六'[p]}部\n\n"
        if p >= opening:
            text += PROSE
        for s in range(per_part):
            if chapters:
                text += f"　　第{p * per_part + s + 1}章 风起\n"
            text += f"　　【{ERAS[(p + s) % len(ERAS)]}】\n" + PROSE * text_after
    return text


def found(text: str) -> list[tuple[str, str]]:
    """(volume, chapter title) of each chapter the reading makes of the text."""
    cut = sections.split_sections(text, "三体.txt")[0]
    return [(s.heading.kind, s.heading.title) for s in cut if s.heading]


def section_count(text: str) -> int:
    return sum(title.startswith("【") for kind, title in found(text) if kind == "chapter")


def test_bracketed_titles_opening_parts_with_no_chapters_are_the_parts_chapters():
    assert found(parted(parts=2)) == [
        ("volume", "第一部"),
        ("chapter", "【危机纪元元年,生命选项】"),
        ("chapter", "【威慑纪元12年,青铜时代号】"),
        ("volume", "第二部"),
        ("chapter", "【威慑纪元12年,青铜时代号】"),
        ("chapter", "【广播纪元7年,程心】"),
    ]


def test_a_part_that_does_not_open_with_one_still_has_them_where_most_parts_do():
    assert section_count(parted(parts=3, opening=2)) == 6  # 三体III's 第一部 opens with a preface


def test_one_part_alone_is_no_layout_of_the_book():
    assert section_count(parted(parts=1)) == 0


def test_where_fewer_than_half_the_parts_open_with_one_the_brackets_are_text():
    assert section_count(parted(parts=3, opening=1)) == 0
    assert section_count(parted(parts=2, opening=1)) == 4  # one of two: half


def test_a_story_s_bracketed_lines_in_parts_with_chapters_stay_text():
    assert section_count(parted(parts=3, chapters=True)) == 0


def test_bracketed_lines_with_little_text_under_them_stay_text():
    """A system's messages 【叮！…】 come close together; a section has its text under it."""
    assert section_count(parted(parts=3, text_after=MIN_TEXT_AFTER - 1)) == 0


def test_a_site_s_bracketed_line_is_no_title():
    text = parted(parts=2).replace("【危机纪元元年,生命选项】", "【手机TXT小说下载网（www.sjtxt.com）】")
    titles = [title for _, title in found(text)]
    assert "【手机TXT小说下载网（www.sjtxt.com）】" not in titles and "【广播纪元7年,程心】" in titles


# ---- parts titled in brackets right above their first chapter (structure/bracketed_parts.py)
PART_NAMES = ["洗心怀，故人在", "奉宸殿，韶光渐", "血冠礼，暗宫廷", "黄粱梦，笼中心"]


def bracketed_book(parts: int = 2, chapters_each: int = 3, name=lambda p: f"【{PART_NAMES[p]}】") -> str:
    """坤宁's layout: a prologue, then `parts` parts, each a bracketed name alone over its first chapter."""
    text, n = "第1章 晴阳覆雪\n" + PROSE * 3, 1
    for p in range(parts):
        for c in range(chapters_each):
            n += 1
            text += (name(p) + "\n" if c == 0 else "") + f"第{n}章 风起{n}\n" + PROSE * 3
    return text


def test_bracketed_names_right_above_chapters_are_the_book_s_parts():
    found_ = found(bracketed_book())
    assert [t for kind, t in found_ if kind == "volume"] == ["【洗心怀，故人在】", "【奉宸殿，韶光渐】"]
    assert len([t for kind, t in found_ if kind == "chapter"]) == 7


@pytest.mark.parametrize(
    "text",
    [
        bracketed_book(parts=1),  # one alone: the book's layout is not seen in one
        bracketed_book(name=lambda p: "【求月票！】"),  # an author's note above the next chapter
        bracketed_book(name=lambda p: f"【今天{'一二'[p]}更】"),
        bracketed_book(
            name=lambda p: ["【晚上还有一章~】", "【精彩明天继续！别人邀请我跨年】"][p]
        ),  # a sentence
        bracketed_book(
            name=lambda p: f"【{'这章字数蛮多，精彩明天继续，书友们的票记得都给我'[p:]}】"
        ),  # long
        bracketed_book(name=lambda p: "【洗心怀，故人在】"),  # the same line twice: a refrain, not names
        bracketed_book(parts=4, chapters_each=2),  # over every other chapter: more than a part's share
        # an author's short notes above chapters, among many more of them at chapters' ends
        bracketed_book(name=lambda p: ["【还有一章】", "【晚点应该还有的】"][p]).replace(
            PROSE, PROSE + "【今天有事】\n" + PROSE, 3
        ),
    ],
)
def test_bracketed_lines_that_are_no_parts_stay_text(text):
    assert not [t for kind, t in found(text) if kind == "volume"]
