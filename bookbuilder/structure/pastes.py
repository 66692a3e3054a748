"""Lines that hold more than one block: a forum paste's paragraphs joined by runs
of spaces, a Markdown heading or a chapter's heading glued to the paragraph before it (or behind a
book's name on the file's first line), a heading glued to its chapter's first paragraph, and a
whole book run into one line. parse.split_sections
cuts them here before it looks for headings; every piece keeps the line's number.
"""

from __future__ import annotations

import re

from bookbuilder.numerals import NUMERAL_CHARS, parse_numeral
from bookbuilder.structure.heading_forms import LABEL_AFTER_SENTENCE, reads_as_text
from bookbuilder.structure.headings import MAX_LONG_HEADING, Heading, candidate
from bookbuilder.structure.runs_through import zeros_lost
from bookbuilder.vocabulary import (
    BARE_CHAPTER_UNITS,
    CHAPTER_UNITS,
    ENDINGS,
    GLUED_CHAPTER_UNITS,
    MATTER_STARTS,
    OPENINGS,
    PROLOGUES,
    PUNCTUATION,
    SENTENCE_STOPS,
    VOLUME_UNITS,
    plain,
    unit_class,
)

# Forum pastes: one physical line holds many paragraphs, joined by runs of spaces.
PASTE_LINE = 200
PASTE_GAP = re.compile(r"[ \t\u3000](?<=\S[ \t\u3000])[ \t\u3000]+(?=\S)")
# A Markdown heading glued to the end of the paragraph before it (…一笑。###第九章  通天（6）).
GLUED_HEADING = re.compile(rf"(?<=[^#\s])(?=#{{2,6}}\s*(?:第|{unit_class(MATTER_STARTS)}))")
# A heading's label alone (第四章, ###第四章, 序章): in a paste, the gap after it may be the one
# between label and title. Of the matter words, those pastes have shown so: 序章, 楔子, 引子, 尾声.
_LABEL_WORDS = plain(OPENINGS[:1] + PROLOGUES + ENDINGS[:1])
_BARE_LABEL = re.compile(
    rf"^#{{0,6}}\s*(?:第\s*[{NUMERAL_CHARS}]+\s*{unit_class(CHAPTER_UNITS, VOLUME_UNITS)}|"
    + "|".join(_LABEL_WORDS)
    + ")$"
)
_SENTENCE_MARKS = frozenset("。！？；，…!?;")
PASTE_TITLE = 20  # characters: the longest piece after a bare label taken for its title


def may_have_gap(line: str) -> bool:
    """The quick test before PASTE_GAP's search: two spaces (ASCII or U+3000) or a tab."""
    return "\u3000\u3000" in line or "  " in line or "\t" in line


def heading_then_text(line: str, number: int, custom, title_junk) -> tuple[int, int] | None:
    """The gap between a heading and its chapter's first paragraph glued to it on one line
    (14.香橙　　香橙将桌子拉开，…), or None. After 第一章  风起 or 第3章  谁是废物？ comes a title. A
    第N回 title runs up to the 詩曰 or 話說 that opens its text (金瓶梅 from one site: 第三回定挨光王婆受贿
    设圈套浪子私挑诗曰：乍对不相识，…): an empty gap there."""
    if line[0] == "第" and (opening := _OPENING.search(line, 6, GLUED_TITLE)) is not None:
        head = line[: opening.start()]
        if (h := candidate(head, number, custom, title_junk)) is not None and (
            not h.weak or _GLUED_CHAPTER.match(head)
        ):
            return opening.start(), opening.start()
    if not may_have_gap(line):
        return None
    gap = PASTE_GAP.search(line)
    if gap is None or gap.start() > MAX_LONG_HEADING or not reads_as_text(line[gap.end() :]):
        return None
    return gap.span() if candidate(line[: gap.start()], number, custom, title_junk) is not None else None


_ANY_PUNCTUATION = re.compile(f"[{re.escape(PUNCTUATION)}]")
FIRST_LINE_NAME = 12  # characters of a book's name, at the most, glued before its first heading on line 1


