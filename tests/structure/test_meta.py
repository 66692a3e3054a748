"""Title, author and blurb from what a download says (issue 22): opening lines, file names,
folders with info.txt, and book.toml over all of them."""

import json

import pytest
from click.testing import CliRunner

from bookbuilder.cli import main
from bookbuilder.pipeline import load_book
from bookbuilder.structure.meta import from_name
from tests.conftest import write_book

STORY = "第一章 开端\n他走进院子，看见一棵老树。\n第二章 继续\n树下坐着一个老人。\n"


def novel(tmp_path, opening: str, name: str = "novel.txt"):
    path = tmp_path / name
    path.write_text(opening + STORY, "utf-8")
    return load_book(path, jobs=1)


def meta(loaded) -> dict[str, tuple[str, str]]:
    sources = dict(loaded.book.meta.sources)
    return {k: (getattr(loaded.book.meta, k), sources[k]) for k in ("title", "author", "description")}


@pytest.mark.parametrize(
    "opening, title, author",
    [
        ("《天涯客》\n作者：某甲\n", ("天涯客", "text:1"), ("某甲", "text:2")),
        ("书名：天涯客\n作者：某甲2014\n", ("天涯客", "text:1"), ("某甲", "text:2")),
        ("書名：天涯客\n作者:某甲（某某网）\n", ("天涯客", "text:1"), ("某甲", "text:2")),
        ("金庸《倚天屠龙记》\n", ("倚天屠龙记", "text:1"), ("金庸", "text:1")),
        ("《天涯客》作者：某甲\n", ("天涯客", "text:1"), ("某甲", "text:1")),
        ("天涯客》 作者：某甲\n", ("天涯客", "text:1"), ("某甲", "text:1")),
        ("[天涯客 / 某甲 著 ]\n", ("天涯客", "text:1"), ("某甲", "text:1")),
        ("    天涯客◎某甲\n", ("天涯客", "text:1"), ("某甲", "text:1")),
        ("天涯客\n作者：某甲\n", ("天涯客", "text:1"), ("某甲", "text:2")),
        (
            "<天涯客> [精校版]\n\n作者:某甲\n",
            ("天涯客", "text:1"),
            ("某甲", "text:3"),
        ),  # 盗墓笔记's 精校版 header
        ("《天涯客》全集\n\n作者：某甲\n", ("天涯客", "text:1"), ("某甲", "text:3")),  # 藏海花 from 奇书网
        ("<<天涯客>>\n 作者：某甲\n", ("天涯客", "text:1"), ("某甲", "text:2")),
        (
            "本书名称: 天涯客\n本书作者: 某甲\n本书简介: 她是仙。\n",
            ("天涯客", "text:1"),
            ("某甲", "text:2"),
        ),  # a reader app's export
        ("天涯客？ 作者：某甲\n\n文案:\n她是仙。\n", ("天涯客？", "text:1"), ("某甲", "text:1")),
        (
            "《天涯客》 作者：某甲 \n第一册\n",
            ("天涯客", "text:1"),
            ("某甲", "text:1"),
        ),  # 狂神 over its 第一册
        ("天涯客，某乙 作者:某甲\n\n本书简介:\n她是仙。\n", ("天涯客，某乙", "text:1"), ("某甲", "text:1")),
        (
            "天涯客之某事［穿书］作者：某甲\n\n文案：\n她是仙。\n",
            ("天涯客之某事［穿书］", "text:1"),
            ("某甲", "text:1"),
        ),  # glued
        ("本文作者：某甲\n", ("novel", "file name"), ("佚名", "default")),  # no title glued to it
        (
            "天涯客\n作者：某甲\n\n文案\n\n她是仙。\n",
            ("天涯客", "text:1"),
            ("某甲", "text:2"),
        ),  # never joined over 作者：
        (
            "　　《天涯客[快穿]》某甲\n　　文案：\n　　她是仙。\n",
            ("天涯客[快穿]", "text:1"),
            ("某甲", "text:1"),
        ),
        (
            "《天涯客》作者：某甲\n文案：\n她是仙却胜似神。\n",
            ("天涯客", "text:1"),
            ("某甲", "text:1"),
        ),  # 文案 under it
        (
            "《天涯客》\n作者：某甲\n\n    文案\n\n她是仙却胜似神。\n",
            ("天涯客", "text:1"),
            ("某甲", "text:2"),
        ),
        (
            "天涯客\n作 者某甲\n",
            ("天涯客", "text:1"),
            ("某甲", "text:2"),
        ),  # the label typeset with a space, no colon
        ("作家：某甲，1981年调入湖北省任专业作家至今。\n", ("novel", "file name"), ("某甲", "text:1")),
        ("『天涯客/作者:某甲』\n", ("天涯客", "text:1"), ("某甲", "text:1")),  # 爱下电子书's header
        ("天涯客\n（清）某甲 著\n", ("天涯客", "text:1"), ("某甲", "text:2")),  # a classic's byline
        ("天涯客  [明]某甲\n", ("天涯客", "text:1"), ("某甲", "text:1")),  # 陶庵夢憶  [明]張岱
        (
            "《天涯客》\n作者：某甲　译者：某乙\n",
            ("天涯客", "text:1"),
            ("某甲", "text:2"),
        ),  # the translator is no author
        ("《天涯客I》完全解密手册\n", ("novel", "file name"), ("佚名", "default")),  # a book about the book
        (
            "選自《天涯客》\n",
            ("novel", "file name"),
            ("佚名", "default"),
        ),  # a source under a preface, no author
        ("《天涯客》\n作者：(明)某甲\n", ("天涯客", "text:1"), ("某甲", "text:2")),
        ("《天涯客》\n作者：清·某甲\n", ("天涯客", "text:1"), ("某甲", "text:2")),  # the age before a dot
        (
            "《天涯客》\n作者：清·风\n",
            ("天涯客", "text:1"),
            ("清·风", "text:2"),
        ),  # a pen name of one after it
        ("一句称赞的话。\n——《某报》\n", ("novel", "file name"), ("佚名", "default")),  # an epigraph's source
        ("《天涯客》某甲\n作者：某甲\n", ("天涯客", "text:1"), ("某甲", "text:1")),  # 《沉香如屑》苏寞
        ("《天涯客》全集\n", ("天涯客", "text:1"), ("佚名", "default")),  # 全集 is no author
        (
            "《天涯客》完本\n",
            ("天涯客", "text:1"),
            ("佚名", "default"),
        ),  # nor any edition word (vocabulary.EDITION_WORDS)
        ("《天涯客》【精排版】\n", ("天涯客", "text:1"), ("佚名", "default")),
        ("《天涯客》晋江独家发表\n", ("novel", "file name"), ("佚名", "default")),
    ],
)
def test_opening_lines(tmp_path, opening, title, author):
    found = meta(novel(tmp_path, opening))
    assert (found["title"], found["author"]) == (title, author)


