"""The frozen Config a book is built with, and where its settings file is.

bookbuilder.config reads book.toml (or a sidecar) into one. The Config stands below the renderers,
which read it (bookbuilder.render), and the reading stands above them: it asks the render
registry for each format's [section] of options. So imports go one way: settings ← render ←
config.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from bookbuilder.diagnostics import BookError
from bookbuilder.model import Location

CONFIG_NAME = "book.toml"
SIDECAR_SUFFIX = ".book.toml"  # novel.txt's (or a bare folder novel/'s) settings: novel.book.toml beside it
DEFAULT_FORMATS = ("epub", "pdf")
_NONE: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class Config:
    root: Path  # the book project folder (or the folder holding a lone .txt)
    source: Path  # a folder of chapter files, or one whole-novel .txt
    title: str | None = None
    author: str | None = None
    language: str | None = None
    identifier: str | None = None
    description: str = ""
    publisher: str = ""
    date: str = ""
    subjects: tuple[str, ...] = ()
    cover: Path | None = None
    order: tuple[str, ...] = ()
    encoding: str | None = None
    encodings: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    errors: str = "auto"
    heading_pattern: str | None = None
    toc_rules: tuple = ()  # Legado txtTocRule rules (bookbuilder.normalize.legado)
    title_junk: tuple[str, ...] = ()  # regexes cut from heading lines, beside data/titles.toml
    replace_rules: tuple = ()  # Legado replace rules, applied after the built-in cleaning
    normalize: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    # The renderers' own tables ([epub], [pdf], …) as book.toml gives them, checked against the
    # rows each renderer declares; each renderer reads its own (`section`).
    sections: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    output_dir: Path | None = None
    output_name: str | None = None
    formats: tuple[str, ...] = DEFAULT_FORMATS  # what `bookbuilder build` builds
    has_config: bool = False
    meta_given: tuple[str, ...] = ()  # which of title, author, description book.toml sets
    fixes: tuple = ()  # [[fix]] entries (bookbuilder.structure.fixes.Fix)
    # [[keep]] entries: lines cleaning leaves as they are (bookbuilder.normalize.by_hand.Keep)
    keeps: tuple = ()
    not_debris: tuple[str, ...] = ()  # [check] not_debris: what the self-check stops flagging
    sidecar: bool = (
        False  # read from <name>.book.toml beside a bare .txt or folder, not a project's book.toml
    )

    @property
    def toml_path(self) -> Path:
        """The settings file this book is read with, whether or not it exists yet: a project's
        book.toml, else the sidecar beside the bare .txt or folder (where `serve`'s corrections go)."""
        return self.root / CONFIG_NAME if self.has_config else sidecar_path(self.source)

    @property
    def build_dir(self) -> Path:
        return self.output_dir or self.root / "build"

    def section(self, name: str) -> Mapping[str, Any]:
        """A renderer's table of book.toml ([epub], [pdf]); empty where the book has none."""
        return self.sections.get(name, _NONE)

    def css_path(self, fmt: str) -> Path | None:
        """The book's own stylesheet for `fmt` (epub|pdf), if any: [fmt].css or styles/<fmt>.css."""
        named = self.section(fmt).get("css")
        if named:
            return self.inside(named, f"{fmt}.css")
        default = self.root / "styles" / f"{fmt}.css"
        return default if default.is_file() and self.has_config else None

    def inside(self, relative: str, key: str) -> Path:
        """Resolve a path from book.toml, refusing anything outside the project (symlinks too)."""
        path = (self.root / relative).resolve()
        if not path.is_relative_to(self.root.resolve()):
            raise BookError("E006", f"{key} = {relative!r} points outside the book project", self._at(key))
        if not path.exists():
            raise BookError("E008", f"{key} = {relative!r}: no such file", self._at(key))
        return path

    def _at(self, key: str) -> Location:
        toml = self.toml_path
        return (
            Location(str(toml), line_of(toml.read_text("utf-8"), key.split(".")[-1]))
            if toml.exists()
            else Location(str(toml))
        )


def sidecar_path(path: Path) -> Path:
    """Where the settings of a bare .txt or folder live: beside it, named after it (novel.txt →
    novel.book.toml). Not inside a folder of chapters: a book.toml there makes it a project, whose
    chapters are in source/ and whose build/ is inside it."""
    path = Path(path)
    stem = path.stem if path.suffix.lower() == ".txt" else path.resolve().name
    return path.resolve().parent / (stem + SIDECAR_SUFFIX)


def line_of(text: str, key: str) -> int | None:
    """Best-effort line of `key` in the TOML text (tomllib does not report positions)."""
    pattern = re.compile(rf'^\s*(\[\s*)?("?){re.escape(key)}\2\s*[=\]]', re.M)
    m = pattern.search(text)
    return text.count("\n", 0, m.start()) + 1 if m else None
