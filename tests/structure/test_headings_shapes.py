"""Heading shapes from more real downloads (issue 16; rows in docs/rules-notes.md): marks and
labels around headings, tales under stars, numbers glued to their titles, a document's own
numbered outline inside a chapter. Synthetic fixtures of the real files' shapes; each with the
prose or ornament that must stay text."""

import pytest

from bookbuilder.pipeline import load_book
from bookbuilder.structure.headings import candidate

BODY = "他走进院子，看见一棵老树。\n树下坐着一个老人。\n"


def novel(tmp_path, text: str, name: str = "novel.txt"):
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return load_book(path, jobs=1)


def titles(loaded) -> list[str]:
    return [c.title for c in loaded.book.chapters() if c.kind != "intro"]


@pytest.mark.parametrize(
    "line",
    [
        "3个人走了进来",
        "5天后",
        "10点钟",
        "2号楼",
        "2015年的夏天",
        "1米八的个子",  # a number and its counter word
        "★力量：10",
        "★注意！",
        "★★★",
        "☆，他说",
        "\ue5e5他笑了。",
        "-------凤舞文学网-------",
        "————这是郁闷的分割线————————",
        "———序章·完———",
        "------------",  # framed, not titles
        "第一，他说",
        "第一次",
        "第三者",
        "第二天",  # 第 and a numeral, no unit: prose
        "外面下雨了",
        "外传这个词",
        "第二话就说完了。",
        "外传——",  # a list's label (镜's header: 前传—— 《神之右手》 正传—— …)
    ],
)
def test_prose_and_ornaments_are_not_these_headings(line):
    assert candidate(line, 1) is None


def test_tales_under_stars_are_chapters(tmp_path):
    """格林童话's shape: 200 tales, each title after a star at the start of its line."""
    tales = ["青蛙王子", "猫和老鼠合伙", "圣母的孩子", "狼和七只小山羊"]
    loaded = novel(tmp_path, "".join(f"★{t}\n　　{BODY}　　他又说了一遍。\n　　她笑了。\n" for t in tales))
    assert titles(loaded) == tales


def test_a_running_sequence_of_di_numerals_without_a_unit_are_chapters(tmp_path):
    """爱的教育: 第一, then 第二  十一月 … 第十  七月 (the months of the diary); in a book with 第N章
    headings a 第一 line is a list's item, and 第一次 / 第二天 are never headings."""
    text = (
        "第一\n"
        + PROSE
        + "".join(f"第{n}  {m}\n" + PROSE for n, m in zip("二三四", ["十一月", "十二月", "一月"]))
    )
    assert titles(novel(tmp_path, text)) == ["第一", "第二 十一月", "第三 十二月", "第四 一月"]
    numbered = "".join(f"第{n}章 题{n}\n" + PROSE for n in "一二三") + "第一\n" + PROSE + "第二\n" + PROSE
    assert titles(novel(tmp_path, numbered, "n.txt")) == ["第一章 题一", "第二章 题二", "第三章 题三"]


def test_titles_framed_by_separators_are_chapters(tmp_path):
    """听雪楼: -------------------【火焰鸢尾】-------------------, then 【病】, then 【上篇】 【中篇】 【下
    篇】."""
    names = ["火焰鸢尾", "病", "上篇", "中篇"]
    loaded = novel(
        tmp_path,
        "".join(f"{'-' * 19}【{t}】{'-' * 19}\n　　{BODY}　　他又说了一遍。\n　　她笑了。\n" for t in names),
    )
    assert titles(loaded) == names
    # two framed lines are no family: text
    two = "".join(f"====={t}=====\n　　{BODY}" for t in names[:2])
    assert titles(novel(tmp_path, two, "two.txt")) == ["第一部分"]


def test_starred_points_one_under_another_are_text(tmp_path):
    """Stars before a list's points (a character sheet, a notice) are not chapters."""
    text = "第一章 开始\n" + BODY + "★力量强\n★速度快\n★耐力高\n★悟性好\n" + BODY + "第二章 继续\n" + BODY
    assert titles(novel(tmp_path, text)) == ["第一章 开始", "第二章 继续"]
    in_chapters = "".join(f"第{n}章 题{n}\n★小标题{n}\n{BODY}{BODY}" for n in "一二三四")
    assert titles(novel(tmp_path, in_chapters, "ornaments.txt")) == [f"第{n}章 题{n}" for n in "一二三四"]


