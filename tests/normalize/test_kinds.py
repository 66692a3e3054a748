"""Debris of kinds no list held (issue 41), each a judge or a data row told by its class, with
a table of rows just inside and just outside each threshold, and the prose beside each that stays:
an app's advert, a collector's credit, a saved page's navigation, copyright line, end marker and
title, a crawler's leftovers, a slogan whose URL was cut, a site's name glued after a note. The
shapes come from real downloads; 某某 and example stand for a site."""

import pytest

from bookbuilder.model import Location, Paragraph
from bookbuilder.normalize import debris, repeats
from bookbuilder.normalize.lines import SITE_TAIL, site_tail, unwrap
from bookbuilder.pipeline import load_book
from tests.normalize.test_clean import clean


@pytest.mark.parametrize(
    "text, sign",
    [
        ("“你下个App就能听书了。”她说。", "dialogue"),
        ("片刻之后，她记下了那个地址，转身出了门。", "a person"),
        ("片刻之后，记下了那个网址，船夫转身出了门。", "a sentence"),  # ten Han characters and more, one 。
        ("雨停了，船夫转身出了门。", "a sentence"),  # 10: just inside
        ("雨停了，船夫出了门。", ""),  # 9: just outside
        ("如果发现未完，船夫会循环更新!!", ""),  # shouted, half-width: a notice's
        ("本站所有小说均由网友上传，如有侵权请来信告知。", ""),  # site talk
        ("本章未完，请点击下一页继续阅读", ""),
    ],
)
def test_story_signs(text, sign):
    assert debris.story_signs(text) == sign


# A story's line between two paging notices: the block rule takes the notices, never the line.
@pytest.mark.parametrize(
    "middle",
    [
        "片刻之后，她记下了那个地址，转身出了门。",
        "片刻之后，她记下了那个网址，转身出了门。",
        "片刻之后，记下了那个网址，船夫转身出了门。",
        "“记住这个地址。”老人说。",
    ],
)
def test_a_story_line_between_paging_notices_stays(middle):
    notice = "本章未完，请点击下一页继续阅读"
    assert clean("他走了。", notice, middle, notice, "她来了。") == ["他走了。", middle, "她来了。"]


def test_a_site_line_between_paging_notices_still_goes():
    notice = "本章未完，请点击下一页继续阅读"
    assert clean("他走了。", notice, "记住这个网址", notice, "她来了。") == ["他走了。", "她来了。"]


@pytest.mark.parametrize(
    "line, taken",
    [
        ("某某App，听书声音最全，离线朗读", True),
        ("下载某某阅读器，免费看全本小说", True),
        (
            "某某APP，" + ("听书" * 30)[: debris.APP_LINE - 11] + "，离线阅读",
            True,
        ),  # 60 characters: just inside
        ("某某APP，" + ("听书" * 30)[: debris.APP_LINE - 10] + "，离线阅读", False),  # 61: just outside
        (
            "某某APP，听书" + "更" * 9,
            True,
        ),  # 4 of 13 Han in app words (the Latin name counts two): 0.31, just inside
        ("某某APP，听书" + "更" * 10, False),  # 4 of 14: 0.29, just outside
        ("“你下个App就能听书了。”她说。", False),
        ("这个App很好用。", False),  # one app word, nothing of a site's
        ("happy new year，小说", False),  # app inside a word
        ("他打开客户端，下载了最新的游戏。", False),
        (
            "之后张恒把程诚手机里的app全删完了，下了张鬼娃新娘的高清壁纸做新桌面",
            False,
        ),  # a story's: app words are few in it
        ("上午停电，跑出去在网吧更新的……app2();", False),  # a crawler's call, not an app
        ("作者有话要说：某某App，听书声音最全", False),  # the author's own words
        ("某某APP，听书最全", True),  # the Latin name counts two of the share
    ],
)
def test_app_adverts(line, taken):
    assert bool(debris.app_advert(line)) is taken


@pytest.mark.parametrize(
    "line, taken",
    [
        ("某某书库收集整理", True),
        ("本书由某某整理", True),
        ("【某某小说网】整理制作", True),
        ("某某中文" + "书" * 18 + "网整理制作", True),  # 30 characters (the name itself too long): see below
        ("这本书由他亲自整理过", False),
        ("她把书架整理了", False),
        ("图书馆整理", False),  # a name, but no site's
        ("渔网整理", False),  # 网 ends it, but two characters are no site's name
    ],
)
def test_collectors_credits(line, taken):
    expected = taken and len(line) <= debris.CREDIT_LINE and line != "某某中文" + "书" * 18 + "网整理制作"
    assert bool(debris.collector_credit(line)) is expected


