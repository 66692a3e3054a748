"""Numbering as evidence (docs/rules-notes.md, "Numbering as evidence"): a line that carries the
next number in any form, at a plausible place, heads its chapter even without its unit or its
gap; where the numbering does not run on through it, the same line stays text, whole.

Synthetic files of the real shapes: 桐华's `Chapter 1这么多年…` (an English label glued to its
first sentence, and once to the end of the paragraph before), a data set's 水浒传 in 161 段 glued
to their text by two spaces (the first behind the book's name), 杀死那个白月光's `第50章 终`, 三国演义's
`第一百回` misprinted between 第一零九回 and 第一一一回, 有情天's `一、` alone."""

import pytest

from bookbuilder.numerals import parse_numeral
from bookbuilder.pipeline import load_book
from bookbuilder.structure.heading_forms import reads_as_text
from bookbuilder.structure.headings import Heading, candidate
from bookbuilder.structure.runs_through import misprinted, zeros_lost, zeros_restored

BODY = "他走进院子，看见一棵老树。\n树下坐着一个老人，正在看书。\n老人抬起头来，笑了一笑。\n"
LONG = "这么多年，我一直在学习一件事情，就是不回头，只为自己没有做过的事情后悔，不为自己做过的事情后悔"


def read(tmp_path, text: str):
    path = tmp_path / "novel.txt"
    path.write_text(text, "utf-8")
    return load_book(path, jobs=1).book


def chapters(tmp_path, text: str) -> list[tuple[int | None, str]]:
    return [
        (c.number, c.title) for v in read(tmp_path, text).volumes for c in v.chapters if c.kind == "chapter"
    ]


def paragraphs(tmp_path, text: str) -> list[str]:
    return [b.text for v in read(tmp_path, text).volumes for c in v.chapters for b in c.blocks if b.text]


def numbered(start: int, stop: int, unit: str = "章") -> str:
    return "".join(f"第{n}{unit} 风起{n}\n{BODY}" for n in range(start, stop))


# ---- a number without its unit, between N-1 and N+1


def test_a_number_without_its_unit_fills_the_gap_it_runs_through(tmp_path):
    text = numbered(8, 11) + f"第十一 风起\n{BODY}" + numbered(12, 14)
    assert [n for n, _ in chapters(tmp_path, text)] == [8, 9, 10, 11, 12, 13]


@pytest.mark.parametrize(
    "where",
    [
        numbered(8, 11) + f"第十一 风起\n{BODY}" + numbered(11, 13),  # chapter 11 is there: a second 11
        numbered(8, 11) + f"第十一 风起\n{BODY}" + numbered(13, 15),  # not the missing number
        numbered(8, 11) + f"第十一 风起\n{BODY}第十一 云涌\n{BODY}" + numbered(12, 14),  # two in the gap
        numbered(8, 11) + "第十一 风起\n" + numbered(12, 14),  # no text of its own after it
    ],
)
def test_a_number_without_its_unit_stays_text_where_the_numbering_does_not_support_it(tmp_path, where):
    assert "第十一 风起" not in [t for _, t in chapters(tmp_path, where)]
    assert "第十一 风起" in paragraphs(tmp_path, where)


def test_a_misprinted_number_fills_its_gap_with_the_number_it_stands_for(tmp_path):
    text = (
        "".join(f"第一零{d}回 某甲{d}\n{BODY}" for d in "七八九")
        + f"第一百回 文鸯单骑退雄兵,姜维背水破大敌\n{BODY}"
    )
    text += "".join(f"第一一{d}回 某乙{d}\n{BODY}" for d in "一二")
    found = chapters(tmp_path, text)
    assert [n for n, _ in found] == [107, 108, 109, 110, 111, 112]
    assert found[3][1] == "第一百回 文鸯单骑退雄兵，姜维背水破大敌"  # as printed


@pytest.mark.parametrize(
    "title, number, misprint",
    [
        ("第一百回", 110, True),  # 一百一十 with 一十 left out
        ("第四十八章", 148, True),  # 大唐再起's 百 left out
        ("第15章", 115, True),
        ("第一百二十回", 110, False),  # a character that is not there
        ("第一百一十回", 110, False),  # the number itself: no misprint
        ("第五回", 110, False),
    ],
)
def test_misprinted(title, number, misprint):
    assert misprinted(title, number) is misprint


