"""Site debris inside a paragraph: HTML left by scrapers, and adverts cut out of the
sentence they hide in, which stays whole (`他笑道。请记住本书…网址：` → `他笑道。`).

An advert may be disguised (`w w w . 5 1 7 z . c o m`, `ｗｗｗ．ｅｘａｍｐｌｅ．ｃｏｍ`, `点com`): URLs are
looked for in a folded copy of the paragraph (spaces between letters dropped, full-width made
half-width, `。．、点` between letters read as dots), and what is cut is the original text. A URL
alone is never cut, since a character may type one into a browser: it needs a site word beside it
or a bracket around it (corroboration, docs/rules.md §5's "never prose").
"""

from __future__ import annotations

import bisect
import itertools
import os
import re
import unicodedata
from functools import lru_cache

from bookbuilder.normalize.hints import LATIN_LOOKALIKE, Hint
from bookbuilder.normalize.junk import _trie, watermarks
from bookbuilder.normalize.markup import code_leftovers, decode_entities, foreign_tags
from bookbuilder.vocabulary import (
    CLOSING_BRACKETS,
    DIALOGUE_QUOTES,
    FILE_FORMAT,
    HAN_CHAR,
    HAN_COMMON,
    OPENING_BRACKETS,
    PERSONS,
    SENTENCE_ENDED,
    SENTENCE_STOPS,
    SITE_BRACKETS,
    SITE_NAME_ENDINGS,
    any_case,
)

# Tags a scraper leaves (a real HTML element's name, then a space, / or >: 1<2, <不是标签>, a<b，则b>a stay).
# HTML5's too: 99lib's pages wrap their watermark in <figure>, <footer>, <details> (天涯在线书库 downloads).
_TAG_NAMES = (
    "a|abbr|address|article|aside|b|bdi|bdo|big|blockquote|body|br|caption|center|cite|code|dd|del|details|dfn|div|dl|"
    "dt|em|figcaption|figure|font|footer|h[1-6]|head|header|hr|html|i|img|ins|kbd|label|li|main|mark|meta|nav|ol|p|"
    "pre|q|rp|rt|ruby|s|samp|section|small|span|strike|strong|sub|summary|sup|table|tbody|td|th|thead|time|tr|tt|u|"
    "ul|var|wbr"
)
_TAG = re.compile(
    rf"</?(?:{_TAG_NAMES})(?=[\s/>])[^<>]{{0,200}}>|<!--.*?(?:-->|$)|-->"
    r"|<(?:a|img|div|span|font|script)\s[^<>]{0,200}$",
    re.I,
)  # a tag cut off at the line's end: <a href=“https://…" target=”_bla
# A watermark element: a tag pair around a few characters of noise (junk.toml's [watermark] element_text).
_NOISE_TEXT = watermarks()["element_text"]
_WATERMARK = re.compile(rf"<({_TAG_NAMES})\b[^<>]{{0,80}}>{_NOISE_TEXT}</\1>", re.I)
# What is left of a tag the scraper cut in half: bbr>?</abbr>, ></a>, <df</dfn>, 9lib.t>, 7978." >
_SCRIPT = re.compile(r"<(script|style)\b[^>]*>.*?</\1>", re.I)
# A pair whose opening tag was cut in half (bbr>?</abbr>, ></a>, <df</dfn>), and the 99lib watermark.
_BROKEN_PAIR = re.compile(
    rf"(?<![\"'=])(?:<?[a-z]{{0,6}})>{_NOISE_TEXT}</(?:{_TAG_NAMES})>|<[a-z]{{1,6}}</(?:{_TAG_NAMES})>", re.I
)
_NOISE = re.compile(watermarks()["debris"])  # 99lib's stamp, a tag's cut-off end, &1t;/p>


