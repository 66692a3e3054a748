"""Junk lines (docs/rules.md §5): site advertisements and pager lines, from a data file, extendable and
switchable per pattern in book.toml, counted per pattern."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from bookbuilder.vocabulary import HAN_CHAR, SENTENCE_ENDED, expand

LONG_LINE = 80  # characters: longer lines are story text unless the match is the whole line
URL_LINE = 300
QUOTED_NAME = 12  # characters in quotes: a site's name in quotes is short; a longer run is dialogue
# Han characters, at least, of a sentence ended before a strong match: the story's, with the site's
# words glued after it (…阿苏勒不由自主地举起了青鲨。请看小说网Jar电子书下载乐园+…): cut, not dropped
STORY_BEFORE = 8


@dataclass(
    frozen=True, eq=False
)  # compared and hashed by identity: the finder's cache key is hashed per chapter
class JunkPattern:
    name: str
    regex: re.Pattern
    strong: bool
    fragment: bool = False
    default: bool = True
    keywords: tuple[str, ...] = ()  # empty: no pre-filter, always searched
    kind: str = "line"  # line: the line is dropped (or its tail cut); inline: the match is cut out

    def may_match(self, text: str) -> bool:
        return not self.keywords or any(k in text for k in self.keywords)


@lru_cache(maxsize=1)
def _data() -> dict:
    return tomllib.loads(resources.files("bookbuilder").joinpath("data/junk.toml").read_text("utf-8"))


@lru_cache(maxsize=1)
def builtin_patterns() -> tuple[JunkPattern, ...]:
    return tuple(
        JunkPattern(
            p["name"],
            re.compile(expand(p["regex"])),
            p.get("strong", False),
            p.get("fragment", False),
            p.get("default", True),
            tuple(p.get("keywords", ())),
            p.get("kind", "line"),
        )
        for p in _data()["pattern"]
    )


def watermarks() -> dict:
    """junk.toml's [watermark] table: what sites strew through a page's HTML and text to mark their
    copy (normalize/clean.py builds its patterns from it)."""
    return _data()["watermark"]


def active_patterns(
    extra: tuple = (), disable: tuple[str, ...] = (), enable: tuple[str, ...] = ()
) -> tuple[JunkPattern, ...]:
    """The built-in patterns switched on, then book.toml's extra ones matched on the source's lines:
    a regex (a whole junk line) or a table {regex, kind = "line" | "inline", name}."""
    patterns = [p for p in builtin_patterns() if (p.default or p.name in enable) and p.name not in disable]
    return tuple(patterns) + extra_patterns(extra, SOURCE)


# An extra pattern's `on`: the source's lines, where junk.toml's patterns are matched (before the
# punctuation is made full-width), or the text as the book reads after cleaning, where text
# selected on serve's pages is found as it was selected (normalize.by_hand).
SOURCE, CLEANED = "source", "cleaned"


def extra_patterns(extra: tuple, on: str) -> tuple[JunkPattern, ...]:
    """book.toml's extra patterns that are matched `on` the source or the cleaned text."""
    found = []
    for i, rx in enumerate(extra):
        spec = rx if isinstance(rx, dict) else {"regex": rx}
        if spec.get("on", SOURCE) == on:
            found.append(_extra(spec.get("name", f"extra-{i + 1}"), spec["regex"], spec.get("kind", "line")))
    return tuple(found)


@lru_cache(maxsize=256)
def _extra(name: str, regex: str, kind: str) -> JunkPattern:
    """One pattern object per spec: the rules of two loads with the same book.toml compare equal
    (patterns compare by identity), so serve's reload reads again only the files that changed."""
    return JunkPattern(name, re.compile(regex), strong=False, kind=kind)


@lru_cache(maxsize=8)
def keyword_finder(patterns: tuple[JunkPattern, ...]) -> re.Pattern | None:
    """One regex over every pattern's keywords: a chapter is scanned once, not once per pattern.
    Each keyword is looked for by a piece of it that starts with an uncommon character (秒记 for
    一秒记住, com for .com): the scan stops only where one could begin, and prose is made of common
    characters. None when some pattern has no keywords (it must always be searched)."""
    if any(not p.keywords for p in patterns):
        return None
    anchors = {_anchor(k) for p in patterns for k in p.keywords}
    anchors = {a for a in anchors if not any(o != a and o in a for o in anchors)}
    return re.compile(_trie(sorted(anchors)))


def _anchor(keyword: str) -> str:
    """Two characters of the keyword, from an uncommon one, else the whole keyword."""
    from bookbuilder.decode.plausibility import common_chars

    common = common_chars()
    for i, c in enumerate(keyword):
        if c not in common and c not in "._-/:+＋":
            if i + 1 < len(keyword):
                return keyword[i : i + 2]
    return keyword


