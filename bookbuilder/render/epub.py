"""Book → EPUB 3, packaged by ebooklib, with its traps worked around:
dcterms:modified in local time marked Z and zip entries stamped with the wall clock (we pass a
UTC mtime and stamp every zip entry ourselves), <link> elements in a chapter's head dropped (we use add_link
with a path relative to the chapter; we hand it finished XHTML), set_cover() leaving the cover page out of the spine (we
write our own cover page, first), write_epub() returning False on an OS error (we hand it our
own zip, with raise_exceptions, on a temporary file that replaces the target at the end), an NCX
with dtb:depth 0 whose writer slows down with the square of the chapters (we hand it the NCX and
the navigation document finished: bookbuilder.render.navigation)."""
from __future__ import annotations

import datetime as dt
import re
import zipfile
from collections import OrderedDict
from functools import partial
from importlib import resources
from pathlib import Path
from typing import BinaryIO, Callable

from ebooklib import epub
from isal import isal_zlib

from bookbuilder.model import Book, Chapter, Cover
from bookbuilder.parallel import fork_imap
from bookbuilder.render.html import chapter_section, text, volume_section
from bookbuilder.render.navigation import TocEntry, nav_document, ncx_document

CSS_NAME = "styles/book.css"
NAV_NAME = "nav.xhtml"
TOC_TITLE, LANDMARKS_TITLE = "目录", "导航"
# Entries are deflated by ISA-L (python-isal), not zlib: for the 2,000 chapters' 16 MiB of XHTML,
# ISA-L level 2 takes 0.08–0.10 s and gives 7.55 MiB; zlib took 0.30–0.48 s at level 3 (7.21 MiB),
# and as long at level 1. Deflate is a standard format: every zip reader takes either. The bytes
# are the same for a given isal version (pinned in pyproject.toml), as zlib's are for a zlib version.
COMPRESS_LEVEL = 2
ZIP_EPOCH_MIN = 315532800  # 1980-01-01: the earliest time a zip entry can carry
VERTICAL_CSS = "html { writing-mode: vertical-rl; -epub-writing-mode: vertical-rl; -webkit-writing-mode: vertical-rl; }\n"
APPLE_DISPLAY_OPTIONS = (b'<?xml version="1.0" encoding="UTF-8"?>\n<display_options><platform name="*">'
                         b'<option name="specified-fonts">true</option></platform></display_options>\n')
# EPUB Accessibility 1.1: what the book offers, in words a reading app can show (issue: a11y).
A11Y_SUMMARY = {
    "zh-Hant": "本書為純文字小說，含目錄、章節標題與正確的閱讀順序，無已知的危害。",
    "zh-TW": "本書為純文字小說，含目錄、章節標題與正確的閱讀順序，無已知的危害。",
    "zh-HK": "本書為純文字小說，含目錄、章節標題與正確的閱讀順序，無已知的危害。",
}
A11Y_SUMMARY_DEFAULT = "本书为纯文字小说，含目录、章节标题与正确的阅读顺序，无已知的危害。"


def default_css(fmt: str) -> str:
    return resources.files("bookbuilder").joinpath(f"styles/{fmt}.css").read_text("utf-8")


def xhtml_document(title: str, body: str, language: str, css_href: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n'
        f'<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="{language}" xml:lang="{language}">\n'
        f'<head>\n<meta charset="utf-8"/>\n<title>{text(title)}</title>\n'
        f'<link href="{css_href}" rel="stylesheet" type="text/css"/>\n</head>\n'
        f"<body>\n{body}\n</body>\n</html>\n"
    ).encode("utf-8")


class Deflated:
    """A zip entry's data, deflated ahead (on any process), with the CRC-32 and size of the original."""

    __slots__ = ("crc", "size", "data")

    def __init__(self, crc: int, size: int, data: bytes):
        self.crc, self.size, self.data = crc, size, data

    @classmethod
    def of(cls, original: bytes) -> "Deflated":
        return cls(*_deflate(original))


def _deflate(data: bytes) -> tuple[int, int, bytes]:
    # A zip entry's data is raw deflate (no zlib header): wbits -15.
    return isal_zlib.crc32(data), len(data), isal_zlib.compress(data, COMPRESS_LEVEL, -15)


