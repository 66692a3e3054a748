"""Thresholds of a site's name strewn through a sentence (normalize/strewn.py) and of what pages and
crawlers leave (normalize/leftovers.py): how far apart a name's marks stand, how many it needs, how
much of it is site words, how far a name strewn word by word reaches; how long a breadcrumb or a broken
site line is, how many words a menu has, how much of a line is broken bytes."""

import pytest

from bookbuilder.normalize import leftovers, strewn
from tests.thresholds.rows import Threshold

LOST = leftovers.LOST


def _names(text: str) -> list[str]:
    return [text[a:b] for a, b, _ in strewn.strewn_names(text)]


def _one_name_across(gap: int) -> bool:
    """Whether marks `gap` Han characters apart (site words between them) strew one name."""
    return bool(_names("他走了。小*" + ("书城" * 4)[:gap] + "*网"))


def _name_of_marks(marks: int) -> bool:
    """Whether a run of site words with `marks` marks between its characters is a strewn name."""
    return bool(_names("他走了。" + "#".join("小说网书城"[: marks + 1]) + "。"))


def _name_at_share(share: float) -> bool:
    """Whether 100 characters strewn with *, this share of them a site's word (网), are a name."""
    k = round(share * 100)
    return bool(_names("他走了。" + "*".join("网" * k + "天" * (100 - k)) + "。"))


def _reaches_whole_word(n: int) -> bool:
    """Whether a name strewn word by word, its words n characters long, takes the whole word before
    its first mark."""
    name = "天" * n + "*" + "网" * n + "*" + "网" * n
    return _names("他走了。" + name + "。他来了") == [name]


def _broken_line(n: int) -> bool:
    """Whether a broken site line of n characters (its noise padded with more U+FFFD) goes."""
    line = f"天才壹秒{LOST * 2}住『{LOST}邸崛ァ滦{LOST}?{LOST}f→{LOST}W』，"
    line += f"{LOST}槟{LOST}提供精彩小{LOST}f{LOST * 3}x。"
    return bool(leftovers.broken_site_line(line + LOST * (n - len(line))))


ROWS = [
    Threshold("strewn.STREWN_GAP", strewn.STREWN_GAP, _one_name_across, True, False),
    Threshold("strewn.STREWN_LEAST", strewn.STREWN_LEAST, _name_of_marks, True, False, step=-1),
    Threshold("strewn.STREWN_SITE_SHARE", strewn.STREWN_SITE_SHARE, _name_at_share, True, False, step=-0.01),
    Threshold("strewn.WORD_STREWN", strewn.WORD_STREWN, _reaches_whole_word, True, False),
    Threshold(
        "leftovers.BREADCRUMB_LINE",
        leftovers.BREADCRUMB_LINE,
        lambda n: bool(leftovers.breadcrumb("您所在的位置：某某书名＞正文".ljust(n))),
        True,
        False,
    ),
    Threshold(
        "leftovers.MENU_ITEMS",
        leftovers.MENU_ITEMS,
        lambda n: bool(leftovers.menu_bar("|".join(["首页"] * n))),
        True,
        False,
        step=-1,
    ),
    Threshold("leftovers.MOJIBAKE_LINE", leftovers.MOJIBAKE_LINE, _broken_line, True, False),
    Threshold(
        "leftovers.MOJIBAKE_LEAST",
        leftovers.MOJIBAKE_LEAST,
        lambda n: bool(leftovers.broken_site_line("提供精彩" + LOST * n + "→" * 8)),
        True,
        False,
        step=-1,
    ),
    Threshold(
        "leftovers.MOJIBAKE_SHARE",
        leftovers.MOJIBAKE_SHARE,
        lambda share: bool(
            leftovers.broken_site_line(
                LOST * 3 + "→" * (round(share * 50) - 3) + "提供" + "天" * (48 - round(share * 50))
            )
        ),
        True,
        False,
        step=-0.02,
    ),
    Threshold(
        "leftovers.NOISE_BRACKET_LEAST",
        leftovers.NOISE_BRACKET_LEAST,
        lambda n: bool(leftovers.leftover_spans("他说。【" + LOST * n + "△去小Ww qu】他走了")),
        True,
        False,
        step=-1,
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=[t.constant for t in ROWS])
def test_each_threshold_decides_at_its_value_and_not_one_step_past(row):
    row.check()