def test_the_blurb_is_the_description_and_the_intro_page(tmp_path):
    loaded = novel(tmp_path, "书名：天涯客\n作者：某甲\n内容简介：\n一个少年离开了家乡。\n他走过很多地方。\n")
    assert meta(loaded)["description"] == ("一个少年离开了家乡。\n他走过很多地方。", "text:4")
    intro = next(loaded.book.chapters())
    assert intro.kind == "intro" and [b.text for b in intro.blocks] == [
        "一个少年离开了家乡。",
        "他走过很多地方。",
    ]


def test_a_header_in_corner_brackets_gives_its_fields_and_blurb(tmp_path):
    """爱下电子书's shape: every header line in 『』, a status line, the blurb closed by 』, a
    banner line, a 正文 label; then 1.第1章 before each heading, which comes again indented."""
    opening = (
        "『天涯客/作者:某甲』\n『状态:更新到:2.第2章 继续』\n『内容简介:\n    一个少年离开了家乡。\n\n"
        "他走过很多地方……』\n某某电子书Txt版阅读,下载和分享更多电子书请访问:http://www.example.com,手机访问:"
        "http://m.example.com\n------章节内容开始-------\n正文\n\n"
    )
    path = tmp_path / "novel.txt"
    path.write_text(
        opening + "1.第1章 开端\n    第1章 开端\n    他走进院子。\n    (本章完)\n"
        "2.第2章 继续\n    第2章 继续\n    树下坐着一个老人。\n",
        "utf-8",
    )
    loaded = load_book(path, jobs=1)
    assert (loaded.book.meta.title, loaded.book.meta.author) == ("天涯客", "某甲")
    assert loaded.book.meta.description == "一个少年离开了家乡。\n他走过很多地方……"
    chapters = list(loaded.book.chapters())
    assert [c.title for c in chapters] == ["内容简介", "第1章 开端", "第2章 继续"]
    assert [[b.text for b in c.blocks] for c in chapters] == [
        ["一个少年离开了家乡。", "他走过很多地方……"],
        ["他走进院子。"],
        ["树下坐着一个老人。"],
    ]


