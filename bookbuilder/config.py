"""book.toml → a frozen Config (bookbuilder.settings).

Unknown keys and wrong types are errors that name the key (and its line), in the
spirit of mdBook's `deny_unknown_fields`: a typo must never be silently ignored. The book's own
tables are declared and checked here; each format's table ([epub], [pdf], …) is kept as data, and
checked by the render registry against the keys its renderer declares (render.check_tables, when
the book is loaded), as an mdBook renderer reads its own table: no renderer is imported here.
"""

from __future__ import annotations

import codecs
import re
import tomllib
import uuid
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from types import MappingProxyType
from typing import Any

from bookbuilder.diagnostics import BookError
from bookbuilder.model import Location
from bookbuilder.settings import (
    CONFIG_NAME,
    DEFAULT_FORMATS,
    FIX_LIST,
    KEEP_LIST,
    RULE_LIST,
    SIDECAR_SUFFIX,
    SWITCH,
    VOLUME_LIST,
    Config,
    check_schema,
    line_of,
    sidecar_path,
)

__all__ = [
    "CONFIG_NAME",
    "DEFAULT_FORMATS",
    "SIDECAR_SUFFIX",
    "Config",
    "load_config",
    "sidecar_path",
    "stable_identifier",
]

DEFAULT_AUTHOR = "佚名"  # "anonymous": what Chinese catalogues print for an unknown author
LANGUAGES = ("zh-Hans", "zh-Hant", "zh-CN", "zh-TW", "zh-HK", "zh")

# The book's own tables: section → key → what its value must be. The renderers declare theirs.
SCHEMA: dict[str, dict[str, Any]] = {
    "book": {
        "title": str,
        "author": str,
        "language": str,
        "identifier": str,
        "description": str,
        "publisher": str,
        "date": str,
        "subjects": list[str],
        "cover": str,
    },
    "source": {
        "dir": str,
        "order": list[str],
        "encoding": str,
        "encodings": dict[str, str],
        "errors": ("auto", "strict", "replace"),
        "heading_pattern": str,
        "toc_rules": str,
        "title_junk": list[str],
    },
    # Rule switches are checked against the rule registry in normalize/rules.py.
    # junk: true/false switches the rule; a [normalize.junk] table tunes it (and leaves it on).
    "normalize": {
        "convert": str,
        "replace_rules": str,
        "junk": {SWITCH: True, "extra": RULE_LIST, "disable": list[str], "enable": list[str]},
    },
    "output": {"dir": str, "name": str, "formats": list[str]},
    "fix": FIX_LIST,  # [[fix]] corrections to the headings (bookbuilder.structure.fixes)
    "keep": KEEP_LIST,  # [[keep]] lines that cleaning leaves (bookbuilder.normalize.by_hand)
    "volume": VOLUME_LIST,  # [[volume]] before a chapter file (bookbuilder.structure.fixes)
    # what the self-check (bookbuilder.check.suspects) is told is the story's: it stops flagging it
    "check": {"not_debris": list[str]},
}


def stable_identifier(title: str, author: str) -> str:
    """UUID5 of title + author, so a rebuilt book keeps its identity (and readers their progress)."""
    return "urn:uuid:" + str(uuid.uuid5(uuid.NAMESPACE_URL, f"bookbuilder:{title}\x1f{author}"))


def load_config(path: Path, settings: str | None = None) -> Config:
    """Config for PATH: a book project, a bare folder of .txt files, or a single .txt file.
    `settings`: the text its settings file would hold (serve tries a correction on it before
    writing it), read in place of the file's; "" beside a bare .txt or folder is no file at all."""
    path = Path(path)
    if not path.exists():
        raise BookError("E004", "no such file or folder", str(path))
    if path.is_file():
        if settings or (settings is None and sidecar_path(path).is_file()):
            return _from_toml(path.parent, sidecar_path(path), lone=path, text=settings)
        return Config(root=path.parent, source=path, title=_title_from_name(path.stem))
    toml = path / CONFIG_NAME
    if not toml.is_file():
        if settings or (settings is None and sidecar_path(path).is_file()):
            return _from_toml(path, sidecar_path(path), lone=path, text=settings)
        # A bare folder gets its build/ beside it, not inside the folder of chapters.
        return Config(
            root=path,
            source=path,
            title=_title_from_name(path.resolve().name),
            output_dir=path.resolve().parent / "build",
        )
    return _from_toml(path, toml, text=settings)


