"""Debris inside a sentence that shows itself by its form, whatever the site (the evidence:
docs/rules-notes.md, "Debris by evidence"): a site's name strewn one character to a bracket
(｛t｝｛xt｝｛小｝…) or with marks between its characters
(大；学，生，小，说'网, "手"机"电"子"书), a domain strewn with a mark after each letter, a run of box
drawing, a bracket that holds nothing but site words (【无弹窗.】). Each span comes with the evidence
that decided it; the story's characters on either side stay."""

from __future__ import annotations

import re

from bookbuilder.normalize.clean import (
    LOOKALIKES,
    NOTICE_WORDS,
    SITE_WORDS,
    WATERMARK_WORDS,
    notice_words,
    site_share,
)
from bookbuilder.normalize.hints import LATIN_LOOKALIKE, Hint
from bookbuilder.normalize.leftovers import LEFTOVER_HINT, leftover_spans
from bookbuilder.normalize.strewn import STREWN_HINT, strewn_names
from bookbuilder.vocabulary import (
    CLOSING_BRACKETS,
    HAN_CHAR,
    HAN_COMMON,
    OPENING_BRACKETS,
    SENTENCE_STOPS,
    SITE_NAME_ENDINGS,
)

# Drawing and pictures: a run of box drawing here, a banner's row (debris.banner_art), a frame's symbols.
PICTURES = Hint(finds=re.compile(r"[\u2500-\u259f\ufe30-\ufe4f\u2190-\u21ff●○◎■□▲△▼▽◆◇★☆♀♂♠♣♥♦｛]"))
SITE_NAME_LEAST, SITE_NAME_MOST = 3, 8  # characters of a site's name alone (小说网 … 大学生小说网)
STREWN_NAME = 3  # characters of a strewn name at least; a longer one may lose a story's first character
STREWN_MARKS = 3  # marks between a strewn name's characters: fewer are a title's colon or a typo
BRACKET_SITE_SHARE = 0.75  # of a bracket's Han characters in site words: the site's, not the story's
# A mark set after a Han character with Han after it (小＿说, 凤-舞, 激_情): a strewn name's, or words split
# so that a filter misses them. It starts at a mark prose seldom sets there, not at every Han character,
# and a scan of the rare marks alone comes first.
_RARE_MARK = re.compile(r"['\"`\-＿_|｜/／*＊~～+＋@＠＃#$＄^＾&＆{}]")
STREWN_MARK = Hint(
    finds=re.compile(
        rf"['\"`\-＿_|｜/／*＊~～+＋@＠＃#$＄^＾&＆](?:(?<=[{HAN_COMMON}].)|(?<=[{HAN_COMMON}]..))"
        rf"(?=\S{{0,2}}[{HAN_COMMON}])"
    ),
    first=_RARE_MARK,
)
# A bracket, which matters only beside site words or letters (【无弹窗.】, ｛t｝｛xt｝).
BRACKET = Hint(finds=re.compile(r"[【\[（(［〖]"), beside=(SITE_WORDS, NOTICE_WORDS, LATIN_LOOKALIKE))
FORM_HINTS = (
    PICTURES,
    STREWN_MARK,
    BRACKET,
    STREWN_HINT,
    LEFTOVER_HINT,
)  # what form_debris needs to find before it can take anything

_BRACED_LETTERS = re.compile(
    rf"(?:[｛{{〖【\[（(][{HAN_COMMON}A-Za-z0-9ａ-ｚＡ-Ｚ]{{1,2}}[｝}}〗】\]）)]){{3,}}"
)  # ｛t｝｛xt｝｛小｝｛说｝…
_BOX_RUN = re.compile(r"[\u2500-\u257f]{3,}")  # ┖─────┘ glued to a heading
_SITE_BRACKET = re.compile(
    r"[【\[〖（(［]([^【】\[\]〖〗（）()［］]{2,12})[】\]〗）)］]"
)  # 【无弹窗.】, 【全文字阅读.】


# 大；学，生，小，说'网 and ——凤-舞-文-学-网——: one character, then a mark or two, again and again
_STREWN_HAN = re.compile(
    rf"(?:[{HAN_COMMON}](?:[ \u3000]*[^{HAN_COMMON}\w\s]{{1,3}}[ \u3000]*|[ \u3000]+)){{3,}}[{HAN_COMMON}]"
)
# -Ｊ'ａ'r't'x't'．ｃ'o'm: a domain's letters, a mark after each (not letter-spacing, which fold reads)
_STREWN_LATIN = re.compile(r"-?(?:[A-Za-zＡ-Ｚａ-ｚ0-9０-９.．][\'`’\"^*]?){6,}")
_MARKED_BRACKET = re.compile(
    r"[（(【\[［]([^（）()【】\[\]［］]{3,40})[）)】\]］]"
)  # （／t／／xt｜小／／说／//天//堂）
_NAME_END = re.compile(
    "(?:" + "|".join(SITE_NAME_ENDINGS + ("天堂",)) + ")$"
)  # 天堂: TXT小说天堂's strewn name