def test_numbers_glued_to_titles_are_chapters_and_a_documents_outline_inside_one_stays_text(tmp_path):
    """三体's shape: `1科学边界` … `35虫子` after separator lines, and inside chapter 3 a report
    whose outline is numbered 一 / 1 / （2） / 二 … : those lines are its text, not chapters."""
    names = ["科学边界", "台球", "红岸之三", "红岸之四", "叶文洁"]
    outline = (
        "一 世界基础科学研究趋势\n1 物理学\n2 生物学\n（2）信息发送\n二 外星文明探索\n1 目前国际研究动向\n"
    )
    text = "".join(
        f"------------\n\n{n}{t}\n\n{BODY}" + (outline + BODY if n == 3 else "")
        for n, t in enumerate(names, 1)
    )
    loaded = novel(tmp_path, text)
    assert titles(loaded) == [f"{n} {t}" for n, t in enumerate(names, 1)]
    third = [c for c in loaded.book.chapters()][2]
    assert [b.text for b in third.blocks if hasattr(b, "text")][2:5] == [
        "一 世界基础科学研究趋势",
        "1 物理学",
        "2 生物学",
    ]


def test_a_page_label_right_above_the_prologue_is_no_chapter(tmp_path):
    """三体II from one site: `[正文 第1节]` then 序章, then `[正文 第2节]` …: 序章 is the first
    chapter, not an empty 第1节 before it."""
    text = "[正文 第1节]\n\n序章\n" + BODY + "".join(f"[正文 第{n}节]\n{BODY}" for n in (2, 3, 4))
    loaded = novel(tmp_path, text)
    assert titles(loaded) == ["序章", "第2节", "第3节", "第4节"]
    assert "W305" not in [d.code for d in loaded.diagnostics]


PROSE = "　　太阳从大玻璃窗透进来，照到大白纸糊的墙上，照到三屉桌上，照到我的小床上来了。\n" * 8


def test_titles_at_the_margin_over_indented_prose_are_the_chapters(tmp_path):
    """城南旧事's shape: each story's title at the margin, its sections 一, 二 … on lines of their
    own, the prose indented; one story without sections. A poem at the margin stays text."""
    poem = "我们看海去\n蓝色的大海上\n扬着白色的帆\n"
    text = (
        "惠安馆传奇\n一\n"
        + PROSE * 2
        + "二\n"
        + PROSE * 2
        + "我们看海去\n一\n"
        + PROSE
        + poem
        + PROSE
        + "二\n"
        + PROSE * 3
        + "驴打滚儿\n"
        + PROSE * 3
        + "兰姨娘\n一\n"
        + PROSE * 3
    )
    loaded = novel(tmp_path, text)
    shape = [(v.title, [c.title for c in v.chapters]) for v in loaded.book.volumes]
    assert shape == [
        ("惠安馆传奇", ["一", "二"]),
        ("我们看海去", ["一", "二"]),
        ("驴打滚儿", ["驴打滚儿"]),
        ("兰姨娘", ["一"]),
    ]
    poem_lines = [b.text for b in loaded.book.volumes[1].chapters[0].blocks if hasattr(b, "text")]
    assert "\n".join(poem.split()) in "\n".join(poem_lines)


@pytest.mark.parametrize(
    "text",
    [
        # the prose at the margin too: a short line there means nothing
        "惠安馆传奇\n"
        + PROSE.replace("　　", "") * 3
        + "我们看海去\n"
        + PROSE.replace("　　", "") * 3
        + "兰姨娘\n"
        + PROSE.replace("　　", "") * 3,
        # short margin lines that are sentences, dialogue, a list, a refrain
        PROSE
        + "他走了。\n"
        + PROSE
        + "“你去哪里”\n"
        + PROSE
        + "第一\n第二\n第三\n"
        + PROSE
        + "啊朋友再见\n"
        + PROSE,
    ],
)
def test_the_margin_says_nothing_where_prose_is_not_indented_or_the_lines_are_not_titles(tmp_path, text):
    loaded = novel(tmp_path, text * 3)
    assert all(c.kind in ("chapter", "part") and c.title.startswith("第") for c in loaded.book.chapters())


