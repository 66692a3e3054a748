"""The forms a heading line takes beyond 第N章 (docs/rules-notes.md, "Headings by the file's own
numbering" and "Numbering as evidence"): the patterns of bookbuilder.structure.headings' weak rules,
each taken only where the file's numbering (or a family of its kind) supports it
(bookbuilder.structure.heading_choice). Patterns and pure tests only: the rules are headings.py's.
"""

from __future__ import annotations

import re

from bookbuilder.numerals import NUMERAL_RUN, ONE_TO_TEN, TO_HUNDREDS, TO_THOUSANDS
from bookbuilder.vocabulary import (
    BARE_CHAPTER_UNITS,
    CHAPTER_UNITS,
    COUNTER_WORDS,
    FILE_FORMAT,
    HALF_VOLUME_UNITS,
    HAN_COMMON,
    LABEL_BRACKETS,
    STAR_MARKS,
    VOLUME_WORDS,
    any_case,
    char_class,
    unit_class,
)

CHAPTER_UNIT = unit_class(CHAPTER_UNITS)  # the units a 第N… chapter is counted in

NO_DI = re.compile(
    rf"^(?P<num>{NUMERAL_RUN})\s*(?P<unit>{unit_class(BARE_CHAPTER_UNITS)})(?P<sep>[\s:：、.．]+)(?P<title>\S.*)$"
)
# 第一 / 第二  十一月: 第 and a numeral with no unit, alone or before a short name (爱的教育's months);
# weak and bare: only a running sequence of them, in a book without 第N章 headings of its own.
NO_UNIT = re.compile(
    rf"^第(?P<num>[{ONE_TO_TEN}]{{1,3}})(?:(?P<sep>[ \u3000]+)(?P<title>[^\s。，！？、：:；]{{1,8}}))?$"
)
# 一 青衫磊落险峰行, or 一 alone (活着, 许三观卖血记: a literary novel numbers its chapters and titles none),
# or 一、 alone (有情天: 14 chapters headed 一、 … 十四、 and nothing more)
BARE_CHINESE = re.compile(rf"^(?P<num>[{TO_THOUSANDS}]+)(?:(?P<sep>[\s、.．:：]+)(?P<title>\S.*)?)?$")
BARE_ARABIC = re.compile(r"^(?P<num>\d{1,4})(?:(?P<sep>[、.．:：\s]+)(?P<title>\S.*)?)?$")
OPENING_LABEL, CLOSING_LABEL = (char_class(b) for b in LABEL_BRACKETS)
# 【01】: 晋江-style downloads
BRACKETED_ARABIC = re.compile(rf"^{OPENING_LABEL}(?P<num>\d{{1,4}}){CLOSING_LABEL}(?P<sep>\s*)(?P<title>.*)$")
# 1科学边界: a number glued to its title (a 三体 download), never to a counter word or a unit
# (3个人, 5天后, 10点钟, 2号楼 are prose); weak like every bare number.
GLUED_ARABIC = re.compile(
    rf"^(?P<num>\d{{1,3}})(?P<sep>)(?P<title>[{HAN_COMMON}](?<!"
    + unit_class(COUNTER_WORDS, "毛角")
    + ")"  # 5毛钱
    r"[^，。！？；：,.!?;:]{0,19})$"
)
# 三十二且自逍遥没谁管: a numeral of two or more characters glued to a title of Han characters alone
# (a 天龙八部 download's 三十二 to 三十九). Prose opens so too (三十六计走为上), so such a line counts
# only where the numbering runs on through it (structure/runs_through.py).
GLUED_CHINESE = re.compile(
    rf"^(?P<num>[{TO_HUNDREDS}]{{2,4}})(?P<sep>)(?P<title>(?![{TO_HUNDREDS}]|"
    + unit_class(COUNTER_WORDS, "毛角")
    + rf")[{HAN_COMMON}]{{2,12}})$"  # not 十一月的风, 三十六计: a count
)
# 【01.】, [12], 〔三〕, 〖7〗, 【12章】: a number in brackets, Arabic or Chinese, with or without 第/章
# and a dot, with or without a title after it (a download whose 89 chapters are 【01.】 … in four parts
# that count from 1 again). Weak and bare, as every bare number: the file's numbering must run on
# through a family of them spaced like chapters (heading_choice). 「」 and 『』 are not among the
# brackets: they quote speech (「一」).
BRACKET_OPEN, BRACKET_CLOSE = "【[［〔〖", "】]］〕〗"
BRACKETED = re.compile(
    rf"^(?P<open>[{re.escape(BRACKET_OPEN)}])\s*第?\s*(?P<num>\d{{1,4}}|[{TO_THOUSANDS}]{{1,6}})\s*"
    rf"{CHAPTER_UNIT}?\s*[.．、]?\s*(?P<close>[{re.escape(BRACKET_CLOSE)}])(?P<sep>\s*)(?P<title>.*)$"
)
PAREN = re.compile(rf"^[（(](?P<num>[{TO_HUNDREDS}\d]{{1,5}})[)）](?P<sep>\s*)(?P<title>.*)$")
# Chapter 1, Chapter1; Part 1 开局 over its chapters (魔鬼在你身后), or part1 / part 6 as the chapters
# (微微一笑很倾城's 80)
ENGLISH, ENGLISH_PART = (
    re.compile(rf"^(?:{label})\s*(?P<num>\d{{1,4}})(?![\d.])(?P<sep>[\s:.\-—]*)(?P<title>.*)$")
    for label in ("Chapter|CHAPTER", "[Pp]art|PART")
)

