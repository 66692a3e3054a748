"""Cleaning by evidence (issue 31): debris told by what a file shows about itself, on sites that no
list names. A table per kind, each with several made-up sites and URL forms (`example`, 某某 stand
for a site), and the prose beside them that must stay. The shapes come from real downloads."""

import json

import pytest
from click.testing import CliRunner

from bookbuilder.cli import main
from bookbuilder.decode.text import decode_chapter
from bookbuilder.diagnostics import removal_evidence, removal_parts
from bookbuilder.normalize.clean import fold
from bookbuilder.pipeline import load_book
from tests.normalize.test_clean import clean


# A URL's sentence: what stands around the URL goes with it when it is a site's words.
@pytest.mark.parametrize(
    "raw, kept",
    [
        ("他转身走了。【http://www.example58.com】", "他转身走了。"),
        ("他放下了碗。（https://m.foo-books.net/book/12.html）", "他放下了碗。"),
        (
            "他转身走了。(重要提示：如果书友们打不开t x t 8 0. c o m 老域名，可以通过访问t x t 0 2. c o "
            "m备用域名访问本站。)",
            "他转身走了。",
        ),
        (
            "求书网Http://wWw.example.cc/一个身着薄衫的高挑女子提着一盏油灯走了进来。",
            "一个身着薄衫的高挑女子提着一盏油灯走了进来。",
        ),
        (
            "他说完了。注：如果你发现本书未完属于连载更新请到http://www.example.org 获取最新更新TXT.......",
            "他说完了。",
        ),
        ("天色已晚。手机阅读请访问 wap.novel-site.cn", "天色已晚。"),
    ],
)
def test_a_urls_notice_goes_with_it_and_the_story_stays(raw, kept):
    assert clean(raw) == [kept]


@pytest.mark.parametrize(
    "raw",
    [
        "详细信息请查阅：http://www.example.com/book/1.html",
        "某书txt下载：http://www.example.com/1.html某书最新章节：http://www.example.com/2/",
        "八  零 电   子 书  w w w . t x t 0 2. c o m",
        "　　┠ ┨ 某某TXT下载论坛 小说下载尽在http://bbs.example.com",
        "本站网址：www.bar-reader.org",
    ],
)
def test_link_lines_and_notices_go_whole(raw):
    assert clean("他走了。", raw, "她来了。") == ["他走了。", "她来了。"]


# Folding for detection, never in the text: full-width, Greek and Cyrillic look-alikes, letter-spacing.
@pytest.mark.parametrize(
    "raw, folded",
    [
        ("ｗωｗ.example.сom", "www.example.com"),
        ("w w w . t x t 0 2 . c o m", "www.txt02.com"),
        ("wàp．16k．cn", "wap.16k.cn"),
    ],
)
def test_lookalikes_are_folded_for_detection(raw, folded):
    assert fold(raw)[0] == folded


@pytest.mark.parametrize(
    "raw, kept",
    [
        ("他自号乐天下晓ｗωｗ奇Ｘｘｘ書com网，故作诗相讽。", "他自号乐天下晓，故作诗相讽。"),
        ("她回头看了一眼ｗｗｗ某ｘｓ书ｎｅｔ，便走了。", "她回头看了一眼，便走了。"),
    ],
)
def test_a_domain_strewn_through_a_sentence_is_cut_out(raw, kept):
    assert clean(raw) == [kept]
    assert "ｗ" not in clean(raw)[0]


# Lines that are not text: banner art, notices framed by symbols, a site's counters, disclaimers.
@pytest.mark.parametrize(
    "raw",
    [
        "     ●▄m●",
        "       ~︺",
        "╭═══════╮",
        "☆☆☆某书 最新50章正文 开始☆☆☆",
        "★★某某TXT下载★★",
        "非V章节总点击数：1528456　　 总书评数：61580　 当前被收藏数：3000",
        "附：【本作品来自互联网,本人不做任何负责】版权归原文作者！",
        "请记住某书 最新章节 第47章 某章网址：",
    ],
)
def test_lines_that_are_not_text_go(raw):
    assert clean("他走了。", raw, "她来了。") == ["他走了。", "她来了。"]


