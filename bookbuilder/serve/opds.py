"""`serve`'s shelf: the book's files for a reader on the same Wi-Fi, read-only.

/opds is an OPDS 1.2 acquisition feed (an Atom feed, which KOReader, Moon+ Reader, Librera,
PocketBook and KyBook browse) with one entry: the book's metadata, its cover and one
acquisition link per format. /download is the same as a plain page for an e-reader's own browser
(Kobo, Kindle: no script, no style). A file is the one in build/, built first when it is missing or
older than the sources, so a download is what `bookbuilder <format>` would have made.
"""
from __future__ import annotations

import re
import shutil
import threading
import urllib.parse
import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from pathlib import Path

from bookbuilder import pipeline
from bookbuilder.diagnostics import BookError
from bookbuilder.render import format_names, renderer
from bookbuilder.render.html import XML_ILLEGAL, text

ATOM, DC, OPDS = "http://www.w3.org/2005/Atom", "http://purl.org/dc/terms/", "http://opds-spec.org/2010/catalog"
FEED_TYPE = "application/atom+xml;profile=opds-catalog;kind=acquisition"
ACQUISITION = "http://opds-spec.org/acquisition"
_HOST = re.compile(r"^[A-Za-z0-9.\-:\[\]]+$")  # what a Host header may be to be put in a link

for prefix, uri in (("", ATOM), ("dc", DC), ("opds", OPDS)):
    ET.register_namespace(prefix, uri)


