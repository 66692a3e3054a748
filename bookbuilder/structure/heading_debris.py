"""What a site glues to a heading line, taken off before the heading rules judge it and before it
becomes a title: data/titles.toml's prefixes and suffixes (a site's labels, the book's name, an
update note), a scraper's markup, and an advert with its URL. Markup and adverts are found as
normalize/clean.py finds them in a paragraph (its tag list, its URL finder), so that a heading line
and a paragraph are read alike.
"""

from __future__ import annotations

import re
import string
import tomllib
from functools import lru_cache
from importlib import resources

from bookbuilder.numerals import NUMERAL_RUN
from bookbuilder.vocabulary import (
    BACK_MATTER,
    CHAPTER_UNITS,
    FRONT_MATTER,
    LABEL_BRACKETS,
    LATIN_LETTERS,
    OPENING_BRACKETS,
    SEPARATOR_MARKS,
    expand,
    matter_pattern,
    unit_class,
)

CHAPTER_UNIT = unit_class(CHAPTER_UNITS)  # the units a 第N… chapter is counted in
# What debris (data/titles.toml) can start or end with; a line with neither is left alone unsearched.
# A private-use character: an icon-font glyph a scraper kept before a heading (titles.toml).
PRIVATE_USE = frozenset(map(chr, range(0xE000, 0xF900)))
DEBRIS_STARTS = frozenset("章正最目V《标※" + SEPARATOR_MARKS + LABEL_BRACKETS[0] + "0123456789") | PRIVATE_USE
DEBRIS_ENDS = frozenset(
    ")）>更" + LABEL_BRACKETS[1] + SEPARATOR_MARKS + string.ascii_letters + string.digits
)  # …分宝 biqukan.com, 第一部……457 (a contents' page number), 再生（4）第一更 (an update count)
_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*(?:\s[^<>]*)?/?>|<!--.*?-->")  # a scraper's tags, not 1<2


@lru_cache(maxsize=8)
def _debris(extra: tuple[str, ...] = ()) -> tuple[tuple[re.Pattern, re.Pattern], re.Pattern | None]:
    """(prefix, suffix) patterns of data/titles.toml, and book.toml's title_junk cut anywhere."""
    data = tomllib.loads(resources.files("bookbuilder").joinpath("data/titles.toml").read_text("utf-8"))
    prefixes = [expand(p["regex"]) for p in data["pattern"] if p["kind"] == "prefix"]
    suffixes = [expand(p["regex"]) for p in data["pattern"] if p["kind"] == "suffix"]
    anywhere = "|".join(f"(?:{rx})" for rx in extra)
    return (
        re.compile("|".join(f"(?:{rx})" for rx in prefixes)),
        re.compile("|".join(f"(?:{rx})" for rx in suffixes)),
    ), (re.compile(anywhere) if anywhere else None)


# A heading's label: 第一章, 第 3 回, 楔子, 后记 (a title never opens with one given twice)
_LABEL = re.compile(
    rf"^(?:第\s*{NUMERAL_RUN}\s*{CHAPTER_UNIT}|{matter_pattern(FRONT_MATTER + BACK_MATTER)})$"
)


def label_once(title: str) -> str:
    """A site's label, then the title that opens with it again (水浒传 from 书香屋: 楔子 楔子 张天师祈禳瘟疫;
    第一章 第一章 风起): the label once. A spaced title, one space between its parts."""
    label, _, rest = title.partition(" ")
    if not rest.startswith(label) or rest[len(label) : len(label) + 1] not in ("", " "):
        return title
    return rest if _LABEL.match(label) else title


_URL_TITLE = re.compile(
    rf"^第\s*{NUMERAL_RUN}\s*{CHAPTER_UNIT}[\s:：]+(?i:https?://)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?:/\S*)?$"
)


def heading_core(line: str, extra: tuple[str, ...] = ()) -> str:
    """The line without what sites put around a heading (data/titles.toml, book.toml's title_junk)."""
    (prefix, suffix), more = _debris(extra)
    if not line:
        return line
    if (
        more is None
        and line[0] not in DEBRIS_STARTS
        and line[-1] not in DEBRIS_ENDS
        and not MARKUP_SIGNS.intersection(line)
    ):
        return line  # nothing a site puts around a heading starts or ends it (most lines)
    if line[-1].isascii() and _URL_TITLE.match(line):
        # 第21章 www.example.com: the URL is the whole title, unbracketed, with no site word: a story's
        return line
    if MARKUP_SIGNS.intersection(line):
        line = without_markup(line)
    if more is not None:
        line = more.sub("", line)
    for _ in range(3):
        cut = suffix.sub("", prefix.sub("", line, count=1), count=1).strip()
        if cut == line:
            break
        line = cut
    return line


