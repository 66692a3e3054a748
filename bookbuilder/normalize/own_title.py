"""A chapter's own title given again inside it, as a paragraph: what is left of a saved page's title
once cleaning cut the link after it (一念永恒 from biqukan: `第151章白小纯，你和我斗？！：　　https://…
请记住本书首发域名…` at the chapter's end, the link and the notice cut, the title and its colon left).

The evidence is the chapter's own: the paragraph is its numbered heading word for word once spaces,
full-width digits and a trailing colon are folded away. A story never writes its chapter's 第N章 label
and title as a line of its text; a title without a numbered label (回家) may be a line of dialogue,
and is left.
"""

from __future__ import annotations

import re

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Book, Paragraph
from bookbuilder.normalize.wrapper import without_places
from bookbuilder.numerals import NUMERAL_RUN
from bookbuilder.structure.heading_debris import CHAPTER_UNIT
from bookbuilder.structure.headings import FULLWIDTH_DIGIT

RULE = "own-title-again"
_NUMBERED = re.compile(rf"^第\s*{NUMERAL_RUN}\s*{CHAPTER_UNIT}")


def _folded(text: str) -> str:
    """The text as compared: no spaces, half-width digits, no colon or space a cut left at its end."""
    return "".join(text.translate(FULLWIDTH_DIGIT).split()).rstrip(":：")


def strip_own_titles(
    book: Book, off: frozenset[str], kept: frozenset
) -> tuple[Book, dict[int, list[Diagnostic]]]:
    """The book without the paragraphs that give their chapter's numbered title again, and each
    chapter's removals (by its index in book.chapters())."""
    if RULE in off:
        return book, {}
    places = {}
    for k, chapter in enumerate(book.chapters()):
        if not chapter.title or not _NUMBERED.match(chapter.title):
            continue
        key = _folded(chapter.title)
        places.update(
            ((k, j), b)
            for j, b in enumerate(chapter.blocks)
            if type(b) is Paragraph
            and len(b.text) <= 2 * len(key)
            and _folded(b.text) == key
            and b.at not in kept
        )
    return without_places(book, places, RULE, "the chapter's own numbered title, given again as a line")
