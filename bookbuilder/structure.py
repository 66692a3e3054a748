"""Sections of decoded files → volumes and chapters with titles (RULES §4).

A folder of files: each file is a chapter (or several, if it holds several headings), each
sub-folder a volume. One whole-novel file: split at headings; 卷/部/集/篇 headings open volumes,
and a preamble (书名：, 作者：, 内容简介) fills metadata and becomes an introduction page.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from bookbuilder.model import Chapter, Location, Paragraph, Volume
from bookbuilder.numerals import to_chinese
from bookbuilder.parse import Section, normalize_title
from bookbuilder.source import file_number

_HASH = re.compile(r"[_\-.\s]*[0-9a-fA-F]{8,}$")
_LEADING_NUMBER = re.compile(r"^[0-9０-９]+[_\-.\s]*")
_PREAMBLE_FIELD = re.compile(r"^(书名|書名|作者|简介|簡介|内容简介|內容簡介)\s*[:：]?\s*(.*)$")
INTRO_TITLE = "内容简介"


@dataclass
class Assembly:
    """Volumes as they are built; titles of headless chapters are filled in at the end."""

    volumes: list[tuple[str | None, Location | None, list[Chapter]]] = field(default_factory=list)
    preamble: dict[str, str] = field(default_factory=dict)

    def open_volume(self, title: str | None, at: Location | None) -> None:
        if self.volumes and not self.volumes[-1][2] and self.volumes[-1][0] is None:
            self.volumes.pop()  # an empty untitled volume before the first 卷 heading
        self.volumes.append((title, at, []))

    def add(self, chapter: Chapter) -> None:
        if not self.volumes:
            self.volumes.append((None, None, []))
        self.volumes[-1][2].append(chapter)


def file_sections_to_chapters(asm: Assembly, path: str, sections: list[Section], *, whole_novel: bool,
                              volume_from_folder: bool) -> None:
    name = path.rsplit("/", 1)[-1]
    number_in_name = None if whole_novel else file_number(name)
    for i, section in enumerate(sections):
        heading = section.heading
        if heading is None:
            if whole_novel:
                _take_preamble(asm, path, section)
                continue
            asm.add(Chapter("", tuple(section.blocks), Location(path, 1), None, number_in_name))
            continue
        at = Location(path, heading.line)
        if heading.kind == "volume":
            volume_title_pending = volume_from_folder and i == 0 and asm.volumes and not asm.volumes[-1][2]
            if volume_title_pending:  # 第N卷 heading of a sub-folder volume names it
                asm.volumes[-1] = (heading.title, at, [])
            else:
                asm.open_volume(heading.title, at)
            if section.blocks:  # text right under a volume heading: the volume's own page
                asm.add(Chapter(heading.title, tuple(section.blocks), at, None, None, "front"))
            continue
        blocks = _drop_repeated_heading(heading.title, section.blocks)
        kind = "chapter" if heading.kind == "chapter" else heading.kind
        asm.add(Chapter(heading.title, blocks, at, heading.number, number_in_name, kind))


def _drop_repeated_heading(title: str, blocks: list) -> tuple:
    """A heading repeated as the first body line is dropped (RULES §4.3)."""
    if blocks and isinstance(blocks[0], Paragraph) and normalize_title(blocks[0].text) == title:
        return tuple(blocks[1:])
    return tuple(blocks)


def _take_preamble(asm: Assembly, path: str, section: Section) -> None:
    body = []
    for block in section.blocks:
        m = _PREAMBLE_FIELD.match(block.text) if isinstance(block, Paragraph) else None
        if m and m.group(1) in ("书名", "書名", "作者"):
            asm.preamble.setdefault("title" if m.group(1) != "作者" else "author", m.group(2).strip("《》 "))
        elif m and not m.group(2):
            continue  # a bare 内容简介 label: the page gets that title anyway
        elif m:
            body.append(Paragraph(m.group(2), block.at))
        else:
            body.append(block)
    if any(isinstance(b, Paragraph) for b in body):
        asm.add(Chapter(INTRO_TITLE, tuple(body), Location(path, body[0].at.line), kind="intro"))


def finish(asm: Assembly) -> tuple[Volume, ...]:
    """Give headless chapters a title: the file name without number and hash, else 第N章 by position."""
    volumes, position = [], 0
    for title, at, chapters in asm.volumes:
        done = []
        for chapter in chapters:
            if chapter.kind == "chapter":
                position += 1
            if not chapter.title:
                chapter = replace(chapter, title=title_from_file(chapter.at.path) or f"第{to_chinese(position)}章")
            done.append(chapter)
        volumes.append(Volume(title, tuple(done), at))
    return tuple(volumes)


def title_from_file(path: str) -> str:
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return normalize_title(_HASH.sub("", _LEADING_NUMBER.sub("", stem)))
