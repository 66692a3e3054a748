"""The self-check: what still looks like a site's debris after cleaning (docs/rules-notes.md,
"The self-check"). Every paragraph, title and blurb line of the cleaned book is scored by signals
the text shows about itself: a URL or domain on a folded copy, a site's or an app's words, markup
and entities, a short line repeated at chapters' edges, a site's name glued after a line's last
mark. Nothing here removes anything: what is found is reported, grouped by shape with its count
and first place (W203 for text, W309 for a title), so a user (and CI, with --strict) knows what
to correct without reading the book. The judge of the development shelf (bench/judge_shelf.py)
counts the same suspects, so the product and the figure cannot drift apart.

A line with story signs (dialogue, a sentence of ordinary length) is judged only by what is
outside its quotations: a character may name a website or an app.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Book, Chapter, Location, Paragraph
from bookbuilder.normalize import by_hand, edges
from bookbuilder.normalize.clean import (
    NOTICE_WORDS,
    find_urls,
    fold,
    notice_words,
    site_share,
    site_talk,
    words_pattern,
)
from bookbuilder.normalize.debris import APP
from bookbuilder.numerals import TO_MYRIADS
from bookbuilder.vocabulary import (
    COPYRIGHT_WORDS,
    FILE_FORMAT,
    HAN_CHAR,
    HAN_COMMON,
    NAVIGATION_WORDS,
    SENTENCE_STOPS,
    SITE_NAME_ENDINGS,
    any_case,
    either_script,
)

# ---- the signals, each a pure function of one text

# Markup a scraper left: a tag (<div>, </p>, <br/>, <-SITEEND->), an entity (&nbsp;), a crawler's
# empty value (Array[], undefined), a page's script call (app2();). A story's angle brackets are
# Chinese (《》〈〉), never ASCII around ASCII letters.
_MARKUP = re.compile(
    r"</?[A-Za-z!-][A-Za-z0-9 =\"'/_:.!-]{0,60}>|&(?:[a-zA-Z]{2,8}|#\d{2,7});|\bArray\s*\[\s*\]"
    r"|^(?:undefined|null|NaN)$|(?<![A-Za-z])[a-z_][A-Za-z0-9_]{1,30}\(\);"
)
# An app's advert: an app's word (vocabulary.APP_WORDS, as the cleaning's judge reads them) with
# what an app offers. A story's app is in dialogue or a sentence about a person, judged apart.
_APP = APP
_APP_OFFER = re.compile(r"听书|朗读|离线|下载|安装|免费|阅读|看书|追书|换源|书源|无广告|最全|扫码|二维码")
# A saved web page's navigation: a line that is nothing but links' words (a 目录 or 首页 alone too).
_LINK_WORDS = either_script(NAVIGATION_WORDS + ("目录", "首页", "书签", "书架", "投推荐票"))
_NAVIGATION = re.compile(rf"^(?:[\s|｜/·>»«<\-]*(?:{_LINK_WORDS}))+[\s|｜/·>»«<\-]*$")
# A collector's or copyright line: who gathered, typed or owns the copy. The credit verbs alone
# (整理, 收集) are a story's too (他把渔网收集整理好了 is judged by its person): only their compounds.
_CREDIT = re.compile(
    "(?i)"
    + "|".join(map(re.escape, COPYRIGHT_WORDS))
    + "|收集整理|整理制作|整理发布|制作发布|手打团|扫描校对"
)
# What a site's name ends in, glued after a line's last mark (求月票！某某中文).
_NAME_TAIL = re.compile(
    rf"(?<=[！!。？?…~～）)】])\s*([{HAN_COMMON}A-Za-z0-9]{{1,6}}(?:"
    + "|".join(SITE_NAME_ENDINGS)
    + r"))\s*$"
)
_NAME_ENDS = frozenset(e[-1] for e in SITE_NAME_ENDINGS)
_QUOTED = re.compile(r"“[^“”]*”|「[^「」]*」|『[^『』]*』|\"[^\"]*\"")
# a number as a template folds it: Arabic, full-width or written (第一百零五 and 105 alike)
_NUMERAL_RUN = re.compile(f"[0-9０-９{TO_MYRIADS}]+")

GIANT = 4  # a chapter this many times the book's median size ...
GIANT_MIN = (
    20_000  # ... and this many characters holds a heading the reading missed, if any line looked like one
)
REPEAT_CHAPTERS = 3  # a line repeated at the edge of this many chapters is the book's template
REPEAT_SHARE = 0.02  # ... and of this share of them: a refrain in two chapters of 300 is the story's
EDGE = 3  # paragraphs: a chapter's first and last three are its edges, where a site puts its lines
SHORT_LINE = 40  # characters: a template at an edge is short; a longer repeated line is the story's


def outside_quotes(text: str) -> str:
    """The text with its quotations taken out: what the narrator, or a site, says."""
    return _QUOTED.sub("　", text) if any(q in text for q in '“「『"') else text


def told_as_story(text: str) -> bool:
    """Whether the text reads as story, for flagging: dialogue, or a sentence of ordinary length with a
    person in it. Wider than the cleaning's guard (normalize.debris.story_signs), which keeps any line
    with a person: a line the cleaning keeps may still be flagged, for a person to look at."""
    if any(q in text for q in "“”「」『』"):
        return True
    return len(text) >= 12 and bool(re.search(r"[他她我你它]", text)) and text.rstrip()[-1:] in "。！？…!?"


# What every signal below needs at least one of: most of a book's paragraphs have none, and are
# passed over after two searches (the self-check runs on every load: bench/bench_book.py).
_LETTERS = re.compile(r"[A-Za-zＡ-Ｚａ-ｚωѡаоеср<&]")
_OTHER_WORDS = words_pattern("客户端|目录|首页|上一|下一|书签|书架|版权|整理|制作|手打|扫描")


def _needed(text: str) -> bool:
    """Three searches, each a class or a trie: an alternation of words is slower than all three."""
    return bool(_LETTERS.search(text) or NOTICE_WORDS.search(text) or _OTHER_WORDS.search(text))


def signals(text: str) -> tuple[str, ...]:
    """The shapes of site debris this text shows, strongest first; () for a line of story."""
    return tuple(shape for shape, _ in evidence(text))


def evidence(text: str) -> list[tuple[str, str]]:
    """Each shape of site debris the text shows, with the piece of the text that showed it (a tag,
    a URL, a slogan's sentence): what repeats through a book where its paragraphs do not, and what
    a user removes."""
    if not _needed(text):
        return []
    found = []
    narrator = outside_quotes(text)
    if m := _MARKUP.search(text):
        found.append(("markup", m.group(0)))
    if url := _site_url(text, narrator):
        found.append(("url", url))
    app = [p for p in _pieces(narrator) if _APP.search(p) and _APP_OFFER.search(p) and not told_as_story(p)]
    if app:
        found.append(("app-advert", app[0]))
    if _NAVIGATION.match(text.strip()):
        found.append(("navigation", text))
    if _CREDIT.search(narrator) and not told_as_story(narrator):
        found.append(("credit", next((p for p in _pieces(narrator) if _CREDIT.search(p)), text)))
    if not any(shape == "url" for shape, _ in found):
        found += [("site-words", piece) for piece in _pieces(narrator) if _site_piece(piece)][:1]
    return [(shape, piece.strip(" \u3000")) for shape, piece in found]


# A URL a site writes has its scheme, www or a common ending; one read out of a row of numbers
# (1186:34:l3、ll86…) or a name (Dr.Ma) has a country code at most, and is no site's.
_SITE_DOMAIN = re.compile(
    r"(?i)https?:|www|wap|\.(?:com|net|org|cn|cc|la|info|top|xyz|vip|me|tw|hk)(?![a-z])"
)


def _site_url(text: str, narrator: str) -> str:
    """A site's URL in the narrator's words, or "": a story's sentence may hold a URL
    (他在浏览器里输入了www…), a site's notice around it or a line of little else may not."""
    spans = [(a, b) for a, b in find_urls(narrator) if _SITE_DOMAIN.search(fold(narrator[a:b])[0])]
    if not spans:
        return ""
    domains = [narrator[a:b] for a, b in spans]
    rest = len(HAN_CHAR.findall(narrator)) - sum(len(HAN_CHAR.findall(d)) for d in domains)
    if rest > SHORT_REST and not any(
        site_talk(p) or _site_piece(p) for p in _pieces(narrator) if find_urls(p)
    ):
        return ""  # 汪淼在浏览器的地址栏中输入那个很容易记住的游戏网址：www…
    return domains[0]


SHORT_REST = 12  # Han characters beside a URL: a line of little else is the site's


# A site's phrase a story's narrator hardly writes; the word 小说 or 连载 alone is his (金庸's
# afterword: 在报上连载的小说).
_SITE_PHRASES = words_pattern(
    "最新章节|无弹窗|更新最快|最快更新|手机阅读|免费阅读|在线阅读|全文阅读|百度搜索|"
    "百度云|搜小说|手打版|请点击|下载地址|下载网|首发网址|章节内容|小说网|书友整理|电子书论坛|"
    f"{any_case(FILE_FORMAT)}下载|{any_case(FILE_FORMAT)}电子书|访问网址|手机访问"
)
SITE_PIECE = 30  # characters: a sentence of site words alone is short
SITE_PIECE_SHARE = 0.5  # of its Han characters in site words


# 本站 (this site) where it is no 原本站在 (stood there) or 基本站稳 (stood firm).
_THIS_SITE = re.compile(r"本(?<![原基根立]本)站(?![起立稳着在住了到])")


def _site_piece(piece: str) -> bool:
    """A sentence outside quotes that is a site's: one of its phrases, or short, two notice words and
    half of it site words (老小说道： holds the word 小说 and is a man speaking)."""
    if _SITE_PHRASES.search(piece) or _THIS_SITE.search(piece):
        return True  # even glued to a story's sentence: …”百度云搜索，搜小说就是方便他转身
    if told_as_story(piece):
        return False
    return (
        len(piece) <= SITE_PIECE and len(notice_words(piece)) >= 2 and site_share(piece) >= SITE_PIECE_SHARE
    )


_PIECE = re.compile(rf"[^{SENTENCE_STOPS}\u3000]+[{SENTENCE_STOPS}]*")


def _pieces(text: str) -> list[str]:
    """The sentences of a text (a slogan glued inside a line is one of them)."""
    return [m.group(0) for m in _PIECE.finditer(text)] if len(text) > 30 else [text]


def name_tail(text: str) -> str:
    """A site's name glued after a line's last mark (求月票！某某中文), or ""."""
    if not text or text[-1] not in _NAME_ENDS:
        return ""
    m = _NAME_TAIL.search(text)
    return m.group(1) if m and not told_as_story(text[m.start(1) :]) else ""


def template_key(text: str) -> str:
    """A short line as its template: folded, look-alikes read as Latin, numbers as #."""
    return _NUMERAL_RUN.sub("#", by_hand.fold(text))  # as a [[keep]] compares text, numbers as #


def title_signals(title: str) -> tuple[str, ...]:
    """What makes a chapter's or volume's title doubtful: markup, a URL, a site's words in it."""
    found = []
    if _MARKUP.search(title) or "<" in title or ">" in title:
        found.append("markup")
    if find_urls(title):
        found.append("url")
    words = notice_words(title)
    if words and len(words) + bool(_APP.search(title)) >= 2 or NOTICE_WORDS.fullmatch(title.strip()):
        found.append("site-words")
    return tuple(found)


# ---- the book scored


@dataclass(frozen=True, slots=True)
class Suspect:
    """One line that looks like a site's: where it is, its text, the shape that flagged it."""

    shape: str
    text: str
    at: Location | None  # None: the blurb, which book.toml or the first file's head gave
    where: str = "paragraph"  # paragraph | title | blurb
    piece: str = ""  # the part of the text that showed it (a tag, a URL, a slogan); "": all of it

    @property
    def debris(self) -> str:
        """What would be removed: the piece, or the whole text."""
        return self.piece or self.text


@dataclass(frozen=True, slots=True)
class Group:
    """The suspects of one shape and template: what a user corrects at once."""

    shape: str
    key: str
    suspects: tuple[Suspect, ...]

    @property
    def first(self) -> Suspect:
        return self.suspects[0]


class Suspected(NamedTuple):
    """What the self-check finds in one chapter alone (`suspected`), each paragraph by its index
    among the chapter's paragraphs."""

    flagged: tuple[tuple[int, str, str], ...]  # (paragraph, shape, piece) a signal flags
    edge_lines: tuple[tuple[int, str], ...]  # (paragraph, template): short plain lines at its edges
    tails: tuple[tuple[int, str], ...]  # (paragraph, a site's name glued after its last mark)


# A chapter's `suspected` as found where it was normalized, or None where it was not: the
# self-check looks at that chapter itself.
Before = Callable[[Chapter], "Suspected | None"]


def self_check(
    book: Book, not_debris: tuple[str, ...] = (), before: Before | None = None, edge_memo: dict | None = None
) -> tuple[tuple[Group, ...], tuple[Diagnostic, ...]]:
    """The groups the self-check flags in a cleaned book, and their warnings; `not_debris`: what
    book.toml's [check] not_debris says is the story's; `before`: each chapter's `suspected`, where
    it was found already; `edge_memo`: the cleaning's forms at each chapter's edges (edges.sightings)."""
    groups = find(book, frozenset(map(template_key, not_debris)), before, edge_memo)
    return tuple(groups), tuple(diagnostics(groups))


def find(
    book: Book,
    kept: frozenset[str] = frozenset(),
    before: Before | None = None,
    edge_memo: dict | None = None,
) -> list[Group]:
    """Every suspect of the book, grouped by shape and template, in the order they first appear.
    `kept`: templates a user said are not debris (the check stops flagging them)."""
    suspects: list[Suspect] = []
    each: list[tuple[list[Paragraph], Suspected]] = []  # every chapter's paragraphs, and what they hold
    for volume in book.volumes:
        if volume.title and (shapes := title_signals(volume.title)):
            suspects.append(Suspect(shapes[0], volume.title, volume.at, "title"))
        for chapter in volume.chapters:
            if shapes := title_signals(chapter.title):
                suspects.append(Suspect(shapes[0], chapter.title, chapter.at, "title"))
            paragraphs = [b for b in chapter.blocks if type(b) is Paragraph]
            found = (before(chapter) if before else None) or suspected(chapter)
            each.append((paragraphs, found))
            suspects += [
                Suspect(shape, paragraphs[i].text, paragraphs[i].at, piece=_part(piece, paragraphs[i].text))
                for i, shape, piece in found.flagged
            ]
    for line in book.meta.description.splitlines():
        if found := evidence(line):
            suspects.append(Suspect(found[0][0], line, None, "blurb", _part(found[0][1], line)))
        elif _form_field(line):
            suspects.append(Suspect("form-header", line, None, "blurb"))
    suspects += _repeated_at_edges(each)
    flagged = {s.at for s in suspects}
    suspects += [s for s in _edge_templates(book, edge_memo) if s.at not in flagged]  # one line, one group
    return _grouped(
        [s for s in suspects if template_key(s.debris) not in kept and template_key(s.text) not in kept]
    )


def suspected(chapter: Chapter) -> Suspected:
    """What the self-check finds in the chapter alone: a function of the chapter, so that it runs
    where the chapter is normalized (on the workers: per_file.Normalized.suspected)."""
    paragraphs = [b for b in chapter.blocks if type(b) is Paragraph]
    return Suspected(_flagged(paragraphs), *_edge_lines(chapter, paragraphs))


def _flagged(paragraphs: list[Paragraph]) -> tuple[tuple[int, str, str], ...]:
    if not _needed("\n".join(p.text for p in paragraphs)):
        return ()  # one search for a chapter with nothing any signal needs
    return tuple(
        (i, found[0][0], found[0][1]) for i, p in enumerate(paragraphs) if (found := evidence(p.text))
    )


def _part(piece: str, text: str) -> str:
    return "" if piece == text.strip(" \u3000") else piece


# 书名: / 男女主角: with its value left empty; 作者简介: introduces the paragraph under it
_FORM_FIELD = re.compile(rf"^\s*[{HAN_COMMON}]{{1,5}}(?<!简介)(?<!介绍)(?<!内容)(?<!提要)\s*[：:]\s*$")


def _form_field(line: str) -> bool:
    return bool(_FORM_FIELD.match(line))


def _edge_lines(chapter: Chapter, paragraphs: list[Paragraph]) -> tuple[tuple, tuple]:
    """((paragraph, template), …) of the short lines with no story sign and no signal at the
    chapter's edges, other than its heading again; ((paragraph, name), …) of a site's name glued
    after a paragraph's last mark."""
    own = {
        template_key(chapter.title),
        template_key(chapter.at.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]),
    }  # its heading again
    n = len(paragraphs)
    lines = []
    for i in [*range(min(EDGE, n)), *range(max(EDGE, n - EDGE), n)]:
        text = paragraphs[i].text
        if (
            len(text) <= SHORT_LINE
            and not told_as_story(text)
            and not signals(text)
            and not name_tail(text)
            and (key := template_key(text)) not in own
        ):
            lines.append((i, key))
    return tuple(lines), tuple((i, tail) for i, p in enumerate(paragraphs) if (tail := name_tail(p.text)))


