"""Lines that are not a story's, told by what they are made of rather than by a site's name
(the evidence: docs/rules-notes.md, "Debris by evidence"): banner art, a notice framed by
symbols, a site's counters, a distributor's disclaimer, and the run of site lines a distributor's
block is. Each judge is a pure function of the line (or of its neighbours) and returns the
evidence that decided it, or "" to keep it.
"""
from __future__ import annotations

import re
import unicodedata

from bookbuilder.normalize.clean import SITE_WORDS, find_urls, notice_words, site_share, site_talk
from bookbuilder.vocabulary import POSTSCRIPTS, SIDE_STORIES, plain

# Box drawing, block elements, geometric shapes, vertical forms (︺), the ASCII art of a banner
# (●▄m●, ┠ ┨, ~︺). A scene break is made of ornaments alone (***, ◇◇◇, ☆★☆) and structure.sections took
# those lines before this sees them; a line here that mixes drawing pieces with letters, or holds
# a block or box piece, is a banner's.
_DRAWING = re.compile(r"[\u2500-\u259f\ufe30-\ufe4f\u2190-\u21ff]")
_ORNAMENT = frozenset("*＊※☆★◆◇○●◎·•~～=＝-－—_…#＃|｜^＾<>〈〉《》[]【】()（）/\\+＋@＠&%$!！?？.。,，:：;；'\"`｀")
ART_LINE = 24  # characters without spaces: a banner's row is short


def banner_art(text: str) -> str:
    """A row of a site's banner drawing: no Han character, short, and either a piece of box or
    block drawing in it, or symbols with a stray letter or two (●▄m●)."""
    core = re.sub(r"\s+", "", text)
    if not core or len(core) > ART_LINE or re.search(r"[\u4e00-\u9fff]", core) or re.search(r"[“”「」『』\"]", core):
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


def site_counters(text: str) -> str:
    found = _COUNTER.findall(text)
    rest = _COUNTER.sub("", text)
    if len(found) >= 2 and len(re.findall(r"[\u4e00-\u9fff]", rest)) <= 12:
        return f"{len(found)} of a site's counters (clicks, reviews, bookmarks)"
    return ""


# A distributor's disclaimer: 【本作品来自互联网,本人不做任何负责】版权归原文作者！, 仅供学习交流…
_DISCLAIMER = re.compile(r"本作品|所有作品|来自互联网|来源于网络|不做任何负责|版权归|版权为|原作者|原文作者|仅供|学习交流|下载后|小时内删除|"
                         r"商业用途|侵权|版权所有|私人收藏")


def disclaimer(text: str) -> str:
    if len(text) > 100 or any(q in text for q in "“”「」"):
        return ""
    found = {m.group(0) for m in _DISCLAIMER.finditer(text)}
    return f"a distributor's disclaimer ({'、'.join(sorted(found)[:3])})" if len(found) >= 2 else ""


# A line of script a scraper kept: $(function(){, var x = …, //切换阅读背景颜色, });
_SCRIPT_LINE = re.compile(r"^\s*(?:\$\(|function\s*\(|var\s+\w+\s*=|document\.|window\.|//|\}\s*\)?\s*;?\s*$)")


def script_line(text: str) -> str:
    return "a line of a page's script" if _SCRIPT_LINE.match(text) and len(text) <= 120 else ""


# Words split by underscores so that a filter misses them (激_情, 饥_渴): a spam line's trick, not a writer's.
_SPLIT_WORD = re.compile(r"[\u4e00-\u9fff]_[\u4e00-\u9fff]")


def split_words_spam(text: str) -> str:
    return "words split by underscores, as spam hides them" if len(_SPLIT_WORD.findall(text)) >= 2 and len(text) <= 100 else ""


NOTICE_LINE = 80  # characters


def site_notice(text: str) -> str:
    """A short line that is a site's notice with no URL left in it (请记住某书最新章节 第47章 某章网址：):
    three different notice words, a third of it site words, no dialogue."""
    if len(text) > NOTICE_LINE or any(q in text for q in "“”「」") or re.search(r"[。！？!?].", text.rstrip("。！？!?：: ")):
        return ""  # one sentence: 他笑道。请记住… keeps its story (the notice is cut by a listed pattern or repetition)
    words = notice_words(text)
    if len(words) >= 3 and site_share(text) >= 0.35 or len(words) >= 2 and len(text) <= 16 and site_share(text) >= 0.6:
        return "notice words " + "、".join(sorted(words)[:4])
    return ""


LINE_JUDGES = (("banner-art", banner_art), ("framed-notice", framed_notice), ("site-notice", site_notice),
               ("site-counters", site_counters), ("disclaimer", disclaimer), ("script-line", script_line),
               ("split-words-spam", split_words_spam))


JUDGES = tuple(name for name, _ in LINE_JUDGES)


def judge_line(text: str, off: frozenset[str] = frozenset()) -> tuple[str, str]:
    """(rule, evidence) of the first judge that takes the line for debris, else ("", "");
    `off`: the judges book.toml switches off."""
    for name, judge in LINE_JUDGES:
        if name not in off and (evidence := judge(text)):
            return name, evidence
    return "", ""


# The author's and the book's own words, which a block of site lines never takes with it.
_OWN_WORDS = re.compile(r"作者有话要说|作者的话|内容简介|内容介绍|文案|简介|全书完|正文完|全文完|大结局|"
                        + "|".join(plain(POSTSCRIPTS[:1]) + SIDE_STORIES[:1]) + r"|求(?:月票|推荐票|收藏|订阅)")  # 后记, 番外
BLOCK_LINE = 100  # characters: a distributor's block is of short lines


def in_debris_block(text: str, removed_near: int, both_sides: bool) -> str:
    """A line of a distributor's block whose other lines went: short, no dialogue, not the
    author's or the book's own words, and site words in it (a notice word, or a third of it site
    words where lines on both sides went)."""
    if len(text) > BLOCK_LINE or any(q in text for q in "“”「」") or _OWN_WORDS.search(text):
        return ""
    if site_talk(text) or (both_sides and (notice_words(text) or SITE_WORDS.search(text)) and site_share(text) >= 0.1):
        return f"site words, in a block of {removed_near} debris lines"
    return ""
