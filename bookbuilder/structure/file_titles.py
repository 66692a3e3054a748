"""A chapter file's own title line: in a folder of Chapter1.txt … Chapter29.txt, 12.txt or
第12章.txt, whose names give the order and the number and nothing else, the file's first line may be
its title, marked or not (*說楔子敷陳大義　借名流隱括全文, ☆风起, 【风起】, 风起). That line titles the
chapter, without its marks, and is no paragraph. A name that says something (风起.txt, 第12章 风起.txt)
keeps titling its chapter, as a file without such a line does.
"""

from __future__ import annotations

import re

from bookbuilder.model import Paragraph
from bookbuilder.numerals import NUMERAL_CHARS
from bookbuilder.structure.headings import normalize_title
from bookbuilder.vocabulary import CHAPTER_UNITS, CLOSING_QUOTES, PUNCTUATION, SENTENCE_END_MARKS, unit_class

# A name that is only a number: Chapter12, chapter_012, ch 3, 12, 012, 第12章, 第十二回.
_NUMBER_ONLY = re.compile(
    rf"^(?:(?:chapter|chap|ch|part)?[\s_\-.]*[0-9０-９]+|第\s*[{NUMERAL_CHARS}]+\s*{unit_class(CHAPTER_UNITS)})$",
    re.I,
)
_CHAPTER_LABEL = re.compile(rf"^第\s*[{NUMERAL_CHARS}]+\s*{unit_class(CHAPTER_UNITS)}$")
TITLE_LINE = 30  # characters: the longest first line taken for a title (parse.TITLE_BELOW's)
# The marks a file's title line is set between, which are not the title's: *…, ☆…☆, 【…】.
_MARKED = re.compile(
    r"^(?:[*＊☆★◆◇●○]+\s*(?P<starred>[^*＊☆★◆◇●○].*?)\s*[*＊☆★◆◇●○]*|【(?P<bracketed>[^【】]+)】)$"
)
# An unmarked line is a title only with no punctuation at all (as parse's title under a bare 第N回);
# a marked one may hold a couplet's comma (宴桃園豪傑三結義，斬黃巾英雄首立功), never a sentence's end.
_ANY_PUNCTUATION = re.compile(f"[{re.escape(PUNCTUATION)}]")
_SENTENCE = re.compile(f'[{SENTENCE_END_MARKS}{CLOSING_QUOTES}；;“「『"]')  # a sentence's marks: not a title


def says_nothing(stem: str) -> bool:
    """The file's name (without .txt) is only its number."""
    return bool(_NUMBER_ONLY.match(stem.strip()))


def title_line(stem: str, blocks: tuple) -> tuple[str, tuple] | None:
    """(the chapter's title, its blocks without the title line) when a file named only by its
    number opens with its title, else None. A 第12章 name lends the title its label."""
    if (
        not says_nothing(stem)
        or len(blocks) < 2
        or type(blocks[0]) is not Paragraph
        or type(blocks[1]) is not Paragraph
    ):
        return None
    line = blocks[0].text.strip()
    if len(line) > TITLE_LINE:
        return None
    if m := _MARKED.match(line):
        words = (m.group("starred") or m.group("bracketed") or "").strip()
        if not words or _SENTENCE.search(words) or words.endswith(("，", "：", ",", ":")):
            return None
    elif _ANY_PUNCTUATION.search(line) or line.endswith(("曰", "云")):  # 诗曰: a poem follows
        return None
    else:
        words = line
    title = normalize_title(words)
    if _CHAPTER_LABEL.match(stem.strip()) and not title.startswith("第"):
        title = normalize_title(f"{stem.strip()} {title}")
    return title, tuple(blocks[1:])
