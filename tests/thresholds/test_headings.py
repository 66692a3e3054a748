"""Thresholds of what is a heading (structure/headings.py, heading_choice.py, few_headings.py,
pastes.py): a heading line's length, the choice among a file's candidates by its numbering,
the headings the rules missed, and headings in forum pastes and in a book run into one line."""

import pytest

from bookbuilder.numerals import digit_by_digit, parse_numeral
from bookbuilder.structure import (
    edition_matter,
    few_headings,
    heading_choice,
    heading_forms,
    headings,
    pastes,
    runs_through,
    sections,
)
from bookbuilder.structure.headings import Heading
from tests.structure.test_numbering_evidence import parts_with_sections
from tests.thresholds.rows import PROSE, Threshold, as_lines, han_number, titles_in


def _heading(line: str):
    """None, "weak" or "strong": what the rules make of a heading line."""
    found = headings.candidate(line, 1)
    return None if found is None else ("weak" if found.weak else "strong")


def _bare_family(n: int) -> int:
    """How many of n headings 一 风起, 二 风起 … (weak: bare numerals) are taken."""
    text = "".join(
        f"{'一二三四五六七八九'[i]} 风起\n\n" + "这是一段正文，写得很长很长很长。\n\n" * 6 for i in range(n)
    )
    return len(titles_in(text))


def _margin_book(lines: int) -> int:
    """How many of three margin titles are taken in a file of this many non-blank lines."""
    per, extra = divmod(lines - 3, 3)
    return len(
        titles_in(
            "".join(t + "\n" + PROSE * (per + (i < extra)) for i, t in enumerate(["风起", "云涌", "雨落"]))
        )
    )


def _bare_after_own(k: int) -> int:
    """How many of four bare-numbered headings (一 风起 …) are taken after k 第N章 headings."""
    prose = "这是一段正文，写得很长很长很长。\n\n" * 6
    text = "".join(f"第{c}章 开端\n\n" + prose for c in "一二三四五"[:k])
    text += "".join(f"{c} 风起\n\n" + prose for c in "一二三四")
    return len(titles_in(text)) - k


def _heading_cut_from(rest: str) -> bool:
    """Whether 第一章 风起, a paste's gap, then `rest` is cut into a heading and its text."""
    return pastes.heading_then_text("第一章 风起　　" + rest, 1, None, ()) is not None


def _glued_book(numbers: list[int], size: int = 5001, preface: str = "", title: str = "風起雲湧") -> str:
    """A book run into one line of `size` characters: its 第N回 labels (these numbers), each glued to its
    title and the 話說 that opens its text, and the text ending in a sentence."""
    heads = [f"第{han_number(k)}回{title}話說" for k in numbers]
    body = (size - len(preface) - sum(map(len, heads))) // len(numbers)
    line = preface + "".join(h + "天" * (body - 1) + "。" for h in heads)
    return line + "天" * (size - len(line))


def _glued_headings(line: str) -> list[str]:
    """The headings pastes.glued_chapters cuts a line into (none: it is no book run together)."""
    return [text for heading, text in pastes.glued_chapters(line) or () if heading]


def _bare(line: int, number: int, title: str = "风起") -> Heading:
    """A bare-numbered candidate (一 风起), weak: the numbering must support it."""
    return Heading("chapter", f"{number} {title}", number, line, rule="bare", weak=True)


def _list_dropped(lines: list[int]) -> bool:
    """Whether heading_choice drops as a list some of bare headings 1, 2, 3 … standing on these lines
    (the lines between them all text)."""
    family = {i: _bare(i, k + 1, "风云雨雪花月星山水火"[k]) for k, i in enumerate(lines)}
    return len(heading_choice._without_lists(family, {i: i for i in family}, family, "bare")) < len(family)


