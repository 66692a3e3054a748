"""Thresholds of a chapter's lines and layout (normalize/lines.py, layout.py, chars.py): verse and
short lines never joined, a wrapped or typeset page's widths, a scrape's flush lines, the spaces a
join left between Han characters."""

import pytest

from bookbuilder.model import Location, Paragraph
from bookbuilder.normalize import chars, layout, lines
from tests.thresholds.rows import Threshold, paragraphs_of, taken


def _blocks_after_unwrap(texts: list[str]) -> int:
    blocks = tuple(Paragraph(t, Location("f.txt", i)) for i, t in enumerate(texts, 1))
    return len(lines.unwrap(blocks)[0])


def _band_covers(n: int) -> bool:
    """Whether the justified band of 30 open-ended lines of n lengths (24, 25 …) holds them all."""
    blocks = paragraphs_of(["天" * (24 + i % n) for i in range(30)])
    return layout.justified_band(blocks) == (24, 24 + n - 1)


def _band_share(share: float):
    """The justified band of 50 lines, this share of them of five lengths (24–28), the rest all longer."""
    k = round(share * 50)
    return layout.justified_band(
        paragraphs_of(["天" * (24 + i % 5) for i in range(k)] + ["天" * (40 + i) for i in range(50 - k)])
    )


def _flush_continues(flush: list[bool], continuing: int = 50) -> bool:
    """Whether a chapter of lines of varied lengths, flush where `flush` says (indented elsewhere), reads
    as a scrape whose flush lines carry on the line before: the first `continuing` flush lines follow
    an open end (，), the others a full stop."""
    blocks, carried = [], 0
    for i, at_margin in enumerate(flush):
        ends_open = not (i + 1 < len(flush) and flush[i + 1]) or carried < continuing
        carried += i + 1 < len(flush) and flush[i + 1]
        text = "天" * (14 + (i * 7) % 23) + ("，" if ends_open else "。")
        blocks.append(Paragraph(text, Location("f.txt", i + 1), indented=not at_margin))
    return layout.read_layout(tuple(blocks)).flush_continues


def _join_spaces_gone(clauses: int, length: int | None = None) -> bool:
    """Whether the spaces a join left (天地玄黄宇宙 洪荒日月盈昃, once per clause) are taken out of a line
    of prose (made `length` characters long)."""
    line = "，".join(["天地玄黄宇宙 洪荒日月盈昃"] * clauses)
    line += "天" * ((length or 0) - len(line) - 1) + "。"
    return " " not in chars.han_spaces(line + "\n")


def _wrap_width(lines: int, width: int = 20):
    """The wrap width read from `lines` open-ended lines all `width` characters long."""
    return layout.hardwrap_width(paragraphs_of(["甲" * width] * lines))


def _band_of(lines: int):
    """The justified band of `lines` open-ended lines of five lengths (24–28)."""
    return layout.justified_band(paragraphs_of(["天" * (24 + i % 5) for i in range(lines)]))


ROWS = [
    # a site's words after a line's last sentence (which then ends its paragraph)
    Threshold(
        "lines.SITE_TAIL",
        lines.SITE_TAIL,
        lambda n: taken(lines.site_tail, "他走了。网盘搜索找小说" + "哈" * (n - 7)),
        True,
        False,
    ),
    # joining lines: verse (runs of short lines) is never joined; a short line is not joined
    Threshold(
        "lines.VERSE_LINE",
        lines.VERSE_LINE,
        lambda n: _blocks_after_unwrap(["甲" * n, "乙" * n, "丙" * n]),
        3,
        1,
    ),
    Threshold(
        "lines.VERSE_RUN",
        lines.VERSE_RUN,
        lambda n: _blocks_after_unwrap(["甲" * 12] * n) == n,
        True,
        False,
        step=-1,
    ),
    # a header's field line is never joined with the label under it, where it is this short
    Threshold(
        "lines.FIELD_LINE",
        lines.FIELD_LINE,
        lambda n: _blocks_after_unwrap(["类型：" + "甲" * (n - 3), "文案：这是一个很长的故事开头说的是什么"]),
        2,
        1,
    ),
    Threshold(
        "layout.MIN_JOIN",
        layout.MIN_JOIN,
        lambda n: _blocks_after_unwrap(["甲" * n, "乙" * 30]),
        1,
        2,
        step=-1,
    ),
    # a chapter's layout (normalize/layout.py): a typeset page's band of line lengths; a scrape that
    # kept each paragraph's indent, its flush lines carrying on
    Threshold("layout.JUSTIFIED_BAND", layout.JUSTIFIED_BAND, _band_covers, True, False),
    Threshold("layout.JUSTIFIED_SHARE", layout.JUSTIFIED_SHARE, _band_share, (24, 28), None, step=-0.02),
    Threshold(
        "layout.INDENTED_LINES_SHARE",
        layout.INDENTED_LINES_SHARE,
        lambda share: _flush_continues([i >= round(share * 50) for i in range(50)]),
        True,
        False,
        step=-0.02,
    ),
    Threshold(
        "layout.FLUSH_CONTINUING",
        layout.FLUSH_CONTINUING,
        lambda share: _flush_continues([i % 5 == 1 for i in range(50)], round(share * 10)),
        True,
        False,
        step=-0.1,
    ),
    # spaces a join left between Han characters (normalize/chars.py): enough of them, dense enough
    Threshold("chars.JOIN_SPACES", chars.JOIN_SPACES, _join_spaces_gone, True, False, step=-1),
    Threshold(
        "chars.JOIN_DENSITY",
        chars.JOIN_DENSITY,
        lambda density: _join_spaces_gone(4, int(4000 / density)),
        True,
        False,
        step=-0.1,
    ),
    Threshold("layout.WRAP_LINES", layout.WRAP_LINES, _wrap_width, 20, None, step=-1),
    Threshold("layout.WRAP_WIDTH", layout.WRAP_WIDTH, lambda n: _wrap_width(6, n), 20, None, step=-1),
    Threshold("layout.JUSTIFIED_LINES", layout.JUSTIFIED_LINES, _band_of, (24, 28), None, step=-1),
    Threshold(
        "layout.LAYOUT_LINES",
        layout.LAYOUT_LINES,
        lambda n: layout.blank_lines_are_noise([n, n], [10, 1]),
        True,
        False,
        step=-1,
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=[t.constant for t in ROWS])
def test_each_threshold_decides_at_its_value_and_not_one_step_past(row):
    row.check()
