"""Lines that are not a story's, told by what they are made of rather than by a site's name
(the evidence: docs/rules-notes.md, "Debris by evidence"): banner art, a notice framed by
symbols, a site's counters, a distributor's disclaimer, and the run of site lines a distributor's
block is. Each judge is a pure function of the line (or of its neighbours) and returns the
evidence that decided it, or "" to keep it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from bookbuilder.normalize.clean import (
    NOTICE_SHARE,
    NOTICE_WORDS,
    SITE_WORDS,
    find_urls,
    notice_words,
    site_share,
    site_talk,
)
from bookbuilder.normalize.forms import PICTURES, STREWN_MARK
from bookbuilder.normalize.hints import Hint
from bookbuilder.normalize.junk import _trie
from bookbuilder.normalize.leftovers import (
    LOST,
    SPLIT_MARKER_HINT,
    breadcrumb,
    broken_site_line,
    menu_bar,
    split_marker,
)
from bookbuilder.vocabulary import (
    APP_WORDS,
    COPYRIGHT_WORDS,
    CRAWLER_LEFTOVERS,
    CREDIT_VERBS,
    DIALOGUE_QUOTES,
    HAN_CHAR,
    HAN_COMMON,
    PERSONS,
    POSTSCRIPTS,
    SENTENCE_STOPS,
    SIDE_STORIES,
    SITE_NAME_ENDINGS,
    plain,
)

_PERSON = re.compile(f"[{PERSONS}]")
STORY_SENTENCE = 10  # Han characters: a sentence of ordinary length, not a label or a slogan's clause
SENTENCE_SITE_SHARE = 0.2  # of its Han characters in site words: more, and it is a notice's sentence
# One full-width end mark: a notice shouts (更新!!, 删除！！) or trails off (....) where a story's sentence
# ends.
_SENTENCE_END = re.compile(rf"[^{SENTENCE_STOPS}.][。！？]$")
_SENTENCES = re.compile(rf"[^{SENTENCE_STOPS}]+[{SENTENCE_STOPS}]*")


def story_signs(text: str) -> str:
    """What shows a line is the story's (the house rule: such a line is never taken by a rule about
    its neighbours): dialogue quotes, a person (他她我你), or a sentence of ordinary length ending in
    one full-width 。！？ that is no site's talk. "" when it has none."""
    if any(q in text for q in DIALOGUE_QUOTES):
        return "dialogue"
    if _PERSON.search(text):
        return "a person"
    for sentence in _SENTENCES.findall(text):  # anywhere in the line: 镜面中，两名女巫继续讨论。网盘资源搜索…
        if (
            _SENTENCE_END.search(sentence)
            and len(HAN_CHAR.findall(sentence)) >= STORY_SENTENCE
            and not site_talk(sentence)
            and site_share(sentence) < SENTENCE_SITE_SHARE
        ):
            return "a sentence"
    return ""


# App, APP as a word of its own (not inside happy or Apple's other words), and the Han app words.
APP = _APP = re.compile(
    "|".join(rf"(?<![A-Za-z]){w}(?![A-Za-z0-9(])" if w.isascii() else w for w in APP_WORDS)
)  # not app2();
APP_LINE = 60  # characters: an advert's line is short
# of its Han characters (an app's Latin name counting two) in app and site words: an advert's, not a story's
APP_SHARE = 0.3


def app_advert(text: str) -> str:
    """An app's advert line (某某App，听书声音最全，离线朗读; 下载某某阅读器，免费看全本): an app word and
    one more word of an app's or a site's, a third of it such words, short, no sentence before it, and no
    story signs (“你下个App就能听书了。”她说。 and 之后张恒把程诚手机里的app全删完了，… stay)."""
    if (
        len(text) > APP_LINE
        or not _APP.search(text)
        or story_signs(text)
        or _OWN_WORDS.search(text)
        or re.search(rf"[{SENTENCE_STOPS}][^{SENTENCE_STOPS}]", text)
    ):
        return ""  # a finished sentence before it: the advert is glued to the story (repeats.py finds it)
    found = site_signals(text)
    words = [m.group(0) for rx in (_APP, SITE_WORDS, NOTICE_WORDS) for m in rx.finditer(text)]
    share = sum(2 if w.isascii() else len(w) for w in words) / max(2, len(HAN_CHAR.findall(text)))
    return (
        f"an app's advert ({'、'.join(sorted(found)[:3])})" if len(found) >= 2 and share >= APP_SHARE else ""
    )


