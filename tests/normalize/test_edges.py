"""Edge templates (normalize/edges.py): a site's lines at every chapter's edges go, told from the
book's own regularities and from what the line is made of; a story's repeated lines at the same
places stay. Synthetic books of the shapes the development shelf showed (docs/rules-notes.md, "Edge
templates"); the classical formula is quoted from 西游记 (public domain)."""

import pytest

from bookbuilder.check.suspects import find
from bookbuilder.normalize import edges
from tests.conftest import one_file_book

STORY = [
    "天色将晚，城门已闭，行人匆匆赶路，谁也不说一句话。",
    "渡口的船夫收了缆绳，望着对岸的灯火出神，半晌才回过头来。",
    "老人把灯笼挂在檐下，风一吹，火苗摇了几摇，终于稳住了。",
    "第二天一早，镇上的人都听说了这件事，议论纷纷。",
]
CHAPTERS = 8


def _book(head=None, tail=None, chapters=CHAPTERS):
    """A book of `chapters` chapters of the story's paragraphs, with head(n) over and tail(n) under
    chapter n's when given."""
    made = []
    for n in range(1, chapters + 1):
        texts = list(STORY)
        if head:
            texts.insert(0, head(n))
        if tail:
            texts.append(tail(n))
        made.append(texts)
    return one_file_book(made)


def _left(book) -> list[str]:
    cleaned, _ = edges.strip_edges(book)
    return [b.text for c in cleaned.chapters() for b in c.blocks]


SITE_LINES = [  # (where, the line chapter n has there): each goes in every chapter
    ("head", lambda n: f"书香屋 更新时间:2007-1-{n} 23:57:1{n} 本章字数:{5000 + 37 * n}"),
    ("head", lambda n: f"[本章字数：{3000 + n}　最新更新时间：Mon May {n} 16:09:2{n} CST 2010]"),
    ("tail", lambda n: f"某书——第{n}章"),  # the page's title (or the next page's: below)
    ("head", lambda n: f"吴承恩——西游记——第{n}章　风起"),
    ("tail", lambda n: "书香门第－某某－某书"),  # a saved page's footer: three names
    ("tail", lambda n: "上一部分"),
    ("tail", lambda n: "前一頁回目錄"),
    ("head", lambda n: "您所在的位置：某书＞正文"),
    ("tail", lambda n: f"Last Updated: Saturday, November 1{n}, 1996"),
    ("tail", lambda n: f"{'-' * 23}Page{n * 3}{'-' * 23}"),
    ("tail", lambda n: f"输入：中华古籍oldbook.book{n}.com"),
]


@pytest.mark.parametrize("where,line", SITE_LINES, ids=[line(1) for _, line in SITE_LINES])
def test_a_sites_line_at_every_chapters_edge_goes(where, line):
    book = _book(**{where: line})
    assert _left(book) == STORY * CHAPTERS
    cleaned, removed = edges.strip_edges(book)
    assert sum(len(r) for r in removed.values()) == CHAPTERS
    assert all("at the edges of 8 of 8 chapters" in d.message for r in removed.values() for d in r)


STORY_LINES = [  # (where, the line chapter n has there): the story's, however often it comes
    ("tail", lambda n: "毕竟不知后事如何，且听下回分解。"),  # the classical closing formula
    ("tail", lambda n: "欲知后事如何？请听下回分解。"),
    ("tail", lambda n: "风又起了。"),  # a refrain
    ("tail", lambda n: "春风又绿江南岸"),  # a poem's repeated line
    ("head", lambda n: "人生若只如初见，何事秋风悲画扇。——纳兰性德"),  # an epigraph at every chapter
    ("tail", lambda n: "此致"),  # a letter's closing
    ("tail", lambda n: "你的朋友 维特"),
    (
        "head",
        lambda n: f"1771年5月{n}日，星期{'一二三四五六日日'[n - 1]}",
    ),  # a letter's or a diary's dateline
    ("head", lambda n: f"{n}"),  # the book's own numbering
    ("head", lambda n: f"[{n}]"),
    ("tail", lambda n: f"（第{'一二三四五六七八'[n - 1]}回完）"),  # the book's own end mark
    ("head", lambda n: "诗曰："),
    ("head", lambda n: f"◆《某书之某部》第{n + 8}回　某某某 ◆"),  # a heading the reading missed
]


@pytest.mark.parametrize("where,line", STORY_LINES, ids=[line(1) for _, line in STORY_LINES])
def test_a_storys_line_at_every_chapters_edge_stays(where, line):
    book = _book(**{where: line})
    assert _left(book) == [b.text for c in book.chapters() for b in c.blocks]
    assert not [g for g in find(book) if g.shape == "edge-template"]