# A distributor's block: its lines that no rule takes alone go with the ones that were taken.
def test_a_block_of_debris_lines_goes_whole():
    block = [
        "本书由某某社区：http://www.example.com/ 整理并提供下载！",
        "原创文学、热门小说在线阅读及EXE，CHM，TXT等格式电子书下载平台。",
        "某某为每位爱好文字的人提供阅读服务……",
        "注：如果你发现本书未完属于连载更新请到http://www.example.com 获取最新更新",
    ]
    assert clean("他走了。", *block, "她来了。") == ["他走了。", "她来了。"]


@pytest.mark.parametrize(
    "own",
    [
        "作者有话要说：这一章改了三遍，谢谢书友们。",  # (an appeal for votes goes: normalize/appeals.py)
        "内容简介：少年行走天下，为每位朋友提供帮助。",
        "后记：感谢每位书友一路提供的支持。",
    ],
)
def test_a_block_never_takes_the_authors_or_the_books_own_words(own):
    block = [
        "本书由某某社区：http://www.example.com/ 整理并提供下载！",
        own,
        "原创文学、热门小说在线阅读及EXE，CHM，TXT等格式电子书下载平台。",
    ]
    assert own in clean("他走了。", *block, "她来了。")


# The negative rows: prose that looks like debris stays, word for word.
@pytest.mark.parametrize(
    "prose",
    [
        "他在浏览器里输入了example.com，按下回车。",
        "他在手机上打开www.game.com，下载了最新的游戏。",
        "他登录了淘宝网www.taobao.com，买了一件衣服。",
        "“你把那个文件下载下来了吗？”她问。",
        "“下载了，在手机里，最新的版本。”",
        "作者有话要说：今天去了趟医院，明天照常更新！",  # (求月票 goes: tests/normalize/test_appeals.py)
        "内容简介：这是一个少年成长的故事。",
        "力量：15  敏捷：20  体质：18",
        "☆☆☆第二天☆☆☆",
        "本书的作者是我的朋友，他写过很多小说。",
        "他笑了：“我有版权，这本作品是我的原创。”",
        "列车广播响起：本站是终点站，请带好行李。",
    ],
)
def test_prose_that_looks_like_debris_stays(prose):
    assert clean("他走了。", prose, "她来了。") == ["他走了。", prose, "她来了。"]


@pytest.mark.parametrize("line", ["***", "◇◇◇", "☆★☆", "……", "———"])
def test_scene_break_lines_stay_scene_breaks(tmp_path, line):
    (tmp_path / "b.txt").write_text(f"第一章 甲\n他走了。\n{line}\n她来了。\n第二章 乙\n天亮了。\n", "utf-8")
    chapter = next(load_book(tmp_path / "b.txt", jobs=1).book.chapters())
    assert [type(b).__name__ for b in chapter.blocks] == ["Paragraph", "SceneBreak", "Paragraph"]


def test_a_poem_of_short_lines_stays(tmp_path):
    poem = ["床前明月光，", "疑是地上霜。", "举头望明月，", "低头思故乡。"]
    assert clean(*poem) == poem


def _novel(tmp_path, chapter_lines, chapters=40):
    text = []
    for n in range(1, chapters + 1):
        text.append(f"第{n}章 风起第{n}回")
        text += [line.format(n=n) for line in chapter_lines]
    (tmp_path / "novel.txt").write_text("\n".join(text) + "\n", "utf-8")
    return load_book(tmp_path / "novel.txt", jobs=1)


# Repetition plus a site signal: a book's template, whatever the site.
@pytest.mark.parametrize(
    "template",
    [
        "　　他转身走了{n}步。【http://www.example58.com】某58百度云搜索资源，搜小说，搜电影就是好用。",
        "　　他转身走了{n}步。某某云盘搜小说，就上某某搜索网，免费无弹窗。",
        "　　他转身走了{n}步。请记住风起 最新章节 第{n}章 风起第{n}回网址：",
    ],
)
def test_a_template_repeated_in_many_chapters_goes(tmp_path, template):
    loaded = _novel(tmp_path, [template, "　　天色将晚，城门已闭。"])
    for n, chapter in enumerate(loaded.book.chapters(), 1):
        assert [b.text for b in chapter.blocks] == [f"他转身走了{n}步。", "天色将晚，城门已闭。"]
    evidence = {removal_evidence(d) for d in loaded.diagnostics if d.code == "I201"}
    assert any("repeated in 40 chapters" in e or "notice" in e or "brackets" in e for e in evidence)


