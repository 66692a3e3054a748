"""What uploaders, pages and crawlers leave in a text, told by its shape wherever it stands: a page's
breadcrumb (您所在的位置：书名＞正文), a site's menu bar (首页|原创书库|现代|言情|…), a site's line
whose bytes broke (U+FFFD among odd marks, a site's words still readable), a bracket of such noise
glued to a sentence, an empty bracket before a paragraph's first word (()　　诗云), a crawler's stray
token after the last sentence (…第一！xh:.181.241.250), and an uploader's file-split marker
(Chapter_2 alone on its line).
Each judge returns the evidence that decided it, or "" to keep the text: a story's damaged line keeps
its few U+FFFD, a story's arrows and bars are not a page's."""

from __future__ import annotations

import re
import unicodedata

from bookbuilder.normalize.clean import SITE_WORDS
from bookbuilder.normalize.hints import Hint
from bookbuilder.vocabulary import HAN_COMMON, SENTENCE_STOPS

LOST = "\ufffd"  # what a decoder writes for bytes it could not read

# ---- a page's breadcrumb: where the page stands, names joined by arrows
BREADCRUMB_LINE = 80  # characters: a breadcrumb is a line of a page's head
_ARROW = re.compile(r"\s*(-{1,2}>|＞|>|»|›)\s*")
# A place's name: words, numbers, a title's 《》, spaces; no other mark (a<b, ]]>, "引号": code's, prose's)
_PLACE = re.compile(r"[\w《》〈〉][\w《》〈〉·・ \u3000]{1,29}")  # two characters at least: 甲>乙>丙 compares
_LABEL = re.compile(r"^(?:您所在的|您的|当前|所在)位置\s*[：:]\s*")


def breadcrumb(text: str) -> str:
    """A page's breadcrumb: its location label and names joined by a page's arrows (您所在的位置：书名＞正文),
    or three names joined by the same arrow (金庸-->神雕俠侶-->第一回, ->《某书》->第二十五集); names only,
    Han among them. A story's route (北京→上海) is drawn with →, and a line of code or sums
    (1<2 & 3>2 ]]>) holds other marks: they stay."""
    line = text.strip()
    if len(text) > BREADCRUMB_LINE or not re.search(f"[{HAN_COMMON}]", line):
        return ""
    label = _LABEL.match(line)
    lead = None if label else _ARROW.match(line)  # ->《某书》->第二十五集: the site's root left out
    parts = _ARROW.split(line[label.end() :] if label else line[lead.end() :] if lead else line)
    names, arrows = parts[0::2], set(parts[1::2]) | ({lead.group(1)} if lead else set())
    if not all(_PLACE.fullmatch(n) for n in names) or len(names) + bool(lead) < (2 if label else 3):
        return ""
    if not label and len(arrows) > 1:
        return ""  # 金庸-->神雕俠侶-->第一回: one arrow, given again
    return "a page's breadcrumb: names joined by a page's arrows"


# ---- a site's menu bar: many short words between bars
MENU_ITEMS = 6  # words between bars, at least: fewer are a story's list (生|死|爱)
_WORD = f"[{HAN_COMMON}]{{1,4}}"
_MENU = re.compile(rf"^\s*[|｜]?\s*(?:{_WORD}\s*[|｜]\s*){{{MENU_ITEMS - 1},}}{_WORD}\s*[|｜]?\s*$")


def menu_bar(text: str) -> str:
    """A site's menu kept as a line (首页|原创书库|现代|言情|武侠|…): MENU_ITEMS words or more of one to
    four Han characters, each between bars, and nothing else."""
    return (
        f"a site's menu: {text.count('|') + text.count('｜')} bars between short words"
        if _MENU.match(text)
        else ""
    )


# ---- an uploader's file-split marker: a name a file or a part had, alone on its line
_SPLIT_MARKER = re.compile(r"^\s*[A-Za-z]{2,12}_\d{1,4}\s*$")
SPLIT_MARKER_HINT = Hint(
    finds=re.compile(r"^[ \t]*[A-Za-z]{2,12}_\d{1,4}[ \t]*$", re.M), first=re.compile(r"[A-Za-z]_\d")
)


def split_marker(text: str) -> str:
    """An uploader's marker where it split the text into files (Chapter_1 … Chapter_5 in 生命中不能承受之轻,
    between the halves of a sentence): a word joined to a number by an underscore, alone on its line,
    which is a file's name; prose joins no word to a number so (Chapter 2, 第2章 are headings' forms)."""
    return "an uploader's file-split marker (a word_number alone)" if _SPLIT_MARKER.match(text) else ""