# ---- an English label glued to its first sentence, or after the paragraph before


def english(numbers, glue=LONG) -> str:
    return "".join(f"Chapter {n}{glue}{n}。\n{BODY}" for n in numbers)


def test_an_english_label_glued_to_its_first_sentence_heads_the_chapter(tmp_path):
    text = "那些年\n作者：某甲\n\n" + english(range(1, 5))
    assert [t for _, t in chapters(tmp_path, text)] == ["Chapter 1", "Chapter 2", "Chapter 3", "Chapter 4"]
    assert f"{LONG}3。" in paragraphs(tmp_path, text)  # the sentence whole, its chapter's first paragraph


def test_a_label_after_a_finished_sentence_heads_the_next_chapter(tmp_path):
    text = (
        english([1])
        + "一切的因果都要追溯到生命最开始的地方……Chapter 2青春在哪里？\n"
        + BODY
        + english([3, 4])
    )
    found = chapters(tmp_path, text)
    assert [n for n, _ in found] == [1, 2, 3, 4]
    assert "一切的因果都要追溯到生命最开始的地方……" in paragraphs(tmp_path, text)  # chapter 1's last line


@pytest.mark.parametrize(
    "line",
    [
        f"Chapter 3因为{LONG}。",  # glued to prose, in a book whose chapters are 第N章
        "老师说过。Chapter 3是全书最难的一章，他读了三遍。",  # after a sentence, no numbering
    ],
)
def test_an_english_label_in_a_sentence_stays_in_its_paragraph_whole(tmp_path, line):
    text = numbered(1, 3) + line + "\n" + BODY + numbered(3, 5)
    assert [n for n, _ in chapters(tmp_path, text)] == [1, 2, 3, 4]
    assert line in paragraphs(tmp_path, text)


def test_a_short_title_after_an_english_label_is_its_title():
    assert not reads_as_text("青春在哪里？")
    assert candidate("Chapter 2青春在哪里？", 1).title == "Chapter 2 青春在哪里？"
    assert candidate(f"Chapter 1{LONG}", 1).rest == LONG


# ---- a unit no rule names, in a family that counts on


def segments(count: int, name: str = "水浒传") -> str:
    story = "话说大宋仁宗天子在位，嘉祐三年三月三日五更三点，天子驾坐紫宸殿，受百官朝贺。  " * 6
    return "".join(
        f"{name if n == 1 else ''}第{label}段  {story}\n"
        for n, label in enumerate(("一", "二", "三", "四", "五")[:count], 1)
    )


def test_a_family_of_an_unnamed_unit_glued_by_two_spaces_is_the_chapters(tmp_path):
    found = chapters(tmp_path, segments(5))
    assert [t for _, t in found] == ["第一段", "第二段", "第三段", "第四段", "第五段"]


def test_the_books_name_before_its_first_heading_on_line_one_is_not_the_title(tmp_path):
    book = read(tmp_path, segments(4))
    assert [c.title for c in book.volumes[0].chapters if c.kind == "chapter"][0] == "第一段"
    assert "水浒传" in [b.text for c in book.volumes[0].chapters for b in c.blocks]  # kept, before it


@pytest.mark.parametrize(
    "line", ["第一次", "第三天", "第三者", "第一线", "第二步 烧水"]
)  # 第一册 is a volume
def test_ordinals_of_prose_are_no_unit(line):
    assert candidate(line, 1) is None


def test_a_family_of_an_unnamed_unit_in_a_book_of_chapters_stays_text(tmp_path):
    inside = "".join(f"第{n}层 心如游丝{n}\n{BODY}" for n in range(1, 4))
    text = numbered(1, 4) + "".join(f"第{n}段\n{BODY}" for n in range(1, 4)) + numbered(4, 6)
    assert [n for n, _ in chapters(tmp_path, text + inside)] == [1, 2, 3, 4, 5]


# ---- a chapter titled 终, and the end of a chapter


