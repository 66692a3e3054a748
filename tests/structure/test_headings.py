"""Heading detection by evidence (issue 16): a table per kind of real-download defect, with
synthetic fixtures of the shapes found in real files, and the negative cases beside them."""

import pytest

from bookbuilder.pipeline import load_book
from bookbuilder.structure.headings import candidate, classify_heading, heading_core
from tests.thresholds.rows import han_number

BODY = "他走进院子，看见一棵老树。\n树下坐着一个老人。\n"


def novel(tmp_path, text: str, name: str = "novel.txt"):
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return load_book(path, jobs=1)


def contents(loaded) -> list[tuple[str | None, str]]:
    return [(v.title, c.title) for v in loaded.book.volumes for c in v.chapters if c.kind != "intro"]


def codes(loaded) -> list[str]:
    return [d.code for d in loaded.diagnostics]


@pytest.mark.parametrize(
    "line, title",
    [
        ("章节目录 第一章 少年", "第一章 少年"),
        ("正文 第九十七章 入城", "第九十七章 入城"),
        ("第001话 初遇", "第001话 初遇"),  # 话: a light novel's unit
        ("第十二话 猫", "第十二话 猫"),
        ("外传 某某", "外传 某某"),
        ("外传之一：六合书·讲武堂", "外传之一：六合书·讲武堂"),
        ("附录一：成吉思汗家族", "附录一：成吉思汗家族"),  # a numbered appendix (射雕英雄传's two)
        ("附录2 名单", "附录2 名单"),
        ("尾声（上）", "尾声（上）"),  # a part's mark right after the word
        ("第23章 标题(二合一)", "第23章 标题"),  # the author's note that it is two chapters in one
        ("第廿一回 甲", "第廿一回 甲"),  # 廿 = 20
        ("尾 声", "尾声"),  # the word typeset with a space (龙族1-3)
        ("后　　记", "后记"),  # spaced out wider (倚天屠龙记 from one site)
        ("后記", "后記"),  # the two scripts in one word (a 神雕俠侶 typed in both)
        ("金庸作品集“三联版”序", "金庸作品集“三联版”序"),  # an edition's preface, named by whose it is
        ("再版后记", "再版后记"),
        ("作者自序", "作者自序"),
        ("序　章 开端", "序章 开端"),
        ("☆、完结感言", "完结感言"),  # the mark before every heading, here before the afterword (全职高手)
        (
            "8、第一次",
            "8 第一次",
        ),  # a title that starts with 第 (大王饶命): the number is the heading's, not an index
        ("正文卷 第3章 夜行", "第3章 夜行"),
        ("第一百二十七章 分宝 example.com", "第一百二十七章 分宝"),  # a bare address after the title
        ("《》目录 第一回　灵根育孕源流出　心性修持大道生", "第一回 灵根育孕源流出 心性修持大道生"),
        ("《血色浪漫》第二章", "第二章"),
        ("第十二章 归来 (www.example.org)", "第十二章 归来"),
        ("第十二章 归来（http://m.example.cc/book/1）", "第十二章 归来"),
        ("第5章 夜雨【4000字大章】", "第5章 夜雨"),
        ("第八章 问心（求月票）", "第八章 问心"),
        ("第二十九章 上书朝廷（三更完毕）", "第二十九章 上书朝廷"),
        ("第六十五章 再生（4）第一更", "第六十五章 再生（4）"),  # the day's update count, unbracketed
        ("第三章 夜行 第二更", "第三章 夜行"),
        ("第十章 夜半三更", "第十章 夜半三更"),  # a title that ends in 三更 (midnight) is kept
        ("第十章 三更", "第十章 三更"),
        ("第十二章 归来 [更多精彩，更多好书，尽在某某网]", "第十二章 归来"),
        ("第一章 开端 (第1/3页)", "第一章 开端"),
        ("标题 <<旧雨楼·古龙《多情剑客无情剑》——第一章　飞刀与快剑>>", "第一章 飞刀与快剑"),
        ("------------第三章 雪夜", "第三章 雪夜"),
        ("☆☆☆第三章 雪夜☆☆☆", "第三章 雪夜"),
        ("正文&nbsp;楔子", "楔子"),
        ("第一百八十二章 【要人命的妖精】 （下）", "第一百八十二章 【要人命的妖精】 （下）"),
        ("☆、第1章 风起", "第1章 风起"),
        ("【第一章】风起", "第一章 风起"),
        ("[第12章] 归来", "第12章 归来"),
        ("※第三章 雪夜", "第三章 雪夜"),
        ("番外篇 重逢", "番外篇 重逢"),
        ("上架感言", "上架感言"),
        ("第二章 【出来混，要讲规矩】", "第二章 出来混，要讲规矩"),
        ("##第五章 通天", "第五章 通天"),  # a Markdown heading's marks
        ("第一幕 卡塞尔之门 The Gate to Cassell", "第一幕 卡塞尔之门 The Gate to Cassell"),  # 龙族's acts
        ("第 二 十 回", "第二十回"),  # a typeset contents spaces the numeral out
        ("12|第十二章 归来", "第十二章 归来"),  # a contents index column (晋江)
        (" 2 | 【02】", "02"),
        ("【02】 夜雨", "02 夜雨"),
        ("\ue5e5第一章\u3000汤姆耍斗", "第一章 汤姆耍斗"),  # an icon-font glyph before every heading
        ("\ue5e5\ue5e6 第二章 无奈刷墙", "第二章 无奈刷墙"),
        ("[正文 第1节]", "第1节"),  # a download's page label in brackets
        ("【正文 第十二章】 归来", "第十二章 归来"),
        ("正文225倒计时", "225 倒计时"),  # the section label glued to a number glued to its title
        ("1科学边界", "1 科学边界"),
        ("4三体、周文王、长夜", "4 三体、周文王、长夜"),
        ("★青蛙王子", "青蛙王子"),
        ("◆ 灰姑娘", "灰姑娘"),
        (
            "第一百三十一回 堪舆家恼怒滥用刑[万卷书2酷WWW．2009w．COM]",
            "第一百三十一回 堪舆家恼怒滥用刑",
        ),  # an address in capitals
        ("第十二章 归来 (本站www.example.org)", "第十二章 归来"),  # a site word before the address
        ("64 命悬一线【VIP】", "64 命悬一线"),  # a paid chapter's mark
        ("【第二篇 紫陌】", "第二篇 紫陌"),  # a volume's label and title in one pair of brackets
    ],
)
def test_site_debris_is_cut_from_headings(line, title):
    heading = candidate(line, 1)
    assert heading is not None and heading.title == title


@pytest.mark.parametrize(
    "line, volume, title, number",
    [
        ("第十三卷 风雪 第2040章 不归", "第十三卷 风雪", "第2040章 不归", 2040),
        ("第一集第一章拜师", "第一集", "第一章 拜师", 1),
        ("第一季 第二卷 怒海潜沙 第一章 蛇眉铜鱼", "第一季 第二卷 怒海潜沙", "第一章 蛇眉铜鱼", 1),
        ("第二部【青云路】 第一章 【委任】（上）", "第二部 青云路", "第一章 【委任】（上）", 1),
        ("第一卷：木兰歌 第一回　病皇帝早朝生妄症", "第一卷 木兰歌", "第一回 病皇帝早朝生妄症", 1),
    ],
)
def test_volume_and_chapter_on_one_line(line, volume, title, number):
    heading = candidate(line, 1)
    assert (heading.kind, heading.volume, heading.title, heading.number) == ("chapter", volume, title, number)


@pytest.mark.parametrize(
    "line, kind, title",
    [
        ("第九十四章　关于“死亡”的试探", "chapter", "第九十四章 关于“死亡”的试探"),
        ("第三章 妖怪头领‘褚庸’", "chapter", "第三章 妖怪头领‘褚庸’"),
        ("第四章 我是他的弟弟！", "chapter", "第四章 我是他的弟弟！"),
        ("第七章 你相信运气么？", "chapter", "第七章 你相信运气么？"),
        ("第十章 「夜」＆「雨」", "chapter", "第十章 「夜」＆「雨」"),
        ("第一部分", "volume", "第一部分"),
        ("卷一：木兰歌", "volume", "卷一 木兰歌"),
        ("附录：陈世骧先生书函", "back", "附录：陈世骧先生书函"),
    ],
)
def test_titles_with_quotes_and_marks_are_strong_headings(line, kind, title):
    heading = classify_heading(line, 1)
    assert heading is not None and (heading.kind, heading.title) == (kind, title)


@pytest.mark.parametrize(
    "line",
    [
        "第一次见面，他就喜欢上了她。",
        "第三个人走了进来。",
        "“第二章我还没看完。”",
        "第一回合，李四就被打倒在地。",
        "第二天一早",
        "第三卷终",
        "第一章的内容他早已背熟，此刻……",
        "比分是3:2，第二节结束了。",
        "第一幕戏演完了，他走出剧场。",
        "第四集的插图",
        "第二章 完",
        "第三章（完）",  # the end of a chapter (罗马人的故事)
        "第五回 完 Typed by Someone & Other",  # and a typist's signature after it (鹿鼎记)
        "第三回 合，日本队调整了战术，打得更加主动。",  # a round of a game, the line broken after 回
        "后来记得他说过的话。",  # 后 and 记 with words between: no 后记
        "程序",  # a word that ends in 序 is no edition's preface
        "时间顺序",
        "这是新版序。",  # a sentence
        "後　　来他走了。",
        "附录一份文件给他。",  # 附录 and a numeral, then a sentence: no numbered appendix
    ],
)
def test_prose_is_never_a_heading(line):
    assert classify_heading(line, 1) is None