@pytest.mark.parametrize(
    "line, taken",
    [
        ("Copyright © 2008-2015 某某 All Rights Reserved", True),
        ("© 2015 example.com", True),
        ("Copyright 某某小说网 All rights reserved", True),
        (
            "Copyright © 2008-2015 " + "某" * (debris.COPYRIGHT_LINE - 27) + " 版权所有",
            True,
        ),  # 100 characters: just inside
        ("Copyright © 2008-2015 " + "某" * (debris.COPYRIGHT_LINE - 26) + " 版权所有", False),  # 101
        ("版权所有", False),  # the disclaimer's words, judged there
        ("Copyright © 1999 by Keigo Higashino", False),  # a print edition's page: the book's own
        ("他在合同上签了名，Copyright归公司。", False),
    ],
)
def test_copyright_lines(line, taken):
    assert bool(debris.copyright_line(line)) is taken


@pytest.mark.parametrize(
    "line, taken",
    [
        ("<-SITEEND->", True),
        ("<!END!>", True),
        ("<==PAGE_END==>", True),
        ("<END>", True),
        ("<全书完>", False),
        ("<b>", False),
        ("<Level>", False),
        ("<< 上一页", False),
        ("<-他->", False),
    ],
)
def test_end_markers(line, taken):
    assert bool(debris.end_marker(line)) is taken


@pytest.mark.parametrize(
    "line, taken",
    [
        ("Array[]", True),
        ("undefined", True),
        ("null", True),
        ("[object Object]", True),
        ("Array", True),
        ("null，他说。", False),
        ("undefined behaviour", False),
        ("NULL指针", False),
    ],
)
def test_crawler_leftovers(line, taken):
    assert bool(debris.crawler_leftover(line)) is taken


@pytest.mark.parametrize(
    "line",
    [
        "回目录 回首页 上一级 下一页",
        "回目录 | 回首页 | 上一级 | 下一页",
        "下一页",
        "[上一章] [下一章]",
        "返回首页 » 返回书页",
        "更多精采，更多好书",
        "更多精彩好书",
        "【更多精采，更多好书】",
    ],
)
def test_navigation_and_footers_go(line):
    assert clean("他走了。", line, "她来了。") == ["他走了。", "她来了。"]


@pytest.mark.parametrize(
    "prose",
    [
        "船夫笑着说：“下一页写的是什么，我可不知道。”",
        "他在纸上写下了“回目录”三个字。",
        "下一页是空白的。",
        "更多精彩的故事还在后面。",
        "上一级台阶",
    ],
)
def test_words_of_navigation_in_prose_stay(prose):
    assert clean("他走了。", prose, "她来了。") == ["他走了。", prose, "她来了。"]


# A line ends its paragraph where a site's words are glued after its last sentence: the next line is
# no rest of its sentence (the repetition then finds the words).
@pytest.mark.parametrize(
    "line, kept_apart",
    [
        ("求月票！某某中文", True),
        ("……”网盘搜索，找小说就是方便", True),
        ("网盘搜索，找小说就是方便", True),
        ("青灯记 - 第一章 渡口 - 某某书苑网", True),
        (
            "他走了。" + "网盘搜索" + "，找" * 9 + "小说",
            True,
        ),  # 24 characters after the sentence: just inside
        ("他走了。" + "网盘搜索" + "，找" * 9 + "小说呀", False),  # 25: just outside
        ("船夫年轻时在城里读过许多本小说", False),  # one site word
        ("她最喜欢的网盘里存着小说", False),  # a person
        ("……。学的是中文", False),  # a phrase, not a name
        ("他走了。渡口", False),
        (
            "大魁大声道：”怕手机访问：wap．example．com",
            False,
        ),  # a URL: cut inside the sentence the next line goes on with
    ],
)
def test_site_tails(line, kept_apart):
    assert bool(site_tail(line)) is kept_apart
    assert SITE_TAIL == 24


@pytest.mark.parametrize(
    "line, joined",
    [
        ("他叹了口气。“走吧。”网盘搜索，找小说就是方便", False),
        ("船夫走了。求月票！某某中文", False),
        ("他叹了口气。“走吧。”船夫站在门口看着远方的", True),  # a sentence broken off: its rest is next
    ],
)
def test_unwrap_keeps_a_site_tail_apart_and_joins_a_broken_sentence(line, joined):
    blocks = (Paragraph(line, Location("f.txt", 1)), Paragraph("他转身出了门。", Location("f.txt", 2)))
    assert [b.text for b in unwrap(blocks)[0]] == (
        [line + "他转身出了门。"] if joined else [line, "他转身出了门。"]
    )