def may_hold_label(line: str, number: int) -> bool:
    """The quick test before _label_behind: an English label's word, or 第 on the file's first line."""
    return "hapter" in line or "HAPTER" in line or (number == 1 and "第" in line[1 : FIRST_LINE_NAME + 1])


def label_behind(line: str, number: int, custom, title_junk) -> Heading | None:
    """A chapter's label behind other text on its line, as a weak heading with that text as its
    lead: after a finished sentence (…追溯到生命最开始的地方……Chapter 2青春在哪里？, 桐华), or on the
    file's first line after the book's name (水浒传第一段  话说…, a data set's first line). Taken only
    where the numbering runs on through it; else the line stays whole."""
    if m := LABEL_AFTER_SENTENCE.search(line):
        h = candidate(line[m.start() :], number, custom, title_junk)
        if h is not None and h.rule == "chapter-en":
            return h._replace(lead=line[: m.start()], weak=True)
    k = line.find("第", 1, FIRST_LINE_NAME + 1)
    if number == 1 and k > 0 and not _ANY_PUNCTUATION.search(line[:k]):
        h = candidate(line[k:], number, custom, title_junk)
        if h is not None and h.kind == "chapter" and h.number == 1:
            return h._replace(lead=line[:k], weak=True)
    return None


def paste_pieces(line: str) -> list[str]:
    """A forum paste's line cut into the paragraphs it holds: at runs of spaces, and before a
    Markdown heading glued to a paragraph's end. A bare label and the short piece after it
    (第四章  通天（1）) are one heading: that gap was the label's, not a paragraph's."""
    pieces = [
        cut
        for part in GLUED_HEADING.split(line)
        for piece in PASTE_GAP.split(part)
        for cut in after_sentence(piece)
    ]
    out: list[str] = []
    for piece in pieces:
        if (
            out
            and _BARE_LABEL.match(out[-1])
            and len(piece) <= PASTE_TITLE
            and not _SENTENCE_MARKS.intersection(piece)
            and not _BARE_LABEL.match(piece)
        ):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


# A heading glued to the end of the chapter before it (…为他送行。第二章 下山): a crawler that wrote
# title + text with no line break between chapters.
_HEADING_AFTER_SENTENCE = re.compile(
    rf"[{SENTENCE_STOPS}”」』…](?=第\s*[{NUMERAL_CHARS}]+\s*{unit_class(GLUED_CHAPTER_UNITS)})"
)


def after_sentence(piece: str) -> list[str]:
    """The piece, cut before a heading that ends it after a finished sentence: a strong one, or a
    第N章 / 第N回 with its title glued on (…”第二百一十章冰雪女神祭祀的秘密: 冰火魔厨 lost 7 chapters so),
    which the numbering then judges, never 第三回合… or 第一节课…, a sentence's words; and after the
    heading, where 詩曰, 話說 … begin the chapter on the same line, its text (金瓶梅 from one site)."""
    if "第" not in piece:
        return [piece]
    for m in _HEADING_AFTER_SENTENCE.finditer(piece):
        head, text = piece[m.end() :], ""
        if (
            opening := _OPENING.search(head, 4, GLUED_TITLE)
        ) is not None:  # …浪子私挑诗曰：乍对不相识: the text begins
            head, text = head[: opening.start()], head[opening.start() :]
        if (h := candidate(head, 0)) is not None and (not h.weak or _GLUED_CHAPTER.match(head)):
            return [piece[: m.end()], head] + ([text] if text else [])
    return [piece]


_GLUED_CHAPTER = re.compile(
    rf"^第[{NUMERAL_CHARS}]+(?:章(?![程节])|回(?![合事家来去头]))[^\s，。！？；：“”]{{2,20}}$"
)