def test_a_comma_title_is_a_heading_where_the_numbering_supports_it(tmp_path):
    text = "".join(f"第{n}回：宴桃園豪傑三結義，斬黃巾英雄首立功\n{BODY}" for n in "一二三四")
    assert [t for _, t in contents(novel(tmp_path, text))][:2] == [
        "第一回 宴桃園豪傑三結義，斬黃巾英雄首立功",
        "第二回 宴桃園豪傑三結義，斬黃巾英雄首立功",
    ]
    lone = f"第一章 开始\n{BODY}第七回：他说，好\n{BODY}第二章 结束\n{BODY}"
    assert [t for _, t in contents(novel(tmp_path, lone))] == ["第一章 开始", "第二章 结束"]


def test_numbering_restarts_per_volume_and_switches_numerals(tmp_path):
    text = (
        f"第一卷 潜龙\n第一章 甲\n{BODY}第二章 乙\n{BODY}第二卷 飞龙\n第一章 丙\n{BODY}第二章 丁\n{BODY}"
        f"第九十九章 戊\n{BODY}".replace("第九十九章", "第三章")
        + f"第三卷 亢龙 第九十九章 己\n{BODY}第100章 庚\n{BODY}"
    )
    loaded = novel(tmp_path, text)
    assert [v.title for v in loaded.book.volumes] == ["第一卷 潜龙", "第二卷 飞龙", "第三卷 亢龙"]
    assert contents(loaded)[-2:] == [("第三卷 亢龙", "第九十九章 己"), ("第三卷 亢龙", "第100章 庚")]
    assert not {"W301", "W302", "W303"} & set(codes(loaded))


@pytest.mark.parametrize("separator", ["------------", "========", "☆☆☆", "＊＊＊＊＊"])
@pytest.mark.parametrize("blank", ["", "\n"])
def test_separator_lines_never_hide_a_heading_and_are_never_text(tmp_path, separator, blank):
    text = "".join(f"{separator}\n{blank}第{n}章 标题{n}\n{blank}{BODY}" for n in "一二三")
    loaded = novel(tmp_path, text)
    assert [t for _, t in contents(loaded)] == ["第一章 标题一", "第二章 标题二", "第三章 标题三"]
    assert all(
        separator not in p.text for c in loaded.book.chapters() for p in c.blocks if hasattr(p, "text")
    )


def test_a_table_of_contents_at_the_top_is_dropped(tmp_path):
    toc = "".join(f"第{n}章 标题{n}\n" for n in range(1, 12))
    text = "书名\n目录\n" + toc + "".join(f"第{n}章 标题{n}\n{BODY}" for n in range(1, 12))
    loaded = novel(tmp_path, text)
    assert [t for _, t in contents(loaded)] == [f"第{n}章 标题{n}" for n in range(1, 12)]
    assert "I302" in codes(loaded) and "W305" not in codes(loaded)


def test_a_table_of_contents_with_volumes_in_it_is_dropped(tmp_path):
    toc = "卷一：甲\n第一回 子\n第二回 丑\n卷二：乙\n第三回 寅\n第四回 卯\n"
    text = (
        toc
        + "\n\n第一卷：甲 第一回 子\n"
        + BODY
        + "第二回 丑\n"
        + BODY
        + "第二卷：乙 第三回 寅\n"
        + BODY
        + "第四回 卯\n"
        + BODY
    )
    loaded = novel(tmp_path, text)
    assert contents(loaded) == [
        ("第一卷 甲", "第一回 子"),
        ("第一卷 甲", "第二回 丑"),
        ("第二卷 乙", "第三回 寅"),
        ("第二卷 乙", "第四回 卯"),
    ]


@pytest.mark.parametrize(
    "make",
    [
        lambda n, cn: f"{cn}　天涯孤客{n}",
        lambda n, cn: f"{cn}回　救贫女馈赠金瓜子{n}",
        lambda n, cn: f"{n:03d}",
        lambda n, cn: f"{n}、标题{n}",
        lambda n, cn: f"（{cn}）",
        lambda n, cn: f"Chapter {n}",
    ],
)
def test_bare_numeral_headings_where_the_sequence_supports_them(tmp_path, make):
    numerals = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二"]
    text = "".join(f"{make(n, cn)}\n{BODY}" for n, cn in enumerate(numerals, 1))
    loaded = novel(tmp_path, text)
    assert len(contents(loaded)) == 12 and [c.number for c in loaded.book.chapters()] == list(range(1, 13))


def test_bare_numerals_are_text_in_a_book_with_its_own_chapter_headings(tmp_path):
    text = "".join(f"第{cn}章 标题\n一　起因\n{BODY}二　经过\n{BODY}三　结果\n{BODY}" for cn in "一二三")
    loaded = novel(tmp_path, text)
    assert [t for _, t in contents(loaded)] == ["第一章 标题", "第二章 标题", "第三章 标题"]
    assert [p.text[0] for p in next(loaded.book.chapters()).blocks][::3] == ["一", "二", "三"]


def test_an_isolated_number_line_is_text(tmp_path):
    text = f"第一章 开始\n{BODY}2008\n{BODY}1、买米\n{BODY}第二章 继续\n{BODY}"
    assert [t for _, t in contents(novel(tmp_path, text))] == ["第一章 开始", "第二章 继续"]


def test_financial_numeral_parts_without_di(tmp_path):
    text = "".join(
        f"{part}\n第一章 甲\n{part}{BODY}第二章 乙\n{part}{BODY}"
        for part in ("第壹卷 起", "贰", "叁", "第肆卷 承")
    )
    loaded = novel(tmp_path, text)
    assert [v.title for v in loaded.book.volumes] == ["第壹卷 起", "贰", "叁", "第肆卷 承"]


def test_a_book_of_volume_headings_only_has_them_as_chapters(tmp_path):
    text = "".join(f"第{n}卷 故事{n}\n{BODY}" for n in "一二三四")
    loaded = novel(tmp_path, text)
    assert [c.title for c in loaded.book.chapters()] == [f"第{n}卷 故事{n}" for n in "一二三四"]
    assert [c.kind for c in loaded.book.chapters()] == ["chapter"] * 4


def test_forum_pastes_are_split_into_paragraphs_and_their_headings_found(tmp_path):
    paragraph = "他走进院子，看见一棵老树，树下坐着一个老人，老人抬头看他。" * 3
    line = "    ".join(
        ["序章", paragraph, paragraph, "第一章 出山", paragraph, paragraph, "第二章 下山", paragraph]
    )
    loaded = novel(tmp_path, line + "\n")
    assert [c.title for c in loaded.book.chapters()] == ["序章", "第一章 出山", "第二章 下山"]
    assert [len([b for b in c.blocks]) for c in loaded.book.chapters()] == [2, 2, 1]


def test_a_paste_whose_markdown_headings_are_glued_to_the_paragraph_before(tmp_path):
    """The shape of a real 诛仙 fan-fiction paste: a chapter a line, paragraphs joined by four
    spaces, and the next chapter's `###第N章  title（k）` glued to the end of each line."""
    paragraph = "他走进院子，看见一棵老树，树下坐着一个老人，老人抬头看他。" * 3
    lines = [
        "    ".join(["序章", paragraph, "第一章", paragraph, paragraph]) + "###第二章  通天（1）",
        "    " + "    ".join([paragraph, paragraph]) + "###第三章  通天(2)",
        "    " + "    ".join([paragraph, paragraph, paragraph]),
    ]
    loaded = novel(tmp_path, "\n".join(lines) + "\n")
    assert [c.title for c in loaded.book.chapters()] == [
        "序章",
        "第一章",
        "第二章 通天（1）",
        "第三章 通天(2)",
    ]
    assert [len(c.blocks) for c in loaded.book.chapters()] == [1, 2, 2, 3]
    assert not any("#" in b.text for c in loaded.book.chapters() for b in c.blocks)


@pytest.mark.parametrize(
    "line, pieces",
    [
        ("第四章  通天（1）", ["第四章 通天（1）"]),  # the gap after a bare label is the title's
        (
            "第一章    看着眼前那双年轻却满是老茧的手，少年不禁百感交集。",
            ["第一章", "看着眼前那双年轻却满是老茧的手，少年不禁百感交集。"],
        ),
        ("序章    有人说", ["序章 有人说"]),
        ("第一章    第二章", ["第一章", "第二章"]),  # two labels stay two headings
        ("他笑了。###第五章  夜雨", ["他笑了。", "###第五章 夜雨"]),
        ("比分是3:1  ##不是标题", ["比分是3:1", "##不是标题"]),  # ## glued only splits before a heading word
        ("他说：“好。”  她点头。", ["他说：“好。”", "她点头。"]),
    ],
)
def test_paste_pieces(line, pieces):
    from bookbuilder.structure.pastes import paste_pieces

    assert paste_pieces(line) == pieces


def test_a_heading_glued_to_its_first_paragraph_by_a_gap_is_cut_off(tmp_path):
    """极品宝贝无敌妻's shape: `14.香橙`, then `14.香橙　　香橙将桌子拉开，…` (the heading again,
    glued to the chapter's first paragraph); a gap before a title is the title's."""
    text = "".join(
        f"{n}.标题{n}\n{n}.标题{n}　　香橙将桌子拉开，然后趴到门上问了一句：“谁啊？”\n{BODY}"
        for n in range(1, 5)
    )
    text += f"第5章  谁是废物？\n{BODY}第6章  出来混，要讲规矩\n{BODY}"
    loaded = novel(tmp_path, text)
    assert [c.title for c in loaded.book.chapters()] == [f"{n} 标题{n}" for n in range(1, 5)] + [
        "第5章 谁是废物？",
        "第6章 出来混，要讲规矩",
    ]
    assert [b.text for b in next(loaded.book.chapters()).blocks][
        0
    ] == "香橙将桌子拉开，然后趴到门上问了一句：“谁啊？”"


