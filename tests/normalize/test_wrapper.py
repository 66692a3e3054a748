"""A distributor's wrapper (normalize/wrapper.py): a notice's line left at the book's start and end,
a site's line removed beside it at both, goes; a story's line that opens and closes the book, and a
notice's line at one end only, stay."""

import pytest

from bookbuilder.normalize import wrapper
from bookbuilder.pipeline import load_book

NOTICE = "本书下载于某某论坛，如需更多好书，请访问 http://www.example.com"  # a site's: cleaning takes it
LEFT = "如果觉得本书不错，请尽量购买正版书籍，感谢对作者的支持！"  # no site word of its own
BODY = "".join(f"他走进第{n}个院子，看见一棵老树。\n树下坐着一个老人，正在下棋。\n" for n in range(1, 9))


def book_text(head: list[str], tail: list[str]) -> str:
    chapters = "".join(f"第{n}章 起风\n{BODY}" for n in "一二三")
    return "\n".join(head) + "\n" + chapters + "\n".join(tail) + "\n"


def paragraphs(tmp_path, text: str):
    path = tmp_path / "book.txt"
    path.write_text(text, "utf-8")
    loaded = load_book(path, jobs=1)
    found = [b.text for c in loaded.book.chapters() for b in c.blocks if hasattr(b, "text")]
    return found + [loaded.book.meta.description or ""], loaded


def test_a_notices_line_at_both_ends_beside_a_sites_line_goes(tmp_path):
    text, loaded = paragraphs(tmp_path, book_text([NOTICE, LEFT, "", "《某书》"], [NOTICE, LEFT]))
    assert not any(LEFT in t for t in text)
    gone = [d for d in loaded.diagnostics if d.message.startswith("wrapper")]
    assert len(gone) == 2 and "start and end" in gone[0].message


@pytest.mark.parametrize(
    "head, tail",
    [
        (["那一年，我十七岁。"], ["那一年，我十七岁。"]),  # the story's, at both ends, alone
        ([NOTICE, LEFT], []),  # one end only
        ([LEFT], [NOTICE, LEFT]),  # no site's line beside it at the start
    ],
)
def test_a_line_without_both_signs_stays(tmp_path, head, tail):
    line = head[-1] if head else tail[-1]
    text, _ = paragraphs(tmp_path, book_text(head, tail))
    assert any(line in t for t in text)


def test_switched_off_by_name(tmp_path):
    (tmp_path / "book.book.toml").write_text(f'[normalize.junk]\ndisable = ["{wrapper.RULE}"]\n', "utf-8")
    (tmp_path / "book.txt").write_text(book_text([NOTICE, LEFT], [NOTICE, LEFT]), "utf-8")
    loaded = load_book(tmp_path / "book.txt", jobs=1)
    assert sum(LEFT in b.text for c in loaded.book.chapters() for b in c.blocks if hasattr(b, "text")) == 2


# a notice's stamp, closing with a labelled date and time (三体II's 小说快捕, 水浒传's upload line)
STAMPS = [
    "制作时间: 2011-11-29 00:16:25",
    "本书籍由网友“某人”上传  日期：2013-1-29 11:39:46",
    "Date: Thu, 28 Aug 1997 00:29:07 +0200",
]


@pytest.mark.parametrize("stamp", STAMPS)
def test_a_stamp_beside_a_sites_line_at_the_books_end_goes(tmp_path, stamp):
    text, loaded = paragraphs(tmp_path, book_text([], ["（全书完）", NOTICE, stamp]))
    assert stamp not in text and "（全书完）" in text
    assert [d for d in loaded.diagnostics if d.message.startswith(wrapper.STAMP_RULE)]


@pytest.mark.parametrize(
    "head, tail, line",
    [
        # a report's date inside the story, no site's line beside it
        ([], ["报告写完了。", "日期：2013-1-29 11:39:46"], "日期：2013-1-29 11:39:46"),
        # a chat log's header has no label; a date with no clock time is no machine's stamp
        ([], [NOTICE, "老王 2013-1-29 11:39:46"], "老王 2013-1-29 11:39:46"),
        ([], [NOTICE, "日期：2013-1-29"], "日期：2013-1-29"),
        # the stamp not closing the line: a sentence goes on after it
        (
            [],
            [NOTICE, "日期：2013-1-29 11:39:46，他终于写完了。"],
            "日期：2013-1-29 11:39:46，他终于写完了。",
        ),
    ],
)
def test_a_line_without_a_stamp_or_a_sites_line_beside_it_stays(tmp_path, head, tail, line):
    text, _ = paragraphs(tmp_path, book_text(head, tail))
    assert line in text


def test_the_stamp_rule_is_switched_off_by_name(tmp_path):
    (tmp_path / "book.book.toml").write_text(
        f'[normalize.junk]\ndisable = ["{wrapper.STAMP_RULE}"]\n', "utf-8"
    )
    text, _ = paragraphs(tmp_path, book_text([], [NOTICE, STAMPS[0]]))
    assert STAMPS[0] in text


def test_a_stamp_at_the_books_start_goes_too(tmp_path):
    text, loaded = paragraphs(tmp_path, book_text(["《某书》", NOTICE, STAMPS[0]], []))
    assert STAMPS[0] not in text and loaded.book.meta.title == "某书"
