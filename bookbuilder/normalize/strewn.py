"""A site's name strewn through a sentence with marks between its words or characters, the marks mixed
or not, whatever the site: `三#書*網收集整理`, `收藏~顶*点*书城书友整~理提~供`, `顶点~小说~网`,
`＊风＊语＊小＊说＊`, `x小x说xtxxxtx天x堂`. The marks (~ * # x ω and their full-width forms) stand
between Han characters, where prose seldom sets them; what decides is the words they strew: once the
marks are gone, at least half of the stretch is a site's words (小说, 书城, 网, 整理, 提供 …). A
story strews marks too, and keeps them: a censored word (蒙*汗*药, 操*蛋), a sung or drawn-out line
(炸~药~好~象~放~的~多~了~点), a skill's name (神#人#鬼), a placeholder (在XX路XX小区), none of them a
site's words. Only the name goes; the story's characters on either side stay."""

from __future__ import annotations

import re

from bookbuilder.normalize.clean import NOTICE_WORDS, SITE_WORDS
from bookbuilder.normalize.hints import Hint
from bookbuilder.vocabulary import (
    CLOSING_BRACKETS,
    CREDIT_VERBS,
    HAN_COMMON,
    OPENING_BRACKETS,
    SCRIPT_PAIRS,
    SITE_NAME_ENDINGS,
)

# The marks a site strews its name with: ~ * # and the letters x, ω (a Latin look-alike), each in
# either width. A run between two Han characters may mix them, with a few letters (xtxxxtx: txt).
STREW_MARKS = "~～*＊#＃xXｘω"
STREWN_GAP = 5  # Han characters between two marks of one name at most (书城书友整 in 顶*点*书城书友整~理)
STREWN_LEAST = 2  # marks between Han characters: one is a story's 他说~好啊
STREWN_SITE_SHARE = 0.5  # of the name's Han characters in site words: less, and the marks are a story's
_WINDOW = 12  # characters on either side looked at for the site words a name goes on in
WORD_STREWN = 2  # characters a name strewn word by word (顶点~小说~网) takes past its first or last mark

_MARK = re.escape(STREW_MARKS)
# Marks that join a strewn name's parts (三*五*网-整*理*提*供) but strew none alone (一石-二鸟 is prose's).
_JOINERS = re.escape("-－·")
# A run of marks (and a few letters among them) between two Han characters.
_SEPARATOR = re.compile(
    rf"(?<=[{HAN_COMMON}])(?=[^{HAN_COMMON}\s]{{1,7}}[{HAN_COMMON}])[{_MARK}{_JOINERS}a-z]*[{_MARK}{_JOINERS}][{_MARK}{_JOINERS}a-z]*"
    rf"(?=[{HAN_COMMON}])"
)
_HAN = re.compile(f"[{HAN_COMMON}]")
_TO_SIMPLE = str.maketrans({pair[1]: pair[0] for pair in SCRIPT_PAIRS})  # 書網 read as 书网
# A site's words: its slogans' and notices' words, what a credit says it did, how a site's name ends.
_ENDS_AND_VERBS = "|".join(sorted(CREDIT_VERBS + SITE_NAME_ENDINGS, key=len, reverse=True))
_SITE_WORD = re.compile(f"(?:{SITE_WORDS.pattern}|{NOTICE_WORDS.pattern}|{_ENDS_AND_VERBS})")
# What the chapter must hold before a line is looked at: a strew mark between Han characters.
STREWN_HINT = Hint(
    # the mark first, the Han character behind it: a pattern that opens with a look-behind is tried at
    # every character of a chapter (the scans of normalize/lines.py run `finds` without `first`)
    finds=re.compile(rf"[{_MARK}](?<=[{HAN_COMMON}][{_MARK}])[{_MARK}]{{0,2}}(?=[{HAN_COMMON}])"),
    first=re.compile(f"[{_MARK}]"),
)  # starting at a mark, not at every Han character (docs/rules-notes.md, "Speed")


def _covered(text: str) -> list[bool]:
    """For each character of `text`, whether a site word covers it, read over its Han characters alone
    (書*網 is 书网) in simplified script; a mark is covered by none."""
    at = [i for i, c in enumerate(text) if _HAN.match(c)]
    han = "".join(text[i] for i in at).translate(_TO_SIMPLE)
    hit = [False] * len(text)
    for start in range(len(han)):
        if m := _SITE_WORD.match(han, start):
            for k in range(start, m.end()):
                hit[at[k]] = True
    return hit


def _clusters(text: str) -> list[list[re.Match]]:
    """Runs of marks between Han characters, each next one at most STREWN_GAP Han characters on."""
    runs: list[list[re.Match]] = []
    for m in _SEPARATOR.finditer(text):
        between = text[runs[-1][-1].end() : m.start()] if runs else ""
        if runs and len(between) <= STREWN_GAP and all(_HAN.match(c) for c in between):
            runs[-1].append(m)
        else:
            runs.append([m])
    return [
        run for run in runs if sum(bool(re.search(f"[{_MARK}]", m.group(0))) for m in run) >= STREWN_LEAST
    ]


