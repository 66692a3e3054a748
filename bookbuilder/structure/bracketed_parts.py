"""Parts titled in brackets, alone on the line above their first chapter.

坤宁 (a jjwxc-style download) gives its five parts so: `【洗心怀，故人在】` over 第2章, `【奉宸殿，韶光渐】`
over 第34章 …, and no 第N卷 anywhere. No line rule may take a bracketed line for a heading (a story's
`【签字】`, an author's `【求月票】` at a chapter's end, right above the next heading). What tells a part is
the book's layout: bracketed titles standing right above chapter headings, two or more, each its own,
far fewer than the chapters, none an author's note about the book (the `bracketed-parts` pass, after
the choice; docs/rules-notes.md).
"""

from __future__ import annotations

import re

from bookbuilder.structure.headings import Heading
from bookbuilder.structure.part_sections import bracketed_title
from bookbuilder.structure.passes import Reading, fields, with_chosen
from bookbuilder.vocabulary import APPEAL_WORDS, SENTENCE_END_MARKS

RULE = "bracketed-part"
PARTS_LEAST = 2  # bracketed titles over chapters, for the layout to be the book's
CHAPTERS_A_PART = 3  # chapters to a part, at least, on average: a title over most chapters is theirs
BRACKETED_SHARE = 0.5  # of the file's lines set alone in 【】, at least, the parts' names are
NAME_MOST = 16  # characters in the brackets: a part's name is a phrase or two (洗心怀，故人在)
# An author's note above the next chapter (【求月票！】, 【今天两更】, 【晚上还有一章~】), not a part's name:
# a publication's word, or a sentence's end anywhere in it
_NOTE = re.compile("|".join(APPEAL_WORDS + ("求", "更")) + f"|[{re.escape(SENTENCE_END_MARKS)}~～]")


def bracketed_parts(reading: Reading) -> Reading:
    """The bracketed titles right above chapter headings as parts, in a book with no parts of its own."""
    if reading.options.heading_pattern is not None or reading.choice is None:
        return reading
    headings = reading.choice.headings
    if any(h.kind == "volume" for h in headings.values()):
        return reading  # the book names its parts otherwise
    found: dict[int, Heading] = {}
    for i, h in headings.items():
        if h.kind != "chapter" or h.number is None or i == 0 or i - 1 in headings:
            continue
        title = bracketed_title(reading.lines[i - 1])
        if title is not None and len(title) <= NAME_MOST + 2 and not _NOTE.search(title):
            found[i - 1] = Heading("volume", title, None, fields(reading.lines[i - 1])[0], rule=RULE)
    chapters = sum(h.kind == "chapter" for h in headings.values())
    names = {h.title for h in found.values()}
    if len(found) < PARTS_LEAST or len(names) < len(found) or len(found) * CHAPTERS_A_PART > chapters:
        return reading
    # most of the book's bracketed lines: where many more stand elsewhere (an author's notes at chapters'
    # ends, 【还有一章】, 【晚点应该还有的】), those right above a chapter are notes like them
    bracketed = sum(1 for i, item in enumerate(reading.lines) if i not in headings and bracketed_title(item))
    if len(found) < BRACKETED_SHARE * bracketed:
        return reading
    return with_chosen(reading, found)
