"""Debris a book shows by repeating it (docs/rules-notes.md, "Debris by evidence"): a site's
template or slogan comes back, the same once digits, the chapter's own title, spaces and
look-alike letters are folded away, in chapter after chapter; a site's domain is stamped between
sentences all through the book. Prose repeats too (a catchphrase, a refrain), so repetition alone
never removes anything: a repeated sentence goes only when it is a site's words or holds a URL,
and a repeated domain only where it stands outside a sentence. This pass sees the whole book,
after each chapter was cleaned on its own (bookbuilder.normalize.lines), so it runs once, in
pipeline.load_book.
"""

from __future__ import annotations

import bisect
import os
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from bookbuilder.diagnostics import Diagnostic, removal
from bookbuilder.model import Book, Chapter, Paragraph
from bookbuilder.normalize.by_hand import fold
from bookbuilder.normalize.clean import (
    LOOKALIKES,
    NOTICE_WORDS,
    SITE_WORDS,
    cut,
    find_urls,
    notice_words,
    site_share,
    site_talk,
)
from bookbuilder.normalize.debris import APP, collector_credit, in_debris_block, site_signals, story_signs
from bookbuilder.normalize.glued_brackets import BOUNDARY, bracket_sightings, glued_brackets
from bookbuilder.numerals import TO_MYRIADS
from bookbuilder.vocabulary import (
    CHAPTER_UNITS,
    CLOSING_BRACKETS,
    HAN_COMMON,
    LATIN_LETTERS,
    OPENING_BRACKETS,
    SENTENCE_STOPS,
    SITE_BRACKETS,
    SITE_NAME_ENDINGS,
    VOLUME_UNITS,
    unit_class,
)

MIN_CHAPTERS = 3  # a template is in this many chapters at least
MIN_TIMES = 5  # or comes this many times, in a book of fewer chapters
PIECE = 80  # characters: the longest sentence taken for a template
STRONG_TIMES = 3  # times a piece of two notice words comes, in any chapters: a notice, though in too few
MIN_KEY = 4  # characters of a piece, folded: fewer are a word any story repeats
SITE_NAME_PIECE = 8  # characters of a site's name alone after a chapter's last sentence; longer is a clause
PIECE_SITE_SHARE = 0.6  # of a piece in site words, with two of them: the site's, not the story's

# the last character of a site's name ending a line (…劈出。166阅读网): one class, a cheap scan
_NAME_AT_END = re.compile("[" + "".join(sorted({e[-1] for e in SITE_NAME_ENDINGS})) + "](?=\n|$)")
_LETTER = re.compile(f"[{LATIN_LETTERS}]")


def _worth_a_look(text: str) -> bool:
    """Something a template or a stamp needs: a notice word, a letter, a site's name at a line's end."""
    return bool(NOTICE_WORDS.search(text) or _LETTER.search(text) or _NAME_AT_END.search(text))


# A sentence, or a quotation's close: a site glues its template after dialogue too (销售员：“……”请记住…)
_SENTENCE = re.compile(
    rf"[^{SENTENCE_STOPS}”」』\u3000]*(?:[{SENTENCE_STOPS}]+[”」』）)]*|[”」』]+|\u3000+|$)"
)
_NUMBER = re.compile(f"[0-9{TO_MYRIADS}]+")
# A site's name glued before its domain at a sentence's start: 某某网Http://…, 求书网www.…
_SITE_NAME = re.compile(rf"[{HAN_COMMON}A-Za-z0-9]{{1,8}}(?:" + "|".join(SITE_NAME_ENDINGS) + ")$")


# 第#章 and whatever title follows it up to the template's next site word: a template names the
# chapter it stands in, or the next one, in words the heading may not have
# (请记住某书 最新章节 第89章 某章网址：)
_NAMED_CHAPTER = re.compile(
    f"(第#{unit_class(CHAPTER_UNITS, VOLUME_UNITS)})"
    f"(?:(?!{NOTICE_WORDS.pattern}).){{0,24}}?(?={NOTICE_WORDS.pattern}|$)"
)