def _name_span(text: str, run: list[re.Match]) -> tuple[int, int]:
    """Where the name strewn by `run` starts and ends: a character (or a word's two, when it is strewn
    word by word) on each side of its outer marks, and the site words it goes on in."""
    pieces = [run[k].start() - run[k - 1].end() for k in range(1, len(run))]
    reach = max(1, min(WORD_STREWN, *pieces))
    start, end = run[0].start(), run[-1].end()
    for _ in range(reach):
        if start and _HAN.match(text, start - 1):
            start -= 1
    for _ in range(reach):
        if end < len(text) and _HAN.match(text, end):
            end += 1
    offset = max(0, start - _WINDOW)
    hit = _covered(text[offset : end + _WINDOW])
    while start > offset and hit[start - 1 - offset] and hit[start - offset]:
        start -= 1  # 收藏~顶: the site word the first strewn character ends
    while end - offset < len(hit) and hit[end - offset] and hit[end - 1 - offset]:
        end += 1  # 網收集整理: the site words the last strewn character begins
    last_mark = run[-1]
    while end > last_mark.end() and not hit[end - 1 - offset] and _ends_as_site(text[start : end - 1]):
        end -= 1  # 某某~小说~网木轴, ＊风＊语＊小＊说＊不可能: what follows the name's ending is the story's
    first = run[0]
    if (
        first.group(0).isascii()
        and first.group(0).isalpha()
        and not any(hit[start - offset : first.start() - offset])
    ):
        start = first.start()  # 走了x小x说…: a letter set before each character, 了 the story's
    return start, end


def _ends_as_site(name: str) -> bool:
    """Whether `name`, read without its marks, ends as a site's name or credit does (…小说, …网, …整理)."""
    simple = re.sub(f"[^{HAN_COMMON}]", "", name).translate(_TO_SIMPLE)
    return bool(simple) and any(
        simple.endswith(w) for w in SITE_NAME_ENDINGS + CREDIT_VERBS + ("天堂", "书城")
    )


def strewn_names(text: str) -> list[tuple[int, int, str]]:
    """(start, end, evidence) of each site's name strewn with marks through `text`. A name strewn with
    ~ alone needs two different site words (手~打~小~说): a voice draws its words out with ~, and one
    site word (看~小~说~啊) is the voice's."""
    spans = []
    for run in _clusters(text):
        start, end = _name_span(text, run)
        name = text[start:end]
        han = [i for i, c in enumerate(name) if _HAN.match(c)]
        hit = _covered(name)
        words = {
            m.group(0)
            for m in _SITE_WORD.finditer(re.sub(f"[^{HAN_COMMON}]", "", name).translate(_TO_SIMPLE))
        }
        if not han or sum(hit[i] for i in han) / len(han) < STREWN_SITE_SHARE:
            continue
        if len(words) < 2 and all(m.group(0).strip("~～-－·") == "" for m in run):
            continue  # a voice drawn out (她叫~小~说~家~), not a name
        if (
            sum(
                start <= m.start() and m.end() < end and bool(re.search(f"[{_MARK}]", m.group(0)))
                for m in run
            )
            < STREWN_LEAST
        ):
            continue  # 天x堂x啊: one mark inside the name, the other after it
        while start and text[start - 1] in STREW_MARKS and not _HAN.match(text, start - 1):
            start -= 1  # x小x说…, ＊风＊…: the mark before its first character
        while end < len(text) and text[end] in STREW_MARKS:
            end += 1
        if (
            start
            and end < len(text)
            and text[start - 1] in OPENING_BRACKETS
            and text[end] in CLOSING_BRACKETS
        ):
            start, end = (
                start - 1,
                end + 1,
            )  # (三*五*网-整*理*提*供）: its brackets, of either width, go with it
        spans.append((start, end, f"a site's name strewn with marks ({'、'.join(sorted(words)[:4])})"))
    if spans and _only_strewn(text, spans):
        return [
            (0, len(text), spans[0][2] + ", the line nothing else")
        ]  # 手~打~小~说，手~打~版~，文~字~版~，
    return spans


def _only_strewn(text: str, spans: list[tuple[int, int, str]]) -> bool:
    """Whether what the names leave of `text` is strewn characters alone (文~字~版~，): no two Han
    characters side by side, each beside a mark."""
    rest = "".join(
        text[b:a] for (_, b, _), (a, _, _) in zip([(0, 0, "")] + spans, spans + [(len(text), 0, "")])
    )
    return not re.search(f"[{HAN_COMMON}]{{2}}", rest) and not re.search(
        rf"(?<![{_MARK}])[{HAN_COMMON}](?![{_MARK}])", rest
    )