def test_an_intro_of_only_title_and_author_lines_leaves_no_page(tmp_path):
    loaded = novel(tmp_path, "书名：天涯客\n作者：某甲\n")
    assert [c.title for c in loaded.book.chapters()] == ["第一章 开端", "第二章 继续"]


def test_a_printed_editions_catalogue_lines_are_no_page_and_give_the_publisher(tmp_path):
    """斗罗大陆Ⅱ from 书香门第: the site's credit, then 书名/作者 and the print edition's 出版社, 出版时间,
    ISBN."""
    opening = (
        "书香门第【某某】整理\n\n　　书名：《天涯客》\n　　作者：某甲\n　　出版社：某某少年儿童出版社\n"
        "　　出版时间：2014-12-1\n　　ISBN：9787556205295\n　　类型：武侠仙侠\n　　状态：全集\n\n"
    )
    loaded = novel(tmp_path, opening)
    assert [c.title for c in loaded.book.chapters()] == ["第一章 开端", "第二章 继续"]
    assert (loaded.book.meta.title, loaded.book.meta.author, loaded.book.meta.publisher) == (
        "天涯客",
        "某甲",
        "某某少年儿童出版社",
    )
    assert loaded.book.meta.subjects == ("武侠仙侠",)  # 类型：
    tags = novel(tmp_path, "书名：天涯客\n作者：某甲\n内容标签：灵异神怪 前世今生\n", "tags.txt")
    assert tags.book.meta.subjects == ("灵异神怪", "前世今生")
    given = write_book(tmp_path / "b", {"novel.txt": opening + STORY}, '[book]\npublisher = "某某出版社"\n')
    assert load_book(given, jobs=1).book.meta.publisher == "某某出版社"  # book.toml's wins


def test_a_jinjiang_header_gives_blurb_and_tags_and_leaves_its_fields_off_the_page(tmp_path):
    """晋江's download header: 文案, then 内容标签 / 搜索关键字 / 一句话简介 / 立意 lines (never joined)."""
    opening = (
        "《天涯客》作者：某甲\n\n文案：\n她是仙却胜似神，他是神却不如仙。\n一场瑶池仙会，碧落深渊。\n\n"
        "内容标签： 情有独钟 前世今生\n搜索关键字：主角：某乙，某丙 ┃ 配角：某丁 ┃ 其它：\n一句话简介："
        "一段仙神之恋\n立意：爱与成长\n\n"
    )
    loaded = novel(tmp_path, opening)
    assert loaded.book.meta.description == "她是仙却胜似神，他是神却不如仙。\n一场瑶池仙会，碧落深渊。"
    assert loaded.book.meta.subjects == ("情有独钟", "前世今生")
    intro = next(loaded.book.chapters())
    assert [p.text for p in intro.blocks] == ["她是仙却胜似神，他是神却不如仙。", "一场瑶池仙会，碧落深渊。"]
    long_blurb = "".join(f"第{k}句文案，说的是仙与神的事。\n" for k in range(45))  # past the 40 opening lines
    loaded = novel(
        tmp_path,
        opening.replace("一场瑶池仙会，碧落深渊。\n", long_blurb).replace(
            "搜索关键字：主角：某乙，某丙", "搜索关键字：主角：某乙"
        ),
    )
    assert [p.text for p in next(loaded.book.chapters()).blocks][-1] == "第44句文案，说的是仙与神的事。"


def test_the_books_name_alone_over_a_sites_notice_is_no_intro_page(tmp_path):
    """大王饶命 from 八零电子书: its name, the site's 声明 line, a 正文卷 label, then the chapters."""
    opening = (
        "\n某某饶命\n\n声明:本书由某某电子书(www.example.com)自网络收集整理制作,仅供交流学习使用,版权归原作者所有.\n"
        "\n------------\n\n正文卷\n\n------------\n\n"
    )
    loaded = novel(tmp_path, opening, "某某饶命.txt")
    assert [c.title for c in loaded.book.chapters()] == ["第一章 开端", "第二章 继续"]
    assert meta(loaded)["title"] == ("某某饶命", "file name")
    kept = novel(
        tmp_path, "某某饶命\n他走进院子，这是序章的一句话。\n", "某某饶命.txt"
    )  # other text: the page stays
    assert [p.text for p in next(kept.book.chapters()).blocks] == ["他走进院子，这是序章的一句话。"]