def _repeated_at_edges(each: list[tuple[list[Paragraph], Suspected]]) -> list[Suspect]:
    """Short lines with no story sign that come back at the edges of many chapters and show a
    second sign of a site (a site's name glued on, letters, a notice word): a site's template
    the cleaning did not know. A repeated line with no second sign (an author's 求月票) is his.
    `each`: every chapter's paragraphs, and what `suspected` found in them."""
    seen: dict[str, dict[int, Paragraph]] = defaultdict(dict)  # template → chapter → its line there
    tails: dict[str, dict[int, Paragraph]] = defaultdict(dict)
    for k, (paragraphs, one) in enumerate(each):
        for i, key in one.edge_lines:
            seen[key].setdefault(k, paragraphs[i])
        for i, tail in one.tails:
            tails[tail].setdefault(k, paragraphs[i])
    enough = max(REPEAT_CHAPTERS, int(REPEAT_SHARE * len(each)))
    found = []
    for key, where in seen.items():
        if key and len(where) >= enough and _second_sign(next(iter(where.values())).text):
            found += [Suspect("repeated-line", p.text, p.at) for p in where.values()]
    for where in tails.values():
        if len(where) >= enough:
            found += [
                Suspect("site-name-tail", p.text, p.at, piece=name_tail(p.text)) for p in where.values()
            ]
    return found


