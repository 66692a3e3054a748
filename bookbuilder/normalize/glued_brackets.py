"""A site's words in brackets glued to the story (…动静通天啊！（我就爱手机电子书论坛小笼包整理）, 11
times in one download; 都没[奇·书·网]有, a site's name strewn with marks inside a word): the same
bracket, once its marks are folded away, in chapter after chapter, right after a sentence's end, or
anywhere where its name is strewn with marks (a story writes no 奇·书·网). Braces are no mark of
Chinese prose, so a site's words in them glued after a sentence go though they come once
({看最新章节请到：文学楼}). A story's brackets stay: [天书], （这是小岛书店肯屈尊进货的少数几本绘本之一）,
{髟赞} (a character composed). Part of the repeats pass (normalize/repeats.py), which cuts them.
"""

from __future__ import annotations

import re
from collections import defaultdict

from bookbuilder.model import Chapter, Paragraph
from bookbuilder.normalize.by_hand import fold
from bookbuilder.normalize.clean import notice_words
from bookbuilder.normalize.debris import collector_credit, site_signals, story_signs
from bookbuilder.vocabulary import CREDIT_VERBS, DIALOGUE_QUOTES, HAN_COMMON, PERSONS, SENTENCE_ENDED

BOUNDARY = (*SENTENCE_ENDED, "\u3000", " ")  # a sentence ended, or a space between pieces

BRACKET_CHAPTERS = 3  # chapters a bracket of site words comes in: a site's, not a story's
_OPENERS, _CLOSERS = "{｛（(【[〖［", "}｝）)】]〗］"
_GLUED_BRACKET = re.compile(
    f"[{re.escape(_OPENERS)}]([^{re.escape(_OPENERS + _CLOSERS)}\n]{{1,40}})[{re.escape(_CLOSERS)}]"
)
_OPENING = re.compile(f"[{re.escape(_OPENERS)}]")
_STREWN = re.compile(rf"(?:[{HAN_COMMON}][^\w\s、，,；;：:]+){{2,}}[{HAN_COMMON}]")  # 奇·书·网, 三*五*网


def bracket_sightings(
    chapter: Chapter, text: str | None = None
) -> tuple[tuple[int, int, int, str, str, str], ...]:
    """(block, start, end, inside, why, key) of each bracket of a site's words in the chapter, glued
    after a sentence or holding a strewn name. `text`: the chapter's paragraphs joined by newlines,
    where the caller has them: a chapter with no opening bracket has none in any paragraph."""
    if text is not None and not _OPENING.search(text):
        return ()
    found, why = [], {}
    for j, block in enumerate(chapter.blocks):
        if type(block) is not Paragraph:
            continue
        for m in _GLUED_BRACKET.finditer(block.text):
            inside = m.group(1)
            if inside not in why:
                why[inside] = _site_bracket(inside)
            glued = m.start() == 0 or block.text[m.start() - 1] in BOUNDARY
            if why[inside] and (glued or _STREWN.search(inside)):
                found.append((j, m.start(), m.end(), inside, why[inside], fold(inside)))
    return tuple(found)


def glued_brackets(
    chapters: list[Chapter], min_times: int, each: list[tuple] | None = None
) -> dict[tuple[int, int], list[tuple[int, int, str]]]:
    """(chapter, block) → the spans of brackets of a site's words there, with their evidence: those
    in BRACKET_CHAPTERS chapters, or `min_times` in a book of fewer. `each`: every chapter's
    `bracket_sightings`, where they were found already."""
    found: dict[str, list[tuple[int, int, int, int, str]]] = defaultdict(list)
    why: dict[str, str] = {}
    for k, sightings in enumerate(map(bracket_sightings, chapters) if each is None else each):
        for j, start, end, inside, reason, key in sightings:
            why[inside] = reason
            found[key].append((k, j, start, end, inside))
    cuts: dict[tuple[int, int], list[tuple[int, int, str]]] = defaultdict(list)
    for places in found.values():
        where = {k for k, *_ in places}
        if len(where) >= BRACKET_CHAPTERS or len(chapters) < BRACKET_CHAPTERS and len(places) >= min_times:
            repeated = f"repeated in {len(where)} chapters ({len(places)}×)"
            evidence = f"a fragment in brackets, {why[places[0][4]]} {repeated}"
        else:
            evidence = "a fragment in braces, site words glued after a sentence"
            places = [p for p in places if _in_braces(chapters, p)]
        for k, j, start, end, _ in places:
            cuts[(k, j)].append((start, end, evidence))
    return cuts


def _site_bracket(inside: str) -> str:
    """Why the words inside a bracket are a site's: a collector's credit (三*五*网-整*理*提*供), two
    notice words (看最新章节请到：文学楼), with a person only in a credit (我就爱手机电子书论坛小笼包整理:
    a site's name; （我就爱看小说的最新章节） is a thought), or a site's word in a name strewn with
    marks (奇·书·网). "" for dialogue."""
    if any(q in inside for q in DIALOGUE_QUOTES):
        return ""
    words = fold(inside)
    if collector_credit(words):
        return "a collector's credit"
    if len(notice_words(words)) >= 2 and (
        not re.search(f"[{PERSONS}]", words) or words.endswith(CREDIT_VERBS)
    ):
        return "site words"
    return "a strewn name" if _STREWN.search(inside) and site_signals(words) else ""


def _in_braces(chapters: list[Chapter], place: tuple[int, int, int, int, str]) -> bool:
    """Whether a bracket of site words found once is in braces, after a sentence's end, with two notice
    words and no story signs in it ({看最新章节请到：文学楼}; not {天书})."""
    k, j, start, _, inside = place
    text = chapters[k].blocks[j].text
    return (
        text[start] in "{｛"
        and start > 0
        and text[start - 1] in SENTENCE_ENDED
        and len(notice_words(fold(inside))) >= 2
        and not story_signs(inside)
    )
