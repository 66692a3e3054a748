"""Thresholds of what repeats through a book's chapters (normalize/repeats.py): a site's template,
a saved page's title at a chapter's edge, fragments glued to the story, a site's words in brackets
(normalize/glued_brackets.py), a site's name after the last sentence."""

import tempfile
from pathlib import Path

import pytest

from bookbuilder.normalize import glued_brackets, page_marks, repeats
from bookbuilder.pipeline import load_book
from tests.conftest import one_file_book
from tests.thresholds.rows import Threshold


def _page_title(n: int) -> bool:
    """Whether a line of n characters, the chapter's title joined to the book's and the site's names
    (某书…-第1章 风起-某某小说网), reads as a saved page's title (normalize/repeats.py)."""
    tail = "-第1章 风起-某某小说网"
    return repeats._page_title("某书" + "甲" * (n - 2 - len(tail)) + tail, ("第1章 风起",))


def _template_left(k: int) -> int:
    """How many of a site's slogans repeated in k of a novel's 10 chapters are left once cleaned."""
    text = []
    for n in range(1, 11):
        slogan = "某某云盘搜小说，就上某某搜索网，免费无弹窗。" if n <= k else ""
        text += [f"第{n}章 风起第{n}回", f"　　他转身走了{n}步。{slogan}", "　　天色将晚，城门已闭。"]
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "novel.txt").write_text("\n".join(text) + "\n", "utf-8")
        book = load_book(Path(folder) / "novel.txt", jobs=1).book
    return sum("搜索网" in b.text for c in book.chapters() for b in c.blocks)


def _left_after_repeats(chapters: list[list[str]], text: str) -> int:
    """How many paragraphs still hold `text` once normalize/repeats.py has cut the book's repeats."""
    book, _ = repeats.strip_repeated(one_file_book(chapters))
    return sum(text in b.text for c in book.chapters() for b in c.blocks)


def _times_left(n: int) -> int:
    """How many of a site's name glued after n of ten paragraphs, in a book of two chapters, are left."""
    texts = [f"他转身走了{i}步。" + ("166阅读网" if i < n else "") for i in range(10)]
    return _left_after_repeats([texts[0::2], texts[1::2]], "166阅读网")


def _page_title_at(n: int) -> int:
    """How many of four chapters' saved page titles, each their n-th paragraph of eleven, are left."""
    chapters = []
    for c in range(1, 5):
        texts = [f"他走了{i}步，天色将晚。" for i in range(10)]
        texts.insert(n - 1, f"某书-第{c}章 风起-某某小说网")
        chapters.append(texts)
    return _left_after_repeats(chapters, "小说网")


def _piece_left(n: int) -> int:
    """How many of four chapters' site's sentence of n characters (请记住本站网址手打…。) are left."""
    slogan = "请记住本站网址" + "手打" * 33
    slogan += "天" * (n - 1 - len(slogan)) + "。"
    return _left_after_repeats([[f"他转身走了{i}步。" + slogan, "城门已闭。"] for i in range(4)], slogan)


_GLUE = "手机阅读请访问某某小说网。"


def _glued_cut(texts: list[str]) -> list[str]:
    """The repeated glued fragments normalize/repeats.py cuts from chapters of one paragraph each."""
    cuts = repeats.glued_fragments(list(one_file_book([[t] for t in texts]).chapters()))
    return sorted({texts[k][s:e] for (k, _), spans in cuts.items() for s, e, _ in spans})


def _glued(i: int, glue: str) -> str:
    """Chapter i's paragraph: a sentence, the glued fragment, and the story going on apart."""
    return f"天色将晚{i}次。{glue}{'东南西北中发白春夏秋'[i]}门已闭。"


def _fragment_ends_its_sentence(n: int) -> bool:
    """Whether a glued fragment of n characters (site words, then 甲…。) is cut to its sentence's end."""
    glue = _GLUE[:-1] + "甲" * (n - len(_GLUE)) + "。"
    return _glued_cut([_glued(i, glue) for i in range(6)])[0].endswith("。")


def _bracket_left(k: int) -> int:
    """How many of a site's credits in brackets, glued after a sentence in k of a novel's 10 chapters,
    are left once cleaned."""
    return _left_in_book(
        lambda c: [
            f"　　他转身走了{c}步。" + ("（某某手机电子书论坛整理）" if c <= k else ""),
            "　　城门已闭。",
        ],
        "论坛",
    )


def _site_piece_at(share: float) -> bool:
    """Whether a repeated piece of site words (手机版, 全文字) and the story's 天, this share of its Han
    characters site words, is the site's."""
    return repeats._site_piece("手机版全文字" * 3 + "天" * (round(12 / share) - 18))


def _left_in_book(paragraphs, needle: str) -> int:
    """How many paragraphs holding `needle` are left once a novel of ten chapters, chapter c's
    paragraphs `paragraphs(c)`, is cleaned."""
    text = []
    for c in range(1, 11):
        text += [f"第{c}章 风起第{c}回", *paragraphs(c)]
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "novel.txt").write_text("\n".join(text) + "\n", "utf-8")
        book = load_book(Path(folder) / "novel.txt", jobs=1).book
    return sum(needle in b.text for c in book.chapters() for b in c.blocks)


