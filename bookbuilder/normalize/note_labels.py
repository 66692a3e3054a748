"""An author's note under its label at chapters' ends. A site that prints the author's words after
each chapter under `<pen name>说` (小呆昭说, 我的一天有48小时 from a qidian crawler) leaves the label and
the words in the download: `推荐一本幼苗《…》…`, `抱歉，今天只有一更了。`, at the end of 20 chapters.

The label is the book's own evidence: the same short line `…说`, alone, among the last lines of
LABEL_CHAPTERS chapters or more. A story does not end chapter after chapter on the same speech tag
alone on its line. In each such chapter the label and the lines after it to the chapter's end go,
where they are at most NOTE_LINES (a whole-book pass: the repetition is seen across chapters).
"""

from __future__ import annotations

import re
from collections import Counter

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Book, Paragraph
from bookbuilder.normalize.wrapper import without_places
from bookbuilder.vocabulary import HAN_COMMON

RULE = "author-note-label"
LABEL_CHAPTERS = 3  # chapters ending under the same label, at least: the book's layout, not a line
NOTE_LINES = 6  # lines under the label, at most, to the chapter's end: a note, not the story going on
_LABEL = re.compile(rf"^[{HAN_COMMON}]{{2,8}}说$")


def strip_note_labels(
    book: Book, off: frozenset[str], kept: frozenset
) -> tuple[Book, dict[int, list[Diagnostic]]]:
    """The book without the author's notes under a label repeated at chapters' ends, and each
    chapter's removals (by its index in book.chapters())."""
    if RULE in off:
        return book, {}
    chapters = list(book.chapters())
    labelled: dict[int, int] = {}  # chapter → the label's block
    for k, chapter in enumerate(chapters):
        last = [j for j, b in enumerate(chapter.blocks) if type(b) is Paragraph][-NOTE_LINES - 1 :]
        if at := next((j for j in last if _LABEL.match(chapter.blocks[j].text.strip())), None):
            labelled[k] = at
    times = Counter(chapters[k].blocks[j].text.strip() for k, j in labelled.items())
    labels = {text for text, n in times.items() if n >= LABEL_CHAPTERS}
    places = {
        (k, i): chapters[k].blocks[i]
        for k, j in labelled.items()
        if chapters[k].blocks[j].text.strip() in labels
        for i in range(j, len(chapters[k].blocks))
        if type(chapters[k].blocks[i]) is Paragraph and chapters[k].blocks[i].at not in kept
    }
    evidence = f"an author's note under a label that ends {LABEL_CHAPTERS} chapters or more"
    return without_places(book, places, RULE, evidence)
