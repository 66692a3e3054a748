"""The frozen Config a book is built with, and where its settings file is.

bookbuilder.config reads book.toml (or a sidecar) into one. The Config stands below the renderers,
which read it (bookbuilder.render), and so does the check of a table's keys (check_schema): the
reading keeps each format's table as data, and the render registry checks each against the keys
its renderer declares (render.check_tables). So imports go one way: settings ← render, settings ←
config, and config imports no renderer.
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
    # The renderers' own tables ([epub], [pdf], …): every table of book.toml not the book's own, as
    # given, checked against the keys each renderer declares (render.check_tables); each renderer
    # reads its own (`section`).
    sections: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    output_dir: Path | None = None
    output_name: str | None = None
    formats: tuple[str, ...] = DEFAULT_FORMATS  # what `bookbuilder build` builds
    has_config: bool = False
    meta_given: tuple[str, ...] = ()  # which of title, author, description book.toml sets
    fixes: tuple = ()  # [[fix]] entries (bookbuilder.structure.fixes.Fix)
    # [[keep]] entries: lines cleaning leaves as they are (bookbuilder.normalize.by_hand.Keep)
    keeps: tuple = ()
    # [[volume]] entries: volumes that start before a chapter file (bookbuilder.structure.fixes.FileVolume)
    file_volumes: tuple = ()
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


# What a key's value must be: str, bool, int (a positive integer), list[str], dict[str, str], a
# tuple of the allowed values, one of these named kinds, or a nested table of keys.
RULE_LIST = "list of regexes or {regex, kind, name, on} tables"
FIX_LIST = "list of [[fix]] tables"
KEEP_LIST = "list of [[keep]] tables"
VOLUME_LIST = "list of [[volume]] tables"
SWITCH = "__switch__"  # in a nested schema: true or false is accepted in place of the table
TYPE_NAMES = {
    str: "string",
    bool: "boolean",
    int: "integer",
    list[str]: "list of strings",
    dict[str, str]: "table of strings",
}


def check_schema(data: dict, schema: dict, prefix: str, toml: Path, text: str) -> None:
    """Each key of `data` (a table of book.toml, `text` read from `toml`) against `schema`: an
    unknown key is E002 and a value of the wrong kind E003, each naming the key and its line."""
    for key, value in data.items():
        name = f"{prefix}{key}"
        at = Location(str(toml), line_of(text, key))
        if key not in schema or key == SWITCH:
            if prefix == "normalize.":  # rule switches: checked by the rule registry
                continue
            known = ", ".join(sorted(schema))
            raise BookError("E002", f"unknown key {name!r} (known here: {known})", at)
        expected = schema[key]
        if isinstance(expected, dict) and expected.get(SWITCH) and isinstance(value, bool):
            continue
        if isinstance(expected, dict):
            if not isinstance(value, dict):
                raise BookError(
                    "E003", f"{name} must be {'true, false or ' if expected.get(SWITCH) else ''}a table", at
                )
            check_schema(value, expected, name + ".", toml, text)
        elif not _has_type(value, expected):
            want = (
                " or ".join(map(repr, expected))
                if isinstance(expected, tuple)
                else f"a {TYPE_NAMES.get(expected, expected)}"
            )
            raise BookError("E003", f"{name} must be {want}, not {value!r}", at)


def _has_type(value: Any, expected) -> bool:
    if isinstance(expected, tuple):
        return value in expected
    if expected is str:
        return isinstance(value, str)
    if expected is bool:
        return isinstance(value, bool)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool) and value > 0
    if expected == list[str]:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if expected in (FIX_LIST, KEEP_LIST, VOLUME_LIST):
        return isinstance(value, list) and all(isinstance(v, dict) for v in value)
    if expected == RULE_LIST:
        return isinstance(value, list) and all(
            isinstance(v, str)
            or (
                isinstance(v, dict)
                and isinstance(v.get("regex"), str)
                and v.get("kind", "line") in ("line", "inline")
                and v.get("on", "source") in ("source", "cleaned")
                and set(v) <= {"regex", "kind", "name", "on"}
            )
            for v in value
        )
    if expected == dict[str, str]:
        return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
    raise AssertionError(expected)
