"""A file or folder name read against the text it holds, where the name is no title by itself:

- a name in Latin letters that spells, in pinyin, a name the text quotes (shendiaoxialv_jinyong.txt
  over a text quoting 《神雕侠侣》, HLM_chapter over one quoting 《红楼梦》: the syllables in full, or
  their initials), and the author's name among the opening's headings and quotes (jinyong → 金庸 in
  金庸作品集“三联版”序);
- a name that is a title the text quotes with a tag glued on (raw三体.txt, 天龍八部繁BIG.txt: a
  programmer's or an encoding's Latin letters, perhaps with one Han character of a script's name),
  where the title is the quoted name;
- a folder named after a site's contents page (三国演义 最新章节更新列表): the book's name, a gap,
  then the page's label.

The text's title is a name it quotes at least QUOTED_LEAST times (a name quoted once may be another
book's, a story's 《诗经》); of several, the most quoted."""

from __future__ import annotations

import os
import re
from collections import Counter
from functools import lru_cache

from bookbuilder.model import Paragraph
from bookbuilder.vocabulary import HAN_COMMON

QUOTED_LEAST = 2  # times the text quotes a name before a file name may be read as it
INITIALS_LEAST = 3  # letters of a name spelled by its initials (HLM): fewer match by chance
TAG_HAN_MOST = 1  # Han characters a tag glued to a quoted title may hold (繁 in 天龍八部繁BIG)
_QUOTED = re.compile(rf"《([{HAN_COMMON}]{{2,12}})》")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
_ROMAN = re.compile(r"^[IVXivx]+$")  # 三体II: a series' number, not a tag
# A site's contents page's labels (data/titles.toml's labels before a heading): 最新章节更新列表,
# 章节目录, 目录 after the book's name and a gap are the page's, never the title's.
PAGE_LABELS = ("最新章节", "章节目录", "章节列表", "目录")
_PAGE_LABEL = re.compile(rf"^(?P<title>\S.*?)[\s\u3000]+(?:{'|'.join(PAGE_LABELS)})[{HAN_COMMON}]*$")


def without_page_label(name: str) -> str:
    """三国演义 最新章节更新列表 → 三国演义; any other name as it is."""
    return m.group("title") if (m := _PAGE_LABEL.match(name.strip())) else name


def quoted_names(volumes) -> Counter:
    """How often the text quotes each name in 《》, and where first (Counter; .first holds lines)."""
    counts: Counter = Counter()
    for volume in volumes:
        for chapter in volume.chapters:
            for block in chapter.blocks:
                if type(block) is Paragraph and "《" in block.text:
                    counts.update(_QUOTED.findall(block.text))
    return counts


def title_in_text(name: str, volumes) -> str:
    """The title the text quotes that the name spells in pinyin or holds with a tag glued on; ""
    when the name is a title by itself, or the text quotes no such name."""
    if not _LATIN_WORD.search(name):
        return ""
    quoted = [(n, q) for q, n in quoted_names(volumes).most_common() if n >= QUOTED_LEAST]
    if not quoted:
        return ""
    if not re.search(f"[{HAN_COMMON}]", name):
        words = [w.lower() for w in re.split(r"[\W_\d]+", name) if w]
        return next((q for _, q in quoted if any(spells(w, q) for w in words)), "")
    return next((q for _, q in quoted if _tagged(name, q)), "")


def _tagged(name: str, title: str) -> bool:
    """Whether the name is the title with a tag before or after it: Latin letters (not a Roman
    numeral), and at most TAG_HAN_MOST Han characters."""
    at = name.find(title)
    if at < 0 or name.count(title) != 1:
        return False
    tag = name[:at] + name[at + len(title) :]
    letters = "".join(_LATIN_WORD.findall(tag))
    return (
        bool(letters)
        and not _ROMAN.match(letters)
        and len(re.findall(f"[{HAN_COMMON}]", tag)) <= TAG_HAN_MOST
    )


@lru_cache(maxsize=4096)
def _readings(char: str) -> tuple[str, ...]:
    # One character's readings need no phrase dictionary: pypinyin's documented switch leaves it
    # unread (0.2 s), as normalize.clean and render.names set it, whichever imports it first.
    os.environ.setdefault("PYPINYIN_NO_PHRASES", "true")
    from pypinyin import Style, pinyin  # here: the name is Latin, which few are

    return tuple(pinyin(char, style=Style.NORMAL, heteronym=True)[0])


def spells(word: str, han: str) -> bool:
    """Whether a Latin word spells the Han name in pinyin, syllable by syllable (shendiaoxialv for
    神雕侠侣, ü as v) or by the syllables' initials (hlm for 红楼梦, INITIALS_LEAST letters or more)."""
    readings = [_readings(c) for c in han]
    if len(word) == len(han) >= INITIALS_LEAST and all(
        any(r[:1] == letter for r in rs) for letter, rs in zip(word, readings)
    ):
        return True
    return _spelled_from(word, readings)


def _spelled_from(word: str, readings: list) -> bool:
    if not readings:
        return not word
    return any(word.startswith(r) and _spelled_from(word[len(r) :], readings[1:]) for r in readings[0] if r)


NAME_SEARCH_CHAPTERS = 2  # the first chapters whose titles and quotes may hold the author's name


def author_spelled(name: str, title: str, volumes) -> str:
    """The author a Latin name spells beside the title (jinyong in shendiaoxialv_jinyong) where the
    opening's chapter titles or quotes hold a name of two to four Han characters that it spells."""
    words = [w.lower() for w in re.split(r"[\W_\d]+", name) if w]
    words = [w for w in words if not spells(w, title)]
    if not words:
        return ""
    places = []
    for volume in volumes[:1]:
        for chapter in volume.chapters[:NAME_SEARCH_CHAPTERS]:
            places.append(chapter.title or "")
            places += [
                q
                for b in chapter.blocks
                if type(b) is Paragraph
                for q in re.findall(r"[“「]([^”」]{2,4})[”」]", b.text)
            ]
    for place in places:
        for size in (2, 3, 4):
            head = place[:size]
            if re.fullmatch(f"[{HAN_COMMON}]{{{size}}}", head) and any(spells(w, head) for w in words):
                return head
    return ""