def test_a_chapter_titled_as_an_end_mark_runs_on(tmp_path):
    text = numbered(47, 50) + f"第50章 终\n{BODY}" + numbered(51, 53)
    assert (50, "第50章 终") in chapters(tmp_path, text)


def test_end_marks_over_each_next_heading_are_no_chapters(tmp_path):
    """金鳞岂是池中物 from one download: every chapter closes with 第N章完, and a heading or two is
    glued into its text: the end mark of a chapter whose heading is lost stands right over the next
    heading, or over an editor's note of a few lines, not over a chapter's text."""
    text = "".join(f"第{n}章 风起{n}\n{BODY * 4}第{n}章完\n" for n in range(1, 4))
    text += f"{BODY * 4}第4章完\n编者话：我想我肯定是属于愤青一类的。\n"
    text += "".join(f"第{n}章 风起{n}\n{BODY * 4}第{n}章完\n" for n in range(5, 7))
    assert [n for n, _ in chapters(tmp_path, text)] == [1, 2, 3, 5, 6]


def test_the_end_of_a_chapter_stays_text(tmp_path):
    text = numbered(1, 3) + f"第3章 风起3\n{BODY}第3章 完\n" + numbered(4, 6)
    assert [n for n, _ in chapters(tmp_path, text)] == [1, 2, 3, 4, 5]  # (the mark is junk.toml's)


# ---- odd forms of the number


def test_numbers_in_odd_forms_run_on(tmp_path):
    text = f"第一一八回 甲\n{BODY}第一一九回 乙\n{BODY}第一二零回 丙\n{BODY}"
    assert [n for n, _ in chapters(tmp_path, text)] == [118, 119, 120]
    text = f"第１０章 甲\n{BODY}第１１章 乙\n{BODY}第１２章 丙\n{BODY}"
    assert chapters(tmp_path, text) == [(10, "第10章 甲"), (11, "第11章 乙"), (12, "第12章 丙")]


def test_a_bare_numeral_with_its_mark_alone_is_a_chapter_family(tmp_path):
    text = "有情天\n" + "".join(f"{n}、\n{BODY * 4}" for n in "一二三四五")
    assert [t for _, t in chapters(tmp_path, text)] == ["一、", "二、", "三、", "四、", "五、"]


def test_a_list_of_bare_numerals_with_their_marks_stays_text(tmp_path):
    text = numbered(1, 3) + "一、\n二、\n三、\n" + BODY + numbered(3, 5)
    assert [n for n, _ in chapters(tmp_path, text)] == [1, 2, 3, 4]


def test_a_title_with_a_comma_heads_its_chapter_where_the_numbering_runs_backward_through_it(tmp_path):
    """一念永恒 from a scrape that wrote the last chapters newest first: 第1312章, 第1311章 一念，永恒 (a weak
    candidate: a comma in its title), 第1310章; with the numbering going on past it one way only
    (第1312章 before it, 第1315章 after) the line stays the text it reads as."""
    down = "".join(f"第{n}章 风起{n}\n{BODY}" for n in (1313, 1312)) + f"第1311章 一念，永恒\n{BODY}"
    tail = "".join(f"第{n}章 风起{n}\n{BODY}" for n in (1310, 1309))
    assert [n for n, _ in chapters(tmp_path, down + tail)] == [1313, 1312, 1311, 1310, 1309]
    bent = "".join(f"第{n}章 风起{n}\n{BODY}" for n in (1313, 1312)) + f"第1311章 一念，永恒\n{BODY}"
    bent += "".join(f"第{n}章 风起{n}\n{BODY}" for n in (1315, 1316))
    assert 1311 not in [n for n, _ in chapters(tmp_path, bent)]


@pytest.mark.parametrize(
    "title, number, left_out",
    [
        ("第一回 徑回東土", 100, True),  # 第一〇〇回, its 〇 lost
        ("第一回 老龍王拙計", 10, True),  # 第一〇回
        ("第一一回 某某", 101, True),  # 第一〇一回
        ("第三回 某某", 10, False),
        ("第二回 某某", 10, False),
    ],
)
def test_a_number_written_digit_by_digit_with_its_zeros_left_out(title, number, left_out):
    assert misprinted(title, number) is left_out