def site_signals(text: str) -> set[str]:
    """The different site, notice and app words in `text` (网盘, 小说, 搜小说 …): how many there are is one
    signal."""
    return (
        {m.group(0).lower() for m in _APP.finditer(text)}
        | {m.group(0).lower() for m in SITE_WORDS.finditer(text)}
        | notice_words(text)
    )


# 某某书库收集整理, 本书由某某整理, 【某某小说网】整理制作: a name, then what the collector did.
_VERBS = "|".join(sorted(CREDIT_VERBS, key=len, reverse=True))
_ENDINGS = "|".join(sorted(SITE_NAME_ENDINGS, key=len, reverse=True))
_CREDIT = re.compile(
    rf"^(?P<by>本书由|本文由|本书|本文|由)?\s*[【\[（(〖]?\s*(?P<name>[{HAN_COMMON}A-Za-z0-9]{{2,12}}?)\s*[】\]）)〗]?\s*"
    rf"(?:{_VERBS})+[\W_]*$"
)
SITE_NAME_ALONE = re.compile(
    rf"[{HAN_COMMON}A-Za-z0-9]{{1,6}}(?:{_ENDINGS})"
)  # 某某书库, 某某中文, 166阅读网
CREDIT_LINE = 30  # characters
CREDIT_NAME = 3  # characters of a site's name alone: a shorter one is a word of the story


def collector_credit(text: str) -> str:
    """A collector's credit alone on a line: 本书由 and a name, or a site-like name (ending as site
    names end: 书库, 小说网, 中文 …), then only a credit's verb (收集整理, 整理, 制作). No story signs:
    这本书由他亲自整理 and 她把书架整理了 stay."""
    if len(text) > CREDIT_LINE or story_signs(text) or not (m := _CREDIT.match(text.strip())):
        return ""
    if (
        m.group("by") in ("本书由", "本文由")
        or SITE_NAME_ALONE.fullmatch(m.group("name"))
        and len(m.group("name")) >= CREDIT_NAME
    ):
        return f"a collector's credit ({m.group('name')})"
    return ""


_COPYRIGHT = re.compile("|".join(re.escape(w) for w in COPYRIGHT_WORDS))
_YEAR = re.compile(r"(?:19|20)\d\d")
_BY_AUTHOR = re.compile(r"(?i)\bby\s")
COPYRIGHT_LINE = 100  # characters


def copyright_line(text: str) -> str:
    """A page's copyright line (Copyright © 2008-2015 某某 All Rights Reserved): a copyright word
    written as a page writes it, with a year or a second such word; never dialogue or a sentence."""
    if len(text) > COPYRIGHT_LINE or story_signs(text) or _BY_AUTHOR.search(text):
        return ""  # Copyright © 1999 by Keigo Higashino: the print edition's page, the book's own
    found = {m.group(0).lower() for m in _COPYRIGHT.finditer(text)}
    if found - {"版权所有"} and (len(found) >= 2 or _YEAR.search(text)):
        return "a page's copyright line"
    return ""


# <-SITEEND->, <!END!>, <==END==>: a token in angle brackets with marks around it, or in capitals:
# a page's end marker, markup the scraper kept. <全书完> (Han) is the status marker's.
_MARKER = re.compile(
    r"^<[!/\-=_#*~]*(?:[A-Z][A-Z0-9_]{2,30}|[A-Za-z][A-Za-z0-9_]{1,30}(?=[!/\-=_#*~]+>))[!/\-=_#*~]*/?>$"
)


