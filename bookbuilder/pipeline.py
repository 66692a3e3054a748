"""The only place where the stages are wired together:

book.toml → Config; source/ → ordered files → decode → parse → Book → normalize → Book;
Book → lint diagnostics; Book → EPUB / PDF; outputs → output checks.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from bookbuilder.config import DEFAULT_AUTHOR, Config, load_config, stable_identifier
from bookbuilder.decode import decode_chapter, encoding_override
from bookbuilder.diagnostics import BookError, Diagnostic
from bookbuilder.model import Book, Location, Meta, SourceFile
from bookbuilder.normalize import normalize_book
from bookbuilder.parse import split_sections
from bookbuilder.source import discover
from bookbuilder.structure import Assembly, file_sections_to_chapters, finish

DEFAULT_EPOCH = 1700000000  # 2023-11-14: builds are reproducible even without SOURCE_DATE_EPOCH


@dataclass(frozen=True)
class Loaded:
    config: Config
    book: Book
    diagnostics: tuple[Diagnostic, ...]


def source_date_epoch() -> int:
    value = os.environ.get("SOURCE_DATE_EPOCH", "")
    return int(value) if value.strip().isdigit() else DEFAULT_EPOCH


def load_book(path: Path | str) -> Loaded:
    """Read, decode, parse and normalize the book at `path`; lint it."""
    from bookbuilder.validate import lint

    config = load_config(Path(path))
    groups = discover(config.source, config.order)
    whole_novel = config.source.is_file()
    custom = re.compile(config.heading_pattern) if config.heading_pattern else None
    notes: list[Diagnostic] = []
    files: list[SourceFile] = []
    asm = Assembly()
    sample = []
    for group in groups:
        if group.title is not None:
            asm.open_volume(group.title, Location(_shown(group.files[0].parent, config)))
        for file in group.files:
            shown = _shown(file, config)
            try:
                data = file.read_bytes()
            except OSError as e:
                raise BookError("E004", f"cannot read: {e.strerror}", shown) from None
            rel = file.relative_to(config.source).as_posix() if not whole_novel else file.name
            decoded = decode_chapter(data, shown, encoding=encoding_override(rel, config.encoding, config.encodings),
                                     errors=config.errors)
            notes += decoded.diagnostics
            if decoded.is_empty:
                notes.append(Diagnostic("W101", "empty file skipped", Location(shown)))
                continue
            files.append(SourceFile(shown, decoded.encoding, decoded.method))
            if len(sample) < 20:
                sample.append(decoded.text[:500])
            sections, parse_notes = split_sections(decoded.text, shown, custom)
            notes += parse_notes
            file_sections_to_chapters(asm, shown, sections, whole_novel=whole_novel,
                                      volume_from_folder=group.title is not None)
    if not files:
        raise BookError("E103", "every chapter file is empty", str(config.source))
    volumes = finish(asm)
    title = asm.preamble.get("title") if not config.has_config and asm.preamble.get("title") else config.title
    author = config.author or asm.preamble.get("author") or DEFAULT_AUTHOR
    meta = Meta(
        title=title, author=author, language=config.language or guess_language("".join(sample)),
        identifier=config.identifier or stable_identifier(title, author), description=config.description,
        publisher=config.publisher, date=config.date, subjects=config.subjects,
    )
    book = normalize_book(Book(meta, volumes, tuple(files)), config.normalize)
    return Loaded(config, book, tuple(notes) + tuple(lint(book)))


def _shown(path: Path, config: Config) -> str:
    """Paths in messages are relative to the current folder when they can be."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


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


def build_epub(loaded: Loaded, output: Path | None = None) -> Path:
    from bookbuilder.render.epub import write_epub

    target = output_path(loaded.config, loaded.book, "epub", output)
    write_epub(loaded.book, book_css(loaded.config, "epub"), target, source_date_epoch())
    return target


def build_pdf(loaded: Loaded, output: Path | None = None) -> Path:
    from bookbuilder.render.pdf import write_pdf

    target = output_path(loaded.config, loaded.book, "pdf", output)
    write_pdf(loaded.book, book_css(loaded.config, "pdf"), target, source_date_epoch(), loaded.config.root)
    return target


def check_outputs(loaded: Loaded) -> list[Diagnostic]:
    """Check the artifacts in build/ that exist: EPUB through EPUBCheck, PDF read back."""
    from bookbuilder.validate import check_epub, check_pdf

    found = []
    epub_path, pdf_path = output_path(loaded.config, loaded.book, "epub"), output_path(loaded.config, loaded.book, "pdf")
    if epub_path.exists():
        found += check_epub(epub_path)
    if pdf_path.exists():
        found += check_pdf(pdf_path, loaded.book)
    return found

