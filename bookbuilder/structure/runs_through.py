"""Candidates that count only where the file's numbering runs on through them: a 第N章 glued to
a title with a comma or to its first sentence, a chapter titled 终, and a lone line that carries the
missing number in any form between chapters N-1 and N+1 (docs/rules-notes.md, "Numbering as
evidence"). bookbuilder.structure.heading_choice asks these after the families are judged.
"""

from __future__ import annotations

import bisect
import re

from bookbuilder.numerals import NUMERAL_CHARS, digit_by_digit, to_chinese
from bookbuilder.structure.headings import Heading


def run_through(
    accepted: dict[int, Heading], family: dict[int, Heading], mutual: bool = True, lost_after: bool = False
) -> dict[int, Heading]:
    """A 第N章 glued to a title with a comma (第二百一十六章脚踏祥云行四海,一条竹杖伏万妖 五) is a
    heading where the chapters on both sides run on through it (N-1 before, N+1 after), as a
    sentence that opens with 第N章 seldom stands exactly there; one neighbour is not enough. The
    file's first chapter needs the two after it to run on (N+1, N+2), its last the two before it;
    `lost_after`: so does one a later number follows (a family that runs in a row, 三十二且自… to
    三十九解不了…, whose next heading the download lost).
    Each is judged among the others taken so far, so that a sentence turned away does not stand in
    its neighbours' way; not `mutual`: among the accepted alone (a file that ends every chapter with
    第N章完 has a family of them that runs on by itself)."""
    keep = dict(family) if mutual else {}
    for _ in range(3):
        seq = sorted(
            (j, h.number)
            for j, h in {**accepted, **keep}.items()
            if h.kind == "chapter" and h.number is not None
        )
        lines = [j for j, _ in seq]
        ok = {
            i: h
            for i, h in family.items()
            if h.kind == "chapter" and runs_through(i, h.number, seq, lines, lost_after)
        }
        if ok == keep or not mutual:
            return ok
        keep = ok
    return keep


# Of the file's median chapter (in lines), at the least, the text after a chapter titled 终 holds.
END_TITLED_SHARE = 0.25


