"""Corrections that stick: book.toml's [[fix]] entries, applied to the headings a file's
evidence chose. A fix names a line (`at = "novel.txt:1234"`, as `bookbuilder toc` prints it) or a
heading's title (`title = "第十二章 归来"`, which survives edits to the source), and says what it is:

    [[fix]]
    at = "novel.txt:1234"      # or: title = "第十二章 归来"
    as = "text"                # "text" (not a heading) | "chapter" | "volume"
    rename = "第十二章 归途"    # optional
    merge = true               # optional: this chapter joins the one before (its heading line goes)

A chapter its file's name titles has no line to name: a volume before it names the file, in a
[[volume]] table (`before = "0012.txt"`, `title = "第二卷 风雨"`), parsed here and honoured where the
files are put together (bookbuilder.structure.file_volumes).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from bookbuilder.diagnostics import BookError, Diagnostic
from bookbuilder.model import Location
from bookbuilder.numerals import NUMERAL_RUN, parse_numeral
from bookbuilder.structure.headings import CHAPTER_UNIT, VOLUME_UNIT, Heading, candidate, normalize_title
from bookbuilder.structure.passes import Choice, Reading, fields, with_lines_looked_at

KEYS = ("at", "title", "as", "rename", "merge")
KINDS = ("text", "chapter", "volume")

_CHAPTER_NUMBER = re.compile(rf"第\s*({NUMERAL_RUN})\s*{CHAPTER_UNIT}")
_VOLUME_NUMBER = re.compile(
    rf"第\s*{NUMERAL_RUN}\s*{VOLUME_UNIT}|卷\s*{NUMERAL_RUN}|{NUMERAL_RUN}\s*{VOLUME_UNIT}"
)


def chapter_number(line: str) -> int | None:
    """The number of a line taken as a chapter by other means than our rules (a [[fix]], a Legado
    TOC rule): its 第N章's, else its first number that is no volume's (◎卷十三·2040◎: 2040), else its
    first. By a volume number glued before it (第二十一集第164章…) every chapter of the volume had
    one number, and W303 and W301 came at each."""
    if m := _CHAPTER_NUMBER.search(line):
        return parse_numeral(m.group(1))
    m = re.search(NUMERAL_RUN, _VOLUME_NUMBER.sub("\0", line)) or re.search(NUMERAL_RUN, line)
    return parse_numeral(m.group(0)) if m else None


@dataclass(frozen=True)
class Fix:
    index: int  # 1-based, in book.toml's order
    line: int | None  # its line in book.toml, for messages
    at_file: str | None
    at_line: int | None
    title: str | None
    kind: str | None  # text | chapter | volume
    rename: str | None
    merge: bool

    def matches(self, path: str, number: int, line: str, heading: Heading | None) -> bool:
        if self.at_file is not None:
            return number == self.at_line and (path == self.at_file or path.endswith("/" + self.at_file))
        # the heading's title, or the line as the user reads it in the source (第二十一集第164章飘渺，重逢
        # is the chapter 第164章 飘渺，重逢 under the volume 第二十一集)
        return _key(self.title) in {
            _key(heading.title) if heading is not None else None,
            _key(normalize_title(line)),
        }


def _key(text: str | None) -> str:
    return re.sub(r"\s+", "", text or "")


def parse_fixes(entries: list, toml_path: str, line_of) -> tuple[Fix, ...]:
    """book.toml's [[fix]] tables as Fix records; a malformed one is E003 naming its entry."""
    fixes = []
    for i, entry in enumerate(entries, 1):
        at = Location(toml_path, line_of(i))
        if not isinstance(entry, dict) or set(entry) - set(KEYS):
            unknown = sorted(set(entry) - set(KEYS)) if isinstance(entry, dict) else entry
            raise BookError("E003", f"[[fix]] #{i}: unknown key(s) {unknown} (known: {', '.join(KEYS)})", at)
        if ("at" in entry) == ("title" in entry):
            raise BookError("E003", f'[[fix]] #{i}: give either at = "file:line" or title = "…"', at)
        if entry.get("as", "chapter") not in KINDS:
            raise BookError(
                "E003", f"[[fix]] #{i}: as = {entry['as']!r}: expected one of {', '.join(KINDS)}", at
            )
        at_file = at_line = None
        if "at" in entry:
            m = re.match(r"^(.+):(\d+)$", str(entry["at"]))
            if not m:
                raise BookError("E003", f'[[fix]] #{i}: at = {entry["at"]!r}: expected "file:line"', at)
            at_file, at_line = m.group(1), int(m.group(2))
        fixes.append(
            Fix(
                i,
                at.line,
                at_file,
                at_line,
                entry.get("title"),
                entry.get("as"),
                entry.get("rename"),
                bool(entry.get("merge", False)),
            )
        )
    return tuple(fixes)