@pytest.mark.parametrize(
    "stamp, kept",
    [
        (
            "　　在弘治朝也是绝对的霸主。examplehuatang.cc若要落在县一级，那就难了。",
            "在弘治朝也是绝对的霸主。若要落在县一级，那就难了。",
        ),
        (
            "　　一辈子都蜗居在小县城中。exampleshu.cc [某某小说]这在古代并不少见。",
            "一辈子都蜗居在小县城中。这在古代并不少见。",
        ),
        (
            "　　<strong>某某网Http://wWw.foo.cc/</strong>倒不如步步为营，先搞定这个授业师。",
            "倒不如步步为营，先搞定这个授业师。",
        ),
    ],
)
def test_a_domain_stamped_between_sentences_all_through_the_book_goes(tmp_path, stamp, kept):
    loaded = _novel(tmp_path, [stamp])
    assert all([b.text for b in c.blocks] == [kept] for c in loaded.book.chapters())
    rules = {removal_parts(d)[0] for d in loaded.diagnostics if d.code == "I201"}
    assert rules & {"repeated-domain", "url-advert"}


def test_prose_that_repeats_stays(tmp_path):
    """A catchphrase in 40 chapters, a refrain, a website a character keeps typing."""
    lines = [
        "　　“天下第一，舍我其谁！”他照旧大喊。",
        "　　啦啦啦，我是卖报的小行家。",
        "　　他又在浏览器里输入了example.com，等着页面出来。",
        "　　第{n}天，他读完了那本小说的最新章节。",
    ]
    loaded = _novel(tmp_path, lines)
    for n, chapter in enumerate(loaded.book.chapters(), 1):
        assert [b.text for b in chapter.blocks] == [line.strip("　").format(n=n) for line in lines]
    assert not [d for d in loaded.diagnostics if d.code == "I201"]


def test_a_heading_with_an_advert_keeps_its_chapters_text_clean(tmp_path):
    loaded = _novel(tmp_path, ["　　天色将晚。某某百度云搜索资源，搜小说，搜电影就是好用。"], chapters=5)
    assert [b.text for c in loaded.book.chapters() for b in c.blocks] == ["天色将晚。"] * 5


def test_evidence_is_in_the_report_and_a_rule_can_be_switched_off(tmp_path):
    root = tmp_path / "b"
    (root / "source").mkdir(parents=True)
    (root / "source" / "1.txt").write_text("第一章 甲\n他走了。\n     ●▄m●\n她来了。\n", "utf-8")
    (root / "book.toml").write_text('[book]\ntitle = "书"\n', "utf-8")
    runner = CliRunner()
    report = runner.invoke(main, ["normalize", str(root), "--report"]).output
    assert "1.txt:3: banner-art [a line of box and block drawing, no text]: ●▄m●" in report
    data = json.loads(runner.invoke(main, ["check", str(root), "--json"]).output)
    assert [(r["rule"], r["evidence"]) for r in data["removed"]] == [
        ("banner-art", "a line of box and block drawing, no text")
    ]
    (root / "book.toml").write_text(
        '[book]\ntitle = "书"\n[normalize.junk]\ndisable = ["banner-art"]\n', "utf-8"
    )
    assert "nothing was removed" in runner.invoke(main, ["normalize", str(root), "--report"]).output


def test_a_nul_tail_is_left_out_with_a_warning():
    text = ("第一章 甲\n" + "他走了很远的路，" * 200 + "\n").encode("gbk")
    decoded = decode_chapter(text + b"\x00" * 50_000, "novel.txt")
    assert decoded.text.rstrip("\n").endswith("他走了很远的路，")
    (warning,) = [d for d in decoded.diagnostics if d.code == "W110"]
    assert "50,000 NUL bytes" in warning.message and warning.at.path == "novel.txt"


def test_nuls_inside_the_text_stay_an_error():
    from bookbuilder.diagnostics import BookError

    text = ("第一章 甲\n" + "他走了很远的路，" * 2000).encode("gbk")
    with pytest.raises(BookError, match="E101"):
        decode_chapter(text + b"\x00\x00" + text + b"\x00" * 10, "novel.txt")


