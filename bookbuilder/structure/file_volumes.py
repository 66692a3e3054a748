"""book.toml's [[volume]] entries: a volume that starts before a chapter file of a folder book.

A chapter titled by its file's name (风起.txt, 0012 风起.txt over the story alone) has no heading
line for a [[fix]] to name, so a volume before it is named by the file:

    [[volume]]
    before = "0012 风起.txt"     # a file of the source folder (卷一/0012.txt in a sub-folder)
    title = "第二卷 风雨"

The volume opens where the folder's files are put together into volumes (Assembly.take), before
that file's first chapter, which keeps its title and every line; it runs to the next volume (a
later [[volume]], a volume heading, a sub-folder's), and a later entry opens its own volume
whatever its title. Before a sub-folder's first file it names that sub-folder's volume. The files
are read as before: nothing here changes a chapter.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from bookbuilder.diagnostics import BookError
from bookbuilder.model import Location
from bookbuilder.settings import Config
from bookbuilder.structure.chapters import VolumeHeading
from bookbuilder.structure.fixes import FileVolume


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
                f"(a file of {source.name} named from it: 0012.txt, or part1/0012.txt in a sub-folder)",
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
    return VolumeHeading(volume.title, Location(toml), opens_file=True, by_hand=True)


def _relative(file: Path, source: Path) -> str:
    try:
        return file.relative_to(source).as_posix()
    except ValueError:
        return file.name