def test_a_titles_own_number_stays_unless_the_chapter_goes_on_in_pages(tmp_path):
    text = (
        f"第一章 通天（1）\n{BODY}第二章 通天（2）\n{BODY}第三章 夜雨(1)\n{BODY}第三章 夜雨(2)"
        f"\n{BODY}第四章 归来\n{BODY}"
    )
    assert [t for _, t in contents(novel(tmp_path, text))] == [
        "第一章 通天（1）",
        "第二章 通天（2）",
        "第三章 夜雨",
        "第四章 归来",
    ]


def test_a_chapter_paged_in_everyday_numerals_after_a_prologue_is_one_chapter(tmp_path):
    """斗罗大陆's shape: 引子, then each 章 posted in pages （一）（二）…, the first page's heading
    with no chapter before it that its number runs on from."""
    text = f"引子 穿越\n{BODY}" + "".join(
        f"第{n}章 武魂（{k}）\n{BODY}"
        for n, pages in (("一", "一二三"), ("二", "一二"), ("三", "一二三四"))
        for k in pages
    )
    titles = [t for _, t in contents(novel(tmp_path, text))]
    assert titles == ["引子 穿越", "第一章 武魂", "第二章 武魂", "第三章 武魂"]


def test_a_titles_own_everyday_number_stays(tmp_path):
    text = f"第一章 风起\n{BODY}第二章 通天（二）\n{BODY}第三章 夜雨（一）\n{BODY}第四章 归来\n{BODY}"
    assert [t for _, t in contents(novel(tmp_path, text))][1:3] == ["第二章 通天（二）", "第三章 夜雨（一）"]


def test_bracketed_numbers_are_headings_where_the_numbering_runs_on(tmp_path):
    """The shape of a 晋江 download: ` 1|【01】` in a contents column, the same 【01】 again after
    the site's notes, then ` 2|【02】` …; and a line 【7】 inside the text is not a heading."""
    text = (
        " 1|【01】\n《书》晋江独家发表\n——文：某某\n【01】\n"
        + BODY
        + "".join(f" {n}|【{n:02}】\n{BODY}" for n in range(2, 6))
    )
    text += "他数了数，【7】号房间就在前面。\n【7】\n" + BODY
    titles = [c.title for c in novel(tmp_path, text).book.chapters() if c.kind != "intro"]
    assert titles == ["01", "02", "03", "04", "05"]


def test_a_misprinted_heading_does_not_cost_the_next_one_its_support(tmp_path):
    """大唐再起's shape: every title glued to its number (weak candidates), and one misprint
    (第四十八章 between 第一百四十七章 and 第一百四十八章, the 百 left out); 第一百四十九章 is missing."""
    numbers = ["一百四十五", "一百四十六", "一百四十七", "四十八", "一百四十八", "一百五十", "一百五十一"]
    text = "".join(f"正文 第{n}章标题{k}\n{BODY}" for k, n in enumerate(numbers))
    titles = [t for _, t in contents(novel(tmp_path, text))]
    assert titles == [f"第{n}章 标题{k}" for k, n in enumerate(numbers) if n != "四十八"]


def test_jinjiang_marked_titles_are_chapters_and_the_title_line_before_goes(tmp_path):
    """晋江's shape (八月长安《你好，旧时光》): unnumbered chapters, each title on a line of its own
    and again as ` ˇtitleˇ ` on the next; a ˇ inside prose is not a heading."""
    text = "".join(f"　　{t}\n\n　　 ˇ{t}ˇ \n\n{BODY}" for t in ("所谓玛丽苏", "小飞虫", "蓝水"))
    text += "　　她写下ˇ这个符号ˇ就走了。\n"
    loaded = novel(tmp_path, text)
    assert [c.title for c in loaded.book.chapters()] == ["所谓玛丽苏", "小飞虫", "蓝水"]
    assert [b.text for b in list(loaded.book.chapters())[0].blocks] == BODY.split()


def test_numbering_that_starts_again_divides_a_book_without_volumes_into_parts(tmp_path):
    """平凡的世界's shape: three parts of 54 chapters, the 部 headings lost in the download."""
    chapters = "".join(f"第{n}章\n{BODY}" for n in [*"一二三四五六七八九十", "十一", "十二"])
    parts = "".join(
        chapters.replace(BODY, f"第{k}部的故事。\n" + BODY) for k in "一二三"
    )  # each part its own text
    loaded = novel(tmp_path, parts + f"后记\n{BODY}")
    assert [(v.title, len(v.chapters)) for v in loaded.book.volumes] == [
        ("第一部分", 12),
        ("第二部分", 12),
        ("第三部分", 13),
    ]
    assert "I306" in codes(loaded) and "W303" not in codes(loaded)
    short = novel(tmp_path, "".join(f"第{n}章\n{k}{BODY}" for k, n in enumerate("一二三一二三")), "short.txt")
    assert [v.title for v in short.book.volumes] == [None]  # three chapters are no part


def test_a_sites_untitled_page_marks_between_titled_chapters_are_dropped(tmp_path):
    """金瓶梅 from one site: 第N节 page marks, untitled, cut the text by size among the titled 第N回."""
    text = ""
    for n, name in enumerate(["一", "二", "三", "四"], 1):
        text += f"第{n}节\n{BODY}第{name}回 回目{n}\n{BODY}第{n + 10}节\n{BODY}"
    assert [t for _, t in contents(novel(tmp_path, text))] == [
        f"第{name}回 回目{n}" for n, name in enumerate("一二三四", 1)
    ]
    # a book of 第N章, each with titled 第N节 sections: both stay
    sections = "".join(
        f"第{a}章 大题{a}\n{BODY}第{b}节 小题{b}\n{BODY}" for a, b in zip("一二三四", "一二三四")
    )
    assert len(contents(novel(tmp_path, sections, "sections.txt"))) == 8


def test_a_title_on_the_line_under_a_bare_heading_is_its_title(tmp_path):
    """红楼梦 typeset as classics are: 第一回 alone, the couplet title on the next line."""
    text = (
        f"第一回\n甄士隱夢幻識通靈賈雨村風塵懷閨秀\n此開卷第一回也。作者自雲：因曾曆過一番夢幻之後。\n"
        f"第二回\n賈夫人仙逝揚州城　冷子興演說榮國府\n{BODY}第三回\n{BODY}第四回\n诗曰\n{BODY}"
    )
    loaded = novel(tmp_path, text)
    assert [t for _, t in contents(loaded)] == [
        "第一回 甄士隱夢幻識通靈賈雨村風塵懷閨秀",
        "第二回 賈夫人仙逝揚州城 冷子興演說榮國府",
        "第三回",
        "第四回",
    ]
    assert [b.text for b in next(loaded.book.chapters()).blocks] == [
        "此開卷第一回也。作者自雲：因曾曆過一番夢幻之後。"
    ]


def test_a_contents_with_parts_and_a_preface_among_its_chapters_is_dropped_whole(tmp_path):
    """异类's 目录: 序, 第一部分, 第一章 …, each entry over a line of its epigraph, then the book."""
    toc = (
        "目录\n序 一个谜\n“引言一。”\n第一部分 机遇\n第一章 甲\n“引言二。”\n第二章 乙\n“引言三。"
        "”\n第二部分 传承\n第三章 丙\n“引言四。”\n"
    )
    text = (
        toc
        + f"序 一个谜\n{BODY}第一部分 机遇\n第一章 甲\n{BODY * 3}第二章 乙\n{BODY * 3}第二部分 传承\n第三章 "
        f"丙\n{BODY * 3}"
    )
    loaded = novel(tmp_path, text)
    assert contents(loaded) == [
        (None, "序 一个谜"),
        ("第一部分 机遇", "第一章 甲"),
        ("第一部分 机遇", "第二章 乙"),
        ("第二部分 传承", "第三章 丙"),
    ]
    assert next(c for c in loaded.book.chapters() if c.kind == "front").at.line == 12  # the real one


def test_a_contents_of_chapters_grouped_under_its_parts_is_dropped_with_the_parts(tmp_path):
    """七劍十三俠's contents: 第一部分 over a line of the part's opening text, then its chapters with
    nothing between them; then 序, and the book, each part's label before each of its chapters."""
    toc = "".join(
        f"第{p}部分\n{opening}\n" + "".join(f"第{n}回 题{n}\n" for n in chapters)
        for p, opening, chapters in (
            ("一", "嘗見稗官小說記載劍仙俠客之流。", "一二三"),
            ("二", "卻說眾弟兄一路而來。", "四五六"),
        )
    )
    body = "".join(
        f"第{'一' if n in '一二三' else '二'}部分\n第{n}回 题{n}\n{BODY * 3}" for n in "一二三四五六"
    )
    loaded = novel(tmp_path, toc + f"序\n{BODY}" + body)
    assert contents(loaded)[0] == (None, "序")
    assert contents(loaded)[1:] == [("第一部分", f"第{n}回 题{n}") for n in "一二三"] + [
        ("第二部分", f"第{n}回 题{n}") for n in "四五六"
    ]


def test_a_volume_over_its_own_contents_keeps_it(tmp_path):
    """A volume named once, over its own chapters' contents, opens there: the contents go, it stays."""
    toc = "第一卷 初出\n" + "".join(f"第{n}回 题{n}\n" for n in "一二三")
    body = "".join(f"第{n}回 题{n}\n{BODY * 3}" for n in "一二三")
    assert contents(novel(tmp_path, toc + body)) == [("第一卷 初出", f"第{n}回 题{n}") for n in "一二三"]