MARKUP_SIGNS = frozenset("<>&＜＞")
_FULLWIDTH_ANGLES = str.maketrans("＜＞", "<>")


def without_markup(line: str) -> str:
    """A heading line without a scraper's markup, as normalize/clean.py's strip_html takes it out of a
    paragraph (the same tag names: 1<2 and <不是标签> stay): 第一章 <div> → 第一章, and the forms a
    paragraph rarely shows but a heading line of an HTML page saved as text does: markup escaped
    once more (第一章 &lt;div&gt;), and written with full-width angles (第一章 ＜div＞), which count only
    where they hold a tag."""
    from bookbuilder.normalize.clean import strip_html  # here: normalize imports this module

    line = (
        _TAG.sub("", line) if "<" in line else line
    )  # a tag with a long style="…" strip_html's limit misses
    for _ in range(2):  # &lt;div&gt; is <div> once its entities are read, then a tag like any other
        cleaned = strip_html(line)
        if cleaned == line:
            break
        line = cleaned
    if "＜" in line and (plain := strip_html(line.translate(_FULLWIDTH_ANGLES))) != line.translate(
        _FULLWIDTH_ANGLES
    ):
        line = plain
    return line


LATIN = re.compile(f"[{LATIN_LETTERS}]")  # a URL needs letters: most lines have none and are not looked at
_CLAUSE_MARKS = "，,、；;：: \u3000【[〖（("


def without_advert(line: str, offset: int = 0) -> str:
    """The heading line before a site's advert glued to it: 第19章 论玉魄【http://…】某58百度云
    搜索资源，搜小说… → 第19章 论玉魄; 第83章 救百度云搜索,搜小说就是方便  http://… → 第83章 救. In the title
    (the line after its 第N章 label), the advert is the URL that normalize's url_adverts would cut in a
    paragraph, or a URL after clauses with site words (请记住本站网址：www…); with what follows it when
    that is site words, and the clauses right before it that hold site words (clean.SITE_WORDS,
    NOTICE_WORDS), from the first such word on. A URL that is the title (第21章 www.example.com, a
    story's), a title with a site word and no URL (第5章 下载), and a line whose words after the URL are
    no site's are no advert. `offset`: where the title starts, after its 第N章 label."""
    if not LATIN.search(line):
        return line
    from bookbuilder.normalize.clean import (
        NOTICE_WORDS,
        SITE_WORDS,
        find_urls,
        url_adverts,
    )  # here: normalize imports this module

    label, title = line[:offset], line[offset:]
    spans, urls = url_adverts(title), find_urls(title)
    if not urls:
        return line
    start, end = urls[0][0], max(span[1] for span in spans + urls)  # (url_adverts may say why, third)
    # a bracket around the URL goes from its opening; a notice's sentence only as far as its site words
    # (below)
    start = min([start] + [span[0] for span in spans if title[span[0]] in OPENING_BRACKETS])
    tail = title[end:].strip(" \u3000")
    if tail and not (SITE_WORDS.search(tail) or NOTICE_WORDS.search(tail)):
        return line  # a story's words after the URL: not the site's
    if not title[:start].strip(" \u3000") and not tail:
        return line  # 第21章 www.example.com: the URL is the whole title
    head, words = title[:start], False
    while True:
        head = head.rstrip(_CLAUSE_MARKS)
        k = max(head.rfind(c) for c in _CLAUSE_MARKS)
        clause = head[k + 1 :]
        found = [m.start() for m in (SITE_WORDS.search(clause), NOTICE_WORDS.search(clause)) if m]
        if not found:
            break
        head, words = head[: k + 1 + min(found)], True
        if min(found) > 0 or k == -1:
            break  # 救百度云搜索: the title's own words stand before the slogan
    if not (spans or words or tail):
        return line  # a URL alone after the title, no site word beside it: the story's
    return (label + head.rstrip(_CLAUSE_MARKS)).rstrip() or line
