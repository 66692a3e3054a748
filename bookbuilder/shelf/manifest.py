"""What a shelf build remembers between builds (build/shelf-manifest.json), and what a book is made of.

A book's fingerprint is a hash of everything its files are made from: its input files (chapters,
settings, styles, cover, as `book_inputs` lists them), the shelf's defaults for it, the date stamped
into the files (SOURCE_DATE_EPOCH), bookbuilder's version and its built-in stylesheets. A book whose
fingerprint matches the manifest's, with its files still in build/, is not built again.

A book's row also keeps a hash of its inputs' names, sizes and modification times, with what the
fingerprint states beside them (one per book, not one per file: the manifest stays small), so
that an unchanged shelf is planned from `stat` alone: a 10,000-book shelf is not read end to end to
find that nothing changed. Where the times changed (a fresh checkout), the contents are read and
hashed, and a book whose contents did not change is still not built.

A row dates its book too: `inputs`, a hash of the book's own files, and `changed`, when those were
first seen as they are (`changed_at` says how it is told, reproducibly): the catalogue's "recently
changed" feed and its index page date a book by it, so a rebuild of unchanged books leaves them as
they were."""

from __future__ import annotations

import hashlib
import json
import os
from datetime import UTC, datetime
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


def stat_signature(shelf: Path, names: list[str], defaults: dict, epoch: int) -> str:
    """A hash of the inputs' names, sizes and modification times, and of what the fingerprint
    states beside them (bookbuilder's version, the shelf's defaults, SOURCE_DATE_EPOCH): while it
    is the manifest's, the book is unchanged without a byte of it read; a new epoch builds it again,
    as a clean build would stamp it."""
    signed = hashlib.sha256(_stated(defaults, epoch))
    for name in names:
        stat = (shelf / name).stat()
        signed.update(f"{name}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return signed.hexdigest()


def _stated(defaults: dict, epoch: int) -> bytes:
    stated = {"bookbuilder": __version__, "defaults": defaults, "epoch": epoch, "format": MANIFEST_FORMAT}
    return json.dumps(stated, sort_keys=True, ensure_ascii=False).encode()


def content_digests(shelf: Path, names: list[str]) -> list[bytes]:
    """Each input's SHA-256, read once for both hashes below."""
    return [hashlib.sha256((shelf / name).read_bytes()).digest() for name in names]


def fingerprint(names: list[str], digests: list[bytes], defaults: dict, epoch: int) -> str:
    """One hash of what the book's files are made from (the module docstring lists it): its
    inputs' contents read, so that a fresh checkout (every time new) of the same files matches."""
    made_of = hashlib.sha256(_stated(defaults, epoch))
    for css in sorted(STYLES.glob("*.css")):
        made_of.update(css.name.encode() + b"\0" + hashlib.sha256(css.read_bytes()).digest())
    for name, digest in zip(names, digests, strict=True):
        made_of.update(name.encode() + b"\0" + digest)
    return made_of.hexdigest()


def inputs_hash(names: list[str], digests: list[bytes]) -> str:
    """A hash of the book's own files alone, names and contents: what moves its date (`changed`).
    A new bookbuilder or a new SOURCE_DATE_EPOCH builds the book again, but its story did not change."""
    hashed = hashlib.sha256()
    for name, digest in zip(names, digests, strict=True):
        hashed.update(name.encode() + b"\0" + digest)
    return hashed.hexdigest()


def changed_at(shelf: Path, names: list[str], row: dict, inputs: str) -> int:
    """When the book's inputs last changed, in seconds since 1970: the row's date while its inputs
    hash is the row's; else, as they are first seen so, their newest modification time, never
    later than SOURCE_DATE_EPOCH where it is set. Hashes, not times, decide that they changed, so a
    touch or a fresh checkout moves no date; a time, not the clock, dates them, so a first build of
    a library dates each book by when its files were written; the clamp keeps a build under
    SOURCE_DATE_EPOCH (a CI's commit time) the same bytes however its checkout stamped the files."""
    if row.get("inputs") == inputs and isinstance(row.get("changed"), int):
        return row["changed"]
    newest = max((int((shelf / name).stat().st_mtime) for name in names), default=0)
    stated = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    return min(newest, int(stated)) if stated.isdigit() else newest


def changed_dates(build_dir: Path) -> dict[str, str]:
    """Each book's `changed` as RFC 3339 (UTC), from the manifest in build/: what the catalogue
    dates a book by. Books of no row (a manifest from before, or none) are not in it."""
    return {
        name: datetime.fromtimestamp(row["changed"], UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        for name, row in read_manifest(build_dir).items()
        if isinstance(row, dict) and isinstance(row.get("changed"), int)
    }


def read_manifest(build_dir: Path) -> dict[str, dict]:
    """The books the last builds left: name → {"fingerprint", "stat", "files", "inputs", "changed"}.
    A missing or unreadable manifest (another version's, a hand edit) is an empty one: every book
    is built."""
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
