"""The books on a shelf: what `bookbuilder build SHELF` and `serve SHELF` take as one book each.

A shelf is a folder; one level down, each of these is a book: a project (a folder with book.toml),
a bare folder of .txt chapter files (or of volume folders of them), and a whole-novel .txt file. A
`shelf.toml` at the top may list the books instead (`[shelf] books = ["a", "b.txt"]`, paths
relative to the shelf). The shelf's own build/ and hidden entries are never books.

Whether a folder is a shelf or one book is decided by what says so first (`read_folder`):
a shelf.toml (a shelf); its own book.toml, or its settings beside it (`<name>.book.toml`, which
the workbench writes): a book; a folder below it with a book.toml: a shelf, since a book's volume
folders never hold one. A folder no settings file speaks for is read by its contents: .txt files
alone are one book's chapters; folders of chapter files alone are a shelf's books, unless every
one is named as a volume (第一卷, 上部); .txt files beside such folders are books of their own when
one of them holds a novel (more than one chapter, as a book reads it), else the book's loose
chapters. Those readings are guesses, so each says in one line how it read the folder and which
file to write to say otherwise."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from bookbuilder.diagnostics import BookError
from bookbuilder.settings import CONFIG_NAME, sidecar_path

SHELF_CONFIG = "shelf.toml"
SHELF_BUILD = "build"
_NUMBER_PREFIX = re.compile(r"^[0-9]+[_\-.\s]+")  # 01_第一卷 潜龙: the order a folder's name leads with


@dataclass(frozen=True)
class ShelfBook:
    """One book of a shelf. `name` is its entry's name on the shelf (a whole novel's without .txt):
    stable while the entry is, so its build folder, manifest row and shard stay put."""

    name: str
    path: Path
    kind: str  # "project", "folder" or "file"


@dataclass(frozen=True)
class FolderReading:
    """A folder read as a shelf or as one book; `note`: how, where no settings file said so, and
    what to write to say otherwise (one line, which the command shows after the folder's path)."""

    shelf: bool
    note: str = ""


def is_shelf(path: Path) -> bool:
    return read_folder(path).shelf


def read_folder(path: Path) -> FolderReading:
    """A shelf or one book, by the rules of the module's docstring, in their order."""
    path = Path(path)
    if not path.is_dir():
        return FolderReading(False)
    if (path / SHELF_CONFIG).is_file():
        return FolderReading(True)
    if (path / CONFIG_NAME).is_file() or sidecar_path(path).is_file():
        return FolderReading(False)
    kinds = {entry: _kind(entry) for entry in sorted(path.iterdir())}
    if "project" in kinds.values():
        return FolderReading(True)
    folders = [e for e, kind in kinds.items() if kind == "folder"]
    loose = [e for e, kind in kinds.items() if kind == "file" and not _describes_a_book(e)]
    if not folders:
        return _loose_files(path, loose)
    if not loose:
        return _folders_alone(path, folders)
    return _files_beside_folders(path, loose, folders)


def _loose_files(path: Path, loose: list[Path]) -> FolderReading:
    """.txt files alone: one book's chapters; said where each holds a novel's chapters."""
    if len(loose) > 1 and all(map(_holds_a_novel, loose)):
        return FolderReading(
            False,
            f"read as one book of its {len(loose)} .txt files, each of several chapters;"
            f" if each is a novel of its own, write a {SHELF_CONFIG} there",
        )
    return FolderReading(False)


def _folders_alone(path: Path, folders: list[Path]) -> FolderReading:
    """Folders of chapter files alone: a shelf of them, unless each is named as a volume."""
    if all(_named_as_volume(f.name) for f in folders):
        return FolderReading(
            False,
            f"read as one book, its folders ({_some(folders)}) its volumes;"
            f" if each folder is a book of its own, write a {SHELF_CONFIG} there",
        )
    return FolderReading(
        True,
        f"read as a shelf of {len(folders)} books, a folder each ({_some(folders)});"
        f" if they are one book's volumes, write {sidecar_path(path).name} beside it",
    )


def _files_beside_folders(path: Path, loose: list[Path], folders: list[Path]) -> FolderReading:
    """.txt files beside folders of chapters: books of their own when one holds a novel."""
    novel = next((f for f in loose if _holds_a_novel(f)), None)
    if novel is None:
        return FolderReading(
            False,
            f"read as one book, its .txt files chapters and its folders ({_some(folders)})"
            f" volumes; if each is a book of its own, write a {SHELF_CONFIG} there",
        )
    return FolderReading(
        True,
        f"read as a shelf of {len(loose) + len(folders)} books ({novel.name} holds a novel"
        f" of its own beside the folders); if they are one book, write {sidecar_path(path).name} beside it",
    )


def _some(entries: list[Path]) -> str:
    names = [e.name for e in entries]
    return ", ".join(names[:2]) + (", …" if len(names) > 2 else "")


def _named_as_volume(name: str) -> bool:
    from bookbuilder.structure.headings import classify_heading

    heading = classify_heading(_NUMBER_PREFIX.sub("", name).strip() or name, 1)
    return heading is not None and heading.kind == "volume"


def _holds_a_novel(path: Path) -> bool:
    """A file the heading passes cut into more than one chapter: a novel, not one chapter of a
    folder's. Read as a book would read it, since novels head their chapters in many ways (第一回,
    一 青衫磊落, 1.科学边界)."""
    from bookbuilder.decode.text import decode_chapter
    from bookbuilder.structure.sections import split_sections

    try:
        text = decode_chapter(path.read_bytes(), str(path)).text
        cut = split_sections(text, str(path))[0]
    except (BookError, OSError):
        return False
    return sum(1 for section in cut if section.heading is not None and section.heading.kind == "chapter") > 1


def _describes_a_book(path: Path) -> bool:
    """简介.txt, 目录.txt: a folder book's blurb or contents, no chapter and no novel."""
    from bookbuilder.structure.contents_file import CONTENTS_FILES
    from bookbuilder.structure.meta import info_file_names

    name = path.name.lower()
    return name in info_file_names() or name in CONTENTS_FILES


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
        return "folder" if _holds_chapters(entry) else None
    return "file" if _is_txt(entry) else None


def _holds_chapters(folder: Path) -> bool:
    """.txt files in the folder, or in its volume folders one level down (as a bare book reads them)."""
    return any(
        _is_txt(p) or (p.is_dir() and not p.name.startswith(".") and any(map(_is_txt, p.iterdir())))
        for p in folder.iterdir()
    )


def _is_txt(path: Path) -> bool:
    return path.is_file() and path.suffix.lower() == ".txt"
