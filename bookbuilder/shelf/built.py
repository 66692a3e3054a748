"""What a shelf's build/ holds, read from the built files alone: each book's folder (build/<name>/),
its files in the formats the renderers declare a media type for, and what its EPUB's package
document (OPF) says: title, author, language, blurb, when it was made, its cover.

Nothing here reads a book's sources: a CI job that gathers the shards' artifacts into one build/
has only these files, and writes the catalogue from them. A book is dated by when its inputs last
changed, as the shelf build's manifest in build/ keeps it (`manifest.changed_dates`); a book it has
no date for, by its EPUB's dcterms:modified.
"""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from bookbuilder.render import format_names, renderer
from bookbuilder.render.names import ascii_stem
from bookbuilder.shelf.manifest import changed_dates

OPF = "http://www.idpf.org/2007/opf"
DCE = "http://purl.org/dc/elements/1.1/"
CONTAINER = "urn:oasis:names:tc:opendocument:xmlns:container"
# The catalogue's own folder in build/ (covers, the feeds below the root one): a name no book has,
# since a book's folder is named as its entry on the shelf, a folder or a .txt file's stem.
CATALOG_FOLDER = "catalog.opds"


@dataclass(frozen=True)
class BuiltFile:
    path: Path
    media_type: str
    label: str  # what the file is for (the renderer's shelf_label)
    size: int
    suffix: str  # the renderer's (kepub.epub)


@dataclass(frozen=True)
class BuiltBook:
    name: str  # its folder in build/
    identifier: str
    title: str
    author: str
    language: str
    description: str
    modified: str  # RFC 3339, UTC: when its inputs last changed, else its EPUB's dcterms:modified
    files: tuple[BuiltFile, ...]
    cover: tuple[bytes, str] | None  # (image, media type) from the EPUB
    note: str | None = None  # why the EPUB could not be read (the book is listed by its name)
    cover_at: tuple[Path, str] | None = None  # (the EPUB, the cover's name in it): read again later


def built_books(build_dir: Path) -> list[BuiltBook]:
    """Every folder of build/ holding a file of a known format, by title (as pinyin) then name."""
    books = []
    dates = changed_dates(Path(build_dir))
    for folder in sorted(Path(build_dir).iterdir()):
        if not folder.is_dir() or folder.name.startswith(".") or folder.name == CATALOG_FOLDER:
            continue
        files = _files(folder)
        if files:
            book = _read(folder, files)
            books.append(replace(book, modified=dates.get(book.name, book.modified)))
    return sorted(books, key=lambda b: (by_sound(b.title), b.title, b.name))


def _files(folder: Path) -> tuple[BuiltFile, ...]:
    """The folder's files of known formats (longest suffix first: a .kepub.epub is no .epub)."""
    suffixes = sorted(
        ((r.suffix, r) for r in map(renderer, format_names()) if getattr(r, "media_type", None)),
        key=lambda pair: -len(pair[0]),
    )
    found = []
    for path in sorted(folder.iterdir()):
        chosen = next((r for s, r in suffixes if path.name.endswith(f".{s}")), None)
        if chosen is not None and path.is_file() and not path.name.startswith("."):
            found.append(
                BuiltFile(path, chosen.media_type, chosen.shelf_label, path.stat().st_size, chosen.suffix)
            )
    return tuple(found)


def _read(folder: Path, files: tuple[BuiltFile, ...]) -> BuiltBook:
    """The book as its EPUB describes it; where there is none, or it cannot be read, its name."""
    epubs = [f.path for f in files if f.media_type == "application/epub+zip"]
    epubs += [f.path for f in files if f.path.name.endswith(".epub") and f.path not in epubs]
    newest = max(f.path.stat().st_mtime for f in files)
    fallback = BuiltBook(
        folder.name,
        f"urn:bookbuilder:shelf:{folder.name}",
        folder.name,
        "",
        "",
        "",
        datetime.fromtimestamp(int(newest), UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        files,
        None,
    )
    if not epubs:
        return fallback
    try:
        return _from_opf(epubs[0], fallback)
    except (zipfile.BadZipFile, KeyError, ET.ParseError, OSError, ValueError) as err:
        return BuiltBook(**{**fallback.__dict__, "note": f"{epubs[0]}: cannot read its metadata: {err}"})


def _from_opf(epub: Path, fallback: BuiltBook) -> BuiltBook:
    with zipfile.ZipFile(epub) as archive:
        container = ET.fromstring(archive.read("META-INF/container.xml"))
        rootfile = container.find(f".//{{{CONTAINER}}}rootfile")
        if rootfile is None or not rootfile.get("full-path"):
            raise ValueError("META-INF/container.xml names no package document")
        opf_path = rootfile.get("full-path")
        package = ET.fromstring(archive.read(opf_path))
        metadata = package.find(f"{{{OPF}}}metadata")
        if metadata is None:
            raise ValueError(f"{opf_path} has no metadata")
        cover_href, cover_type = _cover_item(package, metadata)
        cover = cover_at = None
        if cover_href is not None:
            cover_at = (epub, posixpath.join(posixpath.dirname(opf_path), cover_href))
            cover = (archive.read(cover_at[1]), cover_type)

    def dc(name: str) -> str:
        return " ".join((metadata.findtext(f"{{{DCE}}}{name}") or "").split())

    modified = next(
        (
            m.text.strip()
            for m in metadata.findall(f"{{{OPF}}}meta")
            if m.get("property") == "dcterms:modified"
        ),
        fallback.modified,
    )
    authors = [" ".join((c.text or "").split()) for c in metadata.findall(f"{{{DCE}}}creator")]
    return BuiltBook(
        fallback.name,
        dc("identifier") or fallback.identifier,
        dc("title") or fallback.title,
        "、".join(a for a in authors if a),
        dc("language"),
        (metadata.findtext(f"{{{DCE}}}description") or "").strip(),
        modified,
        fallback.files,
        cover,
        cover_at=cover_at,
    )


def _cover_item(package: ET.Element, metadata: ET.Element) -> tuple[str | None, str]:
    """The cover image's href and media type: EPUB 3's cover-image item, else EPUB 2's meta."""
    items = package.findall(f"{{{OPF}}}manifest/{{{OPF}}}item")
    named = next(
        (m.get("content") for m in metadata.findall(f"{{{OPF}}}meta") if m.get("name") == "cover"), None
    )
    for item in items:
        if "cover-image" in (item.get("properties") or "").split():
            return item.get("href"), item.get("media-type", "image/jpeg")
    for item in items:
        if named is not None and item.get("id") == named:
            return item.get("href"), item.get("media-type", "image/jpeg")
    return None, ""


def by_sound(name: str) -> str:
    """A title's or author's sort key: Chinese as pinyin (仙逆 xian-ni among the x's, where a reader
    looks for it; code points scatter the characters), other letters as they are, case ignored."""
    return ascii_stem(name).lower() or name


def read_cover(cover_at: tuple[Path, str]) -> bytes:
    """A cover read again from its EPUB (OSError, KeyError or BadZipFile when the file changed)."""
    with zipfile.ZipFile(cover_at[0]) as archive:
        return archive.read(cover_at[1])
