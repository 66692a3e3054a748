"""Book → EPUB 3, packaged by ebooklib through its public API, then stamped reproducibly.

ebooklib's traps, and what we do about each: dcterms:modified in local time marked Z (we pass a
UTC mtime); zip entries stamped with the wall clock (every entry is written into a zip of our own,
through zipfile's public API, with one time, mode and system: `_reproducible`; the documents are
held out of ebooklib's zip and deflated once, there: `_hold_contents`); <link> elements
in a chapter's head dropped and each chapter re-parsed by lxml (we hand it finished XHTML as plain
items); set_cover() leaving the cover page out of the spine (we write our own cover page, first);
write_epub() returning False on an OS error (it writes into memory; we write the file, atomically);
an NCX with dtb:depth 0 whose writer slows down with the square of the chapters (we hand it the NCX
and the navigation document finished: bookbuilder.render.navigation).
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections import OrderedDict
from dataclasses import dataclass, replace
from pathlib import Path

from ebooklib import epub

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Book, Chapter, Meta
from bookbuilder.render import COMMANDS, RenderContext, stylesheet
from bookbuilder.render.html import chapter_section, paragraphs, text, volume_section
from bookbuilder.render.names import document_names
from bookbuilder.render.navigation import TocEntry, nav_document, ncx_document
from bookbuilder.settings import Config
from bookbuilder.system.atomic import atomic_path

CSS_NAME = "styles/book.css"
NAV_NAME = "nav.xhtml"
TOC_TITLE, LANDMARKS_TITLE = "目录", "导航"
# zlib's fastest level, not zipfile's default 6: Chinese text compresses almost as well at 1, in
# a fraction of the time. The bytes are the same for a given zlib, as a reproducible build
# compares them on one machine.
COMPRESS_LEVEL = 1
ZIP_EPOCH_MIN = 315532800  # 1980-01-01: the earliest time a zip entry can carry
VERTICAL_CSS = (
    "html { writing-mode: vertical-rl; -epub-writing-mode: vertical-rl; -webkit-writing-mode: "
    "vertical-rl; }\n"
)
APPLE_DISPLAY_OPTIONS = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n<display_options><platform name="*">'
    b'<option name="specified-fonts">true</option></platform></display_options>\n'
)
# EPUB Accessibility 1.1: what the book offers, in words a reading app can show (issue: a11y).
A11Y_SUMMARY = {
    "zh-Hant": "本書為純文字小說，含目錄、章節標題與正確的閱讀順序，無已知的危害。",
    "zh-TW": "本書為純文字小說，含目錄、章節標題與正確的閱讀順序，無已知的危害。",
    "zh-HK": "本書為純文字小說，含目錄、章節標題與正確的閱讀順序，無已知的危害。",
}
A11Y_SUMMARY_DEFAULT = "本书为纯文字小说，含目录、章节标题与正确的阅读顺序，无已知的危害。"
# Labels the renderers print besides the book's own text: an embedded font must have them too.
RENDERED_LABELS = "目录封面正文导航第章0123456789"


@dataclass(frozen=True)
class EpubOptions:
    """[epub] in book.toml: the book's own CSS (appended to ours), a CJK font cut down to the
    book's glyphs and embedded, vertical writing."""

    css: str
    embed_font: bool = False
    font: Path | None = None  # [epub] font, resolved inside the project
    vertical: bool = False
    summary: str | None = None  # the accessibility summary; None: ours in the book's language


class EpubRenderer:
    name = "epub"
    suffix = "epub"
    help = COMMANDS["epub"].help
    media_type = "application/epub+zip"
    shelf_label = "EPUB (most readers and apps)"  # what `serve`'s shelf tells a reader it is
    needs = None  # a program it cannot be made without
    flags = COMMANDS["epub"].flags
    shows_progress = False
    section = "epub"  # the kepub and the AZW3 read it too
    keys = {"css": str, "embed_font": bool, "font": str, "vertical": bool}
    markup: Markup | None = (
        None  # the content documents' markup: None, the plain one; the kepub's adds Kobo's
    )

    def options(self, config: Config) -> EpubOptions:
        table = config.section("epub")
        named = table.get("font")
        return EpubOptions(
            css=stylesheet(config, "epub"),
            embed_font=bool(table.get("embed_font")),
            font=config.inside(named, "epub.font") if named else None,
            vertical=bool(table.get("vertical")),
        )

    def render(self, book: Book, context: RenderContext) -> list[Diagnostic]:
        from bookbuilder.check.judges import epub_size

        data = epub_bytes(book, context.options, context.epoch, self.markup)
        with atomic_path(context.target) as tmp:
            tmp.write_bytes(data)
        return epub_size(context.target)

    def checks(self, path: Path, book: Book, full_a11y: bool = False) -> list:
        from bookbuilder.check.ace import ace_version, check_ace
        from bookbuilder.check.gate import Check
        from bookbuilder.check.judges import check_epub, epubcheck_version
        from bookbuilder.check.kindle import kindle_findings

        return [
            Check("EPUBCheck", path, lambda: check_epub(path), epubcheck_version()),
            Check("Send to Kindle", path, lambda: kindle_findings(path)),
            Check(
                "Ace" if full_a11y else "Ace (sample)",
                path,
                lambda: check_ace(path, full_a11y),
                ace_version(),
            ),
        ]