def _fold(text: str, title_words: tuple[str, ...]) -> str:
    for word in title_words:
        text = text.replace(word, "@")
    return _NAMED_CHAPTER.sub(r"\1@", _NUMBER.sub("#", fold(text)))


# A site's phrase glued between two sentences, with the story right after it (…愣了愣。更新最快其他评委…)
_GLUED_PHRASE = re.compile(
    rf"(?<=[{SENTENCE_STOPS}”」])(?:更新最快|最快更新|最新章节|免费阅读|在线阅读|手机阅读|无弹窗|首发网址)(?=[{HAN_COMMON}“「])"
)


def _title_words(chapter: Chapter) -> tuple[str, ...]:
    """The chapter's own title and its name (第47章 某章: 某章), which a template repeats."""
    words = [chapter.title] + [w for w in chapter.title.split() if len(w) > 1]
    return tuple(sorted({w for w in words if w}, key=len, reverse=True))


def _pieces(text: str, title_words: tuple[str, ...]):
    """(start, end) of each sentence of a paragraph, and of each piece of a paste between its 　　 gaps.
    The chapter's title in a template is no sentence's end (请记住某书 最新章节 第210章 太凶残了！网址：)."""
    masked = text
    for word in title_words:
        masked = masked.replace(word, "@" * len(word))
    for m in _SENTENCE.finditer(masked):
        if m.end() > m.start() and text[m.start() : m.end()].strip():
            yield m.start(), m.end()


_OPEN, _CLOSE = (
    b.replace(q, "") for b, q in zip((OPENING_BRACKETS, CLOSING_BRACKETS), "「」")
)  # all but 「」
_BRACKETED = re.compile(f"[{re.escape(_OPEN)}][^{re.escape(_OPEN + _CLOSE)}]{{0,40}}[{re.escape(_CLOSE)}]")


def _words_of(piece: str) -> str:
    """A sentence's own words: without its URLs and bracketed names (a story's sentence after a
    site's stamp is no site talk for the stamp)."""
    for a, b in reversed(find_urls(piece)):
        piece = piece[:a] + piece[b:]
    return _BRACKETED.sub("", piece)


def _site_piece(words: str) -> bool:
    """A sentence a site repeats, not the story: site talk, or a site's name alone after the last
    sentence (…又是一道剑芒劈出。166阅读网), and no one in it that a story tells of (第#天，他读完了那本
    小说的最新章节 is a story's, however often it comes)."""
    words = words.strip()
    if _SITE_NAME.fullmatch(words) and len(words) <= SITE_NAME_PIECE or collector_credit(words):
        # …劈出。166阅读网, …果敢的。亦凡书库扫校 (a collector's credit after every chapter's last sentence)
        return True
    if re.search(r"[他她它]", words):
        return False
    if len(SITE_WORDS.findall(words)) >= 2 and site_share(words) >= PIECE_SITE_SHARE:
        return True  # 书包网想看书来书包网: site words, and a site's name, nothing else
    return bool(NOTICE_WORDS.search(words)) and site_talk(words)


def _without_quotes(text: str, start: int, end: int) -> tuple[int, int]:
    """The piece without a quotation mark at either end: the quote is the dialogue's (…的了。更新最快”)."""
    while start < end and text[start] in "“”「」『』":
        start += 1
    while end > start and text[end - 1] in "“”「」『』":
        end -= 1
    return start, end


def _domain(text: str, start: int, end: int) -> str:
    host = text[start:end].translate(LOOKALIKES).lower()
    host = re.sub(r"^[a-z]+://|[\s/].*$", "", re.sub(r"\s+", "", host))
    return re.sub(r"^(?:www|wap|m)\d?\.", "", host)


