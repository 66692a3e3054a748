"""Book → PDF with WeasyPrint: cover, title page, table of contents with page numbers, running
header, page numbers, one outline entry per chapter (volume › chapter), a real CJK font.

This module is the renderer: its [pdf] table and its options. bookbuilder.render.pdf_documents
makes the HTML of its documents; bookbuilder.render.pdf_pages lays out the chunks on several
processes and puts them together.
"""

from __future__ import annotations

from pathlib import Path

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Book
from bookbuilder.render import COMMANDS, RenderContext, default_css
from bookbuilder.render.pdf_documents import (
    PROJECT_URI,
    PdfOptions,
    css_warnings,
    first_fonts,
    project_url,
)
from bookbuilder.settings import Config
from bookbuilder.system.atomic import atomic_path

# [pdf] page_size → the CSS page size
PAGE_SIZES = {"A5": "A5", "A6": "A6", "B6": "125mm 176mm", "6in×9in": "6in 9in", "ereader": "90mm 122mm"}
VARIANTS = ("pdf/a-3b", "pdf/ua-1")  # [pdf] pdf_variant: tagged PDFs WeasyPrint writes


class PdfRenderer:
    name = "pdf"
    suffix = "pdf"
    help = COMMANDS["pdf"].help
    media_type = "application/pdf"
    shelf_label = "PDF"
    needs = None
    flags = COMMANDS["pdf"].flags
    shows_progress = True  # the CLI shows a bar fed by context.progress
    section = "pdf"
    keys = {
        "css": str,
        "page_size": tuple(PAGE_SIZES),
        "font": str,
        "jobs": int,
        "chunk_chapters": int,
        "pdf_variant": VARIANTS,
        "recto": bool,
    }

    def options(self, config: Config) -> PdfOptions:
        table = config.section("pdf")
        named = table.get("font")
        font = config.inside(named, "pdf.font") if named else None
        root = PROJECT_URI
        ours = (
            default_css("pdf") + f"@page {{ size: {PAGE_SIZES.get(table.get('page_size', 'A5'), 'A5')}; }}\n"
        )
        if font is not None:
            url = project_url(font, config.root)
            ours += (
                f'@font-face {{ font-family: "BookBuilder Font"; src: url("{url}"); }}\n'
                'html { font-family: "BookBuilder Font", "Noto Serif CJK SC", serif; }\n'
            )
        sheets = [(ours, root, "bookbuilder/styles/pdf.css")]
        own = config.css_path("pdf")
        if own is not None:  # its url()s resolve next to it, as its author expects
            sheets.append(
                (own.read_text("utf-8"), project_url(own.parent, config.root), _shown(own, config.root))
            )
        return PdfOptions(
            css=tuple(sheets),
            font_files=((font, 0),) if font else (),
            jobs=table.get("jobs"),
            chunk_chapters=table.get("chunk_chapters", 0),
            variant=table.get("pdf_variant"),
            recto=bool(table.get("recto")),
        )

    def render(self, book: Book, context: RenderContext) -> list[Diagnostic]:
        from bookbuilder.render.fonts import check_coverage
        from bookbuilder.render.pdf_pages import render_one_document, render_pdf_bytes

        options: PdfOptions = context.options
        check_coverage(book, list(first_fonts(book, options)))
        notes = css_warnings(options.css, context.config.root)
        if options.variant:  # tagged variants need one document: a merged file would lose the structure tree
            data, found = render_one_document(
                book, options, context, pdf_variant=options.variant, pdf_tags=True
            )
        else:
            data, found = render_pdf_bytes(book, options, context)
        with atomic_path(context.target) as tmp:
            tmp.write_bytes(data)
        return notes + found

    def checks(self, path: Path, book: Book, full_a11y: bool = False) -> list:
        from bookbuilder.check.gate import Check
        from bookbuilder.check.judges import check_pdf

        chapters = sum(1 for _ in book.chapters())  # what the read-back's result depends on besides the bytes
        return [Check("PDF read-back", path, lambda: check_pdf(path, book), f"{chapters} chapters")]


RENDERER = PdfRenderer()


def _shown(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve().parent))
    except ValueError:
        return str(path)