def test_sections_numbered_under_the_last_chapter_are_no_chapters(tmp_path):
    """异类's last chapter: 第九章 over an epigraph, then its sections 1, 2, 3 (a short book: no
    2,000 lines where the numbering stopped; a stretch after the last chapter runs only as far as they go)."""
    text = (
        "".join(f"第{n}章 题{n}\n{BODY * 3}" for n in "一二三四")
        + "第五章 题五\n“一句引言。”\n"
        + "".join(f"{k}\n{BODY * 6}" for k in range(1, 5))
    )
    assert [t for _, t in contents(novel(tmp_path, text))] == [f"第{n}章 题{n}" for n in "一二三四五"]


def test_a_heading_glued_to_the_end_of_the_chapter_before_is_cut_off(tmp_path):
    """A crawler that wrote title + text with no line break between chapters: …为他送行。第二章 下山,
    on a line of its own or inside a paste; 。第二天 and 。第三章的内容 are sentences."""
    last = "山风吹过，仿佛在为他送行。"
    lines = "".join(f"第{n}章 题{n}\n{BODY}{last}" for n in "一二三四")
    assert [t for _, t in contents(novel(tmp_path, lines))] == [f"第{n}章 题{n}" for n in "一二三四"]
    gap = "\xa0" * 4
    paste = "".join(
        f"第{n}章 题{n}" + "".join(gap + p for p in BODY.split()) * 8 + gap + last for n in "一二三四"
    )
    assert [t for _, t in contents(novel(tmp_path, paste, "paste.txt"))] == [
        f"第{n}章 题{n}" for n in "一二三四"
    ]
    poem = "".join(
        f"第{n}回回目{n}甲乙丙丁诗曰：乍对不相识，徐思似有情。\n{BODY}" for n in "一二三四"
    )  # 金瓶梅 from one site
    assert [t for _, t in contents(novel(tmp_path, poem, "poem.txt"))] == [
        f"第{n}回 回目{n}甲乙丙丁" for n in "一二三四"
    ]
    glued = (
        "".join(f"第{n}章 题{n}\n{BODY}" for n in "一二三")
        + f"他笑道：“好。”第四章冰雪女神\n{BODY}第五章 题五\n{BODY}"
    )
    assert [t for _, t in contents(novel(tmp_path, glued, "glued.txt"))][-2:] == [
        "第四章 冰雪女神",
        "第五章 题五",
    ]  # 冰火魔厨
    prose = f"第一章 题一\n{BODY}他走了。第二天一早又回来。\n他说。第三章的内容他早已背熟，此刻又想起。\n"
    assert [b.text for b in next(novel(tmp_path, prose, "prose.txt").book.chapters()).blocks][-2:] == [
        "他走了。第二天一早又回来。",
        "他说。第三章的内容他早已背熟，此刻又想起。",
    ]


def test_a_chapter_named_on_every_line_of_its_sections_is_a_volume(tmp_path):
    """鬼吹灯之牧野诡事: 第一章 墓中寻龙 盗墓（一）, 第一章 墓中寻龙 厉种 … (章 is a part, named on each of
    its sections' lines); a paged site's 第一章 风起 云涌（2） and titles that are all the same stay."""
    text = "".join(
        f"第{n}章 墓{n} {t}{n}\n{BODY}" for n in "一二" for t in ("盗墓", "厉种", "驴头狼", "猫城")
    )
    loaded = novel(tmp_path, text)
    assert contents(loaded) == [
        (f"第{n}章 墓{n}", f"{t}{n}") for n in "一二" for t in ("盗墓", "厉种", "驴头狼", "猫城")
    ]
    assert "W302" not in codes(loaded)
    paged = "".join(f"第{n}章 风起 云涌（{k}）\n{BODY}" for n in "一二" for k in (1, 2, 3))
    assert [v for v, _ in contents(novel(tmp_path, paged, "paged.txt"))] == [None] * 2


def test_a_book_run_into_one_line_is_cut_at_its_chapter_labels(tmp_path):
    """儒林外史, 三俠五義 … from one Project Gutenberg scrape: every line break gone, the name three
    times, then 第一回 and its couplet title glued to the text, which 話說 or 詩曰 opens; each later
    label after a finished sentence. A title with no opening word after it is as long as the
    others; where that much holds punctuation, the label alone heads the chapter."""
    story = "他走進院子，看見一棵老樹。樹下坐著一個老人，手裡拿著一本書。" * 60
    titles = ["甲乙丙丁戊己庚辛壬癸子丑寅卯", "天地玄黃宇宙洪荒日月盈昃辰宿", "金生麗水玉出崑岡劍號巨闕珠稱"]
    text = "某書某書某書" + "".join(f"第{n}回{t}話說{story}且聽下回分解。" for n, t in zip("一二三", titles))
    text += f"第五回{titles[0][::-1]}{story}。第六回楔子，{story}"
    loaded = novel(tmp_path, text, "某書.txt")
    assert [t for _, t in contents(loaded)] == [f"第{n}回 {t}" for n, t in zip("一二三", titles)] + [
        f"第五回 {titles[0][::-1]}",
        "第六回",
    ]
    assert next(loaded.book.chapters()).blocks[0].text.startswith("話說他走進院子")
    assert next(loaded.book.chapters()).kind == "chapter"  # the name thrice is no intro page
    preface = novel(
        tmp_path,
        "某書某書序"
        + story[:300]
        + "".join(
            f"第{n}回{t}話說{story}且聽下回分解。" for n, t in zip(["七十一", "七十二", "七十三"], titles)
        ),
        "某書.txt",
    )  # 蕩寇志: a preface, then 第七十一回 on
    assert [t for _, t in contents(preface)] == [
        f"第{n}回 {t}" for n, t in zip(["七十一", "七十二", "七十三"], titles)
    ]
    inside = (
        "某集"
        + story
        + "某傳第一章序"
        + "".join(f"{story}第{n}章{t}" for n, t in zip("二三四", titles))
        + story
    )
    assert (
        len(contents(novel(tmp_path, inside, "某集.txt"))) < 4
    )  # 吶喊's 阿Q正傳: a story's chapters, not the book's


def test_a_book_run_into_one_line_numbered_digit_by_digit_with_its_zeros_lost(tmp_path):
    """西遊記 from the same scrape: its 回 numbered digit by digit (第一一回, 第九九回) and every 〇 lost, so
    第一〇回 reads 第一回 after 第九回, and 第一〇〇回 第一回 after 第九九回: each the next number with
    its zeros left out, cut where it stands; the last title ends where 且不言 turns the story back. A
    第一回 where the next number has no zero (after 第五回) is a sentence's, and stays in the text."""
    story = "他走進院子，看見一棵老樹。樹下坐著一個老人，手裡拿著一本書。" * 60
    title = "甲乙丙丁戊己庚"
    numbers = [8, 9, 10, 11, 12]
    labels = ["八", "九", "一", "一一", "一二"]  # 第一〇回 with its 〇 lost
    text = "某書某書某書" + "".join(
        f"第{n}回{title}{k}且不言{story}且聽下回分解。" for n, k in zip(labels, numbers)
    )
    assert [t for _, t in contents(novel(tmp_path, text, "某書.txt"))] == [
        f"第{n}回 {title}{k}" for n, k in zip(labels, numbers)
    ]
    early = text.replace("第八回", "第四回").replace("第九回", "第五回")  # 第一回 after 第五回: not 六
    assert "第一回 甲乙丙丁戊己庚10" not in [t for _, t in contents(novel(tmp_path, early, "某書.txt"))]


def test_upper_middle_and_lower_parts_are_volumes(tmp_path):
    """三体II from one download: 目录 over 序章, 上 部 面壁者, 中 部 咒语, 下 部 黑暗森林 (its contents), then
    序章 and 上部 面壁者危机 … each over text with no chapter heading in it (divided into parts where
    long)."""
    toc = "目录\n序章\n上 部    面壁者\n中 部    咒语\n下 部    黑暗森林\n"
    long_text = "他走进院子，看见一棵老树。树下坐着一个老人，他手里拿着一本书，慢慢地翻着。\n" * 3000
    first_book = "".join(f"第{n}章 题{n}\n{BODY}" for n in "一二三")  # 三体 before it, in chapters
    text = (
        first_book
        + toc
        + f"序章\n{BODY}上 部 面壁者危机\n{long_text}中 部 咒语危机\n{BODY}下 部 黑暗森林\n{BODY}"
    )
    loaded = novel(tmp_path, text)
    volumes = [v.title for v in loaded.book.volumes]
    assert volumes == [None, "上部 面壁者危机", "中部 咒语危机", "下部 黑暗森林"]
    assert [c.title for c in loaded.book.volumes[0].chapters] == [
        "第一章 题一",
        "第二章 题二",
        "第三章 题三",
        "序章",
    ]
    assert len(loaded.book.volumes[1].chapters) > 1  # over 100,000 characters: parts


def test_a_part_named_on_each_chapters_line_opens_a_volume(tmp_path):
    """我的奋斗 from 天涯在线书库: 上篇 一、我的家庭 … 下篇 一、世界观和政党 …"""
    text = "".join(f"上篇 {n}、上题{n}\n{BODY}" for n in "一二三") + "".join(
        f"下篇 {n}、下题{n}\n{BODY}" for n in "一二"
    )
    assert contents(novel(tmp_path, text)) == [("上篇", f"{n}、上题{n}") for n in "一二三"] + [
        ("下篇", f"{n}、下题{n}") for n in "一二"
    ]


def test_jinjiangs_mark_before_every_title_makes_them_chapters(tmp_path):
    """晋江 downloads put ☆、 before every chapter's title: ☆、第一个世界1 (no rule of its own), ☆、番外 …"""
    text = "".join(f"☆、第{n}个世界{k}\n{BODY * 2}" for n in "一二" for k in (1, 2)) + f"☆、番外 一\n{BODY}"
    assert [t for _, t in contents(novel(tmp_path, text))] == [
        "第一个世界1",
        "第一个世界2",
        "第二个世界1",
        "第二个世界2",
        "番外 一",
    ]


