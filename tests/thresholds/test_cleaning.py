"""Thresholds of cleaning (normalize/debris.py, junk.py, clean.py, forms.py): how long a line a judge
takes whole, what share of site words makes a site's talk, how near a URL its bracket or its
sentence is cut, and the names and marks strewn through the story."""

import pytest

from bookbuilder.normalize import clean, debris, forms, junk
from tests.thresholds.rows import Threshold, taken


def _padded(text: str, n: int) -> str:
    """`text` made n characters long by spaces after it (what a judge's length limit counts)."""
    return text + " " * (n - len(text))


def _listed_line_dropped(n: int) -> bool:
    """A line of n characters opening with a strong listed pattern's match (小说快捕), story after it."""
    line = "小说快捕，" + "甲" * (n - 5)
    return junk.clean_line(line, junk.patterns_in(line, junk.active_patterns()))[0] is None


def _story_kept_before(n: int) -> bool:
    """Whether a sentence of n Han characters before a site's words glued after it is kept."""
    line = "甲" * (n - 1) + "乙。请看小说网电子书下载乐园"
    return junk.clean_line(line, junk.patterns_in(line, junk.active_patterns()))[0] is not None


def _listed_url_line_dropped(n: int) -> bool:
    """A line of n characters holding a URL and a strong listed pattern's match: a banner, dropped."""
    line = "小说快捕 www.example.com，" + "甲" * (n - 21)
    return junk.clean_line(line, junk.patterns_in(line, junk.active_patterns()), has_url=True)[0] is None


def _site_talk_at(share: float) -> bool:
    """Whether a run of 200 Han characters with one notice word (本站) and this share of site words
    (手打, no notice word) is a site's talk."""
    k = round(share * 200) // 2 - 1
    return clean.site_talk("本站" + "手打" * k + "天" * (200 - 2 - 2 * k))


def _sentence_at(share: float) -> str:
    """The story's sign a sentence of 100 Han characters gives with this share of site words (小说)."""
    k = round(share * 100) // 2
    return debris.story_signs("小说" * k + "天" * (100 - 2 * k) + "。")


def _app_advert_at(share: float) -> bool:
    """Whether App小说 and Han characters enough for this share of app and site words (小说 a site's
    word and a notice's, counted twice) is an app's advert."""
    return taken(debris.app_advert, "App小说" + "天" * (int(6 / share + 1e-9) - 2))


def _short_notice_at(share: float) -> bool:
    """Whether a short line of two notice words (本站网址本站) and Han characters enough for this share of
    notice words is a site's notice."""
    return taken(debris.site_notice, "本站网址本站" + "天" * (int(6 / share + 1e-9) - 6))


def _bracketed(text: str) -> bool:
    """Whether the bracket rule cuts the bracket round the text's URL (asked alone: the notice rule,
    asked first by url_adverts, takes a bracket of over 80 characters of site talk whole)."""
    start, end = clean.find_urls(text)[0]
    return clean._bracketed_url(text, start, end) is not None


def _quoted_at(n: int) -> bool:
    """Whether a strong pattern's match inside quotes of n characters is taken for dialogue."""
    return junk._quoted("他说“" + "甲" * n + "”", 3)


_URL_REST = "搜小说就上某某小说网"  # the rest of a URL's sentence: half its Han characters site words


def _url_rest_cut(n: int) -> int:
    """Where a URL's cut ends when the rest of its sentence, site words, is n characters long."""
    return clean._sentence_rest(" " * (n - len(_URL_REST) - 1) + _URL_REST + "。", 0)


def _url_rest_share(share: float) -> int:
    """Where a URL's cut ends when this share of its sentence's rest is site words (story's 天 added)."""
    return clean._sentence_rest(_URL_REST + "天" * round(5 / share - 10) + "。", 0)


def _notice_of(n: int) -> bool:
    """Whether a notice's sentence of n characters around a URL (注：如果你发现本书未完…) goes whole."""
    before, url, after = "注：如果你发现本书未完属于连载更新请到", "http://www.abc.com", "获取最新更新TXT。"
    text = " " * (n - len(before + url + after)) + before + url + after
    start = len(text) - len(url + after)
    return clean._notice_around(text, start, start + len(url)) is not None


def _strewn_domain(marks: int) -> bool:
    """Whether www.abcd.com with a mark after each of its first `marks` letters is taken as strewn."""
    letters = iter(range(marks))
    domain = "".join(
        c + ("'" if c.isalpha() and next(letters, None) is not None else "") for c in "www.abcd.com"
    )
    return bool(forms.form_debris("他说" + domain + "好的"))


