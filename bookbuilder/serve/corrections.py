"""The workbench's corrections as what a user would write into book.toml by hand:
[[fix]] tables (bookbuilder.structure.fixes), [[keep]] tables (bookbuilder.normalize.by_hand),
[[volume]] tables (bookbuilder.structure.file_volumes) and [normalize.junk] entries
(bookbuilder.normalize.junk).

The file is edited with tomlkit, which keeps the user's comments, order and layout: a correction
adds or removes one entry and leaves every other byte as it was. One [[fix]] per line: a second
correction of the same line changes its entry, so that book.toml reads as a person would write
it. A bare .txt or folder gets its settings file beside it (config.sidecar_path), created by the
first correction.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path

import tomlkit

from bookbuilder.normalize.junk import CLEANED
from bookbuilder.system.atomic import atomic_path

LITERAL_PREFIX = "literal-"  # the name of a pattern made by "remove this everywhere"
SHORTEST_LITERAL = 2  # characters: one character removed everywhere would eat the prose
ENTRY_TABLES = ("fix", "keep", "volume")  # the [[tables]] a correction adds an entry to


class Refused(Exception):
    """A correction that cannot be made as asked (the user's message)."""


@dataclass(frozen=True)
class Correction:
    """One entry in force: which list it is in, its place there, and how book.toml says it."""

    kind: str  # "fix" | "keep" | "disable" | "extra"
    index: int
    says: str


def read(path: Path) -> tomlkit.TOMLDocument:
    """The settings file as a document to edit (empty where there is none yet)."""
    return tomlkit.parse(path.read_text("utf-8")) if path.is_file() else tomlkit.document()


def dumps(doc: tomlkit.TOMLDocument) -> str:
    """The settings file's text as `write` writes it ("": no settings at all)."""
    text = tomlkit.dumps(doc)
    return text.rstrip("\n") + "\n" if text.strip() else ""  # a removed table leaves its blank lines behind


def write(path: Path, doc: tomlkit.TOMLDocument) -> None:
    """Put the edited file in place at once (a temporary file renamed): the watcher never reads half of it."""
    text = dumps(doc)
    with atomic_path(path) as tmp:
        tmp.write_text(text, "utf-8")


def write_bytes(path: Path, data: bytes) -> None:
    """Put back a file as it was, byte for byte (a correction that changed nothing taken back)."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def fix_at(source: Path, shown: str, line: int) -> str:
    """A line as a [[fix]] names it, "file:line" with the file relative to the book's source (what
    `bookbuilder toc` prints, and what fixes.Fix.matches finds wherever serve was started)."""
    return f"{fix_files(source, (shown,))[shown]}:{line}"


def fix_files(source: Path, shown) -> dict[str, str]:
    """Each of the files `shown` as a [[fix]] names it (fix_at's file, before its line), the
    source looked at once: a contents page names the lines of 2,000 files."""
    if source.is_file():
        return dict.fromkeys(shown, source.name)
    folder, cwd = Path(source), os.getcwd()
    return {path: _relative(folder, path, cwd) for path in shown}


@functools.lru_cache(maxsize=16384)
def _relative(source: Path, shown: str, cwd: str) -> str:
    """A file's name relative to the source folder, resolved once per file (and folder serve runs
    in): a contents page names the lines of 2,000 files, and two resolves each took it 1.5 s. The
    book's files are shown by relpath, on the path's text: one under the source's own path is named
    by the text as well, without resolving."""
    folder, path = os.path.normpath(os.path.join(cwd, source)), os.path.normpath(os.path.join(cwd, shown))
    if path.startswith(folder + os.sep):
        return Path(os.path.relpath(path, folder)).as_posix()
    path = Path(shown).resolve()
    try:
        return path.relative_to(source.resolve()).as_posix()
    except ValueError:
        return path.name


def add_fix(doc, at: str, **keys) -> str:
    """[[fix]] at = … with `keys` (as, rename), into the line's own entry if it has one."""
    entries = doc.get("fix")
    entry = next((e for e in entries or () if e.get("at") == at), None)
    if entry is None:
        entry = tomlkit.table()
        entry["at"] = at
        _append(doc, "fix", entry)
    for key, value in keys.items():
        entry[key] = value
    if keys.get("as") == "text":
        entry.pop("rename", None)  # not a heading: no title to rename
    return "[[fix]] " + _says(entry)


