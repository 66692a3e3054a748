"""Find the chapter files of a book and put them in reading order (docs/rules.md §4.4).

Never plain `sorted()`: it reads 1, 10, 11, 2 and 一百零一 < 二 < 十.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bookbuilder.decode.names import readable_name
from bookbuilder.diagnostics import BookError
from bookbuilder.numerals import NUMERAL_CHARS, parse_numeral
from bookbuilder.structure import contents_file
from bookbuilder.structure.meta import info_file_names
from bookbuilder.vocabulary import (
    CHAPTER_UNITS,
    ENDINGS,
    OPENINGS,
    POSTSCRIPTS,
    PREFACE_ALONE,
    PREFACES,
    PROLOGUES,
    SIDE_STORIES,
    plain,
    unit_class,
)

_LEADING_NUMBER = re.compile(r"^\s*([0-9０-９]+)")
_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"  # ①即便如此…: a light novel's chapters
_CHAPTER_NUMBER = re.compile(rf"第\s*([{NUMERAL_CHARS}]+)\s*{unit_class(CHAPTER_UNITS)}")
# A file of front matter leads, of back matter comes last. 序 is the preface only as the whole name
# or before its title (序.txt, 序 一个开始.txt, 序：缘起.txt): 序列号.txt is a chapter's.
_FRONT = re.compile(
    "^(?:"
    + "|".join(plain(PROLOGUES + OPENINGS + PREFACES))
    + "|"
    + "|".join(PREFACE_ALONE)
    + r"(?:$|[\s:：、·_（(—-]))"
)
_END = re.compile("^(" + "|".join(plain(ENDINGS + POSTSCRIPTS)) + ")")
_EXTRA = re.compile(rf"^{SIDE_STORIES[0]}\s*([{NUMERAL_CHARS}]*)")  # 番外3
_DIGIT_RUN = re.compile(r"(\d+)")


def natural_key(name: str) -> tuple:
    """Digit runs compare as numbers: 'a2' < 'a10'."""
    return tuple(int(part) if part.isdigit() else part for part in _DIGIT_RUN.split(name))


def order_key(name: str) -> tuple:
    """Sort key of a chapter file or folder name (without extension); first matching rule wins."""
    name = readable_name(name)
    stem = name.rsplit(".", 1)[0] if name.lower().endswith(".txt") else name
    tail = natural_key(stem)
    if m := _LEADING_NUMBER.match(stem):
        return (1, parse_numeral(m.group(1)), tail)
    if stem[:1] and stem[0] in _CIRCLED:
        return (1, _CIRCLED.index(stem[0]) + 1, tail)
    if m := _CHAPTER_NUMBER.search(stem):
        return (1, parse_numeral(m.group(1)) or 0, tail)
    if _FRONT.match(stem):
        return (0, 0, tail)
    if _END.match(stem):
        return (3, 0, tail)  # after the chapters and after files named otherwise: 后记 never leads
    if m := _EXTRA.match(stem):
        return (4, parse_numeral(m.group(1)) or 0, tail)
    return (2, 0, tail)


_ENGLISH_NUMBER = re.compile(r"^(?:chapter|chap|ch|part)[\s_\-.]*([0-9]+)", re.I)  # Chapter12.txt


def file_number(name: str) -> int | None:
    """The chapter number a file name carries (leading digits, Chapter12 or 第N章)."""
    stem = readable_name(name).rsplit(".", 1)[0]
    if m := _LEADING_NUMBER.match(stem) or _ENGLISH_NUMBER.match(stem):
        return parse_numeral(m.group(1))
    if m := _CHAPTER_NUMBER.search(stem):
        return parse_numeral(m.group(1))
    return None


@dataclass(frozen=True)
class SourceGroup:
    """The files of one volume: the top folder (title None) or one sub-folder."""

    title: str | None
    files: tuple[Path, ...]


def _is_chapter_file(entry: os.DirEntry) -> bool:
    """A .txt file, other than one that describes the book (info.txt, 简介.txt:
    bookbuilder.structure.meta)."""
    return (
        entry.name.lower().endswith(".txt")
        and not entry.name.startswith(".")
        and entry.is_file()
        and entry.name.lower() not in info_file_names()
    )


def _sorted_entries(folder: Path) -> list[os.DirEntry]:
    # scandir's entries know their type without a stat per file.
    try:
        with os.scandir(folder) as entries:
            return sorted(entries, key=lambda e: order_key(e.name))
    except OSError as e:  # a folder this user may not read: one line, as an unreadable file is
        raise BookError("E004", f"cannot read: {e.strerror}", str(folder)) from None


def discover(
    source: Path,
    order: tuple[str, ...] = (),
    find_contents: Callable[[Path], Path | None] = contents_file.find,
) -> list[SourceGroup]:
    """Chapter files grouped by volume, in reading order. `order` (from book.toml) wins.
    `find_contents`: how the folder's contents file is found (a load finds it once, for the blurb too)."""
    if source.is_file():
        return [SourceGroup(None, (source,))]
    if not source.is_dir():
        raise BookError("E004", "the source folder does not exist", str(source))
    if order:
        return [SourceGroup(None, tuple(_explicit(source, order)))]
    entries = _sorted_entries(source)
    listed = find_contents(source)  # the folder's own 目录.txt orders it, and is no chapter
    top = [
        source / e.name
        for e in entries
        if _is_chapter_file(e) and e.name not in contents_file.CONTENTS_FILES and source / e.name != listed
    ]
    if listed:
        top = contents_file.in_listed_order(top, contents_file.read(listed)[1])
    groups = [SourceGroup(None, tuple(top))]
    for folder in entries:
        if folder.is_dir() and not folder.name.startswith("."):
            files = tuple(
                source / folder.name / e.name
                for e in _sorted_entries(Path(folder.path))
                if _is_chapter_file(e)
            )
            if files:
                groups.append(SourceGroup(_volume_title(folder.name), files))
    groups = [g for g in groups if g.files]
    if not groups:
        raise BookError("E005", "no .txt chapter files here", str(source))
    return groups


def _explicit(source: Path, order: tuple[str, ...]) -> list[Path]:
    files = []
    for name in order:
        path = (source / name).resolve()
        if not path.is_relative_to(source.resolve()):
            raise BookError(
                "E006", f"source.order entry {name!r} points outside the source folder", str(source)
            )
        if not path.is_file():
            raise BookError("E008", f"source.order names {name!r}, which does not exist", str(source))
        files.append(path)
    return files


def _volume_title(name: str) -> str:
    """'01_第一卷 潜龙' → '第一卷 潜龙'; '02' stays '02'."""
    return re.sub(r"^[0-9]+[_\-.\s]+", "", name).strip() or name
