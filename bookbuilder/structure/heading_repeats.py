"""A heading given twice in a row: a site's title line, then the text's own, either of them perhaps the
number alone (11, then 11、破关) or the first naming its part before it (第三部 三十四 这样就很好, then
三十四这样就很好). The second opens no chapter of its own (structure/sections.py)."""

from __future__ import annotations

from bookbuilder.structure.headings import Heading


def same_heading(a: Heading, b: Heading) -> bool:
    """The same heading twice in a row (a site's title line, then the text's own), either of them
    perhaps the number alone, or the first naming its part before it (第三部 三十四 …)."""
    if (
        a.title == b.title
        or (a.kind, b.kind) == ("volume", "chapter")
        and bare(a.title).endswith(bare(b.title))
    ):
        return True
    return a.kind == b.kind == "chapter" and a.number is not None and (gives_title(a, b) or gives_title(b, a))


def gives_title(a: Heading, b: Heading) -> bool:
    """Whether `a` is `b` with a title after its number (11、破关 after 11)."""
    return a.number == b.number and bare(a.title).startswith(bare(b.title))


def bare(title: str) -> str:
    return title.replace(" ", "")
