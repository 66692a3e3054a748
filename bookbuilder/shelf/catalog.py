"""A shelf's catalogue, made from build/'s files alone (bookbuilder.shelf.built): an OPDS 1.2 catalogue
for reading apps and a page for a phone's browser, both with links relative to build/, so that the
folder works as it is from any static host as well as from `bookbuilder serve SHELF`.

    build/catalog.opds.xml               navigation: by title, by author, recently changed
    build/catalog.opds/by-title.xml      acquisition feed, every book by title (by-title-2.xml…: pages)
    build/catalog.opds/recent.xml        acquisition feed, newest first (OPDS sort/new)
    build/catalog.opds/authors.xml       navigation, an entry per author
    build/catalog.opds/author-<id>.xml   acquisition feed, one author's books (<id>: a hash of the name)
    build/catalog.opds/covers/           each book's cover (from its EPUB) and a thumbnail
    build/index.html                     covers, titles, authors and a link per file

The same built files give the same bytes: every date is the books' own, never the clock's (when
its inputs last changed, as the shelf build's manifest keeps it; else its EPUB's dcterms:modified,
which SOURCE_DATE_EPOCH sets), so a rebuild of unchanged books leaves every file as it was.
"""

from __future__ import annotations

import hashlib
import io
import os
import urllib.parse
import uuid
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from bookbuilder.diagnostics import BookError
from bookbuilder.shelf.built import CATALOG_FOLDER, BuiltBook, built_books, by_sound
from bookbuilder.shelf.index_page import index_html
from bookbuilder.shelf.opds import (
    ACQUISITION,
    ACQUISITION_FEED,
    IMAGE,
    NAVIGATION_FEED,
    OPENSEARCH,
    SORT_NEW,
    SUBSECTION,
    THUMBNAIL,
    Entry,
    Feed,
    Link,
    feed_bytes,
)
from bookbuilder.system.atomic import atomic_path

ROOT_FEED = "catalog.opds.xml"
INDEX = "index.html"
BY_TITLE, RECENT, AUTHORS = (f"{CATALOG_FOLDER}/{n}.xml" for n in ("by-title", "recent", "authors"))
RECENT_COUNT = 100  # books in "recently changed": what a reading app shows on a screen or two
PAGE_SIZE = 100  # books in a page of a feed (calibre's content server sends 25 to 100)
THUMBNAIL_BOX = (240, 360)  # pixels: twice a phone's thumbnail at 2x, a few kB a book
EXTENSIONS = {"image/jpeg": "jpg", "image/png": "png", "image/gif": "gif", "image/webp": "webp"}
UNKNOWN_AUTHOR = "佚名"


@dataclass(frozen=True)
class Catalog:
    books: list[BuiltBook]
    files: dict[str, bytes]  # path relative to build/ → bytes
    elsewhere: dict[str, tuple[Path, str]]  # covers left in their EPUB (see make_catalog's `lean`)
    covers: dict[str, tuple[str, str, str]]  # name → its (cover, thumbnail) relative to build/, cover type


def make_catalog(
    build_dir: Path,
    search: tuple[str, str] | None = None,
    missing_ok: bool = False,
    workbench: tuple | None = None,
    lean: bool = False,
) -> Catalog:
    """The catalogue of build/'s books, in memory. For a server: `search`, (the OpenSearch
    description's path, the search's own with {searchTerms}), relative to build/, that the feeds
    link; `workbench`, (the path the books' pages are under, the names of the books that have them)
    for index.html; `lean`, the covers left in their EPUBs (`elsewhere`: a server holding the
    catalogue of thousands of books keeps their thumbnails, not 100 kB a book). `missing_ok`: no
    build/ is a shelf with nothing built yet (serve), not an error (catalog)."""
    build_dir = Path(build_dir)
    if not build_dir.is_dir() and not missing_ok:
        raise BookError(
            "E004", "no build folder: build the shelf first (bookbuilder build SHELF)", str(build_dir)
        )
    books = built_books(build_dir) if build_dir.is_dir() else []
    files, covers = _cover_files(books)
    shelf = build_dir.resolve().parent.name
    feeds = CatalogFeeds(books, covers, shelf, search)
    files |= feeds.all()
    links = {name: (href(cover), href(small)) for name, (cover, small, _) in covers.items()}
    pages = {}
    if workbench is not None:
        pages = {b.name: href(f"{workbench[0]}{b.name}") + "/" for b in books if b.name in workbench[1]}
    rows = {b.name: hrefs(b, "") for b in books}
    files[INDEX] = index_html(shelf, books, links, rows, ROOT_FEED, pages)
    elsewhere = {}
    if lean:
        elsewhere = {covers[b.name][0]: b.cover_at for b in books if b.cover_at and b.name in covers}
        files = {path: data for path, data in files.items() if path not in elsewhere}
        books = [replace(b, cover=None) for b in books]
    return Catalog(books, dict(sorted(files.items())), elsewhere=elsewhere, covers=covers)


