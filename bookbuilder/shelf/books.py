"""The books on a shelf: what `bookbuilder build SHELF` and `serve SHELF` take as one book each.

A shelf is a folder; one level down, each of these is a book: a project (a folder with book.toml),
a bare folder of .txt chapter files, and a whole-novel .txt file. A `shelf.toml` at the top may list
the books instead (`[shelf] books = ["a", "b.txt"]`, paths relative to the shelf). The shelf's own
build/ and hidden entries are never books."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from bookbuilder.diagnostics import BookError
from bookbuilder.settings import CONFIG_NAME

SHELF_CONFIG = "shelf.toml"
SHELF_BUILD = "build"


@dataclass(frozen=True)
class ShelfBook:
    """One book of a shelf. `name` is its entry's name on the shelf (a whole novel's without .txt):
    stable while the entry is, so its build folder, manifest row and shard stay put."""

    name: str
    path: Path
    kind: str  # "project", "folder" or "file"


def is_shelf(path: Path) -> bool:
    """A folder that is not a book itself but holds books: a shelf.toml, or no book.toml and no
    .txt at its top but a book folder one level down. (.txt files at the top read as a bare folder
    book's chapters: a shelf of whole-novel files says it is one with a shelf.toml.)"""
    path = Path(path)
    if not path.is_dir():
        return False
    if (path / SHELF_CONFIG).is_file():
        return True
    if (path / CONFIG_NAME).is_file() or any(_is_txt(p) for p in path.iterdir()):
        return False
    return any(_kind(p) == "project" or _kind(p) == "folder" for p in path.iterdir())


def find_books(shelf: Path) -> list[ShelfBook]:
    """The shelf's books, sorted by name (the order every listing and summary uses)."""
    shelf = Path(shelf)
    listed = _listed(shelf)
    entries = listed if listed is not None else sorted(shelf.iterdir())
    books = []
    for entry in entries:
        kind = _kind(entry)
        if kind is None:
            if listed is not None:
                raise BookError("E011", f"{entry.name} is not a book", str(shelf / SHELF_CONFIG))
            continue
        books.append(ShelfBook(entry.stem if kind == "file" else entry.name, entry, kind))
    return sorted(books, key=lambda b: b.name)


def shelf_settings(shelf: Path) -> dict:
    """shelf.toml's tables as read (an empty dict when there is none)."""
    toml = Path(shelf) / SHELF_CONFIG
    if not toml.is_file():
        return {}
    try:
        return tomllib.loads(toml.read_text("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise BookError("E011", f"cannot read shelf.toml: {err}", str(toml)) from None


def _listed(shelf: Path) -> list[Path] | None:
    names = shelf_settings(shelf).get("shelf", {}).get("books")
    return None if names is None else [shelf / str(name) for name in names]


def _kind(entry: Path) -> str | None:
    if entry.name.startswith(".") or entry.name == SHELF_BUILD:
        return None
    if entry.is_dir():
        if (entry / CONFIG_NAME).is_file():
            return "project"
        return "folder" if any(_is_txt(p) for p in entry.iterdir()) else None
    return "file" if _is_txt(entry) else None


def _is_txt(path: Path) -> bool:
    return path.is_file() and path.suffix.lower() == ".txt"