def strip_html(text: str, removed: list[str] | None = None, lost: list[str] | None = None) -> str:
    """HTML-1: a scraper's tags, comments and watermark elements removed (each appended to
    `removed`), entities decoded (&nbsp; → a space). HTML-2 (normalize/markup.py): entities escaped
    twice, misspelt or made up, and tags of names HTML does not have; a glyph's placeholder becomes
    the lost-glyph mark (appended to `lost`). A < or & that is not markup stays as it is."""
    removed = [] if removed is None else removed
    lost = [] if lost is None else lost
    if "<" in text or ">" in text:
        text = _strip_tags(text, removed)
    if "&" in text:
        text = decode_entities(text, removed, lost)
        if "<" in text:  # &lt;/span&gt;: a tag escaped once more than the page's
            text = _strip_tags(text, removed)
    if "<" in text:
        text = foreign_tags(text, removed, lost)
    if ");" in text or "=" in text and ">" in text:
        text = code_leftovers(text, removed)
    return " ".join(text.split()) if "  " in text else text.strip()


def _strip_tags(text: str, removed: list[str]) -> str:
    for rx in (_SCRIPT, _WATERMARK, _BROKEN_PAIR, _TAG, _NOISE):
        removed += [m.group(0) for m in rx.finditer(text)]
        text = rx.sub("", text)
    return text


_DOTS = "。．.、，,：:=？?-_*·点"
_URL = re.compile(
    r"(?:https?://)?(?:(?:www|wap|m)\d?\.)?[a-z0-9][a-z0-9-]{1,40}(?:\.[a-z0-9-]{1,40}){0,3}"
    r"\.(?:com|net|org|edu|gov|info|xyz|top|vip|biz|name|[a-z]{2})(?![a-z])(?:/[a-z0-9_./?=&%#~-]*)?"
    r"|(?:www|wap)\.[a-z0-9-]{3,40}(?:\.[a-z0-9-]{2,40})*"
    # A domain strewn through a sentence, Han among its letters: ｗωｗ奇Ｘｘｘ書com网 (奇书网's stamp, folded
    # to www奇xxx書com网)
    r"|www\.?[^\x00-\x7f，。！？“”：；]{1,4}(?:[a-z0-9]{1,8}[^\x00-\x7f，。！？“”：；]{0,3})?\.?(?:com|net|org|cc)(?![a-z])[网站]?"
)  # a path is ASCII: Http://wWw.example.cc/一个身着薄衫的… is a URL, then the story
_LATIN = re.compile(r"[A-Za-zＡ-Ｚａ-ｚωѡаоеср]")


# Words that make a URL (or a bracketed segment) an advert rather than a story's.
def words_pattern(alternation: str) -> re.Pattern:
    """A regex of literal words (a|b|[Tt]x…, a class stands for its letters) as a trie, one branch
    per first character: Python's regex tries every word at every position otherwise. Where one
    word begins another (小说, 小说站) the shorter is matched."""
    words = set()
    for word in alternation.split("|"):
        parts = re.findall(r"\[([^\]]+)\]|(.)", word)
        words.update(
            "".join(w) for w in itertools.product(*[list(cls) if cls else [ch] for cls, ch in parts])
        )
    return re.compile(_trie(sorted(words)))


SITE_WORDS = words_pattern(
    rf"小说站|小说|电子书|电子文库|书包|书屋|书库|书网|书城|书吧|下载站|下载|阅读|更新|首发|最新|手机|访问|网站|网址|域名|书友|"
    rf"{FILE_FORMAT.lower()}|{FILE_FORMAT}|"
    r"天堂|收藏|文学网|看书|手打|整理|提供|上传|分享|免费|全本|全文|精彩|好书|尽在|请到|请记住|记住|本站|最快|平台|中文网|笔趣阁|读书"
)


