"""An author's appeal at a chapter's edge: a web serial's note asking its readers for the book's
publication (`ps：求推荐票、求收藏`, `新书期，别忘了收藏与推荐啊`, `【…把订阅继续下去！】`), among a
chapter's first or last lines. It is about the book's standing on its site (votes, collections,
subscriptions, rankings), not its story, and a reader of the finished book has no use for it.

A line is an appeal where it names the book's publication (APPEAL_WORDS) and either is marked as the
author's note (a `ps` in front, `作者的话`, the whole line in brackets) or asks for it there and then
(`求收藏`, `记得投个月票`: the asking word right before what it asks). A line that names the
publication in words a story does not use (PUBLICATION_NAMES) but does neither (`点击榜，推荐榜，第一！`)
goes only in a run of the note's lines with an
appeal in it. The run is read from the chapter's edge inward, over at most NOTE_EDGE_LINES lines, passing
one line of the author's other words between two of the note's and stopping at the second; those
other words stay (they may be the story's last line, and prose is sacred). The same words in the
middle of a chapter, or in dialogue, are the story's and stay.
"""

from __future__ import annotations

import re

from bookbuilder.diagnostics import Diagnostic, removal
from bookbuilder.model import Paragraph
from bookbuilder.normalize.lines import site_tail
from bookbuilder.vocabulary import (
    APPEAL_ASKING,
    APPEAL_WORD_ENDS,
    APPEAL_WORDS,
    BOOK_PUBLICATION,
    DIALOGUE_QUOTES,
    HAN_CHAR,
    HAN_COMMON,
    MARKED_NOTE_WORDS,
    NOT_A_PLEA,
    PERSONS,
    PUBLICATION_NAMES,
    READER_ADDRESS,
)

NAMED_BETWEEN = PERSONS + "它您"  # a person named between the asking and what it asks for
THIRD_PERSONS = "他她"  # whom a story tells of; an author's note speaks as 我 to 大家

RULE = "author_appeals"
NOTE_EDGE_LINES = 6  # of a chapter's first and last lines: an author's note at an edge is no longer
APPEAL_LONGEST = 120  # characters: a longer line is a paragraph, whatever it names
NAMING_LONGEST = 80  # characters: a line that only names the publication, no longer (RULES §5's limit)
ASK_GAP = 3  # characters, at most, between the asking and what it asks for: 记得先投个月票
OTHER_WORDS = 1  # of the author's other lines, at most, between two of the note's

_WORDS = "|".join(APPEAL_WORDS)
_NAMES = re.compile(_WORDS)
_ONLY_PUBLICATION = re.compile("|".join(PUBLICATION_NAMES))
# 求推荐票, 别忘了收藏, 记得先投个月票: what is asked for right after the asking
# (no one between: 求我替他收藏 asks a person, not the readers)
# (要求投资建厂, 寻求投资: a demand and a pursuit in the story)
_ASKING = "|".join(f"(?<![{NOT_A_PLEA}]){w}" if w == "求" else w for w in APPEAL_ASKING)
# and the word asked for whole (票 or 榜 may close it: 推荐票): 求收藏家, 求推荐信 ask for no publication
_ASKS = re.compile(
    rf"(?:{_ASKING})[^，。！？,.!?{NAMED_BETWEEN}]{{0,{ASK_GAP}}}?(?:{_WORDS})[票榜]?"
    rf"(?=$|[^{HAN_COMMON}]|[{APPEAL_WORD_ENDS}]|求|{_WORDS})"
)
# ps：, P.S., PS2：, 作者的话：
_MARKED = re.compile(r"^(?:[Pp]\.?\s?[Ss]\.?\d?\s*[:：.．,，\s]|作者(?:的话|有话说|有话要说))")
# 【…】 or （…） the whole line (a crawler's stray letter after it: 【…】x), naming the book's publication:
# a story's aside in brackets (（叮！收到打赏一千点）) names none of it
_BRACKETED = re.compile(r"^(?:【.*】|[（(].*[)）])[A-Za-z]?$")
_OF_THE_BOOK = re.compile("|".join(BOOK_PUBLICATION))
_NOTE_OF_THE_BOOK = re.compile("|".join(MARKED_NOTE_WORDS))
_IN_BRACKETS = re.compile(r"[（(【\[][^）)】\]]*[）)】\]]")  # an appeal glued into a line in brackets
_THIRD_PERSON = re.compile(f"[{THIRD_PERSONS}]")
_TO_THE_READERS = re.compile("|".join(READER_ADDRESS))
# the readers' votes, never a story's: 月票 only where it is cast (大家都办了月票 is a bus pass)
_VOTES = re.compile(
    "|".join(n for n in PUBLICATION_NAMES if n != "月票") + r"|[投砸]\S{0,4}月票|月票\S{0,4}[投砸]"
)