def _book(tmp_path, chapters: int, lines) -> list[list[str]]:
    text = []
    for n in range(1, chapters + 1):
        text += [f"第{n}章 渡口{n}"] + [line.format(n=n) for line in lines] + [""]
    (tmp_path / "书.txt").write_text("\n".join(text), "utf-8")
    return [[b.text for b in c.blocks] for c in load_book(tmp_path / "书.txt", jobs=1).book.chapters()]


@pytest.mark.parametrize(
    "chapters, cut", [(repeats.FRAGMENT_CHAPTERS, True), (repeats.FRAGMENT_CHAPTERS - 1, False)]
)
def test_a_slogan_glued_in_many_chapters_goes_wherever_it_is(tmp_path, chapters, cut):
    after = [
        "船夫转身出了门。",
        "天快黑了。",
        "雨停了。",
        "风起了。",
        "灯灭了。",
    ]  # the story glued on differs
    lines = ["　　“走吧。”网盘搜索，找小说就是方便{after}", "　　他走了。“回去吧。”网盘搜索，找小说就是方便"]
    text = []
    for n in range(1, chapters + 1):
        text += (
            [f"第{n}章 渡口{n}"]
            + [line.format(after=after[n - 1]) for line in lines]
            + ["　　他回来了。", ""]
        )
    (tmp_path / "书.txt").write_text("\n".join(text), "utf-8")
    got = [[b.text for b in c.blocks] for c in load_book(tmp_path / "书.txt", jobs=1).book.chapters()]
    slogan = "" if cut else "网盘搜索，找小说就是方便"
    assert got[0] == [f"“走吧。”{slogan}船夫转身出了门。", f"他走了。“回去吧。”{slogan}", "他回来了。"]


def test_a_phrase_repeated_in_many_chapters_without_site_words_stays(tmp_path):
    lines = [
        "　　“走吧。”天色已晚，城门已闭，船夫第{n}次转身出了门。",
        "　　“走吧。”她说，小说里的人都这么说，船夫第{n}次笑了。",
    ]
    got = _book(tmp_path, 8, lines)
    assert got[0] == [
        "“走吧。”天色已晚，城门已闭，船夫第1次转身出了门。",
        "“走吧。”她说，小说里的人都这么说，船夫第1次笑了。",
    ]


@pytest.mark.parametrize("chapters, cut", [(repeats.MIN_CHAPTERS, True), (repeats.MIN_CHAPTERS - 1, False)])
def test_a_sites_name_glued_after_an_authors_note_goes(tmp_path, chapters, cut):
    # the note in the chapter's middle, where normalize/appeals.py leaves an author's appeal
    story = ["船夫走了。", "天快黑了。", "雨停了。", "风起了。", "灯灭了。", "狗叫了。", "门开了。"]
    got = _book(
        tmp_path,
        chapters,
        [f"　　{t}" for t in story] + ["　　求月票！某某中文"] + [f"　　{t}" for t in story],
    )
    assert got[0] == story + ["求月票！" if cut else "求月票！某某中文"] + story


@pytest.mark.parametrize(
    "text, title",
    [
        ("青灯记 - 第一章 渡口 - 某某书苑", True),
        ("青灯记_第一章 渡口_某某书苑", True),
        ("第一章 渡口 | 青灯记", True),
        ("青灯记 第一章 渡口", False),  # no separator: structure's book name before a heading
        ("第一章 渡口", False),  # the title again, nothing of a page's
        ("渡口 - 船夫说，就在这里。", False),  # a sentence
        ("她回到渡口 - 青灯记", False),  # a person
    ],
)
def test_page_titles(text, title):
    assert repeats._page_title(text, ("第一章 渡口", "第一章", "渡口")) is title


def test_a_page_title_repeated_at_chapter_edges_goes_and_one_inside_stays(tmp_path):
    lines = [
        "青灯记 - 第{n}章 渡口{n} - 某某书苑",
        "　　船夫走了。",
        "　　天黑了。",
        "　　雨停了。",
        "　　风起了。",
    ]
    got = _book(tmp_path, repeats.MIN_CHAPTERS, lines)
    assert got[0] == ["船夫走了。", "天黑了。", "雨停了。", "风起了。"]
    inside = [
        "　　船夫走了。",
        "　　天黑了。",
        "　　雨停了。",
        "青灯记 - 第{n}章 渡口{n} - 某某书苑",
        "　　风起了。",
        "　　夜深了。",
        "　　灯灭了。",
    ]
    assert "青灯记 - 第1章 渡口1 - 某某书苑" in _book(tmp_path, repeats.MIN_CHAPTERS, inside)[0]


