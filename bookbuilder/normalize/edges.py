"""Lines a site adds at every chapter's edges, found from the book's own regularities (docs/rules-notes.md,
"Edge templates"): an update-time and word-count line under each heading (书香屋 更新时间:2007-1-12
23:57:15 本章字数:5906), a page's title over or under it (某书——第三章), a saved page's navigation
and footer (上一部分 / 下一部分 / 书香门第－某某－某书), a scraper's page marker. Their numbers, dates and
the chapter's own title change from chapter to chapter, and no site word need stand beside them, so
the repetition judge (normalize/repeats.py) lets them by.

Each line of a chapter's first and last EDGE_LINES paragraphs is folded (numbers of every kind, a
calendar's words, the titles of the chapter and its neighbours, the volumes' and the book's names),
and so is what is glued before or after a story's sentence there. A form that stands at the edges of
EDGE_SHARE of the book's chapters is a template; it goes when the line itself reads as boilerplate
rather than prose, in the manner of jusText and trafilatura (`boilerplate`): a machine's characters,
a link, a form's fields, a page's title; never with story signs, never a sentence of the book's own
common characters (欲知后事如何，且听下回分解 ends every chapter of a 章回 novel, and is the story's),
never a dateline (a diary's 1980年12月16日，星期二). A short line standing between such a template and
the chapter's edge in as many chapters goes with it (上一部分 under a page's footer). Nothing glued is
cut inside a sentence: the piece begins after the story's last sentence or ends where the story's
first begins.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, replace

from bookbuilder.diagnostics import Diagnostic, removal
from bookbuilder.model import Book, Chapter, Paragraph
from bookbuilder.normalize.clean import LOOKALIKES, find_urls
from bookbuilder.normalize.debris import story_signs
from bookbuilder.numerals import TO_MYRIADS
from bookbuilder.vocabulary import (
    CHAPTER_UNITS,
    DIALOGUE_QUOTES,
    HAN_CHAR,
    HAN_COMMON,
    NAVIGATION_WORDS,
    SENTENCE_STOPS,
    VOLUME_UNITS,
)

RULES = ("edge-template",)

EDGE_LINES = 3  # paragraphs at each end of a chapter, where a site puts its lines
EDGE_SHARE = 0.25  # of the book's chapters a form stands at the edges of: the site's template
EDGE_CHAPTERS = 3  # chapters at the least, in a book of few
TEMPLATE_LONGEST = 80  # characters of a whole line taken for a template; a longer one is a paragraph
GLUED_LONGEST = 60  # characters of a template glued before or after a story's sentence
MACHINE_SHARE = 0.5  # of a line's characters in Latin letters, digits and marks: a machine's line
COMMON_CHARACTERS = 40  # the book's most frequent Han characters: its function characters
PROSE_SHARE = 0.25  # of a sentence's Han characters among them: the book's prose (a refrain, a formula)
BESIDE_SHORT = 12  # characters of a short line that goes with the template it stands beside
PAGE_TITLE_PIECES = 3  # names joined by separators: a page's title though none is the book's (站－作者－书)
COMMON_SAMPLE = 60_000  # characters of the book read for its common characters

_NUMBER = f"0-9０-９{TO_MYRIADS}两廿卅"
_SENTENCE_MARKS = re.compile(
    f"[{re.escape(SENTENCE_STOPS + DIALOGUE_QUOTES)}，、,;；]"
)  # a sentence's, not a title's
# numbers of every kind, and a calendar's words (Mon May 10 16:09:25 CST 2010, Saturday, November 16)
_NUMBERS = re.compile(f"[{_NUMBER}]+")
_CALENDAR = re.compile(
    r"(?i)(?<![a-z])(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
)
# a letter a look-alike or a case may disguise: only a text with one is translated (fold runs ten
# thousand times on a long book)
_LETTERS = re.compile("[A-Za-zＡ-Ｚａ-ｚ\u00c0-\u024f\u0370-\u04ff]")
_SPACES = re.compile(r"\s+")
# marks a page's title or breadcrumb joins names with; the breadcrumb's own are never a sentence's
_SEPARATORS = "-_|｜—–·•>»＞→/－=＝"
_BREADCRUMB = re.compile(r"[>»＞→]")
_SEPARATOR_RUN = re.compile(rf"\s*[{re.escape(_SEPARATORS)}]+\s*")
_LABEL = re.compile(rf"第[{_NUMBER}]+[{CHAPTER_UNITS}{VOLUME_UNITS}]")
# what a saved page's links say: its navigation words, and the same in traditional script or with 前/后
_NAV = "|".join(sorted(NAVIGATION_WORDS, key=len, reverse=True))
_NAVIGATION_LINE = re.compile(
    rf"^(?:[\s{re.escape(_SEPARATORS)}]*(?:{_NAV}|返?回?目[录錄]|返?回?首[页頁]|"
    r"[上下前后後]一?(?:[页頁章节節篇级級]|部分)))+"
    rf"[\s{re.escape(_SEPARATORS)}]*$"
)
_FIELD = re.compile(rf"[{HAN_COMMON}]{{2,6}}\s*[：:]\s*[0-9０-９A-Za-z]")  # 本章字数：5906
_SITE_DOMAIN = re.compile(r"(?i)https?:|www|\.(?:com|net|org|cn|cc|la|info|top|xyz|me)(?![a-z])")
_N = rf"[{_NUMBER}]+"
_DATELINE = re.compile(
    rf"^(?:{_N}年)?{_N}月{_N}[日号](?:[，,、\s]*(?:星期|礼拜|周)[{_NUMBER}日天])?"
    rf"(?:[，,、\s]*(?:早上|上午|中午|下午|晚上|凌晨)?{_N}[点時时](?:{_N}分)?)?[，。,.\s]*$"
)
_SENTENCE_STOP = re.compile(f"[{SENTENCE_STOPS}]")
_STOPS = tuple(SENTENCE_STOPS + "…")
# where a template glued after a story's last sentence may begin, or where one glued before its
# first sentence may end: a sentence's end, a space, a page's separator
_AFTER_SENTENCE = re.compile(rf"(?:[{SENTENCE_STOPS}…]+[”」』）)]*|\s+)(?=\S)")
_HEAD_END = re.compile(rf"\s+|[{re.escape(_SEPARATORS)}]+|[]】）)》〗]")
_STORY_STARTS = re.compile(f"[{HAN_COMMON}“「『（(《]")  # a story's sentence begins with a word or a quote
_STORY_ENDS = re.compile(f"[{HAN_COMMON}{SENTENCE_STOPS}…”」』）)]")  # a word or a sentence's end


def fold(text: str, names: tuple[str, ...] = ()) -> str:
    """The text as its template: each name (a title, a volume's, the book's) as @, each number, date
    and calendar word as #, look-alikes as Latin, lower case, no spaces."""
    for name in names:
        if name in text:
            text = text.replace(name, "@")
    text = _SPACES.sub("", _NUMBERS.sub("#", text))
    if _LETTERS.search(text):
        return _CALENDAR.sub("#", text.translate(LOOKALIKES)).lower()
    return text


