"""A site's marks strewn inside story lines, and what uploaders, pages and crawlers leave (normalize/
strewn.py, normalize/leftovers.py, junk.toml's navigation rows), each class on both sides: the debris
goes, the story with the same marks, arrows, bars or damage stays whole. The shapes are those of the
dev shelf's downloads; 某某 and example stand for a site, the story lines are made up."""

import pytest

from bookbuilder.normalize import leftovers, strewn
from tests.normalize.test_clean import clean


def names(text: str) -> list[str]:
    return [text[a:b] for a, b, _ in strewn.strewn_names(text)]


@pytest.mark.parametrize(
    "text, gone",
    [
        ("他“哎呀”一声三#書*網收集整理，窜入屋里。", "三#書*網收集整理"),  # mixed marks, traditional script
        ("他拜了一拜。收藏~顶*点*书城书友整~理提~供吴主把手一挥。", "收藏~顶*点*书城书友整~理提~供"),
        (
            "他走了。小说*无广告的~某某*小说~网收藏~某*某*书城当有人来访。",
            "小说*无广告的~某某*小说~网收藏~某*某*书城",
        ),
        ("细者为攀詹，某某~小说~网木轴。", "某某~小说~网"),  # strewn word by word: 某某 is the name's
        ("他们都有需求，＊风＊语＊小＊说＊不可能没人买！", "＊风＊语＊小＊说＊"),  # 不 after the last mark
        ("他走了x小x说xtxxxtx天x堂我们到了。", "x小x说xtxxxtx天x堂"),  # x set before each character
        (
            "达尔文的形成（三*五*网-整*理*提*供），源于一次旅行。",
            "（三*五*网-整*理*提*供）",
        ),  # a hyphen joins
        ("他睡了(某*某*小*说*网】三夜。", "(某*某*小*说*网】"),  # its brackets, half and full width
        (
            "手~打~小~说，手~打~版~，文~字~版~，",
            "手~打~小~说，手~打~版~，文~字~版~，",
        ),  # the line nothing else
    ],
)
def test_a_strewn_name_goes_and_its_sentence_stays(text, gone):
    assert names(text) == [gone]


@pytest.mark.parametrize(
    "text",
    [
        "魔法师低声吟唱：“以~火~之~名~，燃烧吧！”",  # an incantation drawn out
        "他说~好啊",
        "“看~小~说~啊~”她笑道。",  # a voice drawn out: one site word, ~ alone
        "她叫~小~说~家~",
        "他骂了一句：“操*蛋！”",  # a censored word
        "酒里下了蒙*汗*药，麻翻了众人。",
        "他学会了神#人#鬼三式。",  # a skill's name
        "地址就是XX路XX小区XX号。",  # a placeholder
        "张x和李x在一起看小说。",  # a name with x
        "真是天x堂x啊",  # one mark inside the name, the other after it
        "他翻到下一页。",
    ],
)
def test_a_story_line_with_marks_stays(text):
    assert names(text) == []


@pytest.mark.parametrize(
    "lines, kept",
    [
        (["他走了。", "前一頁回目錄", "后一頁", "她来了。"], ["他走了。", "她来了。"]),  # a traditional page
        (["他走了。", "后一页", "前一页", "回目录"], ["他走了。"]),
        (["几张黄色的，最后一张，是蓝色。 后一页"], ["几张黄色的，最后一张，是蓝色。"]),
        (["他走了。下一章"], ["他走了。"]),
        (
            ["他看着她的", "Chapter_2", "孩子们。"],
            ["他看着她的", "孩子们。"],
        ),  # where an uploader split the file
        (
            ["他推开门ｗωｗ奇Qisuu書com走了进去。"],
            ["他推开门走了进去。"],
        ),  # a domain strewn with Han (clean.py)
        (["红包已发放。请读者点击下一章继续阅读。。。。", "他走了。"], ["他走了。"]),
        (["您所在的位置：某某书名＞正文", "他走了。"], ["他走了。"]),
        (["首页|原创书库|现代|言情|武侠|科幻|侦探|论坛", "他走了。"], ["他走了。"]),
        (["我们的目标，依旧是第一！xh:.181.241.250"], ["我们的目标，依旧是第一！"]),
        (["依旧是第一！xh:.181.241.250\u3000\u3000请记住本书首发域名：www.example.com。"], ["依旧是第一！"]),
        (
            ["“分开走，在山顶聚集。【\ufffd邸\ufffd去△小↓\ufffdf△\ufffdWw  qu  】”他说。"],
            ["“分开走，在山顶聚集。”他说。"],
        ),
        (
            [
                "天才壹秒\ufffd\ufffd住『\ufffd邸崛ァ滦\ufffd?\ufffdf→\ufffdW』，\ufffd槟\ufffd提供精彩小\ufffdf\ufffd\ufffd\ufffdx。",
                "他走了。",
            ],
            ["他走了。"],
        ),
        # an empty bracket before the paragraph's first word (what stood in it taken), its spaces too
        (["()\u3000\u3000诗云", "他走了。"], ["诗云", "他走了。"]),
        (["（）\u3000\u3000话说宝玉，今日天晴。"], ["话说宝玉，今日天晴。"]),
        (["【 】\u3000此开卷也。", "()", "\u3000\u3000[]"], ["此开卷也。"]),
    ],
)
def test_page_and_crawler_leftovers_go(lines, kept):
    assert clean(*lines) == kept


@pytest.mark.parametrize(
    "line",
    [
        "他翻到下一页，看见了那行字。",
        "“下一页写的是什么？”",
        "他说：“下一章。”",
        "他说：“你点击下一章继续阅读吧。”",  # dialogue
        "路线：北京→天津→上海",  # a story's route, drawn with →
        "他在纸上写下a>b，又划掉了。",
        "1<2 & 3>2 ]]> 不是标签",  # sums and code: marks no place's name holds
        "实力：张三>李四>王五",
        "甲>乙>丙",
        "生|死|爱",  # a list of three
        "“\ufffd\ufffd里\ufffd\ufffd嗦，还不跟上来！”",  # a story's damaged line: little noise, no site words
        "他终于升级到了新版本v1.2",
        "全书完。2008.5.12",
        "Chapter 2",
        "file_name_here",
        "他在纸上写下（）两个空括号。",  # a blank to fill in, inside a sentence
        "“()”他念道。",
        "（\u3000），烁日蒸（\u3000）。”其中空了两个字。",  # blanks of a riddle, glued to its marks
        "()\u3000\u3000第一空填（），第二空也是。",  # a line holding another: blanks to fill
        "【】此开卷也。",  # glued to the word: not spaced off as a taken note is
        "(1) 第一条",
        "（完）",
    ],
)
def test_a_story_line_like_a_leftover_stays(line):
    assert clean("他走了。", line) == ["他走了。", line]


def test_each_leftover_judge_names_its_evidence():
    assert leftovers.breadcrumb("金庸-->某某书名-->第一回　风月无情")
    assert leftovers.breadcrumb("->《某某书名 大结局》->第二十五集")  # the site's root left out
    assert not leftovers.breadcrumb("金庸-->某某书名>第一回")  # two kinds of arrow, no label
    assert leftovers.menu_bar("首页|书库|现代|言情|武侠|论坛")
    assert [e for _, _, e in leftovers.leftover_spans("（）\u3000诗云")] == [
        "an empty bracket opening the paragraph"
    ]
    assert "U+FFFD" in leftovers.broken_site_line("\ufffd\ufffd\ufffd提供精彩→→→")