def _trie(words: list[str]) -> str:
    """An alternation of literal words as a trie (ab|ac → a(?:b|c)): one branch per first character."""
    by_first: dict[str, list[str]] = {}
    for word in words:
        by_first.setdefault(word[0], []).append(word[1:])
    parts = []
    for first, rests in sorted(by_first.items()):
        if "" in rests:
            parts.append(re.escape(first))
        else:
            parts.append(
                re.escape(first) + "(?:" + (_trie(rests) if len(rests) > 1 else re.escape(rests[0])) + ")"
            )
    return "|".join(parts)


def patterns_in(text: str, patterns: tuple[JunkPattern, ...]) -> tuple[JunkPattern, ...]:
    """The patterns that may match somewhere in `text` (most chapters: none), in their order: one
    scan of `text` for every pattern's keywords, so that a line costs the same however many
    patterns the list holds."""
    if not patterns:
        return ()  # (no keywords at all: the finder would be an empty regex, matching everywhere)
    index = _keyword_index(patterns)
    if index is None:
        return tuple(p for p in patterns if p.may_match(text))
    finder, by_anchor = index
    hit = {i for anchor in set(finder.findall(text)) for i in by_anchor[anchor]}
    return tuple(patterns[i] for i in sorted(hit) if patterns[i].may_match(text))


@lru_cache(maxsize=8)
def _keyword_index(patterns: tuple[JunkPattern, ...]) -> tuple[re.Pattern, dict[str, tuple[int, ...]]] | None:
    """The keyword finder, and for each anchor it finds, the patterns (by place) whose keywords hold it."""
    finder = keyword_finder(patterns)
    if finder is None:
        return None
    anchors = {_anchor(k) for p in patterns for k in p.keywords}
    anchors = {a for a in anchors if not any(o != a and o in a for o in anchors)}
    by_anchor = {
        a: tuple(i for i, p in enumerate(patterns) if any(a in k for k in p.keywords)) for a in anchors
    }
    return finder, by_anchor


def clean_line(
    line: str, patterns: tuple[JunkPattern, ...], has_url: bool = False, leading: bool = False
) -> tuple[str | None, str | None]:
    """(the line, or what is left of it, or None to drop it; the name of the pattern that acted).
    `patterns`: patterns_in(line, …), the few whose keywords the line holds (any others are only slower).
    A strong match drops a line of up to LONG_LINE characters, or URL_LINE when it holds a URL
    (a banner: TXT小说天堂 https://…，最有文艺气息的文学网站，提供…)."""
    for p in patterns:  # patterns_in(line, …): the caller has them
        if p.kind != "line":
            continue
        m = p.regex.search(line)
        if not m or (leading and m.start() > 0):  # leading: only a line that opens with junk
            continue
        if m.start() == 0 and m.end() == len(line):
            return None, p.name
        if p.fragment and m.end() == len(line) and m.start() > 0:
            return line[: m.start()].rstrip(), p.name
        if p.strong and len(line) <= (URL_LINE if has_url else LONG_LINE) and not _quoted(line, m.start()):
            return _story_before(line, m.start(), patterns), p.name
    return line, None


def _story_before(line: str, at: int, patterns: tuple[JunkPattern, ...]) -> str | None:
    """What a strong match leaves of its line: the sentences before it where they are a story's (at
    least STORY_BEFORE Han characters, ended, none of the line's listed line patterns matching in
    them; a watermark cut inline is no sign), else None (the line goes). A site glues its words
    after a story's sentence; prose is never dropped with them."""
    cut = max(line.rfind(mark, 0, at) for mark in SENTENCE_ENDED) + 1
    while cut < at and line[cut] in SENTENCE_ENDED:
        cut += 1  # 。” : the quotation closed after the sentence
    story = line[:cut].rstrip()
    if (
        not cut
        or len(HAN_CHAR.findall(story)) < STORY_BEFORE
        or any(p.kind == "line" and p.regex.search(story) for p in patterns)
    ):
        return None
    return story


def inline_spans(text: str, patterns: tuple[JunkPattern, ...]) -> list[tuple[int, int, str]]:
    """(start, end, pattern name) of every inline advert in a paragraph."""
    spans = []
    for p in patterns:
        if p.kind == "inline":
            spans += [(m.start(), m.end(), p.name) for m in p.regex.finditer(text) if m.end() > m.start()]
    return spans


def _quoted(line: str, at: int) -> bool:
    """Whether `at` is inside a quotation: a character's words (“这只是我个人的看法，仅供参考。…”) are
    never a site's line, whatever a strong pattern finds in them."""
    for opening, closing in (("“", "”"), ("「", "」")):
        start = line.rfind(opening, 0, at)
        if start != -1 and line.count(closing, start, at) == 0:
            end = line.find(closing, at)
            words = line[start + 1 : end if end != -1 else len(line)]
            if len(words) > QUOTED_NAME or any(c in words for c in "，。！？"):
                return True  # a sentence in quotes: dialogue, not a site's name in quotes (“小说快捕”)
    return False