# ---- the evidence: what a line is made of, jusText's way


def machine_share(text: str) -> float:
    """The share of the text's characters (spaces aside) that are Latin letters, digits and marks."""
    chars = _SPACES.sub("", text)
    if not chars:
        return 0.0
    return 1 - len(HAN_CHAR.findall(chars)) / len(chars)


def common_share(text: str, common: frozenset[str]) -> float:
    """The share of the text's Han characters that are the book's most common ones."""
    han = HAN_CHAR.findall(text)
    return sum(c in common for c in han) / len(han) if han else 0.0


def prose(text: str, common: frozenset[str]) -> str:
    """What shows the line is the story's, or "": story signs (dialogue, a person, a sentence of
    ordinary length), a dateline (a diary's, a letter's), or a sentence of the book's own common
    characters (欲知后事如何？且听下回分解。)."""
    if signs := story_signs(text):
        return signs
    if _DATELINE.match(text.strip()):
        return "a dateline"
    if _SENTENCE_STOP.search(text) and common_share(text, common) >= PROSE_SHARE:
        return "a sentence of the book's common characters"
    return ""


def boilerplate(text: str, common: frozenset[str], names: tuple[str, ...] = ()) -> str:
    """Why the line is a site's and not the story's, or "": a machine's characters (an update time,
    a word count, a page marker), a link (a domain, a line of navigation words), a form's fields,
    or a page's title (names joined by separators). A line that reads as prose has none."""
    text = text.strip()
    if not text or prose(text, common):
        return ""
    if any(_SITE_DOMAIN.search(text[a:b]) for a, b in find_urls(text)):
        return "a link"
    if _NAVIGATION_LINE.match(text):
        return "navigation words only"
    if len(_FIELD.findall(text)) >= 2:
        return "a form's fields with numbers"
    share = machine_share(text)
    if share >= MACHINE_SHARE and re.search(r"[0-9A-Za-z０-９Ａ-Ｚａ-ｚ]", text):
        own = common_share(text, common)
        return f"{share:.0%} Latin letters, digits and marks, {own:.0%} of its Han the book's common ones"
    return _page_title(text, names)