def add_volume(doc, before: str, title: str) -> str:
    """[[volume]] before = …, title = …: a volume starts before that file (its own entry, retitled,
    if it has one)."""
    entry = next((e for e in doc.get("volume") or () if e.get("before") == before), None)
    if entry is None:
        entry = tomlkit.table()
        entry["before"] = before
        _append(doc, "volume", entry)
    elif entry.get("title") == title:
        raise Refused(f"a volume titled {title!r} starts before {before} already")
    entry["title"] = title
    return "[[volume]] " + _says(entry)


def add_keep(doc, at: str, text: str) -> str:
    """[[keep]] at = …, text = …: the one removal at that line comes back, its rule stays on."""
    entries = doc.get("keep")
    if any(e.get("at") == at and e.get("text") == text for e in entries or ()):
        raise Refused(f"{text!r} at {at} is kept already")
    entry = tomlkit.table()
    entry["at"], entry["text"] = at, text
    _append(doc, "keep", entry)
    return "[[keep]] " + _says(entry)


def _append(doc, kind: str, entry) -> None:
    """One more [[kind]] table, after the others (the first makes the array of tables)."""
    entries = doc.get(kind)
    if entries is None:
        entries = tomlkit.aot()
        entries.append(entry)
        doc.append(kind, entries)
    else:
        entries.append(entry)


def add_not_debris(doc, text: str) -> str:
    """[check] not_debris = [… text]: the self-check stops flagging this text (and its template)."""
    check = doc.get("check")
    if check is None:
        check = tomlkit.table()
        doc.append("check", check)
    if "not_debris" not in check:
        check["not_debris"] = tomlkit.array()
    if text in check["not_debris"]:
        raise Refused(f"{text!r} is the story's already")
    check["not_debris"].append(text)
    return f"[check] not_debris = [… {_says_value(text)}]"


def keep(doc, rule: str, builtin: set[str]) -> str:
    """Keep what `rule` removed: the pattern "remove this everywhere" (or the user) added goes, a
    pattern the user switched on is switched off again, a built-in one is disabled. Every line
    the pattern removed comes back, not this one only: patterns are switched by name."""
    junk = _junk(doc, create=False)
    extra = junk.get("extra") if junk is not None else None
    for i, spec in enumerate(extra or ()):
        name = spec.get("name", f"extra-{i + 1}") if isinstance(spec, dict) else f"extra-{i + 1}"
        if name == rule:
            return undo(doc, "extra", i, _says_value(spec))
    enabled = junk.get("enable") if junk is not None else None
    if enabled is not None and rule in enabled:
        enabled.remove(rule)
        _prune(doc)
        return f"[normalize.junk] enable: {rule} taken out"
    if rule not in builtin:
        raise Refused(
            f"{rule!r} is not a [normalize.junk] pattern, so it cannot be switched off by name "
            "([normalize] junk = false switches all advert cleaning off)"
        )
    junk = _junk(doc, create=True)
    if "disable" not in junk:
        junk["disable"] = tomlkit.array()
    if rule not in junk["disable"]:
        junk["disable"].append(rule)
    return f'[normalize.junk] disable = [… "{rule}"]'


def removal_pattern(literal: str | None = None, regex: str | None = None) -> str:
    """The regex of what "remove everywhere" is asked to remove: selected text (`literal`), or a
    pattern (a suspect group's shape); refused where it would take the prose."""
    if regex is None:
        literal = (literal or "").strip()
        if "\n" in literal:
            raise Refused("select text within one paragraph")
        if len(literal) < SHORTEST_LITERAL:
            raise Refused(
                f"select at least {SHORTEST_LITERAL} characters: shorter text is everywhere in the prose"
            )
        return re.escape(literal)
    try:
        matches_nothing = re.compile(regex).fullmatch("") is not None
    except re.error as e:
        raise Refused(f"{regex!r} is not a regular expression: {e}") from None
    if matches_nothing:
        raise Refused(f"{regex!r} matches empty text: it would take every paragraph")
    return regex


def remove_everywhere(doc, regex: str, kind: str = "inline") -> tuple[str, str]:
    """A [normalize.junk] extra pattern matched on the text as the book reads after cleaning (on =
    "cleaned": selected text is found as it was selected, whatever the source's commas and
    spaces): kind inline cuts each match out of its paragraph (a paragraph left without a word
    goes), kind line takes a paragraph it matches whole. (what book.toml now says, its name)."""
    if kind not in ("inline", "line"):
        raise Refused(f"kind = {kind!r}: inline or line")
    junk = _junk(doc, create=True)
    if "extra" not in junk:
        junk["extra"] = tomlkit.array()
        junk["extra"].multiline(True)
    extra = junk["extra"]
    if any(
        isinstance(spec, dict) and spec.get("regex") == regex and spec.get("on") == CLEANED for spec in extra
    ):
        raise Refused(f"{regex!r} is already removed everywhere")
    taken = {spec.get("name") for spec in extra if isinstance(spec, dict)}
    n = next(n for n in range(1, len(extra) + 2) if f"{LITERAL_PREFIX}{n}" not in taken)
    spec = tomlkit.inline_table()
    spec.update({"regex": regex, "kind": kind, "name": f"{LITERAL_PREFIX}{n}", "on": CLEANED})
    extra.append(spec)
    return "[normalize.junk] extra " + _says_value(spec), f"{LITERAL_PREFIX}{n}"


