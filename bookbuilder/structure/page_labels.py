"""A paged site's running label: `分节阅读 12`, `_分节阅读_12`, a line alone wherever the site cut
the book into pages, often with a rule of dashes above it (天龙八部, 红楼梦 and 水浒传 downloads of
one site: 94 to 267 of them a file). The site cut by size, so the label stands between two halves
of a sentence (`他这` / `分节阅读 2` / `番话甚么…`); left in, the reflow glues it to the story.

One such line is any text's (a diary's `Day 3`, a list's `步骤 2`). What tells a page's label is
the book's own regularity, all three at once: the same words on every one, a number that counts on
through the file (or through each chapter, starting again at its first pages), and the text running
on across most of them, the line before not ending its sentence, which a heading's or a diary's day
never does. The label and the rule above it are left blank, not taken out, so that every other line
keeps its number and the two halves of the sentence join as the halves of any wrapped line do.

A splitting tool's part marker (`第三部分` alone on its line, where a tool or a site cut the text
into parts by size) is the same class with its number in the middle: a volume's label without a
title, counting on once each through the file, standing where the tool cut: between the halves of a
sentence, or inside a chapter whose own numbering runs on across it. A book's real parts stand
right before their first chapter's heading, so they are kept (`part_markers`).
"""

from __future__ import annotations

import re
from collections import defaultdict

from bookbuilder.diagnostics import Diagnostic, Location, removal
from bookbuilder.numerals import NUMERAL_RUN, parse_numeral
from bookbuilder.structure.headings import VOLUME_UNIT, candidate
from bookbuilder.vocabulary import SENTENCE_ENDED

RULE = "page-labels"
LABEL_RUN = 5  # labels of one wording, at least: fewer may be a story's own numbered lines
LABEL_STEP = 1  # from one label to the next: a page is never skipped, the site numbers them all
FIRST_PAGE = (
    2  # where a count starts again at a new chapter: its first page, or its second (the first unlabelled)
)
MID_SENTENCE_SHARE = 0.5  # of a label's lines, at least this share stand inside a sentence

# words (2 to 12 characters, no digit) then a number, perhaps framed by _, spaces or a rule:
# 分节阅读 3, _分节阅读_3, -----Page3-----
_FRAME = "_\\s\\-－—=＝"
_LABEL_LINE = re.compile(rf"^[{_FRAME}]*(?P<label>[^\d{_FRAME}]{{2,12}}?)[_\s]*(?P<n>\d{{1,5}})[{_FRAME}]*$")
_LABEL_ENDS = frozenset(
    "0123456789０１２３４５６７８９-_=－—＝"
)  # what a label line ends with: most lines end otherwise
_RULE_LINE = re.compile(r"^[-－—=＝_─━]{3,}$")  # the page's rule above its label


def running_labels(lines: list[str]) -> dict[int, str]:
    """Index → evidence, for each line that is a running page label and each rule right above one;
    {} where the file has none."""
    found: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped and stripped[-1] in _LABEL_ENDS and (m := _LABEL_LINE.match(stripped)):
            found[m["label"]].append((i, int(m["n"])))
    taken: dict[int, str] = {}
    for label, seen in found.items():
        if len(seen) < LABEL_RUN or not counts_on([n for _, n in seen]):
            continue
        inside = sum(1 for i, _ in seen if _inside_a_sentence(lines, i))
        if inside >= MID_SENTENCE_SHARE * len(seen):
            evidence = f"{len(seen)} lines '{label} N' counting on, {inside} inside a sentence"
            for i, _ in seen:
                taken[i] = evidence
                if (j := _rule_above(lines, i)) is not None:
                    taken[j] = evidence
    return taken


PART_RUN = 3  # part markers, at least: a book cut in two is told by nothing but its one marker
PART_CUT_SHARE = 0.5  # of the markers, at least this share stand where a tool cut (not a part's start)
PART_INTRO_LINES = 3  # lines of text, at most, between a real part's label and its first chapter's heading

# 第三部分, 第3部, ===第三卷===: a volume's label alone, no title
_PART_LINE = re.compile(rf"^[{_FRAME}]*第\s*(?P<n>{NUMERAL_RUN})\s*{VOLUME_UNIT}[{_FRAME}]*$")


