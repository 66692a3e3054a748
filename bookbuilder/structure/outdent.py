"""Titles told by layout alone: in a file whose prose is indented alike, a short line that is not
(at the margin, or centred).

Collections of stories and essays (城南旧事, 呐喊-style anthologies) number nothing: each title
stands at the left margin over indented paragraphs, sometimes with its sections numbered 一, 二 …
on lines of their own; others centre each title (沉香如屑) or indent it by one space where the
prose has two ideographic ones (半开莲塘寄浮生). Looked for only where no 第N章 rule found the
book's chapters, and only in a file whose long lines are nearly all indented alike, so that a
title's indent means something. A run of such lines one under another is a poem or a list, not
titles (except a title over its first section's number: 惠安馆传奇 / 一).
"""

from __future__ import annotations

import re
from collections import Counter

from bookbuilder.numerals import TO_HUNDREDS, parse_numeral
from bookbuilder.structure.headings import Heading
from bookbuilder.structure.passes import fields
from bookbuilder.vocabulary import HAN_CHAR, PREFACES, plain

PROSE_LINE = 30  # characters: a line this long is prose, and says whether prose is indented
PROSE_INDENT_ALIKE = 0.9  # of the prose lines indented alike, for another indent to mean a title
MIN_PROSE_LINES = 20
MAX_TITLE = 20  # characters
MIN_TITLES = 3
MAX_TITLE_SHARE = 0.34  # titles among the non-blank lines: more is not a book of prose with titles (简媜's
# 下午茶: 30 short essays in 180 lines)
# What a title never holds: sentence punctuation, and an opening quote (a line of dialogue).
# A title may end in （上）; a line opening with a bracket or a dash is a stage direction or a
# quotation's source (（笑）, ——老子).
_NOT_TITLE = re.compile(r"[。．！？；，：、…,.!?;:“”「」『』‘’\"'《》<>|/\\=*#~]|^[（(—─\-]")
# A label, not a title: 君重写版文案 over 沉香如屑's blurb (the text before the first title is the
# book's introduction).
_LABEL = re.compile(
    r"(?:文案|简介|簡介|介绍|介紹|目录|目錄|正文|" + "|".join(plain(PREFACES)) + r"|推荐|推薦)\d*[】\]]?$"
)  # 【内容简介2】, 【编辑推荐】
_BYLINE = re.compile(r"^(?:作\s*者|著\s*者)\s*[:：]")
_NUMERAL_LINE = re.compile(rf"^[{TO_HUNDREDS}]{{1,4}}$")


def outdented_titles(lines: list, indent_of) -> dict[int, Heading]:
    """Index in `lines` → heading, for the titles the file's layout tells; {} where it says nothing.
    `indent_of(line number)` is the width of its indent in the file."""
    widths: Counter = Counter()  # indent → prose lines so indented
    short: list[int] = []
    for i, item in enumerate(lines):
        number, _, text = fields(item)
        if len(text) >= PROSE_LINE:
            widths[indent_of(number)] += 1
        elif (
            len(text) <= MAX_TITLE
            and HAN_CHAR.search(text)
            and not _NOT_TITLE.search(text)
            and not _LABEL.search(text)
        ):
            short.append(i)
    prose = sum(widths.values())
    if prose < MIN_PROSE_LINES:
        return {}
    width, indented = widths.most_common(1)[0]
    if width == 0 or indented < PROSE_INDENT_ALIKE * prose:
        return {}  # prose at the margin, or indented every which way: the layout tells nothing
    found = [
        i
        for i in short
        if indent_of(fields(lines[i])[0]) != width  # at the margin, or set apart (centred)
        and not (i + 1 < len(lines) and _BYLINE.match(fields(lines[i + 1])[2]))
    ]  # the book's own title
    titles = _alone(found, lines, fields)
    if len(titles) > MAX_TITLE_SHARE * len(lines):
        return {}
    named = [fields(lines[i])[2] for i in titles]
    times = Counter(named)
    titles = [
        i for i, text in zip(titles, named) if _NUMERAL_LINE.match(text) or times[text] == 1
    ]  # a refrain is no title
    if sum(1 for i in titles if not _NUMERAL_LINE.match(fields(lines[i])[2])) < MIN_TITLES:
        return {}
    headings: dict[int, Heading] = {}
    kept = set(titles)
    for i in titles:
        number, _, text = fields(lines[i])
        value = parse_numeral(text) if _NUMERAL_LINE.match(text) else None
        over_section = value is None and i + 1 in kept and _NUMERAL_LINE.match(fields(lines[i + 1])[2])
        headings[i] = Heading(
            "volume" if over_section else "chapter", " ".join(text.split()), value, number, rule="margin"
        )
    unnumbered = [h for h in headings.values() if h.number is None]
    if 2 * sum(h.kind == "volume" for h in unnumbered) >= len(unnumbered):
        # most titles stand over numbered sections: each is a volume, and so is every other
        # unnumbered title (驴打滚儿, a story without sections, a volume of one chapter)
        return {i: h._replace(kind="volume") if h.number is None else h for i, h in headings.items()}
    # most titles have no sections: they are the chapters, and the few section numbers text
    return {i: h._replace(kind="chapter") for i, h in headings.items() if h.number is None}


def _alone(found: list[int], lines: list, fields) -> list[int]:
    """The margin lines that stand alone among prose, or a title right over its section number."""
    runs: list[list[int]] = []
    for i in found:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    kept: list[int] = []
    for run in runs:
        if len(run) == 1 and run[0] + 1 < len(lines):
            kept += run
        elif (
            len(run) == 2
            and not _NUMERAL_LINE.match(fields(lines[run[0]])[2])
            and _NUMERAL_LINE.match(fields(lines[run[1]])[2])
        ):
            kept += run
    return kept