@pytest.mark.parametrize(
    "prose",
    [
        "City of Birth：Harrogate, Yorkshire, UK",  # English in a novel: no disguised domain
        "“+1。”",  # a chat's reply: no banner
        "月鬼：=(^_^)=",
    ],
)
def test_latin_and_symbol_prose_stays(prose):
    assert clean("他走了。", prose, "她来了。")[1] == prose.replace("“+1。”", "“+1。”")


def test_a_template_glued_after_dialogue_and_a_site_name_after_the_last_sentence_go(tmp_path):
    loaded = _novel(
        tmp_path,
        [
            "　　销售员：“……”请记住风起 最新章节 第{n}章 风起第{n}回网址：",
            "　　他一剑劈出。166阅读网",
            "　　“那肯定要参加的了。更新最快”",
        ],
    )
    for chapter in loaded.book.chapters():
        assert [b.text for b in chapter.blocks] == ["销售员：“……”", "他一剑劈出。", "“那肯定要参加的了。”"]


@pytest.mark.parametrize(
    "prose",
    [
        # dialogue, not a disclaimer
        "王文奇谦虚地摆摆手说：“这只是我个人的看法，仅供参考。我想冒昧地问一句，你怎么写出来的？”",
        "TO：LK",  # a letter's salutation
        "这个词的原文（vfavors-ky）已经不可考了。",  # a hyphen is no dot
    ],
)
def test_words_that_a_list_or_a_url_reader_would_take_stay(prose):
    assert clean("他走了。", prose, "她来了。")[1] == prose


# Debris that shows itself by its form inside a sentence, and what a cut must not leave behind.
@pytest.mark.parametrize(
    "raw, kept",
    [
        ("一九二五年十月二十一日毕｛t｝｛xt｝｛小｝｛说｝｛天｝｛堂｝", "一九二五年十月二十一日毕"),
        ("┖─────────┘疆尸先生", "疆尸先生"),
        ("他一直坐到了天亮。【无弹窗.】天亮之后，他走了。", "他一直坐到了天亮。天亮之后，他走了。"),
        ("她笑了。【全文字阅读.】", "她笑了。"),
        ("第一章 风起更新时间2010-1-8 11:31:01  字数：1207他醒了。", "第一章 风起他醒了。"),
        ("腰干：俗说断止月经。下一章 回目录", "腰干：俗说断止月经。"),
        ('x33小说首发 <a href=“https://www.x33xs.com" target=”_bla', ""),
    ],
)
def test_debris_shown_by_its_form_is_cut_and_leaves_nothing_behind(raw, kept):
    assert clean(raw) == ([kept] if kept else [])


def test_a_cut_leaves_no_bracket_open():
    (kept,) = clean("心中一动 ...   ［本章未完，请点击下一页继续阅读！］")
    assert kept.startswith("心中一动") and "［" not in kept


@pytest.mark.parametrize(
    "raw",
    [
        "$(function(){",
        "//切换阅读背景颜色",
        "});",
        "泰国最胸女主播全新激_情视频曝光 扑倒男主好饥_渴！！请关注 ()!!",
        "Д本站文学作品属某某文学城私人收藏，所有作品版权为原作者所有！",
    ],
)
def test_script_spam_and_disclaimer_lines_go(raw):
    assert clean("他走了。", raw, "她来了。") == ["他走了。", "她来了。"]


@pytest.mark.parametrize(
    "prose",
    [
        "【叮！恭喜宿主获得新手礼包。】",  # a system's message in the story
        "“春沟水动茶花（）”",  # a blank in a couplet
        "他在纸上写下：a_b_c。",
        "【阅读理解】这道题他不会。",
        # a stray // before a story's paragraph
        "//他深吸一口气，然后眺望他的家园。郁郁葱葱的森林向四面八方延伸。",
    ],
)
def test_brackets_and_marks_of_the_story_stay(prose):
    assert clean("他走了。", prose, "她来了。")[1] == prose


