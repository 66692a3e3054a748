"""What a shelf build remembers between builds (build/shelf-manifest.json), and what a book is made of.

A book's fingerprint is a hash of everything its files are made from: its input files (chapters,
settings, styles, cover, as `book_inputs` lists them), the shelf's defaults for it, the date stamped
into the files (SOURCE_DATE_EPOCH), bookbuilder's version and its built-in stylesheets. A book whose
fingerprint matches the manifest's, with its files still in build/, is not built again.

A book's row also keeps a hash of its inputs' names, sizes and modification times (one per book,
not one per file: the manifest stays small), so that an unchanged shelf is planned from `stat`
alone: a 10,000-book shelf is not read end to end to find that nothing changed. Where the times
changed (a fresh checkout), the contents are read and hashed, and a book whose contents did not
change is still not built."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from bookbuilder import __version__
from bookbuilder.settings import SIDECAR_SUFFIX
from bookbuilder.shelf.books import SHELF_BUILD, ShelfBook
from bookbuilder.system.atomic import atomic_path

MANIFEST_NAME = "shelf-manifest.json"
MANIFEST_FORMAT = 2
STYLES = Path(__file__).resolve().parent.parent / "styles"


def book_inputs(shelf: Path, book: ShelfBook) -> list[str]:
    """The files a book is built from, as paths relative to the shelf (posix), sorted: a project's
    whole folder but its build/ and hidden entries; a bare folder's files and a whole novel, each
    with its sidecar settings (<name>.book.toml beside it) when there is one."""
    entry = book.path
    if book.kind == "file":
        found = [entry, entry.with_name(entry.stem + SIDECAR_SUFFIX)]
    else:
        found = [p for p in _files_under(entry, skip_build=book.kind == "project")]
        if book.kind == "folder":
            found.append(entry.with_name(entry.name + SIDECAR_SUFFIX))
    return sorted(p.relative_to(shelf).as_posix() for p in found if p.is_file())


def _files_under(folder: Path, skip_build: bool):
    for dirpath, dirnames, filenames in os.walk(folder):
        top = Path(dirpath) == folder
        dirnames[:] = sorted(
            d for d in dirnames if not d.startswith(".") and not (top and skip_build and d == SHELF_BUILD)
        )
        yield from (Path(dirpath) / name for name in sorted(filenames) if not name.startswith("."))


def stat_signature(shelf: Path, names: list[str]) -> str:
    """A hash of the inputs' names, sizes and modification times: while it is the manifest's, the
    book is unchanged without a byte of it read."""
    signed = hashlib.sha256()
    for name in names:
        stat = (shelf / name).stat()
        signed.update(f"{name}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return signed.hexdigest()


def fingerprint(shelf: Path, names: list[str], defaults: dict, epoch: int) -> str:
    """One hash of what the book's files are made from (the module docstring lists it): its
    inputs' contents read, so that a fresh checkout (every time new) of the same files matches."""
    made_of = hashlib.sha256()
    stated = {"bookbuilder": __version__, "defaults": defaults, "epoch": epoch, "format": MANIFEST_FORMAT}
    made_of.update(json.dumps(stated, sort_keys=True, ensure_ascii=False).encode())
    for css in sorted(STYLES.glob("*.css")):
        made_of.update(css.name.encode() + b"\0" + hashlib.sha256(css.read_bytes()).digest())
    for name in names:
        made_of.update(name.encode() + b"\0" + hashlib.sha256((shelf / name).read_bytes()).digest())
    return made_of.hexdigest()


def read_manifest(build_dir: Path) -> dict[str, dict]:
    """The books the last builds left: name → {"fingerprint", "stat", "files"}. A missing or
    unreadable manifest (another version's, a hand edit) is an empty one: every book is built."""
    try:
        data = json.loads((build_dir / MANIFEST_NAME).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
        return {}
    books = data.get("books")
    return books if isinstance(books, dict) else {}


def write_manifest(build_dir: Path, books: dict[str, dict]) -> None:
    data = {"format": MANIFEST_FORMAT, "bookbuilder": __version__, "books": dict(sorted(books.items()))}
    with atomic_path(build_dir / MANIFEST_NAME) as tmp:
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", "utf-8")


def parse_shard(text: str) -> tuple[int, int]:
    """`K/N` → (K, N), 1 ≤ K ≤ N; ValueError naming what is wrong."""
    k, sep, n = text.partition("/")
    if not sep or not k.strip().isdigit() or not n.strip().isdigit():
        raise ValueError(f"{text!r} is not K/N (e.g. 2/8)")
    shard = int(k), int(n)
    if not 1 <= shard[0] <= shard[1]:
        raise ValueError(f"{text!r}: K must be between 1 and N")
    return shard


def in_shard(name: str, shard: tuple[int, int] | None) -> bool:
    """Whether the book named `name` is in shard K of N: by a hash of the name alone, so a book
    added or removed moves no other book to another shard."""
    if shard is None:
        return True
    k, n = shard
    return int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "big") % n == k - 1