def test_a_subtitle_in_the_file_name_is_no_author(tmp_path):
    """冰与火之歌I_权力的游戏.txt: 书名_作者 in shape, but the text's own title holds its second part."""
    loaded = novel(tmp_path, "《天涯客:某甲之歌》\n", name="天涯客_某甲之歌.txt")
    assert meta(loaded)["title"] == ("天涯客：某甲之歌", "text:1") and meta(loaded)["author"] == (
        "佚名",
        "default",
    )


def test_the_authors_name_alone_under_the_books_is_the_author(tmp_path):
    """侠客行 / 金庸 over every chapter of a download: the first header, at the top, names the author;
    the same two lines before the other chapters are a page header (dropped)."""
    header = "　　天涯客\n　　某甲\n"
    text = "".join(f"{header}　　{n}　标题{n}\n　　他走进院子，看见一棵老树。\n" for n in "一二三四")
    path = tmp_path / "天涯客.txt"
    path.write_text(text, "utf-8")
    loaded = load_book(path, jobs=1)
    assert meta(loaded)["author"] == ("某甲", "text:2")
    assert all(b.text not in ("天涯客", "某甲") for c in loaded.book.chapters() for b in c.blocks)
    assert [c.title for c in loaded.book.chapters()] == [f"{n} 标题{n}" for n in "一二三四"]
    other = tmp_path / "别的书.txt"  # under another name, the two lines alone over the first chapter:
    other.write_text(header + "第一章 开端\n他走进院子，看见一棵老树。\n", "utf-8")  # the text's title
    assert meta(load_book(other, jobs=1))["title"] == ("天涯客", "text:1")  # (调频 / 饶雪漫 in 数字城堡.txt)
    assert meta(load_book(other, jobs=1))["author"] == ("某甲", "text:2")


# A download's form header: its fields, empty or short, are the header's, never a blurb page; 书名 and 作者
# with a value are the book's. Under a site's declaration block too.
@pytest.mark.parametrize(
    "opening, title, author",
    [
        ("书名:\n男女主角:\n系列名:\n作者:\n", ("天涯客", "file name"), ("某甲", "file name")),
        ("书名:天涯客\n男女主角:某乙、某丙\n系列名:\n作者:某甲\n", ("天涯客", "text:1"), ("某甲", "text:4")),
        (
            "声明：本书来自某某书库，仅供交流学习，请于下载后24小时内删除。\n本站所有小说均由网友上传，如有侵权请来信告知。\n"
            "----------------\n《天涯客》\n作者：某乙\n\n书名:\n男女主角:某乙、某丙\n",
            ("天涯客", "text:4"),
            ("某乙", "text:5"),
        ),
    ],
)
def test_a_form_header_gives_its_values_and_no_page(tmp_path, opening, title, author):
    loaded = novel(tmp_path, opening, name="天涯客-某甲.txt")
    assert meta(loaded)["title"] == title and meta(loaded)["author"] == author
    assert [c.title for c in loaded.book.chapters()] == ["第一章 开端", "第二章 继续"]


@pytest.mark.parametrize(
    "opening",
    [
        "男女主角:他们在渡口相遇，后来各自走了。\n",  # a sentence after the label: the blurb's
    ],
)
def test_a_sentence_after_a_form_label_stays_on_the_intro_page(tmp_path, opening):
    loaded = novel(tmp_path, opening, name="天涯客-某甲.txt")
    assert [b.text for b in next(loaded.book.chapters()).blocks] == [
        "男女主角：他们在渡口相遇，后来各自走了。"
    ]


@pytest.mark.parametrize(
    "opening",
    [
        "",
        "第一章的作者是谁，他不知道。\n",  # 作者 inside a sentence
    ],
)
def test_negative_rows_fall_back_to_the_file_name(tmp_path, opening):
    loaded = novel(tmp_path, opening, name="天涯客-某甲.txt")
    assert meta(loaded)["title"] == ("天涯客", "file name") and meta(loaded)["author"] == (
        "某甲",
        "file name",
    )


def test_a_title_in_brackets_inside_the_blurb_is_not_the_title(tmp_path):
    loaded = novel(
        tmp_path,
        "作者：某甲\n简介：\n他读过《红楼梦》，也读过《水浒传》。\n《天涯客》是他写的第一本书。\n",
        name="天涯客.txt",
    )
    assert meta(loaded)["title"] == ("天涯客", "file name")


