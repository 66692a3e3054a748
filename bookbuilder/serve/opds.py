"""`serve`'s shelf: the book's files for a reader on the same Wi-Fi, read-only.

/opds is an OPDS 1.2 acquisition feed (an Atom feed, which KOReader, Moon+ Reader, Librera,
PocketBook and KyBook browse) with one entry: the book's metadata, its cover and one
acquisition link per format. /download is the same as a plain page for an e-reader's own browser
(Kobo, Kindle: no script, no style). A file is the one in build/, what `bookbuilder <format>` would
have made; one missing or older than the sources is made again on a thread behind the server,
one at a time, and meanwhile the download is the file as last built, marked
`X-Bookbuilder-Stale: rebuilding`: a reading app gets a book at once instead of a minute of
silence it gives up on (a PDF of a long book takes that). Once a reader has downloaded a format it
is made again as soon as the sources change, so the next download is of the book as it is.
"""

from __future__ import annotations

import functools
import re
import shutil
import threading
import time
import urllib.parse
from datetime import UTC, datetime
from pathlib import Path

from bookbuilder import pipeline
from bookbuilder.diagnostics import BookError
from bookbuilder.render import format_names, renderer
from bookbuilder.render.html import text
from bookbuilder.render.names import ascii_stem
from bookbuilder.shelf.opds import (
    ACQUISITION,
    ACQUISITION_FEED,
    IMAGE,
    THUMBNAIL,
    Entry,
    Feed,
    Link,
    feed_bytes,
)

FEED_TYPE = ACQUISITION_FEED
# Seconds a download waits for its file to be made again before it is sent as last built: an EPUB
# is made in less, a PDF can take a minute, and reading apps give up after some 30 s of silence.
GRACE = 0.5
FIRST_BUILD_WAIT = 20.0  # seconds a file never built is waited for before "ask again" (503)
RETRY_AFTER = "30"  # seconds, said with that 503
_HOST = re.compile(r"^[A-Za-z0-9.\-:\[\]]+$")  # what a Host header may be to be put in a link


