"""The only place where the stages are wired together:

book.toml → Config; source/ → ordered files; per file (bookbuilder.reading, on every core):
decode → parse → parts → normalize + lint; parts → structure → Book; Book → EPUB / PDF;
outputs → output checks.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from pathlib import Path
from typing import Callable

from bookbuilder.config import DEFAULT_AUTHOR, Config, load_config, stable_identifier
from bookbuilder.decode import decode_chapter, encoding_override
from bookbuilder.diagnostics import REMOVED, BookError, Diagnostic
from bookbuilder.model import Book, Cover, Location, Meta, SourceFile
from bookbuilder import meta
from bookbuilder.fixes import unmatched
from bookbuilder.normalize import left_out, normalizer
from bookbuilder.parallel import fork_imap
from bookbuilder.reading import (FileToRead, Normalized, normalized_parts, pack_read, read_and_normalize, read_file,
                                 sample_of_first_files, unpack_read)
from bookbuilder.source import discover
from bookbuilder.structure import Assembly, finish

DEFAULT_EPOCH = 1700000000  # 2023-11-14: builds are reproducible even without SOURCE_DATE_EPOCH


@dataclass(frozen=True)
class Loaded:
    config: Config
    book: Book
    diagnostics: tuple[Diagnostic, ...]


def source_date_epoch() -> int:
    value = os.environ.get("SOURCE_DATE_EPOCH", "")
    return int(value) if value.strip().isdigit() else DEFAULT_EPOCH


def load_book(path: Path | str, jobs: int | None = None, meanwhile: Callable[[], None] | None = None) -> Loaded:
    """Read, decode, parse and normalize the book at `path`; lint it. Chapters are normalized
    before they are put together (only a headless chapter's title depends on the others), so a
    large book's files go all the way to normalized, linted chapters on `jobs` processes (default:
    every core; bookbuilder.parallel). A whole-novel file is read here, then its chapters are
    normalized on `jobs` processes. `meanwhile` is work for this process while the others start
    (warm_up_epub)."""
    from bookbuilder.validate import lint

    config = load_config(Path(path))
    groups = discover(config.source, config.order)
    whole_novel = config.source.is_file()
    custom = re.compile(config.heading_pattern) if config.heading_pattern else None
    cwd = os.getcwd()
    specs = [FileToRead(file, _shown(file, cwd), _encoding(file, config, whole_novel), config.errors, custom,
                        config.title_junk, config.fixes, config.toc_rules)
             for group in groups for file in group.files]
    if whole_novel:
        read = read_file(specs[0], whole_novel=True)
        language = config.language or guess_language(read.sample)
        rules = normalizer(config.normalize, language, config.replace_rules, (config.title or "", config.source.name))
        reads = [normalized_parts(read, rules, jobs, meanwhile)]
    else:
        language = config.language or guess_language(sample_of_first_files(specs))
        rules = normalizer(config.normalize, language, config.replace_rules, (config.title or "", config.source.name))
        # Streamed in reading order: the files are put together here while the rest are read.
        reads = fork_imap(partial(read_and_normalize, rules), specs, jobs, pack=pack_read, unpack=unpack_read,
                          meanwhile=meanwhile)
    notes: list[Diagnostic] = []
    files: list[SourceFile] = []
    normalized: list[Normalized] = []
    asm = Assembly()
    previous = None
    # reads first in zip, so that it is run to its end (where the workers are reaped)
    for read, group in zip(reads, [group for group in groups for _ in group.files]):
        if group is not previous and group.title is not None:
            asm.open_volume(group.title, Location(_shown(group.files[0].parent, cwd)))
        previous = group
        notes += read.notes
        if read.source is None:
            continue
        files.append(read.source)
        normalized += [p for p in read.parts if isinstance(p, Normalized)]
        asm.take([p.chapter if isinstance(p, Normalized) else p for p in read.parts],
                 volume_from_folder=group.title is not None)
    if not files:
        raise BookError("E103", "every chapter file is empty", str(config.source))
    if config.fixes and (fix := unmatched(config.fixes, notes)) is not None:
        what = f"at = {fix.at_file}:{fix.at_line}" if fix.at_file else f"title = {fix.title!r}"
        raise BookError("E009", f"[[fix]] #{fix.index} ({what}) matches no line of the book", Location(str(config.root / "book.toml"), fix.line))
    volumes = finish(asm, polish=rules.title)
    title, author = config.title or "", config.author or DEFAULT_AUTHOR  # until meta.apply chooses
    placeholder = Meta(
        title=title, author=author, language=language, description=config.description,
        identifier=config.identifier or stable_identifier(title, author), publisher=config.publisher,
        date=config.date, subjects=config.subjects,
    )
    raw = Book(placeholder, volumes, tuple(files))
    pairs = [(chapter, n.counts) for chapter, n in zip(raw.chapters(), normalized)]
    drop = left_out(pairs)
    book = rules.book(raw, pairs, drop)
    kept = [n.findings for i, n in enumerate(normalized) if i not in drop]
    gone = [d for i, n in enumerate(normalized) if i in drop for d in n.findings if d.code == REMOVED]
    book, chosen, intro_gone = meta.apply(book, config, rules.title, _info_files(config, cwd))
    if intro_gone:
        gone += [d for d in kept.pop(0) if d.code == REMOVED]
    said = Diagnostic("I001", "title 《{}》 ({}), author {} ({})".format(
        chosen["title"].value, chosen["title"].source, chosen["author"].value, chosen["author"].source))
    return Loaded(config, book, tuple(notes) + (said,) + tuple(gone) + tuple(lint(book, kept)))


def _info_files(config: Config, cwd: str) -> list[tuple[str, list[tuple[int, str]]]]:
    """An info.txt / 简介.txt beside the chapters (folder books): its path and numbered lines."""
    if config.source.is_file():
        return []
    found = []
    for name in sorted(p.name for p in config.source.iterdir() if p.name.lower() in meta.info_file_names()):
        path = config.source / name
        shown = _shown(path, cwd)
        try:
            text = decode_chapter(path.read_bytes(), shown).text
        except (OSError, BookError):
            continue
        found.append((shown, list(enumerate(text.split("\n"), 1))))
    return found


def _encoding(file: Path, config: Config, whole_novel: bool) -> str | None:
    if not config.encodings:  # no per-file overrides: spare 2,000 relative_to calls
        return config.encoding
    relpath = file.name if whole_novel else file.relative_to(config.source).as_posix()
    return encoding_override(relpath, config.encoding, config.encodings)


def _shown(path: Path, cwd: str) -> str:
    """Paths in messages are relative to the current folder (`cwd`) when they can be."""
    parent, name = os.path.split(path)  # on the string: a Path's .parent builds another Path
    folder = _shown_folder(parent, cwd)  # one relpath per folder, not per file
    if folder is None:
        return str(path)
    return name if folder == "." else os.path.join(folder, name)


@lru_cache(maxsize=64)
def _shown_folder(folder: str, cwd: str) -> str | None:
    try:
        return os.path.relpath(folder, cwd)
    except ValueError:  # another drive (Windows)
        return None


def guess_language(sample: str) -> str:
    """zh-Hant when more than 5 % of the Han characters change under OpenCC t2s (RULES §2.7)."""
    han = [c for c in sample if "\u4e00" <= c <= "\u9fff"][:3000]
    if not han:
        return "zh-Hans"
    import opencc

    simplified = opencc.OpenCC("t2s.json").convert("".join(han))
    changed = sum(a != b for a, b in zip(han, simplified))
    return "zh-Hant" if changed > 0.05 * len(han) else "zh-Hans"


def output_path(config: Config, book: Book, fmt: str, override: Path | None = None) -> Path:
    if override is not None:
        return Path(override)
    return config.build_dir / f"{slug(config, book)}.{fmt}"


def slug(config: Config, book: Book) -> str:
    if config.output_name:
        return config.output_name
    for candidate in (book.meta.title, config.root.resolve().name if config.has_config or config.source.is_dir() else config.source.stem):
        ascii_slug = re.sub(r"[^a-z0-9]+", "-", candidate.lower()).strip("-")
        if ascii_slug:
            return ascii_slug
    return "book"


def book_css(config: Config, fmt: str) -> str:
    from bookbuilder.render.epub import default_css

    css = default_css(fmt)
    own = config.css_path(fmt)
    if own is not None:
        css += "\n/* " + own.name + " */\n" + own.read_text("utf-8")
    return css


def with_cover(loaded: Loaded) -> tuple[Book, list[Diagnostic]]:
    """The book with its cover: the image book.toml names (checked), or a generated one."""
    from bookbuilder.render.cover import generate_cover, load_cover

    if loaded.config.cover is not None:
        data, kind, notes = load_cover(loaded.config.cover)
        return replace(loaded.book, cover=Cover(data, kind)), notes
    return replace(loaded.book, cover=Cover(generate_cover(loaded.book.meta), "jpeg", generated=True)), []


# Labels the renderers print besides the book's own text.
RENDERED_LABELS = "目录封面正文导航第章0123456789"


def embedded_font(loaded: Loaded) -> tuple[bytes, str] | None:
    """[epub] embed_font = true: the CJK font (or [epub] font) cut down to the book's glyphs."""
    from bookbuilder.render.fonts import find_font, serif_for, subset_font

    if not loaded.config.epub.get("embed_font"):
        return None
    named = loaded.config.epub.get("font")
    book = loaded.book
    path, index = (loaded.config.inside(named, "epub.font"), 0) if named else find_font(serif_for(book.meta.language))
    return subset_font(path, index, "".join(book.characters()) + RENDERED_LABELS), "BookBuilder Embedded"