def test_a_last_chapter_titled_the_end_is_a_chapter(tmp_path):
    """第88章 完结 over its text (晋江 downloads) is the last chapter; 第二章 完 is an end mark."""
    text = "".join(f"第{n}章 题{n}\n{BODY}" for n in range(1, 4)) + f"第4章 完结\n{BODY}"
    assert [t for _, t in contents(novel(tmp_path, text))][-1] == "第4章 完结"


def test_titles_ending_in_a_full_stop_are_headings_where_the_numbering_runs_on(tmp_path):
    """最强萌宠万人迷 (晋江): 第3章 【某某】爵爷抓住一只喵。 — 164 of its titles end in 。; a list item 五、
    某某。 does not."""
    text = (
        "".join(f"第{n}章 【世界】题目{n}。\n{BODY}" for n in range(1, 5))
        + "五、掩体计划。\n六、总体步骤。\n七、结论。\n"
        + BODY
    )
    assert [t for _, t in contents(novel(tmp_path, text))] == [
        f"第{n}章 【世界】题目{n}。" for n in range(1, 5)
    ]  # the book's space kept


def test_part_numbers_are_chapters(tmp_path):
    """微微一笑很倾城: part1 被抛弃了, part 6 跟班微微, part25 (glued, spaced or untitled), 80 of them."""
    text = "《某书》\n作者：某甲\n" + "".join(
        f"{label}\n{BODY}" for label in ("part1 被抛弃了", "part2 抢亲", "part 3", "part4 婚礼")
    )
    loaded = novel(tmp_path, text)
    assert [t for _, t in contents(loaded)] == ["part1 被抛弃了", "part2 抢亲", "part 3", "part4 婚礼"]
    assert (loaded.book.meta.title, loaded.book.meta.author) == ("某书", "某甲")  # the header is read again


@pytest.mark.parametrize("name", ["释　名", "釋名"])
def test_a_note_on_the_books_name_is_front_matter_in_either_script(tmp_path, name):
    """天龙八部's 释名 (金庸 explains the title) before 一 青衫磊落险峰行, simplified or traditional;
    the word inside a sentence stays text."""
    text = f"{name}\n“天龙八部”这名词出于佛经。\n{BODY}第一回 青衫磊落险峰行\n{BODY}第二回 玉壁月华明\n{BODY}"
    titles = [t for _, t in contents(novel(tmp_path, text))]
    assert titles[0].replace("　", "").replace(" ", "") == name.replace("　", "") and len(titles) == 3
    inside = novel(tmp_path, f"第一章 起\n他释名之后又说。\n{BODY}第二章 落\n{BODY}", "inside.txt")
    assert [t for _, t in contents(inside)] == ["第一章 起", "第二章 落"]


@pytest.mark.parametrize(
    "line, number",
    [
        ("三十二且自逍遥没谁管", 32),
        ("四十却试问几时把痴心断", 40),
        ("三十二三岁年纪", None),  # no heading writes 三十二三
        ("一一细考较去", None),  # nor 一一 for eleven
        ("十一月的风", None),  # a count: 十一月
        ("三十二岁那年，他走了", None),  # a sentence
    ],
)
def test_a_numeral_glued_to_its_title_is_a_weak_candidate(line, number):
    heading = candidate(line, 1)
    assert (heading and heading.rule == "bare-glued" and heading.weak and heading.number) == number


def test_glued_numerals_are_headings_where_the_numbering_runs_on_through_them(tmp_path):
    """天龙八部 (Freator's download): 三十一 输赢成败又争由人算 spaced, then 三十二且自逍遥没谁管 … glued, the
    last before a heading the download lost; a line of prose that opens with a numeral stays text."""
    page = BODY * 4
    spaced = "".join(f"{n} 风起\n{page}" for n in ("二十八", "二十九", "三十", "三十一"))
    glued = "".join(f"{n}且自逍遥\n{page}" for n in ("三十二", "三十三", "三十四"))
    text = spaced + glued + f"三十六 梦里\n{page}三十七 同一笑\n三十六洞七十二岛皆来\n{page}"
    titles = [t for _, t in contents(novel(tmp_path, text))]
    assert titles[4:8] == ["三十二 且自逍遥", "三十三 且自逍遥", "三十四 且自逍遥", "三十六 梦里"]
    assert len(titles) == 9 and not any("七十二岛" in t for t in titles)


def test_numerals_alone_are_a_literary_novels_chapters(tmp_path):
    """活着, 许三观卖血记: 一, 二 … alone on their lines, pages apart, are the chapters; a poem's
    一 二 三 a few lines apart (its stanzas) stay text."""
    page = BODY * 6
    loaded = novel(tmp_path, "前言\n" + page + "".join(f"{n}\n{page}" for n in "一二三四五"))
    assert [t for _, t in contents(loaded)] == ["前言", "一", "二", "三", "四", "五"]
    poem = novel(
        tmp_path,
        page + "".join(f"{n}\n明水明月月倍明，清光一片万里同。\n深夜抱病坐月下。\n" for n in "一二三") + page,
        "poem.txt",
    )
    assert not any(t in ("一", "二", "三") for _, t in contents(poem))
    essay = novel(
        tmp_path,
        "某坛\n某某\n"
        + "".join(f"{n}\n" + ("我在园子里坐着，" * 40 + "直到天黑才回家去。\n") * 6 for n in "一二三四"),
        "essay.txt",
    )  # 我与地坛: four sections of six paragraphs of 330 characters, numbered alone
    assert [t for _, t in contents(essay) if t != "内容简介"] == ["一", "二", "三", "四"]
    review = novel(
        tmp_path,
        "第一章 甲\n"
        + page
        + "".join(f"{n}\n" + ("他的小说写的是自己，" * 20 + "这就是无赖派。\n") * 3 for n in "一二三四五"),
        "review.txt",
    )  # 人间失格's appended review: five short sections of about 600 characters, numbered alone
    assert [t for _, t in contents(review)] == ["第一章 甲"]


def test_a_page_header_of_two_lines_is_dropped(tmp_path):
    """侠客行's download: the book's name and its author's over every chapter; a sentence that
    happens to close every chapter is the story's and stays."""
    text = "".join(f"侠客行\n金庸\n第{n}章 标题{n}\n{BODY}" for n in "一二三四")
    loaded = novel(tmp_path, text, "侠客行.txt")
    assert [t for _, t in contents(loaded)] == [f"第{n}章 标题{n}" for n in "一二三四"]
    texts = [b.text for c in loaded.book.chapters() for b in c.blocks]
    assert "侠客行" not in texts and "金庸" not in texts and texts.count("树下坐着一个老人。") == 4


def test_a_number_under_a_bare_heading_is_no_title(tmp_path):
    """围城's download sets 第一章 over 一, the chapter's number again (dropped); 遥远的救世主's sets
    第 一 章 over １, the first section's number (kept as text). Neither is the chapter's title."""
    text = f"第一章\n一\n{BODY}第二章\n<h3>二</h3>\n{BODY}第 三 章\n１\n{BODY}２\n{BODY}"
    loaded = novel(tmp_path, text)
    assert [t for _, t in contents(loaded)] == ["第一章", "第二章", "第三章"]
    chapters = list(loaded.book.chapters())
    assert chapters[0].blocks[0].text == "他走进院子，看见一棵老树。"
    assert [b.text for b in chapters[2].blocks][:2] == ["1", "他走进院子，看见一棵老树。"]


def test_the_sources_own_contents_names_its_unnumbered_headings(tmp_path):
    """徐霞客游记's shape: a 目录 of titles with leaders and page numbers, then each title alone on
    its line before its text; the same words inside a sentence are not a heading."""
    titles = ["游天台山日记", "游雁宕山日记", "游白岳山日记", "游黄山日记"]
    block = "目录\n" + "".join(f"{t}……………………（…{n}）\n" for n, t in enumerate(titles, 1))
    text = (
        "目录\n我讲世界文学史，其实是我的回忆。\n代序\n这是一本游记。\n"
        + block
        + "".join(f"{t}\n{BODY}他写下了{t}。\n" for t in titles)
    )
    loaded = novel(tmp_path, text)
    assert [t for _, t in contents(loaded)] == ["代序"] + titles  # the preface before the 目录 too
    assert "I302" in codes(loaded)  # the contents block was dropped
    assert not any("……" in b.text for c in loaded.book.chapters() for b in c.blocks)
    # a 目录 whose entries the text never gives again alone: nothing is taken
    plain = novel(tmp_path, "目录\n" + "".join(f"{t}\n" for t in titles) + "他走了。\n" * 3, "plain.txt")
    assert [len(c.blocks) for c in plain.book.chapters()] == [8]  # one part, every line its text


def test_a_contents_with_each_couplet_under_its_entry_is_dropped(tmp_path):
    """紅樓夢 from one site: a 目錄 of `第 一 回` entries (numerals spaced out), each with its
    couplet on two lines under it, then the 回 themselves with their text."""
    names = ["一", "二", "三", "四"]
    block = "目錄\n\n" + "".join(f"第 {' '.join(n)} 回\n\n上联{k}\n下联{k}\n\n" for k, n in enumerate(names))
    body = "".join(f"第{n}回　上联{k}　下联{k}\n{BODY}{BODY}{BODY}" for k, n in enumerate(names))
    loaded = novel(tmp_path, "紅樓夢\n" + block + "－－－－－－－－\n" + body)
    assert [t for _, t in contents(loaded)] == [f"第{n}回 上联{k} 下联{k}" for k, n in enumerate(names)]
    assert "I302" in codes(loaded)
    assert not any(
        b.text.startswith(("上联", "下联", "目錄", "－"))
        for c in loaded.book.chapters()
        for b in c.blocks
        if hasattr(b, "text")
    )
    # chapters of two lines each, numbered once: a book of short chapters, not a contents
    short = "".join(f"第{n}回\n一行。\n两行。\n" for n in names)
    assert len(contents(novel(tmp_path, short, "short.txt"))) == 4


