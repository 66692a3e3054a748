"""`bookbuilder serve SHELF`: a shelf as one site. Its build/ at the top, as a static host would serve it
(index.html, the OPDS catalogue, each book's files, all from bookbuilder.shelf.catalog), and each book's
workbench under /.book/<name>/, the single-book `serve` loaded when first asked for (its download
page and feed sent to the shelf's: a book's files are build/<name>/'s, made by `build SHELF`).

Paths the server answers itself begin with a dot (/.book/, /.search, /.opensearch.xml): no book
is named so (bookbuilder.shelf.books skips hidden entries), so they never hide a book's files.
Reading apps search the shelf through OpenSearch: the feeds link the description document, whose
template asks /.search?q=…, answered with an OPDS acquisition feed of the titles and authors that
match. Over --lan everything is read-only, as for one book: the Host rule (bookbuilder.serve.hosts)
guards every request, and the workbench's forms and POSTs are for this machine only.
"""

from __future__ import annotations

import os
import re
import threading
import unicodedata
import urllib.parse
import zipfile
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from bookbuilder.diagnostics import BookError
from bookbuilder.render.html import text
from bookbuilder.serve.hosts import allowed_hosts, is_loopback
from bookbuilder.serve.opds import attachment
from bookbuilder.serve.pages import FAVICON
from bookbuilder.serve.server import Handler, Server, Site, lan_url, serve_until_stopped, sources_signature
from bookbuilder.serve.workbench import Bench
from bookbuilder.shelf.books import SHELF_BUILD, find_books
from bookbuilder.shelf.built import CATALOG_FOLDER, read_cover
from bookbuilder.shelf.catalog import AUTHORS, EXTENSIONS, ROOT_FEED, Catalog, CatalogFeeds, make_catalog
from bookbuilder.shelf.opds import ACQUISITION_FEED, NAVIGATION_FEED, OPENSEARCH

BOOK_PREFIX = "/.book/"
SEARCH, DESCRIPTION = "/.search", "/.opensearch.xml"
SHELF_OWNS = {"download": "/", "opds": f"/{ROOT_FEED}"}  # a book's paths the shelf answers
SEARCH_LINKS = (DESCRIPTION[1:], f"{SEARCH[1:]}?q={{searchTerms}}")  # as the feeds link them
_HOST = re.compile(r"^[A-Za-z0-9.\-:\[\]]+$")  # what a Host header may be to be put in a link
# Root-relative links in a book's pages (the single-book serve's), moved under the book's prefix.
_ROOTED = re.compile(r'((?:href|src|action)="|name="back" value="|EventSource\(")/(?!\.book/)')
BUSY = 503, "text/plain; charset=utf-8", b"being built again: ask again soon\n", {"Retry-After": "10"}
IMAGE_TYPES = {f".{ext}": kind for kind, ext in EXTENSIONS.items()}  # a cover's, by its name