def _edge_templates(book: Book, memo: dict | None) -> list[Suspect]:
    """The lines of a site's templates at the chapters' edges (normalize/edges.py) that cleaning left:
    its rule switched off, or a line kept by hand. The cleaning's own judge, so the two cannot drift."""
    _, found = edges.templates(book, memo)
    chapters = list(book.chapters()) if found else []
    out = []
    for template in found:
        for p in template.places:
            block = chapters[p.k].blocks[p.j]
            piece = block.text[p.start : p.end].strip()
            out.append(Suspect("edge-template", block.text, block.at, _part(piece, block.text)))
    return out


_DATE = re.compile(
    r"\d{1,4}\s*[-/／.]\s*\d{1,2}\s*[-/／.]\s*\d{1,4}|\d{1,2}:\d{2}(?::\d{2})?"
)  # a post's date or time


def _second_sign(text: str) -> bool:
    """A sign of a site beside the repetition: a notice word, a Latin word, a site's name, a date.
    A bare number repeated at chapters' edges is the book's own section numbering (1, 2, 3)."""
    return bool(
        notice_words(text)
        or re.search(r"[A-Za-zＡ-Ｚａ-ｚ]{2}", text)
        or name_tail("。" + text)
        or _DATE.search(text)
        or edges.worded("line:" + edges.fold(text))
        and edges.boilerplate(text, frozenset())
    )  # or what a template's line is made of (上一部分, 某书——第三章: no site word in either)