def _lookalikes() -> dict[int, str]:
    """Letters that a site writes for Latin ones so that a filter misses its name (ｗωｗ, .сom with a
    Cyrillic с, wàp): full-width forms, Greek and Cyrillic look-alikes, accented Latin. One
    character for one, so that indexes into the folded text are indexes into the original.
    For detection only: the text itself is never changed by this table."""
    table = {o: chr(o - 0xFEE0) for o in range(0xFF01, 0xFF5F)}
    pairs = {
        "w": "ωѡш",
        "a": "αа",
        "o": "οо",
        "e": "еε",
        "c": "сϲ",
        "p": "рρ",
        "x": "хχ",
        "y": "у",
        "v": "ν",
        "t": "тτ",
        "k": "кκ",
        "m": "м",
        "i": "іι",
        "j": "ј",
        "s": "ѕ",
        "d": "ԁ",
        "h": "һ",
        "n": "п",
        "A": "АΑ",
        "B": "ВΒ",
        "C": "С",
        "E": "ЕΕ",
        "H": "НΗ",
        "K": "КΚ",
        "M": "МΜ",
        "O": "ОΟ",
        "P": "РΡ",
        "T": "ТΤ",
        "X": "ХΧ",
    }
    table.update({ord(c): latin for latin, chars in pairs.items() for c in chars})
    for o in range(0xC0, 0x250):  # à á â … → a
        base = unicodedata.normalize("NFKD", chr(o))[:1]
        if base.isascii() and base.isalpha() and base != chr(o):
            table[o] = base
    return table


LOOKALIKES = _lookalikes()


def _half(c: str) -> str:
    return LOOKALIKES.get(ord(c), c)


def _alnum(c: str) -> bool:
    return c.isascii() and c.isalnum()


class _Where:
    """For each index of a folded text, the index in the text it came from: the text's indexes
    less the ones folding dropped (kept sorted: a handful per paragraph)."""

    def __init__(self, dropped: list[int], length: int):
        self.dropped, self.length = dropped, length

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, k: int) -> int:
        k = k + self.length if k < 0 else k
        i = k
        while True:
            j = k + bisect.bisect_right(self.dropped, i)
            if j == i:
                return i
            i = j


_FOLD_DOTS = "".join(sorted({c.translate(LOOKALIKES) for c in _DOTS}))
_SPACE_RUN = re.compile(
    rf"(?<=[A-Za-z0-9{re.escape(_FOLD_DOTS)}])[ \u3000\t]+(?=[A-Za-z0-9{re.escape(_FOLD_DOTS)}])"
)
_DOT_OR_SLASH = re.compile(f"[{re.escape(_FOLD_DOTS)}/]")


def fold(text: str) -> tuple[str, _Where]:
    """The text as a URL matcher should see it, and for each folded character its index in `text`:
    full-width → half-width, look-alikes → Latin, lower case, spaces among letters, digits and dots
    dropped, a dot-like mark between letters read as a dot. The characters are mapped by
    str.translate and the spaces found by one regex, not a loop over characters: fold runs over
    every paragraph of the book (bench/bench_debris.py)."""
    t = text.translate(LOOKALIKES)
    dropped = [
        i for m in _SPACE_RUN.finditer(t) for i in range(m.start(), m.end())
    ]  # w w w . 5 1 7 → www.517
    if dropped:
        gone = set(dropped)
        kept_at = [i for i in range(len(t)) if i not in gone]
        t = "".join(t[i] for i in kept_at)
    lowered = t.lower()
    chars = list(lowered if len(lowered) == len(t) else "".join(c.lower()[:1] or c for c in t))
    deleted: set[int] = set()
    for m in _DOT_OR_SLASH.finditer(t):
        k = m.start()
        c = chars[k]
        previous = next((chars[j] for j in range(k - 1, -1, -1) if j not in deleted), "")
        if c == "/":
            if "".join(chars[j] for j in range(max(0, k - 3), k) if j not in deleted) in ("www", "wap"):
                chars[k] = "."  # www/example.net
        elif previous and _alnum(previous) and k + 1 < len(chars) and _alnum(chars[k + 1]):
            chars[k] = "."
        elif previous == ".":
            deleted.add(k)
    if deleted:
        folded = "".join(c for j, c in enumerate(chars) if j not in deleted)
    else:
        folded = "".join(chars)
    removed = sorted(set(dropped) | {(kept_at[j] if dropped else j) for j in deleted})
    return folded, _Where(removed, len(folded))