def test_margin_titles_without_sections_are_chapters_and_a_few_section_numbers_text(tmp_path):
    """张晓风经典散文集's shape: 50 essays, each title at the margin, one of them with sections 一, 二."""
    essays = [
        "地毯的那一端",
        "初雪",
        "孤意与深情",
        "一方纸镇",
        "春之怀古",
        "行道树",
        "花朝",
        "雨天的书",
        "玉想",
        "不识",
    ]
    text = "".join(f"{t}\n" + PROSE for t in essays) + "她曾教过我\n一\n" + PROSE + "二\n" + PROSE
    loaded = novel(tmp_path, text)
    assert titles(loaded) == essays + ["她曾教过我"]
    assert [v.title for v in loaded.book.volumes] == [None]
    assert "二" in [b.text for b in list(loaded.book.chapters())[-1].blocks if hasattr(b, "text")]


def test_a_chapter_files_short_margin_lines_are_left_alone(tmp_path):
    """A file of fewer than 100 lines is one chapter's: its margin says nothing."""
    text = "第一章 开始\n" + "".join(f"{t}\n" + PROSE for t in ("地毯的那一端", "初雪", "孤意与深情"))
    assert titles(novel(tmp_path, text)) == ["第一章 开始"]


def test_the_same_starred_name_under_every_title_is_text(tmp_path):
    """简媜文集: `◎简` (the author) under each essay's title: no chapter is called 简."""
    text = "".join(f"《{t}》\n◎简\n{BODY}{BODY}" for t in ("水问", "烟波蓝", "隔夜", "美丽的茧"))
    assert not any(c.title == "简" for c in novel(tmp_path, text).book.chapters())


def test_a_label_at_the_margin_is_no_title(tmp_path):
    """沉香如屑: the blurb under `君重写版文案`, then the titled parts: the blurb is the introduction."""
    parts = ["不算开始的开始", "犹似故人归", "灯火阑珊处", "沉香如屑时"]
    text = (
        "君重写版文案\n这是一个关于一只名叫颜淡的千年狗腿莲花精，和她的山主大人、天师同学的故事。\n"
        + "".join(f"{t}\n" + PROSE * 3 for t in parts)
        + "【正文】\n"
        + PROSE
    )
    loaded = novel(tmp_path, text)
    assert titles(loaded) == parts
    assert next(loaded.book.chapters()).kind == "intro"


def test_titles_at_the_margin_after_the_numbered_chapters_stop(tmp_path):
    """曾许诺's shape: 第一章 … 第四章, then thousands of lines whose chapters are titled at the
    margin alone (辜负当年林下意, 最是一生好景时, …): they are chapters too."""
    later = ["辜负当年林下意", "最是一生好景时", "青杠木百角藤", "薄情转是多情累"]
    text = "".join(f"第{n}章 题{n}\n" + PROSE for n in "一二三四") + "".join(
        f"{t}\n" + PROSE * 70 for t in later
    )
    loaded = novel(tmp_path, text)
    assert titles(loaded) == [f"第{n}章 题{n}" for n in "一二三四"] + later


def test_a_numbered_book_keeps_its_margin_lines_as_text(tmp_path):
    """The same margin lines in a book whose 第N章 headings go on to the end: text."""
    text = "".join(
        f"第{n}章 题{n}\n" + PROSE + ("辜负当年林下意\n" if n == "二" else "") + PROSE for n in "一二三四五六"
    )
    assert len(titles(novel(tmp_path, text))) == 6


LONG_PROSE = PROSE * 60  # 480 lines: four of them make a stretch the 第N章 headings left


def test_bare_numbers_are_chapters_where_the_numbered_headings_stop_for_long(tmp_path):
    """蜀山的少年's shape: 第一章 … 第四章, then the author numbers 5 飞翔的力量, 6 斗球 … ; 云中歌's
    second part under Chapter 1, Chapter 2 (numbering from 1 again: a part of its own)."""
    text = "".join(f"第{n}章 题{n}\n" + PROSE for n in "一二三四")
    text += "".join(f"{n} 新题{n}\n" + LONG_PROSE for n in range(5, 9))
    assert titles(novel(tmp_path, text)) == [f"第{n}章 题{n}" for n in "一二三四"] + [
        f"{n} 新题{n}" for n in range(5, 9)
    ]
    english = "".join(f"第{n}章 题{n}\n" + PROSE for n in "一二三四") + "".join(
        f"Chapter {n} 英题\n" + LONG_PROSE for n in (1, 2, 3, 4)
    )
    assert titles(novel(tmp_path, english, "english.txt"))[4:] == [f"Chapter {n} 英题" for n in (1, 2, 3, 4)]