# A whole book run into one line (the Project Gutenberg texts of one scrape: 儒林外史, 三俠五義, 官場現形記,
# 初刻拍案驚奇 … with every line break gone): its 第N回 (章, 卷) labels stand after a finished sentence or
# after the book's name repeated as a page header, each glued to its couplet title, and the title to
# the text, which 話說, 詩曰 … open.
GLUED_BOOK = 5000  # characters: a line this long may be a book run together
GLUED_START = (
    300  # characters from the start within which the first label stands (after the name, a 书名 line)
)
_GLUED_NUMBER = (
    rf"([{NUMERAL_CHARS}]{{1,7}}){unit_class(BARE_CHAPTER_UNITS, '卷')}"  # 回, 章, and 卷 (a book of 卷s)
)
_FIRST_LABEL = re.compile(rf"第?{_GLUED_NUMBER}")  # 定情人's first is 一回, its 第 lost
# (且不言, 且不題: "leave that aside", a storyteller's turn back from the last 回, which opens the next)
_OPENING = re.compile(
    r"話說|话说|卻說|却说|且說|且说|詩曰|诗曰|詞曰|词曰|話表|话表|卻表|却表|上回書|上回书|這回書|这回书|看官|原來|原来"
    r"|且不[言題题說说表]"
)
GLUED_TITLE = 40  # characters after a label within which an opening word ends its title
GLUED_GAP = 20  # chapters a download may lack between two labels
GLUED_LABELS = 3  # chapter labels in one line, at least, for it to be a book run together
_TITLE_BREAK = re.compile(r"[，。、；：！？「」『』“”（）《》,.;:!?]")


def glued_chapters(line: str) -> list[tuple[bool, str]] | None:
    """A book run into one line cut into its headings and texts: at its first label, in the book's
    first tenth, then before each label after a finished sentence or the book's repeated name (cut
    off), where three or more number on from each other (a gap of up to 20 missing chapters allowed;
    a story's 第二章 … deep inside a collection, 吶喊's 阿Q正傳, is not the book's). A title ends where 話說,
    詩曰 … open the text; elsewhere it is as long as the book's other titles, if that much holds no
    punctuation, or the heading keeps its label alone."""
    name = next((line[:size] for size in range(2, 21) if line[size : 2 * size] == line[:size]), "")
    after = rf"(?<=[{SENTENCE_STOPS}」』”…])" + (f"|(?<={re.escape(name)})" if name else "")
    first = _FIRST_LABEL.search(line, 0, GLUED_START)
    found = [first] if first else []
    found += re.compile(rf"(?:{after})第{_GLUED_NUMBER}").finditer(line, first.end() if first else 0)
    labels, last = [], 0
    for m in found:
        number = parse_numeral(m.group(1)) or 0
        # the first in the book's first tenth (after its name, a preface: 蕩寇志 starts at 第七十一回);
        # then each on from the last (儒林外史's download lacks 第二回 … 第十一回)
        if (
            not labels
            and m.start() <= max(GLUED_START, len(line) // 10)
            or labels
            and last < number <= last + GLUED_GAP
        ):
            labels.append(m.span())
            last = number
        elif (
            labels and zeros_lost(m.group(0), last + 1) and line[m.end() : m.end() + 1] not in "合事家来去头"
        ):  # 西遊記's 第一回 after 第九回: 第一〇回, its 〇 lost (not 第一回合, a sentence's)
            labels.append(m.span())
            last += 1
    if len(labels) < GLUED_LABELS:
        return None
    titled = {}
    for start, end in labels:
        if (m := _OPENING.search(line, end, end + GLUED_TITLE)) and m.start() - end >= 2:
            titled[start] = m.start() - end
    usual = sorted(titled.values())[len(titled) // 2] if titled else 0
    pieces = [(False, line[: labels[0][0]])]  # (a heading?, its text)
    for k, (start, end) in enumerate(labels):
        stop = labels[k + 1][0] if k + 1 < len(labels) else len(line)
        length = titled.get(start, usual)
        if not length or _TITLE_BREAK.search(line, end, end + length):
            length = 0  # no telling where its title ends: the label alone heads the chapter
        text = line[end + length : stop]
        pieces += [
            (True, f"{line[start:end]} {line[end : end + length]}".strip()),
            (False, text[: -len(name)] if name and text.endswith(name) else text),
        ]
    return [(heading, text) for heading, text in pieces if text.strip()]