def find_urls(text: str) -> list[tuple[int, int]]:
    """Spans of `text` (original indexes) that read as a URL once disguises are folded away."""
    if not _LATIN.search(text):
        return []
    return list(_urls_in(text))


@lru_cache(maxsize=1024)
def _urls_in(text: str) -> tuple[tuple[int, int], ...]:
    """find_urls, kept for the paragraphs in hand: cleaning asks of one paragraph several times."""
    folded, where = fold(text)
    spans = [(where[m.start()], where[m.end() - 1] + 1, m.group(0)) for m in _URL.finditer(folded)]
    # Read as a URL only by taking a hyphen or a comma for a dot (（vfavors-ky）, TO：LK), with no
    # www, scheme or common ending: a word of the text, not a domain.
    return tuple((a, b) for a, b, url in spans if _DOT_LIKE.search(text, a, b) or _PLAIN_URL.search(url))


_DOT_LIKE = re.compile(r"[.．。点丶、]")


_FILLER = re.compile(r"[\W_]|[网的最好是和在请与或]")  # what a site's slogan adds to its words and URL
_OPEN, _CLOSE = OPENING_BRACKETS, CLOSING_BRACKETS
_PUNCT = "，。、；：！？…,.!?;:"


# Words a site's notice is made of and a story's sentence rarely is: counted (distinct) to tell a
# notice around a URL (注：如果你发现本书未完属于连载更新请到… 获取最新更新TXT) from a story's sentence
# that names a website (他在手机上打开www.…，下载了最新的游戏: 手机, 下载, 最新 are not among them).
NOTICE_WORDS = words_pattern(
    rf"本书|本站|书友|小说|{any_case(FILE_FORMAT)}|电子书|最新章节|章节|请记住|连载|网址|域名|请到|请访问|请登[陆录]|首发|整理|收藏本|全本|书库|书城|书屋|"
    r"文学网|书网|中文网|免费阅读|在线阅读|手机阅读|百度搜索|百度云|搜小说|无弹窗|更新最快|最快更新|下载平台|下载地址|备用|老域名|"
    r"请点击|点击这里|继续阅读"
)
_PLAIN_URL = re.compile(r"(?i)https?:|www|\.(?:com|net|org|cn|cc|la|info)\b")
_BRACKET_REST = re.compile(r".{1,12}?[\]】〗）)]")  # a short bracket's content and its closer
_ENDS_IN_SITE_WORD = re.compile(f"(?:{SITE_WORDS.pattern})$")
_LABELS = re.compile(
    r"^(?:[^：:，。！？“”「」]{1,14}[：:]\s*)+$"
)  # 某书txt下载：…某书最新章节：… once the URLs are gone
NOTICE_SHARE = 0.35  # of a paragraph's Han characters, in site words: a notice, not a story's sentence
NOTICE_SENTENCE = 160  # characters around a URL: a notice's sentence is short; a longer run is the story's
# a URL's sentence's rest goes with it when it is this short and this much site words (搜小说，就是好用。)
URL_TAIL, URL_TAIL_SHARE = 60, 0.5
READING_LEAST = 3  # letters of a name's pinyin a label opens with: fewer match by chance


_SITE_OR_NOTICE = re.compile(f"{NOTICE_WORDS.pattern}|{SITE_WORDS.pattern}")


def site_share(text: str) -> float:
    """The share of the Han characters of `text` that are site words (SITE_WORDS, NOTICE_WORDS)."""
    han = len(HAN_CHAR.findall(text))
    if not han:
        return 0.0
    covered = sum(len(HAN_CHAR.findall(m.group(0))) for m in _SITE_OR_NOTICE.finditer(text))
    return covered / han


def notice_words(text: str) -> set[str]:
    return {m.group(0).lower() for m in NOTICE_WORDS.finditer(text)}


def site_talk(text: str) -> bool:
    """Whether `text` (a sentence, a bracket's content) is a site's words, not a story's: two
    different notice words and no dialogue, or a third of it site words."""
    if any(q in text for q in "“”「」"):
        return False
    found = len(notice_words(text))
    return found >= 2 or (found >= 1 and site_share(text) >= NOTICE_SHARE)