def _site_name_alone(word: str) -> bool:
    """Whether the characters left once marks are gone are a site's name: its words only (txt小说天堂),
    or a short name ending as site names end (大学生小说网, 凤舞文学网)."""
    if not word:
        return False
    if "txt" in word and WATERMARK_WORDS.fullmatch(word):
        return True
    return (
        SITE_NAME_LEAST <= len(word) <= SITE_NAME_MOST
        and bool(_NAME_END.search(word))
        and bool(SITE_WORDS.search(word) or word.endswith("网"))
    )


def _strewn_names(text: str) -> list[tuple[int, int, str]]:
    """A site's name strewn with marks between its characters (大；学，生，小，说'网, ——凤-舞-文-学-网——),
    without the story's characters on either side."""
    spans = []
    for m in _STREWN_HAN.finditer(text):
        han = [
            i for i in range(m.start(), m.end()) if HAN_CHAR.match(text, i)
        ]  # where each of its characters is
        found = next(
            (
                (a, b)
                for a in range(min(3, len(han)))
                for b in range(len(han), max(a, len(han) - 3), -1)
                if b - a >= STREWN_NAME
                and not any(
                    c in SENTENCE_STOPS for c in text[han[a] : han[a + 1]] + text[han[b - 2] : han[b - 1]]
                )
                # 半夜[某·书·网]: a bracket opens (or closes) the name; the character outside is the story's
                and not any(c in OPENING_BRACKETS for c in text[han[a] : han[a + 1]])
                and not any(c in CLOSING_BRACKETS for c in text[han[b - 2] : han[b - 1]])
                and _site_name_alone("".join(text[i] for i in han[a:b]))
            ),
            None,
        )
        if found:  # 度。——凤-舞-文-学-网——我: the story's characters on either side are no part of it
            a, b = found
            if (
                b - a > STREWN_NAME
                and han[a] > 0
                and HAN_CHAR.match(text, han[a] - 1)
                and text[han[a + 1] - 1] == text[han[a + 2] - 1]
                and _site_name_alone("".join(text[i] for i in han[a + 1 : b]))
            ):
                a += 1  # 护卫"手"机"电"子"书: each of its characters after the same mark; 卫 is the story's
            start, end = han[a], han[b - 1] + 1
            if start and text[start - 1] == text[han[a + 1] - 1] and not HAN_CHAR.match(text, start - 1):
                start -= 1  # the mark before its first character ("手"机…)
            while start and text[start - 1] in "—-－~～*＊|｜":
                start -= 1  # ——凤-舞-文-学-网——: the rules around it too
            while end < len(text) and text[end] in "—-－~～*＊|｜'":
                end += 1
            spans.append((start, end, "a site's name strewn with marks between its characters"))
    return spans


def form_debris(text: str) -> list[tuple[int, int, str]]:
    """(start, end, evidence) of a site's name strewn one character to a bracket, a run of box
    drawing, and a bracket that holds nothing but site words."""
    spans = [
        (m.start(), m.end(), "a name strewn one character to a bracket")
        for m in _BRACED_LETTERS.finditer(text)
    ]
    spans += [(m.start(), m.end(), "a run of box drawing") for m in _BOX_RUN.finditer(text)]
    spans += _strewn_names(text)
    spans += strewn_names(text)  # 三#書*網收集整理, 顶点~小说~网: marks between its words, mixed or not
    spans += leftover_spans(text)  # 【�邸�去△小↓�f△�Ww qu】, …第一！xh:.181.241.250
    for m in _STREWN_LATIN.finditer(text):
        collapsed = re.sub(r"[^a-z0-9.]", "", m.group(0).translate(LOOKALIKES).lower())
        if len(re.findall(r"[\'`’\"^*]", m.group(0))) >= STREWN_MARKS and re.search(
            r"(?:www|txt|\.(?:com|net|org|cn|cc))", collapsed
        ):
            spans.append(
                (m.start(), m.end(), f"a domain strewn with marks between its letters ({collapsed})")
            )
    for m in _MARKED_BRACKET.finditer(text):
        collapsed = re.sub(rf"[^{HAN_COMMON}a-z0-9]", "", m.group(1).translate(LOOKALIKES).lower())
        gaps = re.findall(
            rf"[{HAN_COMMON}a-z0-9][^{HAN_COMMON}a-z0-9]+(?=[{HAN_COMMON}a-z0-9])",
            m.group(1).translate(LOOKALIKES).lower(),
        )
        if len(gaps) >= STREWN_MARKS and _site_name_alone(
            collapsed
        ):  # strewn: marks between its characters, not a title's colon (【关于这本小说：】)
            spans.append((m.start(), m.end(), "a site's name strewn with marks, in brackets"))
    for m in _SITE_BRACKET.finditer(text):
        inner = m.group(1)
        if SITE_WORDS.search(inner) or NOTICE_WORDS.search(inner):
            sites = {w.group(0) for w in SITE_WORDS.finditer(inner)} | notice_words(inner)
            if site_share(inner) >= BRACKET_SITE_SHARE and (notice_words(inner) or len(sites) >= 2):
                spans.append((m.start(), m.end(), "a bracket of site words only"))
    return spans
