"""A folder book's own 目录.txt: the reading order of its files, and the blurb above the list.

Translated light novels come as a folder of files named by their titles (`Prelude 1.txt`,
`①即便如此，比企谷八幡的日常仍在继续。.txt`, `Interlude 3.txt`, `后记.txt`) that no sort puts in
order; the order is only in the folder's 目录.txt (REAL-SOURCES: koujjiao/…14). Its entries name
the files loosely: `Interlude` four times for `Interlude 1` … `Interlude 4`, `①即便这般，…` for
the file `①即便如此，…`. Each entry takes the unlisted file that fits it best; the files it
does not name follow in their own order. The text above the list is the book's blurb.

An index.txt is such a list too (hrFZxYeN5qv/ebook's 宋傳奇: `目錄`, then `○楊於度       ○綠珠傳
○楊太真外傳`, three entries a line, beside files named 楊於度.txt …): entries set in columns are
parted at their runs of spaces, a bullet before each is no part of it. A list with no 目录 line
above it is a list all the same where every line is an entry's length with no sentence in it; it is
never the blurb, nor read as chapters (file_order leaves every contents file out).
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from bookbuilder.decode.names import readable_name
from bookbuilder.vocabulary import SENTENCE_END_MARKS

CONTENTS_FILES = frozenset({"目录.txt", "目錄.txt", "contents.txt", "index.txt"})
_LIST_LINE = re.compile(r"^\s*[【\[]?(?:目\s*[录錄]|contents)[】\]]?\s*[:：]?\s*$", re.I)
SIMILAR = 0.6  # difflib's ratio between an entry and a file's name, for the entry to name the file
ENTRY_MOST = 40  # characters: the longest line of a list with no 目录 line above it
# A file not named as contents is looked at as one among the folder's LIST_CANDIDATES smallest
# (a list is small beside chapters; reading each file of a large folder twice is not), where the
# folder holds LIST_LEAST other files at least.
LIST_CANDIDATES, LIST_LEAST = 3, 3
_COLUMNS = re.compile(r"[ \t\u3000]{2,}")  # entries set side by side, each after its bullet
_BULLET = re.compile(r"^[○●◎◇◆□■☆★·•\-*]+\s*")  # ○楊於度: the list's mark, not the title's


def find(folder: Path) -> Path | None:
    """The folder's contents file: one named so, else one of its smallest files whose lines are a
    list naming most of the others (list.txt, 00 章节.txt, whatever a site called it)."""
    if named := next((folder / name for name in sorted(CONTENTS_FILES) if (folder / name).is_file()), None):
        return named
    from bookbuilder.structure.meta import info_file_names

    try:
        files = [p for p in folder.iterdir() if p.suffix.lower() == ".txt" and p.is_file()]
    except OSError:
        return None
    files = [p for p in files if p.name.lower() not in info_file_names()]
    for path in sorted(files, key=lambda p: (p.stat().st_size, p.name))[:LIST_CANDIDATES]:
        others = [f for f in files if f != path]
        if len(others) >= LIST_LEAST and (listed := read(path)[1]) and _names_most(listed, others):
            return path
    return None


def read(path: Path) -> tuple[list[tuple[int, str]], list[str]]:
    """(numbered lines above the list, the list's entries); entries only where a 目录 line starts them."""
    from bookbuilder.decode.text import decode_chapter

    try:
        lines = decode_chapter(path.read_bytes(), str(path)).text.split("\n")
    except (OSError, ValueError):
        return [], []
    start = next((i for i, line in enumerate(lines) if _LIST_LINE.match(line)), None)
    if start is None and not _a_list(lines):
        return list(enumerate(lines, 1)), []
    start = -1 if start is None else start
    return list(enumerate(lines[: max(start, 0)], 1)), entries(lines[start + 1 :])


def entries(lines: list[str]) -> list[str]:
    """A list's entries, one a line or several side by side (each after its bullet: a run of
    spaces alone may part a label from its title, 第一章  风起), without the bullet before each."""
    found = []
    for line in lines:
        pieces = _COLUMNS.split(line.strip())
        if len(pieces) < 2 or not all(_BULLET.match(piece) for piece in pieces):
            pieces = [line.strip()]
        found += [_BULLET.sub("", piece).strip() for piece in pieces]
    return [entry for entry in found if entry]


def _a_list(lines: list[str]) -> bool:
    """Lines that are all an entry's: short, and none a sentence (a blurb has sentences)."""
    texts = [line.strip() for line in lines if line.strip()]
    return bool(texts) and all(
        len(text) <= ENTRY_MOST and not any(mark in text for mark in SENTENCE_END_MARKS) for text in texts
    )


def in_listed_order(files: list[Path], entries: list[str]) -> list[Path]:
    """The files in the order the entries name them, then the rest in their order; unchanged where
    the list names fewer than half of the files (it is not their list)."""
    ordered = _listed(files, entries)
    return ordered + [f for f in files if f not in ordered] if 2 * len(ordered) >= len(files) else files


def _names_most(entries: list[str], files: list[Path]) -> bool:
    """The entries name half of the files at least: the list is theirs."""
    return 2 * len(_listed(files, entries)) >= len(files)


def _listed(files: list[Path], entries: list[str]) -> list[Path]:
    """The files the entries name, in the entries' order, each named once."""
    left, ordered = list(files), []
    for entry in entries:
        if (match := _named(entry, left)) is not None:
            ordered.append(match)
            left.remove(match)
    return ordered


def _named(entry: str, files: list[Path]) -> Path | None:
    """The file the entry names: its very name, else the first whose name it starts (Interlude →
    Interlude 1), else the most similar one with the same first character."""
    stems = [readable_name(f.stem) for f in files]
    if entry in stems:
        return files[stems.index(entry)]
    if starting := [f for f, stem in zip(files, stems) if stem.startswith(entry)]:
        return starting[0]
    scored = [
        (difflib.SequenceMatcher(None, entry, stem).ratio(), k)
        for k, stem in enumerate(stems)
        if stem[:1] == entry[:1]
    ]
    best = max(scored, default=None)
    return files[best[1]] if best and best[0] >= SIMILAR else None
