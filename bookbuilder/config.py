"""book.toml → a frozen Config.

Unknown keys and wrong types are errors that name the key (and its line), in the
spirit of mdBook's `deny_unknown_fields`: a typo must never be silently ignored.
"""
from __future__ import annotations

import codecs
import re
import tomllib
import uuid
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from bookbuilder.diagnostics import BookError
from bookbuilder.model import Location

CONFIG_NAME = "book.toml"
SIDECAR_SUFFIX = ".book.toml"  # novel.txt's (or a bare folder novel/'s) settings: novel.book.toml beside it
DEFAULT_AUTHOR = "佚名"  # "anonymous": what Chinese catalogues print for an unknown author
LANGUAGES = ("zh-Hans", "zh-Hant", "zh-CN", "zh-TW", "zh-HK", "zh")
PAGE_SIZES = ("A5", "A6", "B6", "6in×9in", "ereader")
PDF_VARIANTS = ("pdf/a-3b", "pdf/ua-1")

DEFAULT_FORMATS = ("epub", "pdf")
STR, BOOL, INT, STR_LIST, STR_MAP = "string", "boolean", "integer", "list of strings", "table of strings"
RULE_LIST = "list of regexes or {regex, kind, name} tables"
FIX_LIST = "list of [[fix]] tables"
SWITCH = "__switch__"  # in a nested schema: true or false is accepted in place of the table

# section → key → expected type (or a tuple of allowed string values, or a nested schema).
SCHEMA: dict[str, dict[str, Any]] = {
    "book": {
        "title": STR, "author": STR, "language": STR, "identifier": STR, "description": STR,
        "publisher": STR, "date": STR, "subjects": STR_LIST, "cover": STR,
    },
    "source": {
        "dir": STR, "order": STR_LIST, "encoding": STR, "encodings": STR_MAP,
        "errors": ("auto", "strict", "replace"), "heading_pattern": STR, "toc_rules": STR, "title_junk": STR_LIST,
    },
    # Rule switches are checked against the rule registry in normalize/__init__.py.
    # junk: true/false switches the rule; a [normalize.junk] table tunes it (and leaves it on).
    "normalize": {"convert": STR, "replace_rules": STR,
                  "junk": {SWITCH: True, "extra": RULE_LIST, "disable": STR_LIST, "enable": STR_LIST}},
    "epub": {"css": STR, "embed_font": BOOL, "font": STR, "vertical": BOOL},
    "pdf": {"css": STR, "page_size": PAGE_SIZES, "font": STR, "jobs": INT, "chunk_chapters": INT,
            "pdf_variant": PDF_VARIANTS, "recto": BOOL},
    "output": {"dir": STR, "name": STR, "formats": STR_LIST},
    "fix": FIX_LIST,  # [[fix]] corrections to the headings (bookbuilder.structure.fixes)
}


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
    toc_rules: tuple = ()  # Legado txtTocRule rules (bookbuilder.legado)
    title_junk: tuple[str, ...] = ()  # regexes cut from heading lines, beside data/titles.toml
    replace_rules: tuple = ()  # Legado replace rules, applied after the built-in cleaning
    normalize: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    epub: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    pdf: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    output_dir: Path | None = None
    output_name: str | None = None
    formats: tuple[str, ...] = DEFAULT_FORMATS  # what `bookbuilder build` builds
    has_config: bool = False
    meta_given: tuple[str, ...] = ()  # which of title, author, description book.toml sets
    fixes: tuple = ()  # [[fix]] entries (bookbuilder.structure.fixes.Fix)
    sidecar: bool = False  # read from <name>.book.toml beside a bare .txt or folder, not a project's book.toml

    @property
    def toml_path(self) -> Path:
        """The settings file this book is read with, whether or not it exists yet: a project's
        book.toml, else the sidecar beside the bare .txt or folder (where `serve`'s corrections go)."""
        return self.root / CONFIG_NAME if self.has_config else sidecar_path(self.source)

    @property
    def build_dir(self) -> Path:
        return self.output_dir or self.root / "build"

    def css_path(self, fmt: str) -> Path | None:
        """The book's own stylesheet for `fmt` (epub|pdf), if any: [fmt].css or styles/<fmt>.css."""
        named = getattr(self, fmt).get("css")
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
        return Location(str(toml), _line_of(toml.read_text("utf-8"), key.split(".")[-1])) if toml.exists() else Location(str(toml))


def stable_identifier(title: str, author: str) -> str:
    """UUID5 of title + author, so a rebuilt book keeps its identity (and readers their progress)."""
    return "urn:uuid:" + str(uuid.uuid5(uuid.NAMESPACE_URL, f"bookbuilder:{title}\x1f{author}"))