def _chapter_uid(n: int) -> str:
    """The id and file name of the n-th chapter (from 1): its document and the package agree on it."""
    return f"ch{n:05d}"


def chapter_document(chapter: Chapter, uid: str, level: int, language: str) -> bytes:
    return xhtml_document(chapter.title, chapter_section(chapter, uid, level=level), language, f"../{CSS_NAME}")


def _packed_chapter(language: str, job: tuple[Chapter, str, int]) -> tuple[int, int, bytes]:
    chapter, uid, level = job
    return _deflate(chapter_document(chapter, uid, level, language))


def write_epub(book: Book, css: str, target: Path, epoch: int, **options) -> None:
    """The EPUB, written atomically to `target` (bookbuilder.atomic)."""
    from bookbuilder.atomic import atomic_path

    with atomic_path(target) as tmp, open(tmp, "wb") as out:
        write_epub_to(out, book, css, epoch, **options)


def write_epub_to(out: BinaryIO, book: Book, css: str, epoch: int, *, vertical: bool = False,
                  font: tuple[bytes, str] | None = None, summary: str | None = None, jobs: int | None = None,
                  make_cover: Callable[[], Cover | None] | None = None) -> None:
    """The EPUB into `out`, a seekable binary file. A large book's chapters are rendered and
    deflated on `jobs` processes (bookbuilder.parallel) while this one packages the rest with
    ebooklib (and makes the cover with `make_cover` when given, else takes book.cover); each
    chapter's zip entry goes in as soon as it and the chapters before it are done."""
    chapters = [(chapter, _chapter_uid(n), 2 if volume.title else 1)
                for n, (volume, chapter) in enumerate(((v, c) for v in book.volumes for c in v.chapters), 1)]
    package = _Package(out, book, css, epoch, vertical=vertical, font=font, summary=summary, make_cover=make_cover)
    try:
        for n, packed in enumerate(fork_imap(partial(_packed_chapter, book.meta.language), chapters, jobs,
                                             meanwhile=package.start)):
            package.add_chapter(n, Deflated(*packed))
        package.finish()
    finally:
        package.close()


class _Later:
    """A chapter's content while it is rendered elsewhere: its zip entry is only named here, and
    written by add_chapter (the entries stand in book order, so the n-th is the n-th chapter's)."""

    __slots__ = ()


_LATER = _Later()