RULES = ("repeated-template", "repeated-domain", "repeated-fragment", "repeated-page-title")


@dataclass
class _Sightings:
    """Every candidate seen in the book: (chapter, block, start, end, key), and per key the chapters
    it is in, how often it comes, and whether it holds two notice words (then three times anywhere
    is enough: 本书由某某书院首发，请勿转载！)."""

    found: list = field(default_factory=list)
    chapters: dict = field(default_factory=lambda: defaultdict(set))
    times: dict = field(default_factory=lambda: defaultdict(int))
    strong: set = field(default_factory=set)

    def add(self, k: int, j: int, start: int, end: int, key: str) -> None:
        self.chapters[key].add(k)
        self.times[key] += 1
        self.found.append((k, j, start, end, key))

    def repeated(self, book_chapters: int) -> set[str]:
        few = book_chapters < MIN_CHAPTERS
        return {
            key
            for key, where in self.chapters.items()
            if len(where) >= MIN_CHAPTERS
            or few
            and self.times[key] >= MIN_TIMES
            or key in self.strong
            and self.times[key] >= STRONG_TIMES
        }


def strip_repeated(
    book: Book,
    off: frozenset[str] = frozenset(),
    kept: frozenset = frozenset(),
    seen_before: Callable[[Chapter], tuple | None] | None = None,
) -> tuple[Book, dict[int, list[Diagnostic]]]:
    """The book without its repeated debris, and the removals of each chapter (by its index in
    book.chapters()). `off`: the rules book.toml's [normalize.junk] disable names; `kept`: the
    places of the paragraphs its [[keep]] entries keep, which are left as they are; `seen_before`:
    a chapter's `chapter_sightings` where they were found already (on the worker that normalized
    it), None where not."""
    if set(RULES) <= off:
        return book, {}
    chapters = list(book.chapters())
    each = [(seen_before and seen_before(chapter)) or chapter_sightings(chapter) for chapter in chapters]
    seen = _Sightings()
    for k, one in enumerate(each):
        for j, start, end, key in one.candidates:
            seen.add(k, j, start, end, key)
        seen.strong.update(one.strong)
    repeated = {key for key in seen.repeated(len(chapters)) if _rule_of(key) not in off}
    cuts = _cuts(chapters, seen, repeated, kept)
    if "repeated-fragment" not in off:
        fragments = glued_fragments(chapters, [one.starts for one in each])
        for found in (fragments, glued_brackets(chapters, MIN_TIMES, [one.brackets for one in each])):
            for (k, j), spans in found.items():  # what no cut takes already; an overlap is joined on
                if chapters[k].blocks[j].at not in kept:  # (…方便  http://www.pan58.com with its domain's)
                    cuts[(k, j)].extend(
                        s
                        for s in spans
                        if not any(a <= s[0] and s[1] <= b for a, b, _ in cuts.get((k, j), ()))
                    )
    if not cuts:
        return book, {}
    return _apply(book, chapters, cuts)


def _rule_of(key: str) -> str:
    return {"url": "repeated-domain", "page": "repeated-page-title"}.get(
        key.partition(":")[0], "repeated-template"
    )


class Seen(NamedTuple):
    """What this pass finds in one chapter alone (`chapter_sightings`), before the book is counted."""

    candidates: tuple[tuple[int, int, int, str], ...]  # (block, start, end, key): _candidates
    strong: tuple[str, ...]  # the keys of candidates with two notice words
    starts: tuple[str, ...]  # where a glued fragment may start: _fragment_starts
    brackets: tuple[tuple, ...]  # (block, start, end, inside, why, key): glued_brackets.bracket_sightings


def chapter_sightings(chapter: Chapter) -> Seen:
    """Everything this pass looks for in one chapter: a function of the chapter alone, so that it
    runs where the chapter is normalized (on the workers: per_file.Normalized.sightings)."""
    text = "\n".join(b.text for b in chapter.blocks if type(b) is Paragraph)
    return Seen(
        *_candidates(chapter, text), _fragment_starts(chapter, text), bracket_sightings(chapter, text)
    )