def _site_name_after(n: int) -> int:
    """How many chapters keep a site's name of n characters (…阅读网) after their last sentence."""
    name = "甲乙丙丁戊"[: n - 3] + "阅读网"
    return _left_in_book(
        lambda c: [f"　　他转身走了{c}步。", f"　　天色将晚，城门已闭{c}次。{name}"], "阅读网"
    )


def _notice_times(n: int) -> int:
    """How many of n notices (two notice words and more) in one chapter of ten are left."""
    notice = "请记住本站最新章节免费阅读。"
    return _left_in_book(
        lambda c: (
            [f"　　他转身走了{c}步。"]
            + ([f"　　天色将晚{k}次。{notice}" for k in range(n)] if c == 1 else [])
            + ["　　城门已闭。"]
        ),
        "免费阅读",
    )


def _pages_cut(numbers: list[int]) -> int:
    """How many page marks (-N- inside a sentence) a book cuts whose marks count these numbers."""
    chapters = [[f"他看了一眼-{n}-窗外的雨。", "天色将晚。"] for n in numbers]
    _, removed = page_marks.strip_page_marks(one_file_book(chapters))
    return sum(len(found) for found in removed.values())


ROWS = [
    Threshold(
        "page_marks.PAGE_RUN",
        page_marks.PAGE_RUN,
        lambda n: _pages_cut(list(range(3, 3 + n))),
        page_marks.PAGE_RUN,
        0,
        step=-1,
    ),
    Threshold(
        "page_marks.PAGE_STEP",
        page_marks.PAGE_STEP,
        lambda n: _pages_cut([n * k for k in range(1, 7)]),
        6,
        0,
    ),
    # a saved page's title (某书…-第1章 风起-某某小说网): a line this long at the most
    Threshold("repeats.PAGE_TITLE", repeats.PAGE_TITLE, _page_title, True, False),
    # a site's template goes where it repeats through this many chapters
    Threshold(
        "repeats.MIN_CHAPTERS", repeats.MIN_CHAPTERS, _template_left, 0, repeats.MIN_CHAPTERS - 1, step=-1
    ),
    # repeats (normalize/repeats.py): a template in a book of fewer chapters, a page title at a
    # chapter's edge, a template's longest sentence, a glued fragment's chapters, start and length
    Threshold("repeats.MIN_TIMES", repeats.MIN_TIMES, _times_left, 0, repeats.MIN_TIMES - 1, step=-1),
    Threshold("repeats.EDGE", repeats.EDGE, _page_title_at, 0, 4),
    Threshold("repeats.PIECE", repeats.PIECE, _piece_left, 0, 4),
    Threshold(
        "repeats.FRAGMENT_CHAPTERS",
        repeats.FRAGMENT_CHAPTERS,
        lambda n: _glued_cut([_glued(i, _GLUE) for i in range(n)]),
        [_GLUE],
        [],
        step=-1,
    ),
    Threshold(
        "repeats.SOON",
        repeats.SOON,
        lambda n: bool(_glued_cut([_glued(i, "甲" * (n - 1) + _GLUE) for i in range(6)])),
        True,
        False,
    ),
    Threshold("repeats.FRAGMENT", repeats.FRAGMENT, _fragment_ends_its_sentence, True, False),
    # a site's words in brackets glued to the story go where they come in this many chapters
    Threshold(
        "glued_brackets.BRACKET_CHAPTERS",
        glued_brackets.BRACKET_CHAPTERS,
        _bracket_left,
        0,
        glued_brackets.BRACKET_CHAPTERS - 1,
        step=-1,
    ),
    Threshold(
        "repeats.MIN_FRAGMENT",
        repeats.MIN_FRAGMENT,
        lambda n: bool(
            repeats._fragment("甲" * (n - 5) + "本站网址。", [(0, "甲" * (n - 5) + "本站网址。乙")])
        ),
        True,
        False,
        step=-1,
    ),
    Threshold(
        "repeats.SITE_NAME_PIECE",
        repeats.SITE_NAME_PIECE,
        lambda n: repeats._site_piece("甲" * (n - 3) + "阅读网"),
        True,
        False,
    ),
    Threshold("repeats.PIECE_SITE_SHARE", repeats.PIECE_SITE_SHARE, _site_piece_at, True, False, step=-0.05),
    Threshold("repeats.MIN_KEY", repeats.MIN_KEY, _site_name_after, 0, 10, step=-1),
    Threshold("repeats.STRONG_TIMES", repeats.STRONG_TIMES, _notice_times, 0, 2, step=-1),
]


@pytest.mark.parametrize("row", ROWS, ids=[t.constant for t in ROWS])
def test_each_threshold_decides_at_its_value_and_not_one_step_past(row):
    row.check()