class Shelf:
    """The files of the book `site` serves, made in the background one at a time: a download
    never waits for a build longer than a reading app waits for a first byte."""

    def __init__(self, site):
        self.site = site
        self.state = threading.Condition()  # guards what follows; notified when a build ends
        self.made: dict[
            str, tuple[int, int]
        ] = {}  # format → (build, file's mtime) of its file in build/ made here
        self.failed: dict[
            str, tuple[int, str]
        ] = {}  # format → (build, why) of the last build here that failed
        self.asked: set[str] = set()  # formats a reader has downloaded: kept fresh from then on
        self.wanted: list[str] = []
        self.worker: threading.Thread | None = None

    def formats(self) -> list[str]:
        """Those that exist in build/ or can be made here (AZW3 needs calibre)."""
        loaded = self.site.preview.loaded
        return [
            fmt
            for fmt in format_names()
            if getattr(r := renderer(fmt), "media_type", None)
            and (not r.needs or shutil.which(r.needs) or self._target(loaded, fmt).exists())
        ]

    @staticmethod
    def _target(loaded, fmt: str) -> Path:
        return pipeline.output_path(loaded.config, loaded.book, pipeline.renderer_suffix(fmt))

    def page(self, path: str, host: str | None) -> tuple[int, str, bytes, dict] | None:
        """(status, content type, body, headers) for a shelf path, or None: not one of these."""
        base = f"http://{host}" if host and _HOST.match(host) else ""
        if path in ("/opds", "/opds/"):
            return 200, FEED_TYPE + "; charset=utf-8", self.feed(base), {}
        if path == "/download":
            return 200, "text/html; charset=utf-8", self.download_page(base).encode("utf-8"), {}
        loaded = self.site.preview.loaded
        if path == "/opds/cover":
            cover = self._cover(loaded)
            return 200, cover.media_type, cover.data, {}
        if path.startswith("/download/"):
            name = urllib.parse.unquote(path.removeprefix("/download/"))
            fmt = next((f for f in self.formats() if self._target(loaded, f).name == name), None)
            return None if fmt is None else self.download(fmt)
        return None

    def download(self, fmt: str) -> tuple[int, str, bytes, dict]:
        """build/'s file at once: fresh, or as last built (said in X-Bookbuilder-Stale) while it is
        made again behind; one never built is waited for a while, then asked for again later."""
        preview = self.site.preview
        target = self._target(preview.loaded, fmt)
        headers = {"Content-Disposition": attachment(target.name, renderer(fmt).suffix)}
        with self.state:
            self.asked.add(fmt)
            if not self._fresh(fmt, target):
                self._want(fmt)
                self.state.wait_for(
                    lambda: self._fresh(fmt, target) or self._failed(fmt),
                    GRACE if target.exists() else FIRST_BUILD_WAIT,
                )
            fresh, failed = self._fresh(fmt, target), self._failed(fmt)
        try:
            data = target.read_bytes()
        except FileNotFoundError:
            if failed:
                return 503, "text/plain; charset=utf-8", f"{failed}\n".encode(), {}
            return (
                503,
                "text/plain; charset=utf-8",
                (f"{target.name} is being built (a PDF takes a while): ask again in a minute\n").encode(),
                {"Retry-After": RETRY_AFTER},
            )
        if not fresh:
            headers["X-Bookbuilder-Stale"] = "build-failed" if failed else "rebuilding"
        return 200, renderer(fmt).media_type, data, headers

    def refresh(self) -> None:
        """The sources changed: make again, behind, the files a reader has downloaded."""
        with self.state:
            for fmt in sorted(self.asked):
                self._want(fmt)

    def _fresh(self, fmt: str, target: Path) -> bool:
        """Whether build/'s file is of the book as shown: one made here, of the newest build (a file
        made from a snapshot while the source changed is newer than the change, but not of it);
        another, newer than every source, book.toml and styles/."""
        try:
            mtime = target.stat().st_mtime_ns
        except FileNotFoundError:
            return False
        made = self.made.get(fmt)
        if made is not None and made[1] == mtime:
            return made[0] == self.site.generation
        return mtime >= self.site.newest_source()

    def _failed(self, fmt: str) -> str | None:
        failed = self.failed.get(fmt)
        return failed[1] if failed is not None and failed[0] == self.site.generation else None

    def _want(self, fmt: str) -> None:
        """Queue `fmt` for the builder thread (started on first need); the lock is held."""
        if fmt not in self.wanted and not self._failed(fmt):
            self.wanted.append(fmt)
            self.state.notify_all()
        self.start()

    def start(self) -> None:
        """Start the builder thread, once (serve does, after the first load: a thread may not run
        while that load forks its workers)."""
        with self.state:
            if self.worker is None:
                self.worker = threading.Thread(target=self._work, name="bookbuilder-shelf", daemon=True)
                self.worker.start()

    def _work(self) -> None:
        """Build what is wanted, one at a time, from the newest build of the book, until serve stops.
        One process: this one has the server's threads, which a fork would copy mid-step."""
        # The files' names in pinyin first: the first naming loads pypinyin (0.3 s, a second or
        # more beside a build), which the first download would otherwise wait for.
        _ascii_name(self.site.preview.loaded.book.meta.title)
        while not self.site.stopping.is_set():
            with self.state:
                if not self.state.wait_for(lambda: self.wanted, timeout=1.0):
                    continue
                fmt = self.wanted.pop(0)
                preview = self.site.preview
                target = self._target(preview.loaded, fmt)
                if self._fresh(fmt, target):
                    continue
            start, failed = time.perf_counter(), None
            try:
                pipeline.build(preview.loaded, fmt, jobs=1)
            except BookError as e:
                failed = str(e.diagnostic)
            except Exception as e:  # a bug of ours: said, and the last file stays on the shelf
                failed = f"{type(e).__name__}: {e}"
            with self.state:
                if failed is None:
                    self.made[fmt] = (preview.generation, target.stat().st_mtime_ns)
                else:
                    self.failed[fmt] = (preview.generation, failed)
                self.state.notify_all()
            self.site.echo(
                f"shelf: {target.name} "
                + (f"not built: {failed}" if failed else f"built in {time.perf_counter() - start:.1f} s")
            )

    def _cover(self, loaded):
        from bookbuilder.render import with_cover

        return with_cover(loaded.book, loaded.config)[0].cover

    def feed(self, base: str) -> bytes:
        loaded = self.site.preview.loaded
        meta = loaded.book.meta
        updated = _updated(loaded)
        kind = self._cover(loaded).media_type
        covers = tuple(Link(rel, f"{base}/opds/cover", kind) for rel in (IMAGE, THUMBNAIL))
        files = []
        for fmt in self.formats():
            target = self._target(loaded, fmt)
            href = f"{base}/download/{urllib.parse.quote(target.name)}"
            size = target.stat().st_size if target.exists() else None
            files.append(Link(ACQUISITION, href, renderer(fmt).media_type, renderer(fmt).shelf_label, size))
        entry = Entry(
            meta.identifier,
            meta.title,
            updated,
            covers + tuple(files),
            author=meta.author,
            language=meta.language,
            publisher=meta.publisher or None,
            issued=meta.date or None,
            subjects=tuple(meta.subjects),
            summary=meta.description or None,
        )
        links = tuple(Link(rel, f"{base}/opds", FEED_TYPE) for rel in ("self", "start"))
        return feed_bytes(
            Feed(f"{meta.identifier}:opds", meta.title, updated, links, (entry,), author="bookbuilder serve")
        )

    def download_page(self, base: str) -> str:
        loaded = self.site.preview.loaded
        meta = loaded.book.meta
        links = "\n".join(
            f'<li><a href="/download/{text(urllib.parse.quote(self._target(loaded, fmt).name))}"'
            f">{text(renderer(fmt).shelf_label)}</a>"
            f" {text(self._target(loaded, fmt).name)}</li>"
            for fmt in self.formats()
        )
        return (
            "<!DOCTYPE html>\n"
            f'<html lang="{text(meta.language)}"><head><meta charset="utf-8"/>'
            '<meta name="viewport" content="width=device-width"/>'
            f"<title>{text(meta.title)}</title></head>\n<body>\n<h1>{text(meta.title)}</h1>\n<p>{text(meta.author)}</p>\n"
            f"<ul>\n{links}\n</ul>\n<p>Kobo: the kepub; Kindle: the AZW3; others: the EPUB. "
            "A file not built yet is built when asked for: a PDF takes a while, ask again after a "
            "minute.</p>\n"
            f"<p>OPDS catalog, for a reading app: {text(base)}/opds</p>\n</body></html>\n"
        )


def _updated(loaded) -> str:
    """When the sources last changed (Atom's updated), in UTC."""
    sources = [Path(f.path) for f in loaded.book.files] + [loaded.config.toml_path]
    newest = max((p.stat().st_mtime for p in sources if p.exists()), default=0)
    return datetime.fromtimestamp(newest, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def attachment(name: str, suffix: str) -> str:
    """Content-Disposition for a file named in any script (山门.epub): HTTP headers are Latin-1, so
    the real name in RFC 6266's filename* (UTF-8, percent-encoded), and for a client that reads only
    filename the title in pinyin (shan-men.epub), which a reader recognizes, unlike book.epub."""
    fallback = f"{_ascii_name(name.removesuffix(f'.{suffix}'))}.{suffix}"
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{urllib.parse.quote(name)}"


@functools.lru_cache(maxsize=16)
def _ascii_name(stem: str) -> str:
    """A file name's stem in ASCII (the title in pinyin), "book" when nothing of it can be spelled."""
    return ascii_stem(stem) or "book"