def _title_from_name(name: str) -> str:
    return re.sub(r"^[\d_\-\s.]+", "", name).strip() or name


Where = Callable[[str], Location]  # a key → its place in book.toml


def _from_toml(root: Path, toml: Path, lone: Path | None = None, text: str | None = None) -> Config:
    """A project's book.toml, or (`lone`: the bare .txt or folder) its sidecar, which reads the
    same keys but [source] dir: its source is the file or folder beside it. The checks run in
    the order below: a book.toml with several mistakes names the same one first every time."""
    if text is None:
        text = toml.read_text("utf-8", errors="replace")
    data = _parsed(text, toml)
    # The formats' tables (any table beyond the book's own) are kept as given: render.check_tables
    # checks each against its renderer's keys.
    check_schema({k: v for k, v in data.items() if k in SCHEMA}, SCHEMA, "", toml, text)
    formats = {k: v for k, v in data.items() if k not in SCHEMA}
    at: Where = partial(_location, toml, text)
    book, source, output = data.get("book", {}), data.get("source", {}), data.get("output", {})
    normalize = _normalize_options(data, at)
    _check_values(book, source, lone, at)
    config = _config(root, lone, data, normalize, formats)
    changes = _paths(config, lone, book, source, output, at)
    changes.update(_formats(output, at))
    changes.update(_legado(config, source, normalize, text, toml))
    changes.update(_fixes(data, text, toml))
    changes.update(_keeps(data, text, toml))
    changes.update(_volumes(data, text, toml))
    _check_patterns(config, source, at)
    return replace(config, **changes)


def _location(toml: Path, text: str, key: str) -> Location:
    return Location(str(toml), line_of(text, key))


def _parsed(text: str, toml: Path) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        line = re.search(r"line (\d+)", str(e))
        raise BookError(
            "E001", f"invalid TOML: {e}", Location(str(toml), int(line.group(1)) if line else None)
        ) from None


def _normalize_options(data: dict, at: Where) -> dict:
    """[normalize], its rule switches checked by the rule registry, which knows the rule names."""
    from bookbuilder.normalize.rules import check_options

    normalize = dict(data.get("normalize", {}))
    try:
        check_options(normalize)
    except ValueError as e:
        raise BookError("E002" if "unknown" in str(e) else "E003", str(e), at(str(e).split(":")[0])) from None
    return normalize


def _check_values(book: dict, source: dict, lone: Path | None, at: Where) -> None:
    """The values a type does not check: the language, the codecs, [source] dir beside a lone file."""
    language = book.get("language")
    if language is not None and language not in LANGUAGES:
        raise BookError(
            "E003", f"book.language = {language!r}: expected one of {', '.join(LANGUAGES)}", at("language")
        )
    for key, codec in [("source.encoding", source.get("encoding"))] + [
        (f"source.encodings.{pat}", c) for pat, c in source.get("encodings", {}).items()
    ]:
        if codec is not None:
            try:
                codecs.lookup(codec)
            except LookupError:
                raise BookError(
                    "E104", f"{key} = {codec!r} is not a known codec", at(key.split(".")[-1])
                ) from None
    if lone is not None and "dir" in source:
        raise BookError(
            "E003", f"source.dir: not read beside {lone.name} (its source is {lone.name})", at("dir")
        )


def _config(root: Path, lone: Path | None, data: dict, normalize: dict, formats: dict) -> Config:
    """The Config of what book.toml says, before its paths are resolved."""
    book, source, output = data.get("book", {}), data.get("source", {}), data.get("output", {})
    named = lone.stem if lone is not None and lone.is_file() else root.resolve().name
    return Config(
        root=root,
        source=root / source.get("dir", "source") if lone is None else lone,
        has_config=lone is None,
        sidecar=lone is not None,
        meta_given=tuple(k for k in ("title", "author", "description") if book.get(k)),
        title=book.get("title") or _title_from_name(named),
        author=book.get("author"),
        language=book.get("language"),
        identifier=book.get("identifier"),
        description=book.get("description", ""),
        publisher=book.get("publisher", ""),
        date=book.get("date", ""),
        subjects=tuple(book.get("subjects", ())),
        order=tuple(source.get("order", ())),
        encoding=source.get("encoding"),
        encodings=MappingProxyType(dict(source.get("encodings", {}))),
        errors=source.get("errors", "auto"),
        heading_pattern=source.get("heading_pattern"),
        title_junk=tuple(source.get("title_junk", ())),
        normalize=MappingProxyType(normalize),
        sections=MappingProxyType(
            {name: MappingProxyType(dict(v)) if isinstance(v, dict) else v for name, v in formats.items()}
        ),
        output_name=output.get("name"),
        not_debris=tuple(data.get("check", {}).get("not_debris", ())),
    )