def with_text_after(
    family: dict[int, Heading],
    cands: dict[int, Heading],
    accepted: dict[int, Heading],
    before: dict[int, int],
) -> dict[int, Heading]:
    """The candidates with a chapter's text of their own after them, up to the next line any rule
    took: a chapter titled 终 opens its text (杀死那个白月光's 第50章 终), an end mark closes it
    (第八十三章完 right over the next heading, or over an editor's note of a few lines)."""
    order = sorted(cands)
    taken = sorted(before[i] for i, h in accepted.items() if h.kind == "chapter")
    gaps = sorted(b - a for a, b in zip(taken, taken[1:])) or [0]
    least = max(GAP_TEXT, END_TITLED_SHARE * gaps[len(gaps) // 2])
    kept = {}
    for i, h in family.items():
        k = bisect.bisect_right(order, i)
        if k == len(order) or before[order[k]] - before[i] >= least:
            kept[i] = h
    return kept


def runs_through(i: int, number: int, seq: list[tuple[int, int]], lines: list[int], lost_after=False) -> bool:
    """Whether the chapters around line i (seq: line and number of each, in order) run on through its
    number (`lost_after`: or into it, a later one after it)."""
    k = bisect.bisect_left(lines, i)
    before = [n for _, n in seq[max(0, k - 2) : k]]
    after = [n for _, n in seq[k + (k < len(lines) and lines[k] == i) :][:2]]
    first, last = not seq[:k], not seq[k + (k < len(lines) and lines[k] == i) :]
    return (
        (before[-1:] == [number - 1] and after[:1] == [number + 1])
        or (first and after == [number + 1, number + 2])
        or ((last or (lost_after and after[:1] > [number + 1])) and before == [number - 2, number - 1])
    )


# Lines (not separators) from a chapter's heading to the line that fills the gap after it, and from
# that line to the next heading, at the least: text stands on both sides of a real heading.
GAP_TEXT = 2
_WRITTEN = re.compile(rf"^第?\s*([{NUMERAL_CHARS}]+)")


def gap_fillers(
    accepted: dict[int, Heading], left_out: dict[int, Heading], before: dict[int, int]
) -> dict[int, Heading]:
    """Lines left out by their family's judgement that fill a gap in the chapters taken: between
    chapter N-1 and chapter N+1 the one candidate there, carrying N in any form (第十一 风起 with
    no 章, a bare 十一, Chapter 11), or N misprinted with a character left out (三国演义's 第一百回
    between 第一零九回 and 第一一一回), with text on both sides. Two candidates in one gap are a
    chapter's own numbered items, and neither is taken."""
    seq = sorted((i, h.number) for i, h in accepted.items() if h.kind == "chapter" and h.number is not None)
    lines = [i for i, _ in seq]
    gaps: dict[int, list[int]] = {}
    for i in left_out:
        k = bisect.bisect_left(lines, i)
        if 0 < k < len(seq) and seq[k][1] == seq[k - 1][1] + 2:
            gaps.setdefault(k, []).append(i)
    filled = {}
    for k, found in gaps.items():
        i, number = found[0], seq[k - 1][1] + 1
        h = left_out[i]
        if (
            len(found) == 1
            and (h.number == number or misprinted(h.title, number))
            and before[i] - before[seq[k - 1][0]] >= GAP_TEXT
            and before[seq[k][0]] - before[i] >= GAP_TEXT
        ):
            filled[i] = h._replace(number=number)
    return filled


def misprinted(title: str, number: int) -> bool:
    """Whether the title's number is `number` written with characters left out (一百 for 一百一十,
    四十八 for 一百四十八, 15 for 115; 一 for 一〇, 一一 for 一〇一: an edition numbered digit by digit
    whose 〇 were all lost)."""
    if not (m := _WRITTEN.match(title)):
        return False
    written = m.group(1)
    forms = (to_chinese(number), str(number), digit_by_digit(number))
    return any(len(written) < len(full) and _within(written, full) for full in forms)


def _within(part: str, whole: str) -> bool:
    """Whether `part` is `whole` with some characters left out, the rest in order."""
    rest = iter(whole)
    return all(c in rest for c in part)


# headings written digit by digit (第一一回, 第九九回), at least, for an edition so numbered
DIGITWISE_LEAST = 3


def zeros_lost(title: str, number: int) -> bool:
    """Whether the title's number is `number` written digit by digit with every 〇 lost (第一回 for
    第一〇回, 第一一回 for 第一〇一回): exactly that, no other character left out."""
    full = digit_by_digit(number)
    return "〇" in full and bool(m := _WRITTEN.match(title)) and m.group(1) == full.replace("〇", "")


def zeros_restored(accepted: dict[int, Heading]) -> dict[int, Heading]:
    """The chapters of an edition numbered digit by digit (DIGITWISE_LEAST headings so written, where
    the usual form differs: 一一 for 十一) whose 〇 were lost, numbered as they stand: a 第一回 after
    第九回 is 第一〇回 (西遊記 from one scrape: ten such, and 第一回 for 第一〇〇回 at the end). A
    book numbered the usual way keeps its numbers, and a restart at 第一回 its meaning."""
    seq = sorted((i, h) for i, h in accepted.items() if h.kind == "chapter" and h.number is not None)
    written = [m.group(1) for _, h in seq if (m := _WRITTEN.match(h.title))]
    digitwise = sum(
        1 for w, (_, h) in zip(written, seq) if w == digit_by_digit(h.number) != to_chinese(h.number)
    )
    if digitwise < DIGITWISE_LEAST:
        return accepted
    out, last = dict(accepted), None
    for i, h in seq:
        if last is not None and h.number != last + 1 and zeros_lost(h.title, last + 1):
            out[i] = h._replace(number=last + 1)
        last = out[i].number
    return out