RENDERER = EpubRenderer()


def embedded_font(book: Book, options: EpubOptions) -> tuple[bytes, str] | None:
    """The CJK font (or [epub] font) cut down to the glyphs the book prints, and its family name."""
    from bookbuilder.render.fonts import find_font, serif_for, subset_font

    if not options.embed_font:
        return None
    path, index = (options.font, 0) if options.font else find_font(serif_for(book.meta.language))
    return subset_font(path, index, "".join(book.characters()) + RENDERED_LABELS), "BookBuilder Embedded"


def xhtml_document(title: str, body: str, language: str, css_href: str, head: str = "") -> bytes:
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" '
        f'lang="{language}" xml:lang="{language}">\n'
        f'<head>\n<meta charset="utf-8"/>\n<title>{text(title)}</title>\n'
        f'<link href="{css_href}" rel="stylesheet" type="text/css"/>\n{head}</head>\n'
        f"<body>\n{body}\n</body>\n</html>\n"
    ).encode()


class Markup:
    """How the content documents are marked up: the EPUB's plain markup. The kepub's adds Kobo's
    sentence spans and wrapper divs (bookbuilder.render.kepub)."""

    head = ""  # more of each document's <head>

    def inline(self):
        """For one document: (text, heading) → the markup inside a heading or paragraph; None: the
        text escaped."""
        return None

    def body(self, inner: str) -> str:
        return inner


PLAIN = Markup()  # the EPUB's own: the default of every function that takes a Markup


# Older Kobo and Adobe engines page slowly through long documents; calibre splits above 260 KB.
MAX_DOCUMENT = 256 * 1024  # bytes


def chapter_documents(
    chapter: Chapter, uid: str, level: int, language: str, markup: Markup = PLAIN
) -> list[tuple[str, bytes]]:
    """The chapter's documents, (id, XHTML): one, or where that would be over MAX_DOCUMENT, the
    first with the heading and continuations (`<id>_2`, …), divided at paragraph boundaries."""

    def document(body: str) -> bytes:
        return xhtml_document(chapter.title, markup.body(body), language, f"../{CSS_NAME}", markup.head)

    whole = document(chapter_section(chapter, uid, level=level, inline=markup.inline()))
    if len(whole) <= MAX_DOCUMENT:
        return [(uid, whole)]
    inline = markup.inline() or text
    blocks = [
        (b, len(p.encode("utf-8")) + 1) for b, p in zip(chapter.blocks, paragraphs(chapter.blocks, inline))
    ]
    budget = MAX_DOCUMENT - (len(document("")) + len(chapter.title.encode("utf-8")) * 3 + 1024)
    groups, size = [[]], 0
    for block, n in blocks:
        if groups[-1] and size + n > budget:
            groups.append([])
            size = 0
        groups[-1].append(block)
        size += n
    docs = [
        (
            uid,
            document(
                chapter_section(
                    replace(chapter, blocks=tuple(groups[0])), uid, level=level, inline=markup.inline()
                )
            ),
        )
    ]
    for k, group in enumerate(groups[1:], 2):
        inline = markup.inline()
        label = text(f"{chapter.title}（续）")
        body = (
            f'<section class="{chapter.kind} continued" id="{uid}_{k}" aria-label="{label}">\n'
            + "\n".join(paragraphs(group, inline))
            + "\n</section>"
        )
        docs.append((f"{uid}_{k}", document(body)))
    return docs


def epub_bytes(book: Book, options: EpubOptions, epoch: int, markup: Markup | None = None) -> bytes:
    """The whole EPUB, reproducible: the same book and epoch give the same bytes."""
    mtime = dt.datetime.fromtimestamp(epoch, dt.UTC).replace(tzinfo=None)
    eb = package(book, options, markup or PLAIN)
    held = _hold_contents(eb)
    raw = io.BytesIO()
    # Level 0: what ebooklib writes (the package document, the container) is small, and deflated
    # once, by _reproducible.
    epub.write_epub(
        raw, eb, {"mtime": mtime, "raise_exceptions": True, "epub3_pages": False, "compresslevel": 0}
    )
    return _reproducible(raw, held, eb.FOLDER_NAME, _zip_stamp(epoch), book.meta.language)


