"""The reading stage as passes: one file's reading handed from pass to pass, in a declared order.

Like mdBook's preprocessors, a pass is a named function with one signature, Reading → Reading: it
takes the file's lines and the headings decided so far and returns them with what it decided
(bookbuilder.structure.sections declares the list, HEADING_PASSES, and runs it). A pass can be
switched off (`off`), timed (`seconds`), or run alone on a Reading made by hand (the tests do). Each
heading keeps the name of the pass that last decided it: `bookbuilder toc --json` shows it.
"""

from __future__ import annotations

import bisect
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Paragraph

if TYPE_CHECKING:
    from bookbuilder.structure.headings import Heading

_NONE: Mapping = MappingProxyType({})  # an empty mapping no pass can change


@dataclass(frozen=True)
class Choice:
    """The headings chosen among a file's candidates, and why (for check's info line)."""

    headings: dict[int, Heading]  # line index → heading
    toc: tuple[int, ...]  # indexes of lines dropped as the file's own table of contents
    rules: dict[str, int]  # rule → headings it gave
    rejected: dict[str, int]  # rule → weak candidates the numbering did not support
    # indexes of heading lines dropped: a heading given again right after it, a site's page marks
    dropped: tuple[int, ...] = ()


def rule_counts(headings: dict[int, Heading]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for h in headings.values():
        counts[h.rule] = counts.get(h.rule, 0) + 1
    return counts


@dataclass(frozen=True)
class ReadingOptions:
    """What book.toml says of how the files are read, in one object from config to the passes
    (pipeline → per_file → sections → each pass): an option of the reading stage is added here
    and read where it is used, not threaded through every signature on the way."""

    heading_pattern: re.Pattern | None = None  # [source] heading_pattern, compiled once
    title_junk: tuple[str, ...] = ()  # [source] title_junk: debris patterns for heading lines
    fixes: tuple = ()  # the [[fix]] entries that may apply to this file
    toc_rules: tuple = ()  # Legado txtTocRule rules from [source] toc_rules
    page_title: str = ""  # the line a folder's files open with: the site's (structure/folder_pages.py)
    off: frozenset[str] = frozenset()  # cleaning's rules [normalize.junk] disable names (page labels')


NO_OPTIONS = ReadingOptions()


class Reading(NamedTuple):  # a tuple: each pass makes one or two per file, and a tuple is quick to make
    """One file as the passes see it. A pass returns a new Reading (`_replace`) and leaves the lists
    and dicts of the one it was given as they were (so a pass can be run again, or left out)."""

    path: str
    text: str
    options: ReadingOptions = NO_OPTIONS  # what book.toml says of reading this file
    # Non-blank lines: a Paragraph where no rule can take the line (most), else (number, indented, text).
    lines: Sequence = ()
    cands: Mapping[int, Heading] = _NONE  # line index → candidate, in line order
    before: Mapping[int, int] = _NONE  # per candidate: lines other than separators before it
    looked_at: Sequence[int] = ()  # indexes of the lines kept as tuples: those a rule looked at
    separator_at: Sequence[int] = ()
    contents_at: Sequence[int] = ()  # where 目录 lines stand
    choice: Choice | None = None  # None until the choice pass has chosen: every candidate stands
    merged: frozenset[int] = frozenset()  # heading lines a fix joined to the chapter before
    notes: tuple[Diagnostic, ...] = ()
    decided: Mapping[int, str] = _NONE  # line index → the pass that last decided its heading
    sections: list | None = None  # the file cut at its headings (bookbuilder.structure.sections.Section)

    @property
    def chosen(self) -> Choice:
        """The choice made, or (the choice pass switched off) every candidate taken."""
        if self.choice is not None:
            return self.choice
        return Choice(dict(self.cands), (), rule_counts(self.cands), {})

    @property
    def headings(self) -> dict[int, Heading]:
        """Line index → heading as the file stands now: the chosen ones, or the candidates."""
        return self.choice.headings if self.choice is not None else self.cands


@dataclass(frozen=True)
class Pass:
    name: str  # what toc --json says decided a heading
    run: Callable[[Reading], Reading]


def run_passes(
    reading: Reading,
    passes: tuple[Pass, ...],
    off: frozenset[str] | set[str] = frozenset(),
    seconds: dict[str, float] | None = None,
) -> Reading:
    """`reading` through each pass in order but those named in `off`; each heading a pass adds or
    changes is marked with its name. `seconds` (when given) adds up the time each pass took."""
    if off and (unknown := set(off).difference(step.name for step in passes)):
        raise ValueError(f"no such pass: {', '.join(sorted(unknown))}")
    for step in passes:
        if step.name in off:
            continue
        start = time.perf_counter() if seconds is not None else 0.0
        reading = _marked(reading, step.run(reading), step.name)
        if seconds is not None:
            seconds[step.name] = seconds.get(step.name, 0.0) + time.perf_counter() - start
    return reading


def _marked(earlier: Reading, later: Reading, name: str) -> Reading:
    """`later` with the headings that differ from `earlier`'s marked as decided by `name`: by line
    before the file is cut into sections, by section after (a pass over the sections keeps their
    number)."""
    if later is earlier:
        return later  # the pass found nothing to do (most passes, for most files)
    if later.sections is None:
        then = earlier.headings
        changed = {i: name for i, h in later.headings.items() if then.get(i) != h}
        return later._replace(decided={**later.decided, **changed}) if changed else later
    if earlier.sections is None or earlier.sections is later.sections:
        return later
    sections = [
        replace(b, decided_by=name) if a.heading != b.heading else b
        for a, b in zip(earlier.sections, later.sections)
    ]
    return later._replace(sections=sections)


def with_found(reading: Reading, found: dict[int, Heading]) -> Reading:
    """Headings found after the file was read (its contents' titles, its margin titles) made
    candidates like the others: their lines kept as fields, in line order."""
    lines, cands, before = list(reading.lines), dict(reading.cands), dict(reading.before)
    for i, heading in found.items():
        lines[i] = fields(lines[i])
        cands[i] = heading
        before[i] = i - bisect.bisect_left(reading.separator_at, i)
    return reading._replace(
        lines=lines,
        cands=dict(sorted(cands.items())),
        before=before,
        looked_at=sorted(set(reading.looked_at).union(cands)),
    )


def with_lines_looked_at(reading: Reading, indexes) -> Reading:
    """`reading` with the lines at `indexes` kept as fields and looked at, as a rule's are (a
    [[fix]] decides them): the rest stay the paragraphs they were read as, and a file's cut walks
    only the lines something looked at."""
    looked = set(reading.looked_at)
    new = [i for i in indexes if i not in looked]
    if not new:
        return reading
    lines = list(reading.lines)
    for i in new:
        lines[i] = fields(lines[i])
    return reading._replace(lines=lines, looked_at=sorted(looked.union(new)))


def with_chosen(reading: Reading, found: dict[int, Heading]) -> Reading:
    """`reading` with headings a pass after the choice found (or changed) chosen and made candidates,
    their lines looked at; the choice's rule counts told again."""
    reading = with_lines_looked_at(reading, found)
    chosen = dict(sorted({**reading.choice.headings, **found}.items()))
    choice = replace(reading.choice, headings=chosen, rules=rule_counts(chosen))
    return reading._replace(choice=choice, cands=dict(sorted({**reading.cands, **found}.items())))


def every_line_as_fields(reading: Reading) -> Reading:
    """Every line as (number, indented, text): the rare book.toml rules see every line alike."""
    return reading._replace(
        lines=[fields(item) for item in reading.lines], looked_at=list(range(len(reading.lines)))
    )


def fields(item) -> tuple[int, bool, str]:
    """(line number, indented, text) of a line as the passes keep it."""
    if type(item) is Paragraph:
        return item.at.line, item.indented, item.text
    return item