def _page_title(text: str, names: tuple[str, ...]) -> str:
    """Names joined by a page title's separators (某书——第三章, 书香门第－某某－某书, 位置：某书＞正文): two
    or more pieces, no sentence among them, one a title or the book's name, three of them, or a
    breadcrumb's arrow. A chapter's label that is no neighbour's is a heading's, never taken."""
    if _SENTENCE_MARKS.search(text):
        return ""
    folded = fold(text, names)
    if _LABEL.search(text) and "@" not in folded:
        return ""  # 第五章 in the second chapter: a heading the reading missed
    pieces = [p for p in _SEPARATOR_RUN.split(text) if p.strip()]
    if len(pieces) < 2:
        return ""
    named = any(fold(p, names) == "@" for p in pieces)
    if named or len(pieces) >= PAGE_TITLE_PIECES or _BREADCRUMB.search(text):
        return "a page's title, names joined by separators"
    return ""


# ---- where each form stands


@dataclass(frozen=True, slots=True)
class Place:
    """A sighting: chapter k's block j, the span start:end of its text, under its folded key."""

    k: int
    j: int
    start: int
    end: int
    key: str


@dataclass(frozen=True, slots=True)
class Template:
    """A form at the edges of many chapters, its places, and why it is a site's."""

    key: str
    places: tuple[Place, ...]
    chapters: int
    evidence: str


def chapter_names(chapters: list[Chapter], k: int, others: tuple[str, ...]) -> tuple[str, ...]:
    """What a template names, folded away: the titles of chapter k and its neighbours (a page's
    header over the next heading ends the chapter before it), their words, and `others` (the
    volumes' and the book's names), longest first."""
    words = set(others)
    for chapter in chapters[max(0, k - 1) : k + 2]:
        words.add(chapter.title)
        words.update(w for w in chapter.title.split() if len(w) > 1)
    return tuple(sorted((w for w in words if w), key=len, reverse=True))


def book_names(book: Book) -> tuple[str, ...]:
    """The volumes' titles, the book's title, and a whole-novel file's name (the book's name, until
    the metadata is chosen)."""
    names = {v.title for v in book.volumes if v.title} | {book.meta.title}
    for source in book.files if len(book.files) == 1 else ():  # a folder's files are named by chapter
        stem = source.path.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
        names.update(w for w in re.split(r"[\s_]+", stem) if len(w) > 1)
    return tuple(n for n in names if len(n) > 1)


def _edges(chapter: Chapter) -> list[int]:
    """The indexes of the chapter's first and last EDGE_LINES paragraphs."""
    at = [j for j, b in enumerate(chapter.blocks) if type(b) is Paragraph]
    return sorted(set(at[:EDGE_LINES] + at[-EDGE_LINES:]))