@pytest.mark.parametrize(
    "stem, title, author",
    [
        ("《天涯客》作者：某甲", "天涯客", "某甲"),
        ("天涯客（校对版全本）作者：某甲", "天涯客", "某甲"),
        ("天涯客-某甲", "天涯客", "某甲"),
        ("天涯客_某甲_精校版", "天涯客", "某甲"),
        ("[某甲]天涯客", "天涯客", "某甲"),
        ("天涯客-某甲-第一本", "天涯客", "某甲"),
        ("天涯客TXT全本", "天涯客", None),
        ("hlm_big5", "hlm_big5", None),
        ("10鬼话之某事", "鬼话之某事", None),  # a shelf's index glued to the name
        ("天涯客全集【某甲】", "天涯客", "某甲"),  # 三体全集【刘慈欣】
        ("[快穿]天涯客", "天涯客", None),  # a genre tag, not [作者]书名
        ("天涯客I-1之某城", "天涯客I-1之某城", None),  # a series' number after the dash
        ("《天涯客》BY某甲", "天涯客", "某甲"),
        ("24小时", "24小时", None),
        ("[四大名著].红楼梦", "红楼梦", None),  # a collection's tag in brackets, not an author
        ("红楼梦-UTF8", "红楼梦", None),
        ("金瓶梅[www.example.org]", "金瓶梅", None),
        (
            "威廉·曼彻斯特：光荣与梦想——1932~1972年美国社会实录",
            "光荣与梦想",
            "威廉·曼彻斯特",
        ),  # a foreign author first
        ("温斯顿·丘吉尔：第一次世界大战回忆录_全五卷", "第一次世界大战回忆录", "温斯顿·丘吉尔"),
        ("天涯客_chapters", "天涯客", None),  # a scraper's folder: a Latin tag after a separator
        ("天涯客-txt", "天涯客", None),
        ("天涯客_chapters(完结)", "天涯客", None),
        ("天涯客 novel", "天涯客", None),
        ("天涯客-某甲_chapters", "天涯客", "某甲"),
        ("Harry_Potter", "Harry_Potter", None),  # no Han name before it: the name is all there is
        ("天涯客I-1之某城", "天涯客I-1之某城", None),
    ],
)
def test_file_names(stem, title, author):
    found = from_name(stem)
    assert (
        found["title"].value == title and (found.get("author").value if "author" in found else None) == author
    )


def test_a_folder_of_chapters_with_an_info_file(tmp_path):
    root = tmp_path / "天涯客"
    root.mkdir()
    (root / "001.txt").write_text("第一章 开端\n他走了。\n", "utf-8")
    (root / "002.txt").write_text("第二章 继续\n她来了。\n", "utf-8")
    (root / "info.txt").write_text("作者：某甲\n简介：一个少年的故事。\n", "utf-8")
    loaded = load_book(root)
    found = meta(loaded)
    assert found["title"] == ("天涯客", "folder name") and found["author"][0] == "某甲"
    assert found["author"][1].endswith("info.txt:1") and found["description"][0] == "一个少年的故事。"
    assert [c.title for c in loaded.book.chapters()] == ["第一章 开端", "第二章 继续"]


def test_a_folders_headless_first_file_that_describes_the_book_is_its_intro(tmp_path):
    root = tmp_path / "书"
    root.mkdir()
    (root / "000.txt").write_text("书名：天涯客\n作者：某甲\n内容简介：一个少年的故事。\n", "utf-8")
    (root / "001.txt").write_text("第一章 开端\n他走了。\n", "utf-8")
    loaded = load_book(root)
    assert meta(loaded)["title"] == ("天涯客", "text:1") or meta(loaded)["title"][0] == "天涯客"
    assert [c.kind for c in loaded.book.chapters()] == ["intro", "chapter"]


def test_book_toml_always_wins_and_check_says_where_each_value_came_from(tmp_path):
    root = write_book(
        tmp_path / "b", {"1.txt": "书名：天涯客\n作者：某甲\n" + STORY}, '[book]\ntitle = "海角"\n'
    )
    loaded = load_book(root)
    assert meta(loaded)["title"] == ("海角", "book.toml") and meta(loaded)["author"] == ("某甲", "text:2")
    runner = CliRunner()
    data = json.loads(runner.invoke(main, ["check", str(root), "--json"]).output)
    assert data["meta"]["title"] == {"value": "海角", "from": "book.toml"}
    assert data["meta"]["author"] == {"value": "某甲", "from": "text:2"}
    text = runner.invoke(main, ["check", str(root)]).output
    assert "info I001: title 海角 (book.toml), author 某甲 (text:2)" in text


