"""A second look at a file whose rules found little: fewer than three 第N章 headings, or a long
stretch with none after them (bookbuilder.structure.sections calls it once the first choice is made).

Two things real downloads do there that no line rule can see alone: they tell titles by layout
(bookbuilder.structure.outdent: a title at the margin, or centred), and they put the book's name before
every heading (`缥缈录 第一章 蛮荒 一`, 九州缥缈录 from one site; `龙族5 第23章 故人(5)`).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from bookbuilder.numerals import NUMERAL_CHARS, ONE_TO_TEN, parse_numeral
from bookbuilder.structure.heading_choice import STOPPED, choose
from bookbuilder.structure.headings import BARE_RULES, Heading, candidate
from bookbuilder.structure.outdent import outdented_titles
from bookbuilder.structure.passes import Choice, Reading, fields, with_found

MARGIN_BOOK = 100  # non-blank lines: a file shorter is one chapter's, titled by its own heading
MIN_PREFIXED = 3  # headings behind the same name, for the name to be the book's and not a sentence's
# A name, a space, then a heading: 缥缈录 第一章 … (a sentence has punctuation before its 第, or no
# space); or then a short title, where the name is the file's: 昆虫记 石蚕.
_NAMED = re.compile(
    r"^(?P<name>[^\s。，！？；：:、“”「」（）()]{1,12}?)(?:[ \u3000]+|(?=第))(?=\S)"
)  # 诛仙六第二章: glued
_SENTENCE = re.compile(r"[。，！？；：:、…“”「」,.!?;]")
MAX_NAMED = 40  # characters: a name and a heading
NUMBERED_BOOK = 3  # 第N章 headings chosen, at least, for the book to be numbered: look only where they stop
STRETCH_FOUND = 3  # headings found in those stretches, at least, for them to be taken
# A chapter many times the length of the others holds headings the rules missed (诛仙's 第二十七章,
# 1,460 lines where its neighbours have 150: the next volume's 诛仙六第二章 … glued to the book's name).
LONG_GAP, LONG_LINES = 5, 400  # times the median chapter's lines, and lines at the least


def more_headings(
    text: str, path: str, choice: Choice, lines: list, title_junk: tuple = ()
) -> tuple[dict[int, Heading], bool]:
    """Line index → heading for what the first choice missed, and whether these replace the bare
    numbers chosen (the titled pieces' sections), or ({}, False)."""
    numbered = sum(1 for h in choice.headings.values() if h.rule in ("numbered", "custom"))
    edges = [0, *choice.headings, len(lines)]
    gaps = sorted(b - a for a, b in zip(edges[1:], edges[2:])) or [0]
    longest = min(STOPPED, max(LONG_GAP * gaps[len(gaps) // 2], LONG_LINES))
    stretches = [(a, b) for a, b in zip(edges, edges[1:]) if b - a > longest]
    serial = _serial_after_the_end(lines, max(choice.headings)) if numbered >= NUMBERED_BOOK else {}
    if numbered >= NUMBERED_BOOK and not stretches:
        return serial, False
    raw = text.split("\n")
    found = {
        **outdented_titles(lines, lambda number: _indent(raw[number - 1])),
        **_behind_the_name(lines, title_junk, Path(path).stem),
    }
    if numbered >= NUMBERED_BOOK:  # only inside the stretches the 第N章 headings left
        found = {i: h for i, h in found.items() if any(a < i < b for a, b in stretches)}
        return ({**found, **serial} if len(found) >= STRETCH_FOUND else serial), False
    if len(found) > len(choice.headings):
        return {**found, **_serial_after_the_end(lines, max(found))}, True
    return {}, False


def titles_by_layout(reading: Reading) -> Reading:
    """Where the rules found little: titles by layout, behind a name (bookbuilder.structure.few_headings);
    chosen again with them."""
    if reading.options.heading_pattern is not None or len(reading.lines) < MARGIN_BOOK:
        return reading
    found, bare_are_sections = more_headings(
        reading.text, reading.path, reading.chosen, reading.lines, reading.options.title_junk
    )
    if not found:
        return reading
    if bare_are_sections:
        reading = reading._replace(cands={i: h for i, h in reading.cands.items() if h.rule not in BARE_RULES})
    reading = with_found(reading, found)
    return (
        reading._replace(choice=choose(reading.cands, reading.before))
        if reading.choice is not None
        else reading
    )


def _behind_the_name(lines: list, title_junk: tuple, stem: str) -> dict[int, Heading]:
    """Headings behind a name that stands before three or more of them (the book's, a site's), and
    behind any other name that stands before two; and where the name is the file's own (昆虫记's
    `昆虫记 石蚕`, `昆虫记 蜣螂` …), any short title behind it."""
    found: dict[int, tuple[str, Heading]] = {}
    for i, item in enumerate(lines):
        number, _, line = fields(item)
        if len(line) > MAX_NAMED or not (m := _NAMED.match(line)):
            continue
        rest = line[m.end() :]
        heading = candidate(rest, number, None, title_junk) if rest[0] == "第" else None
        name = (
            m.group("name").replace("《", "").replace("》", "")
        )  # 《诛仙》六 and 诛仙六: one site's two spellings
        if heading is not None and heading.kind in ("chapter", "volume") and not heading.weak:
            found[i] = (name, heading)
        elif heading is None and len(name) >= 2 and name in stem and not _SENTENCE.search(rest):
            found[i] = (name, Heading("chapter", " ".join(rest.split()), None, number, rule="named"))
    names = Counter(name for name, _ in found.values())
    if not names or names.most_common(1)[0][1] < MIN_PREFIXED:
        return {}
    return {
        i: heading for i, (name, heading) in found.items() if names[name] >= 2
    }  # 龙族5 and 龙族v悼亡者的归来: one site, two spellings


# Extras after the last numbered chapter, titled as a series: 一个普通人的日常（一） … （八） after
# 诡秘之主's 第N章 (each with its text, and no 第N章 of their own), swallowed by the chapter before.
_SERIAL = re.compile(
    rf"^(?P<stem>[^\s。，！？；：:、“”「」]{{2,20}}?)(?:\s*[（(](?P<n>[{NUMERAL_CHARS}]{{1,4}})[）)]"
    rf"|[ \u3000]+(?P<bare>[{ONE_TO_TEN}]{{1,3}}))$"
)  # 星野变 一 … 七 (九州缥缈录's tales)
MIN_SERIAL = 3  # titles in the series, numbered 1, 2, 3 … without a gap
SERIAL_TEXT = 3  # lines of text under each, at least
SERIAL_LINE = 30  # characters of a series' title line, at most


def _serial_after_the_end(lines: list, last: int) -> dict[int, Heading]:
    """The lines after the book's last heading that title a series, stem（1）, stem（2）, … (the
    numbers running from one, text under each), as chapters."""
    series: dict[str, list[tuple[int, int, str]]] = {}
    for i in range(last + 1, len(lines)):
        number, _, line = fields(lines[i])
        if (
            len(line) <= SERIAL_LINE
            and (line[-1] in "）)" or " " in line or "\u3000" in line)
            and (m := _SERIAL.match(line))
        ):
            series.setdefault(m.group("stem"), []).append(
                (i, parse_numeral(m.group("n") or m.group("bare")), line)
            )
    found: dict[int, Heading] = {}
    for titled in series.values():
        at = [i for i, _, _ in titled] + [len(lines)]
        if (
            len(titled) >= MIN_SERIAL
            and [n for _, n, _ in titled] == list(range(1, len(titled) + 1))
            and all(b - a > SERIAL_TEXT for a, b in zip(at, at[1:]))
        ):
            found.update(
                (i, Heading("chapter", line, None, fields(lines[i])[0], rule="serial"))
                for i, _, line in titled
            )
    return found


def _indent(raw: str) -> int:
    """The width of a line's indent, in half-width columns (an ideographic space is two, a tab four)."""
    stripped = raw.lstrip()
    lead = raw[: len(raw) - len(stripped)]
    return len(lead) + lead.count("\u3000") + 3 * lead.count("\t")