def test_a_contents_with_an_entry_not_read_as_a_heading_is_dropped(tmp_path):
    """天龙八部 from cr173: its five 卷 listed at the top, each line the 卷's name and its chapters'
    titles (三、破阵子…, too long a line, is no heading), then 一 … 五 with their text. The entries read
    as headings give their numbers again below, in order, one missing between: a contents."""
    phrases = "  ".join(
        ["玉璧月华明", "马疾香幽", "崖高人远", "微步縠纹生", "谁家子弟谁家院", "无计悔多情", "虎啸龙吟"]
    )
    entries = [f"　　{n}、词牌{n}青衫磊落险峰行  {phrases}" for n in "一二四五"]
    entries.insert(
        2,
        "　　三、破阵子千里茫茫若梦 双眸粲粲如星 塞上牛羊空许约 烛畔鬓云有旧盟 "
        "莽苍踏雪行赤手屠熊搏虎 金戈荡寇鏖兵",
    )
    body = "".join(f"　　{n}　　风起{n}\n{BODY * 3}" for n in "一二三四五")
    loaded = novel(tmp_path, "www.example.com\n　　天龙八部\n" + "\n".join(entries) + "\n" + body)
    assert [t for _, t in contents(loaded)] == [f"{n} 风起{n}" for n in "一二三四五"]
    # the same entries with no body after them that numbers so: no contents, every line kept
    alone = novel(
        tmp_path, "\n".join(entries) + "\n" + "".join(f"第{n}章 甲\n{BODY * 3}" for n in "一二"), "a.txt"
    )
    shown = [t for _, t in contents(alone)] + [b.text for c in alone.book.chapters() for b in c.blocks]
    assert all(any(f"词牌{n}" in t for t in shown) for n in "一二四五")


def test_a_fake_heading_inside_an_advert_is_never_a_heading(tmp_path):
    text = f"第一章 开始\n他笑道。请记住本书 最新章节 第63章 某某网址：\n{BODY}第二章 继续\n{BODY}"
    assert [t for _, t in contents(novel(tmp_path, text))] == ["第一章 开始", "第二章 继续"]


def test_a_text_without_headings_is_divided_into_readable_parts(tmp_path):
    sentence = "他走进院子，看见一棵老树，树下坐着一个老人。"
    text = "\n".join([sentence * 20] * 500)  # 220,000 characters, no heading
    loaded = novel(tmp_path, text)
    sizes = [c.chars for c in loaded.book.chapters()]
    assert len(sizes) >= 4 and all(20_000 <= n <= 60_000 for n in sizes) and sum(sizes) == 220_000
    assert [c.title for c in loaded.book.chapters()][:2] == ["第一部分", "第二部分"]
    assert "W307" in codes(loaded)


def test_chapters_set_apart_by_long_runs_of_blank_lines_are_its_parts(tmp_path):
    """剑来 from a crawler: no titles, each chapter after 8 or 9 blank lines, none inside one."""
    chapters = [
        f"第{k}段的故事开始了。\n" + "他走进院子，看见一棵老树，树下坐着一个老人。\n" * (60 + 20 * k)
        for k in range(5)
    ]
    loaded = novel(tmp_path, "\n\n" + ("\n" * 8).join(chapters))
    found = list(loaded.book.chapters())
    assert [c.title for c in found] == ["第一部分", "第二部分", "第三部分", "第四部分", "第五部分"]
    assert [c.blocks[0].text for c in found] == [f"第{k}段的故事开始了。" for k in range(5)]
    assert [c.at.line for c in found] == [3, 72, 161, 270, 399]  # after 8 blank lines each
    assert any(d.code == "W307" and "blank lines" in d.message for d in loaded.diagnostics)
    # a piece over 60,000 characters is still cut by size
    long = ("\n" * 6).join(
        [chapters[0], "他走进院子，看见一棵老树，树下坐着一个老人。\n" * 3000, chapters[1]]
    )
    assert [c.chars <= 60_000 for c in novel(tmp_path, long, "long.txt").book.chapters()].count(True) >= 4


def test_titles_over_pieces_parted_by_blank_lines_are_their_titles(tmp_path):
    """安徒生童话 from a download: each tale's title on its first line, three blank lines before it;
    the first tale has none. 剑来's first lines are sentences: no titles."""
    tale = "他走进院子，看见一棵老树，树下坐着一个老人。\n" * 60
    names = ["飞箱", "丑小鸭", "红鞋", "一个豆荚里的五粒豆"]
    loaded = novel(tmp_path, ("\n" * 4).join([tale] + [f"{name}\n{tale}" for name in names]))
    found = list(loaded.book.chapters())
    assert [c.title for c in found] == ["第一部分", *names]
    assert [c.at.line for c in found] == [1, 65, 130, 195, 260]  # the title's line, after 4 blank lines
    assert all(c.blocks[0].text.startswith("他走进院子") for c in found)
    sentences = ("\n" * 4).join(f"{name}。\n{tale}" for name in names)  # first lines that are sentences
    assert [c.title for c in novel(tmp_path, sentences, "s.txt").book.chapters()][:2] == [
        "第一部分",
        "第二部分",
    ]


@pytest.mark.parametrize(
    "text",
    [
        # double-spaced paragraphs, two blank lines now and then: the usual run is one, two more is none
        "\n\n".join(["他走进院子，看见一棵老树，树下坐着一个老人。" * 5] * 800).replace("\n\n", "\n\n\n", 30),
        # long runs between short scenes: pieces far under a chapter's size
        ("\n" * 5).join(["他走进院子。\n她笑了。"] * 100)
        + "\n"
        + "他走进院子，看见一棵老树，树下坐着一个老人。\n" * 3000,
        # long runs too many: every fifth paragraph
        "\n".join(
            ("他走进院子，看见一棵老树，树下坐着一个老人。" * 10) + ("\n" * 5 if i % 5 == 0 else "")
            for i in range(600)
        ),
    ],
)
def test_blank_lines_that_do_not_part_chapters_leave_the_division_by_size(tmp_path, text):
    found = list(novel(tmp_path, text).book.chapters())
    assert all(20_000 <= c.chars <= 60_000 for c in found[:-1]) and len(found) >= 2


def test_extras_titled_as_a_series_after_the_last_chapter_are_chapters(tmp_path):
    """诡秘之主 from a download: after 第N章 and 完本感言, 一个普通人的日常（一） … （八), no 第N章 of their
    own."""
    text = (
        "".join(f"第{n}章 标题{n}\n{BODY * 10}" for n in range(1, 6)) + f"完本感言\n{BODY * 3}"
    )  # 100 lines and more
    extras = "".join(f"一个普通人的日常（{n}）\n{BODY * 3}" for n in "一二三四")
    assert [t for _, t in contents(novel(tmp_path, text + extras))][-5:] == [
        "完本感言",
        "一个普通人的日常（一）",
        "一个普通人的日常（二）",
        "一个普通人的日常（三）",
        "一个普通人的日常（四）",
    ]
    tales = "".join(
        f"星野变 {n}\n{BODY * 3}" for n in "一二三"
    )  # 九州缥缈录's tales: a space, then the numeral
    assert [t for _, t in contents(novel(tmp_path, text + tales, "t.txt"))][-3:] == [
        "星野变 一",
        "星野变 二",
        "星野变 三",
    ]
    # not a series: numbers that do not run from one, or nothing under each
    for tail in (
        "".join(f"某某的日常（{n}）\n{BODY * 3}" for n in "二四六"),
        "".join(f"注释（{n}）\n" for n in "一二三四"),
    ):
        assert len(contents(novel(tmp_path, text + tail, "x.txt"))) == 6


def test_a_chapter_over_100000_characters_is_divided_under_one_title(tmp_path):
    sentence = "他走进院子，看见一棵老树，树下坐着一个老人。"
    text = "第一章 长\n" + "\n".join([sentence * 20] * 500) + f"\n第二章 短\n{BODY}"
    titles = [c.title for c in novel(tmp_path, text).book.chapters()]
    assert titles[0] == "第一章 长（一）" and titles[-1] == "第二章 短" and len(titles) >= 5


def test_repeated_heading_lines_and_paged_chapters_are_one_chapter(tmp_path):
    text = (
        f"二十 悄立雁门\n\n二十 悄立雁门\n\n二十 悄立雁门\n{BODY}".replace("二十", "第二十章")
        + f"《书》第二十一章(1)\n{BODY}《书》第二十一章(2)<b\n{BODY}第二十二章\n{BODY}"
    )
    loaded = novel(tmp_path, text)
    assert [t for _, t in contents(loaded)] == ["第二十章 悄立雁门", "第二十一章", "第二十二章"]


def test_a_number_alone_then_the_number_with_its_title_is_one_heading(tmp_path):
    """上古's pages: `11` alone, then `11、破关`, then the text: one chapter titled 11 破关, no empty one."""
    text = "".join(f"{n}\n{n}、破关{n}\n{BODY * 3}" for n in range(11, 16))
    titles = [t for _, t in contents(novel(tmp_path, text))]
    assert titles == [f"{n} 破关{n}" for n in range(11, 16)]