def end_marker(text: str) -> str:
    return "a markup-like end marker" if _MARKER.match(text.strip()) else ""


_LEFTOVERS = frozenset(CRAWLER_LEFTOVERS)


def crawler_leftover(text: str) -> str:
    """Array[], undefined, null alone on a line: what a crawler's script printed for an empty value."""
    return "a crawler's empty value" if text.strip() in _LEFTOVERS else ""


# Box drawing, block elements, geometric shapes, vertical forms (︺), the ASCII art of a banner
# (●▄m●, ┠ ┨, ~︺). A scene break is made of ornaments alone (***, ◇◇◇, ☆★☆) and structure.sections took
# those lines before this sees them; a line here that mixes drawing pieces with letters, or holds
# a block or box piece, is a banner's.
_DRAWING = re.compile(r"[\u2500-\u259f\ufe30-\ufe4f\u2190-\u21ff]")
_ORNAMENT = frozenset(
    "*＊※☆★◆◇○●◎·•~～=＝-－—_…#＃|｜^＾<>〈〉《》[]【】()（）/\\+＋@＠&%$!！?？.。,，:：;；'\"`｀"
)
ART_LINE = 24  # characters without spaces: a banner's row is short


def banner_art(text: str) -> str:
    """A row of a site's banner drawing: no Han character, short, and either a piece of box or
    block drawing in it, or symbols with a stray letter or two (●▄m●)."""
    core = re.sub(r"\s+", "", text)
    if not core or len(core) > ART_LINE or HAN_CHAR.search(core) or re.search(r"[“”「」『』\"]", core):
        return ""  # “┅┅”: a crowd's wordless reply, ┅ typed for an ellipsis (诛仙)
    if not core.strip("─━┄┅┈┉╌╍—…·.。"):
        return ""  # a rule of dashes alone is a scene break's, or an ellipsis
    if _DRAWING.search(core):
        return "a line of box and block drawing, no text"
    # ●▄m●: pictures (So), a letter or two; not mojibake (±¨???ú), not a chat's “+1。”
    pictures = sum(unicodedata.category(c) == "So" for c in core)
    letters = sum(c.isalnum() for c in core)
    if pictures >= 2 and 0 < letters <= 2 and pictures + letters == len(core):
        return "a line of symbols with a stray letter, no text"
    return ""


# ☆☆☆某书 最新50章正文 开始☆☆☆, ★★某某TXT下载★★: symbols on both sides of a few site words.
_FRAMED = re.compile(r"^\s*([^\w\s]{2,})\s*(.{1,40}?)\s*([^\w\s]{2,})\s*$")


def framed_notice(text: str) -> str:
    m = _FRAMED.match(text)
    if not m or not any(c in _ORNAMENT or unicodedata.category(c) == "So" for c in m.group(1) + m.group(3)):
        return ""
    inner = m.group(2)
    if find_urls(inner) or notice_words(inner) or re.search(r"最新\d+章|正文\s*开始|正文\s*结束", inner):
        return "site words framed by symbols"
    return ""


# A site's counters: 非V章节总点击数：1528456　总书评数：61580　当前被收藏数：… Labels of what a
# site counts of a book, each with a number; a game's status panel (力量：15 敏捷：20) counts other things.
_COUNTER = re.compile(r"(?:点击|书评|收藏|推荐|字数|月票|评论|打赏|订阅|人气)[数量]?\s*[：:]\s*\d[\d,，.万]*")


COUNTER_REST = 12  # Han characters beside the counters, at most: a label or a title, not a sentence


def site_counters(text: str) -> str:
    found = _COUNTER.findall(text)
    rest = _COUNTER.sub("", text)
    if len(found) >= 2 and len(HAN_CHAR.findall(rest)) <= COUNTER_REST:
        return f"{len(found)} of a site's counters (clicks, reviews, bookmarks)"
    return ""