def warm_up_epub() -> None:
    """Import what the rest of the build needs (ebooklib, lxml, Pillow, hashlib: about 55 ms), for
    load_book to do while the book's files are read on other processes."""
    import importlib

    for module in ("bookbuilder.render.epub", "bookbuilder.render.cover", "PIL.ImageDraw", "PIL.ImageFont",
                   "hashlib"):  # hashlib: config.stable_identifier, right after the load
        importlib.import_module(module)


def build_epub(loaded: Loaded, output: Path | None = None, jobs: int | None = None) -> tuple[Path, list[Diagnostic]]:
    """The EPUB; a large book's chapters are rendered on `jobs` processes (default: every core)."""
    from bookbuilder.render.epub import write_epub

    target = output_path(loaded.config, loaded.book, "epub", output)
    notes: list[Diagnostic] = []

    def make_cover() -> Cover | None:  # while the chapters render on other processes
        book, found = with_cover(loaded)
        notes.extend(found)
        return book.cover

    write_epub(loaded.book, book_css(loaded.config, "epub"), target, source_date_epoch(), make_cover=make_cover,
               vertical=bool(loaded.config.epub.get("vertical")), font=embedded_font(loaded), jobs=jobs)
    from bookbuilder.validate import epub_size

    return target, notes + epub_size(target)


