"""Heading lines, found by evidence per file (docs/rules.md §4.1 as amended in docs/rules-notes.md).

Every line is offered to a set of rules, from the safest (第N章 with a clean title) to the riskiest
(a bare 一 / 001 / Chapter 1 line). A line only the risky rules take, or a 第N章 line whose title
has sentence punctuation, is a *weak* candidate: it becomes a heading only where the file's own
numbering supports it (its number runs on from a neighbour's, or the next runs on from it), and a
family of bare numerals only when at least three of its lines do so and the file has no 第N章
headings of its own: bookbuilder.structure.heading_choice chooses among a file's candidates.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from bookbuilder.numerals import (
    FINANCIAL_TO_TEN,
    NUMERAL_CHARS,
    NUMERAL_RUN,
    ONE_TO_TEN,
    TO_HUNDREDS,
    TO_THOUSANDS,
    parse_numeral,
    to_chinese,
)
from bookbuilder.structure.edition_matter import EDITION_MATTER, edition_matter_kind
from bookbuilder.structure.heading_debris import (
    DEBRIS_STARTS,
    LATIN,
    MARKUP_SIGNS,
    heading_core,
    label_once,
    without_advert,
    without_markup,
)
from bookbuilder.structure.heading_forms import (
    BARE_ARABIC,
    BARE_CHINESE,
    BRACKET_CLOSE,
    BRACKET_OPEN,
    BRACKETED,
    BRACKETED_ARABIC,
    CHAPTER_UNIT,
    CLOSING_LABEL,
    ENGLISH,
    ENGLISH_PART,
    FRAME,
    FRAMED,
    GLUED_ARABIC,
    GLUED_CHINESE,
    JJ_MARK,
    LABEL_THEN_TEXT,
    MARKED,
    NO_DI,
    NO_UNIT,
    NOT_A_FRAMED_TITLE,
    NOT_OTHER_UNITS,
    OPENING_LABEL,
    OTHER_UNIT,
    PAREN,
    STARRED,
    reads_as_text,
)
from bookbuilder.vocabulary import (
    BACK_MATTER,
    BARE_CHAPTER_UNITS,
    BOOK_PARTS,
    FRONT_MATTER,
    HALF_VOLUME_UNITS,
    HAN_COMMON,
    LABEL_BRACKETS,
    LAST_PART,
    SIDE_STORIES,
    STAR_MARKS,
    VOLUME_WORDS,
    matter_pattern,
    plain,
    unit_class,
)

MAX_HEADING = 30  # characters: the strong 第N章 rule's limit, as RULES §4.1
MAX_LONG_HEADING = 50  # real titles run to ~40 characters (with 第N章 and a volume in front)
LONGEST_TITLE = 40  # characters of a title after its label: a longer one is a sentence
_N_SPACED = f"[{NUMERAL_CHARS}](?: ?[{NUMERAL_CHARS}])*"  # 第 二 十 回: a typeset contents spaces them out
# 】: what is left of 【第一章】 once its opening bracket is cut
_SEP = rf"[\s:：、.．·\-—_{re.escape(LABEL_BRACKETS[1])}]*"
VOLUME_UNIT = "(?:" + "|".join(VOLUME_WORDS) + ")"
# 终卷·刀剑如梦 第五章 刀剑: a named volume before its chapter (末卷 so not seen)
HALF_VOLUME = rf"(?:[{BOOK_PARTS}{LAST_PART[:2]}]\s?卷)"
_NUMBERED = re.compile(
    rf"^(?P<vol>(?:(?:第\s*{NUMERAL_RUN}\s*{VOLUME_UNIT}|卷\s*{NUMERAL_RUN}|{HALF_VOLUME})(?:(?!第\s*{NUMERAL_RUN}\s*{CHAPTER_UNIT}).){{0,24}}?\s*)+)?"
    rf"第\s*(?P<num>{_N_SPACED})\s*(?P<unit>{CHAPTER_UNIT})(?P<sep>{_SEP})(?P<title>.*)$"
)
_VOLUME = re.compile(
    rf"^(?:第\s*(?P<num>{NUMERAL_RUN})\s*(?P<unit>{VOLUME_UNIT})|卷\s*(?P<num2>{NUMERAL_RUN}))(?P<sep>{_SEP})(?P<title>.*)$"
)
_BARE_UNIT = re.compile(rf"^第\s*{NUMERAL_RUN}\s*{CHAPTER_UNIT}$")


def is_bare_label(title: str) -> bool:
    """第一回, 第3章: a numbered heading without a title."""
    return bool(_BARE_UNIT.match(title))


_MATTER = re.compile(
    rf"^(?P<word>{matter_pattern(FRONT_MATTER + BACK_MATTER)}"
    rf"|外[传傳](?:之)?[{ONE_TO_TEN}0-9]*|附[录錄][{ONE_TO_TEN}0-9]{{1,2}}"  # 外传之二, 附录一: numbered
    rf"|番外篇?[{ONE_TO_TEN}0-9]*)"
    r"(?:(?:[\s:：、·\-—]+|(?=[（(]))(?P<title>.*))?$"  # 尾声（上）: a part's mark right after the word
)
_FRONT = plain(FRONT_MATTER)
# 上部 面壁者危机, 中 部 咒语危机, 下篇: a book in two or three parts (三体II; typeset with a space too);
# 终卷·刀剑如梦 after 上卷 ·美人如玉, 中卷, 下卷: a fourth and last volume (a wuxia download's four 卷).
# A name needs a separator: 下卷帘子 is prose.
_HALF = re.compile(
    rf"^(?P<where>[{BOOK_PARTS}]|(?:{'|'.join(LAST_PART)})(?=\s?卷))\s?(?P<unit>"
    + "|".join(HALF_VOLUME_UNITS)
    + ")"
    r"(?:(?P<sep>[\s:：、·\-—]+)(?P<title>\S.{0,20}))?$"
)
_HALF_NUMBER = {
    part: n for n, part in enumerate(BOOK_PARTS, 1)
}  # 上 1, 中 2, 下 3; 终卷 has none: it is the last, whatever came before
_HALF_CHAPTER = re.compile(rf"^([{TO_HUNDREDS}]+)[、.．]\S")
_FINANCIAL_VOLUME = re.compile(rf"^(?P<num>[{FINANCIAL_TO_TEN}]{{1,3}})$")
# What every rule below needs at the start of a line: one test turns most prose lines away.
_ANY_RULE = re.compile(
    rf"(?:第|卷|{matter_pattern(FRONT_MATTER + BACK_MATTER)}|{'|'.join(SIDE_STORIES)}|[（(]|Chapter|CHAPTER"
    r"|[Pp]art|PART"
    rf"|[{BOOK_PARTS}]\s?{unit_class(HALF_VOLUME_UNITS)}|[{LAST_PART}]\s?卷"
    rf"|{NUMERAL_RUN}\s*{unit_class(BARE_CHAPTER_UNITS)}"
    rf"|[{TO_THOUSANDS}]+(?:[\s、.．:：]|$)|[{TO_HUNDREDS}]{{2,4}}[{HAN_COMMON}]{{2,12}}$"
    rf"|\d{{1,4}}(?:$|[、.．:：\s{HAN_COMMON}])|{OPENING_LABEL}\d{{1,4}}{CLOSING_LABEL}|[{FINANCIAL_TO_TEN}]{{1,3}}$"
    rf"|[{re.escape(BRACKET_OPEN)}]\s*第?\s*(?:\d|[{TO_THOUSANDS}])"
    rf"|{EDITION_MATTER.pattern.removeprefix('^')})"
)
_END_OF_VOLUME = re.compile(r"^[（(]?(?:终|終|完|完结|完結|结束|結束|终了)[)）]?$")
_END_OF_CHAPTER = re.compile(
    r"^[（(]?(?:终|終|完)[)）]?$"
)  # (结束, 完结 may be a last chapter's title: 第88章 完结)
# 第一章(2), 第一章（二）: a page's number after the title, in digits or everyday numerals to 十
_PART = re.compile(rf"\s*[（(](?P<part>\d{{1,2}}|[{ONE_TO_TEN}]{{1,2}})[)）]$")
FULLWIDTH_DIGIT = str.maketrans("０１２３４５６７８９", "0123456789")
_STARS = frozenset(STAR_MARKS)
BARE_RULES = ("bare", "arabic", "bracketed", "paren", "chapter-en", "no-unit", "other-unit")
# Rules in the order they are tried on a line; those after "numbered" only give weak candidates.
WEAK_RULES = ("no-di", *BARE_RULES[:5], "part-en", *BARE_RULES[5:])
# weak rules whose headings count only where the numbering runs on through them, N-1 before and N+1 after
RUN_THROUGH_RULES = ("glued", "end-titled", "bare-glued")
# First characters of a line any rule can take (most lines start with none; 〖 no rule takes).
STARTS = (
    frozenset(
        "ˇ第卷（(CPp<"  # <: a heading in a scraper's tags (<h4 >1</h4>), judged without them
        + BRACKET_OPEN
        + BOOK_PARTS
        + LAST_PART
        + "".join(w[0] for w in FRONT_MATTER + BACK_MATTER + SIDE_STORIES)
        + TO_THOUSANDS
        + FINANCIAL_TO_TEN
        + "0123456789０１２３４５６７８９"
    )
    | (DEBRIS_STARTS - {"〖"})
    | _STARS
)


class Heading(NamedTuple):  # a tuple: a long novel makes thousands, and a tuple is quick to make
    kind: str  # volume | chapter | front | back
    title: str
    number: int | None
    line: int
    volume: str | None = None  # a volume named on the same line: 第十三卷 风雪 第2040章 不归
    rule: str = "numbered"  # which rule found it (check explains the choice by these names)
    weak: bool = False  # needs the numbering's support
    part: int | None = None  # 第一章(2): the second page of chapter one on a paged site
    lead: str = ""  # …的地方……Chapter 2: the text before the label on its line, the chapter before's
    rest: str = ""  # Chapter 1这么多年，…: the text after the label on its line, its chapter's first


def _spaced(text: str) -> str:
    """A title already cut out of its debris: half-width digits, one space between parts."""
    return " ".join(text.translate(FULLWIDTH_DIGIT).split())


def normalize_title(text: str) -> str:
    """RULES §4.3: half-width digits, one ASCII space between parts, no site debris around it."""
    return label_once(_spaced(heading_core(text.translate(FULLWIDTH_DIGIT))))


_GLUED_PROSE = frozenset("的了是里中上下后前时")  # 第一章的内容…, 第三回里…: after 第N章 they make a sentence
_UNIT_WORDS = frozenset(
    ("回合", "回事", "回家", "回来", "回去", "回头", "节课", "节目", "章程", "章节", "话题", "话说")
)


def _ends_once(text: str) -> bool:
    """One full stop, the last character: a title's (第3章 【某某】爵爷抓住一只喵。), to be weighed as
    weak."""
    return text.endswith("。") and text.count("。") == 1


def _title_flaw(title: str) -> str | None:
    """'reject' for prose, 'weak' for a title a real heading may carry (a comma, a lone quote), else None."""
    if (
        len(title) > LONGEST_TITLE
        or ("。" in title and not _ends_once(title))
        or "；" in title
        or title.endswith(("，", "：", ":"))
    ):
        return "reject"
    if "，" in title or "," in title or "。" in title:  # 爵爷抓住一只喵。: 晋江 titles may end in a full stop
        return "weak"
    if title.count("“") != title.count("”") or title.count("「") != title.count("」") or '"' in title:
        return "weak"
    return None


def _unwrap(title: str) -> str:
    """【委任】 → 委任, when the brackets hold the whole title (other brackets stay); 紫陌】 → 紫陌,
    what is left of 【第二篇 紫陌】 once its label lost the opening bracket (听雪楼)."""
    if title.startswith("【") and title.find("】") == len(title) - 1:
        return title[1:-1]
    if title.endswith("】") and "【" not in title:
        return title[:-1].rstrip()
    return title


def _volume_title(text: str) -> str:
    text = " ".join(_unwrap(part) for part in re.sub(r"[\s:：、·\-—【】]+", " ", text).split())
    return text.translate(FULLWIDTH_DIGIT)


class _Line:
    """A stripped line as the rules see it: without a scraper's markup and a glued advert, and its
    core (the line without a site's debris, heading_debris.heading_core) worked out once, when a
    rule first asks for it."""

    __slots__ = ("_core", "custom", "extra", "number", "text")

    def __init__(self, text: str, number: int, custom: re.Pattern | None, extra: tuple[str, ...]) -> None:
        self.text, self.number, self.custom, self.extra = text, number, custom, extra
        self._core: str | None = None

    @property
    def core(self) -> str:
        if self._core is None:
            self._core = heading_core(self.text, self.extra)
        return self._core


NOT_MINE = object()  # what a rule's test gives for a line it has nothing to say about: the next rule is asked


class HeadingRule(NamedTuple):
    """One of the rules a line is offered to, in order (RULES below). Its test gives a Heading, None
    (the line is decided: no heading, and no later rule is asked) or NOT_MINE. `fixture`: a line
    this rule decides, from the download that taught it (tests/structure/test_heading_rules.py
    offers each to the table and sees this rule decide it)."""

    name: str
    test: Callable[[_Line], Heading | None | object]
    why: str
    fixture: str


def _rule(name: str, test: Callable[[_Line], Heading | None | object], fixture: str) -> HeadingRule:
    """A rule whose why is its test's docstring."""
    return HeadingRule(name, test, " ".join(test.__doc__.split()), fixture)


def _marked(line: _Line):
    """晋江 marks an unnumbered chapter's title ˇ…ˇ, on the line after the title; never prose."""
    if line.text[0] == "ˇ" and (m := MARKED.match(line.text)):
        return Heading("chapter", _spaced(m.group("title")), None, line.number, rule="marked")
    return NOT_MINE


def _prose(line: _Line):
    """No heading: a line over twice the longest title, or with a full stop before its end."""
    text = line.text
    return None if len(text) > 2 * MAX_LONG_HEADING or ("。" in text and not _ends_once(text)) else NOT_MINE


def _jj_mark(line: _Line):
    """晋江's ☆、 before every title: the title's own rule judges it, else it is starred."""
    if line.text[0] in "☆★" and (m := JJ_MARK.match(line.text)):
        if (inner := candidate(m.group("title"), line.number, line.custom, line.extra)) is not None:
            return inner  # ☆、第一章 同归于尽，由我们来毁灭世界: the heading's own rule judges it
        return Heading("chapter", _spaced(m.group("title")), None, line.number, rule="starred", weak=True)
    return NOT_MINE


def _starred(line: _Line):
    """A collection's tales each under a star (格林童话)."""
    if line.text[0] in _STARS and (m := STARRED.match(line.text)):
        return Heading("chapter", _spaced(m.group("title")), None, line.number, rule="starred", weak=True)
    return NOT_MINE


def _framed(line: _Line):
    """Where no rule below can take the core: a title framed by separators (听雪楼), else no heading."""
    core = line.core
    if core and len(core) <= MAX_LONG_HEADING and (core[0] == "第" or _ANY_RULE.match(core)):
        return NOT_MINE
    text = line.text
    if text[0] in FRAME and (m := FRAMED.match(text)) and not NOT_A_FRAMED_TITLE.search(m.group("title")):
        return Heading("chapter", _spaced(m.group("title")), None, line.number, rule="framed", weak=True)
    return None


def _numbered_rule(line: _Line):
    """第N章 and its title, a volume named before it (RULES §4.1)."""
    return _numbered(m, line.number) if (m := _NUMBERED.match(line.core)) else NOT_MINE


def _volume(line: _Line):
    """第N卷 or 卷N and its title; 第三卷终 ends a volume."""
    if not (m := _VOLUME.match(line.core)):
        return NOT_MINE
    if _END_OF_VOLUME.match(m.group("title")):
        return None  # 第三卷终: the end of a volume, not a new one
    numeral = m.group("num") or m.group("num2")
    label = f"第{numeral.replace(' ', '')}{m.group('unit')}" if m.group("num") else f"卷{numeral}"
    return _titled(
        "volume", label, m.group("title"), parse_numeral(numeral), line.number, "volume", m.group("sep")
    )


def _half(line: _Line):
    """上部, 中篇, 下卷, 终卷: a book in two or three parts (三体II), or its part and chapter."""
    if not (m := _HALF.match(line.core)):
        return NOT_MINE
    label, title = m.group("where") + m.group("unit"), m.group("title")
    if title and (c := _HALF_CHAPTER.match(title)):  # 上篇 一、我的家庭: the part, then its chapter
        number = parse_numeral(c.group(1))
        return Heading("chapter", normalize_title(title), number, line.number, volume=label, rule="volume")
    number = _HALF_NUMBER.get(m.group("where"))
    return _titled("volume", label, title or "", number, line.number, "volume", m.group("sep"))


def _matter(line: _Line):
    """Front and back matter (序, 楔子, 后记, 番外 …) and its title."""
    core = line.core
    if not (m := _MATTER.match(core)):  # or an edition's, named by whose it is (三联版序, 再版后记)
        edition = edition_matter_kind(core)
        return (
            NOT_MINE
            if edition is None
            else Heading(edition, normalize_title(core), None, line.number, rule="matter")
        )
    word = "".join(m.group("word").split())
    kind = "front" if word in _FRONT else "back"
    rest = m.group("title") or ""
    tail = core[m.end("word") :]
    if _title_flaw(rest) == "reject" or ("—" in tail and not tail.strip("—-－ ")):
        return None  # 外传——, a list's label over the titles that follow (镜's header)
    title = normalize_title(word + tail)
    part = parse_numeral(p.group("part")) if (p := _PART.search(title)) else None  # 附录一：某某(2): a page
    return Heading(kind, title, None, line.number, rule="matter", weak=bool(_title_flaw(rest)), part=part)


def _bare(rule: str, rx: re.Pattern, why: str, kind="chapter") -> Callable[[_Line], Heading | None | object]:
    """A rule of a number without 第 (`why`: what it takes): weak, whatever its title."""

    def test(line: _Line):
        core = line.core
        if not (m := rx.match(core)):
            return NOT_MINE
        number = parse_numeral(m.group("num"))
        if (
            number is None or number == 0 or "。" in core
        ):  # 五、掩体计划。: a list's item (a full stop only after 第N章)
            return None
        if rx is GLUED_CHINESE and to_chinese(number) != m.group("num"):
            return None  # 一一细考, 三十二三岁: no heading writes its number so
        label = core[: m.start("sep")] if m.group("sep") is not None and m.group("title") else core
        if rx is BRACKETED and BRACKET_CLOSE[BRACKET_OPEN.index(m.group("open"))] != m.group("close"):
            return None  # 【3] is no pair
        if rx is BRACKETED_ARABIC or rx is BRACKETED:
            label = m.group("num")  # 【01】 → 01, 〔三〕 → 三, as 【第一章】 loses its brackets
        heading = _titled(kind, label.strip(), m.group("title") or "", number, line.number, rule, "sep")
        return heading and heading._replace(weak=True)

    test.__doc__ = why
    return test


def _other_unit(line: _Line):
    """第一段 … 第一百六十一段 (a data set's 水浒传): 第N and a word for the unit no rule names."""
    if (m := OTHER_UNIT.match(line.core)) is None or m.group("unit") in NOT_OTHER_UNITS:
        return NOT_MINE
    return _other_unit_family(line)


_other_unit_family = _bare("other-unit", OTHER_UNIT, "")


def _label_then_text(line: _Line):
    """Chapter 1这么多年，…: an English label glued to its chapter's first sentence (桐华), a line the
    prose rule would take whole. The label is the heading, weak (its number must run on), the rest
    its chapter's first paragraph. (第N章 glued to a sentence stays prose: 第二话就说完了。)"""
    text = line.text
    if text[0] not in "CP" or not (m := LABEL_THEN_TEXT.match(text)) or not reads_as_text(m.group("rest")):
        return NOT_MINE
    label, number = _spaced(m.group("label")), int(m.group("num"))
    return Heading("chapter", label, number, line.number, rule="chapter-en", weak=True, rest=m.group("rest"))


def _financial_volume(line: _Line):
    """壹, 贰: a part numbered in financial numerals alone."""
    if not (m := _FINANCIAL_VOLUME.match(core := line.core)):
        return NOT_MINE
    return Heading(
        "volume", core, parse_numeral(m.group("num")), line.number, rule="financial-volume", weak=True
    )


# The rules in the order a line is offered to them; the first that decides (a Heading or None) is
# the answer. Those after "matter" only give weak candidates: the file's numbering must support them.
RULES = (
    _rule("marked", _marked, "ˇ所谓玛丽苏ˇ"),
    _rule("label-then-text", _label_then_text, "Chapter 1这么多年，我一直在学习一件事情。"),
    _rule("prose", _prose, "他笑了。她也笑了"),
    _rule("jj-mark", _jj_mark, "☆、第一个世界1"),
    _rule("starred", _starred, "★青蛙王子"),
    _rule("framed", _framed, "------【火焰鸢尾】------"),
    _rule("numbered", _numbered_rule, "第十三卷 风雪 第2040章 不归"),
    _rule("volume", _volume, "第二卷 风起"),
    _rule("half", _half, "上部 面壁者危机"),
    _rule("matter", _matter, _FRONT[0]),  # 楔子
    _rule("no-di", _bare("no-di", NO_DI, "十二章 风雨: a unit without 第, then a title"), "十二章 风雨"),
    _rule("bare", _bare("bare", BARE_CHINESE, "一 alone or with a title (活着)"), "一 青衫磊落险峰行"),
    _rule("arabic", _bare("arabic", BARE_ARABIC, "001 alone or with a title"), "001 开端"),
    _rule("arabic-bracketed", _bare("arabic", BRACKETED_ARABIC, "【01】: 晋江-style downloads"), "【01】"),
    _rule("arabic-glued", _bare("arabic", GLUED_ARABIC, "a number glued to its title (三体)"), "1科学边界"),
    _rule(
        "bare-glued", _bare("bare-glued", GLUED_CHINESE, "三十二 glued to its title"), "三十二且自逍遥没谁管"
    ),
    _rule("bracketed", _bare("bracketed", BRACKETED, "【01.】, 〔三〕: a number in brackets"), "〔三〕"),
    _rule("paren", _bare("paren", PAREN, "（一） and its title"), "（一）出发"),
    _rule("chapter-en", _bare("chapter-en", ENGLISH, "Chapter 1 and its title"), "Chapter 1"),
    # a part over the book's chapters; where it has no others, the parts are its chapters (微微一笑很倾城)
    _rule("part-en", _bare("part-en", ENGLISH_PART, "Part 1: a part, as a volume", "volume"), "Part 1 开局"),
    _rule("no-unit", _bare("no-unit", NO_UNIT, "第一 with no unit (爱的教育's months)"), "第二 十一月"),
    _rule("other-unit", _other_unit, "第一百六十一段"),
    _rule("financial-volume", _financial_volume, "壹"),
)


def candidate(
    line: str, line_no: int, custom: re.Pattern | None = None, extra: tuple[str, ...] = ()
) -> Heading | None:
    """What any rule makes of this stripped line: a heading (strong or weak), or None. book.toml's
    heading_pattern first, on the line as written; then the line without a scraper's markup and an
    advert glued on is offered to RULES in order."""
    if custom is not None and (m := custom.match(line)):
        number = parse_numeral(m.group(1)) if m.groups() and m.group(1) else None
        return Heading("chapter", normalize_title(line), number, line_no, rule="custom")
    if MARKUP_SIGNS.intersection(
        line
    ):  # 第一章 <div class="…">: judged, and titled, without a scraper's markup
        line = without_markup(line)
        if not line:
            return None
    if LATIN.search(line):  # 第19章 论玉魄【http://…】某58百度云搜索资源…: judged without the advert glued on
        line = without_advert(line, m.start("title") if (m := _NUMBERED.match(line)) else 0)
    offered = _Line(line, line_no, custom, extra)
    for rule in RULES:
        if (verdict := rule.test(offered)) is not NOT_MINE:
            return verdict
    return None


def deciding_rule(line: str) -> str | None:
    """The name of the rule of RULES that decides this stripped line (what the fixtures' test asks)."""
    offered = _Line(line, 0, None, ())
    return next((rule.name for rule in RULES if rule.test(offered) is not NOT_MINE), None)


def _titled(kind, label, title, number, line_no, rule, sep) -> Heading | None:
    matter = _matter(_Line(title.strip(), line_no, None, ())) if kind == "volume" else None
    if isinstance(matter, Heading) and " " in matter.title:  # 上卷 附录 陈光蕊…, not 末卷 尾声
        return matter._replace(volume=label, rule=rule)
    title = _unwrap(title.strip())
    flaw = _title_flaw(title)
    if flaw == "reject" or (
        kind == "volume" and (flaw or title.endswith(("！", "!")))
    ):  # 第三篇‘…’正式开始！: a note
        return None
    if kind == "volume" and not sep and title.startswith("的"):  # 第四集的插图: a phrase about volume four
        return None
    text = normalize_title(f"{label} {title}" if title else label)
    return Heading(kind, text, number, line_no, rule=rule, weak=flaw is not None)


def _numbered(m: re.Match, line_no: int) -> Heading | None:
    numeral, unit, sep, title = m.group("num"), m.group("unit"), m.group("sep"), m.group("title").strip()
    part, page = None, ""
    if p := _PART.search(title):  # 第一章(2): a page of chapter one, or a title's own number (通天（2）)
        part, page = parse_numeral(p.group("part")), p.group(0).strip()
        title = title[: p.start()].strip()
    flaw = _title_flaw(title)
    glued = bool(flaw and not sep and title)  # 第一章的内容他早已背熟，此刻…: prose, as a rule
    if flaw == "reject" or (glued and ("。" in title or title[0] in _GLUED_PROSE)):
        return None
    # 第二章 完: the end of chapter two, or chapter fifty titled 终 (杀死那个白月光's 第50章 终 between
    # 第49章 and 第51章): the numbering tells, running on through it or not ("end-titled")
    ended = bool(_END_OF_CHAPTER.match(title))
    if title.endswith("。") and unit + title[:1] in _UNIT_WORDS:
        return None  # 第三回 合，日本队调整了战术…。: a sentence about a game's round, broken after 回
    if flaw is None and (len(m.group(0)) > MAX_HEADING or (title and not sep)):
        flaw = "weak"  # a long title, or one glued to 第N章 (第七回合他赢了): the numbering must say so
    title = _unwrap(title)
    label = f"第{numeral.replace(' ', '')}{unit}"
    volume = _volume_title(m.group("vol")) if m.group("vol") else None
    # The page's number stays in the title until the chapter is seen to go on under the same
    # number (parse: then it is a paged site's chapter and the number goes).
    # A glued title with a comma (第二百一十六章脚踏祥云行四海,一条竹杖伏万妖 五) is read so only where both
    # neighbours' numbers run on through it (heading_choice): its own rule, "glued".
    return Heading(
        "chapter",
        label_once(_spaced(f"{label} {title}" if title else label)) + page,
        parse_numeral(numeral.replace(" ", "")),
        line_no,
        volume=volume,
        rule="end-titled" if ended else "glued" if glued else "numbered",
        weak=flaw is not None or ended,
        part=part,
    )


def without_page(title: str) -> str:
    """第二十一章(1) → 第二十一章: the title of a chapter that a paged site cut into pages."""
    return _PART.sub("", title)


def classify_heading(line: str, line_no: int, custom: re.Pattern | None = None) -> Heading | None:
    """The heading this stripped line is on its own, without the file's evidence: strong candidates only."""
    heading = candidate(line, line_no, custom)
    return heading if heading is not None and not heading.weak else None