# A distributor's disclaimer: 【本作品来自互联网,本人不做任何负责】版权归原文作者！, 仅供学习交流…
_DISCLAIMER = re.compile(
    r"本作品|所有作品|来自互联网|来源于网络|不做任何负责|版权归|版权为|原作者|原文作者|仅供|学习交流|下载后|小时内删除|"
    r"商业用途|侵权|版权所有|私人收藏|网友上传|用户上传|来信告知"
)


DISCLAIMER_LINE = 100  # characters: a disclaimer is a line or two of a page, not a paragraph of the story


def disclaimer(text: str) -> str:
    if len(text) > DISCLAIMER_LINE or any(q in text for q in "“”「」"):
        return ""
    found = {m.group(0) for m in _DISCLAIMER.finditer(text)}
    return f"a distributor's disclaimer ({'、'.join(sorted(found)[:3])})" if len(found) >= 2 else ""


# A line of script a scraper kept: $(function(){, var x = …, //切换阅读背景颜色, });
_SCRIPT_LINE = re.compile(
    r"^\s*(?:\$\(|function\s*\(|var\s+\w+\s*=|document\.|window\.|//|\}\s*\)?\s*;?\s*$)"
)


SCRIPT_LINE = 120  # characters: a page's line of script is short; a longer line that opens so is the story's


def script_line(text: str) -> str:
    """A page's script line; a story's paragraph a stray // stands before (//库德兰深吸一口气，然后眺望他的
    家园。…) is the story's: a comment of a script has no story signs."""
    if not _SCRIPT_LINE.match(text) or len(text) > SCRIPT_LINE:
        return ""
    return (
        ""
        if text.lstrip().startswith("//") and story_signs(text.lstrip()[2:])
        else "a line of a page's script"
    )


# Words split by underscores so that a filter misses them (激_情, 饥_渴): a spam line's trick, not a writer's.
_SPLIT_WORD = re.compile(rf"[{HAN_COMMON}]_[{HAN_COMMON}]")


SPAM_LINE = 100  # characters: a spam line is short


def split_words_spam(text: str) -> str:
    return (
        "words split by underscores, as spam hides them"
        if len(_SPLIT_WORD.findall(text)) >= 2 and len(text) <= SPAM_LINE
        else ""
    )


NOTICE_LINE = 80  # characters
# A short line (请记住本站网址) needs only two notice words, where most of it is site words.
SHORT_NOTICE, SHORT_NOTICE_SHARE = 16, 0.6
NOTICE_WORDS_LEAST = 3  # different notice words: a notice, not a sentence that names one


def site_notice(text: str) -> str:
    """A short line that is a site's notice with no URL left in it (请记住某书最新章节 第47章 某章网址：):
    three different notice words, a third of it site words, no dialogue."""
    if (
        len(text) > NOTICE_LINE
        or any(q in text for q in "“”「」")
        or re.search(rf"[{SENTENCE_STOPS}].", text.rstrip(f"{SENTENCE_STOPS}：: "))
    ):
        # one sentence: 他笑道。请记住… keeps its story (the notice is cut by a listed pattern or repetition)
        return ""
    words = notice_words(text)
    if (
        len(words) >= NOTICE_WORDS_LEAST
        and site_share(text) >= NOTICE_SHARE
        or len(words) >= 2
        and len(text) <= SHORT_NOTICE
        and site_share(text) >= SHORT_NOTICE_SHARE
    ):
        return "notice words " + "、".join(sorted(words)[:4])
    return ""


@dataclass(frozen=True)
class LineJudge:
    """A judge of a line (`judge`: text → the evidence that decided it, "" to keep it), with its
    hints: what it needs to find in a line before it can take anything. normalize/lines.py offers a
    line to the judges only where some judge's hint is in it (its prefilter is built from these)."""

    name: str
    judge: Callable[[str], str]
    hints: tuple[Hint, ...]


