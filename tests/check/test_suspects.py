"""The self-check (bookbuilder.check.suspects): what still looks like a site's debris is flagged,
story is not; a table per signal, and the repetition thresholds just inside and just outside."""

import pytest

from bookbuilder.check import suspects
from bookbuilder.check.suspects import EDGE, REPEAT_CHAPTERS, SHORT_LINE, find, signals, title_signals
from bookbuilder.model import Book, Chapter, Location, Meta, Paragraph, Volume

FLAGGED = [  # (text, the shape it shows first)
    ("请记住本站域名：www.example.com", "url"),
    ("ｗｗｗ．ｅｘａｍｐｌｅ．ｃｏｍ 最快更新", "url"),
    ("他转身就走。某某小说网 www.example.net 更新最快", "url"),
    ("某某App，听书声音最全，离线朗读", "app-advert"),
    ("下载某某APP，免费看书无广告", "app-advert"),
    ("回目录 | 回首页 | 下一页", "navigation"),
    ("上一章 目录 下一章", "navigation"),
    ("Copyright © 2008-2015 某某 All Rights Reserved", "credit"),
    ("本书由某某书库收集整理", "credit"),
    ("<-SITEEND->", "markup"),
    ("他走了&nbsp;过去", "markup"),
    ("Array[]", "markup"),
    ("手机阅读本站，最新章节免费阅读", "site-words"),
    ("“嗯。”百度云搜索，搜小说就是方便他转身走了。", "site-words"),  # a slogan glued after dialogue
    ("红光闪烁，小说读一读最快更新在剧烈的波动中又是一道天雷劈了下来。", "site-words"),
    ("严禁未经本站允许私自转载，违者本站保留追究其法律责任之权利", "site-words"),
    ("崔正才开口说手机访问：wap．example．com", "url"),
    ("From: JinY@kongfu.com（金庸）Date: Fri, 24 May 1996", "url"),
    ("本书由某某书库收集整理", "credit"),
    ("app2();read2();请读者点击下一章继续阅读", "markup"),
]

STORY = [  # lines a reader keeps: a character may name an app, a website, an address
    "片刻之后，她记下了那个地址，转身出了门。",
    "“记住这个地址，明天中午来找我。”他说。",
    "“你下个App就能听书了。”她笑着说。",
    "他在浏览器里输入了www.cassell.edu，页面慢慢打开。",
    "【砰！】",
    "一、春眠不觉晓",
    "1. 先把水烧开。",
    "我打开手机，看了一眼时间。",
    "目录这种东西，他从来不看。",
    "他说这本小说更新得太慢了。",
    "汪淼在浏览器的地址栏中输入那个很容易记住的游戏网址：www.example.net",  # a story's URL, no site talk
    # a countdown, read as a domain only by a country code
    "1186:34:l3、1186:34:02、l186:33:46、ll86:33:35……",
    "Dr.Ma亲自操刀，手术很顺利。",
    "碧瑶原本站在那里笑盈盈地看着他。",  # 本站 inside 原本站在
    "科尔本站到路边，司机即将关门。",
    "老小说道：",  # 老小 said: the word 小说 is not there
    "萧峰失手打了阿朱一掌之后，全副精神都放在她的身上。",  # 手打 in 失手打了
    "她低头点开自己手机里的音乐App，确认歌单还在。",
    "在报上连载的小说，每段约一千字。",
]


@pytest.mark.parametrize("text,shape", FLAGGED)
def test_a_site_line_is_flagged_by_its_shape(text, shape):
    assert signals(text)[:1] == (shape,)


@pytest.mark.parametrize("text", STORY)
def test_a_story_line_is_not_flagged(text):
    assert signals(text) == ()


@pytest.mark.parametrize(
    "title,flagged",
    [
        ("第一章 开始&nbsp;结束", True),
        ("第二章 www.example.com", True),
        ("第三章 手机阅读本站最新章节", True),
        ("第九章 “某某、某某”", False),
        ("第十章 三更", False),
        ("第十一章 新的开始", False),
    ],
)
def test_a_title_with_debris_is_doubtful(title, flagged):
    assert bool(title_signals(title)) is flagged


def book_of(chapters: list[list[str]], description: str = "") -> Book:
    made = []
    for k, texts in enumerate(chapters, 1):
        blocks = tuple(Paragraph(t, Location(f"{k}.txt", i + 2)) for i, t in enumerate(texts))
        made.append(Chapter(f"第{k}章", blocks, Location(f"{k}.txt", 1), k))
    return Book(Meta("书", "某", "zh", "id", description=description), (Volume(None, tuple(made)),))


