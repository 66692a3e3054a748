"""The book model: small, immutable, free of I/O.

Book → Volume → Chapter → Paragraph | SceneBreak. A book without volumes is one
untitled volume, so renderers never branch on it. Every block keeps the
location of the raw line it came from, so any later stage can point a user at
the exact source line.
"""
from __future__ import annotations

from array import array
from dataclasses import MISSING, dataclass, field, fields


def quick_init(cls):
    """A frozen, slotted dataclass given an __init__ that fills its slots through their descriptors.
    dataclass's own calls object.__setattr__ per field (the class's __setattr__ refuses, being
    frozen), which takes twice as long; a 2,000-chapter build makes some 300,000 locations and
    blocks (parsing, normalizing, crossing processes). The instances are the same: still frozen,
    equal and hashed as before."""
    if any(f.default_factory is not MISSING for f in fields(cls)) or hasattr(cls, "__post_init__"):
        raise TypeError(f"quick_init does not handle {cls.__name__}'s default_factory or __post_init__")
    namespace, params, body = {}, [], []
    for f in fields(cls):
        namespace[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        if f.default is not MISSING:
            namespace[f"_default_{f.name}"] = f.default
        params.append(f.name if f.default is MISSING else f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})")
    exec(f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body), namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init
    return cls


@quick_init
@dataclass(frozen=True, slots=True)
class Location:
    path: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path


@quick_init
@dataclass(frozen=True, slots=True)
class Paragraph:
    text: str
    at: Location
    # The raw line began with an indent. Read only by the hard-wrap rule (an indent can mark where
    # a wrapped paragraph starts); the indent itself is dropped, CSS draws it (RULES §3.6).
    indented: bool = field(default=False, compare=False)


@quick_init
@dataclass(frozen=True, slots=True)
class SceneBreak:
    at: Location


Block = Paragraph | SceneBreak


# A chapter's change, as plain tuples for crossing a process boundary (bookbuilder.parallel):
# the new title (None: unchanged) and per block (line, text), with text None for a scene break and
# True for a paragraph unchanged at that line. Unchanged text is not sent back at all.
ChapterDelta = tuple[str | None, tuple[tuple[int | None, str | bool | None], ...]]


def chapter_delta(old: "Chapter", new: "Chapter") -> ChapterDelta:
    before = {b.at.line: b.text for b in old.blocks if type(b) is Paragraph}
    if len({b.at.line for b in old.blocks}) != len(old.blocks):
        before = {}  # lines not unique (never from parse): send every text
    blocks = tuple((b.at.line, (True if before.get(b.at.line) == b.text else b.text) if type(b) is Paragraph else None)
                   for b in new.blocks)
    return (new.title if new.title != old.title else None), blocks


def apply_delta(old: "Chapter", delta: ChapterDelta) -> "Chapter":
    from dataclasses import replace

    title, wire = delta
    by_line = {b.at.line: b for b in old.blocks}
    blocks = []
    for line, text in wire:
        block = by_line.get(line)
        at = block.at if block is not None else Location(old.at.path, line)
        if text is True:
            pass
        elif text is None:
            block = block if type(block) is SceneBreak else SceneBreak(at)
        else:
            block = Paragraph(text, at)
        blocks.append(block)
    return replace(old, title=old.title if title is None else title, blocks=tuple(blocks))


# A whole chapter as plain data, for crossing a process boundary: metadata, then its paragraph
# texts joined by "\n" (a scene break is an empty text) and every block's line (negative for a
# scene break) as packed ints. One string and one bytes object pickle far faster than blocks.
# Paragraph.indented is not sent: only the hard-wrap rule reads it, before a chapter is sent.
ChapterWire = tuple


def chapter_to_wire(chapter: "Chapter") -> ChapterWire:
    path = chapter.at.path
    texts = [b.text if type(b) is Paragraph else "" for b in chapter.blocks]
    lines = [b.at.line if type(b) is Paragraph else -b.at.line for b in chapter.blocks if b.at.line and b.at.path == path]
    joined = "\n".join(texts)
    if len(lines) != len(texts) or joined.count("\n") != len(texts) - 1:
        blocks = chapter.blocks  # a line break inside a text, or a block from elsewhere: send the blocks
    else:
        blocks = (joined, array("i", lines).tobytes())
    return (chapter.title, path, chapter.at.line, chapter.number, chapter.file_number, chapter.kind, blocks)


def chapter_from_wire(wire: ChapterWire) -> "Chapter":
    title, path, line, number, file_number, kind, blocks = wire
    if type(blocks) is tuple and len(blocks) == 2 and type(blocks[0]) is str:
        joined, packed = blocks
        lines = array("i")
        lines.frombytes(packed)
        blocks = tuple(Paragraph(text, Location(path, n)) if n > 0 else SceneBreak(Location(path, -n))
                       for text, n in zip(joined.split("\n") if lines else (), lines))
    return Chapter(title, blocks, Location(path, line), number, file_number, kind)


@quick_init
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