@pytest.mark.parametrize(
    "title, number, lost",
    [
        ("第一回 甲", 10, True),
        ("第一回 甲", 100, True),
        ("第一一回 甲", 110, True),
        ("第一一回 甲", 101, True),
    ]
    + [("第一回 甲", 11, False), ("第十回 甲", 10, False), ("第一回 甲", 2, False)],
)
def test_a_number_with_every_zero_lost_and_nothing_else(title, number, lost):
    assert zeros_lost(title, number) is lost


def digitwise_book(labels: list[str]) -> dict[int, Heading]:
    return {k: Heading("chapter", f"第{w}回 题{k}", parse_numeral(w), k) for k, w in enumerate(labels)}


def test_an_edition_numbered_digit_by_digit_is_numbered_as_it_stands():
    labels = ["八", "九", "一", "一一", "一二", "一三"]  # 第一〇回 with its 〇 lost
    assert [h.number for h in zeros_restored(digitwise_book(labels)).values()] == [8, 9, 10, 11, 12, 13]


def test_a_book_numbered_the_usual_way_keeps_its_restart():
    labels = ["八", "九", "一", "二", "三", "四"]  # a second part from 第一回
    assert [h.number for h in zeros_restored(digitwise_book(labels)).values()] == [8, 9, 1, 2, 3, 4]
    usual = ["八", "九", "一", "十一", "十二", "十三"]  # 十一: the usual form, no edition by digits
    assert [h.number for h in zeros_restored(digitwise_book(usual)).values()] == [8, 9, 1, 11, 12, 13]


PART_NAMES = ["轻与重", "灵与肉", "误解的词", "灵与肉", "轻与重"]


def parts_with_sections(parts: int, sections: int = 4, last_sections: int | None = None) -> str:
    """昆德拉's 生命中不能承受之轻 as a download sets it: parts 一、轻与重 …, each divided into
    sections numbered 1, 2, 3 … again from 1, the last part's `last_sections` of them."""
    text = ""
    for p in range(parts):
        text += f"{'一二三四五六七'[p]}、{PART_NAMES[p % len(PART_NAMES)]}\n"
        n = sections if p < parts - 1 or last_sections is None else last_sections
        text += "".join(f"{s}\n{BODY}" for s in range(1, n + 1))
    return text


def test_sections_numbered_again_under_each_part_are_the_parts_text(tmp_path):
    found = chapters(tmp_path, parts_with_sections(4, last_sections=5))
    assert [title for _, title in found] == ["一 轻与重", "二 灵与肉", "三 误解的词", "四 灵与肉"]


def test_a_heading_s_number_alone_under_it_is_its_repeat_and_stays_a_look_alike(tmp_path):
    """一、轻与重 then 1 alone, and no 2 after it: h given again in digits, not one of a run."""
    text = "".join(f"{n}、{PART_NAMES[k]}\n{k + 1}\n{BODY * 2}" for k, n in enumerate("一二三"))
    assert len(chapters(tmp_path, text)) == 3


def test_a_report_s_outline_inside_chapters_takes_no_chapter_after_it():
    """三体's 红岸 reports: outlines (一 … 五, with 1 … 4 under them) inside chapters 12 and 13, whose
    chapters are 1 疯狂年代 … 35 尾声: the items are text, and the chapters after the last outline
    (14 … 16) stay chapters though its last items (1, 2) number on in the chapters' own form."""
    from bookbuilder.structure.heading_choice import _without_inner_items

    def weak(rule: str, number: int, title: str) -> Heading:
        return Heading("chapter", title, number, 0, rule=rule, weak=True)

    outline = [weak("bare", n, f"{n} 报告") for n in range(1, 6)] + [
        weak("arabic", n, f"{n} 纲") for n in (1, 2)
    ]
    found = [weak("arabic", 12, "12 红岸之二"), *outline, weak("arabic", 13, "13 红岸之三"), *outline]
    found += [weak("arabic", n, f"{n} 红岸之{n}") for n in (14, 15, 16)]
    kept = _without_inner_items(dict(enumerate(found)))
    assert [h.title for h in kept.values()] == [
        "12 红岸之二",
        "13 红岸之三",
        "14 红岸之14",
        "15 红岸之15",
        "16 红岸之16",
    ]