def write_catalog(build_dir: Path) -> Catalog:
    """Write the catalogue into build/ (each file atomically), and take away the catalogue's files
    of books that are gone."""
    catalog = make_catalog(build_dir)
    build_dir = Path(build_dir)
    for relative, data in catalog.files.items():
        target = build_dir / relative
        if target.is_file() and target.read_bytes() == data:
            continue  # unchanged: its date stays, and a static host's cache with it
        with atomic_path(target) as tmp:
            tmp.write_bytes(data)
    own = build_dir / CATALOG_FOLDER
    for folder, _, names in os.walk(own):
        for name in names:
            path = Path(folder) / name
            if path.relative_to(build_dir).as_posix() not in catalog.files and not name.endswith(".part"):
                path.unlink()
    return catalog


def href(path: str) -> str:
    """A path relative to build/ as a link: each segment percent-encoded (names are any text)."""
    return "/".join(urllib.parse.quote(part) for part in path.split("/"))


def hrefs(book: BuiltBook, up: str) -> list[tuple[str, str, str, int]]:
    """(link, media type, label, size) of each of a book's files, from a document `up` below build/."""
    return [(up + href(f"{book.name}/{f.path.name}"), f.media_type, f.label, f.size) for f in book.files]


class CatalogFeeds:
    """The OPDS feeds of a list of books; `up` is "../" for a feed in catalog.opds/, "" at build/'s top."""

    def __init__(
        self, books: list[BuiltBook], covers: dict, shelf: str, search: tuple[str, str] | None = None
    ):
        self.books, self.covers, self.shelf, self.search = books, covers, shelf, search
        self.updated = max((b.modified for b in books), default=_epoch_date())

    def all(self) -> dict[str, bytes]:
        by_author = self.by_author()
        found = {
            ROOT_FEED: self.root(),
            **self.paged(BY_TITLE, "By title", self.books),
            RECENT: self.acquisition(
                RECENT,
                "Recently changed",
                sorted(self.books, key=lambda b: b.modified, reverse=True)[:RECENT_COUNT],
            ),
            AUTHORS: self.authors(by_author),
        }
        for author, books in by_author.items():
            found |= self.paged(author_feed(author), author, books)
        return found

    def paged(self, path: str, title: str, books: list[BuiltBook]) -> dict[str, bytes]:
        """An acquisition feed in pages of PAGE_SIZE books (`path`, then `path` with -2, -3… before
        .xml), linked first, previous, next and last (RFC 5005, as OPDS 1.2 pages a feed): an
        e-reader reads a page of a 10,000-book shelf, not 10 MB."""
        stem = path.removesuffix(".xml")
        count = max(1, -(-len(books) // PAGE_SIZE))
        names = [path] + [f"{stem}-{n}.xml" for n in range(2, count + 1)]
        pages = {}
        for n, name in enumerate(names):
            around = {"first": names[0], "last": names[-1]} if count > 1 else {}
            if n > 0:
                around["previous"] = names[n - 1]
            if n + 1 < count:
                around["next"] = names[n + 1]
            links = tuple(
                Link(rel, href(p.rpartition("/")[2]), ACQUISITION_FEED) for rel, p in around.items()
            )
            shown = title if count == 1 else f"{title} ({n + 1}/{count})"
            pages[name] = self.acquisition(
                name, shown, books[n * PAGE_SIZE : (n + 1) * PAGE_SIZE], links=links
            )
        return pages

    def by_author(self) -> dict[str, list[BuiltBook]]:
        grouped: dict[str, list[BuiltBook]] = {}
        for book in self.books:
            grouped.setdefault(book.author or UNKNOWN_AUTHOR, []).append(book)
        return dict(sorted(grouped.items(), key=lambda pair: (by_sound(pair[0]), pair[0])))

    def links(self, path: str, kind: str) -> tuple[Link, ...]:
        up = "../" if "/" in path else ""
        found = [
            Link("self", href(path.rpartition("/")[2]), kind),
            Link("start", up + ROOT_FEED, NAVIGATION_FEED),
        ]
        if path != ROOT_FEED:
            found.append(Link("up", up + ROOT_FEED, NAVIGATION_FEED))
        if self.search is not None:  # both ways OPDS 1.2 says a catalogue is searched (its section 3)
            found.append(Link("search", up + self.search[0], OPENSEARCH, "Search this shelf"))
            found.append(Link("search", up + self.search[1], ACQUISITION_FEED, "Search this shelf"))
        return tuple(found)

    def root(self) -> bytes:
        def nav(path: str, title: str, line: str, rel: str = SUBSECTION, kind: str = ACQUISITION_FEED):
            return Entry(
                self.feed_id(path), title, self.updated, (Link(rel, href(path), kind),), content=line
            )

        entries = (
            nav(
                BY_TITLE,
                "By title",
                f"All {len(self.books)} book{'s' if len(self.books) != 1 else ''}, by title",
            ),
            nav(
                AUTHORS,
                "By author",
                f"{len(self.by_author())} author{'s' if len(self.by_author()) != 1 else ''}",
                kind=NAVIGATION_FEED,
            ),
            nav(RECENT, "Recently changed", "The books whose files changed last, first", rel=SORT_NEW),
        )
        links = self.links(ROOT_FEED, NAVIGATION_FEED) + (Link(SORT_NEW, href(RECENT), ACQUISITION_FEED),)
        return feed_bytes(Feed(self.feed_id(ROOT_FEED), self.shelf, self.updated, links, entries))

    def authors(self, by_author: dict[str, list[BuiltBook]]) -> bytes:
        entries = tuple(
            Entry(
                self.feed_id(author_feed(author)),
                author,
                max(b.modified for b in books),
                (Link(SUBSECTION, href(author_feed(author).rpartition("/")[2]), ACQUISITION_FEED),),
                content=f"{len(books)} book{'s' if len(books) != 1 else ''}",
            )
            for author, books in by_author.items()
        )
        links = self.links(AUTHORS, NAVIGATION_FEED)
        return feed_bytes(Feed(self.feed_id(AUTHORS), "By author", self.updated, links, entries))

    def acquisition(
        self, path: str, title: str, books: list[BuiltBook], self_href: str | None = None, links=()
    ) -> bytes:
        """An acquisition feed at `path` (relative to build/); `self_href`: its own link, where it
        is no file (a search's answer); `links`: more (a page's neighbours)."""
        up = "../" if "/" in path else ""
        entries = tuple(self.entry(b, up) for b in books)
        updated = max((b.modified for b in books), default=self.updated)
        own = self.links(path, ACQUISITION_FEED)
        if self_href is not None:
            own = (Link("self", self_href, ACQUISITION_FEED),) + own[1:]
        return feed_bytes(Feed(self.feed_id(path), title, updated, own + tuple(links), entries))

    def entry(self, book: BuiltBook, up: str) -> Entry:
        links = []
        if book.name in self.covers:
            cover, thumbnail, kind = self.covers[book.name]
            links += [
                Link(IMAGE, up + href(cover), kind),
                Link(THUMBNAIL, up + href(thumbnail), _type_of(thumbnail, kind)),
            ]
        links += [Link(ACQUISITION, link, kind, label, size) for link, kind, label, size in hrefs(book, up)]
        return Entry(
            book.identifier,
            book.title,
            book.modified,
            tuple(links),
            author=book.author or None,
            language=book.language or None,
            summary=book.description or None,
        )

    def feed_id(self, path: str) -> str:
        return f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'bookbuilder-shelf:{self.shelf}:{path}')}"