def _notice_of_words(n: int) -> str:
    """What debris.site_notice makes of a line of n notice words and site words (手机版, 全文字)."""
    return debris.site_notice("".join(["请记住", "最新章节", "免费阅读", "首发"][:n]) + "手机版全文字" * 2)


def _block_line(share: float) -> bool:
    """Whether a line between debris lines, this share of its Han characters site words (手机版 and the
    story's 天), goes with them."""
    return bool(debris.in_debris_block("手机版" + "天" * (round(2 / share) - 3), 3, True))


def _site_bracket(share: float) -> bool:
    """Whether a bracket this share site words (请记住 and the story's 天) is taken as a site's."""
    return bool(forms.form_debris("他说【请记住" + "天" * (round(3 / share) - 3) + "】好的"))


def _strewn_after_story(n: int) -> list[str]:
    """What goes of a strewn run of n Han characters whose first is the story's (护卫"小"说"网: 卫 is
    the story's): a run longer than the least name loses that character; a shorter one is no name."""
    text = '他的护卫"' + '"'.join("大学生小说网"[-(n - 1) :]) + "来了"
    return [text[s:e] for s, e, _ in forms.form_debris(text)]


ROWS = [
    # cleaning: what a line judge takes (normalize/debris.py), by its length
    Threshold(
        "debris.APP_LINE",
        debris.APP_LINE,
        lambda n: taken(debris.app_advert, _padded("下载某某阅读器，免费看全本", n)),
        True,
        False,
    ),
    Threshold(
        "debris.CREDIT_LINE",
        debris.CREDIT_LINE,
        lambda n: taken(debris.collector_credit, _padded("某某书库收集整理", n)),
        True,
        False,
    ),
    Threshold(
        "debris.COPYRIGHT_LINE",
        debris.COPYRIGHT_LINE,
        lambda n: taken(debris.copyright_line, _padded("Copyright © 2008-2015 某某 All Rights Reserved", n)),
        True,
        False,
    ),
    Threshold("debris.ART_LINE", debris.ART_LINE, lambda n: taken(debris.banner_art, "═" * n), True, False),
    Threshold(
        "debris.NOTICE_LINE",
        debris.NOTICE_LINE,
        lambda n: taken(debris.site_notice, _padded("请记住本站网址：某某小说网 最新章节", n)),
        True,
        False,
    ),
    Threshold(
        "debris.BLOCK_LINE",
        debris.BLOCK_LINE,
        lambda n: bool(debris.in_debris_block(_padded("某某小说网 手机阅读", n), 2, True)),
        True,
        False,
    ),
    Threshold(
        "debris.DISCLAIMER_LINE",
        debris.DISCLAIMER_LINE,
        lambda n: taken(debris.disclaimer, _padded("本作品来自互联网，仅供学习交流", n)),
        True,
        False,
    ),
    Threshold(
        "debris.SCRIPT_LINE",
        debris.SCRIPT_LINE,
        lambda n: taken(debris.script_line, _padded("$(function(){", n)),
        True,
        False,
    ),
    Threshold(
        "debris.SPAM_LINE",
        debris.SPAM_LINE,
        lambda n: taken(debris.split_words_spam, _padded("激_情饥_渴", n)),
        True,
        False,
    ),
    Threshold(
        "debris.COUNTER_REST",
        debris.COUNTER_REST,
        lambda n: taken(debris.site_counters, "总点击数：1528456 总书评数：61580 " + "甲" * (n - 2)),
        True,
        False,
    ),
    Threshold(
        "debris.SHORT_NOTICE",
        debris.SHORT_NOTICE,
        lambda n: taken(debris.site_notice, _padded("本站网址", n)),
        True,
        False,
    ),
    Threshold(
        "clean.WATERMARK_LINE",
        clean.WATERMARK_LINE,
        lambda n: clean.site_watermark(_padded("小＿说  txt 天+堂", n)),
        True,
        False,
    ),
    # a strong listed pattern drops a short line whole; a longer one is the story's
    Threshold("junk.LONG_LINE", junk.LONG_LINE, _listed_line_dropped, True, False),
    # a story's sentence before a strong match: this many Han characters, at least, to be kept
    Threshold("junk.STORY_BEFORE", junk.STORY_BEFORE, _story_kept_before, True, False, step=-1),
    Threshold("junk.URL_LINE", junk.URL_LINE, _listed_url_line_dropped, True, False),
    # a URL's bracket is cut whole where it holds this little after the URL
    Threshold(
        "clean.SHORT_BRACKET",
        clean.SHORT_BRACKET,
        lambda n: bool(clean.url_adverts("他转身走了。【www.example58.com " + "甲" * (n - 1) + "】雨停了。")),
        True,
        False,
    ),
    # the story's sign that keeps a line from every neighbour rule: a sentence of ordinary length
    Threshold(
        "debris.STORY_SENTENCE",
        debris.STORY_SENTENCE,
        lambda n: debris.story_signs("天" * n + "。"),
        "a sentence",
        "",
        step=-1,
    ),
    # shares of site words: a sentence with one notice word is a site's talk; a long sentence is the story's
    Threshold("clean.NOTICE_SHARE", clean.NOTICE_SHARE, _site_talk_at, True, False, step=-0.01),
    Threshold(
        "debris.SENTENCE_SITE_SHARE", debris.SENTENCE_SITE_SHARE, _sentence_at, "", "a sentence", step=-0.02
    ),
    # a URL with site words beside it: the words since the last sentence mark are a label's
    Threshold(
        "clean.SITE_WORDS_BEFORE",
        clean.SITE_WORDS_BEFORE,
        lambda n: bool(
            clean.url_adverts("天色已晚，" + "甲" * (n - 5) + "手机访问 www.example.com 雨停了。")
        ),
        True,
        False,
    ),
    # shares of an app's or a site's words in a short line: an advert's, a notice's
    Threshold("debris.APP_SHARE", debris.APP_SHARE, _app_advert_at, True, False, step=-0.02),
    Threshold(
        "debris.SHORT_NOTICE_SHARE", debris.SHORT_NOTICE_SHARE, _short_notice_at, True, False, step=-0.06
    ),
    # a URL's bracket holding a site's talk: opened this near before the URL, closed this near after it
    Threshold(
        "clean.BRACKET_REACH",
        clean.BRACKET_REACH,
        lambda n: _bracketed("他转身走了。【" + ("本站手打" * 20)[: n - 1] + "www.example58.com】雨停了。"),
        True,
        False,
    ),
    Threshold(
        "clean.LONG_BRACKET",
        clean.LONG_BRACKET,
        lambda n: _bracketed("他转身走了。【www.example58.com " + ("本站手打" * 30)[: n - 1] + "】雨停了。"),
        True,
        False,
    ),
    Threshold("junk.QUOTED_NAME", junk.QUOTED_NAME, _quoted_at, False, True),
    Threshold(
        "forms.SITE_NAME_LEAST",
        forms.SITE_NAME_LEAST,
        lambda n: forms._site_name_alone("大学生小说网"[-n:]),
        True,
        False,
        step=-1,
    ),
    Threshold(
        "forms.SITE_NAME_MOST",
        forms.SITE_NAME_MOST,
        lambda n: forms._site_name_alone("甲" * (n - 3) + "小说网"),
        True,
        False,
    ),
    Threshold(
        "debris.CREDIT_NAME",
        debris.CREDIT_NAME,
        lambda n: bool(debris.collector_credit("甲" * (n - 2) + "书库整理")),
        True,
        False,
        step=-1,
    ),
    Threshold(
        "clean.READING_LEAST",
        clean.READING_LEAST,
        lambda n: clean._spells("笔趣岛小说"[:n], "bqdxsxyz"),
        True,
        False,
        step=-1,
    ),
    Threshold("clean.URL_TAIL", clean.URL_TAIL, _url_rest_cut, 60, 0),
    Threshold("clean.URL_TAIL_SHARE", clean.URL_TAIL_SHARE, _url_rest_share, 11, 0, step=-0.05),
    Threshold("clean.NOTICE_SENTENCE", clean.NOTICE_SENTENCE, _notice_of, True, False),
    Threshold("forms.STREWN_MARKS", forms.STREWN_MARKS, _strewn_domain, True, False, step=-1),
    Threshold(
        "debris.NOTICE_WORDS_LEAST",
        debris.NOTICE_WORDS_LEAST,
        _notice_of_words,
        "notice words 免费阅读、最新章节、请记住",
        "",
        step=-1,
    ),
    Threshold("debris.BLOCK_SITE_SHARE", debris.BLOCK_SITE_SHARE, _block_line, True, False, step=-0.01),
    Threshold("forms.BRACKET_SITE_SHARE", forms.BRACKET_SITE_SHARE, _site_bracket, True, False, step=-0.15),
    Threshold("forms.STREWN_NAME", forms.STREWN_NAME, _strewn_after_story, [], ['"小"说"网']),
]


@pytest.mark.parametrize("row", ROWS, ids=[t.constant for t in ROWS])
def test_each_threshold_decides_at_its_value_and_not_one_step_past(row):
    row.check()