@pytest.mark.parametrize(
    "raw, kept",
    [
        ("大；学，生，小，说'网出东华门不远，紧挨着皇城。", "出东华门不远，紧挨着皇城。"),
        (
            "我一向很清楚自己出手的速度。——凤-舞-文-学-网——我练了几年的功夫。",
            "我一向很清楚自己出手的速度。我练了几年的功夫。",
        ),
        ("八月三十日，上海（／t／／xt｜小／／说／//天//堂）", "八月三十日，上海"),
        ("“陛下，笔趣岛 .biqudao.xyz有前线的信件。”", "“陛下，有前线的信件。”"),
        ("一群落榜生正铅笔小说 .qbxs.me集结一起。", "一群落榜生正集结一起。"),
    ],
)
def test_a_sites_name_strewn_with_marks_or_spelled_as_its_domain_is_cut(raw, kept):
    assert clean(raw) == [kept]


@pytest.mark.parametrize(
    "prose",
    [
        "好，好，好，好！他说。",
        "“啊。”“嗯。”“哦。”",
        "他打开了百度baidu.com，搜索那个名字。",
        "一、二、三、四，他数着。",
    ],
)
def test_characters_set_apart_by_marks_and_a_site_named_in_a_sentence_stay(prose):
    assert clean(prose) == [prose]


def test_repeated_glued_phrases_and_a_sites_words_alone_go(tmp_path):
    loaded = _novel(
        tmp_path,
        [
            "　　他愣了愣。更新最快其他人都走了。",
            "　　书包网想看书来书包网",
            "　　请记住风起 最新章节 第{n}章 另一个名字网址：",
        ],
    )
    for chapter in loaded.book.chapters():
        assert [b.text for b in chapter.blocks] == ["他愣了愣。其他人都走了。"]


@pytest.mark.parametrize("prose", ["【关于这本小说：】", "他写下(??)(??)(??)几个符号。"])
def test_a_bracketed_title_and_unknown_marks_stay(prose):
    assert clean("他走了。", prose, "她来了。")[1] == prose


def test_a_download_header_leaves_the_blurb_and_description_clean(tmp_path):
    """A download's header (the shape of 爪机书屋's, with a made-up site): link line, disclaimer, A:/B:
    banners, a framed 最新50章 marker. The blurb page and dc:description keep the blurb alone (issue 33)."""
    from pathlib import Path

    src = Path(__file__).resolve().parent.parent / "fixtures" / "debris" / "download_header.txt"
    (tmp_path / "某书.txt").write_bytes(src.read_bytes())
    loaded = load_book(tmp_path / "某书.txt", jobs=1)
    blurb = "他是如何一步一步走向巅峰，凭一己之力，扬名修真界，请看某人作品《某书》"
    assert loaded.book.meta.description == blurb
    chapters = list(loaded.book.chapters())
    assert [b.text for b in chapters[0].blocks] == [blurb]
    assert [c.title for c in chapters[1:]] == ["第一章 风起", "第二章 云涌"]
    assert not any("example" in b.text or "www" in b.text for c in chapters for b in c.blocks)


def test_a_name_strewn_with_straight_quotes_and_commas_is_cut():
    assert clean('生,小,说,",网这场豪雨下了差不多大半个时辰。') == ["这场豪雨下了差不多大半个时辰。"]


def test_a_strewn_advert_takes_no_story_character_with_it():
    """Each of its characters after the same mark ("手"机"电"子"书), then a domain strewn with apostrophes."""
    raw = "贵属们护卫\"手\"机\"电\"子\"书-Ｊ'ａ'r't'x't'．ｃ'o'm”，脚程快。"
    assert clean(raw) == ["贵属们护卫”，脚程快。"]


def test_a_bracketed_strewn_name_takes_no_story_character_before_its_bracket():
    """半夜[某·书·网]才停: the bracket opens the name, so 夜 is the story's (once cut with it: 半]才停)."""
    from bookbuilder.normalize.forms import form_debris

    for raw in ["半夜[某·书·网]才停", "夜【大·学·生·小·说·网】才"]:
        spans = form_debris(raw)
        assert spans and all("夜" not in raw[a:b] and "才" not in raw[a:b] for a, b, _ in spans)
    strewn = "大；学，生，小，说'网"  # no bracket: the whole of it
    assert [strewn[a:b] for a, b, _ in form_debris(strewn)] == [strewn]


@pytest.mark.parametrize("prose", ["“┅┅”", '他说："I\'m OK."然后走了。'])
def test_dashes_drawn_as_an_ellipsis_or_a_rule_and_english_in_quotes_stay(prose):
    out = clean("他走了。", prose, "她来了。")
    assert len(out) == 3 and out[1].strip('“”"') != ""