# What url_adverts (and normalize/lines.py's boxed banner) needs in a chapter: some character a URL
# needs, letters (or digits) on both sides of a dot-like mark, or www; plain or disguised.
URL_HINT = Hint(
    finds=re.compile(
        r"[A-Za-z0-9Ａ-Ｚａ-ｚ０-９][ 　]*[.．。、点,，:：/=?？_-][ 　]*[A-Za-zＡ-Ｚａ-ｚсо]"
        r"|[wWｗＷωѡ][ 　]*[wWｗＷωѡ][ 　]*[wWｗＷωѡ]"
    ),
    first=LATIN_LOOKALIKE,
)


def url_adverts(text: str) -> list[tuple[int, int, str]]:
    """URL adverts to cut, each (start, end, the evidence): the bracketed segment holding a URL, a
    URL with site words beside it (the stretch since the last sentence mark, when short), the rest
    of its sentence when that is a site's words, a paragraph that is nothing else. A URL alone,
    inside a story's sentence, stays (他在浏览器里输入了example.com)."""
    cuts = []
    urls = find_urls(text)
    if urls and not HAN_CHAR.search(text) and not _PLAIN_URL.search(fold(text)[0]):
        return []  # English prose, not a disguised domain: City of Birth：Harrogate, Yorkshire, UK
    rest = text
    for start, end in reversed(urls):
        rest = rest[:start] + rest[end:]
    rest = rest.strip(" \u3000")
    if (
        urls
        and (not _FILLER.sub("", SITE_WORDS.sub("", rest)) or _LABELS.match(rest))
        and not _STORY.search(rest)
    ):
        return [(0, len(text), "URL and site words are all the paragraph is")]
    for start, end in urls:
        if named := _named_domain(text, start, end):
            cuts.append(named)
            continue
        if notice := _notice_around(text, start, end):
            cuts.append(notice)
            continue
        if HAN_CHAR.search(text, start, end):
            cuts.append((start, end, "domain strewn through the sentence"))
            continue
        if cut := _bracketed_url(text, start, end) or _url_with_site_words(text, start, end):
            cuts.append(cut)
    return cuts


# A URL's bracket: its opening mark at most BRACKET_REACH characters before it; the bracket cut whole
# where it holds at most SHORT_BRACKET characters on either side of the URL, or LONG_BRACKET of a
# site's talk after it (【http://… 某某小说网，最快更新】).
BRACKET_REACH, SHORT_BRACKET, LONG_BRACKET = 60, 40, 80
SITE_WORDS_BEFORE = (
    15  # characters since the last sentence mark before a URL: a label's (手机访问：), not a sentence's
)


def _bracketed_url(text: str, start: int, end: int) -> tuple[int, int, str] | None:
    """The bracket around the URL at start:end, with the rest of its sentence, when it is short."""
    left = max((text.rfind(c, 0, start) for c in _OPEN), default=-1)
    if left == -1 or left < start - BRACKET_REACH or any(c in _CLOSE for c in text[left + 1 : start]):
        return None
    closer = _CLOSE[_OPEN.index(text[left])]
    right = text.find(closer, end)
    inner = text[left + 1 : start] + text[end:right] if right != -1 else ""
    if right != -1 and (
        right - end <= SHORT_BRACKET
        and start - left <= SHORT_BRACKET + 1
        or right - end <= LONG_BRACKET
        and site_talk(inner)
    ):
        return (left, _sentence_rest(text, right + 1), "URL in brackets")
    return None