def _glued(text: str, names: tuple[str, ...], head: bool, tail: bool):
    """(start, end, key) of each piece glued before the story (`head`) or after it (`tail`),
    GLUED_LONGEST characters at most: a head ends at a space, a separator or a bracket's close before
    the first sentence's end, with the story's words right after it; a tail begins after a sentence's
    end or a space, with the story's words or a sentence's end right before it. Never inside a word."""
    if head:
        first_stop = _SENTENCE_STOP.search(text, 0, GLUED_LONGEST)
        limit = min(GLUED_LONGEST, first_stop.start() if first_stop else len(text))
        for m in _HEAD_END.finditer(text, 0, limit):
            if 1 < m.end() <= limit and _STORY_STARTS.match(text, m.end()):
                yield 0, m.end(), "head:" + fold(text[: m.end()], names)
    if tail:  # a template is no sentence: only what follows the last sentence's end is looked at
        since = max(0, len(text) - GLUED_LONGEST - 1)
        since = max([since] + [text.rfind(stop, since) for stop in _STOPS])
        for m in _AFTER_SENTENCE.finditer(text, since):
            before = text[max(0, m.start() - 1) : m.end()].rstrip()[-1:]
            if len(text) - GLUED_LONGEST <= m.end() < len(text) and _STORY_ENDS.match(before):
                yield m.end(), len(text), "tail:" + fold(text[m.end() :], names)


def sightings(book: Book, memo: dict | None = None) -> tuple[list[Chapter], dict[str, list[Place]]]:
    """The book's chapters, and every form at their edges with its places. `memo` (one load's, shared
    by the cleaning and the self-check) keeps each chapter's forms while the chapter and the names
    folded away are the same."""
    chapters = list(book.chapters())
    others = book_names(book)
    seen: dict[str, list[Place]] = defaultdict(list)
    for k, chapter in enumerate(chapters):
        names = chapter_names(chapters, k, others)
        kept = memo.get(id(chapter)) if memo is not None else None
        if kept is not None and kept[0] is chapter and kept[1] == names:  # the pair keeps the id unused
            found = kept[2]
        else:
            found = _chapter_sightings(chapter, names)
            if memo is not None:
                memo[id(chapter)] = (chapter, names, found)
        for key, j, start, end in found:
            seen[key].append(Place(k, j, start, end, ""))
    return chapters, seen


def _chapter_sightings(chapter: Chapter, names: tuple[str, ...]) -> tuple[tuple[str, int, int, int], ...]:
    """The forms at one chapter's edges, (key, block, start, end), in the order they are met."""
    found = []
    edges = _edges(chapter)
    for j in edges:
        text = chapter.blocks[j].text
        if len(text) <= TEMPLATE_LONGEST:
            found.append(("line:" + fold(text, names), j, 0, len(text)))
        # glued before the story at the chapter's head (under another site line, perhaps), or after
        # a line at either edge (the heading's rest on the first line: 主题　[本章字数：…])
        head = j in edges[:EDGE_LINES]
        found += [(key, j, start, end) for start, end, key in _glued(text, names, head, True)]
    return tuple(found)


def needed(chapters: int) -> int:
    """How many chapters a form's edges must hold it in to be the book's template."""
    return max(EDGE_CHAPTERS, math.ceil(EDGE_SHARE * chapters))