def load_config(path: Path) -> Config:
    """Config for PATH: a book project, a bare folder of .txt files, or a single .txt file."""
    path = Path(path)
    if not path.exists():
        raise BookError("E004", "no such file or folder", str(path))
    if path.is_file():
        if sidecar_path(path).is_file():
            return _from_toml(path.parent, sidecar_path(path), lone=path)
        return Config(root=path.parent, source=path, title=_title_from_name(path.stem))
    toml = path / CONFIG_NAME
    if not toml.is_file():
        if sidecar_path(path).is_file():
            return _from_toml(path, sidecar_path(path), lone=path)
        # A bare folder gets its build/ beside it, not inside the folder of chapters.
        return Config(root=path, source=path, title=_title_from_name(path.resolve().name),
                      output_dir=path.resolve().parent / "build")
    return _from_toml(path, toml)


def sidecar_path(path: Path) -> Path:
    """Where the settings of a bare .txt or folder live: beside it, named after it (novel.txt →
    novel.book.toml). Not inside a folder of chapters: a book.toml there makes it a project, whose
    chapters are in source/ and whose build/ is inside it."""
    path = Path(path)
    stem = path.stem if path.suffix.lower() == ".txt" else path.resolve().name
    return path.resolve().parent / (stem + SIDECAR_SUFFIX)


def _title_from_name(name: str) -> str:
    return re.sub(r"^[\d_\-\s.]+", "", name).strip() or name


def _from_toml(root: Path, toml: Path, lone: Path | None = None) -> Config:
    """A project's book.toml, or (`lone`: the bare .txt or folder) its sidecar, which reads the
    same keys but [source] dir: its source is the file or folder beside it."""
    text = toml.read_text("utf-8", errors="replace")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        line = re.search(r"line (\d+)", str(e))
        raise BookError("E001", f"invalid TOML: {e}", Location(str(toml), int(line.group(1)) if line else None)) from None
    _check_schema(data, SCHEMA, "", toml, text)
    book, source = data.get("book", {}), data.get("source", {})
    normalize = dict(data.get("normalize", {}))
    from bookbuilder.normalize import check_options  # the rule registry knows the rule names

    try:
        check_options(normalize)
    except ValueError as e:
        key = str(e).split(":")[0]
        raise BookError("E002" if "unknown" in str(e) else "E003", str(e), Location(str(toml), _line_of(text, key))) from None
    language = book.get("language")
    if language is not None and language not in LANGUAGES:
        raise BookError("E003", f"book.language = {language!r}: expected one of {', '.join(LANGUAGES)}",
                        Location(str(toml), _line_of(text, "language")))
    for key, codec in [("source.encoding", source.get("encoding"))] + [
        (f"source.encodings.{pat}", c) for pat, c in source.get("encodings", {}).items()
    ]:
        if codec is not None:
            try:
                codecs.lookup(codec)
            except LookupError:
                raise BookError("E104", f"{key} = {codec!r} is not a known codec",
                                Location(str(toml), _line_of(text, key.split(".")[-1]))) from None
    output = data.get("output", {})
    src_dir = source.get("dir", "source")
    if lone is not None and "dir" in source:
        raise BookError("E003", f"source.dir: not read beside {lone.name} (its source is {lone.name})",
                        Location(str(toml), _line_of(text, "dir")))
    named = lone.stem if lone is not None and lone.is_file() else root.resolve().name
    config = Config(
        root=root, source=root / src_dir if lone is None else lone, has_config=lone is None, sidecar=lone is not None,
        meta_given=tuple(k for k in ("title", "author", "description") if book.get(k)),
        title=book.get("title") or _title_from_name(named), author=book.get("author"),
        language=language, identifier=book.get("identifier"), description=book.get("description", ""),
        publisher=book.get("publisher", ""), date=book.get("date", ""),
        subjects=tuple(book.get("subjects", ())), order=tuple(source.get("order", ())),
        encoding=source.get("encoding"), encodings=MappingProxyType(dict(source.get("encodings", {}))),
        errors=source.get("errors", "auto"), heading_pattern=source.get("heading_pattern"),
        title_junk=tuple(source.get("title_junk", ())),
        normalize=MappingProxyType(normalize), epub=MappingProxyType(dict(data.get("epub", {}))),
        pdf=MappingProxyType(dict(data.get("pdf", {}))), output_name=output.get("name"),
    )
    extra = {"source": config.inside(src_dir, "source.dir") if lone is None else lone}
    if lone is not None and lone.is_dir():  # as without it: build/ beside the folder of chapters
        extra["output_dir"] = lone.resolve().parent / "build"
    if "cover" in book:
        extra["cover"] = config.inside(book["cover"], "book.cover")
    if "dir" in output:
        out = (root / output["dir"]).resolve()
        if not out.is_relative_to(root.resolve()):
            raise BookError("E006", f"output.dir = {output['dir']!r} points outside the book project",
                            Location(str(toml), _line_of(text, "dir")))
        extra["output_dir"] = out
    if "formats" in output:
        from bookbuilder.render import NAMES

        unknown = [f for f in output["formats"] if f not in NAMES]
        if unknown or not output["formats"]:
            raise BookError("E003", f"output.formats: {', '.join(map(repr, unknown)) or 'an empty list'} "
                                    f"(known: {', '.join(NAMES)})", Location(str(toml), _line_of(text, "formats")))
        extra["formats"] = tuple(dict.fromkeys(output["formats"]))
    extra.update(_legado(config, source, normalize, text, toml))
    if "fix" in data:
        from bookbuilder.structure.fixes import parse_fixes

        starts = [m.start() for m in re.finditer(r"^[ \t]*\[\[[ \t]*fix[ \t]*\]\]", text, re.M)]
        extra["fixes"] = parse_fixes(data["fix"], str(toml),
                                     lambda i: text.count("\n", 0, starts[i - 1]) + 1 if i <= len(starts) else None)
    for rx in config.title_junk:
        try:
            re.compile(rx)
        except re.error as e:
            raise BookError("E003", f"source.title_junk: {rx!r} is not a valid regular expression: {e}",
                            Location(str(toml), _line_of(text, "title_junk"))) from None
    if heading := source.get("heading_pattern"):
        try:
            re.compile(heading)
        except re.error as e:
            raise BookError("E003", f"source.heading_pattern is not a valid regular expression: {e}",
                            Location(str(toml), _line_of(text, "heading_pattern"))) from None
    return replace(config, **extra)


