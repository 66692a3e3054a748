"""What a shelf build remembers between builds (build/shelf-manifest.json), and what a book is made of.

A book's fingerprint is a hash of everything its files are made from: its input files (chapters,
settings, styles, cover, as `book_inputs` lists them), the shelf's defaults for it, the date stamped
into the files (SOURCE_DATE_EPOCH), bookbuilder's version and its built-in stylesheets. A book whose
fingerprint matches the manifest's, with its files still in build/, is not built again.

Each input's hash is kept with its size and modification time, so that an unchanged shelf is
planned from `stat` alone: a 10,000-book shelf is not read end to end to find that nothing changed."""

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
MANIFEST_FORMAT = 1
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


def input_hashes(shelf: Path, names: list[str], known: dict) -> dict[str, list]:
    """Each input's [size, mtime_ns, sha256]: taken from `known` (the manifest's) when size and
    mtime are unchanged, else read and hashed."""
    hashes = {}
    for name in names:
        stat = (shelf / name).stat()
        seen = known.get(name)
        if seen and seen[0] == stat.st_size and seen[1] == stat.st_mtime_ns:
            hashes[name] = seen
        else:
            digest = hashlib.sha256((shelf / name).read_bytes()).hexdigest()
            hashes[name] = [stat.st_size, stat.st_mtime_ns, digest]
    return hashes


def fingerprint(hashes: dict[str, list], defaults: dict, epoch: int) -> str:
    """One hash of what the book's files are made from (the module docstring lists it)."""
    made_of = hashlib.sha256()
    stated = {"bookbuilder": __version__, "defaults": defaults, "epoch": epoch, "format": MANIFEST_FORMAT}
    made_of.update(json.dumps(stated, sort_keys=True, ensure_ascii=False).encode())
    for css in sorted(STYLES.glob("*.css")):
        made_of.update(css.name.encode() + b"\0" + hashlib.sha256(css.read_bytes()).digest())
    for name, (_size, _mtime, digest) in sorted(hashes.items()):
        made_of.update(name.encode() + b"\0" + digest.encode() + b"\n")
    return made_of.hexdigest()


def read_manifest(build_dir: Path) -> dict[str, dict]:
    """The books the last builds left: name → {"fingerprint", "files", "inputs"}. A missing or
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