def test_the_chosen_values_reach_the_epub_and_the_identifier(tmp_path):
    import zipfile

    from bookbuilder.pipeline import build_epub

    path = tmp_path / "下载-乱名.txt"
    path.write_text("书名：天涯客\n作者：某甲\n" + STORY, "utf-8")
    epub, _ = build_epub(load_book(path))
    opf = zipfile.ZipFile(epub).read("EPUB/content.opf").decode()
    assert "<dc:title" in opf and ">天涯客</dc:title>" in opf and ">某甲</dc:creator>" in opf
    assert "乱名" not in opf


def test_an_authors_quoted_title_over_every_chapter_names_both_and_its_variants_go(tmp_path):
    """金庸《倚天屠龙记》 over 29 chapters of a download, and 倚天屠龙记, 金庸 alone on their lines in
    a few (the site's other page headers): the first names the author and the title; none stays
    in a chapter. A sentence that names the author stays."""
    header = "某甲《天涯客》\n"
    chapters = [f"{header}第{n}章 标题{n}\n他走进院子，看见一棵老树。\n" for n in "一二三四五六七八"]
    chapters[3] = "天涯客\n某甲\n" + chapters[3].split("\n", 1)[1]  # the header in two lines
    chapters[5] += "天涯客\n某甲说过，树比人老。\n"  # a page break inside the chapter
    path = tmp_path / "novel.txt"
    path.write_text("".join(chapters), "utf-8")
    loaded = load_book(path, jobs=1)
    assert meta(loaded)["author"][0] == "某甲" and meta(loaded)["title"][0] == "天涯客"
    texts = [b.text for c in loaded.book.chapters() for b in c.blocks if hasattr(b, "text")]
    assert not {"某甲《天涯客》", "天涯客", "某甲"} & set(texts), texts
    assert "某甲说过，树比人老。" in texts and texts.count("他走进院子，看见一棵老树。") == 8
    assert [c.title for c in loaded.book.chapters() if c.kind == "chapter"] == [
        f"第{n}章 标题{n}" for n in "一二三四五六七八"
    ]


# A site's pager heading over the header (分节阅读 1, then the 声明 and the byline): no intro page is cut,
# but the byline in the first chapter's first lines is the book's, genre tag and print-edition mark aside.
@pytest.mark.parametrize(
    "first, title, author",
    [
        ("[仙侠魔幻] 《天涯客（出书版）》作者：某乙", ("天涯客", "text:3"), ("某乙", "text:3")),
        ("作者:某乙", ("天涯客", "file name"), ("某乙", "text:3")),
        ("是/否", ("天涯客", "file name"), ("某甲", "file name")),  # no label: a story's line, kept
        ("《海角》\n作者：某乙", ("海角", "text:3"), ("某乙", "text:4")),  # the bare title above the byline
    ],
)
def test_a_byline_under_a_pager_heading_is_read(tmp_path, first, title, author):
    opening = (
        "分节阅读 1\n声明：本书为某某网的用户上传至其在本站的存储空间，本站只提供存储服务。\n"
        + first
        + "\n他走进院子。\n"
    )
    path = tmp_path / "天涯客-某甲.txt"
    path.write_text(opening + "分节阅读 2\n树下坐着一个老人。\n分节阅读 3\n老人走了。\n", "utf-8")
    loaded = load_book(path, jobs=1)
    assert meta(loaded)["title"] == title and meta(loaded)["author"] == author
    first_chapter = [b.text for b in next(loaded.book.chapters()).blocks]
    assert (
        not set(first.split("\n")) & set(first_chapter)
        if author[1] != "file name"
        else first in first_chapter
    )


def test_an_intro_whose_lines_after_its_fields_open_with_a_scene_break_reads():
    """书名 and 作者 lines, then a scene break: nothing is left to take as the book's name (a real
    天龙八部 download once failed here with AttributeError after a refactor)."""
    from bookbuilder.model import Location, Paragraph, SceneBreak
    from bookbuilder.structure.meta import read_lines

    at = Location("a.txt", 1)
    blocks = (
        Paragraph("书名：天龙八部", at),
        Paragraph("作者：金庸", at),
        SceneBreak(at),
        Paragraph("正文。", at),
    )
    found, kept, _ = read_lines(blocks)
    assert (found["title"].value, found["author"].value) == ("天龙八部", "金庸")
    assert [type(b).__name__ for b in kept] == ["SceneBreak", "Paragraph"]
