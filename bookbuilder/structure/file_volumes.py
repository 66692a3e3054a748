"""book.toml's [[volume]] entries: a volume that starts before a chapter file of a folder book.

A chapter titled by its file's name (风起.txt, 0012 风起.txt over the story alone) has no heading
line for a [[fix]] to name, so a volume before it is named by the file:

    [[volume]]
    before = "0012 风起.txt"     # a file of the source folder (卷一/0012.txt in a sub-folder)
    title = "第二卷 风雨"

The volume opens where the folder's files are put together into volumes (Assembly.take), before
that file's first chapter, which keeps its title and every line; it runs to the next volume (a
later [[volume]], a volume heading, a sub-folder's). Before a sub-folder's first file it names
that sub-folder's volume. The files are read as before: nothing here changes a chapter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from bookbuilder.diagnostics import BookError
from bookbuilder.model import Location
from bookbuilder.settings import Config
from bookbuilder.structure.chapters import VolumeHeading

KEYS = ("before", "title")


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
        unknown = sorted(set(entry) - set(KEYS))
        if unknown:
            raise BookError(
                "E003", f"[[volume]] #{i}: unknown key(s) {unknown} (known: {', '.join(KEYS)})", at
            )
        before, title = entry.get("before"), entry.get("title")
        if not isinstance(before, str) or not before.strip():
            raise BookError(
                "E003", f'[[volume]] #{i}: give before = "file.txt", the file it starts before', at
            )
        if not isinstance(title, str) or not " ".join(title.split()):
            raise BookError("E003", f"[[volume]] #{i} (before = {before!r}): give the volume a title", at)
        named = Path(before.strip()).as_posix()
        if twice := next((v for v in found if v.before == named), None):
            raise BookError(
                "E003", f"[[volume]] #{i}: {named!r} has a volume before it already (#{twice.index})", at
            )
        found.append(FileVolume(i, at.line, named, " ".join(title.split())))
    return tuple(found)


def opened(reads: Iterable, files: list[Path], config: Config) -> Iterable:
    """The files' reads (one per file of `files`, in order), a [[volume]]'s VolumeHeading put before
    the parts of the file it names. A [[volume]] that names no file of the book is E009, and one
    beside a whole-novel file E003, before any file is read."""
    source, volumes, toml = config.source, config.file_volumes, str(config.toml_path)
    if not volumes:
        return reads
    if source.is_file():
        first = volumes[0]
        raise BookError(
            "E003",
            f"[[volume]] #{first.index}: names a chapter file of a folder book; in one file, [[fix]] at = "
            f'"{source.name}:<line>" with as = "volume" starts a volume at a line',
            Location(toml, first.line),
        )
    where = {_relative(file, source): k for k, file in enumerate(files)}
    before: dict[int, FileVolume] = {}
    for volume in volumes:
        if volume.before not in where:
            raise BookError(
                "E009",
                f"[[volume]] #{volume.index} (before = {volume.before!r}) names no chapter file of the book "
                f"(a file of {source.name}, as 0012.txt or 卷一/0012.txt)",
                Location(toml, volume.line),
            )
        before[where[volume.before]] = volume
    return (
        replace(read, parts=(_heading(before[k], toml),) + tuple(read.parts)) if k in before else read
        for k, read in enumerate(reads)
    )


def _heading(volume: FileVolume, toml: str) -> VolumeHeading:
    """The volume as the file's first part. It is no line of the file: its place is its entry in
    the settings file (no line correction can name it), and it opens as a file's own volume
    heading does, naming a sub-folder's volume that has no chapter yet."""
    return VolumeHeading(volume.title, Location(toml), opens_file=True)


def _relative(file: Path, source: Path) -> str:
    try:
        return file.relative_to(source).as_posix()
    except ValueError:
        return file.name