class Shelf:
    """The files of the book `site` serves; one build at a time."""

    def __init__(self, site):
        self.site = site
        self.lock = threading.Lock()
        self.made: dict[str, int] = {}  # format → the build (generation) its file in build/ was made from here

    def formats(self) -> list[str]:
        """Those that exist in build/ or can be made here (AZW3 needs calibre)."""
        loaded = self.site.preview.loaded
        return [fmt for fmt in format_names() if getattr(r := renderer(fmt), "media_type", None)
                and (not r.needs or shutil.which(r.needs) or self._target(loaded, fmt).exists())]

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
        preview = self.site.preview
        loaded = preview.loaded
        if path == "/opds/cover":
            cover = self._cover(loaded)
            return 200, cover.media_type, cover.data, {}
        if path.startswith("/download/"):
            name = urllib.parse.unquote(path.removeprefix("/download/"))
            fmt = next((f for f in self.formats() if self._target(loaded, f).name == name), None)
            if fmt is None:
                return None
            try:
                target = self.built(preview, fmt)
            except BookError as e:
                return 503, "text/plain; charset=utf-8", f"{e.diagnostic}\n".encode("utf-8"), {}
            return 200, renderer(fmt).media_type, target.read_bytes(), {
                "Content-Disposition": _attachment(target.name)}
        return None

    def built(self, preview, fmt: str) -> Path:
        """build/'s file for `fmt`, built first where it is missing or not of the book as shown: one
        made here from an earlier build, or one older than a source (a file made from a snapshot
        while the source changed is newer than the change, but not of it: hence the generation)."""
        loaded = preview.loaded
        with self.lock:
            target = self._target(loaded, fmt)
            if fmt in self.made:
                fresh = self.made[fmt] == preview.generation
            else:
                sources = [Path(f.path) for f in loaded.book.files] + [loaded.config.toml_path]
                newest = max((p.stat().st_mtime_ns for p in sources if p.exists()), default=0)
                fresh = target.exists() and target.stat().st_mtime_ns >= newest
            if not fresh or not target.exists():
                pipeline.build(loaded, fmt, jobs=1)  # one process: this one has the server's threads
                self.made[fmt] = preview.generation
            return target

    def _cover(self, loaded):
        from bookbuilder.render import with_cover

        return with_cover(loaded.book, loaded.config)[0].cover

    def feed(self, base: str) -> bytes:
        loaded = self.site.preview.loaded
        meta = loaded.book.meta
        updated = _updated(loaded)
        feed = ET.Element(f"{{{ATOM}}}feed")
        _sub(feed, "id", f"{meta.identifier}:opds")
        _sub(feed, "title", meta.title)
        _sub(feed, "updated", updated)
        _sub(_sub(feed, "author"), "name", "bookbuilder serve")
        for rel in ("self", "start"):
            _sub(feed, "link", rel=rel, href=f"{base}/opds", type=FEED_TYPE)
        entry = _sub(feed, "entry")
        _sub(entry, "title", meta.title)
        _sub(entry, "id", meta.identifier)
        _sub(entry, "updated", updated)
        _sub(_sub(entry, "author"), "name", meta.author)
        _sub(entry, f"{{{DC}}}language", meta.language)
        if meta.publisher:
            _sub(entry, f"{{{DC}}}publisher", meta.publisher)
        if meta.date:
            _sub(entry, f"{{{DC}}}issued", meta.date)
        for subject in meta.subjects:
            _sub(entry, "category", term=subject, label=subject)
        if meta.description:
            _sub(entry, "summary", meta.description, type="text")
        kind = self._cover(loaded).media_type
        for rel in ("http://opds-spec.org/image", "http://opds-spec.org/image/thumbnail"):
            _sub(entry, "link", rel=rel, href=f"{base}/opds/cover", type=kind)
        for fmt in self.formats():
            target = self._target(loaded, fmt)
            extra = {"length": str(target.stat().st_size)} if target.exists() else {}
            _sub(entry, "link", rel=ACQUISITION, href=f"{base}/download/{urllib.parse.quote(target.name)}", type=renderer(fmt).media_type,
                 title=renderer(fmt).shelf_label, **extra)
        return b'<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(feed, encoding="utf-8", xml_declaration=False)

    def download_page(self, base: str) -> str:
        loaded = self.site.preview.loaded
        meta = loaded.book.meta
        links = "\n".join(f'<li><a href="/download/{text(urllib.parse.quote(self._target(loaded, fmt).name))}">{text(renderer(fmt).shelf_label)}</a>'
                          f" {text(self._target(loaded, fmt).name)}</li>" for fmt in self.formats())
        return ("<!DOCTYPE html>\n"
                f'<html lang="{text(meta.language)}"><head><meta charset="utf-8"/>'
                '<meta name="viewport" content="width=device-width"/>'
                f"<title>{text(meta.title)}</title></head>\n<body>\n<h1>{text(meta.title)}</h1>\n<p>{text(meta.author)}</p>\n"
                f"<ul>\n{links}\n</ul>\n<p>Kobo: the kepub; Kindle: the AZW3; others: the EPUB. "
                f"A file not built yet is built when asked for (a PDF takes a while).</p>\n"
                f"<p>OPDS catalog, for a reading app: {text(base)}/opds</p>\n</body></html>\n")


def _sub(parent, tag: str, value: str | None = None, **attributes) -> ET.Element:
    attributes = {k: XML_ILLEGAL.sub("", v) for k, v in attributes.items()}  # XML 1.0 cannot carry them
    element = ET.SubElement(parent, tag if tag.startswith("{") else f"{{{ATOM}}}{tag}", attributes)
    if value is not None:
        element.text = XML_ILLEGAL.sub("", value)
    return element


def _updated(loaded) -> str:
    """When the sources last changed (Atom's updated), in UTC."""
    sources = [Path(f.path) for f in loaded.book.files] + [loaded.config.toml_path]
    newest = max((p.stat().st_mtime for p in sources if p.exists()), default=0)
    return datetime.fromtimestamp(newest, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _attachment(name: str) -> str:
    """Content-Disposition for a file named in any script (山门.epub): HTTP headers are Latin-1, so
    an ASCII fallback name and the real one in RFC 6266's filename* (UTF-8, percent-encoded)."""
    fallback = name if name.isascii() else "book" + "".join(Path(name).suffixes)
    return f'attachment; filename="{fallback}"; filename*=UTF-8\'\'{urllib.parse.quote(name)}'
