"""The WeasyPrint documents a PDF is made of: the options and stylesheets they are rendered with,
their HTML (a chunk of chapters, the front matter, a chunk's stamps), what WeasyPrint may fetch
(the project, under one URL wherever it is) and says while it works, and one document rendered.
bookbuilder.render.pdf_pages lays them out and puts them together (bookbuilder.render.pdf_carried:
on another machine); bookbuilder.render.pdf is the renderer.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import logging
import re
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote, urlparse

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Book, Chapter, Location
from bookbuilder.render.html import chapter_section, text, volume_section

FILL = "." * 80
Stylesheets = tuple[
    tuple[str, str, str], ...
]  # (CSS text, the URL its url()s resolve against, the file shown)


@dataclass(frozen=True)
class PdfOptions:
    """[pdf] in book.toml, resolved: the stylesheets (ours with the page size and font, then the
    book's own), the font files those put first (for the glyph check), processes, chapters per
    chunk (0: chosen from the book's size), a tagged variant (pdf/ua-1, pdf/a-3u…), right-hand
    chapter starts."""

    css: Stylesheets
    font_files: tuple[tuple[Path, int], ...]
    jobs: int | None = None
    chunk_chapters: int = 0
    variant: str | None = None
    recto: bool = False  # every chapter starts on a right-hand page


def first_fonts(book: Book, options: PdfOptions) -> tuple[tuple[Path, int], ...]:
    """The font files the stylesheets put first: [pdf] font, else the CJK serif for the book's
    language (the glyph check reads them; the PDF cache's key holds them)."""
    from bookbuilder.render.fonts import find_font, serif_for

    return options.font_files or (find_font(serif_for(book.meta.language), "Regular"),)


# ---- WeasyPrint's own messages --------------------------------------------------------------------

_AT = re.compile(r" at (\d+):(\d+)")


@contextmanager
def weasyprint_messages(found: list[str]):
    """WeasyPrint's warnings (a CSS declaration it ignored, a fetch it was refused) while inside,
    appended to `found`: they would otherwise go to a logger no one reads."""

    class Collect(logging.Handler):
        def emit(self, record):
            found.append(record.getMessage())

    logger = logging.getLogger("weasyprint")
    handler = Collect(logging.WARNING)
    logger.addHandler(handler)
    try:
        yield found
    finally:
        logger.removeHandler(handler)


def css_warnings(css: Stylesheets, root: Path) -> list[Diagnostic]:
    """W405 for each declaration or rule WeasyPrint ignores in a stylesheet, at its file and line."""
    from weasyprint import CSS

    notes = []
    for sheet, base, shown in css:
        found: list[str] = []
        with weasyprint_messages(found):
            CSS(string=sheet, base_url=base, url_fetcher=fetcher(root))
        for message in found:
            m = _AT.search(message)
            notes.append(
                Diagnostic(
                    "W405",
                    f"WeasyPrint: {_shown_urls(message)}",
                    Location(shown, int(m.group(1)) if m else None),
                )
            )
    return notes


def render_warnings(messages: list[str]) -> list[Diagnostic]:
    """W405 for WeasyPrint's messages while laying out (a refused fetch, a missing image), once
    each. Stylesheet messages were given by css_warnings, with their lines; the contents link to
    chapters in other documents, linked at the merge."""
    return [
        Diagnostic("W405", f"WeasyPrint: {_shown_urls(m)}")
        for m in dict.fromkeys(messages)
        if not _AT.search(m) and not m.startswith("No anchor #")
    ]


# What the documents call the project folder, wherever it is: WeasyPrint names an image in the PDF
# by its URL, so a URL of the folder's real place would make other bytes in another checkout, in
# CI, in a shelf's temporary folder or on a cluster's worker. The fetcher reads it from the folder.
PROJECT_URI = "file:///bookbuilder-project/"


def project_url(path: Path, root: Path) -> str:
    """The URL the documents give `path` inside the project at `root` (a folder's ends in "/")."""
    inside = path.resolve().relative_to(root.resolve()).as_posix()
    url = PROJECT_URI + quote("" if inside == "." else inside)
    return url + "/" if path.is_dir() and not url.endswith("/") else url


def fetcher(root: Path):
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class ConfinedFetcher(URLFetcher):
        """Only data: URIs and files inside the book project: default fetching lets a stylesheet
        or <link rel=attachment> pull /etc/passwd or a network URL into the PDF (GHSA-35jj-wx47-4w8r).
        A project URL (PROJECT_URI) is read from `root` and answered under its own name."""

        def fetch(self, url, headers=None):
            if url.startswith("data:"):
                return super().fetch(url, headers)
            path = project_path(url, root)
            if path is None and url.startswith("file:"):
                raise ValueError(f"refused to fetch {url}: outside the book project")
            if path is None:
                raise ValueError(f"refused to fetch {url}: only data: and project files")
            response = super().fetch(path.as_uri(), headers)
            try:
                return URLFetcherResponse(url.split("?")[0], response.read(), response.headers)
            finally:
                response.close()

    return ConfinedFetcher(allowed_protocols={"data", "file"})


def project_path(url: str, root: Path) -> Path | None:
    """The file inside the project at `root` that a URL names (a project URL, or a file: URL of the
    project's real place), or None for any other."""
    if not url.startswith("file:"):
        return None
    named = unquote(urlparse(url).path)
    virtual = unquote(urlparse(PROJECT_URI).path)
    root = root.resolve()
    path = (
        (root / named.removeprefix(virtual)).resolve() if named.startswith(virtual) else Path(named).resolve()
    )
    return path if path.is_relative_to(root) else None


def _shown_urls(message: str) -> str:
    """A WeasyPrint message with project URLs written as paths inside the project."""
    return message.replace(PROJECT_URI, "")


# ---- HTML ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One chapter of the body, in reading order, with the volume page that precedes it (if any)."""

    anchor: str
    chapter: Chapter
    volume_title: str | None  # the chapter's volume
    volume_anchor: str | None  # set on the first chapter of a titled volume: its volume page comes first


def entries(book: Book) -> list[Entry]:
    """The chapters in reading order, anchored by their stable names (bookbuilder.render.names)."""
    from bookbuilder.render.names import document_names

    chapter_names, volume_names = document_names(book)
    names, out = iter(chapter_names), []
    for volume, volume_name in zip(book.volumes, volume_names):
        for i, chapter in enumerate(volume.chapters):
            out.append(
                Entry(next(names), chapter, volume.title, volume_name if volume.title and i == 0 else None)
            )
    return out


def _head(book: Book, epoch: int) -> str:
    meta = book.meta
    date = dt.datetime.fromtimestamp(epoch, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return (
        f'<!DOCTYPE html><html lang="{meta.language}"><head><meta charset="utf-8"/>'
        f'<title>{text(meta.title)}</title><meta name="author" content="{text(meta.author)}"/>'
        f'<meta name="dcterms.created" content="{date}"/><meta name="dcterms.modified" content="{date}"/>'
        f'<meta name="generator" content="bookbuilder"/></head>'
    )


def body_html(book: Book, chunk: list[Entry], epoch: int) -> str:
    parts = []
    for e in chunk:
        if e.volume_anchor:
            parts.append(volume_section(e.volume_title, e.volume_anchor))
        parts.append(chapter_section(e.chapter, e.anchor, level=2))
    return _head(book, epoch) + '<body class="body">' + "\n".join(parts) + "</body></html>"


def front_html(book: Book, epoch: int, pages: dict[str, int] | None) -> str:
    """Cover, title page and contents. `pages` maps anchors to printed page numbers; None means
    one-document mode, where target-counter() finds them."""

    def number(anchor: str) -> str:
        # Clipped dots, not leader() or a dotted border: WeasyPrint draws those dot by dot
        # (18,000 text runs, or 200,000 curves, for a 300-chapter contents).
        return "" if pages is None else f'<span class="pageno">{pages[anchor]}</span>'

    fill = "" if pages is None else f'<span class="fill">{FILL}</span>'
    toc, open_volume = [], None
    for e in entries(book):
        if e.volume_title != open_volume:
            if open_volume:
                toc.append("</ol></li>")
            open_volume = e.volume_title
            if e.volume_title:
                anchor = e.volume_anchor or e.anchor
                toc.append(
                    f'<li class="volume"><a href="#{anchor}"><span '
                    f'class="t">{text(e.volume_title)}</span>{fill}{number(anchor)}</a><ol>'
                )
        toc.append(
            f'<li><a href="#{e.anchor}"><span '
            f'class="t">{text(e.chapter.title)}</span>{fill}{number(e.anchor)}</a></li>'
        )
    if open_volume:
        toc.append("</ol></li>")
    cover = ""
    if book.cover is not None:
        uri = f"data:{book.cover.media_type};base64,{base64.b64encode(book.cover.data).decode()}"
        cover = (
            f'<section class="cover"><img src="{uri}" '
            f'alt="{text(f"封面：{book.meta.title}，{book.meta.author}")}"/></section>'
        )
    return (
        _head(book, epoch)
        + f'<body class="front {"numbered" if pages is not None else "linked"}">'
        + cover
        + f'<section class="titlepage"><h1>{text(book.meta.title)}</h1><p>{text(book.meta.author)}</p>'
        + "</section>"
        + f'<nav class="toc" role="doc-toc"><h1>目录</h1><ol>{"".join(toc)}</ol></nav></body></html>'
    )


def stamp_html(
    book: Book,
    chunk: list[Entry],
    pages: dict[str, int],
    count: int,
    epoch: int,
    blanks: frozenset[int] = frozenset(),
) -> str:
    """The margin boxes of a laid-out chunk, alone: its pages again, as empty as the chunk's
    CSS allows, with the same page types and running strings (each section's heading is there,
    hidden), so that WeasyPrint draws the page numbers and headers where the chunk's own would
    be. `pages`: the chunk's page index of each anchor; `count`: its pages; `blanks`: the pages
    that a blank page goes before (numbered, with nothing printed on it)."""
    starts = [(pages[e.volume_anchor], "volume", e) for e in chunk if e.volume_anchor]
    starts += [(pages[e.anchor], "chapter", e) for e in chunk]
    starts.sort(key=lambda s: (s[0], s[1] != "volume"))
    parts = []
    for i, (first, what, e) in enumerate(starts):
        last = starts[i + 1][0] if i + 1 < len(starts) else count
        blank = '<div class="stamp-page"></div>' * max(0, last - first - 1)
        if first in blanks:
            parts.append('<div class="stamp-blank"></div>')
        if what == "volume":
            parts.append(
                f'<section class="volume"><h1 class="volume-title">{text(e.volume_title)}</h1>'
                f"{blank}</section>"
            )
        else:
            parts.append(
                f'<section class="{e.chapter.kind}"><h2 class="chapter-title">{text(e.chapter.title)}</h2>'
                f"{blank}</section>"
            )
    return _head(book, epoch) + '<body class="body stamps">' + "".join(parts) + "</body></html>"


# Margin boxes are drawn by the stamps, so the chunks leave them out; the stamps draw nothing else.
MARGIN_BOXES = (
    "top-left-corner",
    "top-left",
    "top-center",
    "top-right",
    "top-right-corner",
    "right-top",
    "right-middle",
    "right-bottom",
    "bottom-right-corner",
    "bottom-right",
    "bottom-center",
    "bottom-left",
    "bottom-left-corner",
    "left-bottom",
    "left-middle",
    "left-top",
)
_NONE = " ".join(f"@{box} {{ content: none !important; }}" for box in MARGIN_BOXES)
NO_MARGIN_BOXES = "@page { " + _NONE + " }\n"
STAMPS_ONLY = (
    "body.stamps * { visibility: hidden !important; margin: 0 !important; padding: 0 !important;"
    " border: 0 !important; font-size: 0 !important; line-height: 0 !important; height: auto !important;"
    " min-height: 0 !important; }\n"
    ".stamps .stamp-page { display: block !important; break-before: page !important; }\n"
    ".stamps .stamp-blank { display: block !important; page: bookbuilder-blank; }\n"
    "@page bookbuilder-blank { " + _NONE + " }\n"
)


def first_page_number(number: int) -> str:
    """A stamp document whose first page is numbered `number` (checked in PDF-NOTES.md)."""
    return f"@page :first {{ counter-reset: page {number}; }}\n"


# ---- One document, rendered by WeasyPrint (here, on a worker process, or on another machine) ----


@dataclass(frozen=True)
class Job:
    """One WeasyPrint document to render on a worker: a chunk, a chunk's stamps, the front matter.
    Its HTML and stylesheets wait in files: a job crosses to a worker as a few paths. (Python
    3.11.2, Debian 12's, hangs for good when a worker dies while a job larger than a pipe's
    buffer is being sent to the workers: CPython issue 94777.)"""

    index: int
    html: Path
    css: Path  # JSON: the Stylesheets
    extra_css: str
    root: Path


class Jobs:
    """Writes each job's HTML, and the book's stylesheets once, into a scratch folder."""

    def __init__(self, folder: Path, css: Stylesheets, root: Path):
        self.folder, self.root = folder, root
        self.css = folder / "css.json"
        self.css.write_text(json.dumps(css), "utf-8")

    def __call__(self, kind: str, index: int, html: str, extra_css: str = "") -> Job:
        path = self.folder / f"{kind}-{index}.html"
        path.write_text(html, "utf-8")
        return Job(index, path, self.css, extra_css, self.root)


@dataclass(frozen=True)
class Rendered:
    index: int
    pdf: bytes
    pages: int
    anchors: dict[str, int]  # anchor → page index within the document
    links: tuple  # per page, its internal links: (anchor, (x, y, w, h)) in CSS px
    messages: tuple[str, ...]  # WeasyPrint's warnings


def render_document(job: Job, identifier: bytes | None = None, **options) -> Rendered:
    """Lay out and draw one document (on a worker process)."""
    from weasyprint import CSS, HTML

    messages: list[str] = []
    with weasyprint_messages(messages):
        fetch = fetcher(job.root)
        sheets = [
            CSS(string=sheet, base_url=base, url_fetcher=fetch)
            for sheet, base, _ in json.loads(job.css.read_text("utf-8"))
        ]
        if job.extra_css:
            sheets.append(CSS(string=job.extra_css))
        document = HTML(string=job.html.read_text("utf-8"), base_url=PROJECT_URI, url_fetcher=fetch).render(
            stylesheets=sheets
        )
        anchors: dict[str, int] = {}
        for i, page in enumerate(document.pages):
            for name in page.anchors:
                anchors.setdefault(name, i)
        links = tuple(
            tuple((target, rect) for kind, target, rect, _ in page.links if kind == "internal")
            for page in document.pages
        )
        data = document.write_pdf(pdf_identifier=identifier, **options)
    return Rendered(job.index, data, len(document.pages), anchors, links, tuple(messages))
