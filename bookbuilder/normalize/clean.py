"""Site debris inside a paragraph (issue 17): HTML left by scrapers, and adverts cut out of the
sentence they hide in, which stays whole (`他笑道。请记住本书…网址：` → `他笑道。`).

An advert may be disguised (`w w w . 5 1 7 z . c o m`, `ｗｗｗ．ｅｘａｍｐｌｅ．ｃｏｍ`, `点com`): URLs are
looked for in a folded copy of the paragraph (spaces between letters dropped, full-width made
half-width, `。．、点` between letters read as dots), and what is cut is the original text. A URL
alone is never cut, since a character may type one into a browser: it needs a site word beside it
or a bracket around it (corroboration, RULES §5's "never prose").
"""
from __future__ import annotations

import html
import re

# Tags a scraper leaves (names of real HTML elements only: 1<2 and <不是标签> stay text).
# HTML5's too: 99lib's pages wrap their watermark in <figure>, <footer>, <details> (天涯在线书库 downloads).
_TAG_NAMES = ("a|abbr|address|article|aside|b|bdi|bdo|big|blockquote|body|br|caption|center|cite|code|dd|del|details|dfn|div|dl|"
              "dt|em|figcaption|figure|font|footer|h[1-6]|head|header|hr|html|i|img|ins|kbd|label|li|main|mark|meta|nav|ol|p|"
              "pre|q|rp|rt|ruby|s|samp|section|small|span|strike|strong|sub|summary|sup|table|tbody|td|th|thead|time|tr|tt|u|"
              "ul|var|wbr")
_TAG = re.compile(rf"</?(?:{_TAG_NAMES})\b[^<>]{{0,200}}>|<!--.*?(?:-->|$)|-->", re.I)
# A watermark element: a tag pair around a few characters of noise (<samp>藏书网</samp>, <big>９9lib?</big>).
_NOISE_TEXT = r"(?:[^<>\u4e00-\u9fff]{0,12}|藏书网|九九藏书网?)"  # what a watermark holds: no story text
_WATERMARK = re.compile(rf"<({_TAG_NAMES})\b[^<>]{{0,80}}>{_NOISE_TEXT}</\1>", re.I)
# What is left of a tag the scraper cut in half: bbr>?</abbr>, ></a>, <df</dfn>, 9lib.t>, 7978." >
_ENTITY = re.compile(r"&(?:[a-zA-Z]{2,8}|#\d{2,7}|#[xX][0-9a-fA-F]{2,6});")
_SCRIPT = re.compile(r"<(script|style)\b[^>]*>.*?</\1>", re.I)
# A pair whose opening tag was cut in half (bbr>?</abbr>, ></a>, <df</dfn>), and the 99lib watermark.
_BROKEN_PAIR = re.compile(rf"(?<![\"'=])(?:<?[a-z]{{0,6}})>{_NOISE_TEXT}</(?:{_TAG_NAMES})>|<[a-z]{{1,6}}</(?:{_TAG_NAMES})>", re.I)
_NOISE = re.compile(r"[.?]{0,2}[9９]{1,2}[lｌ][iｉ][bｂ][.?]{0,2}(?:[a-z]{0,3}>)?|\s?\d{2,}\.\"\s?>"
                    r"|&[1l]t;/?(?:p|br|div)\s*/?>")  # &1t;/p> after every paragraph: a biquge site's </p>, misspelt on purpose


def strip_html(text: str, removed: list[str] | None = None) -> str:
    """HTML-1: a scraper's tags, comments and watermark elements removed (each appended to
    `removed`), entities decoded (&nbsp; → a space). A < or & that is not markup stays as it is."""
    if "<" in text or ">" in text:
        for rx in (_SCRIPT, _WATERMARK, _BROKEN_PAIR, _TAG, _NOISE):
            if removed is not None:
                removed += [m.group(0) for m in rx.finditer(text)]
            text = rx.sub("", text)
    if "&" in text:
        text = _ENTITY.sub(lambda m: html.unescape(m.group(0)), text).replace("\xa0", " ")
    return " ".join(text.split()) if "  " in text else text.strip()


_DOTS = "。．.、，,：:=？?-_*·点"
_URL = re.compile(
    r"(?:https?://)?(?:(?:www|wap|m)\d?\.)?[a-z0-9][a-z0-9-]{1,40}(?:\.[a-z0-9-]{1,40}){0,3}"
    r"\.(?:com|net|org|edu|gov|info|xyz|top|vip|biz|name|[a-z]{2})(?![a-z])(?:/[\w./?=&%#-]*)?"
    r"|(?:www|wap)\.[a-z0-9-]{3,40}(?:\.[a-z0-9-]{2,40})*"
)
_LATIN = re.compile(r"[A-Za-zＡ-Ｚａ-ｚ]")
# Words that make a URL (or a bracketed segment) an advert rather than a story's.
SITE_WORDS = re.compile(
    r"小说站|小说|电子书|电子文库|书包|书屋|书库|书网|书城|书吧|下载站|下载|阅读|更新|首发|最新|手机|访问|网站|网址|域名|书友|txt|TXT|"
    r"天堂|收藏|文学网|看书|手打|整理|提供|上传|分享|免费|全本|全文|精彩|好书|尽在|请到|请记住|记住|本站|最快|平台|中文网|笔趣阁|读书"
)


