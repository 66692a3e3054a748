"""A chapter file's own title line: in a folder of Chapter1.txt … Chapter29.txt, 12.txt or
第12章.txt, whose names give the order and the number and nothing else, the file's first line may be
its title, marked or not (*說楔子敷陳大義　借名流隱括全文, ☆风起, 【风起】, 风起). That line titles the
chapter, without its marks, and is no paragraph. A name that says something (风起.txt, 第12章 风起.txt)
keeps titling its chapter, as a file without such a line does.

Whatever the name, a first line that is the file's name again (`Prelude 1` in Prelude 1.txt,
`① 即便如此，…` in ①即便如此，….txt, 林靈素傳 in 林靈素傳.txt) is the title the text gives: it titles
the chapter, as the text writes it, and is no paragraph; a line that is the name less its number
(`Interlude……` in Interlude 3.txt) goes too, the name's number telling the chapters apart. A
play's scene label (第一场, 场景一) opens a scene, not the file: never its title.
"""

from __future__ import annotations

import re
import unicodedata

from bookbuilder.model import Paragraph
from bookbuilder.numerals import NUMERAL_CHARS
from bookbuilder.structure.file_order import file_number
from bookbuilder.structure.headings import candidate, normalize_title
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
# A play's scene label: 第一场, 第3场, 场景一, 场景 2, 第二景 (and a scene's name after it).
SCENE_LABEL = re.compile(
    rf"^(?:第\s*[{NUMERAL_CHARS}]+\s*[场場景]|[场場]景\s*[{NUMERAL_CHARS}]+)(?![{NUMERAL_CHARS}])"
)
_NOT_A_NAME = re.compile(
    rf"[\s{re.escape(PUNCTUATION)}!-/:-@\[-`{{-~]+"
)  # what a name's words are told apart without


def says_nothing(stem: str) -> bool:
    """The file's name (without .txt) is only its number."""
    return bool(_NUMBER_ONLY.match(stem.strip()))


def title_line(stem: str, blocks: tuple) -> tuple[str, tuple] | None:
    """(the chapter's title, its blocks without the title line) when a file named only by its
    number opens with its title, else None. A 第12章 name lends the title its label."""
    if len(blocks) < 2 or type(blocks[0]) is not Paragraph or type(blocks[1]) is not Paragraph:
        return None
    line = blocks[0].text.strip()
    if named := _the_name_again(line, stem):
        return named, tuple(blocks[1:])
    if not says_nothing(stem) or len(line) > TITLE_LINE or SCENE_LABEL.match(line):
        return None
    if (own := _numbered_as_named(line, stem)) is not None:
        return own, tuple(blocks[1:])
    if m := _MARKED.match(line):
        words = (m.group("starred") or m.group("bracketed") or "").strip()
        if not words or _SENTENCE.search(words) or words.endswith(("，", "：", ",", ":")):
            return None
    elif _ANY_PUNCTUATION.search(line) or line.endswith(("曰", "云")):  # 诗曰: a poem follows
        return None
    else:
        words = line
    title = normalize_title(words)
    if not title:
        return None
    if _CHAPTER_LABEL.match(stem.strip()) and not title.startswith("第"):
        title = normalize_title(f"{stem.strip()} {title}")
    return title, tuple(blocks[1:])


def _numbered_as_named(line: str, stem: str) -> str | None:
    """第 1 章：家人们谁懂啊，猝死还得上班 in 第一章.txt: a numbered heading the rules alone call weak (a
    comma in its title), whose number is the one the file's name gives: the chapter's title."""
    heading = candidate(line, 1)
    if heading is None or heading.kind != "chapter" or heading.number is None:
        return None
    return heading.title if heading.number == file_number(stem) else None


def _folded(text: str) -> str:
    """A name's words alone: widths, case, spaces and punctuation folded away."""
    return _NOT_A_NAME.sub("", unicodedata.normalize("NFKC", text).casefold())


def _the_name_again(line: str, stem: str) -> str:
    """The chapter's title where the line is the file's name again (the line as written), or the
    name less its number (the name, which tells the chapters apart); else ""."""
    said, name = _folded(line), _folded(stem)
    if not said or len(said) < 2:
        return ""
    if said == name:
        return normalize_title(line)
    if name.startswith(said) and name[len(said) :].isdigit():
        return normalize_title(stem)
    return ""