def _candidates(chapter: Chapter, text: str) -> tuple[tuple, tuple]:
    """The chapter's candidates, ((block, start, end, key), …), and the keys of two notice words: a
    saved page's title at its edges, and where the chapter is worth a look, its domains, the site's
    phrases glued between its sentences, and its sentences of site words, each under its folded key.
    `text`: the chapter's paragraphs joined by newlines."""
    found: list[tuple[int, int, int, str]] = []
    strong: list[str] = []
    worth = _worth_a_look(text)
    words = _title_words(chapter)
    for j, block in enumerate(chapter.blocks):
        if (
            type(block) is Paragraph
            and (j < EDGE or j >= len(chapter.blocks) - EDGE)
            and _page_title(block.text, words)
        ):
            found.append((j, 0, len(block.text), "page:" + _fold(block.text, words)))
            continue
        if not worth or type(block) is not Paragraph or not _worth_a_look(block.text):
            continue
        for start, end in find_urls(block.text):
            found.append((j, start, end, "url:" + _domain(block.text, start, end)))
        if not (NOTICE_WORDS.search(block.text) or _NAME_AT_END.search(block.text)):
            continue
        for m in _GLUED_PHRASE.finditer(block.text):
            found.append((j, m.start(), m.end(), "glued:" + m.group(0)))
        for start, end in _pieces(block.text, words):
            piece = block.text[start:end]
            if end - start <= PIECE and _site_piece(_words_of(piece).strip("“”「」『』")):
                key = _fold(piece, words)
                if len(notice_words(piece)) >= 2:
                    strong.append(key)
                if len(key) >= MIN_KEY:
                    found.append((j, *_without_quotes(block.text, start, end), key))
    return tuple(found), tuple(strong)


def _cuts(
    chapters: list[Chapter], seen: _Sightings, repeated: set[str], kept: frozenset = frozenset()
) -> dict:
    """(chapter, block) → the spans to cut there, each with its evidence. A kept paragraph counts
    as a sighting, and is left as it is."""
    cuts: dict[tuple[int, int], list[tuple[int, int, str]]] = defaultdict(list)
    for k, j, start, end, key in seen.found:
        if key not in repeated or chapters[k].blocks[j].at in kept:
            continue
        evidence = f"repeated in {len(seen.chapters[key])} chapters ({seen.times[key]}×)"
        if key.startswith("page:"):
            cuts[(k, j)].append((start, end, f"a saved page's title, {evidence}"))
        elif key.startswith("url:"):
            if span := _outside_sentence(chapters[k].blocks[j].text, start, end):
                cuts[(k, j)].append((*span, f"domain {key[4:]} {evidence}, outside a sentence"))
        elif key.startswith("glued:"):
            cuts[(k, j)].append((start, end, f"a site's phrase between sentences, {evidence}"))
        else:
            cuts[(k, j)].append((start, end, f"site words {evidence}"))
    return cuts


_SITE_OPEN, _SITE_CLOSE = (re.escape(b) for b in SITE_BRACKETS)
_NAME_IN_BRACKETS = re.compile(
    rf"\s*[{_SITE_OPEN}]([^{_SITE_CLOSE}]{{1,12}})[{_SITE_CLOSE}]"
)  # exampleshu.cc [某某小说]