def _paths(config: Config, lone: Path | None, book: dict, source: dict, output: dict, at: Where) -> dict:
    """The source, the cover and build/, resolved inside the project (E006, E008)."""
    found = {"source": config.inside(source.get("dir", "source"), "source.dir") if lone is None else lone}
    if lone is not None and lone.is_dir():  # as without it: build/ beside the folder of chapters
        found["output_dir"] = lone.resolve().parent / "build"
    if "cover" in book:
        found["cover"] = config.inside(book["cover"], "book.cover")
    if "dir" in output:
        out = (config.root / output["dir"]).resolve()
        if not out.is_relative_to(config.root.resolve()):
            raise BookError(
                "E006", f"output.dir = {output['dir']!r} points outside the book project", at("dir")
            )
        found["output_dir"] = out
    return found


def _formats(output: dict, at: Where) -> dict:
    """[output] formats: names in the render registry, each once."""
    if "formats" not in output:
        return {}
    from bookbuilder.render import format_names  # the registry's names: no renderer is imported

    known = format_names()
    unknown = [f for f in output["formats"] if f not in known]
    if unknown or not output["formats"]:
        raise BookError(
            "E003",
            f"output.formats: {', '.join(map(repr, unknown)) or 'an empty list'} (known: {', '.join(known)})",
            at("formats"),
        )
    return {"formats": tuple(dict.fromkeys(output["formats"]))}


def _legado(config: Config, source: dict, normalize: dict, text: str, toml: Path) -> dict:
    """Legado rule files named in book.toml, loaded (an unusable one is E003 naming its key)."""
    from bookbuilder.normalize.legado import RuleError, load_replace_rules, load_toc_rules

    found = {}
    for key, table, loader, field_name in (
        ("toc_rules", source, load_toc_rules, "toc_rules"),
        ("replace_rules", normalize, load_replace_rules, "replace_rules"),
    ):
        if key in table:
            path = config.inside(table[key], key)
            try:
                found[field_name] = loader(path)
            except RuleError as e:
                raise BookError("E003", str(e), Location(str(toml), line_of(text, key))) from None
    return found


def _fixes(data: dict, text: str, toml: Path) -> dict:
    """[[fix]] entries, each told the line of its [[fix]] header."""
    if "fix" not in data:
        return {}
    from bookbuilder.structure.fixes import parse_fixes

    return {"fixes": parse_fixes(data["fix"], str(toml), _header_lines(text, "fix"))}


def _keeps(data: dict, text: str, toml: Path) -> dict:
    """[[keep]] entries, each told the line of its [[keep]] header."""
    if "keep" not in data:
        return {}
    from bookbuilder.normalize.by_hand import parse_keeps

    return {"keeps": parse_keeps(data["keep"], str(toml), _header_lines(text, "keep"))}


def _volumes(data: dict, text: str, toml: Path) -> dict:
    """[[volume]] entries, each told the line of its [[volume]] header."""
    if "volume" not in data:
        return {}
    from bookbuilder.structure.fixes import parse_volumes

    return {"file_volumes": parse_volumes(data["volume"], str(toml), _header_lines(text, "volume"))}


def _header_lines(text: str, kind: str):
    """The line of the i-th [[kind]] header of book.toml (1-based), None past the last."""
    starts = [m.start() for m in re.finditer(rf"^[ \t]*\[\[[ \t]*{kind}[ \t]*\]\]", text, re.M)]
    return lambda i: text.count("\n", 0, starts[i - 1]) + 1 if i <= len(starts) else None


def _check_patterns(config: Config, source: dict, at: Where) -> None:
    """[source] title_junk and heading_pattern: regular expressions Python compiles."""
    for rx in config.title_junk:
        try:
            re.compile(rx)
        except re.error as e:
            raise BookError(
                "E003", f"source.title_junk: {rx!r} is not a valid regular expression: {e}", at("title_junk")
            ) from None
    if heading := source.get("heading_pattern"):
        try:
            re.compile(heading)
        except re.error as e:
            raise BookError(
                "E003",
                f"source.heading_pattern is not a valid regular expression: {e}",
                at("heading_pattern"),
            ) from None