def _inner_left(n: int) -> int:
    """How many of 第十四章, n bare-numbered items (1, 2, 3, 1 …) and 第十五章 are left as chapters."""
    found = {0: Heading("chapter", "第十四章 风起", 14, 0)}
    found.update((k, _bare(k, (k - 1) % 3 + 1)) for k in range(1, n + 1))
    found[n + 1] = Heading("chapter", "第十五章 云涌", 15, n + 1)
    return len(heading_choice._without_inner_items(found))


def _numbering_stopped(lines: int, gap: int = 10) -> int:
    """How many of four bare headings `gap` lines apart are taken between 第一章 and 第二章 this many
    lines on, in a book with 第N章 headings of its own."""
    found = {0: Heading("chapter", "第一章 风起", 1, 0), 9999: Heading("chapter", "第二章 云涌", 2, 9999)}
    family = {i: _bare(i, k + 1) for k, i in enumerate(range(100, 100 + 4 * gap, gap))}
    before = {0: 0, 9999: lines} | {i: i for i in family}
    return len(heading_choice._where_numbering_stops(found, family, before))


def _edition_preface(n: int) -> list[str]:
    """The headings' titles of a file whose preface's name (某…某版序) is n characters long."""
    name = "某" * (n - 2) + "版序"
    return titles_in(f"{name}\n" + PROSE * 3 + "".join(f"第{k}回 风起\n" + PROSE * 3 for k in "一二三"))[:1]


def _numerals_apart(chars: int) -> int:
    """How many of four numbers alone on their lines (一 … 四), each over six lines of text of
    `chars` characters in all, are taken for headings."""
    size, extra = divmod(chars - 1, 6)  # the number's own line is one character of them
    lines = ["某" * (size - 1 + (k == 0) * extra) + "。\n" for k in range(6)]
    return len(titles_in("".join(f"{n}\n" + "".join(lines) for n in "一二三四")))


def _starred_taken(titles: list[str], lines: int = 5) -> int:
    """How many starred titles (★青蛙王子 …), each over this many lines of text, are taken."""
    return len(titles_in("".join(f"★{t}\n" + "正文一句话说完了。\n" * lines for t in titles)))


def _distinct_starred(share: float) -> int:
    """How many of ten starred titles are taken where this share of them are different (the rest 简,
    an author's name over every essay)."""
    k = round(share * 10) - 1
    titles = [f"故事{'甲乙丙丁戊己庚辛壬癸'[j]}" for j in range(k)] + ["简"] * (10 - k)
    family = {
        10 * j: Heading("chapter", t, None, 10 * j, rule="starred", weak=True) for j, t in enumerate(titles)
    }
    return len(heading_choice._spread_out(family, {i: i for i in family}))


def _family_share(share: float) -> int:
    """How many bare headings are taken where 一 二 三 四 run on and stray ones (九十, 八十 …) make
    the four this share of the family."""
    numbers = [1, 2, 3, 4] + [90, 80, 70, 60, 50, 40, 30][: int(4 / share + 1e-9) - 4]
    prose = "这是一段正文，写得很长很长很长。\n\n" * 6
    return len(
        titles_in(
            "".join(
                f"{han_number(k)} {'风云雨雪花月星山水火'[j]}起\n\n" + prose for j, k in enumerate(numbers)
            )
        )
    )


def _behind_a_name(n: int, times: int = 3) -> int:
    """How many of `times` lines of n characters, a name then a heading (甲乙丙丁戊己庚辛壬癸 第一章 风…),
    are taken for headings behind the name."""
    texts = []
    for c in "一二三四五"[:times]:
        line = f"甲乙丙丁戊己庚辛壬癸 第{c}章 "
        texts += [line + "风" * (n - len(line)), "正文一句话。", "正文二句话。"]
    return len(few_headings._behind_the_name(as_lines(texts), (), "book"))


def _serial_taken(k: int, text_lines: int = 5) -> int:
    """How many of k titles of a series after the book's last chapter (一个普通人的日常（一）…), each
    over this many lines of text, are taken."""
    texts = ["第九十章 终局", "正文。"]
    for j in range(k):
        texts += [f"一个普通人的日常（{'一二三四五'[j]}）"] + ["正文一句话。"] * text_lines
    return len(few_headings._serial_after_the_end(as_lines(texts), 0))


