"""A 回目 couplet title set on two lines: 第二回　絕世奇事傳聞裡, then 最好交情見面初 on a line
of its own, then the chapter's text. Read line by line, the heading kept only the first half and
the second stayed a paragraph (unwrapped later into the first one: 最好交情見面初揚州城自古為…). The
two lines are one title, 第二回 絕世奇事傳聞裡 最好交情見面初, the form the book's one-line headings have.

Decided per file, by evidence: a line is the other half only where the form recurs (three or more
headings, and half or more of those whose title is one half), so a short line of prose under a
heading stays prose in a book that does not set its titles so.
"""

from __future__ import annotations

import re
from dataclasses import replace

from bookbuilder.model import Paragraph
from bookbuilder.structure.headings import is_bare_label
from bookbuilder.structure.passes import Reading
from bookbuilder.vocabulary import PUNCTUATION

HALF = (4, 12)  # characters in one half of a couplet title (a 回目's halves run 5 to 9)
HALF_SLACK = 2  # characters the two halves may differ by (七字 against 八字)
COUPLETS_LEAST = 3  # headings set so, at least
COUPLETS_SHARE = 0.5  # of the headings whose title is one half, at least
_BEFORE_A_POEM = ("曰", "云", "道", "證", "证")
# Any punctuation: a couplet's halves have none, a line of dialogue or a sentence has some.
_PUNCTUATION = re.compile(f"[{re.escape(PUNCTUATION)}*＊☆★]")  # and a couplet's ornaments


def _one_half(title: str) -> str | None:
    """The title's words after its label when they are one half of a couplet (第二回 絕世奇事傳聞裡 →
    絕世奇事傳聞裡), else None (a title of two halves already, a bare label, a sentence)."""
    label, _, words = title.partition(" ")
    if (
        not is_bare_label(label)
        or " " in words
        or not HALF[0] <= len(words) <= HALF[1]
        or _PUNCTUATION.search(words)
    ):
        return None
    return words


def _half_line(text: str, length: int) -> bool:
    """A line that can be a couplet's half beside one of `length` characters."""
    return (
        abs(len(text) - length) <= HALF_SLACK
        and HALF[0] <= len(text) <= HALF[1] + HALF_SLACK
        and " " not in text
        and not _PUNCTUATION.search(text)
        and not text.endswith(("曰", "云"))
    )  # 詩曰: a poem follows


def _other_half(blocks: list, half: str) -> bool:
    """The section opens with the other half: a line like the heading's half but not the same (赢者通吃
    under 第6章 赢者通吃 is the title again), then a paragraph that is no such line (the next line of a
    poem that opens the chapter would be one); and the chapter has no more such lines standing alone
    between paragraphs, which are its sections' titles (第二章 疑云重重, then 始作俑者 and further on
    修约还是制宪…: a history's chapter opens with its first section's title)."""
    if len(blocks) < 2 or type(blocks[0]) is not Paragraph or type(blocks[1]) is not Paragraph:
        return False
    first, then = blocks[0].text, blocks[1].text
    if first == half or not _half_line(first, len(half)) or _half_line(then, len(first)):
        return False
    return not any(_section_title(blocks, k) for k in range(2, len(blocks) - 1))  # a second section's title


def _section_title(blocks: list, k: int) -> bool:
    """blocks[k] is a short line with no punctuation between two paragraphs that are no such lines
    (not 正是, 詩曰 or 有詩為證 before a poem, which a 回 has here and there)."""
    block = blocks[k]
    if (
        type(block) is not Paragraph
        or not HALF[0] <= len(block.text) <= HALF[1] + HALF_SLACK
        or _PUNCTUATION.search(block.text)
        or block.text.endswith(_BEFORE_A_POEM)
    ):
        return False
    return all(
        type(b) is Paragraph and (len(b.text) > HALF[1] + HALF_SLACK or _PUNCTUATION.search(b.text))
        for b in (blocks[k - 1], blocks[k + 1])
    )


def couplet_titles(reading: Reading) -> Reading:
    """The pass: where the file sets its couplet titles on two lines, each second line joined to
    its heading (the heading's title gets it, the line is no paragraph any more)."""
    sections = reading.sections
    if sections is None:
        return reading
    halves = []
    for section in sections:
        h = section.heading
        if h is not None and h.kind == "chapter" and (half := _one_half(h.title)) is not None:
            halves.append((section, half))
    shaped = [section for section, half in halves if _other_half(section.blocks, half)]
    if len(shaped) < COUPLETS_LEAST or len(shaped) < COUPLETS_SHARE * len(halves):
        return reading
    joined = {id(section) for section in shaped}
    return reading._replace(sections=[_joined(s) if id(s) in joined else s for s in sections])


def _joined(section):
    """The section's first line, the couplet's other half, joined to its heading's title."""
    return replace(
        section,
        heading=section.heading._replace(title=f"{section.heading.title} {section.blocks[0].text}"),
        blocks=section.blocks[1:],
    )