def _grouped(suspects: list[Suspect]) -> list[Group]:
    groups: dict[tuple[str, str], list[Suspect]] = {}
    for s in suspects:
        key = s.text if s.where == "title" else template_key(s.debris)
        if s.shape == "form-header":
            key = ""  # the form's empty fields are one header
        groups.setdefault((s.shape, key), []).append(s)
    return [Group(shape, key, tuple(found)) for (shape, key), found in groups.items()]


def giant_chapters(book: Book) -> set[int]:
    """The indexes of the chapters far larger than the book's median: where a heading-like line
    the reading turned down (I301) is a heading suspect."""
    sizes = [c.chars for c in book.chapters()]
    median = sorted(sizes)[len(sizes) // 2] if sizes else 0
    return {k for k, n in enumerate(sizes) if median and n > GIANT * median and n > GIANT_MIN}


def removal(group: Group) -> tuple[str, str] | None:
    """(regex, kind) of "remove everywhere" for a group, as serve's workbench writes it: the line
    whole where the whole paragraph is the debris, else the piece cut out of its paragraph; its
    numbers read as any number (a template counts). None for titles: a heading is corrected, not
    removed."""
    if group.first.where == "title":
        return None
    whole = all(not s.piece for s in group.suspects)
    parts = _NUMERAL_RUN.split(group.first.debris)
    numbers = _NUMERAL_RUN.findall(group.first.debris)
    regex = "".join(
        re.escape(part) + (_NUMERAL_RUN.pattern if k < len(numbers) else "") for k, part in enumerate(parts)
    )
    return regex, "line" if whole else "inline"


SHAPES = {  # what each shape means, as the report says it
    "markup": "markup a scraper left (a tag, an entity)",
    "url": "a URL or domain",
    "app-advert": "an app's advert",
    "navigation": "a saved web page's navigation",
    "credit": "a collector's or copyright line",
    "site-words": "a site's words",
    "form-header": "an empty field of a download's form",
    "repeated-line": "a short line repeated at the edges of many chapters",
    "site-name-tail": "a site's name glued after the line's last mark",
    "edge-template": "a site's line at the edges of many chapters",
}


def _short(text: str, most: int = 60) -> str:
    return text if len(text) <= most else text[: most - 3] + "…"


def diagnostics(groups: list[Group]) -> list[Diagnostic]:
    """One warning per group at its first place: W309 for titles, W203 for text."""
    out = []
    for g in groups:
        s, n = g.first, len(g.suspects)
        times = f"; {n} times, first here" if n > 1 else ""
        if s.where == "title":
            out.append(Diagnostic("W309", f"title {_short(s.text)!r} holds {SHAPES[g.shape]}{times}", s.at))
        else:
            place = " (the blurb)" if s.where == "blurb" else f" (in {_short(s.text)!r})" if s.piece else ""
            out.append(
                Diagnostic("W203", f"{_short(s.debris)!r}{place} looks like {SHAPES[g.shape]}{times}", s.at)
            )
    return out