def test_a_titles_space_stays_where_a_join_space_in_the_text_goes(tmp_path):
    """SP-3 runs on paragraphs only: 第十章 单身狗犯法吗？ keeps the space between label and name."""
    loaded = novel(
        tmp_path,
        f"第十章 单身狗犯法吗？\n他说：“老胡 家的团 圆媳妇来啦，你还不 知道。”\n{BODY}第十一章 第一夜："
        f"偷袭\n{BODY}",
    )
    first = next(loaded.book.chapters())
    assert [t for _, t in contents(loaded)] == ["第十章 单身狗犯法吗？", "第十一章 第一夜：偷袭"]
    assert first.blocks[0].text == "他说：“老胡家的团圆媳妇来啦，你还不知道。”"


def test_a_heading_given_again_as_its_bare_number_is_one_heading(tmp_path):
    """A site's page header under the chapter's title: 第2章 来客 / 第002章 (another tool's fixture)."""
    text = f"第一章 开张\n{BODY}第2章 来客\n第002章\n{BODY}第3章 算账\n{BODY}"
    assert [t for _, t in contents(novel(tmp_path, text))] == ["第一章 开张", "第2章 来客", "第3章 算账"]
    # a bare label with another number is a chapter of its own
    other = f"第一章 开张\n{BODY}第2章 来客\n{BODY}第003章\n{BODY}"
    assert [t for _, t in contents(novel(tmp_path, other, "o.txt"))] == [
        "第一章 开张",
        "第2章 来客",
        "第003章",
    ]


def test_a_page_header_before_every_heading_is_dropped(tmp_path):
    text = "".join(f"古龙《多情剑客无情剑》\n第{n}章 标题\n{BODY}" for n in "一二三四")
    loaded = novel(tmp_path, text)
    assert all("古龙" not in p.text for c in loaded.book.chapters() for p in c.blocks if hasattr(p, "text"))
    assert "I303" in codes(loaded)


def test_halves_of_one_chapter_are_not_reported_as_duplicates(tmp_path):
    text = f"第一章 甲（上）\n{BODY}第一章 甲（下）\n{BODY}第二章 乙\n{BODY}"
    assert "W302" not in codes(novel(tmp_path, text))


def test_heading_core_leaves_a_plain_heading_alone():
    assert heading_core("第一章 风起") == "第一章 风起"


def test_legado_toc_rules_are_candidates_and_the_best_numbered_wins(tmp_path):
    import shutil
    from pathlib import Path

    shutil.copy(Path(__file__).resolve().parents[1] / "fixtures" / "legado_toc.json", tmp_path / "toc.json")
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "novel.txt").write_text("".join(f"回忆{n}\n{BODY}" for n in "一二三四"), "utf-8")
    (tmp_path / "book.toml").write_text(
        '[source]\ndir = "source/novel.txt"\ntoc_rules = "toc.json"\n', "utf-8"
    )
    loaded = load_book(tmp_path)
    assert [c.title for c in loaded.book.chapters()] == [f"回忆{n}" for n in "一二三四"]
    without = tmp_path / "plain.txt"
    without.write_text((tmp_path / "source" / "novel.txt").read_text("utf-8"), "utf-8")
    assert len(list(load_book(without).book.chapters())) < 4  # the built-in rules know no 回忆N
    # the 第N话 rule and the built-in one agree
    (tmp_path / "source" / "novel.txt").write_text(
        "".join(f"第{n}话 标题{n}\n{BODY}" for n in "一二三四"), "utf-8"
    )
    assert [c.number for c in load_book(tmp_path).book.chapters()] == [1, 2, 3, 4]


def test_a_broken_toc_rule_file_is_an_error_naming_the_rule(tmp_path):
    from click.testing import CliRunner

    from bookbuilder.cli import main

    (tmp_path / "toc.json").write_text('[{"name": "坏的", "rule": "第(", "enable": true}]', "utf-8")
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "1.txt").write_text("第一章\n文。", "utf-8")
    (tmp_path / "book.toml").write_text('[source]\ntoc_rules = "toc.json"\n', "utf-8")
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 1 and "E003" in result.output and "坏的" in result.output


def _fixed(tmp_path, toml: str, text: str):
    (tmp_path / "source").mkdir(exist_ok=True)
    (tmp_path / "source" / "novel.txt").write_text(text, "utf-8")
    (tmp_path / "book.toml").write_text(toml, "utf-8")
    return load_book(tmp_path)


FIXABLE = f"第一章 甲\n{BODY}第二章 乙\n{BODY}第七回合他赢了\n第三章 丙\n{BODY}第四章 丁\n{BODY}"


@pytest.mark.parametrize(
    "toml, titles",
    [
        (
            '[[fix]]\ntitle = "第二章 乙"\nrename = "第二章 乙改"\n',
            ["第一章 甲", "第二章 乙改", "第三章 丙", "第四章 丁"],
        ),
        (
            '[[fix]]\nat = "novel.txt:7"\nas = "chapter"\n',
            ["第一章 甲", "第二章 乙", "第七回 合他赢了", "第三章 丙", "第四章 丁"],
        ),
        ('[[fix]]\ntitle = "第三章 丙"\nas = "text"\n', ["第一章 甲", "第二章 乙", "第四章 丁"]),
        ('[[fix]]\ntitle = "第四章 丁"\nmerge = true\n', ["第一章 甲", "第二章 乙", "第三章 丙"]),
        ('[[fix]]\nat = "novel.txt:1"\nas = "volume"\n', ["第二章 乙", "第三章 丙", "第四章 丁"]),
    ],
)
def test_fixes_in_book_toml(tmp_path, toml, titles):
    loaded = _fixed(tmp_path, toml, FIXABLE)
    assert [c.title for c in loaded.book.chapters() if c.kind == "chapter"] == titles
    assert "I305" in codes(loaded)


def test_a_fix_by_title_survives_edits_to_the_source_and_toc_shows_it(tmp_path):
    from bookbuilder.check import report

    toml = '[[fix]]\ntitle = "第二章 乙"\nrename = "第二章 乙改"\n'
    _fixed(tmp_path, toml, FIXABLE)
    loaded = _fixed(tmp_path, toml, "多出来的一行。\n\n" + FIXABLE)
    assert "第二章 乙改" in [c.title for c in loaded.book.chapters()]
    text = report.toc_text(loaded.book, loaded.diagnostics)
    assert "[fix #1: 第二章 乙改 is a chapter (renamed)]" in text


def test_a_fix_that_matches_nothing_is_an_error_naming_its_entry(tmp_path):
    from bookbuilder.diagnostics import BookError

    with pytest.raises(BookError) as e:
        _fixed(tmp_path, '[book]\ntitle = "书"\n\n[[fix]]\ntitle = "第九章 无"\nas = "text"\n', FIXABLE)
    assert e.value.diagnostic.code == "E009" and e.value.diagnostic.at.line == 4 and "#1" in str(e.value)


def test_toc_marks_what_it_is_unsure_of(tmp_path):
    from click.testing import CliRunner

    from bookbuilder.cli import main

    path = tmp_path / "novel.txt"
    path.write_text(
        f"第一章 甲\n{BODY * 20}第三章 丙\n{BODY * 20}第三回合，李四就被打倒在地。\n第四章 丁\n短。\n",
        "utf-8",
    )
    rows = __import__("json").loads(CliRunner().invoke(main, ["toc", str(path), "--json"]).output)
    unsure = {row["title"]: row["unsure"] for row in rows}
    assert unsure["第一章 甲"] == [] and "a chapter missing before it" in unsure["第三章 丙"]
    assert "a look-alike line inside" in unsure["第三章 丙"] and "under 200 characters" in unsure["第四章 丁"]
    text = CliRunner().invoke(main, ["toc", str(path)]).output
    assert any(line.startswith("?") and "第三章 丙" in line for line in text.splitlines())


def test_a_volume_named_again_in_short_is_the_same_volume_and_notes_are_not_volumes(tmp_path):
    text = (
        f"第二篇 巡天使\n第一章 甲\n{BODY}第二篇 第二章 乙\n{BODY}第二篇‘巡天使’结束，"
        "第三篇‘江州’明天更新！\n"
        f"第三篇‘江州’正式开始！\n第三篇 江州 第一章 丙\n{BODY}第三篇 第二章 丁\n{BODY}"
    )
    loaded = novel(tmp_path, text)
    assert [(v.title, len(v.chapters)) for v in loaded.book.volumes] == [
        ("第二篇 巡天使", 2),
        ("第三篇 江州", 2),
    ]


@pytest.mark.parametrize(
    "first, kept",
    [
        (
            "第二部【青云路】第一章【委任】清晨，我刚起床。",
            "清晨，我刚起床。",
        ),  # the heading glued to the text
        ("第一章【委任】清晨，我刚起床。", "清晨，我刚起床。"),
        ("清晨，我刚起床，想起第一章的事。", "清晨，我刚起床，想起第一章的事。"),
    ],
)
def test_a_heading_repeated_at_the_start_of_the_text_is_cut_off_it(tmp_path, first, kept):
    loaded = novel(tmp_path, f"第二部【青云路】 第一章 【委任】（上）\n{first}\n{BODY}第二章 别离\n{BODY}")
    assert next(loaded.book.chapters()).blocks[0].text == kept


# A volume number glued before the chapter's (第二十一集第164章…): a fix names the line as the source has it.
GLUED_VOLUME = f"第162章 甲\n{BODY}第163章 乙\n{BODY}第二十一集第164章飘渺，重逢\n{BODY}第165章 丁\n{BODY}"


@pytest.mark.parametrize(
    "fix",
    [
        'as = "chapter"\nrename = "第164章 飘渺，重逢"\n',
        'as = "chapter"\n',
    ],
)
def test_a_forced_heading_keeps_its_chapter_number_not_its_volumes(tmp_path, fix):
    from bookbuilder.render.names import document_names

    loaded = _fixed(tmp_path, f'[[fix]]\ntitle = "第二十一集第164章飘渺，重逢"\n{fix}', GLUED_VOLUME)
    chapters = [c for c in loaded.book.chapters() if c.kind == "chapter"]
    assert [c.number for c in chapters] == [162, 163, 164, 165]
    assert document_names(loaded.book)[0][2].endswith("ch00164")
    assert not {"W301", "W303"} & set(codes(loaded))


