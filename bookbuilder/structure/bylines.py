"""Bylines: the line at the top of a download that names the author by a word after the name
(江南 著, 清溪道人著, （清）曹雪芹 著, 〔日〕某某 编著) or by a label before it with no colon
(作者 某某, 作 者某某), under the title or beside it (倚天屠龙记 金庸 著, 《诛仙》 萧鼎 著).

A story's line may end in 著 too (效果显著, 一群土著, and in traditional text 著 is also the
particle 着: 他笑著): the shapes here are a byline's alone. A name set apart from 著 by a space,
or after a dynasty or a country in brackets, is a byline wherever the header is read; a name glued
to 著 is one only on the line right under the title at the top (structure/meta.py decides where),
and never where the name and 著 make one of the words below."""

from __future__ import annotations

import re

from bookbuilder.vocabulary import HAN_COMMON

# The words an author's name is followed by in a byline: written, compiled and written, composed.
AUTHOR_WORDS = ("编著", "編著", "编撰", "編撰", "著", "撰", "纂")
_AUTHOR_WORD = "(?:" + "|".join(AUTHOR_WORDS) + ")"
# Words of the language that end in 著 and are no byline (显著 notable, 土著 native, 名著 a classic,
# 原著 the original, 执著 persistent …): a name glued to 著 that ends in one is a story's word.
NOT_A_BYLINE = (
    "显著",
    "顯著",
    "土著",
    "卓著",
    "昭著",
    "名著",
    "原著",
    "巨著",
    "专著",
    "專著",
    "论著",
    "論著",
    "拙著",
    "遗著",
    "遺著",
    "译著",
    "譯著",
    "新著",
    "执著",
    "執著",
    "沉著",
    "穿著",
    "衣著",
)
NAME_MOST, GLUED_NAME_MOST = 16, 6  # a name's characters; one glued to 著 is short (清溪道人)
# A dynasty or a country in brackets before the name: （清）曹雪芹, [明]罗贯中, 〔日〕东野圭吾.
ORIGIN = r"[（(\[【〔][^）)\]】〕]{1,2}[）)\]】〕]\s*"
_NAME = rf"[{HAN_COMMON}A-Za-z·•・]{{2,{NAME_MOST}}}"
_GAP = r"[ \u3000]+"
# 江南 著, （清）曹雪芹 著, （清）曹雪芹著: the name parted from the word, or after its origin.
_SET_APART = re.compile(
    rf"^(?:{ORIGIN}(?P<origin_name>{_NAME}?)\s*|(?:{ORIGIN})?(?P<name>{_NAME}?){_GAP}){_AUTHOR_WORD}$"
)
# 作者 江南, 著者　江南, 编著 江南: the label with no colon, a gap after it; and 作 者江南, the label
# typeset with a space (张晓风经典散文集 from a download), a colon or none after it.
_LABEL_NO_COLON = re.compile(
    rf"^(?:(?:作者|著者|[编編]著){_GAP}|作{_GAP}者[ \u3000]*[:：]?[ \u3000]*)(?:{ORIGIN})?(?P<name>{_NAME})$"
)
# 倚天屠龙记 金庸 著, 《诛仙》 萧鼎著, [三体II - 黑暗森林  刘慈欣 著 ]: the title (in 《》, or words that
# may hold a space, 三体II - 黑暗森林), a gap or its 》, then a byline; the whole maybe in brackets.
_QUOTED_TITLE = re.compile(r"^《(?P<title>[^《》]{1,40})》\s*(?P<byline>.+)$")
_TITLE_WORDS = re.compile(r"^[^\s\[【（(《》：:，。；！？/／◎][^\[【（(《》：:，。；！？/／◎]{1,29}$")
_BRACKETED = re.compile(r"^[\[【]\s*(?P<inside>.+?)\s*[\]】]$")
# 陶庵夢憶  [明]張岱: beside a classic's name, its author after his dynasty is a byline without 著.
ORIGIN_AND_NAME = re.compile(rf"^{ORIGIN}(?P<name>[{HAN_COMMON}·]{{2,6}})$")
# 清溪道人著: a short name glued to the word.
_GLUED = re.compile(rf"^(?:{ORIGIN})?(?P<name>[{HAN_COMMON}·]{{2,{GLUED_NAME_MOST}}}?){_AUTHOR_WORD}$")


def byline_author(line: str) -> str:
    """The name a byline line gives (江南 著, 作者 江南, （清）曹雪芹著); "" for any other line."""
    line = line.strip(" \u3000")
    m = _SET_APART.match(line) or _LABEL_NO_COLON.match(line)
    if not m:
        return ""
    return m.groupdict().get("origin_name") or m.group("name")


def glued_author(line: str) -> str:
    """The name of a byline glued to its word (清溪道人著), which only the line's place under the title
    makes a byline; "" when the line is no such shape or ends in a word such as 显著 or 土著."""
    line = line.strip(" \u3000")
    if line.endswith(NOT_A_BYLINE) or not (m := _GLUED.match(line)):
        return ""
    return m.group("name")


def title_and_byline(line: str) -> tuple[str, str] | None:
    """(title, author) of a title with its byline beside it (倚天屠龙记 金庸 著, 《诛仙》 萧鼎 著,
    陶庵夢憶  [明]張岱); a glued name counts beside a title in 《》 only. The title is what stands
    before the first gap after which a byline stands."""
    line = line.strip(" \u3000")
    line = m.group("inside") if (m := _BRACKETED.match(line)) else line
    if m := _QUOTED_TITLE.match(line):
        author = byline_author(m.group("byline")) or glued_author(m.group("byline"))
        return (m.group("title"), author) if author else None
    for gap in re.finditer(_GAP, line):
        title, byline = line[: gap.start()], line[gap.end() :]
        if _TITLE_WORDS.match(title):
            origin = ORIGIN_AND_NAME.match(byline)
            if author := byline_author(byline) or (origin.group("name") if origin else ""):
                return title, author
    return None
