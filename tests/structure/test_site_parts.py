"""A site's paging into bare 第N部分 parts over chapters numbered straight through
(structure/site_parts.py)."""

from bookbuilder.model import Chapter, Location, Paragraph, Volume
from bookbuilder.structure.site_parts import SITE_PARTS, without_site_parts

AT = Location("f.txt", 1)


def volumes(*parts: tuple[str | None, list[int]]) -> tuple[Volume, ...]:
    return tuple(
        Volume(title, tuple(Chapter(f"第{n}回", (Paragraph("他走了。", AT),), AT, n) for n in numbers), AT)
        for title, numbers in parts
    )


def titles(vs) -> list:
    return [v.title for v in vs]


def test_bare_parts_over_chapters_numbered_straight_through_are_the_sites_pages():
    """七劍十三俠 from one site: 第一部分 over 第1回 … 第3回, 第二部分 over 第4回 on."""
    read = without_site_parts(volumes(("第一部分", [1, 2, 3]), ("第二部分", [4, 5]), ("第三部分", [6, 8])))
    assert titles(read) == [None] and [c.number for c in read[0].chapters] == [1, 2, 3, 4, 5, 6, 8]


def test_parts_a_reader_keeps():
    named = volumes(("第一部分 童年", [1, 2]), ("第二部分 少年", [3, 4]))  # parts that name themselves
    restarting = volumes(("第一部分", [1, 2]), ("第二部分", [1, 2]))  # a collection's stories
    volumes_proper = volumes(("第一卷", [1, 2]), ("第二卷", [3, 4]))  # the author's 卷
    lone = volumes((None, [1, 2]), ("第二部分", [3, 4]))  # one bare part: too few to be a paging
    for kept in (named, restarting, volumes_proper, lone):
        assert without_site_parts(kept) == kept
    assert SITE_PARTS == 2