def _legado(config: Config, source: dict, normalize: dict, text: str, toml: Path) -> dict:
    """Legado rule files named in book.toml, loaded (an unusable one is E003 naming its key)."""
    from bookbuilder.legado import RuleError, load_replace_rules, load_toc_rules

    found = {}
    for key, table, loader, field_name in (("toc_rules", source, load_toc_rules, "toc_rules"),
                                           ("replace_rules", normalize, load_replace_rules, "replace_rules")):
        if key in table:
            path = config.inside(table[key], key)
            try:
                found[field_name] = loader(path)
            except RuleError as e:
                raise BookError("E003", str(e), Location(str(toml), _line_of(text, key))) from None
    return found


def _check_schema(data: dict, schema: dict, prefix: str, toml: Path, text: str) -> None:
    for key, value in data.items():
        name = f"{prefix}{key}"
        at = Location(str(toml), _line_of(text, key))
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
                raise BookError("E003", f"{name} must be {'true, false or ' if expected.get(SWITCH) else ''}a table", at)
            _check_schema(value, expected, name + ".", toml, text)
        elif not _has_type(value, expected):
            want = " or ".join(map(repr, expected)) if isinstance(expected, tuple) else f"a {expected}"
            raise BookError("E003", f"{name} must be {want}, not {value!r}", at)


def _has_type(value: Any, expected) -> bool:
    if isinstance(expected, tuple):
        return value in expected
    if expected == STR:
        return isinstance(value, str)
    if expected == BOOL:
        return isinstance(value, bool)
    if expected == INT:
        return isinstance(value, int) and not isinstance(value, bool) and value > 0
    if expected == STR_LIST:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if expected == FIX_LIST:
        return isinstance(value, list) and all(isinstance(v, dict) for v in value)
    if expected == RULE_LIST:
        return isinstance(value, list) and all(
            isinstance(v, str) or (isinstance(v, dict) and isinstance(v.get("regex"), str)
                                   and v.get("kind", "line") in ("line", "inline") and set(v) <= {"regex", "kind", "name"})
            for v in value)
    if expected == STR_MAP:
        return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
    raise AssertionError(expected)


def _line_of(text: str, key: str) -> int | None:
    """Best-effort line of `key` in the TOML text (tomllib does not report positions)."""
    pattern = re.compile(rf'^\s*(\[\s*)?("?){re.escape(key)}\2\s*[=\]]', re.M)
    m = pattern.search(text)
    return text.count("\n", 0, m.start()) + 1 if m else None