class Library:
    """The shelf served: its catalogue, made again when build/ changes, and its books' workbenches."""

    def __init__(self, shelf: Path, jobs: int | None, echo: Callable[[str], None]):
        self.shelf, self.jobs, self.echo = Path(shelf), jobs, echo
        self.build_dir = self.shelf / SHELF_BUILD
        self.hosts: frozenset[str] = frozenset()  # set once the port is known (hosts.py)
        self.port = 0
        self.lan: str | None = None
        self.stopping = threading.Event()
        self.sites: dict[str, Site] = {}
        self.lock = threading.Lock()  # guards the catalogue and `sites`
        self.loading = threading.Lock()  # one book loaded at a time, the catalogue served meanwhile
        self._made: tuple[tuple, Catalog] | None = None

    def catalog(self) -> Catalog:
        """The catalogue of build/ as it is now (made again only when a built file changed). A file
        replaced while it is read (a shelf build running beside) is read again."""
        for attempt in range(3):
            signature = _signature(self.build_dir)
            with self.lock:
                if self._made is not None and self._made[0] == signature:
                    return self._made[1]
                try:
                    made = make_catalog(
                        self.build_dir, SEARCH_LINKS, missing_ok=True, workbench=self._pages(), lean=True
                    )
                except OSError:
                    if attempt == 2:
                        raise
                    continue
                self._made = (signature, made)
                return made
        raise AssertionError("unreachable")

    def _pages(self) -> tuple[str, set[str]]:
        """Where index.html links each book's workbench, and which books have one."""
        try:
            books = {b.name for b in find_books(self.shelf)}
        except (BookError, OSError):  # a wrong shelf.toml: the catalogue still, without pages
            books = set()
        return BOOK_PREFIX[1:], books

    def page(self, path: str, query: str, host: str | None) -> tuple[int, str, bytes, dict]:
        """(status, content type, body, headers) of a path of the shelf's own (not a workbench's)."""
        catalog = self.catalog()
        relative = urllib.parse.unquote(path).lstrip("/") or "index.html"
        if relative in catalog.files:
            return 200, _content_type(relative), catalog.files[relative], {}
        if relative in catalog.elsewhere:
            try:
                return 200, _content_type(relative), read_cover(catalog.elsewhere[relative]), {}
            except (OSError, KeyError, zipfile.BadZipFile):  # its EPUB replaced since: a build is running
                return BUSY
        base = f"http://{host}" if host and _HOST.match(host) else ""
        if path == DESCRIPTION:
            return 200, OPENSEARCH + "; charset=utf-8", _description(base, self.shelf.name), {}
        if path == SEARCH:
            terms = urllib.parse.parse_qs(query).get("q", [""])[0]
            return 200, ACQUISITION_FEED + "; charset=utf-8", self.search(catalog, terms), {}
        if path in ("/favicon.ico", "/favicon.svg"):  # what a browser asks of every page: the workbench's
            return 200, "image/svg+xml", FAVICON.encode("utf-8"), {}
        name, _, file = relative.partition("/")
        book = next((b for b in catalog.books if b.name == name), None)
        found = next((f for f in book.files if f.path.name == file), None) if book else None
        if found is None:
            return 404, "text/plain; charset=utf-8", b"not found\n", {}
        headers = {"Content-Disposition": attachment(found.path.name, found.suffix)}
        try:
            return 200, found.media_type, found.path.read_bytes(), headers
        except OSError:  # taken away or replaced since the catalogue was read: a build is running
            return BUSY

    def search(self, catalog: Catalog, terms: str) -> bytes:
        """An acquisition feed of the books whose title, author or name holds every word of `terms`."""
        words = _fold(terms).split()
        found = [b for b in catalog.books if all(w in _fold(f"{b.title} {b.author} {b.name}") for w in words)]
        feeds = CatalogFeeds(catalog.books, catalog.covers, self.shelf.name, SEARCH_LINKS)
        own = f"{SEARCH[1:]}?{urllib.parse.urlencode({'q': terms})}"
        return feeds.acquisition(own, f"Search: {terms}", found, self_href=own)  # own: its id too

    def site(self, name: str) -> Site:
        """The workbench of the book `name`, loaded when first asked for (BookError: it cannot be)."""
        with self.lock:
            if name in self.sites:
                return self.sites[name]
        book = next((b for b in find_books(self.shelf) if b.name == name), None)
        if book is None:
            raise KeyError(name)
        with self.loading:  # two first requests for one book load it once
            with self.lock:
                if name in self.sites:
                    return self.sites[name]
            site = self._load(book.path, name)
            with self.lock:
                self.sites[name] = site
            return site

    def _load(self, path: Path, name: str) -> Site:
        from bookbuilder.config import load_config

        site = Site(path, 1, lambda line: self.echo(f"{name}: {line}"))  # 1: no fork beside threads
        before = sources_signature(load_config(path))
        site.rebuild()
        site.hosts, site.bench = self.hosts, Bench(site, self.port, self.lan)
        threading.Thread(target=site.watch, args=(before,), name=f"watch-{name}", daemon=True).start()
        site.shelf.start()
        return site

    def stop(self) -> None:
        self.stopping.set()
        for site in list(self.sites.values()):
            site.stop()


class LibraryHandler(Handler):
    """The shelf's paths, and a book's workbench under /.book/<name>/ (the single-book handler with
    the book's site, its pages' links moved under the prefix)."""

    library: Library
    prefix = ""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        chosen = self._choose_book()
        if chosen == "shelf":
            parts = urlsplit(self.path)
            return self._send(*self.library.page(parts.path, parts.query, self.headers.get("Host")))
        if chosen == "book":
            super().do_GET()

    def do_POST(self) -> None:  # noqa: N802
        chosen = self._choose_book()
        if chosen == "shelf":
            return self._refuse()
        if chosen == "book":
            super().do_POST()

    def _choose_book(self) -> str:
        """ "book": the request is for a book's workbench, self.site is now that book's and self.path
        the path within it; "shelf": it is the shelf's; "answered": no such book, and that was said."""
        self.site, self.prefix = type(self).site, ""
        parts = urlsplit(self.path)
        if not parts.path.startswith(BOOK_PREFIX):
            return "shelf"
        name, _, rest = parts.path.removeprefix(BOOK_PREFIX).partition("/")
        name = urllib.parse.unquote(name)
        try:
            self.site = self.library.site(name)
        except KeyError:
            self.close_connection = True  # a POST's body not read is not taken for the next request
            self._send(404, "text/plain; charset=utf-8", b"no such book on this shelf\n")
            return "answered"
        except BookError as e:
            self.close_connection = True
            self._send(500, "text/plain; charset=utf-8", f"{e.diagnostic}\n".encode())
            return "answered"
        if rest.partition("/")[0] in SHELF_OWNS:
            # A book's download page and feed are the shelf's: its files are those of build/<name>/,
            # never made again into the book's own folder (a bare one's is the shelf's build/).
            self.close_connection = True
            self._send(303, {"Location": SHELF_OWNS[rest.partition("/")[0]]}, b"")
            return "answered"
        self.prefix = BOOK_PREFIX + urllib.parse.quote(name)
        self.path = "/" + rest + (f"?{parts.query}" if parts.query else "")
        return "book"

    def _send(self, status: int, kind_or_headers, body: bytes, headers: dict | None = None) -> None:
        kind = (
            kind_or_headers if isinstance(kind_or_headers, str) else kind_or_headers.get("Content-Type", "")
        )
        if self.prefix and kind.startswith("text/html"):
            body = _ROOTED.sub(lambda m: f"{m.group(1)}{self.prefix}/", body.decode("utf-8")).encode("utf-8")
        if self.prefix and not isinstance(kind_or_headers, str) and "Location" in kind_or_headers:
            location = kind_or_headers["Location"]
            if not location.startswith(BOOK_PREFIX):
                kind_or_headers = {**kind_or_headers, "Location": self.prefix + location}
        super()._send(status, kind_or_headers, body, headers)