def _url_with_site_words(text: str, start: int, end: int) -> tuple[int, int, str] | None:
    """The URL at start:end after the paragraph's last sentence, or with site words beside it: with
    the closers and site words right after it (….COM更新最快)."""
    since = (
        max((text.rfind(c, 0, start) for c in _PUNCT + "”」\u3000"), default=-1) + 1
    )  # 　　: a paste's gap
    until = end
    while until < len(text):
        if text[until] in ")）]】〗！! \u3000":
            until += 1
        elif m := SITE_WORDS.match(text, until):
            until = m.end()
        elif (
            text[until] in SITE_BRACKETS[0]
            and (m := _BRACKET_REST.match(text, until + 1))
            and SITE_WORDS.search(m.group(0))
        ):
            until = m.end()  # exampleshu.cc [某某小说]: the site's name in brackets after its domain
        else:
            break
    before, after = re.sub(r"[ \u3000]+", "", text[since:start]), text[end:until]
    beside = re.sub(r"[\W_]+$", "", before)  # 手机访问：wàp…, 手2机电子书WWW…; not 他在手机上打开www…
    if text[:start].rstrip(" \u3000").endswith(SENTENCE_ENDED) and not text[until:].strip(" \u3000"):
        return (start, len(text), "URL after the paragraph's last sentence")  # …阴森森。www.example.org
    if (
        start - since <= SITE_WORDS_BEFORE
        and (_ENDS_IN_SITE_WORD.search(beside) or SITE_WORDS.match(after.lstrip(" \u3000)）]】〗[【")))
        and not _story_url(text, start, beside)
    ):
        return (since, _sentence_rest(text, until), "URL with site words beside it")
    return None


_STORY = re.compile(f"[{PERSONS}{DIALOGUE_QUOTES}]")  # a person, or dialogue


def _story_url(text: str, start: int, beside: str) -> bool:
    """A story's URL: words of a clause before it, and a person in its sentence (他…输入了学校的网址www…) or
    a quotation around it; never one glued to a site's name or opening a clause
    (…所以致此。www.26dd.cn书友整理提供”: a stamp)."""
    before, sentence = (
        text[:start],
        max(text.rfind(c, 0, start) for c in f"{SENTENCE_STOPS}”」") + 1,
    )  # a closed quotation is another's
    quoted = before.count("“") > before.count("”") or before.count("「") > before.count("」")
    return (
        bool(beside)
        and not beside.endswith(SITE_NAME_ENDINGS)
        and (quoted or bool(_STORY.search(text, sentence, start)))
    )


_BRACKETED = re.compile(f"[{re.escape(_OPEN)}][^{re.escape(_OPEN + _CLOSE)}]{{0,80}}[{re.escape(_CLOSE)}]")


def _notice_around(text: str, start: int, end: int) -> tuple[int, int, str] | None:
    """The sentence (or a paste's piece between 　　 gaps) that holds the URL at start:end, when it is
    a site's notice: its words, the URL and brackets aside, are site talk, a third of them site
    words (注：如果你发现本书未完属于连载更新请到http://… 获取最新更新TXT……). A story's sentences
    around it stay."""
    bounds = f"{SENTENCE_STOPS}\u3000"
    since = max(text.rfind(c, 0, start) for c in bounds) + 1
    until = min((i for i in (text.find(c, end) for c in bounds) if i != -1), default=len(text) - 1) + 1
    while until < len(text) and text[until] in _CLOSE:
        until += 1  # (重要提示：…访问本站。): its bracket goes too
    if until - since > NOTICE_SENTENCE:
        return None
    words = _BRACKETED.sub("", text[since:start] + text[end:until])
    for a, b in reversed(find_urls(words)):
        words = words[:a] + words[b:]
    if site_talk(words) and site_share(words) >= NOTICE_SHARE:
        return since, until, "URL in a notice of site words " + "、".join(sorted(notice_words(words))[:4])
    return None


_HAN_BEFORE = re.compile(rf"([{HAN_COMMON}]{{2,8}})[ \u3000]*[\[【（(［]?[ \u3000.．]*$")