def part_markers(lines: list[str]) -> dict[int, str]:
    """Index → evidence, for each line that is a splitting tool's part marker; {} where the file's
    part labels (if any) are its real parts: fewer than PART_RUN, numbers that do not count on once
    each from 1 (or 2, the first part unmarked), or fewer than PART_CUT_SHARE of them where a tool cut."""
    seen = [
        (i, parse_numeral(m["n"])) for i, line in enumerate(lines) if (m := _PART_LINE.match(line.strip()))
    ]
    numbers = [n for _, n in seen]
    if (
        len(seen) < PART_RUN
        or numbers[0] not in (1, 2)
        or numbers != list(range(numbers[0], numbers[0] + len(seen)))
    ):
        return {}
    chapters = _chapter_numbers(lines, {i for i, _ in seen})
    cut = sum(1 for i, _ in seen if _cuts_the_text(lines, i, chapters))
    if cut < PART_CUT_SHARE * len(seen):
        return {}
    evidence = f"{len(seen)} part markers counting on, {cut} cutting the text (a sentence or a chapter)"
    return {i: evidence for i, _ in seen}


def _chapter_numbers(lines: list[str], markers: set[int]) -> dict[int, int]:
    """Index → number, for each line any heading rule reads as a numbered chapter's (a weak
    candidate too: 第一章我的童年, its title glued on, still opens a chapter)."""
    found = {}
    for i, line in enumerate(lines):
        if i not in markers and line.strip() and (h := candidate(line.strip(), i + 1)):
            if h.kind == "chapter" and h.number is not None:
                found[i] = h.number
    return found


def _cuts_the_text(lines: list[str], i: int, chapters: dict[int, int]) -> bool:
    """Whether the marker stands where a tool cut: not right above a chapter's heading (where a real
    part stands, whatever the line before it ends with), and inside a sentence or a chapter."""
    below = _below(lines, i)
    if below is not None and below in chapters:
        return False
    return _inside_a_sentence(lines, i) or _inside_a_chapter(lines, i, chapters)


def _below(lines: list[str], i: int) -> int | None:
    j = i + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    return j if j < len(lines) else None


def _inside_a_chapter(lines: list[str], i: int, chapters: dict[int, int]) -> bool:
    """Whether the marker stands in a chapter's text: the chapter before it is numbered N, the next
    N + 1, and more than PART_INTRO_LINES lines of text stand between the marker and that next
    heading (a real part's page under its label is shorter)."""
    before = [k for k in chapters if k < i]
    after = [k for k in chapters if k > i]
    if not before or not after or chapters[after[0]] != chapters[before[-1]] + 1:
        return False
    text_lines = sum(1 for line in lines[i + 1 : after[0]] if line.strip())
    return text_lines > PART_INTRO_LINES


def counts_on(numbers: list[int]) -> bool:
    """Whether the numbers count on, each the last plus LABEL_STEP, or start again at a chapter's
    first pages (FIRST_PAGE or lower)."""
    return all(b == a + LABEL_STEP or b <= FIRST_PAGE for a, b in zip(numbers, numbers[1:]))


def _above(lines: list[str], i: int) -> int | None:
    j = i - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    return j if j >= 0 else None


def _rule_above(lines: list[str], i: int) -> int | None:
    j = _above(lines, i)
    return j if j is not None and _RULE_LINE.match(lines[j].strip()) else None


def _inside_a_sentence(lines: list[str], i: int) -> bool:
    """Whether the text before the label (past its rule) stops short of a sentence's end."""
    j = _above(lines, i)
    if j is not None and _RULE_LINE.match(lines[j].strip()):
        j = _above(lines, j)
    return j is not None and not lines[j].strip().endswith(SENTENCE_ENDED)


def without_page_labels(
    text: str, path: str, off: frozenset[str] = frozenset()
) -> tuple[str, list[Diagnostic]]:
    """The file's text with its running page labels and their rules left blank, and a removal record
    of each. `off`: the rules book.toml switches off ([normalize.junk] disable)."""
    if RULE in off or "\n" not in text:
        return text, []
    lines = text.split("\n")
    taken = running_labels(lines) | part_markers(lines)
    if not taken:
        return text, []
    records = []
    for i in sorted(taken):
        records.append(removal(RULE, lines[i].strip(), Location(path, i + 1), taken[i]))
        lines[i] = ""
    return "\n".join(lines), records