def _hold_contents(eb: epub.EpubBook) -> dict[str, bytes]:
    """The documents, font and images taken out of the book (file name → bytes), each left empty:
    ebooklib writes the package around them, and they are deflated once, into the final zip,
    instead of ebooklib deflating them and _reproducible inflating and deflating them again.
    ebooklib reads a plain item's content only to write it."""
    held = {}
    for item in eb.get_items():
        if type(item) in (epub.EpubItem, epub.EpubCover) and item.manifest and item.content:
            held[item.file_name] = item.get_content()
            item.set_content(b"")
    return held


def package(book: Book, options: EpubOptions, markup: Markup = PLAIN) -> epub.EpubBook:
    """The EpubBook: metadata, stylesheet, font, cover page, title page, navigation, chapters."""
    eb = epub.EpubBook()
    _metadata(eb, book.meta, options)
    _stylesheet(eb, book, options)
    documents = _Documents(eb, markup, book.meta.language)
    spine, guide = _cover_page(eb, book, documents)
    title_page = _title_page(book, documents)
    spine += [title_page, "nav"]
    body, toc = _body(book, documents)
    spine += body
    first = body[0] if body else title_page
    guide.append({"type": "toc", "href": NAV_NAME, "title": TOC_TITLE})
    guide.append({"type": "text", "href": first.file_name, "title": "正文"})
    eb.guide = guide
    _navigation(eb, book, toc, guide)
    eb.spine = spine
    return eb


def _metadata(eb: epub.EpubBook, meta: Meta, options: EpubOptions) -> None:
    """Dublin Core, the series (EPUB 3 collections; calibre, KOReader and Kobo also read calibre's
    own pair) and the accessibility metadata."""
    eb.set_identifier(meta.identifier)
    eb.set_title(meta.title)
    eb.set_language(meta.language)
    eb.add_author(meta.author)
    for name, value in (
        ("description", meta.description),
        ("publisher", meta.publisher),
        ("date", meta.date),
    ):
        if value:
            eb.add_metadata("DC", name, value)
    for subject in meta.subjects:
        eb.add_metadata("DC", "subject", subject)
    if meta.series:
        name, position = meta.series
        eb.add_metadata(
            None, "meta", name, OrderedDict([("property", "belongs-to-collection"), ("id", "series")])
        )
        eb.add_metadata(
            None, "meta", "series", OrderedDict([("refines", "#series"), ("property", "collection-type")])
        )
        eb.add_metadata(
            None, "meta", str(position), OrderedDict([("refines", "#series"), ("property", "group-position")])
        )
        eb.add_metadata(None, "meta", "", OrderedDict([("name", "calibre:series"), ("content", name)]))
        eb.add_metadata(
            None, "meta", "", OrderedDict([("name", "calibre:series_index"), ("content", str(position))])
        )
    _accessibility(eb, options.summary or A11Y_SUMMARY.get(meta.language, A11Y_SUMMARY_DEFAULT))


def _stylesheet(eb: epub.EpubBook, book: Book, options: EpubOptions) -> None:
    """The stylesheet, after vertical writing and the embedded font where the book asks for them."""
    css = options.css
    if options.vertical:
        css = VERTICAL_CSS + css
        eb.set_direction("rtl")  # page-progression-direction="rtl" on the spine
    font = embedded_font(book, options)
    if font is not None:
        data, family = font
        eb.add_item(
            epub.EpubItem(uid="font", file_name="fonts/book.otf", media_type="font/otf", content=data)
        )
        eb.add_item(
            epub.EpubItem(
                uid="apple-display-options",
                file_name="META-INF/com.apple.ibooks.display-options.xml",
                content=APPLE_DISPLAY_OPTIONS,
                manifest=False,
            )
        )
        css = (
            f'@font-face {{ font-family: "{family}"; src: url(../fonts/book.otf); }}\n'
            f'body {{ font-family: "{family}", serif; }}\n'
        ) + css
    eb.add_item(
        epub.EpubItem(uid="css", file_name=CSS_NAME, media_type="text/css", content=css.encode("utf-8"))
    )


class _Documents:
    """Adds the content documents to the book, in the book's markup."""

    def __init__(self, eb: epub.EpubBook, markup: Markup, language: str):
        self.eb, self.markup, self.language = eb, markup, language

    def document(self, uid: str, content: bytes) -> epub.EpubItem:
        # A finished XHTML document, not an EpubHtml: ebooklib would re-parse and re-serialize each
        # chapter with lxml and drop our <link> on the way.
        item = epub.EpubItem(
            uid=uid, file_name=f"text/{uid}.xhtml", media_type="application/xhtml+xml", content=content
        )
        self.eb.add_item(item)
        return item

    def page(self, uid: str, title: str, body: str) -> epub.EpubItem:
        markup = self.markup
        return self.document(
            uid, xhtml_document(title, markup.body(body), self.language, f"../{CSS_NAME}", markup.head)
        )


