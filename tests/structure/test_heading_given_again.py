"""A heading given twice with at most a line or two between (own_contents.REPEAT_GAP): a site's index
line over the body's own heading in other numerals, a page header or an advert between the two, the
name wearing brackets once. One chapter under the last heading with a name; never two chapters of the
same number (W302), nor a line of text taken."""

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


def test_only_the_heading_said_again_goes(tmp_path):
    """The heading kept is the last with a name, the one over the text (第一回 over a site's 第001回);
    every line between stays where it stood: an author's note is never lost."""
    text = "".join(
        f"第00{n}回 风起\n作者的话：第{n}回写得慢了些。\n第{c}回 风起\n{BODY}"
        for n, c in ((1, "一"), (2, "二"), (3, "三"))
    )
    chapters, _ = _read(tmp_path, text)
    assert [c.title for c in chapters] == ["第一回 风起", "第二回 风起", "第三回 风起"]
    kept = [t for c in chapters for t in _texts(c)]
    assert all(f"作者的话：第{n}回写得慢了些。" in kept for n in (2, 3))


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