def common_characters(chapters: list[Chapter]) -> frozenset[str]:
    """The book's COMMON_CHARACTERS most frequent Han characters (的了是他一不…, or 之乎者也 in a
    classic), read from the middle of every chapter, COMMON_SAMPLE characters in all."""
    each = max(200, COMMON_SAMPLE // max(1, len(chapters)))
    sample = []
    for chapter in chapters:
        texts = [b.text for b in chapter.blocks if type(b) is Paragraph]
        sample.append("".join(texts[len(texts) // 4 :])[:each])
    counts = Counter("".join(sample))  # every character (a C loop), then the Han among the most common
    return frozenset([c for c, _ in counts.most_common() if HAN_CHAR.match(c)][:COMMON_CHARACTERS])


def templates(book: Book, memo: dict | None = None) -> tuple[list[Chapter], list[Template]]:
    """The book's chapters and its edge templates: each form at the edges of enough chapters whose
    lines read as boilerplate there (the places where they do not are left), then the short lines
    that stand between such a template and the chapter's edge as often. `memo`: as `sightings`."""
    chapters, seen = sightings(book, memo)
    need = needed(len(chapters))
    repeated = {
        key: places
        for key, places in seen.items()
        if len(places) >= need and len({p.k for p in places}) >= need and worded(key)
    }
    if not repeated:
        return chapters, []
    common = common_characters(chapters)
    others = book_names(book)
    found, weak = [], {}
    for key, places in repeated.items():
        judged = [
            (p, boilerplate(_text(chapters, p), common, chapter_names(chapters, p.k, others))) for p in places
        ]
        taken = tuple(replace(p, key=key) for p, why in judged if why)
        if len({p.k for p in taken}) >= need:
            found.append(
                Template(key, taken, len({p.k for p in places}), next(why for _, why in judged if why))
            )
        elif key.startswith("line:") and _short_line(_text(chapters, places[0]), common):
            weak[key] = places
    if found:
        found = [_inside(chapters, t, common, others) for t in _outermost(found)]
        found += _beside(chapters, found, weak, need)
        found += _inward(chapters, found, need, common, others)
    return chapters, found


def _inward(chapters: list[Chapter], found: list[Template], need: int, common, others) -> list[Template]:
    """The lines right inside a chapter's run of template lines, the same in enough chapters, that
    read as boilerplate or are short lines of no story: a site's block may be longer than the
    edges looked at (上一部分 over 下一部分, the footer and the next page's title)."""
    taken = {(p.k, p.j) for t in found for p in t.places if p.start == 0 and _whole(chapters, p)}
    out: list[Template] = []
    for _ in range(EDGE_LINES):  # a block of at most twice the edges' lines
        inside: dict[str, list[Place]] = defaultdict(list)
        for k, chapter in enumerate(chapters):
            at = [j for j, b in enumerate(chapter.blocks) if type(b) is Paragraph]
            for run in (at, at[::-1]):
                n = next((i for i, j in enumerate(run) if (k, j) not in taken), len(run))
                if 0 < n < len(run) and len(text := chapter.blocks[run[n]].text) <= TEMPLATE_LONGEST:
                    key = "line:" + fold(text, chapter_names(chapters, k, others))
                    inside[key].append(Place(k, run[n], 0, len(text), key))
        more = []
        for key, places in inside.items():
            if len({p.k for p in places}) < need or not worded(key):
                continue
            text = _text(chapters, places[0])
            why = boilerplate(text, common) or (
                _short_line(text, common) and "a short line beside a template"
            )
            if why:
                more.append(Template(key, tuple(places), len({p.k for p in places}), why))
        if not more:
            break
        out += more
        taken |= {(p.k, p.j) for t in more for p in t.places}
    return out


def _outermost(found: list[Template]) -> list[Template]:
    """The templates not inside a longer one at every place (a glued update line's tail, 2010], is
    the line's)."""
    spans = defaultdict(list)
    for t in found:
        for p in t.places:
            spans[(p.k, p.j)].append((p.start, p.end))

    def inside(p: Place) -> bool:
        return any(a <= p.start and p.end <= b and b - a > p.end - p.start for a, b in spans[(p.k, p.j)])

    return [t for t in found if not all(inside(p) for p in t.places)]


def _inside(chapters: list[Chapter], template: Template, common, others) -> Template:
    """A whole line's template with its places inside the chapters too, where the same line reads as
    boilerplate there (a scraper's page marker, 670 times in one download, at every page's end)."""
    if not template.key.startswith("line:"):
        return template
    lengths = [p.end for p in template.places]
    least, most = min(lengths) - 4, max(lengths) + 4
    edges = {(p.k, p.j) for p in template.places}
    more = []
    for k, chapter in enumerate(chapters):
        names = None
        for j, block in enumerate(chapter.blocks):
            if type(block) is not Paragraph or not least <= len(block.text) <= most or (k, j) in edges:
                continue
            names = names or chapter_names(chapters, k, others)
            if "line:" + fold(block.text, names) == template.key and boilerplate(block.text, common, names):
                more.append(Place(k, j, 0, len(block.text), template.key))
    return replace(template, places=template.places + tuple(more)) if more else template


_WORD = re.compile(r"[\w@]")


def worded(key: str) -> bool:
    """Whether a form has words of its own: two letters, Han characters or names, beside its numbers
    (a bare 1 or [1] at every chapter's head is the book's own numbering, the heading alone (@) is
    the heading's business); and, glued to a sentence, a number or a name in it (a template counts
    or names its chapter; Shirley at the head of many chapters is the story's)."""
    side, _, form = key.partition(":")
    if len(_WORD.findall(form.replace("#", ""))) < 2 or form == "@":
        return False
    return side == "line" or "#" in form or "@" in form


def _text(chapters: list[Chapter], p: Place) -> str:
    return chapters[p.k].blocks[p.j].text[p.start : p.end]


def _short_line(text: str, common: frozenset[str]) -> bool:
    """A line that can go with the template beside it: short, no sentence, no story."""
    return len(text) <= BESIDE_SHORT and not _SENTENCE_STOP.search(text) and not prose(text, common)


def _beside(chapters: list[Chapter], found: list[Template], weak: dict, need: int) -> list[Template]:
    """The short lines whose run to the chapter's edge holds only templates and other such lines,
    a template among them, in enough chapters (jusText's context: a short line among boilerplate is
    boilerplate): 上一部分 over a page's footer."""
    taken = {(p.k, p.j) for t in found for p in t.places if p.start == 0 and _whole(chapters, p)}
    short = {(p.k, p.j): key for key, places in weak.items() for p in places}
    out = []
    for key, places in weak.items():
        beside = tuple(replace(p, key=key) for p in places if _run_to_edge(chapters[p.k], p, taken, short))
        if len({p.k for p in beside}) >= need:
            out.append(Template(key, beside, len({p.k for p in places}), "a short line beside a template"))
    return out


def _whole(chapters: list[Chapter], p: Place) -> bool:
    return p.end == len(chapters[p.k].blocks[p.j].text)


def _run_to_edge(chapter: Chapter, p: Place, taken: set, short: dict) -> bool:
    """Whether the line's run to the chapter's nearer edge holds only templates and short lines, and
    a template stands in it or right beside the line (输入：…com, then 转载请保留 at the very end)."""
    at = [j for j, b in enumerate(chapter.blocks) if type(b) is Paragraph]
    i = at.index(p.j)
    beside = {(p.k, j) for j in at[max(0, i - 1) : i + 2] if j != p.j}
    for run in (at[: i + 1], at[i:]):  # from the chapter's start to it, from it to the end
        others = [(p.k, j) for j in run if j != p.j]
        if (
            len(run) <= EDGE_LINES
            and any(o in taken for o in others + list(beside))
            and all(o in taken or o in short for o in others)
        ):
            return True
    return False


# ---- the book without them


def strip_edges(
    book: Book, off: frozenset[str] = frozenset(), kept: frozenset = frozenset(), memo: dict | None = None
) -> tuple[Book, dict[int, list[Diagnostic]]]:
    """The book without its edge templates, and the removals of each chapter (by its index in
    book.chapters()). `off`: the rules [normalize.junk] disable names; `kept`: the places of the
    paragraphs [[keep]] entries keep, left as they are; `memo`: as `sightings`."""
    if set(RULES) <= off:
        return book, {}
    chapters, found = templates(book, memo)
    cuts: dict[tuple[int, int], list[tuple[int, int, str]]] = defaultdict(list)
    for template in found:
        evidence = f"at the edges of {template.chapters} of {len(chapters)} chapters, {template.evidence}"
        for p in template.places:
            if chapters[p.k].blocks[p.j].at not in kept:
                cuts[(p.k, p.j)].append((p.start, p.end, evidence))
    if not cuts:
        return book, {}
    removed: dict[int, list[Diagnostic]] = defaultdict(list)
    changed: dict[int, list] = {}
    for (k, j), spans in sorted(cuts.items()):
        blocks = changed.setdefault(k, list(chapters[k].blocks))
        block = blocks[j]
        left, gone = _cut(block.text, spans)
        for text, evidence in gone:
            removed[k].append(removal(RULES[0], text, block.at, evidence))
        blocks[j] = Paragraph(left, block.at, block.indented) if re.search(r"[^\W_]", left) else None
    new = {
        k: replace(chapters[k], blocks=tuple(b for b in blocks if b is not None))
        for k, blocks in changed.items()
    }
    return book.with_chapters(new), dict(removed)


def _cut(text: str, spans: list[tuple[int, int, str]]) -> tuple[str, list[tuple[str, str]]]:
    """The text without the spans (overlapping ones joined), and each piece cut with its evidence."""
    merged: list[list] = []
    for start, end, evidence in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, evidence])
    left, at = [], 0
    for start, end, _ in merged:
        left.append(text[at:start])
        at = end
    left.append(text[at:])
    return "".join(left).strip(), [(text[a:b].strip(), why) for a, b, why in merged]