# ---- a site's line whose bytes broke
MOJIBAKE_LINE = 60  # characters: a site's notice is short; a story's long line keeps its damage
MOJIBAKE_LEAST = 3  # U+FFFD at least: fewer are a story's damaged word (符��)
MOJIBAKE_SHARE = 0.4  # of the line's characters, noise (U+FFFD, symbols, kana, stray letters): the rest read


def _noise(c: str) -> bool:
    """A character a broken decoding leaves among Han ones: U+FFFD, a symbol, kana, a Latin letter."""
    return (
        c == LOST
        or unicodedata.category(c) in ("So", "Sm", "Lm", "Co")
        or "\u3040" <= c <= "\u30ff"
        or c.isascii()
        and c.isalpha()
    )


def broken_site_line(text: str) -> str:
    """A site's line whose bytes broke (天才壹秒��住『�邸崛ァ滦�?�f→�W』，�槟�提供精彩小�f���x。): short,
    MOJIBAKE_LEAST U+FFFD or more, MOJIBAKE_SHARE of it noise, and a site's words among what still reads.
    A story's damaged line (“��里��嗦，还不跟上来！”) has less noise and no site's words."""
    line = text.strip()
    if len(line) > MOJIBAKE_LINE or line.count(LOST) < MOJIBAKE_LEAST:
        return ""
    share = sum(_noise(c) for c in line) / len(line)
    words = {m.group(0) for m in SITE_WORDS.finditer(line)}
    if share >= MOJIBAKE_SHARE and words:
        return f"a site's line of broken bytes ({line.count(LOST)} U+FFFD, {'、'.join(sorted(words)[:3])})"
    return ""


# ---- spans glued to a sentence
# 【�邸�去△小↓�f△�Ww    qu  】: a bracket of broken bytes and symbols, where a site's name stood
_NOISE_BRACKET = re.compile(r"[【\[〖]([^【】\[\]〖〗]{2,30})[】\]〗]")
NOISE_BRACKET_LEAST = 2  # U+FFFD in a bracket at least
# …第一！xh:.181.241.250, …！】xh.250: letters, a colon or a dot, dotted numbers, after the last sentence
# (at the paragraph's end, or before a paste's gap where a URL the URL rule cuts follows)
_CODE_TOKEN = re.compile(
    rf"(?<=[{SENTENCE_STOPS}】」”）)])[a-z]{{2,4}}[:：]?\.\d{{1,3}}(?:\.\d{{1,3}})*(?=[ \u3000]|$)"
)
# ()　　诗云: an empty bracket opening a paragraph, what stood in it (a note's number, an image)
# taken by the download: alone on its line, or spaced off the first word; its spaces go with it.
# A story's empty brackets are blanks in a sentence, glued to its words and marks and seldom one
# alone (（　），烁日蒸（　）。”其中空了两个字: 天龙八部's riddle), so a line holding another stays.
_EMPTY = r"(?:\([ \u3000]*\)|（[ \u3000]*）|\[[ \u3000]*\]|【[ \u3000]*】)"
_EMPTY_OPENING = re.compile(rf"^[ \u3000]*{_EMPTY}(?:[ \u3000]+(?=[^\W_])|[ \u3000]*$)")
_EMPTY_ANY = re.compile(_EMPTY)
# The dot first, its letter behind it: a pattern that opens with a look-behind is tried at every
# character of a chapter, one that opens with a character only where that character stands.
LEFTOVER_HINT = Hint(
    finds=re.compile(
        rf"{LOST}|\.(?<=[a-z:：]\.)\d[\d.]*(?:[ \u3000]|$)|^[ \u3000]*[(（\[【][ \u3000]*[)）\]】]", re.M
    )
)


def leftover_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, evidence) of a bracket of broken bytes and symbols, of an empty bracket opening the
    paragraph, and of a crawler's stray token after the paragraph's last sentence; the story around
    them stays."""
    spans = []
    if LOST in text:
        for m in _NOISE_BRACKET.finditer(text):
            inner = m.group(1)
            han = len(re.findall(f"[{HAN_COMMON}]", inner))
            symbols = sum(unicodedata.category(c) in ("So", "Sm") for c in inner)
            if inner.count(LOST) >= NOISE_BRACKET_LEAST and symbols and han * 2 < len(inner.replace(" ", "")):
                spans.append((m.start(), m.end(), "a bracket of broken bytes and symbols"))
    if (m := _EMPTY_OPENING.match(text)) and not _EMPTY_ANY.search(text, m.end()):
        spans.append((m.start(), m.end(), "an empty bracket opening the paragraph"))
    if m := _CODE_TOKEN.search(text):
        spans.append((m.start(), m.end(), f"a crawler's stray token after the last sentence ({m.group(0)})"))
    return spans