def _outside_sentence(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The stamp around a repeated domain, where the domain is no word of its sentence: at the
    paragraph's start or end, or right after a sentence's end, with a site's name glued before it
    and its name in brackets after it (exampleshu.cc [某某小说]). None where a sentence runs
    through it (他打开example.com，…)."""
    head = text[:start]
    name = _SITE_NAME.search(head)
    since = name.start() if name and (name.start() == 0 or head[name.start() - 1] in BOUNDARY) else start
    until = end
    if m := _NAME_IN_BRACKETS.match(text, until):
        if SITE_WORDS.search(m.group(1)):
            until = m.end()
    return (since, until) if since == 0 or text[since - 1] in BOUNDARY else None


def _apply(book: Book, chapters: list[Chapter], cuts) -> tuple[Book, dict[int, list[Diagnostic]]]:
    removed: dict[int, list[Diagnostic]] = defaultdict(list)
    new = {}
    for (k, j), spans in sorted(cuts.items()):
        chapter = new.get(k, chapters[k])
        block = chapter.blocks[j]
        spans = _merged(spans)
        for start, end, evidence in spans:
            rule = (
                "repeated-domain"
                if evidence.startswith("domain")
                else "repeated-page-title"
                if evidence.startswith("a saved page")
                else "repeated-fragment"
                if evidence.startswith("a fragment")
                else "repeated-template"
            )
            removed[k].append(removal(rule, block.text[start:end].strip(), block.at, evidence))
        left = cut(block.text, [(a, b) for a, b, _ in spans]).strip()
        blocks = list(chapter.blocks)
        blocks[j] = Paragraph(left, block.at, block.indented) if re.search(r"[^\W_]", left) else None
        new[k] = replace(chapter, blocks=tuple(blocks))
    for k, chapter in new.items():
        new[k] = replace(chapter, blocks=tuple(b for b in chapter.blocks if b is not None))
    return book.with_chapters(new), dict(removed)


def _merged(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    for span in sorted(spans):
        if out and span[0] < out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], span[1]), out[-1][2])
        else:
            out.append(span)
    return out


# ---- a saved web page's title, over or under each chapter (某书-第1章 风起-某某小说网, 46 times in one
# download): the chapter's own title with the book's or the site's name joined on by a page title's
# separators, at the chapter's edge, the same in chapter after chapter once the title is folded away.
EDGE = 3  # paragraphs from a chapter's start or end
PAGE_TITLE = 60  # characters
_PAGE_SEPARATOR = re.compile(r"\s*[-_|｜—–·•>»]+\s*")


def _page_title(text: str, title_words: tuple[str, ...]) -> bool:
    """The chapter's title (or its label) joined to other names by separators, and nothing of a sentence."""
    if len(text) > PAGE_TITLE or re.search(rf"[{SENTENCE_STOPS}，,“”「」]", text) or story_signs(text):
        return False
    word = next((w for w in title_words if w in text), None)
    if word is None:
        return False
    rest = [p for p in _PAGE_SEPARATOR.split(text.replace(word, "\0")) if p and p != "\0"]
    return (
        bool(rest)
        and _PAGE_SEPARATOR.search(text) is not None
        and all(re.search(r"[^\W\d_]{2}", p) for p in rest)
    )


# ---- a slogan whose URL the site cut, glued wherever it fell (……”网盘搜索，找小说就是方便他转身…): the
# chapters show it by repetition. Each place right after a sentence's end or a quotation's close with
# site words soon after is a start; starts alike in many chapters are one fragment, ending where the
# chapters' texts part. Two slogans may open alike (百度云搜索，搜小说就是方便 and 百度云搜索引擎，找小说…
# in one download): where the shared start is too short to be a fragment, each branch that is in many
# chapters is looked at on its own, so that neither spoils the other.
FRAGMENT_CHAPTERS = 5  # more than a template's three: the fragment's end is read from where the chapters part
FRAGMENT = 30  # characters looked at from each start
MIN_FRAGMENT = 6
SOON = 14  # characters from a start to its first site word
_FRAGMENT_START = re.compile(rf"(?:^|(?<=[{SENTENCE_STOPS}”」』]))(?=[{HAN_COMMON}A-Za-z])")
_STORY_MARK = re.compile(r"[“”「」『』他她我你]")


def _fragment_starts(chapter: Chapter, text: str | None = None) -> tuple[str, ...]:
    """The FRAGMENT characters from each start in the chapter with a site word soon after it.
    `text`: the chapter's paragraphs joined by newlines, where the caller has them (as
    glued_brackets.bracket_sightings takes them): a chapter without site words is passed by."""
    if text is not None and not (SITE_WORDS.search(text) or NOTICE_WORDS.search(text)):
        return ()  # literal words: none in the chapter is none in any of its paragraphs (one scan)
    found = []
    for block in chapter.blocks:
        if type(block) is not Paragraph or not (
            SITE_WORDS.search(block.text) or NOTICE_WORDS.search(block.text)
        ):
            continue  # (three scans: one alternation of the three sets took four times as long)
        signals = sorted(m.start() for rx in (SITE_WORDS, NOTICE_WORDS, APP) for m in rx.finditer(block.text))
        for m in _FRAGMENT_START.finditer(block.text):
            if (i := bisect.bisect_left(signals, m.start())) < len(signals) and signals[i] < m.start() + SOON:
                if len(piece := block.text[m.start() : m.start() + FRAGMENT]) >= MIN_FRAGMENT:
                    found.append(piece)
    return tuple(found)


def glued_fragments(
    chapters: list[Chapter], each: list[tuple[str, ...]] | None = None
) -> dict[tuple[int, int], list[tuple[int, int, str]]]:
    """(chapter, block) → the spans of repeated glued fragments there, with their evidence. `each`:
    every chapter's `_fragment_starts`, where they were found already."""
    starts: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for k, found in enumerate(map(_fragment_starts, chapters) if each is None else each):
        for piece in found:
            starts[piece[0]].append((k, piece))
    fragments = {}
    for group in starts.values():
        for fragment, where, times in _branches(group):
            fragments[fragment] = f"a fragment with site words repeated in {where} chapters ({times}×)"
    cuts: dict[tuple[int, int], list[tuple[int, int, str]]] = defaultdict(list)
    for fragment, evidence in fragments.items():
        for k, chapter in enumerate(chapters):
            for j, block in enumerate(chapter.blocks):
                if type(block) is Paragraph and fragment in block.text:
                    cuts[(k, j)] += [
                        (m.start(), m.end(), evidence) for m in re.finditer(re.escape(fragment), block.text)
                    ]
    return cuts


def _branches(group: list[tuple[int, str]]):
    """(fragment, chapters, times) of the starts in `group`: where the group is in enough chapters,
    its common start when that is a fragment;
    else, the same asked of each of its branches (the starts alike one character further) that is
    in enough chapters itself. A start shared by two slogans is too short to be a fragment, and each
    slogan is its own branch; a stray start beside them is in too few chapters to count."""
    if len(where := {k for k, _ in group}) < FRAGMENT_CHAPTERS:
        return
    common = os.path.commonprefix([p for _, p in group])
    if fragment := _fragment(common, group):
        yield fragment, len(where), len(group)
        return
    branches: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for k, piece in group:
        if len(piece) > len(common):
            branches[piece[len(common)]].append((k, piece))
    for branch in branches.values():
        yield from _branches(branch)


def _fragment(common: str, group: list) -> str:
    """The repeated start, up to its sentence's end, when it is a site's: two site words at least, none
    of the author's own words (求收藏 …). Not where the chapters go on alike into a story sign (a longer
    template, 亲~本站域名：“166"…) or part at a number (请记住某书 最新章节 第89章…: the template rule's)."""
    if (
        _STORY_MARK.search(common)
        or any(_NUMBER.match(p, len(common)) for _, p in group)
        or common.endswith("第")
    ):
        return ""
    common = common[: m.end()] if (m := re.search(rf"[{SENTENCE_STOPS}]+", common)) else common
    if (
        len(common) < MIN_FRAGMENT
        or len(site_signals(common)) < 2
        or not in_debris_block(common, 2, True)
        and not site_talk(common)
    ):
        return ""
    return common
