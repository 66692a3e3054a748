"""A site's page header: lines repeated right before many headings (古龙《…》, the book's name over
its author's), and, where a header names both, the lines after that are one of its parts alone.
The heading passes drop them from the text (sections.py notes them as I303)."""

from __future__ import annotations

from bookbuilder.structure.meta import author_and_title
from bookbuilder.structure.passes import Choice, fields
from bookbuilder.vocabulary import SENTENCE_ENDED

HEADER_LINES = 3  # the most lines a page header holds (侠客行 / 金庸: the book's name, then its author's)
# A header's line: at most HEADER_LINE characters, before HEADER_TIMES headings and HEADER_SHARE of them.
HEADER_LINE, HEADER_TIMES, HEADER_SHARE = 40, 3, 0.3


def page_headers(lines, choice: Choice) -> set[int]:
    """Lines that stand right before many headings with the same text (古龙《…》, 第一部分): a
    site's page header, repeated on every page, not the story's; a header of two or three lines
    (the book's name over its author's) line by line upwards."""
    tops = []  # per heading: the line above it, past the headings right before it
    for i in choice.headings:
        j = i - 1
        while j >= 0 and j in choice.headings:
            j -= 1
        tops.append(j)
    found: set[int] = set()
    least = max(HEADER_TIMES, HEADER_SHARE * len(choice.headings))  # headings a header stands before
    for _ in range(HEADER_LINES):
        before: dict[str, list[int]] = {}
        for j in (j for j in tops if j >= 0):
            if len(text := fields(lines[j])[2]) <= HEADER_LINE and not text.endswith(SENTENCE_ENDED):
                before.setdefault(text, []).append(j)
        repeated = [where for where in before.values() if len(where) >= least]
        if not repeated:
            break
        for where in repeated:
            found.update(where)
        tops = [j - 1 for where in repeated for j in where if j - 1 not in choice.headings]
    return found


def header_variants(lines, headers: set[int], choice: Choice, first: int) -> set[int]:
    """The lines after the first heading that are only the author's name or only the book's, where
    a page header names both (金庸《倚天屠龙记》 over 29 chapters; 倚天屠龙记 and 金庸 alone in 7, the
    site's other page layout): the header's parts, not the story's."""
    parts = {
        part
        for i in headers
        if (pair := author_and_title(fields(lines[i])[2]))
        for part in (pair[0], pair[1], f"《{pair[1]}》")
        if len(part) >= 2
    }
    if not parts:
        return set()
    return {
        i for i in range(first + 1, len(lines)) if i not in choice.headings and fields(lines[i])[2] in parts
    }
