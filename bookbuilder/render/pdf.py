"""Book → PDF with WeasyPrint: title page, table of contents with page numbers, running header,
page numbers, one outline entry per chapter (volume › chapter), a real CJK font."""
from __future__ import annotations

import base64
import datetime as dt
import hashlib
from pathlib import Path
from urllib.parse import unquote, urlparse

from bookbuilder.atomic import atomic_path
from bookbuilder.model import Book
from bookbuilder.render.html import chapter_section, text, volume_section


def _fetcher_class():
    from weasyprint.urls import URLFetcher

    class ConfinedFetcher(URLFetcher):
        """Only data: URIs and files inside the book project: default fetching lets a stylesheet
        or <link rel=attachment> pull /etc/passwd or a network URL into the PDF (GHSA-35jj-wx47-4w8r)."""

        def __init__(self, root: Path, **kwargs):
            super().__init__(allowed_protocols={"data", "file"}, **kwargs)
            self.root = root.resolve()

        def fetch(self, url, headers=None):
            if url.startswith("file:"):
                path = Path(unquote(urlparse(url).path)).resolve()
                if not path.is_relative_to(self.root):
                    raise ValueError(f"refused to fetch {url}: outside the book project")
            elif not url.startswith("data:"):
                raise ValueError(f"refused to fetch {url}: only data: and project files")
            return super().fetch(url, headers)

    return ConfinedFetcher


def book_html(book: Book, epoch: int) -> str:
    meta = book.meta
    date = dt.datetime.fromtimestamp(epoch, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    flat = not book.has_volume_titles
    toc, body, n = [], [], 0
    for v, volume in enumerate(book.volumes, 1):
        entries = []
        if volume.title:
            body.append(volume_section(volume.title, f"part{v:03d}"))
        for chapter in volume.chapters:
            n += 1
            anchor = f"ch{n:05d}"
            body.append(chapter_section(chapter, anchor, level=2))
            entries.append(f'<li><a href="#{anchor}">{text(chapter.title)}</a></li>')
        if volume.title:
            toc.append(f'<li><a href="#part{v:03d}">{text(volume.title)}</a><ol>{"".join(entries)}</ol></li>')
        else:
            toc.extend(entries)
    return (
        f'<!DOCTYPE html><html lang="{meta.language}"><head><meta charset="utf-8"/>'
        f"<title>{text(meta.title)}</title>"
        f'<meta name="author" content="{text(meta.author)}"/>'
        f'<meta name="dcterms.created" content="{date}"/><meta name="dcterms.modified" content="{date}"/>'
        f'<meta name="generator" content="bookbuilder"/></head>'
        f'<body class="{"flat" if flat else "volumes"}">'
        + _cover(book) +
        f'<section class="titlepage"><h1>{text(meta.title)}</h1><p>{text(meta.author)}</p></section>'
        f'<nav class="toc" role="doc-toc"><h1>目录</h1><ol>{"".join(toc)}</ol></nav>'
        + "\n".join(body) + "</body></html>"
    )


def _cover(book: Book) -> str:
    if book.cover is None:
        return ""
    uri = f"data:{book.cover.media_type};base64,{base64.b64encode(book.cover.data).decode()}"
    alt = text(f"封面：{book.meta.title}，{book.meta.author}")
    return f'<section class="cover"><img src="{uri}" alt="{alt}"/></section>'


def render_pdf_bytes(book: Book, css: str, epoch: int, root: Path) -> bytes:
    from weasyprint import CSS, HTML

    fetcher = _fetcher_class()(root)
    html = HTML(string=book_html(book, epoch), base_url=root.resolve().as_uri() + "/", url_fetcher=fetcher)
    identifier = hashlib.md5(book.meta.identifier.encode("utf-8")).hexdigest().encode("ascii")
    return html.write_pdf(stylesheets=[CSS(string=css, base_url=root.resolve().as_uri() + "/", url_fetcher=fetcher)],
                          pdf_identifier=identifier)


def write_pdf(book: Book, css: str, target: Path, epoch: int, root: Path) -> None:
    data = render_pdf_bytes(book, css, epoch, root)
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)