def test_a_template_glued_before_the_story_is_cut_where_the_story_begins():
    book = _book(head=lambda n: f"某书→正文→第{n}章 风起　　" + STORY[n % 4])
    left = _left(book)
    assert all(not t.startswith("某书") for t in left)
    assert left.count(STORY[1]) == CHAPTERS + 2  # each chapter's, and the two glued ones whole


def test_a_template_glued_after_the_story_is_cut_after_its_last_sentence():
    book = _book(tail=lambda n: f"夜更深了，灯也一盏盏灭了。[更新于2012/3/{n} 1{n}:03]")
    assert _left(book)[-1] == "夜更深了，灯也一盏盏灭了。"
    # a name glued to the story's words is no template: Shirley 杨 begins many chapters
    book = _book(head=lambda n: f"Shirley 杨看了看天色，{STORY[n % 4]}")
    assert _left(book) == [b.text for c in book.chapters() for b in c.blocks]


def test_a_short_line_goes_with_the_template_it_stands_beside():
    """A short line with no evidence of its own (转载请保留) between a template and the chapter's
    edge, or right inside a run of them, goes with them; alone it is the story's."""
    made = [
        list(STORY) + [f"输入：中华古籍oldbook.book{n}.com", "转载请保留"] for n in range(1, CHAPTERS + 1)
    ]
    assert _left(one_file_book(made)) == STORY * CHAPTERS
    inward = [list(STORY) + ["转载请保留", "上一部分", "下一部分", "书香门第－某某－某书"] for _ in range(8)]
    assert _left(one_file_book(inward)) == STORY * CHAPTERS
    assert "转载请保留" in _left(_book(tail=lambda n: "转载请保留"))


def test_the_self_check_flags_an_edge_template_left_in_the_book():
    book = _book(head=lambda n: f"书香屋 更新时间:2007-1-{n} 23:57:1{n} 本章字数:{5000 + 37 * n}")
    groups = find(book)
    assert groups and all(len(g.suspects) == CHAPTERS for g in groups)
    cleaned, _ = edges.strip_edges(book)
    assert not find(cleaned)
    # a page's title has no site word, a letter or a date: the template's evidence flags it
    assert [g.shape for g in find(_book(tail=lambda n: f"某书——第{n}章"))] == ["edge-template"]


def test_the_next_pages_title_goes_and_one_naming_no_neighbour_stays():
    """A page's title over each heading ends the chapter before it (某书——第3章 after chapter 2's
    text): the neighbour's title is folded as the chapter's own. After the last chapter it names
    no chapter, and may be a heading the reading missed: it stays."""
    left = _left(_book(tail=lambda n: f"某书——第{n + 1}章"))
    assert left == STORY * CHAPTERS + [f"某书——第{CHAPTERS + 1}章"]


def test_a_kept_paragraph_and_the_switch_leave_the_template():
    book = _book(tail=lambda n: "上一部分")
    kept = frozenset(c.blocks[-1].at for c in book.chapters())
    assert edges.strip_edges(book, kept=kept)[1] == {}
    assert edges.strip_edges(book, off=frozenset(edges.RULES))[1] == {}


EVIDENCE = [  # (line, what the judge says of it: a word of its evidence, or "" for prose)
    ("更新时间：2012-03-04 12:30 本章字数：3021", "fields"),
    ("书香屋 更新于2012-03-04 12:30", "Latin letters, digits and marks"),
    ("-----------------------Page6-----------------------", "Latin letters, digits and marks"),
    ("回目录 | 上一页 | 下一页", "navigation"),
    ("后一頁", "navigation"),
    ("更新时间：二〇一二年 本章字数：3021 点击：12", "fields"),
    ("某书——第三章", "page's title"),
    ("您所在的位置：某书＞正文", "page's title"),
    ("甲乙－丙丁－戊己", "page's title"),
    ("请到www.example.com阅读", "link"),
    ("1980年12月16日，星期二", ""),  # a diary's dateline
    ("1980年12月16日", ""),
    ("他在2012-03-04 12:30到了车站。", ""),  # a person
    ("欲知后事如何？请听下回分解。", ""),
    ("人生若只如初见——纳兰性德", ""),  # two names, no title among them
    ("第五章——某某", ""),  # a chapter's label that is no neighbour's: a heading
]


@pytest.mark.parametrize("line,why", EVIDENCE, ids=[line for line, _ in EVIDENCE])
def test_what_a_line_is_made_of_tells_boilerplate_from_prose(line, why):
    common = frozenset(
        "的了是一不在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里如何事请听回分解"
    )
    said = edges.boilerplate(line, common, ("第三章",))
    assert (why in said) if why else said == "", said
