"""A heading given twice with at most a line or two between (own_contents.REPEAT_GAP): a site's index
line over the body's own heading in other numerals, a page header or an advert between the two, the
name wearing brackets once. One chapter, the lines between kept under it; never two chapters of the
same number (W302), nor a chapter's text taken."""

import pytest

from bookbuilder.pipeline import load_book

BODY = "他走进院子，看见一棵老树。\n树下坐着一个老人。\n"


def _read(tmp_path, text: str):
    path = tmp_path / "novel.txt"
    path.write_text(text, "utf-8")
    loaded = load_book(path, jobs=1)
    chapters = [c for c in loaded.book.chapters() if c.kind != "intro"]
    return chapters, [d.code for d in loaded.diagnostics]


def _texts(chapter) -> list[str]:
    return [b.text for b in chapter.blocks if hasattr(b, "text")]


@pytest.mark.parametrize(
    "first, between, again",
    [
        ("第00{n}回 灵根育孕 心性修持", "", "第{c}回 灵根育孕 心性修持"),  # an index line, numerals otherwise
        ("第{c}章 同病相怜", "古龙《某某系列之{c}》\n", "第{c}章 同病相怜"),  # a header line between
        ("第{c}章 【曝光了！】", "一秒记住某某，精彩随时阅读。\n\n", "第{c}章 曝光了！"),  # marks on the name
    ],
)
def test_the_same_heading_given_again_is_one_chapter(tmp_path, first, between, again):
    text = "".join(
        first.format(n=n, c=c) + "\n\n" + between.format(c=c) + again.format(n=n, c=c) + "\n" + BODY
        for n, c in ((1, "一"), (2, "二"), (3, "三"))
    )
    chapters, codes = _read(tmp_path, text)
    assert [c.number for c in chapters] == [1, 2, 3]
    assert "W302" not in codes
    assert all("他走进院子，看见一棵老树。" in _texts(c) for c in chapters)


def test_the_lines_between_stay_under_the_first_heading(tmp_path):
    """Only the heading said twice goes: an author's note between the two stays, under the chapter."""
    text = "".join(f"第{c}章 风起\n作者的话：这一章写得慢了些。\n第{c}章 风起\n{BODY}" for c in "一二三")
    chapters, _ = _read(tmp_path, text)
    assert [c.title for c in chapters] == ["第一章 风起", "第二章 风起", "第三章 风起"]
    assert all(_texts(c)[0] == "作者的话：这一章写得慢了些。" for c in chapters)


@pytest.mark.parametrize(
    "second",
    [
        "第一章 云涌",  # the same number, another name: the source's slip, reported
        "第二章 风起",  # the same name, the next number: a chapter of its own
    ],
)
def test_another_name_or_number_is_another_chapter(tmp_path, second):
    text = f"第一章 风起\n\n{second}\n{BODY}第三章 雨落\n{BODY}"
    chapters, _ = _read(tmp_path, text)
    assert len(chapters) == 3
