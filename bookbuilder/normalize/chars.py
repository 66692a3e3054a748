"""Character rules (docs/rules.md §2.5–§2.12): each a pure, idempotent str → str function.

They run on a chapter's paragraphs joined by '\n' (never matching across '\n', so never across
paragraphs) with protected runs masked (see mask.py); a masked run reads as one non-Han character.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from bookbuilder.numerals import NUMERAL_CHARS
from bookbuilder.vocabulary import CHAPTER_UNITS, HAN_ALL, QUOTE_MARKS, VOLUME_UNITS, unit_class

HAN = HAN_ALL + "\u3007"  # with 〇, the zero written among Han numerals
# Full-width / CJK punctuation, curly quotes, ellipsis and dash: "CJK context" for the ASCII marks.
CJK_PUNCT = "\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65“”‘’…—·"
_CJK = f"[{HAN}{CJK_PUNCT}]"
_HAN = f"[{HAN}]"

_FULLWIDTH_ALNUM = {
    c: c - 0xFEE0
    for r in ((0xFF10, 0xFF19), (0xFF21, 0xFF3A), (0xFF41, 0xFF5A))
    for c in range(r[0], r[1] + 1)
}
_HAS_FULLWIDTH_ALNUM = re.compile("[０-９Ａ-Ｚａ-ｚ]")
# Patterns start with the mark they change, never with a look-behind: Python's re then jumps
# from one occurrence of the mark to the next instead of testing every character of the chapter.
_FULLWIDTH_TIME = re.compile(r"：(?<=\d：)(?=\d)")


def fullwidth_alnum(text: str) -> str:
    """FW-1: ｉＰｈｏｎｅ１０００ → iPhone1000, １６：３２ → 16:32. Chinese style writes digits and Latin
    letters half-width; full-width punctuation and U+3000 are left alone."""
    if _HAS_FULLWIDTH_ALNUM.search(text):
        text = text.translate(_FULLWIDTH_ALNUM)
    return _FULLWIDTH_TIME.sub(":", text) if "：" in text else text


_DOTS = re.compile(r"\.{3,}")
_OTHER_DOTS = re.compile(r"。{3,}|[·・]{3,}|⋯+")
_LONE_ELLIPSIS = re.compile("…(?<!……)(?!…)")


class CharClass(dict):
    """A character class as a dict, char → in the class, each answer worked out once from the
    class's ranges (written as inside a regex [...]: single characters and a-b ranges). The rules
    test single characters very often, and a dict lookup costs a fraction of a regex call; nor is
    there a regex to compile (a class with the Han ranges is slow to compile, on every run)."""

    def __init__(self, spec: str):
        super().__init__()
        self.ranges, i = [], 0
        while i < len(spec):
            if i + 2 < len(spec) and spec[i + 1] == "-":
                self.ranges.append((spec[i], spec[i + 2]))
                i += 3
            else:
                self.ranges.append((spec[i], spec[i]))
                i += 1

    def __missing__(self, ch: str) -> bool:
        self[ch] = found = any(low <= ch <= high for low, high in self.ranges)
        return found


_CJK_CHARS = CharClass(HAN + CJK_PUNCT)
_HAN_CHARS = CharClass(HAN)


def _cjk_at(text: str, i: int) -> bool:
    """text[i] is Chinese (Han or CJK punctuation); False outside the text. The rules' callbacks
    read their context with it, since their patterns cannot start with a look-behind."""
    return 0 <= i < len(text) and _CJK_CHARS[text[i]]


def _han_at(text: str, i: int) -> bool:
    """text[i] is a Han character; False outside the text. (Callbacks on a rare mark test their
    neighbours with it: a pattern holding the Han ranges is slow to compile, on every run.)"""
    return 0 <= i < len(text) and _HAN_CHARS[text[i]]


def _widen_lone_ellipsis(m: re.Match) -> str:
    """A lone … between Chinese characters (or before the paragraph's end) becomes ……."""
    text, start, end = m.string, m.start(), m.end()
    if not _cjk_at(text, start - 1):
        return m.group(0)
    return "……" if end == len(text) or text[end] == "\n" or _cjk_at(text, end) else m.group(0)


def _dots(m: re.Match) -> str:
    """... after Chinese or at a paragraph's start (not in 1...3 or Wait...)."""
    start = m.start()
    return "……" if start == 0 or m.string[start - 1] == "\n" or _cjk_at(m.string, start - 1) else m.group(0)


def _touches_cjk(m: re.Match) -> bool:
    return _cjk_at(m.string, m.start() - 1) or _cjk_at(m.string, m.end())


def ellipsis(text: str) -> str:
    """EL-1: the Chinese ellipsis is two U+2026 (GB/T 15834, clreq): ... 。。。 ··· ⋯⋯ → ……;
    a lone … between Chinese characters → ……. Existing …… and ………… (12 dots) are kept."""
    if "..." in text:
        text = _DOTS.sub(_dots, text)
    if "。。。" in text or "⋯" in text or "··" in text or "・・" in text:
        text = _OTHER_DOTS.sub("……", text)
    if "…" in text:
        text = _LONE_ELLIPSIS.sub(_widen_lone_ellipsis, text)
    return text


_HYPHEN_DASH = re.compile(r"-{2,}|－{2,}|――|―|──")
_LONE_DASH = re.compile("—(?<!——)(?!—)")


def _dash_between_cjk(m: re.Match) -> str:
    return "——" if _cjk_at(m.string, m.start() - 1) and _cjk_at(m.string, m.end()) else m.group(0)


def dashes(text: str) -> str:
    """DA-1: the Chinese dash is two U+2014: 他--不 → 他——不, 可是—我 → 可是——我, ―― (U+2015,
    from gb2312 decoding) → ——. Hyphens between digits or Latin letters (1998-2003, COVID-19) stay."""
    if "-" in text or "－" in text or "―" in text or "─" in text:
        text = _HYPHEN_DASH.sub(_dash_between_cjk, text)
    if "—" in text:
        text = _LONE_DASH.sub(lambda m: "——" if _touches_cjk(m) else "—", text)
    return text


_COMMA = re.compile(r",+")
_BANG = re.compile(r"[!?]+")


# Patterns holding the Han ranges are slow to compile, on every run: those that only some
# books need are compiled when first used.
@functools.cache
def _comma_between() -> re.Pattern:
    """The usual case, a comma between two Chinese characters, without a Python call per comma."""
    return re.compile(rf",(?<={_CJK},)(?={_CJK})")


@functools.cache
def _period() -> re.Pattern:
    """One or two dots after Han (three are an ellipsis, EL-1); the next may open a quotation
    (东撤."没错). A regex, not a callback on each dot like : and ; below: half-width dots are common
    in bad files."""
    return re.compile(rf"\.(?<={_HAN}\.)\.?(?={_HAN}|[“‘「『”’」』）》\"']|$)", re.M)


_PARENS = re.compile(r"\(([^()A-Za-z\n]*)\)")
_WIDE = str.maketrans("!?", "！？")


def _beside_cjk(m: re.Match) -> bool:
    """The run has Chinese text right before or after it, spaces between allowed (中 ,文)."""
    text, before, after = m.string, m.start() - 1, m.end()
    while before >= 0 and text[before] == " ":
        before -= 1
    while after < len(text) and text[after] == " ":
        after += 1
    return _cjk_at(text, before) or _cjk_at(text, after)


def punctuation(text: str) -> str:
    """PU-1: half-width , ! ? : . ; ( ) inside Chinese text → full-width (autocorrect's fullwidth rule).
    Protected runs are masked; ; is only changed between two Han characters, as autocorrect does.
    Spaces left beside the new full-width marks are SP-2's to remove."""
    if "," in text:
        text = _comma_between().sub("，", text)
    if "," in text:
        text = _COMMA.sub(lambda m: "，" * len(m.group(0)) if _beside_cjk(m) else m.group(0), text)
    if "!" in text or "?" in text:
        text = _BANG.sub(lambda m: m.group(0).translate(_WIDE) if _touches_cjk(m) else m.group(0), text)
    if ":" in text:
        text = _widen(text, ":", "：", _colon_fits)
    if "." in text:
        text = _period().sub(lambda m: "。" * len(m.group(0)), text)
    if ";" in text:
        text = _widen(text, ";", "；", _semicolon_fits)
    if "(" in text:
        text = _PARENS.sub(lambda m: f"（{m.group(1)}）" if _has_han(m.group(1)) else m.group(0), text)
    return text


def _widen(text: str, mark: str, wide: str, fits: Callable[[str, int], bool]) -> str:
    """Each `mark` at an i where fits(text, i) → `wide`. For marks rare in Chinese text, a call per
    mark costs less than compiling a pattern with the Han ranges in it, on every run."""
    out, done, i = [], 0, text.find(mark)
    while i >= 0:
        if fits(text, i):
            out += [text[done:i], wide]
            done = i + 1
        i = text.find(mark, i + 1)
    return "".join(out) + text[done:] if out else text


def _colon_fits(text: str, i: int) -> bool:
    """After Han, and before Han, an opening quotation mark or the paragraph's end."""
    after = text[i + 1 : i + 2]
    return _han_at(text, i - 1) and (after in ("", "\n") or after in '“‘「『"' or _han_at(text, i + 1))


def _semicolon_fits(text: str, i: int) -> bool:
    """Between two Han characters, as autocorrect does."""
    return _han_at(text, i - 1) and _han_at(text, i + 1)


_QUOTED_LINE = re.compile(r"^.*[\"'].*$", re.M)
_ANY_QUOTE = re.compile(f"[{QUOTE_MARKS}]")


def _has_han(text: str) -> bool:
    return any(_HAN_CHARS[ch] for ch in text)


@functools.cache
def _single() -> re.Pattern:  # compiled when first used (see _comma_between)
    return re.compile(rf"'({_HAN}[^'\n]{{0,40}}?)'")


def quotes(text: str, traditional: bool = False) -> str:
    """QU-1: straight quotes in Chinese paragraphs → “ ” (mainland) or 「 」 (traditional).
    A straight quote opens unless a quote is already open, reading the curly ones around it, so
    a paragraph that mixes “ and " still pairs up. ' becomes ‘ ’ only around Han (never don't)."""
    if '"' not in text and "'" not in text:
        return text
    open_q, close_q = ("「", "」") if traditional else ("“", "”")
    open_s, close_s = ("『", "』") if traditional else ("‘", "’")

    def fix(m: re.Match) -> str:
        line = m.group(0)
        if not _has_han(line):
            return line
        if '"' in line:
            out, is_open, done = [], False, 0
            for mark in _ANY_QUOTE.finditer(line):  # only the quote marks matter here
                ch, i = mark.group(), mark.start()
                if ch in "“「":
                    is_open = True
                elif ch in "”」":
                    is_open = False
                else:
                    is_open = _opens(line, i, is_open)
                    out += [line[done:i], open_q if is_open else close_q]
                    done = i + 1
            line = "".join(out) + line[done:]
        if "'" in line:
            line = _single().sub(rf"{open_s}\1{close_s}", line)
        return line

    return _QUOTED_LINE.sub(fix, text)


def _opens(line: str, i: int, is_open: bool) -> bool:
    """Whether the straight quote at line[i] opens. The place decides first: after ： or at the
    paragraph's start it opens, before ，。！？ or at the end it closes, whatever came before (a
    quotation left open earlier, 呼喊：“斩敌… then 惊呼："西门…, must not turn the next one
    around); elsewhere it alternates with the last quote seen."""
    before = line[i - 1] if i else ""
    after = line[i + 1] if i + 1 < len(line) else ""
    if before in ("", "：", ":"):
        return True
    if after in ("", "，", "。", "！", "？", "；", "、", ",", ".", "!", "?", ";"):
        return False
    return not is_open


_FW_PUNCT = "，。！？；：、“”‘’「」『』（）《》〈〉【】…—"
_SPACE_AROUND = re.compile(rf"[ \t]+(?=[{_FW_PUNCT}])|([{_FW_PUNCT}])[ \t]+")


# A title's label and its name are parted by a space the book set (RULES §4.3), also before a quoted
# or bracketed name: 第九章 “某某、某某” keeps it. Only at the text's start, where a title's label stands.
_LABEL_SPACE = re.compile(
    rf"^第\s*[{NUMERAL_CHARS}]+\s*(?:{unit_class(CHAPTER_UNITS, VOLUME_UNITS)}|部分)(?= +[“‘「『（《〈【])"
)


def space_around_punctuation(text: str) -> str:
    """SP-2: no space beside full-width punctuation (iPhone ，好 → iPhone，好): it carries its own."""
    if " " not in text and "\t" not in text:
        return text
    if text[0] == "第" and (label := _LABEL_SPACE.match(text)):
        return label.group(0) + " " + _SPACE_AROUND.sub(r"\1", text[label.end() :].lstrip(" "))
    return _SPACE_AROUND.sub(r"\1", text)


# In a title, a space before an opening quote or bracket is the separator the book set between a
# label or a name and a quoted one (序章 “约定”, 番外 「约定」, Chapter 3 “约定”, 第三章 约定 “誓言”):
# SP-2 took it wherever the label was not 第N章 at the title's start. A title is no sentence, so
# the space is the book's and stays, as one space. After punctuation (第三章: “约定” → 第三章：“约定”)
# it still goes: the mark is the separator.
_TITLE_SEPARATOR = re.compile(rf"[ \t](?<=[^\s{_FW_PUNCT},:;!?][ \t])[ \t]*(?=[“‘「『（《〈【])")


def title_space_around_punctuation(title: str) -> str:
    """SP-2 on a title: as on prose, but a space before an opening quote or bracket stays."""
    return " ".join(space_around_punctuation(piece) for piece in _TITLE_SEPARATOR.split(title))


# A dot between two Han characters in a title masks a character or parts a word (政.府, 某.书: a
# site's censoring), since a title holds no sentence for it to end; PU-1 made it a full stop
# (第三章 政。府). In a title it stays as written; one at the title's end is still a full stop.
_CENSOR_DOT = re.compile(rf"\.(?<={_HAN}\.)(?={_HAN})")


def title_punctuation(title: str) -> str:
    """PU-1 on a title: as on prose, but a dot inside a word stays."""
    return ".".join(punctuation(piece) for piece in _CENSOR_DOT.split(title))


# SP-3: a space between two Han characters inside prose is what a line break left when a PDF's or
# a scan's lines were joined (老胡 家的团 圆媳妇, 呼兰河传; 在海军进攻 狭窄段的前夕, 丘吉尔; 戴一副 细框
# 眼镜, 龙族4): Chinese prose has no spaces between words. Kept where the line is verse or a list
# (no sentence mark in it), and between two runs of the same length, a name's or a verse line's
# (张三 李四 王五, 床前明月光 疑是地上霜): hemistichs and names, not a broken word.
_HAN_SPACE = re.compile(rf" (?<={_HAN} )(?={_HAN})")
_PROSE_MARKS = frozenset("，。！？；：,!?;")  # before PU-1: a download's half-width commas too
_SEGMENT_ENDS = " \u3000，。！？；：、“”‘’「」『』（）《》…—,.!?;:()\"'"
VERSE_SEGMENTS = frozenset(
    (2, 3, 4, 5, 7)
)  # characters: a name's, or a four-, five- or seven-character line's


# Where the spaces are a join's, a chapter has many: two or more per 1,000 characters of prose
# (呼兰河传 3–4, 龙族4 2–7, 长安幻夜 4–8, 丘吉尔 5–10). A few are something else: a space where a rare
# character was lost (红楼梦 from one download: 十錦 子 for 十錦槅子, once or twice a chapter), verse
# and lyrics parted by spaces (三生三世, 镜, 诛仙: under one per 1,000).
JOIN_SPACES, JOIN_DENSITY = 3, 2.0


def han_spaces(text: str) -> str:
    """SP-3: the spaces a join left between Han characters, in a chapter's paragraphs joined by
    newlines, where the chapter has enough of them to be a joined text (see above)."""
    if " " not in text:
        return text
    lines = text.split("\n")
    prose = [i for i, line in enumerate(lines) if _PROSE_MARKS.intersection(line)]
    spaced = [i for i in prose if " " in lines[i] and not _BYLINE.search(lines[i])]
    found = sum(len(_HAN_SPACE.findall(lines[i])) for i in spaced)
    if found < JOIN_SPACES or found * 1000 < JOIN_DENSITY * sum(len(lines[i]) for i in prose):
        return text
    for i in spaced:
        lines[i] = _without_join_spaces(lines[i])
    return "\n".join(lines)


_BYLINE = re.compile(
    r"[ \u3000](?:作者|著者)\s*[:：]"
)  # 诡异追着饲养员从游戏出来了 作者：某某: a title and its byline
_HEAD_TOKENS = re.compile(
    rf"^(?:{_HAN}{{1,4}} ){{2,}}"
)  # 憶菊 蘅蕪君 悵望西風…: a title and a byline before a poem


def _without_join_spaces(line: str) -> str:
    cuts = []
    head = m.end() if (m := _HEAD_TOKENS.match(line)) else 0
    for m in _HAN_SPACE.finditer(line, head):
        left, right = _run(line, m.start() - 1, -1), _run(line, m.end(), 1)
        lone = (left == 1 and line[m.start() - 2 : m.start() - 1] == " ") or (
            right == 1 and line[m.end() + 1 : m.end() + 2] == " "
        )
        if (
            not (left == right and left in VERSE_SEGMENTS) and not lone
        ):  # lone: 匾額 迎 春園…, a name set apart
            cuts.append(m.start())
    for i in reversed(cuts):
        line = line[:i] + line[i + 1 :]
    return line


def _run(line: str, i: int, step: int) -> int:
    """How many characters from i (going by step) before a space, a mark or the line's end."""
    n = 0
    while 0 <= i < len(line) and line[i] not in _SEGMENT_ENDS:
        n, i = n + 1, i + step
    return n


_REPEATED = re.compile(r"([。，、])\1+")


def repeated_punctuation(text: str) -> str:
    """RP-1 (off by default): 。。 → 。, ，， → ，. Never touches ！！！ or ？？: those are the author's
    voice."""
    return _REPEATED.sub(r"\1", text)


@functools.cache
def _han_latin() -> re.Pattern:  # compiled when first used: the rule is off by default
    return re.compile(rf"(?<={_HAN})(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?={_HAN})")


def pangu_spacing(text: str) -> str:
    """SP-1 (off by default): a space between Han and Latin/digits. A tech-writing convention;
    novels and GB/T 15834 do not use it."""
    return _han_latin().sub(" ", text)