def _half(c: str) -> str:
    o = ord(c)
    return chr(o - 0xFEE0) if 0xFF01 <= o <= 0xFF5E else c


def _alnum(c: str) -> bool:
    return c.isascii() and c.isalnum()


def fold(text: str) -> tuple[str, list[int]]:
    """The text as a URL matcher should see it, and for each folded character its index in `text`:
    full-width → half-width, lower case, spaces among letters, digits and dots dropped, a dot-like
    mark between letters read as a dot."""
    chars = [(_half(c), i) for i, c in enumerate(text)]
    kept = []
    for k, (c, i) in enumerate(chars):
        if c in " \u3000\t":
            before = next((x for x, _ in reversed(kept)), "")
            after = next((x for x, _ in chars[k + 1:] if x not in " \u3000\t"), "")
            if (_alnum(before) or before in _DOTS) and (_alnum(after) or after in _DOTS) and before and after:
                continue  # w w w . 5 1 7 → www.517
        kept.append((c, i))
    out, where = [], []
    for k, (c, i) in enumerate(kept):
        if c == "/" and out[-3:] in (["w"] * 3, ["w", "a", "p"]):
            c = "."  # www/example.net
        elif c in _DOTS and out and _alnum(out[-1]) and k + 1 < len(kept) and _alnum(kept[k + 1][0]):
            c = "."
        elif c in _DOTS and out and out[-1] == "." :
            continue
        out.append(c.lower())
        where.append(i)
    return "".join(out), where


def find_urls(text: str) -> list[tuple[int, int]]:
    """Spans of `text` (original indexes) that read as a URL once disguises are folded away."""
    if not _LATIN.search(text):
        return []
    folded, where = fold(text)
    return [(where[m.start()], where[m.end() - 1] + 1) for m in _URL.finditer(folded)]


_FILLER = re.compile(r"[\W_]|[网的最好是和在请与或]")  # what a site's slogan adds to its words and URL
_OPEN, _CLOSE = "[【〖（(《<「", "]】〗）)》>」"
_PUNCT = "，。、；：！？…,.!?;:"
_SENTENCE_END = tuple("。！？…!?”」』")


def url_adverts(text: str) -> list[tuple[int, int]]:
    """URL adverts to cut: the bracketed segment holding a URL, or a URL with site words beside it
    (the stretch since the last sentence mark, when short), or a paragraph that is nothing else."""
    cuts = []
    for start, end in find_urls(text):
        left = max((text.rfind(c, 0, start) for c in _OPEN), default=-1)
        if left != -1 and left >= start - 40 and not any(c in _CLOSE for c in text[left + 1:start]):
            closer = _CLOSE[_OPEN.index(text[left])]
            right = text.find(closer, end)
            if right != -1 and right - end <= 40:
                cuts.append((left, right + 1))
                continue
        since = max((text.rfind(c, 0, start) for c in _PUNCT + "”」\u3000"), default=-1) + 1  # 　　: a paste's gap
        until = end  # the closers and site words right after it go with it: ….COM更新最快
        while until < len(text):
            if text[until] in ")）]】〗！! \u3000":
                until += 1
            elif m := SITE_WORDS.match(text, until):
                until = m.end()
            else:
                break
        before, after = text[since:start], text[end:until]
        if not _FILLER.sub("", SITE_WORDS.sub("", text[:start] + text[end:])):
            cuts.append((0, len(text)))  # the URL and site words are all the paragraph is
        elif text[:start].rstrip(" \u3000").endswith(_SENTENCE_END) and not text[until:].strip(" \u3000"):
            cuts.append((start, len(text)))  # …阴森森。www.example.org: a site's stamp after the paragraph's last sentence
        elif start - since <= 15 and (SITE_WORDS.search(before[-8:]) or SITE_WORDS.match(after.lstrip(" \u3000)）]】〗"))):
            cuts.append((since, until))  # a site word right beside it
    return cuts


def cut(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` without these spans, its sentences whole: no doubled or orphaned marks at a cut."""
    for start, end in sorted(set(spans), reverse=True):
        left, right = text[:start].rstrip(" \u3000"), text[end:].lstrip(" \u3000")
        if right[:1] and right[0] in "，。、；：,.;:" and (not left or left[-1] in _PUNCT):
            right = right[1:]
        text = left + right
    return text


_WATERMARK_WORDS = re.compile(r"(?:小|说|txt|天|堂|xiaoshuo|书|包|网|上传|分享|电子书|平台|下载|bookbao8|com|www|net)+")


def site_watermark(text: str) -> bool:
    """A site's name strewn between paragraphs with symbols in it (小＿说  txt 天+堂, ！小＠说＃txt＄天＾堂＆):
    nothing but those words once every symbol is gone, and `txt` among them."""
    if len(text) > 40:
        return False
    folded = re.sub(r"[^\u4e00-\u9fffa-z0-9]", "", "".join(_half(c) for c in text).lower())
    return "txt" in folded and bool(_WATERMARK_WORDS.fullmatch(folded))