# A story's URL: a character reads it out, types it or names it; the sentence stays whole. A site's
# line around a URL still goes.
@pytest.mark.parametrize(
    "prose",
    [
        "他打开电脑，输入了学校的网址www.example.edu。",  # a person in the URL's sentence
        "她把网址抄在手心：www.example.edu",  # a label's shape, but a person's
        "“记住，www.example.edu。”",  # inside a quotation
        "他说：“去www.example.edu下载吧。”",
        "“记住这个地址，www.example.edu，别告诉任何人。”她低声说。",
    ],
)
def test_a_story_url_stays(prose):
    assert clean("他走了。", prose, "她来了。") == ["他走了。", prose, "她来了。"]


@pytest.mark.parametrize(
    "line, kept",
    [
        ("网址：www.example.edu", []),
        (
            "“走吧。”手机电子书www.example.com他说。",
            ["“走吧。”他说。"],
        ),  # a quotation closed before the URL is another's
        # a site's name glued to its domain: a stamp, in dialogue or in a sentence with a person
        (
            "“你们一定是觉得，手2机电子书WWW．2009w．COM只要不贪赃，就算是公平了。”",
            ["“你们一定是觉得，只要不贪赃，就算是公平了。”"],
        ),
        ("他便装轻骑，手2机电子书WWW．2009w．COM离开了中军。", ["他便装轻骑，离开了中军。"]),
        (
            "宝钗道：“他就睡倒了，所以致此。ｗwww.26dd.Cn书友整理提供”说着大夫来了。",
            ["宝钗道：“他就睡倒了，所以致此。”说着大夫来了。"],
        ),
    ],
)
def test_a_sites_url_still_goes(line, kept):
    assert clean("他走了。", line, "她来了。") == ["他走了。"] + kept + ["她来了。"]


@pytest.mark.parametrize(
    "raw, kept",
    [
        (
            "罗辑走过去问：“你怎么……”奇網网收集整理“啊，老弟你好。”",
            "罗辑走过去问：“你怎么……”“啊，老弟你好。”",
        ),
        ("宣传他虹化成佛三網网收集整理，是最佳的解释。", "宣传他虹化成佛，是最佳的解释。"),
        ("他把渔网收集整理好了。", "他把渔网收集整理好了。"),  # one 网: a net, and the story's
    ],
)
def test_a_credit_stamped_into_a_sentence_is_cut(raw, kept):
    assert clean(raw) == [kept]


# A story's sentence with an app's slogan glued after it: the line is the story's, only the slogan goes
# (by repetition, repeats.py), never the line with it.
@pytest.mark.parametrize(
    "line",
    [
        "镜面中，那两名女巫师继续讨论。网盘资源搜索，网盘搜索神器（小说，电影，电视剧）",
        "那脚步声又响起来了。网盘百度云搜索资源，搜小说，搜电影就是好用。",
    ],
)
def test_an_app_slogan_glued_to_a_sentence_takes_no_line(line):
    assert not debris.app_advert(line)
    assert clean("他走了。", line, "她来了。")[1].startswith(line[:8])


@pytest.mark.parametrize(
    "line",
    [
        # the chapters go on alike into a quote
        '　　船夫走了。亲~本站域名：“166"的简写谐音，很好记哦！天快黑了，第{n}次。',
        "　　船夫走了。请记住某书 最新章节 第{n}章 渡口网址：",  # they part at a number: the template rule's
    ],
)
def test_no_fragment_is_cut_out_of_a_longer_template(tmp_path, line):
    got = _book(tmp_path, repeats.FRAGMENT_CHAPTERS + 1, [line, "　　天快黑了。"])
    assert not any("亲~" not in p and "“166" in p or p.startswith("1章") for c in got for p in c)
    assert all(not p.startswith(("“166", "章")) for c in got for p in c)


@pytest.mark.parametrize("chapters, cut", [(repeats.MIN_CHAPTERS, True), (repeats.MIN_CHAPTERS - 1, False)])
def test_a_collectors_credit_after_each_chapters_last_sentence_goes(tmp_path, chapters, cut):
    got = _book(tmp_path, chapters, ["　　船夫走了，白嘉轩实施起来是迅猛而又果敢的。某某书库扫校"])
    assert got[0] == ["船夫走了，白嘉轩实施起来是迅猛而又果敢的。" + ("" if cut else "某某书库扫校")]