class _Package:
    """Everything of the EPUB but the chapters' text, written by ebooklib into a reproducible zip."""

    def __init__(self, out: BinaryIO, book: Book, css: str, epoch: int, *, vertical: bool,
                 font: tuple[bytes, str] | None, summary: str | None, make_cover: Callable[[], Cover | None] | None):
        self.out, self.book, self.css, self.epoch, self.vertical, self.font = out, book, css, epoch, vertical, font
        self.summary, self.make_cover = summary, make_cover
        self.zip: _ReproducibleZip | None = None

    def start(self) -> None:
        book, meta, css = self.book, self.book.meta, self.css
        cover = self.make_cover() if self.make_cover else book.cover
        eb = epub.EpubBook()
        eb.set_identifier(meta.identifier)
        eb.set_title(meta.title)
        eb.set_language(meta.language)
        eb.add_author(meta.author)
        for name, value in (("description", meta.description), ("publisher", meta.publisher), ("date", meta.date)):
            if value:
                eb.add_metadata("DC", name, value)
        for subject in meta.subjects:
            eb.add_metadata("DC", "subject", subject)
        _accessibility(eb, self.summary or A11Y_SUMMARY.get(meta.language, A11Y_SUMMARY_DEFAULT))
        if self.vertical:
            css = VERTICAL_CSS + css
            eb.set_direction("rtl")  # page-progression-direction="rtl" on the spine
        if self.font is not None:
            data, family = self.font
            eb.add_item(epub.EpubItem(uid="font", file_name="fonts/book.otf", media_type="font/otf", content=data))
            eb.add_item(epub.EpubItem(uid="apple-display-options", file_name="META-INF/com.apple.ibooks.display-options.xml",
                                      content=APPLE_DISPLAY_OPTIONS, manifest=False))
            css = (f'@font-face {{ font-family: "{family}"; src: url(../fonts/book.otf); }}\n'
                   f'body {{ font-family: "{family}", serif; }}\n') + css
        eb.add_item(epub.EpubItem(uid="css", file_name=CSS_NAME, media_type="text/css", content=css.encode("utf-8")))

        def document(uid: str, title: str, body: str | _Later) -> epub.EpubItem:
            # A finished XHTML document, not an EpubHtml: ebooklib would re-parse and re-serialize each
            # chapter with lxml (a third of the build's time) and drop our <link> on the way.
            content = body if isinstance(body, _Later) else xhtml_document(title, body, meta.language, f"../{CSS_NAME}")
            item = epub.EpubItem(uid=uid, file_name=f"text/{uid}.xhtml", media_type="application/xhtml+xml", content=content)
            eb.add_item(item)
            return item

        spine, guide = [], []
        if cover is not None:
            image_name = f"images/cover.{'jpg' if cover.kind == 'jpeg' else 'png'}"
            cover_image = epub.EpubCover(file_name=image_name)
            cover_image.content = cover.data
            cover_image.media_type = cover.media_type
            eb.add_item(cover_image)
            eb.add_metadata(None, "meta", "", OrderedDict([("name", "cover"), ("content", "cover-img")]))
            alt = text(f"封面：{meta.title}，{meta.author}")
            cover_page = document("cover", meta.title, (
                f'<section epub:type="cover" class="cover"><img src="../{image_name}" alt="{alt}" class="cover-image"/></section>'))
            spine.append(cover_page)
            guide.append({"type": "cover", "href": cover_page.file_name, "title": "封面"})
        title_page = document("titlepage", meta.title, (
            f'<section epub:type="titlepage" class="titlepage"><h1>{text(meta.title)}</h1>'
            f"<p>{text(meta.author)}</p></section>"))
        spine += [title_page, "nav"]
        toc: list[TocEntry] = []
        n, first = 0, None
        for v, volume in enumerate(book.volumes, 1):
            items, volume_item = [], None
            if volume.title:
                volume_item = document(f"part{v:03d}", volume.title, volume_section(volume.title, f"part{v:03d}"))
                spine.append(volume_item)
                first = first or volume_item
            for chapter in volume.chapters:
                uid = _chapter_uid(n + 1)
                item = document(uid, chapter.title, _LATER)
                n += 1
                spine.append(item)
                first = first or item
                items.append(TocEntry(chapter.title, item.file_name, uid))
            if volume_item is not None:
                toc.append(TocEntry(volume.title, volume_item.file_name, volume_item.id, tuple(items)))
            else:
                toc.extend(items)
        guide.append({"type": "toc", "href": NAV_NAME, "title": TOC_TITLE})
        guide.append({"type": "text", "href": (first or title_page).file_name, "title": "正文"})
        eb.guide = guide
        # The tables of contents as finished documents (bookbuilder.render.navigation), as ebooklib
        # would place them: the NCX, then the navigation document with properties="nav".
        eb.add_item(epub.EpubItem(uid="ncx", file_name="toc.ncx", media_type="application/x-dtbncx+xml",
                                  content=ncx_document(meta.identifier, meta.title, toc, 2 if book.has_volume_titles else 1)))
        nav = epub.EpubItem(uid="nav", file_name=NAV_NAME, media_type="application/xhtml+xml",
                            content=nav_document(TOC_TITLE, meta.language, CSS_NAME, toc, LANDMARKS_TITLE, guide))
        nav.properties = ["nav"]
        eb.add_item(nav)
        eb.spine = spine
        mtime = dt.datetime.fromtimestamp(self.epoch, dt.timezone.utc).replace(tzinfo=None)
        writer = epub.EpubWriter(self.out, eb, {"mtime": mtime, "raise_exceptions": True, "epub3_pages": False})
        writer.process()
        # ebooklib's write(), into our zip, which keeps the chapters' entries for add_chapter().
        writer.out = self.zip = _ReproducibleZip(self.out, stamp=_zip_stamp(self.epoch), language=meta.language)
        writer.out.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        writer._write_container()
        writer._write_opf()
        writer._write_items()

    def add_chapter(self, n: int, entry: Deflated) -> None:
        """The n-th chapter's entry (from 0), in book order, after everything start() wrote."""
        name = self.zip.later[n]
        if not name.endswith(f"/{_chapter_uid(n + 1)}.xhtml"):
            raise RuntimeError(f"chapter {n + 1} arrived where {name} belongs")
        self.zip.writestr(name, entry)

    def finish(self) -> None:
        if any(name not in self.zip.NameToInfo for name in self.zip.later):
            raise RuntimeError("a chapter's entry is missing from the EPUB")
        self.zip.close()

    def close(self) -> None:
        if self.zip is not None:
            self.zip.close()  # idempotent; on an error, before the file goes