def _long_chapter(lines: int, usual: int = 10) -> int:
    """How many headings a book finds whose chapters run `usual` lines but one `lines` long, which holds
    three headings glued behind the book's name (诛仙六 第六章 雨落): they are looked for there only
    where it is far longer than the others."""
    text = "".join(f"第{han_number(c)}章 风起\n" + "正文一句话说完了。\n" * (usual - 1) for c in range(1, 5))
    body = ["正文一句话说完了。"] * (lines - 1)
    for k, at in enumerate((lines // 4, lines // 2, 3 * lines // 4)):
        body[at] = f"诛仙六 第{han_number(6 + k)}章 雨落"
    text += "第五章 云涌\n" + "\n".join(body) + "\n第九章 雪停\n" + "正文一句话说完了。\n" * (usual - 1)
    return len(titles_in(text))


def _serial_of_width(n: int) -> int:
    """How many of three series titles n characters long (a 20-character stem, spaces, （一）) are taken."""
    texts = ["第九十章 终局", "正文。"]
    for j in range(3):
        texts += ["甲" * 20 + " " * (n - 23) + f"（{'一二三'[j]}）"] + ["正文一句话。"] * 5
    return len(few_headings._serial_after_the_end(as_lines(texts), 0))


def _glued_in_long_chapter(k: int, lines: int = 500) -> int:
    """How many headings a book finds whose fifth chapter, far longer than the others, holds k headings
    glued behind the book's name (诛仙六 第六章 雨落)."""
    text = "".join(f"第{han_number(c)}章 风起\n" + "正文一句话说完了。\n" * 9 for c in range(1, 5))
    body = ["正文一句话说完了。"] * (lines - 1)
    for j in range(k):
        body[(j + 1) * lines // (k + 1)] = f"诛仙六 第{han_number(6 + j)}章 雨落"
    return len(
        titles_in(text + "第五章 云涌\n" + "\n".join(body) + "\n第九章 雪停\n" + "正文一句话说完了。\n" * 9)
    )


def _volumes_alone(n: int) -> list[str]:
    """The kinds of the headings of a file of a 序章 and n 第N卷 headings, no chapter under any."""
    text = "序章\n" + "正文一句话说完了。\n" * 3
    text += "".join(f"第{'一二三四'[i]}卷 风起\n" + "正文一句话说完了。\n" * 3 for i in range(n))
    return [s.heading.kind for s in sections.split_sections(text, "f.txt")[0] if s.heading]


def _numbered_then_margin(n: int) -> int:
    """How many headings a file of n 第N章 chapters, then four margin titles over indented prose, gets."""
    text = "".join(f"第{'一二三四'[i]}章 风起\n" + PROSE * 40 for i in range(n))
    return len(titles_in(text + "".join(t + "\n" + PROSE * 40 for t in ["风起", "云涌", "雨落", "雪停"])))


def _volumes_are_chapters(n: int) -> bool:
    """Whether a file of n candidates, each a 第N卷 over text and no 第N章 among them, has its 卷 taken
    as its chapters: a file of FILE_HEADINGS candidates is judged in full (three of a kind), one of
    fewer is taken as it is, which is also what the full judgement makes of it (a page header under
    its title dropped either way: tests/structure/test_chapter_file_headings.py). A FILE_HEADINGS
    above the least of the judgements of three of a kind would skip them."""
    text = "".join(f"第{'一二三四'[k]}卷 卷名{k}\n" + "正文一句话说完了。\n" * 3 for k in range(n))
    return [s.heading.kind for s in sections.split_sections(text, "f.txt")[0]] == ["chapter"] * n


def _name_before_first(n: int) -> bool:
    """Whether 第一段 behind a name of n characters on the file's first line heads its chapter."""
    text = (
        "甲" * n + "第一段\n" + PROSE * 3 + "".join(f"第{han_number(k)}段\n" + PROSE * 3 for k in range(2, 5))
    )
    return "第一段" in titles_in(text)


def _gap_filled(n: int) -> bool:
    """Whether 第十一 风起 (no 章), n lines after 第十章 (n - 1 of text), is chapter eleven."""
    text = "".join(f"第{han_number(k)}章 风起\n" + PROSE * 4 for k in range(7, 10))
    text += "第十章 风起\n" + PROSE * (n - 1) + "第十一 风起\n" + PROSE * 4 + "第十二章 云涌\n" + PROSE * 4
    return "第十一 风起" in titles_in(text)


def _ended_chapter(share: float) -> bool:
    """Whether 第4章 终 opens a chapter when the text after it is this share of the others' (20 lines)."""
    text = "".join(f"第{k}章 风起\n" + PROSE * 19 for k in range(1, 4))
    text += (
        "第4章 终\n"
        + PROSE * (round(share * 20) - 1)
        + "".join(f"第{k}章 云涌\n" + PROSE * 19 for k in range(5, 7))
    )
    return "第4章 终" in titles_in(text)


def _renumbered(digitwise: int) -> int:
    """Of 第九回, 第一回 (第一〇回, its 〇 lost) and five more, `digitwise` of them written digit by
    digit (第一一回) and the rest the usual way (第十二回): how many numbers the zeros' rule restores."""
    tail = [digit_by_digit(n) if k < digitwise else han_number(n) for k, n in enumerate(range(11, 16))]
    found = {
        k: Heading("chapter", f"第{w}回 题", parse_numeral(w), k) for k, w in enumerate(["九", "一", *tail])
    }
    return sum(h.number == 10 for h in runs_through.zeros_restored(found).values())


def _last_part_items(parts_before: int) -> bool:
    """Whether the last part's sections (１ … ５) are read as its text, not chapters, after this many
    parts whose sections were (生命中不能承受之轻)."""
    titles = titles_in(parts_with_sections(parts_before + 1, last_sections=5))
    return all(title[0] in "一二三四五六七" for title in titles)


ROWS = [
    # the last part's numbered sections are items where two parts before had theirs so
    Threshold("heading_choice.ITEM_PARTS", heading_choice.ITEM_PARTS, _last_part_items, True, False, step=-1),
    # an edition numbered digit by digit: three headings so written tell it, two may be a slip
    Threshold("runs_through.DIGITWISE_LEAST", runs_through.DIGITWISE_LEAST, _renumbered, 1, 0, step=-1),
    # a chapter titled 终 has a chapter's text after it, an end mark does not (runs_through.with_text_after)
    Threshold(
        "runs_through.END_TITLED_SHARE",
        runs_through.END_TITLED_SHARE,
        _ended_chapter,
        True,
        False,
        step=-0.05,
    ),
    # a book's name glued before its first heading on the file's first line (水浒传第一段)
    Threshold("pastes.FIRST_LINE_NAME", pastes.FIRST_LINE_NAME, _name_before_first, True, False),
    # a lone line carrying a missing number has text on both sides (runs_through.gap_fillers)
    Threshold("runs_through.GAP_TEXT", runs_through.GAP_TEXT, _gap_filled, True, False, step=-1),
    # headings (structure/headings.py): a strong 第N章 line's length, any heading's, a title's
    Threshold(
        "headings.MAX_HEADING",
        headings.MAX_HEADING,
        lambda n: _heading("第一章 " + "甲" * (n - 4)),
        "strong",
        "weak",
    ),
    Threshold(
        "headings.MAX_LONG_HEADING",
        headings.MAX_LONG_HEADING,
        lambda n: _heading("第一卷 " + "甲" * 20 + " 第二章 " + "乙" * (n - 29)),
        "weak",
        None,
    ),
    Threshold(
        "headings.LONGEST_TITLE",
        headings.LONGEST_TITLE,
        lambda n: _heading("第一章 " + "甲" * n),
        "weak",
        None,
    ),
    # a family of weak headings is taken where the numbering supports this many
    Threshold(
        "heading_choice.FAMILY_MIN",
        heading_choice.FAMILY_MIN,
        _bare_family,
        heading_choice.FAMILY_MIN,
        0,
        step=-1,
    ),
    # a book with this many 第N章 headings has its own: its bare numbers are text
    Threshold("heading_choice.OWN_HEADINGS", heading_choice.OWN_HEADINGS, _bare_after_own, 0, 4, step=-1),
    Threshold("few_headings.MARGIN_BOOK", few_headings.MARGIN_BOOK, _margin_book, 3, 0, step=-1),
    # after a heading and a paste's gap, prose: longer than a title, or a comma's clauses past one
    Threshold(
        "heading_forms.PROSE_PIECE",
        heading_forms.PROSE_PIECE,
        lambda n: _heading_cut_from("甲" * n),
        False,
        True,
    ),
    Threshold(
        "heading_forms.CLAUSE_PIECE",
        heading_forms.CLAUSE_PIECE,
        lambda n: _heading_cut_from("甲，" + "乙" * (n - 2)),
        False,
        True,
    ),
    # forum pastes (structure/pastes.py): a line this long is cut at its gaps; a label's title this short
    Threshold(
        "pastes.PASTE_LINE",
        pastes.PASTE_LINE,
        lambda n: sum(
            len(s.blocks)
            for s in sections.split_sections(
                "第一章 风起\n他转身走了。  " + "天" * (n - 9) + "。\n", "f.txt"
            )[0]
        ),
        1,
        2,
    ),
    Threshold(
        "pastes.PASTE_TITLE",
        pastes.PASTE_TITLE,
        lambda n: len(pastes.paste_pieces("第四章  " + "甲" * n + "  他转身走了。")),
        2,
        3,
    ),
    # a whole book run into one line: this long, its first label this near the start, its titles this
    # short before the 話說 that opens the text, its numbers missing this many between two labels
    Threshold(
        "pastes.GLUED_BOOK",
        pastes.GLUED_BOOK,
        lambda n: len(titles_in(_glued_book([1, 2, 3, 4], n) + "\n")),
        0,
        4,
    ),
    Threshold(
        "pastes.GLUED_START",
        pastes.GLUED_START,
        lambda n: len(
            _glued_headings(_glued_book([1, 2, 3, 4], preface=("甲乙丙丁戊己庚辛壬癸" * 40)[: n - 3]))
        ),
        4,
        0,
    ),
    Threshold(
        "pastes.GLUED_TITLE",
        pastes.GLUED_TITLE,
        lambda n: _glued_headings(_glued_book([1, 2, 3, 4], title="甲" * (n - 2)))[0],
        "第一回 " + "甲" * (pastes.GLUED_TITLE - 2),
        "第一回",
    ),
    Threshold(
        "pastes.GLUED_GAP",
        pastes.GLUED_GAP,
        lambda n: len(_glued_headings(_glued_book([1, 2, 3, 3 + n]))),
        4,
        3,
    ),
    # the choice among weak headings (structure/heading_choice.py): lists of numbered lines, items
    # inside a chapter, a part named on every chapter's line, numbering that stops, starred titles
    Threshold(
        "heading_choice.LIST_RUN",
        heading_choice.LIST_RUN,
        lambda n: _list_dropped([0, 10, *range(20, 20 + n), 40]),
        True,
        False,
        step=-1,
    ),
    Threshold(
        "heading_choice.LIST_GAP",
        heading_choice.LIST_GAP,
        lambda n: _list_dropped([0, 10, 20, 20 + n, 20 + 2 * n, 40]),
        True,
        False,
    ),
    Threshold(
        "heading_choice.INNER_WINDOW",
        heading_choice.INNER_WINDOW,
        _inner_left,
        2,
        heading_choice.INNER_WINDOW + 3,
    ),
    Threshold(
        "heading_choice.SHARED_RUN",
        heading_choice.SHARED_RUN,
        lambda n: (
            heading_choice._shared_labels(
                {i: Heading("chapter", f"第一章 墓中寻龙 {'盗厉驴狼虎'[i]}", 1, i) for i in range(n)}
            )[0].volume
        ),
        "第一章 墓中寻龙",
        None,
        step=-1,
    ),
    Threshold("heading_choice.STOPPED", heading_choice.STOPPED, _numbering_stopped, 0, 4),
    Threshold(
        "heading_choice.STOPPED_SECTION",
        heading_choice.STOPPED_SECTION,
        lambda n: _numbering_stopped(3000, n),
        4,
        0,
        step=-1,
    ),
    Threshold(
        "edition_matter.EDITION_MATTER_LONGEST",
        edition_matter.EDITION_MATTER_LONGEST,
        _edition_preface,
        ["某" * 14 + "版序"],
        ["第一回 风起"],
    ),
    Threshold("heading_choice.SECTION_CHARS", heading_choice.SECTION_CHARS, _numerals_apart, 4, 0, step=-1),
    Threshold(
        "heading_choice.STARRED_GAP",
        heading_choice.STARRED_GAP,
        lambda n: _starred_taken(["青蛙王子", "白雪公主", "小红帽子", "灰姑娘"], n),
        4,
        0,
        step=-1,
    ),
    Threshold(
        "heading_choice.DISTINCT_STARRED",
        heading_choice.DISTINCT_STARRED,
        _distinct_starred,
        10,
        0,
        step=-0.1,
    ),
    Threshold("heading_choice.FAMILY_SHARE", heading_choice.FAMILY_SHARE, _family_share, 4, 0, step=-0.06),
    # headings the rules missed (structure/few_headings.py): behind a name, a series after the end,
    # inside a chapter many times the length of the others
    Threshold("few_headings.MAX_NAMED", few_headings.MAX_NAMED, _behind_a_name, 3, 0),
    Threshold(
        "few_headings.MIN_PREFIXED", few_headings.MIN_PREFIXED, lambda n: _behind_a_name(20, n), 3, 0, step=-1
    ),
    Threshold("few_headings.MIN_SERIAL", few_headings.MIN_SERIAL, _serial_taken, 3, 0, step=-1),
    Threshold(
        "few_headings.SERIAL_TEXT", few_headings.SERIAL_TEXT, lambda n: _serial_taken(3, n), 3, 0, step=-1
    ),
    Threshold("few_headings.LONG_LINES", few_headings.LONG_LINES, _long_chapter, 6, 9),
    Threshold("few_headings.LONG_GAP", few_headings.LONG_GAP, lambda n: _long_chapter(n * 100, 100), 6, 9),
    Threshold(
        "pastes.GLUED_LABELS",
        pastes.GLUED_LABELS,
        lambda n: len(_glued_headings(_glued_book(list(range(1, n + 1))))),
        3,
        0,
        step=-1,
    ),
    Threshold("few_headings.SERIAL_LINE", few_headings.SERIAL_LINE, _serial_of_width, 3, 0),
    Threshold(
        "few_headings.STRETCH_FOUND", few_headings.STRETCH_FOUND, _glued_in_long_chapter, 9, 6, step=-1
    ),
    Threshold(
        "heading_choice.FAMILY_LEAST",
        heading_choice.FAMILY_LEAST,
        _volumes_alone,
        ["front", "chapter", "chapter", "chapter"],
        ["front", "volume", "volume"],
        step=-1,
    ),
    Threshold("few_headings.NUMBERED_BOOK", few_headings.NUMBERED_BOOK, _numbered_then_margin, 3, 6, step=-1),
    Threshold(
        "heading_choice.FILE_HEADINGS",
        heading_choice.FILE_HEADINGS,
        _volumes_are_chapters,
        True,
        False,
        step=-1,
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=[t.constant for t in ROWS])
def test_each_threshold_decides_at_its_value_and_not_one_step_past(row):
    row.check()