# What each judge needs: a word of a site's counters, disclaimer or notice; an app or copyright word; a
# credit's verb ending a line; a line that opens with <; a leftover alone on its line; a picture.
_CREDIT_AT_END = Hint(finds=re.compile("(?:" + _trie(sorted(CREDIT_VERBS)) + r")[\W_]*$", re.M))
_OPENS_WITH_ANGLE = Hint(finds=re.compile(r"^[ \t]*<", re.M))
_LEFTOVER_ALONE = Hint(
    finds=re.compile(
        r"^[ \t]*(?:"
        + "|".join(re.escape(w) for w in sorted(CRAWLER_LEFTOVERS, key=len, reverse=True))
        + r")[ \t]*$",
        re.M,
    )
)
# $(function(){, //切换阅读背景颜色, var x = …, });: a line of script (looked for where a rare mark is).
_SCRIPT_START = Hint(
    finds=re.compile(r"^[ \t]*(?:\$\(|//|function\b|var\s|\}\s*\))", re.M), first=STREWN_MARK.first
)

LINE_JUDGES = (
    LineJudge("banner-art", banner_art, (PICTURES,)),
    LineJudge("framed-notice", framed_notice, (PICTURES,)),
    LineJudge("site-notice", site_notice, (Hint(words=("网址", "章节", "本站", "书友", "首发", "请记住")),)),
    LineJudge("site-counters", site_counters, (Hint(words=("点击", "书评", "收藏")),)),
    LineJudge("disclaimer", disclaimer, (Hint(words=("版权", "作品", "仅供", "删除", "负责")),)),
    LineJudge("script-line", script_line, (_SCRIPT_START,)),
    LineJudge("split-words-spam", split_words_spam, (STREWN_MARK,)),
    LineJudge("app-advert", app_advert, (Hint(words=APP_WORDS),)),
    LineJudge("collector-credit", collector_credit, (_CREDIT_AT_END,)),
    LineJudge("copyright-line", copyright_line, (Hint(words=COPYRIGHT_WORDS),)),
    LineJudge("end-marker", end_marker, (_OPENS_WITH_ANGLE,)),
    LineJudge("crawler-leftover", crawler_leftover, (_LEFTOVER_ALONE,)),
    LineJudge("breadcrumb", breadcrumb, (Hint(words=(">", "＞", "»", "›")),)),
    LineJudge("menu-bar", menu_bar, (Hint(words=("|", "｜")),)),
    LineJudge("broken-site-line", broken_site_line, (Hint(words=(LOST,)),)),
    LineJudge("split-marker", split_marker, (SPLIT_MARKER_HINT,)),
)


JUDGES = tuple(j.name for j in LINE_JUDGES)  # as book.toml switches them off


def judge_line(text: str, off: frozenset[str] = frozenset()) -> tuple[str, str]:
    """(rule, evidence) of the first judge that takes the line for debris, else ("", "");
    `off`: the judges book.toml switches off."""
    for judge in LINE_JUDGES:
        if judge.name not in off and (evidence := judge.judge(text)):
            return judge.name, evidence
    return "", ""


# The author's and the book's own words, which a block of site lines never takes with it.
_OWN_WORDS = re.compile(
    r"作者有话要说|作者的话|内容简介|内容介绍|文案|简介|全书完|正文完|全文完|大结局|"
    + "|".join(plain(POSTSCRIPTS[:1]) + SIDE_STORIES[:1])
    + r"|求(?:月票|推荐票|收藏|订阅)"
)  # 后记, 番外
BLOCK_LINE = 100  # characters: a distributor's block is of short lines
BLOCK_SITE_SHARE = 0.1  # of a line in site words, between debris lines: the block's, not the story's


def in_debris_block(text: str, removed_near: int, both_sides: bool) -> str:
    """A line of a distributor's block whose other lines went: short, no dialogue, not the
    author's or the book's own words, and site words in it (a notice word, or a third of it site
    words where lines on both sides went)."""
    if len(text) > BLOCK_LINE or story_signs(text) or _OWN_WORDS.search(text):
        return ""
    if site_talk(text) or (
        both_sides
        and (notice_words(text) or SITE_WORDS.search(text))
        and site_share(text) >= BLOCK_SITE_SHARE
    ):
        return f"site words, in a block of {removed_near} debris lines"
    return ""
