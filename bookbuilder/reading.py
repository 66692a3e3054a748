"""One source file → the parts of the book it holds, normalized and linted: the per-file work
that pipeline.load_book spreads over processes (bookbuilder.parallel), and the plain form in
which a file's result crosses back from another process."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from bookbuilder.decode import Decoded, decode_chapter
from bookbuilder.diagnostics import BookError, Diagnostic
from bookbuilder.model import Chapter, Location, SourceFile, apply_delta, chapter_delta, chapter_from_wire, chapter_to_wire
from bookbuilder.normalize import Normalizer
from bookbuilder.parallel import fork_map
from bookbuilder.parse import split_sections
from bookbuilder.structure import Part, file_parts

LANGUAGE_SAMPLE_FILES = 20


@dataclass(frozen=True)
class FileToRead:
    path: Path
    shown: str  # the path as messages show it
    encoding: str | None
    errors: str
    heading_pattern: re.Pattern | None  # book.toml's, compiled once
    title_junk: tuple[str, ...] = ()  # book.toml's debris patterns for heading lines
    fixes: tuple = ()  # book.toml's [[fix]] entries
    toc_rules: tuple = ()  # Legado txtTocRule rules from [source] toc_rules


@dataclass(frozen=True)
class Normalized:
    """One chapter after normalization: the chapter, rule → paragraphs changed, its lint findings."""

    chapter: Chapter
    counts: dict[str, int]
    findings: list[Diagnostic]


@dataclass(frozen=True)
class FileRead:
    source: SourceFile | None  # None: the file is empty
    notes: tuple[Diagnostic, ...]
    sample: str  # the start of the text, for guessing the language
    parts: tuple[Part | Normalized, ...]  # its chapters as Normalized once normalized


def _decode_file(spec: FileToRead) -> Decoded:
    try:
        with open(spec.path, "rb", buffering=0) as f:  # unbuffered: half the time of read_bytes for 2,000 small files
            data = f.read()
    except OSError as e:
        raise BookError("E004", f"cannot read: {e.strerror}", spec.shown) from None
    return decode_chapter(data, spec.shown, encoding=spec.encoding, errors=spec.errors)


def read_file(spec: FileToRead, whole_novel: bool = False) -> FileRead:
    """decode → parse → the parts of the book the file holds."""
    decoded = _decode_file(spec)
    if decoded.is_empty:
        return FileRead(None, decoded.diagnostics + (Diagnostic("W101", "empty file skipped", Location(spec.shown)),), "", ())
    sections, notes = split_sections(decoded.text, spec.shown, spec.heading_pattern, spec.title_junk, spec.fixes,
                                     spec.toc_rules)
    parts = file_parts(spec.shown, sections, whole_novel=whole_novel)
    notes += _divided(spec.shown, sections, parts, whole_novel)
    return FileRead(SourceFile(spec.shown, decoded.encoding, decoded.method, decoded.replaced), decoded.diagnostics + tuple(notes),
                     decoded.text[:500], tuple(parts))


def _divided(path: str, sections, parts, whole_novel: bool) -> list[Diagnostic]:
    """W307 where structure.divide cut the text into parts: no headings at all, or a chapter too long."""
    pieces = [p for p in parts if isinstance(p, Chapter) and p.kind == "part"]
    if whole_novel and all(s.heading is None for s in sections):
        return [Diagnostic("W307", f"no chapter headings found: the text was divided into {len(pieces) + 1} parts; "
                                   "if the book has headings, set [source] heading_pattern in book.toml", Location(path))]
    return [Diagnostic("W307", f"chapter {p.title.rsplit('（', 1)[0]!r} is over 100,000 characters with no heading inside: "
                               "divided into parts", p.at) for p in pieces if p.title.endswith("（二）")]


def sample_of_first_files(specs: list[FileToRead]) -> str:
    """The start of the first 20 files with text, to guess the book's language from before the
    files are spread over processes (they are decoded again there: 1 % of a large book)."""
    sample = []
    for spec in specs:
        decoded = _decode_file(spec)
        if not decoded.is_empty:
            sample.append(decoded.text[:500])
            if len(sample) == LANGUAGE_SAMPLE_FILES:
                break
    return "".join(sample)


def _normalize_and_lint(rules: Normalizer, chapter: Chapter) -> Normalized:
    from bookbuilder.validate import lint_chapter

    new, counts, removed = rules.chapter(chapter)
    return Normalized(new, counts, removed + lint_chapter(new))


def read_and_normalize(rules: Normalizer, spec: FileToRead) -> FileRead:
    """read_file, then every chapter normalized and linted."""
    read = read_file(spec)
    return replace(read, parts=tuple(_normalize_and_lint(rules, p) if isinstance(p, Chapter) else p for p in read.parts))


def normalized_parts(read: FileRead, rules: Normalizer, jobs: int | None, meanwhile=None) -> FileRead:
    """A whole novel's chapters normalized on `jobs` processes; only the changes travel back."""
    chapters = [p for p in read.parts if isinstance(p, Chapter)]
    done = iter(fork_map(partial(_normalize_and_lint, rules), chapters, jobs, meanwhile=meanwhile,
                         pack=lambda c, n: (chapter_delta(c, n.chapter), n.counts, n.findings),
                         unpack=lambda c, w: Normalized(apply_delta(c, w[0]), w[1], w[2])))
    return replace(read, parts=tuple(next(done) if isinstance(p, Chapter) else p for p in read.parts))


def pack_read(spec: FileToRead, read: FileRead) -> tuple:
    """A file read on another process, as plain data (bookbuilder.parallel): chapters as
    model.chapter_to_wire, diagnostics as tuples (a fifth of the time of pickled dataclasses)."""
    source = read.source and (read.source.path, read.source.encoding, read.source.method, read.source.replaced)
    parts = tuple((chapter_to_wire(p.chapter), p.counts, _diagnostics_to_wire(p.findings)) if isinstance(p, Normalized) else p
                  for p in read.parts)
    return source, _diagnostics_to_wire(read.notes), parts


def unpack_read(spec: FileToRead, wire: tuple) -> FileRead:
    source, notes, parts = wire
    return FileRead(source and SourceFile(*source), tuple(_diagnostics_from_wire(notes)), "",
                    tuple(Normalized(chapter_from_wire(p[0]), p[1], _diagnostics_from_wire(p[2])) if type(p) is tuple else p
                          for p in parts))


def _diagnostics_to_wire(found) -> tuple:
    return tuple((d.code, d.message, d.at and d.at.path, d.at and d.at.line) for d in found)


def _diagnostics_from_wire(wire: tuple) -> list[Diagnostic]:
    return [Diagnostic(code, message, Location(path, line) if path is not None else None) for code, message, path, line in wire]