STORY_PARAGRAPHS = [f"他走了很远很远的路，第{n}次停下来歇脚。" for n in range(8)]


def chapters_ending_with(line: str, n: int, at: int = -1) -> list[list[str]]:
    chapters = []
    for k in range(10):
        texts = list(STORY_PARAGRAPHS)
        if k < n:
            texts.insert(len(texts) + 1 + at if at < 0 else at, line)
        chapters.append(texts)
    return chapters


@pytest.mark.parametrize("times,flagged", [(REPEAT_CHAPTERS - 1, False), (REPEAT_CHAPTERS, True)])
def test_a_line_repeated_at_chapter_edges_is_flagged_from_the_threshold(times, flagged):
    groups = find(book_of(chapters_ending_with("某某小站ABC", times)))
    assert any(g.shape == "repeated-line" and len(g.suspects) == times for g in groups) is flagged


def test_a_repeated_line_inside_the_chapter_is_not_an_edge():
    inside = EDGE  # the (EDGE+1)-th paragraph of a chapter of eight: neither edge
    assert not find(book_of(chapters_ending_with("某某小站ABC", 5, at=inside)))
    assert find(book_of(chapters_ending_with("某某小站ABC", 5, at=inside - 1)))


@pytest.mark.parametrize("length,flagged", [(SHORT_LINE, True), (SHORT_LINE + 1, False)])
def test_only_a_short_repeated_line_is_a_template(length, flagged):
    line = ("某某小站ABC" + "甲" * SHORT_LINE)[:length]
    assert bool(find(book_of(chapters_ending_with(line, 5)))) is flagged


def test_a_repeated_line_without_a_second_sign_is_the_authors():
    assert not find(book_of(chapters_ending_with("求月票！", 10)))


def test_a_site_name_glued_after_a_notes_last_mark_is_flagged_when_it_repeats():
    groups = find(book_of(chapters_ending_with("求月票！某某中文", REPEAT_CHAPTERS)))
    assert [(g.shape, g.key, len(g.suspects)) for g in groups] == [
        ("site-name-tail", "某某中文", REPEAT_CHAPTERS)
    ]
    assert not find(book_of(chapters_ending_with("求月票！某某中文", REPEAT_CHAPTERS - 1)))


def test_suspects_are_grouped_by_template_with_count_and_first_place():
    chapters = [
        list(STORY_PARAGRAPHS) + [f"请记住本站域名：www.{name}.com"]
        for name in ("abc1", "abc22", "abc333", "xyz")
    ]
    groups = find(book_of(chapters))
    assert [len(g.suspects) for g in groups] == [3, 1]  # a template's numbers fold; its names do not
    chapters = [list(STORY_PARAGRAPHS) + ["某某App，听书声音最全，离线朗读"] for _ in range(6)]
    (group,) = find(book_of(chapters))
    assert (group.shape, len(group.suspects), str(group.first.at)) == ("app-advert", 6, "1.txt:10")
    (warning,) = suspects.diagnostics([group])
    assert warning.code == "W203" and "6 times" in warning.message and str(warning.at) == "1.txt:10"


def test_a_kept_template_is_not_flagged():
    chapters = [list(STORY_PARAGRAPHS) + ["某某App，听书声音最全，离线朗读"] for _ in range(3)]
    kept = frozenset({suspects.template_key("某某App，听书声音最全，离线朗读")})
    assert find(book_of(chapters)) and not find(book_of(chapters), kept=kept)


def test_an_empty_form_field_in_the_blurb_is_flagged():
    groups = find(
        book_of(
            [STORY_PARAGRAPHS], description="书名:\n男女主角:\n一个少年的故事。\n作者简介：\n他生于江南。"
        )
    )
    assert [(g.shape, len(g.suspects)) for g in groups] == [("form-header", 2)]
    (warning,) = suspects.diagnostics(groups)
    assert "the blurb" in warning.message and warning.at is None


def test_the_generated_corpus_raw_and_clean_and_the_sample_book_report_no_suspect(tmp_path):
    import subprocess
    import sys

    from bookbuilder.pipeline import load_book
    from tests.conftest import REPO

    out = tmp_path / "corpus"
    subprocess.run(
        [sys.executable, str(REPO / "bench" / "make_corpus.py"), "--out", str(out), "-n", "120", "--clean"],
        check=True,
        capture_output=True,
        timeout=120,
    )
    for book in (
        out,
        out / "clean",
        REPO,
    ):  # the raw chapters (every typographic defect), their clean text, the sample
        loaded = load_book(book, jobs=1)
        assert not loaded.suspects and not [d for d in loaded.diagnostics if d.code in ("W203", "W309")], book