@pytest.mark.parametrize(
    "line, number",
    [
        ("第二十一集第164章飘渺，重逢", 164),  # the 章's number, not the 集's
        ("第三卷第十二回 归来", 12),
        ("◎卷十三·2040◎ 标题", 2040),  # 卷十三 is the volume's
        ("第二十一集 2041 标题", 2041),
        ("七十二 归来", 72),  # no 第N章: its first number
        ("卷三", 3),  # only a volume's number: that one
        ("归来", None),
    ],
)
def test_the_chapter_number_of_a_line_another_rule_took(line, number):
    from bookbuilder.structure.fixes import chapter_number

    assert chapter_number(line) == number


def _toc_ruled(tmp_path, rule: str, text: str):
    import json

    (tmp_path / "toc.json").write_text(json.dumps([{"name": "书签", "rule": rule, "enable": True}]), "utf-8")
    (tmp_path / "source").mkdir(exist_ok=True)
    (tmp_path / "source" / "novel.txt").write_text(text, "utf-8")
    (tmp_path / "book.toml").write_text('[source]\ntoc_rules = "toc.json"\n', "utf-8")
    return load_book(tmp_path)


def test_a_toc_rule_whose_headings_open_with_a_volume_number_numbers_by_the_chapters(tmp_path):
    text = "".join(f"◎卷十三·{n}◎ 标题{n}\n{BODY}" for n in range(2040, 2044))
    loaded = _toc_ruled(tmp_path, r"^◎卷.{1,8}◎", text)
    assert [c.number for c in loaded.book.chapters()] == [2040, 2041, 2042, 2043]


def test_a_toc_rule_that_loses_to_the_built_in_headings_says_why(tmp_path):
    text = "".join(f"第{n}章 标题{n}\n{BODY}◎ 注\n{BODY}" for n in range(1, 5))
    loaded = _toc_ruled(tmp_path, r"^◎ 注$", text)
    assert [c.number for c in loaded.book.chapters()] == [1, 2, 3, 4]
    notes = [d.message for d in loaded.diagnostics if d.code == "I304" and "书签" in d.message]
    assert notes and "4 lines" in notes[0] and "not used" in notes[0], notes


@pytest.mark.parametrize(
    "lines, taken",
    [
        # the book's first label with its 第 lost, right before 第二回, 第三回: chapter 1
        (["一回 周生渡江", "第二回 访友", "第三回 赴考", "第四回 还乡"], [1, 2, 3, 4]),
        # not in another unit than the book's own headings
        (["一回 周生渡江", "第二章 访友", "第三章 赴考", "第四章 还乡"], [2, 3, 4]),
        # nor where the book's headings do not start at 2 right after it
        (["一回 周生渡江", "第五回 访友", "第六回 赴考", "第七回 还乡"], [5, 6, 7]),
        (["第二回 访友", "一回 周生渡江", "第三回 赴考", "第四回 还乡"], [2, 3, 4]),
    ],
)
def test_a_first_label_that_lost_its_di_is_chapter_one_only_before_the_second(lines, taken):
    from bookbuilder.structure.heading_choice import choose
    from bookbuilder.structure.headings import candidate

    cands = {i: candidate(line, i + 1) for i, line in enumerate(lines)}
    choice = choose(cands, {i: 10 * i for i in cands})  # ten lines of text under each
    assert [h.number for h in choice.headings.values()] == taken


def test_a_hui_title_glued_to_its_text_in_a_long_line_with_spaces_is_one_heading(tmp_path):
    """官場現形記 from one site: 第三回, four no-break spaces, the couplet title, then 話說 and the
    chapter's text on one line of thousands of characters, long and spaced enough to be read as a
    paste. The label and its title are one heading, and the text opens the chapter; a forum paste
    without an opening word after the title is still cut into its paragraphs."""
    story = "他走進院子，看見一棵老樹。樹下坐著一個老人，手裡拿著一本書。" * 12
    titles = [
        "苦鑽差黑夜謁黃堂\u3000悲鐫級藍呢糊綠轎",
        "白簡留情補祝壽\u3000黃金有價快升官",
        "認娘舅當場露馬腳\u3000飾嬌女背地結鴛盟",
    ]
    text = "".join(f"第{n}回\xa0\xa0\xa0\xa0{t}話說{story}且聽下回分解。\n" for n, t in zip("一二三", titles))
    loaded = novel(tmp_path, text, "某記.txt")
    assert [t for _, t in contents(loaded)] == [
        f"第{n}回 {t.replace(chr(0x3000), ' ')}" for n, t in zip("一二三", titles)
    ]
    first = next(loaded.book.chapters()).blocks[0].text
    assert first.startswith("話說他走進院子") and first.endswith("且聽下回分解。")
    paste = "".join(f"第{n}章  风起\n　　{story}　　{story}\n" for n in "一二三")
    pasted = novel(tmp_path, paste, "某帖.txt")
    assert [t for _, t in contents(pasted)] == [f"第{n}章 风起" for n in "一二三"]
    assert len(next(pasted.book.chapters()).blocks) == 2


def test_an_editions_preface_before_chapter_one_is_a_chapter_of_its_own(tmp_path):
    """金庸作品集“三联版”序 over four pages before 第一回 (射雕英雄传, 天龙八部 from two sites): the preface
    a reader finds in the contents, not the intro page; its first character starts no other rule."""
    text = "某书\n金庸作品集“三联版”序\n" + BODY * 3 + "".join(f"第{n}回 风起\n{BODY}" for n in "一二三")
    loaded = novel(tmp_path, text, "某书.txt")
    assert [(c.title, c.kind) for c in loaded.book.chapters()][:2] == [
        ("金庸作品集“三联版”序", "front"),
        ("第一回 风起", "chapter"),
    ]


NAMES = ["重生", "坐井观天", "罚站", "导引之术", "雷火圣典", "威胁", "灵魂海", "测试天赋", "出发", "杀人啦"]


def crawled(empty: set[int], order: list[int] | None = None) -> str:
    """A crawler's download of chapters 1 … 10 whose text it lacks for some: those chapters' headings
    alone on their lines (妖神记, 永生, 我的徒弟都是大反派 from one crawler), in `order`."""
    return "".join(
        f"第{han_number(n)}章 {NAMES[n - 1]}\n\n" + ("" if n in empty else BODY * 3)
        for n in (order or range(1, 11))
    )


@pytest.mark.parametrize(
    "empty, order",
    [
        ({1, 2, 3, 4}, None),  # at the top, numbered on into the first chapter with text
        ({3, 4, 5, 7, 8}, None),  # in the middle, numbered on from the chapters around them
        ({1, 2, 3, 4, 5, 6}, [1, 2, 4, 3, 5, 6, 7, 8, 9, 10]),  # one misordered among six
    ],
)
def test_chapters_whose_text_the_download_lacks_are_chapters(tmp_path, empty, order):
    loaded = novel(tmp_path, crawled(empty, order))
    assert len(contents(loaded)) == 10
    assert "I302" not in codes(loaded)


def test_a_contents_at_the_top_is_no_run_of_empty_chapters(tmp_path):
    # its chapters named again below with their text
    listed = "".join(f"第{han_number(n)}章 {NAMES[n - 1]}\n" for n in range(1, 6)) + "\n" + crawled(set())
    assert len(contents(novel(tmp_path, listed))) == 10
    # named otherwise below, but the numbering starts again after it
    other = "".join(f"第{han_number(n)}章 某{n}\n" for n in range(1, 6)) + "\n" + crawled(set())
    assert len(contents(novel(tmp_path, other, "other.txt"))) == 10
    # misordered more than a crawler does: a list in some other order
    shuffled = crawled({1, 2, 3, 4, 5, 6}, [3, 1, 5, 2, 6, 4, 7, 8, 9, 10])
    assert len(contents(novel(tmp_path, shuffled, "shuffled.txt"))) < 10


def test_an_appendix_posted_in_pages_is_one_entry(tmp_path):
    """A crawler's pages of 射雕英雄传's appendix, 附录一：成吉思汗家族(1) … (3), as its 回 are (第一回(2)):
    one entry; two appendices each in pages stay two."""
    text = "第一回 风雪惊变\n" + BODY * 3 + "后记\n" + BODY
    text += "".join(f"附录一：成吉思汗家族({n})\n{BODY * 2}" for n in (1, 2, 3))
    text += "".join(f"附录二：关于全真教({n})\n{BODY * 2}" for n in (1, 2))
    titles = [t for _, t in contents(novel(tmp_path, text))]
    assert titles == ["第一回 风雪惊变", "后记", "附录一：成吉思汗家族", "附录二：关于全真教"]


def test_a_contents_at_each_end_leaves_the_first_chapter_its_heading(tmp_path):
    """白夜行 from an e-book: 目 录 and 第一章 … 第五章 at the top, the chapters with their text, then the
    e-book's Table of Contents, 第一章 … 第五章 again, at the end. The text's 第一章 is named again only by
    that list: it opens the first chapter, and both lists go."""
    listed = "".join(f"第{n}章\n\n" for n in "一二三四五")
    text = "目 录\n\n" + listed + "第一章\n" + BODY * 3 + "".join(f"第{n}章\n{BODY * 3}" for n in "二三四五")
    loaded = novel(tmp_path, text + "Table of Contents\n" + listed)
    assert [t for _, t in contents(loaded)] == [f"第{n}章" for n in "一二三四五"]
    assert [len(c.blocks) for c in loaded.book.chapters() if c.title == "第一章"] == [6]