def apply_fixes(reading: Reading) -> Reading:
    """The pass: book.toml's fixes that match this file applied to its chosen headings; the lines
    they change looked at (a whole novel's 70,000 others stay paragraphs, which its cut takes whole)."""
    if not reading.options.fixes:
        return reading
    was = reading.chosen.headings
    choice, merged, applied = apply(reading.options.fixes, reading.lines, reading.chosen, reading.path)
    now = choice.headings
    changed = {i for i in was.keys() | now.keys() if was.get(i) != now.get(i)}
    reading = with_lines_looked_at(reading, sorted(changed | merged))
    return reading._replace(choice=choice, merged=frozenset(merged), notes=reading.notes + tuple(applied))


def apply(
    fixes: tuple[Fix, ...], lines, choice: Choice, path: str
) -> tuple[Choice, set[int], list[Diagnostic]]:
    """The choice with the fixes that match this file applied; the line indexes to drop (merged
    headings); an I305 per fix applied (the pipeline checks every fix was)."""
    if not fixes:
        return choice, set(), []
    headings = dict(choice.headings)
    drop: set[int] = set()
    notes = []
    # a fix by place matches its line's number only: the other lines are passed by unread
    numbers = None if any(f.at_file is None for f in fixes) else {f.at_line for f in fixes}
    for i, item in enumerate(lines):
        number, _, line = fields(item)
        if numbers is not None and number not in numbers:
            continue
        heading = headings.get(i)
        for fix in fixes:
            if not fix.matches(path, number, line, heading):
                continue
            what = _apply_one(fix, i, line, number, heading, headings, drop)
            notes.append(Diagnostic("I305", f"fix #{fix.index}: {what}", Location(path, number)))
    return replace(choice, headings=dict(sorted(headings.items()))), drop, notes


def _apply_one(
    fix: Fix, i: int, line: str, number: int, heading: Heading | None, headings: dict, drop: set
) -> str:
    if fix.kind == "text":
        headings.pop(i, None)
        return f"{line[:30]} is text, not a heading"
    if heading is None or (fix.kind and fix.kind != heading.kind and fix.kind in ("chapter", "volume")):
        parsed = heading or candidate(line, number)
        heading = Heading(
            fix.kind or "chapter",
            parsed.title if parsed else normalize_title(line),
            parsed.number if parsed else chapter_number(line),
            number,
            rule="fix",
        )
    if fix.rename:
        renamed = candidate(fix.rename, number)  # the new title's number is the one the user means
        heading = heading._replace(
            title=fix.rename,
            number=renamed.number if renamed and renamed.number is not None else heading.number,
        )
    if fix.merge:
        headings.pop(i, None)
        drop.add(i)
        return f"{heading.title} joins the chapter before"
    headings[i] = heading
    return f"{heading.title} is a {heading.kind}" + (" (renamed)" if fix.rename else "")


def unmatched(fixes: tuple[Fix, ...], notes) -> Fix | None:
    """The first fix no file applied."""
    applied = {
        int(m.group(1)) for d in notes if d.code == "I305" and (m := re.match(r"fix #(\d+):", d.message))
    }
    return next((f for f in fixes if f.index not in applied), None)


VOLUME_KEYS = ("before", "title")


@dataclass(frozen=True)
class FileVolume:
    index: int  # 1-based, in book.toml's order
    line: int | None  # its [[volume]] header's line in book.toml, for messages
    before: str  # the file, relative to the source folder, with / between folders
    title: str


def parse_volumes(entries: list, toml_path: str, line_of: Callable[[int], int | None]) -> tuple:
    """book.toml's [[volume]] tables as FileVolume records; a malformed one is E003 naming it."""
    found: list[FileVolume] = []
    for i, entry in enumerate(entries, 1):
        at = Location(toml_path, line_of(i))
        unknown = sorted(set(entry) - set(VOLUME_KEYS))
        if unknown:
            raise BookError(
                "E003", f"[[volume]] #{i}: unknown key(s) {unknown} (known: {', '.join(VOLUME_KEYS)})", at
            )
        before, title = entry.get("before"), entry.get("title")
        if not isinstance(before, str) or not before.strip():
            raise BookError(
                "E003", f'[[volume]] #{i}: give before = "file.txt", the file it starts before', at
            )
        if not isinstance(title, str) or not " ".join(title.split()):
            raise BookError("E003", f"[[volume]] #{i} (before = {before!r}): give the volume a title", at)
        if any(unicodedata.category(c) in ("Cc", "Cs") for c in title):
            raise BookError("E003", f"[[volume]] #{i}: title = {title!r} holds a control character", at)
        named = PurePosixPath(before.strip()).as_posix()
        if twice := next((v for v in found if v.before == named), None):
            raise BookError(
                "E003", f"[[volume]] #{i}: {named!r} has a volume before it already (#{twice.index})", at
            )
        found.append(FileVolume(i, at.line, named, " ".join(title.split())))
    return tuple(found)