def _named_domain(text: str, start: int, end: int) -> tuple[int, int, str] | None:
    """A site's name glued to its own domain, the name read out as the domain spells it (笔趣岛
    .biqudao.xyz, 铅笔小说 .qbxs.me, 第八区 .dibaquxsw.top), standing outside its sentence: at a
    sentence's start or with the story glued on after it. A story that names a site with its
    domain inside a sentence (他打开了百度baidu.com，…) keeps both."""
    m = _HAN_BEFORE.search(text, max(0, start - 12), start)
    if not m:
        return None
    label = re.sub(r"^(?:https?://)?(?:www|wap|m)?\.?", "", fold(text[start:end])[0].lstrip(". "))
    name = next((m.group(1)[i:] for i in range(len(m.group(1)) - 1) if _spells(m.group(1)[i:], label)), None)
    if not name:
        return None
    since = m.end(1) - len(name)
    after = text[end : end + 1]
    outside = (
        since == 0
        or text[since - 1] in _PUNCT + "”」\u3000 "
        or (after and (HAN_CHAR.match(after) or after in "“”「」"))
    )
    return (
        (since, end, f"the site's name {name} spelled as its domain") if outside else None
    )  # since: the name's first character


def _spells(name: str, label: str) -> bool:
    """Whether a domain's label starts with the name in pinyin, whole or by initials, any reading
    of a character that has several (爪: zhua, zhao)."""
    # One character's readings are all this needs: pypinyin's documented switch leaves its phrase
    # dictionary unread, so the import stays cheap.
    os.environ.setdefault("PYPINYIN_NO_PHRASES", "true")
    from pypinyin import Style, pinyin

    whole = [sorted(set(r)) for r in pinyin(name, heteronym=True, style=Style.NORMAL)]
    firsts = [sorted({x[:1] for x in r}) for r in whole]
    for readings in (whole, firsts):
        options = [""]
        for choices in readings:
            options = [o + c for o in options for c in choices][:64]
        if any(len(o) >= READING_LEAST and label.startswith(o) for o in options):
            return True
    return False


def _sentence_rest(text: str, at: int) -> int:
    """Where a URL's cut ends: at `at`, or at the end of its sentence when the rest of that
    sentence is a site's words (【http://…】某某百度云搜索资源，搜小说，搜电影就是好用。)."""
    stop = min((i for i in (text.find(c, at) for c in SENTENCE_STOPS) if i != -1), default=len(text) - 1) + 1
    tail = text[at:stop]
    return (
        stop
        if tail.strip() and len(tail) <= URL_TAIL and site_talk(tail) and site_share(tail) >= URL_TAIL_SHARE
        else at
    )


def cut(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` without these spans, its sentences whole: no doubled or orphaned marks at a cut, and
    no bracket that the cut emptied or left without its partner (…心 ...［ once 本章未完…］ went)."""
    for start, end in sorted(set(spans), reverse=True):
        left, right = text[:start].rstrip(" \u3000"), text[end:].lstrip(" \u3000")
        if right[:1] and right[0] in "，。、；：,.;:" and (not left or left[-1] in _PUNCT):
            right = right[1:]
        if left[-1:] and left[-1] in _OPEN and (not right or right[0] == _CLOSE[_OPEN.index(left[-1])]):
            left, right = left[:-1].rstrip(" \u3000"), right[1:]  # [] left by the cut, or [ at the end
        elif right[:1] and right[0] in _CLOSE and not left:
            right = right[1:]
        text = left + right
    return text


WATERMARK_WORDS = re.compile("(?:" + "|".join(map(re.escape, watermarks()["name_words"])) + ")+")


# What site_watermark needs in a chapter (with URL_HINT, what form_debris may look at too): txt.
WATERMARK_HINT = Hint(finds=re.compile(any_case(FILE_FORMAT, full_width=True)), first=LATIN_LOOKALIKE)
WATERMARK_LINE = 40  # characters: a strewn name stands alone, never in a sentence's line


def site_watermark(text: str) -> bool:
    """A site's name strewn between paragraphs with symbols in it
    (小＿说  txt 天+堂, ！小＠说＃txt＄天＾堂＆): nothing but those words once every symbol is gone,
    and `txt` among them."""
    if len(text) > WATERMARK_LINE:
        return False
    folded = re.sub(rf"[^{HAN_COMMON}a-z0-9]", "", "".join(_half(c) for c in text).lower())
    return "txt" in folded and bool(WATERMARK_WORDS.fullmatch(folded))
