"""Book → EPUB 3, packaged by ebooklib, with its traps worked around:
dcterms:modified in local time marked Z and zip entries stamped with the wall clock (we pass a
UTC mtime and re-stamp the zip), <link> elements in a chapter's head dropped (we use add_link
with a path relative to the chapter), write_epub() returning False on an OS error (we raise)."""
from __future__ import annotations

import datetime as dt
import io
import zipfile
from importlib import resources
from pathlib import Path

from ebooklib import epub

from bookbuilder.model import Book
from bookbuilder.render.html import chapter_section, text, volume_section

CSS_NAME = "styles/book.css"
ZIP_EPOCH_MIN = 315532800  # 1980-01-01: the earliest time a zip entry can carry


def default_css(fmt: str) -> str:
    return resources.files("bookbuilder").joinpath(f"styles/{fmt}.css").read_text("utf-8")


def _page(title: str, body: str) -> str:
    return f"<html><head><title>{text(title)}</title></head><body>{body}</body></html>"


def build_epub_bytes(book: Book, css: str, epoch: int) -> bytes:
    meta = book.meta
    eb = epub.EpubBook()
    eb.set_identifier(meta.identifier)
    eb.set_title(meta.title)
    eb.set_language(meta.language)
    eb.add_author(meta.author)
    if meta.description:
        eb.add_metadata("DC", "description", meta.description)
    if meta.publisher:
        eb.add_metadata("DC", "publisher", meta.publisher)
    for subject in meta.subjects:
        eb.add_metadata("DC", "subject", subject)
    eb.add_item(epub.EpubItem(uid="css", file_name=CSS_NAME, media_type="text/css", content=css.encode("utf-8")))

    def document(uid: str, title: str, body: str) -> epub.EpubHtml:
        item = epub.EpubHtml(uid=uid, file_name=f"text/{uid}.xhtml", title=title, lang=meta.language,
                             content=_page(title, body))
        item.add_link(href=f"../{CSS_NAME}", rel="stylesheet", type="text/css")
        eb.add_item(item)
        return item

    title_page = document("titlepage", meta.title, (
        f'<section epub:type="titlepage" class="titlepage"><h1>{text(meta.title)}</h1>'
        f"<p>{text(meta.author)}</p></section>"))
    spine, toc, n = [title_page, "nav"], [], 0
    for v, volume in enumerate(book.volumes, 1):
        items = []
        volume_item = None
        if volume.title:
            volume_item = document(f"part{v:03d}", volume.title, volume_section(volume.title, f"part{v:03d}"))
            spine.append(volume_item)
        for chapter in volume.chapters:
            n += 1
            uid = f"ch{n:05d}"
            item = document(uid, chapter.title, chapter_section(chapter, uid, level=2))
            spine.append(item)
            items.append(epub.Link(item.file_name, chapter.title, uid))
        if volume_item is not None:
            toc.append((epub.Section(volume.title, volume_item.file_name), items))
        else:
            toc.extend(items)
    eb.toc = toc
    eb.add_item(epub.EpubNcx())
    nav = epub.EpubNav(title="目录")
    nav.add_link(href=CSS_NAME, rel="stylesheet", type="text/css")
    eb.add_item(nav)
    eb.spine = spine
    eb.guide = [{"type": "title-page", "href": title_page.file_name, "title": meta.title},
                {"type": "toc", "href": nav.file_name, "title": "目录"},
                {"type": "text", "href": spine[2].file_name if len(spine) > 2 else title_page.file_name, "title": "正文"}]
    raw = io.BytesIO()
    mtime = dt.datetime.fromtimestamp(epoch, dt.timezone.utc).replace(tzinfo=None)
    epub.write_epub(raw, eb, {"mtime": mtime, "raise_exceptions": True, "landmark_title": "导航",
                              "play_order": {"enabled": True, "start_from": 1}})
    return restamp_zip(raw.getvalue(), epoch)


def restamp_zip(data: bytes, epoch: int) -> bytes:
    """Same entries, same order, every timestamp and attribute fixed: byte-reproducible."""
    stamp = dt.datetime.fromtimestamp(max(epoch, ZIP_EPOCH_MIN), dt.timezone.utc).timetuple()[:6]
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=stamp)
            fixed.compress_type = zipfile.ZIP_STORED if info.filename == "mimetype" else zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o644 << 16
            fixed.create_system = 3
            dst.writestr(fixed, src.read(info.filename), compresslevel=9 if fixed.compress_type else None)
    return out.getvalue()


def write_epub(book: Book, css: str, target: Path, epoch: int) -> None:
    from bookbuilder.atomic import atomic_path

    data = build_epub_bytes(book, css, epoch)
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)