class _ReproducibleZip(zipfile.ZipFile):
    """ebooklib's zip with every entry stamped alike (time, mode 0644, Unix), deflated by ISA-L,
    and the OPF patched as it goes in: byte-reproducible without a second pass over the
    archive. (The repro-zipfile package does the stamping but takes the time only from the
    environment.) An entry whose content is _Later is only named in `later`, for its deflated content."""

    def __init__(self, file, *, stamp: tuple, language: str):
        super().__init__(file, "w", zipfile.ZIP_DEFLATED)
        self.stamp, self.language = stamp, language
        self.later: list[str] = []  # entry names, in book order

    def writestr(self, zinfo_or_arcname, data, compress_type=None, compresslevel=None):
        name = getattr(zinfo_or_arcname, "filename", zinfo_or_arcname)
        if isinstance(data, _Later):
            self.later.append(name)
            return
        info = zipfile.ZipInfo(name, date_time=self.stamp)
        info.compress_type = self.compression if compress_type is None else compress_type
        info.external_attr = 0o644 << 16
        info.create_system = 3
        if not isinstance(data, Deflated):
            data = _patch(name, data.encode("utf-8") if isinstance(data, str) else data, self.language)
            if info.compress_type != zipfile.ZIP_DEFLATED:  # mimetype: stored
                super().writestr(info, data)
                return
            data = Deflated.of(data)
        self._write_deflated(info, data)

    def _write_deflated(self, info: zipfile.ZipInfo, data: Deflated) -> None:
        """zipfile has no way to take data deflated elsewhere: these are its own steps for an entry
        in a seekable file (ZipFile._open_to_write and _ZipWriteFile.close, CPython 3.8–3.13), with
        the compressor left out. The bytes equal writestr's for the same deflated data, which a test
        checks."""
        info.compress_type = zipfile.ZIP_DEFLATED
        info.file_size, info.compress_size, info.CRC = data.size, len(data.data), data.crc
        with self._lock:
            self.fp.seek(self.start_dir)
            info.header_offset = self.fp.tell()
            self._writecheck(info)
            self._didModify = True
            self.fp.write(info.FileHeader(False))  # never zip64: a chapter is far below 4 GiB
            self.fp.write(data.data)
            self.filelist.append(info)
            self.NameToInfo[info.filename] = info
            self.start_dir = self.fp.tell()


def _zip_stamp(epoch: int) -> tuple:
    return dt.datetime.fromtimestamp(max(epoch, ZIP_EPOCH_MIN), dt.timezone.utc).timetuple()[:6]


def _accessibility(eb: epub.EpubBook, summary: str) -> None:
    for prop, value in (
        ("schema:accessMode", "textual"),
        ("schema:accessModeSufficient", "textual"),
        ("schema:accessibilityFeature", "tableOfContents"),
        ("schema:accessibilityFeature", "readingOrder"),
        ("schema:accessibilityFeature", "structuralNavigation"),
        ("schema:accessibilityFeature", "displayTransformability"),
        ("schema:accessibilityHazard", "none"),
        ("schema:accessibilitySummary", summary),
        ("dcterms:conformsTo", "EPUB Accessibility 1.1 - WCAG 2.1 Level AA"),
    ):
        eb.add_metadata(None, "meta", value, OrderedDict([("property", prop)]))


_PACKAGE = re.compile(rb"<package ")


def _patch(name: str, data: bytes, language: str) -> bytes:
    """What ebooklib cannot be told: xml:lang on the OPF package."""
    if name.endswith("content.opf"):
        return _PACKAGE.sub(f'<package xml:lang="{language}" '.encode(), data, count=1)
    return data
