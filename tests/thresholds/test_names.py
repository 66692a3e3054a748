"""Rows of the thresholds that decide a book's title and author from what the text gives
(structure/signed.py: a name alone under the title, a signature; structure/name_against_text.py:
a file name read against the names the text quotes)."""

import pytest

from bookbuilder.model import Chapter, Location, Volume
from bookbuilder.structure import name_against_text, signed
from tests.thresholds.rows import Threshold, paragraphs_of

SENTENCE = "正文一句话说完了。"


def _book(*chapters: tuple[str, list[str]]) -> tuple[Volume, ...]:
    return (Volume(None, tuple(Chapter(t, paragraphs_of(p), Location("f.txt", 1)) for t, p in chapters)),)


def _said(n: int) -> bool:
    """Whether a name the story says in n paragraphs is a character's (said often)."""
    return signed.said_often("阿蛮", _book(("第一章", ["阿蛮走进院子。"] * n + [SENTENCE])))


def _signed_after(n: int):
    """The afterword's signer when n lines follow its last sentence (the name first)."""
    found = signed._signed_last(paragraphs_of([SENTENCE, "某甲"] + ["【续集】"] * (n - 1)))
    return found and found[0]


def _title_over_name(n: int):
    """The title an intro page of a title line of n characters over a name line gives."""
    found = signed.name_under_title(paragraphs_of(["天" * n, "某甲"]), set(), (), alone=True)
    return found and found[0].text


def _quoted(n: int) -> str:
    """The title tianyake.txt gets from a text that quotes 《天涯客》 n times."""
    return name_against_text.title_in_text("tianyake", _book(("第一章", ["他翻开《天涯客》。"] * n)))


def _initials(n: int) -> bool:
    """Whether the n initials of a name of n characters spell it."""
    name = "天涯客人"[:n]
    return name_against_text.spells("tykr"[:n], name)


def _tag(n: int) -> bool:
    """Whether a name with a tag of n Han characters and Latin letters is the quoted title tagged."""
    return name_against_text._tagged("天涯客" + "繁" * n + "BIG", "天涯客")


def _author_in(n: int) -> str:
    """The author tianyake_moujia.txt spells where the n-th chapter's title is 某甲作品集序."""
    chapters = [(f"第{k}章", [SENTENCE]) for k in range(1, n)] + [("某甲作品集序", [SENTENCE])]
    return name_against_text.author_spelled("tianyake_moujia", "天涯客", _book(*chapters))


ROWS = [
    Threshold("signed.STORY_SAYS_MOST", signed.STORY_SAYS_MOST, _said, False, True),
    Threshold("signed.SIGNATURE_TAIL", signed.SIGNATURE_TAIL, _signed_after, "某甲", None),
    Threshold("signed.TITLE_MOST", signed.TITLE_MOST, _title_over_name, "天" * signed.TITLE_MOST, None),
    Threshold(
        "name_against_text.QUOTED_LEAST", name_against_text.QUOTED_LEAST, _quoted, "天涯客", "", step=-1
    ),
    Threshold(
        "name_against_text.INITIALS_LEAST", name_against_text.INITIALS_LEAST, _initials, True, False, step=-1
    ),
    Threshold("name_against_text.TAG_HAN_MOST", name_against_text.TAG_HAN_MOST, _tag, True, False),
    Threshold(
        "name_against_text.NAME_SEARCH_CHAPTERS",
        name_against_text.NAME_SEARCH_CHAPTERS,
        _author_in,
        "某甲",
        "",
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.constant)
def test_threshold(row):
    row.check()