@pytest.mark.parametrize(
    "after",
    [
        "".join(
            f"（{n}）\n" + LONG_PROSE for n in "一二三四五"
        ),  # right under the last chapter: its sections
        "这是后记。\n"
        + LONG_PROSE * 4
        + "".join(f"{n} 问题{n}？\n回答。\n" for n in range(1, 15)),  # a questionnaire
    ],
)
def test_bare_numbers_after_the_last_chapter_stay_text_when_they_are_its_sections_or_a_list(tmp_path, after):
    text = "".join(f"第{n}章 题{n}\n" + PROSE for n in "一二三") + "第四章 题四\n" + after
    assert titles(novel(tmp_path, text)) == [f"第{n}章 题{n}" for n in "一二三四"]


@pytest.mark.parametrize(
    "indent", [" " * 18, " "]
)  # centred (沉香如屑); one space where prose has 　　 (半开莲塘寄浮生)
def test_titles_set_apart_by_their_indent_are_the_chapters(tmp_path, indent):
    names = ["一具棺材一个坑", "赌局和小狐狸", "日行一善", "天师唐周", "前缘（上）"]
    text = "半开莲塘寄浮生\n作者：夏初临\n" + "".join(f"{indent}{t}\n" + PROSE * 3 for t in names)
    text += PROSE + "              ——李贺《龙夜吟》\n" + PROSE
    loaded = novel(tmp_path, text)
    assert titles(loaded) == names
    assert loaded.book.meta.title == "半开莲塘寄浮生"


def test_headings_behind_the_books_name_are_chapters(tmp_path):
    """九州缥缈录 from one site: `缥缈录 第一章 蛮荒 一` … before every heading, no 《》 around the name;
    龙族5's site spells its name two ways. A sentence with a space before 第 stays text."""
    text = "".join(f"    缥缈录 第{n}章 题{n}\n" + PROSE * 2 for n in "一二三四")
    text += "    龙族5 第五章 题五\n" + PROSE * 2 + "    龙族5 第六章 题六\n" + PROSE * 2
    text += "    他说 第三章写得好，就走了\n" + PROSE * 2
    assert titles(novel(tmp_path, text)) == [f"第{n}章 题{n}" for n in "一二三四五六"]


def test_headings_glued_to_the_books_name_in_a_chapter_many_times_too_long(tmp_path):
    """诛仙 from one site: after 第二十七章, the next volume's chapters as 诛仙六第二章 鲜血 (and
    《诛仙》六 第一章 惊现), so 第二十七章 ran on for 90,000 characters. In a chapter many times the
    others' length, headings behind the book's name are looked for, glued or spaced."""
    text = "".join(f"第{n}章 题{n}\n" + PROSE * 4 for n in range(1, 11))
    text += (
        "《某书》六 第一章 惊现\n"
        + PROSE * 8
        + "".join(f"某书六第{n}章 新{n}\n" + PROSE * 8 for n in "二三四五六七八")
    )
    found = titles(novel(tmp_path, text))
    assert found[:10] == [f"第{n}章 题{n}" for n in range(1, 11)]
    assert found[10:] == ["第一章 惊现"] + [f"第{n}章 新{n}" for n in "二三四五六七八"]
    # the same lines under chapters of their own length: the book's own, left as they are
    short = (
        "".join(f"第{n}章 题{n}\n" + PROSE * 4 for n in range(1, 11))
        + "某书六第二章写得好，他说\n"
        + PROSE * 4
    )
    assert len(titles(novel(tmp_path, short, "s.txt"))) == 10


def test_titles_behind_the_files_own_name_are_chapters(tmp_path):
    """昆虫记: `昆虫记 石蚕`, `昆虫记 蜣螂` … indented like the prose; the name is the file's. Another
    name before short lines (a speaker in a script) is no title."""
    names = ["石蚕", "蜣螂", "蝉", "泥水匠蜂"]
    text = "".join(f"　　昆虫记 {t}\n" + PROSE * 3 for t in names) + "".join(
        f"　　旁白 {t}\n" + PROSE for t in names
    )
    assert titles(novel(tmp_path, text, "昆虫记.txt")) == names
