"""Cleaning corrected by hand (serve's workbench writes both, a person can too):

- a [[keep]] entry keeps one line that cleaning would take, while every rule stays on for the
  other lines of the book:

      [[keep]]
      at = "0012.txt:7"       # the line, as the pages and `bookbuilder toc` name it
      text = "广告位招租"      # what cleaning took from it: the line must still hold it

- an extra pattern with on = "cleaned" is matched on the paragraphs as the book reads after
  cleaning (full-width punctuation, joined lines, converted characters), so that text selected
  on a page is found as it was selected, whatever the source's commas and spaces were.

A kept line is matched by its place and its text folded (`fold`: widths, look-alike letters,
punctuation and spaces set aside): the removal a user saw may be of the source's characters or of
the cleaned ones.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from bookbuilder.diagnostics import BookError, Diagnostic, removal
from bookbuilder.model import Chapter, Location, Paragraph, SceneBreak
from bookbuilder.normalize.clean import LOOKALIKES, cut
from bookbuilder.normalize.junk import JunkPattern

KEYS = ("at", "text")
_FOLD_AWAY = re.compile(r"[\W_]+")  # punctuation and spaces: what cleaning changes most
_WORD = re.compile(r"[^\W_]")


def fold(text: str) -> str:
    """`text` as a kept line is compared: full-width and look-alike letters as Latin ones, lower
    case, without punctuation or spaces (a source's 百度云搜索,搜小说 reads 百度云搜索，搜小说 once
    cleaned)."""
    return _FOLD_AWAY.sub("", text.translate(LOOKALIKES).lower())


def holds(line: str, text: str) -> bool:
    """Whether `line` holds `text`, folded (a text of punctuation only: wherever it is asked for)."""
    return fold(text) in fold(line)


@dataclass(frozen=True)
class Keep:
    index: int  # 1-based, in book.toml's order
    line: int | None  # its [[keep]] header's line in book.toml, for messages
    at_file: str  # relative to the book's source, as [[fix]] names a file
    at_line: int
    text: str

    def names(self, path: str) -> bool:
        """Whether `path` (as the book's messages show it) is the file this entry names."""
        return path == self.at_file or path.endswith("/" + self.at_file)

    def keeps(self, block) -> bool:
        return (
            type(block) is Paragraph
            and block.at.line == self.at_line
            and self.names(block.at.path)
            and holds(block.text, self.text)
        )

    def said(self) -> str:
        return f"[[keep]] #{self.index} (at = {self.at_file}:{self.at_line})"


def parse_keeps(entries: list, toml_path: str, line_of) -> tuple[Keep, ...]:
    """book.toml's [[keep]] tables; a malformed one is E003 naming its entry's line."""
    keeps = []
    for i, entry in enumerate(entries, 1):
        at = Location(toml_path, line_of(i))
        if not isinstance(entry, dict) or set(entry) != set(KEYS):
            given = sorted(entry) if isinstance(entry, dict) else entry
            raise BookError(
                "E003",
                f'[[keep]] #{i}: give at = "file:line" and text = "…" (and nothing else; given: {given})',
                at,
            )
        m = re.match(r"^(.+):(\d+)$", str(entry["at"]))
        if not m or int(m.group(2)) < 1:
            raise BookError("E003", f'[[keep]] #{i}: at = {entry["at"]!r}: expected "file:line"', at)
        if not isinstance(entry["text"], str) or not entry["text"].strip():
            raise BookError("E003", f"[[keep]] #{i}: text must be the text the line holds", at)
        keeps.append(Keep(i, at.line, m.group(1), int(m.group(2)), entry["text"]))
    return tuple(keeps)


def check_keeps(keeps: tuple[Keep, ...], files: dict, clean, toml_path: str) -> None:
    """E009 where the line a [[keep]] names no longer holds its text, as the source writes it or
    as it reads `clean`ed: the source changed since, and the entry would keep nothing, or another
    line. `files`: the path of each file named → a call that reads its lines."""
    read: dict[str, list[str]] = {}
    for keep in keeps:
        path = next((p for p in files if keep.names(p)), None)
        found = read.setdefault(path, files[path]()) if path is not None else []
        line = found[keep.at_line - 1] if keep.at_line <= len(found) else None
        if line is not None and (holds(line, keep.text) or holds(clean(line), keep.text)):
            continue
        now = "is not in the book's source" if line is None else f"reads “{line.strip()[:40]}”"
        raise BookError(
            "E009",
            f"{keep.said()}: the line no longer holds {keep.text!r} (it {now}); "
            "take the entry out or correct it",
            Location(toml_path, keep.line),
        )


def kept_places(chapters, keeps: tuple[Keep, ...]) -> frozenset[Location]:
    """The places of the paragraphs the book's [[keep]] entries keep (none: no entries)."""
    if not keeps:
        return frozenset()
    return frozenset(b.at for ch in chapters for b in ch.blocks if any(k.keeps(b) for k in keeps))


def after_cleaning(
    chapter: Chapter, patterns: tuple[JunkPattern, ...], keeps: tuple[Keep, ...]
) -> tuple[Chapter, Counter, list[Diagnostic]] | None:
    """The chapter without what the on = "cleaned" patterns match in its paragraphs (an inline one
    cuts its matches out, a line one takes a paragraph it matches whole; a paragraph left without a
    word goes, and with it a scene break it stood between with another), the count per rule and the
    removals; None where nothing matched."""
    if not _may_match(chapter, patterns):
        return None
    counts: Counter = Counter()
    removed: list[Diagnostic] = []
    blocks: list = []
    gone = False  # a paragraph went since the last block kept
    for block in chapter.blocks:
        if (
            type(block) is Paragraph
            and any(p.regex.search(block.text) for p in patterns)
            and not any(k.keeps(block) for k in keeps)
        ):
            block = _cleaned(block, patterns, counts, removed)
        if block is None:
            gone = True
        elif not (gone and type(block) is SceneBreak and blocks and type(blocks[-1]) is SceneBreak):
            blocks.append(block)  # two scene breaks the removal left side by side read as one
            gone = False
    return (replace(chapter, blocks=tuple(blocks)), counts, removed) if removed else None


# What a pattern may hold that reads a paragraph's edges otherwise in paragraphs joined by "\n":
# such a pattern is looked for paragraph by paragraph.
_EDGE_READING = re.compile(r"\\[AZ]|\(\?<")


def _may_match(chapter: Chapter, patterns: tuple[JunkPattern, ...]) -> bool:
    """Whether some pattern may match in the chapter: one search of its paragraphs joined (with
    ^ and $ at each paragraph's edges), most chapters hold none of a site's text."""
    if any(_EDGE_READING.search(p.regex.pattern) for p in patterns):
        return True
    text = "\n".join(b.text for b in chapter.blocks if type(b) is Paragraph)
    return any(re.search(p.regex.pattern, text, p.regex.flags | re.M) for p in patterns)


def _cleaned(
    block: Paragraph, patterns: tuple[JunkPattern, ...], counts: Counter, removed: list
) -> Paragraph | None:
    spans = []
    for p in patterns:
        if p.kind == "inline":
            spans += [
                (m.start(), m.end(), p.name) for m in p.regex.finditer(block.text) if m.end() > m.start()
            ]
        elif p.regex.fullmatch(block.text):
            spans.append((0, len(block.text), p.name))
    if not spans:
        return block
    taken: list[tuple[int, int]] = []
    for start, end, name in sorted(spans):
        if taken and start < taken[-1][1]:
            continue  # inside what an earlier match took
        taken.append((start, end))
        counts[f"junk:{name}"] += 1
        removed.append(removal(name, block.text[start:end], block.at, "on the cleaned text, book.toml's own"))
    left = cut(block.text, taken).strip()
    return Paragraph(left, block.at, block.indented) if _WORD.search(left) else None