def author_feed(author: str) -> str:
    return f"{CATALOG_FOLDER}/author-{hashlib.sha256(author.encode('utf-8')).hexdigest()[:12]}.xml"


def _cover_files(books: list[BuiltBook]) -> tuple[dict[str, bytes], dict[str, tuple[str, str, str]]]:
    """Each cover as its own file, and a small JPEG of it for lists (Pillow; the cover itself where
    Pillow cannot read it)."""
    files, covers = {}, {}
    for book in books:
        if book.cover is None:
            continue
        data, kind = book.cover
        stem = f"{CATALOG_FOLDER}/covers/{book.name}"
        cover = f"{stem}.{EXTENSIONS.get(kind, kind.rpartition('/')[2].split('+')[0])}"
        files[cover] = data
        small = _thumbnail(data)
        thumbnail = f"{stem}.thumb.jpg" if small is not None else cover
        if small is not None:
            files[thumbnail] = small
        covers[book.name] = (cover, thumbnail, kind)
    return files, covers


def _thumbnail(data: bytes) -> bytes | None:
    """A small JPEG of a cover, kept for the next catalogue (serve makes one at each change)."""
    key = hashlib.sha256(data).digest()
    if key not in _THUMBNAILS:
        if len(_THUMBNAILS) >= MAX_THUMBNAILS_KEPT:
            _THUMBNAILS.clear()
        _THUMBNAILS[key] = _make_thumbnail(data)
    return _THUMBNAILS[key]


_THUMBNAILS: dict[bytes, bytes | None] = {}  # a cover's SHA-256 → its thumbnail
MAX_THUMBNAILS_KEPT = 50_000  # about 6 kB each


def _make_thumbnail(data: bytes) -> bytes | None:
    """A JPEG is decoded at a fraction of its size (its `draft`): a whole decode took 110 ms a
    cover, most of a catalogue's time."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            image.draft("RGB", THUMBNAIL_BOX)
            image = image.convert("RGB")
            image.thumbnail(THUMBNAIL_BOX)
            out = io.BytesIO()
            image.save(out, "JPEG", quality=80)
            return out.getvalue()
    except (UnidentifiedImageError, OSError, ValueError):
        return None


def _type_of(path: str, fallback: str) -> str:
    return "image/jpeg" if path.endswith(".jpg") else fallback


def _epoch_date() -> str:
    from bookbuilder.pipeline import source_date_epoch

    return datetime.fromtimestamp(source_date_epoch(), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