def build_pdf(loaded: Loaded, output: Path | None = None, jobs: int | None = None, progress=None) -> tuple[Path, list[Diagnostic]]:
    """The PDF, rendered in chunks on `jobs` processes (default: [pdf] jobs, else every core)."""
    from bookbuilder.render.fonts import check_coverage
    from bookbuilder.render.pdf import PdfPlan, render_one_document, write_pdf

    config = loaded.config
    target = output_path(config, loaded.book, "pdf", output)
    book, notes = with_cover(loaded)
    css = pdf_stylesheets(config)
    check_coverage(book, _pdf_font_files(config, book.meta.language))
    plan = PdfPlan(css=css, root=config.root, epoch=source_date_epoch(),
                   jobs=jobs or config.pdf.get("jobs") or os.cpu_count() or 1,
                   chunk_chapters=config.pdf.get("chunk_chapters", 0), progress=progress)
    variant = config.pdf.get("pdf_variant")
    if variant:  # tagged variants need one document: a merged file would lose the structure tree
        from bookbuilder.atomic import atomic_path

        data = render_one_document(book, plan, pdf_variant=variant, pdf_tags=True)
        with atomic_path(target) as tmp:
            tmp.write_bytes(data)
    else:
        write_pdf(book, plan, target)
    return target, notes


def pdf_stylesheets(config: Config) -> tuple[tuple[str, str], ...]:
    """The defaults (with page size and font), then the book's own CSS, whose url()s resolve
    next to the CSS file as its author expects."""
    from bookbuilder.render.epub import default_css
    from bookbuilder.render.pdf import page_css

    root = config.root.resolve().as_uri() + "/"
    sheets = [(default_css("pdf") + page_css(config.pdf.get("page_size", "A5")) + pdf_font_css(config), root)]
    own = config.css_path("pdf")
    if own is not None:
        sheets.append((own.read_text("utf-8"), own.resolve().parent.as_uri() + "/"))
    return tuple(sheets)


def pdf_font_css(config: Config) -> str:
    named = config.pdf.get("font")
    if not named:
        return ""
    path = config.inside(named, "pdf.font")
    return (f'@font-face {{ font-family: "BookBuilder Font"; src: url("{path.as_uri()}"); }}\n'
            'html { font-family: "BookBuilder Font", "Noto Serif CJK SC", serif; }\n')


def _pdf_font_files(config: Config, language: str):
    """The font files the PDF's stylesheet puts first, for the glyph coverage check."""
    from bookbuilder.render.fonts import find_font, serif_for

    named = config.pdf.get("font")
    return [(config.inside(named, "pdf.font"), 0)] if named else [find_font(serif_for(language), "Regular")]


def fresh_outputs(loaded: Loaded) -> bool:
    """build/ holds artifacts newer than every source file and book.toml: worth checking too."""
    config = loaded.config
    artifacts = [p for p in (output_path(config, loaded.book, "epub"), output_path(config, loaded.book, "pdf")) if p.exists()]
    if not artifacts:
        return False
    sources = [Path(f.path) for f in loaded.book.files] + [config.root / "book.toml"]
    newest = max((p.stat().st_mtime for p in sources if p.exists()), default=0)
    return all(a.stat().st_mtime >= newest for a in artifacts)


def check_outputs(loaded: Loaded) -> list[Diagnostic]:
    """Check the artifacts in build/ that exist: the EPUB through EPUBCheck and Ace by DAISY,
    the PDF read back."""
    from bookbuilder.ace import check_ace
    from bookbuilder.validate import check_epub, check_pdf

    found = []
    epub_path, pdf_path = output_path(loaded.config, loaded.book, "epub"), output_path(loaded.config, loaded.book, "pdf")
    if epub_path.exists():
        found += check_epub(epub_path)
        found += check_ace(epub_path)
    if pdf_path.exists():
        found += check_pdf(pdf_path, loaded.book)
    return found