def serve_shelf(
    shelf: Path,
    host: str,
    port: int,
    jobs: int | None,
    echo: Callable[[str], None],
    ready: Callable[[str], None] | None = None,
) -> None:
    """Serve the shelf at http://host:port/ (port 0: a free one) until Ctrl-C; a host other than a
    loopback one (--lan: 0.0.0.0) serves the LAN too, read-only."""
    import signal

    from bookbuilder.serve.server import _first_interrupt_only

    library = Library(shelf, jobs, echo)
    catalog = library.catalog()
    handler = type("ShelfHandler", (LibraryHandler,), {"site": library, "library": library})
    try:
        server = Server((host, port), handler)
    except OSError as e:
        raise BookError("E010", f"cannot listen on {host}:{port}: {e.strerror}") from None
    library.port = port = server.server_address[1]
    library.lan = None if is_loopback(host) else lan_url(host, port)
    local = host if is_loopback(host) else {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host)
    url = f"http://{local if ':' not in local else f'[{local}]'}:{port}/" if local else library.lan
    library.hosts = allowed_hosts(port, host, urlsplit(library.lan).hostname if library.lan else None)
    signal.signal(signal.SIGINT, _first_interrupt_only())
    built = (
        f"{len(catalog.books)} books built" if catalog.books else "nothing built yet: bookbuilder build SHELF"
    )
    said = [f"serving the shelf {library.shelf.name} ({built}) at {url} (Ctrl-C stops)"]
    if library.lan:
        said.append(
            f"on the LAN, read-only: {library.lan} for a browser, {library.lan}{ROOT_FEED} for a reading app"
        )
    serve_until_stopped(server, said, url, ready, echo, library.stop)
    echo("stopped")


def _signature(build_dir: Path) -> tuple:
    """(path, size, mtime) of each file in build/'s book folders: what the catalogue is made of."""
    found = []
    try:
        folders = sorted(os.scandir(build_dir), key=lambda e: e.name)
    except OSError:  # no build/ yet
        return ()
    for folder in folders:
        if folder.name.startswith(".") or folder.name == CATALOG_FOLDER or not folder.is_dir():
            continue
        try:
            for entry in sorted(os.scandir(folder.path), key=lambda e: e.name):
                stat = entry.stat()
                found.append((entry.path, stat.st_size, stat.st_mtime_ns))
        except OSError:  # a folder or file taken away as it was looked at: seen as changed
            found.append((folder.path, -1, -1))
    return tuple(found)


def _content_type(relative: str) -> str:
    if relative == ROOT_FEED or relative == AUTHORS:
        return NAVIGATION_FEED + "; charset=utf-8"
    if relative.endswith(".xml"):
        return ACQUISITION_FEED + "; charset=utf-8"
    if relative.endswith(".html"):
        return "text/html; charset=utf-8"
    return IMAGE_TYPES.get(Path(relative).suffix, "application/octet-stream")


def _description(base: str, shelf: str) -> bytes:
    """The OpenSearch 1.1 description document: how a reading app asks this shelf a question."""
    template = f"{base}{SEARCH}?q={{searchTerms}}"
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">\n'
        f"<ShortName>{text(shelf[:16])}</ShortName>\n"
        f"<Description>Search the shelf {text(shelf)} by title or author</Description>\n"
        "<InputEncoding>UTF-8</InputEncoding><OutputEncoding>UTF-8</OutputEncoding>\n"
        f'<Url type="{ACQUISITION_FEED}" template="{text(template)}"/>\n'
        "</OpenSearchDescription>\n"
    ).encode()


def _fold(value: str) -> str:
    """Text as a search compares it: full-width letters as ASCII, case ignored."""
    return unicodedata.normalize("NFKC", value).casefold()