# 第一段, 第二段 … 第一百六十一段 (a data set's 水浒传 in 161 段), 第一讲: 第N and a word for the unit no
# rule names, alone or before a short name. Weak and bare: a family of one unit whose numbers run on,
# in a book without 第N章 headings of its own. Never a counter word (第一次, 第三天, 第二个 are prose's)
# nor a unit another rule reads (章, 卷, 册), nor a word an ordinal makes (第三者, 第一线, 第一手, 第一流,
# 第一眼, 第一步, 第一声, 第一句, 第一口, 第一把, 第一批, 第一轮, 第一排: prose's, never a book's divisions).
OTHER_UNIT = re.compile(
    rf"^第(?P<num>{NUMERAL_RUN})(?P<unit>[{HAN_COMMON}])(?:(?P<sep>[\s:：、.．]+)(?P<title>[^\s。！？；][^。！？；]{{0,19}}))?$"
)
ORDINAL_WORDS = "者线手流眼步声句口把批轮排"
NOT_OTHER_UNITS = frozenset(
    CHAPTER_UNITS + COUNTER_WORDS + HALF_VOLUME_UNITS + "".join(VOLUME_WORDS) + "冊" + ORDINAL_WORDS
)

# Chapter 1这么多年，我一直在学习…: an English label glued to its chapter's first sentence (桐华's
# 那些回不去的年少时光, 19 chapters so). The label is the heading and the rest the text, where the rest
# reads as prose (reads_as_text) and the numbering runs on through the label.
LABEL_THEN_TEXT = re.compile(
    r"^(?P<label>(?:Chapters?|CHAPTERS?|[Pp]art|PART)\s*(?P<num>\d{1,4}))(?![\d.])[\s:.\-—]*(?P<rest>\S.*)$"
)
# A label after the end of a sentence, in the same line: …最开始的地方……Chapter 2青春在哪里？
LABEL_AFTER_SENTENCE = re.compile(r"(?<=[。！？…”」』])(?=(?:Chapters?|CHAPTERS?)\s*\d)")

PROSE_PIECE, CLAUSE_PIECE = 40, 20  # characters: more than a title holds; a comma's clauses past a title's


def reads_as_text(text: str) -> bool:
    """Text no title is: a sentence's full stop, more than a title's PROSE_PIECE characters, or a
    clause after a comma that runs past CLAUSE_PIECE."""
    return "。" in text or len(text) > PROSE_PIECE or ("，" in text and len(text) > CLAUSE_PIECE)


# 晋江's downloads mark an unnumbered chapter's title ˇ所谓玛丽苏ˇ, on the line after the title
# itself (八月长安《你好，旧时光》: 109 chapters); the mark is never prose.
MARKED = re.compile(r"^ˇ(?P<title>[^ˇ。]{1,40})ˇ$")
# ☆、第一个世界1, ☆、番外: 晋江's downloads put ☆、 before every chapter's title, whatever it is; a
# family like the starred titles (three or more with text between), unless a rule of its own takes the title.
JJ_MARK = re.compile(r"^[☆★]、\s*(?P<title>[^\s。！？；][^。！？；]{0,29})$")
# ★青蛙王子: a collection's tales each under a star (格林童话, 200 of them); a family of three or
# more with text between them, in a file without 第N章 headings (there a star is an ornament).
STARRED = re.compile(
    rf"^(?P<mark>[{STAR_MARKS}])\s*(?![、.．]|第)(?P<title>[^{STAR_MARKS}\s。！？；：:，,!?;…][^{STAR_MARKS}。！？；：:，,!?;…]{{0,24}})$"
)
# ------【火焰鸢尾】------: a title framed by separators (听雪楼's stories: 血薇, 风雨, 火焰鸢尾, 病, 上篇 …);
# a family of three or more with text between them (heading_choice._spread_out). A site's name
# (------凤舞文学网------), a "分割线" joke (这是郁闷的分割线———) or an end mark (序章·完) so framed
# is no title.
FRAME = "-=*＊~～_—─━═"
_F = re.escape(FRAME)
FRAMED = re.compile(
    rf"^[{_F}]{{3,}}\s*[【〖\[]?(?P<title>[^【】〖〗\[\]。，！？{_F}\s][^【】〖〗\[\]。，！？{_F}]{{0,19}}?)"
    rf"[】〗\]]?\s*[{_F}]{{3,}}$"
)
NOT_A_FRAMED_TITLE = re.compile(
    rf"分割线|完$|[网阁]$|书屋|书城|书吧|电子书|{any_case(FILE_FORMAT)}|www|\.com"
)