def _cover_page(eb: epub.EpubBook, book: Book, documents: _Documents) -> tuple[list, list[dict]]:
    """The cover image and its page, first in the spine: (spine, guide) so far."""
    cover, meta = book.cover, book.meta
    if cover is None:
        return [], []
    image_name = f"images/cover.{'jpg' if cover.kind == 'jpeg' else 'png'}"
    cover_image = epub.EpubCover(file_name=image_name)
    cover_image.content = cover.data
    cover_image.media_type = cover.media_type
    eb.add_item(cover_image)
    eb.add_metadata(None, "meta", "", OrderedDict([("name", "cover"), ("content", "cover-img")]))
    alt = text(f"封面：{meta.title}，{meta.author}")
    cover_page = documents.page(
        "cover",
        meta.title,
        (
            f'<section epub:type="cover" class="cover"><img src="../{image_name}" alt="{alt}" '
            'class="cover-image"/></section>'
        ),
    )
    return [cover_page], [{"type": "cover", "href": cover_page.file_name, "title": "封面"}]


def _title_page(book: Book, documents: _Documents) -> epub.EpubItem:
    meta = book.meta
    inline = documents.markup.inline() or (lambda value, heading=False: text(value))
    return documents.page(
        "titlepage",
        meta.title,
        (
            f'<section epub:type="titlepage" class="titlepage"><h1>{inline(meta.title, True)}</h1>'
            f"<p>{inline(meta.author)}</p></section>"
        ),
    )


def _body(book: Book, documents: _Documents) -> tuple[list[epub.EpubItem], list[TocEntry]]:
    """The volume pages and chapters' documents in reading order, and the table of contents."""
    markup, language = documents.markup, book.meta.language
    spine: list[epub.EpubItem] = []
    toc: list[TocEntry] = []
    chapter_names, volume_names = document_names(book)
    names = iter(chapter_names)
    for volume, volume_name in zip(book.volumes, volume_names):
        items, volume_item = [], None
        level = 2 if volume.title else 1
        if volume.title:
            volume_item = documents.page(
                volume_name, volume.title, volume_section(volume.title, volume_name, markup.inline())
            )
            spine.append(volume_item)
        for chapter in volume.chapters:
            uid = next(names)
            pieces = [
                documents.document(part, content)
                for part, content in chapter_documents(chapter, uid, level, language, markup)
            ]
            spine += pieces
            items.append(TocEntry(chapter.title, pieces[0].file_name, uid))
        if volume_item is not None:
            toc.append(TocEntry(volume.title, volume_item.file_name, volume_item.id, tuple(items)))
        else:
            toc.extend(items)
    return spine, toc


def _navigation(eb: epub.EpubBook, book: Book, toc: list[TocEntry], guide: list[dict]) -> None:
    """The tables of contents as finished documents (bookbuilder.render.navigation), as ebooklib
    would place them: the NCX, then the navigation document with properties="nav"."""
    meta = book.meta
    eb.add_item(
        epub.EpubItem(
            uid="ncx",
            file_name="toc.ncx",
            media_type="application/x-dtbncx+xml",
            content=ncx_document(meta.identifier, meta.title, toc, 2 if book.has_volume_titles else 1),
        )
    )
    nav = epub.EpubItem(
        uid="nav",
        file_name=NAV_NAME,
        media_type="application/xhtml+xml",
        content=nav_document(TOC_TITLE, meta.language, CSS_NAME, toc, LANDMARKS_TITLE, guide),
    )
    nav.properties = ["nav"]
    eb.add_item(nav)


def _reproducible(raw: io.BytesIO, held: dict[str, bytes], folder: str, stamp: tuple, language: str) -> bytes:
    """ebooklib's zip, entry by entry in its order, the held contents put back (`folder`/name),
    with one time, mode 0644 and Unix as the system on every entry (the repro-zipfile package does
    the same, but takes the time only from the environment), and xml:lang on the OPF package,
    which ebooklib cannot be told."""
    out = io.BytesIO()
    with zipfile.ZipFile(raw) as source, zipfile.ZipFile(out, "w") as target:
        for entry in source.infolist():
            name = entry.filename
            inside = name.removeprefix(folder + "/") if name.startswith(folder + "/") else None
            data = held.pop(inside) if inside in held else _patch(name, source.read(entry), language)
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.compress_type = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            target.writestr(info, data, compresslevel=COMPRESS_LEVEL)
    if held:  # ebooklib wrote no entry for these: a change in ebooklib that would lose them
        raise RuntimeError(f"ebooklib left out {sorted(held)[:3]}")
    return out.getvalue()


def _zip_stamp(epoch: int) -> tuple:
    return dt.datetime.fromtimestamp(max(epoch, ZIP_EPOCH_MIN), dt.UTC).timetuple()[:6]


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