_NAMING, _APPEAL = 1, 2
_MARKS_ONLY = re.compile(r"^[.．。，,、…·]+$")  # a line of a stray dot or comma, no rule of dashes


def appeal_strength(text: str) -> int:
    """_APPEAL, _NAMING or 0: what the line is as an author's note about the book's publication."""
    line = text.strip()
    if len(line) > APPEAL_LONGEST or any(q in line for q in DIALOGUE_QUOTES) or not _NAMES.search(line):
        return 0
    # marked as the author's note, or the whole line in brackets: and about the book, not a letter's
    # P.S. in the story (P.S. 爸爸的投资失败了) nor the author's other words (作者的话：写到了收藏家)
    if _MARKED.match(line) and (_NOTE_OF_THE_BOOK.search(line) or _ASKS.search(line)):
        return _APPEAL
    if _BRACKETED.match(line) and _OF_THE_BOOK.search(line):
        return _APPEAL
    # unmarked: the author's own voice, no one the story tells of (他在竹林里走了很久（求收藏）。 is a
    # story's sentence with an appeal glued in, which the bracket rules cut; 他去求收藏家 is the story's)
    if _THIRD_PERSON.search(line):
        return 0
    if site_tail(line):  # 求月票！某某中文: left whole to normalize/repeats.py, which reads the site's
        return 0  # words by their repetition through the book (the line gone here, they go unseen)
    if _ASKS.search(_IN_BRACKETS.sub("", line)):
        return _APPEAL
    if not (len(line) <= NAMING_LONGEST and _ONLY_PUBLICATION.search(line)):
        return 0
    # the publication named to the readers (新书开始上传，会员点击、推荐票、收藏，请大家伸伸手吧): an appeal
    return _APPEAL if _TO_THE_READERS.search(line) and _VOTES.search(line) else _NAMING


def edge_appeals(paragraphs: list[Paragraph]) -> list[int]:
    """Indexes of the note's lines in a run read from the first of these paragraphs inward ([] where
    the run has no appeal in it): over lines with no Han character (a rule, a stray dot), up to
    NOTE_EDGE_LINES lines, passing OTHER_WORDS other lines between two of the note's."""
    taken, strongest, others, looked = [], 0, 0, 0
    for k, paragraph in enumerate(paragraphs):
        if not HAN_CHAR.search(paragraph.text):
            continue
        looked += 1
        if looked > NOTE_EDGE_LINES:
            break
        if strength := appeal_strength(paragraph.text):
            taken.append(k)
            strongest, others = max(strongest, strength), 0
        elif (others := others + 1) > OTHER_WORDS:
            break
    return taken if strongest == _APPEAL else []


def without_appeals(blocks: tuple, kept=lambda block: False) -> tuple[tuple, list[Diagnostic]]:
    """The chapter's blocks less the appeals at its two edges, and a removal record of each; `kept`:
    whether a [[keep]] entry keeps a paragraph (it stays, passed by as a heading is)."""
    where = [k for k, b in enumerate(blocks) if type(b) is Paragraph and not kept(b)]
    paragraphs = [blocks[k] for k in where]
    head = edge_appeals(paragraphs)
    tail = [len(paragraphs) - 1 - k for k in edge_appeals(paragraphs[::-1])]
    taken = set(head + tail)
    # a stray mark alone on the line after a note's line (求月票！ / .): the note's, which the orphans
    # rule would have glued to it; left, it glues to the story's line instead
    taken |= {k + 1 for k in taken if k + 1 < len(paragraphs) and _MARKS_ONLY.match(paragraphs[k + 1].text)}
    gone = {where[k] for k in taken}
    if not gone:
        return blocks, []
    records = [
        removal(
            RULE,
            blocks[k].text,
            blocks[k].at,
            "a stray mark after an author's appeal"
            if _MARKS_ONLY.match(blocks[k].text)
            else "an author's appeal for the book's publication at a chapter's edge",
        )
        for k in sorted(gone)
    ]
    return tuple(b for k, b in enumerate(blocks) if k not in gone), records


def rule(blocks: tuple, step) -> tuple:
    """The rule as normalize/rules.py runs it (`step`: its Step): the appeals at the chapter's edges
    but a [[keep]] line, counted and recorded."""
    kept = step.normalizer.kept
    out, removed = without_appeals(blocks, lambda b: any(k.keeps(b) for k in kept))
    step.counts[RULE] += len(removed)
    step.removed.extend(removed)
    return out
