"""The book model: small, immutable, free of I/O.

Book → Volume → Chapter → Paragraph | SceneBreak. A book without volumes is one
untitled volume, so renderers never branch on it. Every block keeps the
location of the raw line it came from, so any later stage can point a user at
the exact source line.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True, slots=True)
class Location:
    path: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path


@dataclass(frozen=True, slots=True)
class Paragraph:
    text: str
    at: Location
    # The raw line began with an indent. Read only by the hard-wrap rule (an indent can mark where
    # a wrapped paragraph starts); the indent itself is dropped, CSS draws it (docs/rules.md §3.6).
    indented: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True)
class SceneBreak:
    at: Location


Block = Paragraph | SceneBreak


@dataclass(frozen=True, slots=True)
class Chapter:
    title: str
    blocks: tuple[Block, ...]
    at: Location
    # The number the source gives this chapter (heading or file name), for lint; None if unknown.
    number: int | None = None
    # The number in the file name (000_…, 12.txt), when the chapter is a file of its own.
    file_number: int | None = None
    # "chapter" for story chapters; "intro" for a preamble page; "front"/"back" for 楔子, 后记, …
    kind: str = "chapter"
    # The reading pass that decided its heading (bookbuilder.structure.passes); None where no
    # heading line did (a chapter titled by its file's name, the intro, a part cut by size).
    decided_by: str | None = field(default=None, compare=False)

    @property
    def chars(self) -> int:
        return sum(len(b.text) for b in self.blocks if type(b) is Paragraph)


@dataclass(frozen=True, slots=True)
class Volume:
    title: str | None
    chapters: tuple[Chapter, ...]
    at: Location | None = None


@dataclass(frozen=True, slots=True)
class Meta:
    title: str
    author: str
    language: str
    identifier: str
    description: str = ""
    publisher: str = ""
    date: str = ""
    subjects: tuple[str, ...] = ()
    # Where each of title, author and description came from: (field, "book.toml" | "text:3" | …).
    sources: tuple[tuple[str, str], ...] = ()
    # A book that is one volume of a series (`--split volumes`): the series' name, its position.
    series: tuple[str, int] | None = None


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One raw file as decoded: what `check --json` reports per file."""

    path: str
    encoding: str
    method: str  # bom | strict | plausibility | detector | override
    replaced: int = 0  # undecodable byte sequences decoded as U+FFFD


@dataclass(frozen=True, slots=True)
class Cover:
    data: bytes
    kind: str  # jpeg | png
    generated: bool = False

    @property
    def media_type(self) -> str:
        return f"image/{self.kind}"


@dataclass(frozen=True)
class Book:
    meta: Meta
    volumes: tuple[Volume, ...]
    files: tuple[SourceFile, ...] = ()
    # Rule name → number of changes, filled by normalization.
    changes: tuple[tuple[str, int], ...] = field(default=())
    cover: Cover | None = None

    def chapters(self):
        for volume in self.volumes:
            yield from volume.chapters

    def with_chapters(self, new: dict[int, Chapter]) -> Book:
        """The book with the chapters of these indexes in chapters() replaced, the rest as they are."""
        if not new:
            return self
        index = iter(range(sum(len(v.chapters) for v in self.volumes)))
        volumes = tuple(
            replace(v, chapters=tuple(new.get(next(index), c) for c in v.chapters)) for v in self.volumes
        )
        return replace(self, volumes=volumes)

    def characters(self) -> dict[str, Location]:
        """Every character the book prints (metadata, titles, text) → where it first appears."""
        found: dict[str, Location] = {}
        where = Location("book.toml")
        for ch in self.meta.title + self.meta.author:
            found.setdefault(ch, where)
        for volume in self.volumes:
            for ch in volume.title or "":
                found.setdefault(ch, volume.at or where)
            for chapter in volume.chapters:
                for ch in chapter.title:
                    found.setdefault(ch, chapter.at)
                for block in chapter.blocks:
                    if type(block) is Paragraph:
                        for ch in set(block.text).difference(found):
                            found[ch] = block.at
        return found

    @property
    def has_volume_titles(self) -> bool:
        return any(v.title for v in self.volumes)