def in_force(doc) -> list[Correction]:
    """Every [[fix]], [[keep]], [[volume]], [normalize.junk] disable and extra entry, in book.toml's order."""
    found = [
        Correction(kind, i, _says(entry))
        for kind in ENTRY_TABLES
        for i, entry in enumerate(doc.get(kind) or ())
    ]
    junk = _junk(doc, create=False)
    if junk is not None:
        for kind in ("disable", "extra"):
            found += [Correction(kind, i, _says_value(v)) for i, v in enumerate(junk.get(kind) or ())]
    check = doc.get("check")
    found += [
        Correction("not_debris", i, _says_value(v))
        for i, v in enumerate((check or {}).get("not_debris") or ())
    ]
    return found


def undo(doc, kind: str, index: int, says: str) -> str:
    """Take out one entry, the one the page showed (`says`): an entry edited or moved since is
    left alone, with a message."""
    shown = next((c for c in in_force(doc) if (c.kind, c.index) == (kind, index)), None)
    if shown is None or shown.says != says:
        raise Refused(f"{says} is no longer in the settings file (it was edited meanwhile): reload the page")
    container = (
        doc[kind]
        if kind in ENTRY_TABLES
        else doc["check"][kind]
        if kind == "not_debris"
        else _junk(doc, create=False)[kind]
    )
    del container[index]
    _prune(doc)
    return f"undone: {table_of(kind)} {says}"


def table_of(kind: str) -> str:
    """Where an entry of this kind is written in book.toml, as a person reads it."""
    return (
        f"[[{kind}]]"
        if kind in ENTRY_TABLES
        else "[check] not_debris"
        if kind == "not_debris"
        else f"[normalize.junk] {kind}"
    )


def _junk(doc, create: bool):
    """[normalize.junk] as a table to edit; None where there is none and `create` is false."""
    normalize = doc.get("normalize")
    if normalize is None:
        if not create:
            return None
        normalize = tomlkit.table()
        doc.append("normalize", normalize)
    junk = normalize.get("junk")
    if isinstance(junk, bool):
        if not create:
            return None
        if not junk:
            raise Refused(
                "[normalize] junk = false switches advert cleaning off: there is no pattern to change"
            )
        del normalize["junk"]  # junk = true: a [normalize.junk] table keeps it on too
        junk = None
    if junk is None:
        if not create:
            return None
        normalize.append("junk", tomlkit.table())
        junk = normalize["junk"]
    return junk


def _prune(doc) -> None:
    """Lists and tables emptied by an undo go, so that book.toml reads as it did before."""
    for kind in ENTRY_TABLES:
        if kind in doc and not doc[kind]:
            del doc[kind]
    normalize = doc.get("normalize")
    junk = normalize.get("junk") if normalize is not None else None
    if isinstance(junk, dict):
        for key in [k for k in ("disable", "enable", "extra") if k in junk and not junk[k]]:
            del junk[key]
        if not junk:
            del normalize["junk"]
    if normalize is not None and not normalize:
        del doc["normalize"]
    check = doc.get("check")
    if check is not None and "not_debris" in check and not check["not_debris"]:
        del check["not_debris"]
    if check is not None and not check:
        del doc["check"]


def _says(entry) -> str:
    return ", ".join(f"{key} = {_says_value(value)}" for key, value in entry.items())


def _says_value(value) -> str:
    """A value as book.toml writes it (one line)."""
    if isinstance(value, dict):
        return "{" + _says(value) + "}"
    return tomlkit.item(value).as_string().strip()


def shown(path: Path) -> str:
    """A path as messages show it: relative to the current folder when it can be."""
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return str(path)


def where_created(path: Path, book: Path) -> str:
    """What the first correction of a bare .txt or folder says about the file it made."""
    return (
        f"created {shown(path)}: the settings of {Path(book).name}, which `bookbuilder "
        f"epub {shown(book)}` reads too"
    )
