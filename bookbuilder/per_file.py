"""One source file → the parts of the book it holds, normalized and linted: the per-file work
that pipeline.load_book spreads over processes (bookbuilder.system.parallel)."""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from functools import partial
from pathlib import Path

from bookbuilder.decode.text import Decoded, decode_chapter
from bookbuilder.diagnostics import REMOVED, BookError, Diagnostic
from bookbuilder.model import Chapter, Location, Paragraph, SceneBreak, SourceFile
from bookbuilder.normalize.by_hand import after_cleaning
from bookbuilder.normalize.rules import LOST_GLYPH_CODE, Normalizer
from bookbuilder.structure.chapters import Part, at_gaps, file_parts
from bookbuilder.structure.passes import NO_OPTIONS, ReadingOptions
from bookbuilder.structure.sections import split_sections
from bookbuilder.system.parallel import forks_workers, ordered_map

LANGUAGE_SAMPLE_FILES = 20
# Characters to normalize below which a file's chapters are normalized in this process: about a
# fifth of a second of work on one core, where forking the workers starts to pay.
ON_EVERY_CORE_CHARS = 300_000


@dataclass(frozen=True)
class FileToRead:
    path: Path
    shown: str  # the path as messages show it
    encoding: str | None
    errors: str
    reading: ReadingOptions = NO_OPTIONS  # what book.toml says of reading it (its [[fix]]es among them)
    keeps: tuple = ()  # book.toml's [[keep]] entries that name this file


@dataclass(frozen=True)
class Normalized:
    """One chapter after normalization: the chapter, rule → paragraphs changed, its lint findings,
    and what the whole-book passes look for in one chapter, found where it was normalized (on a
    worker): the repeats pass's sightings and the self-check's suspects (None: not looked for).
    Those passes take them for each chapter the book still holds as it was (`pipeline.load_book`)."""

    chapter: Chapter
    counts: dict[str, int]
    findings: list[Diagnostic]
    sightings: tuple | None = None  # normalize.repeats.chapter_sightings
    suspected: tuple | None = None  # check.suspects.suspected


@dataclass(frozen=True)
class FileRead:
    source: SourceFile | None  # None: the file is empty
    notes: tuple[Diagnostic, ...]
    sample: str  # the start of the text, for guessing the language
    parts: tuple[Part | Normalized, ...]  # its chapters as Normalized once normalized


def _decode_file(spec: FileToRead, kept: dict | None = None) -> Decoded:
    """The file decoded; `kept` (serve's memo of a whole novel) keeps it while the bytes and how
    they are read are the same: a [[fix]] reads the file again, and decoding it is a fifth of a load."""
    try:
        data = spec.path.read_bytes()
    except OSError as e:
        raise BookError("E004", f"cannot read: {e.strerror}", spec.shown) from None
    if kept is None:
        return decode_chapter(data, spec.shown, encoding=spec.encoding, errors=spec.errors)
    key = (data, spec.shown, spec.encoding, spec.errors)
    if kept.get("decoded", (None,))[0] != key:
        kept["decoded"] = (key, decode_chapter(data, spec.shown, encoding=spec.encoding, errors=spec.errors))
    return kept["decoded"][1]


def read_file(spec: FileToRead, whole_novel: bool = False, kept: dict | None = None) -> FileRead:
    """decode → structure (split_sections: the heading passes) → the parts of the book the file holds.
    `kept`: the reading before the [[fix]] pass, kept between loads (sections.split_sections)."""
    decoded = _decode_file(spec, kept)
    if decoded.is_empty:
        return FileRead(
            None,
            decoded.diagnostics + (Diagnostic("W101", "empty file skipped", Location(spec.shown)),),
            "",
            (),
        )
    sections, notes = split_sections(decoded.text, spec.shown, spec.reading, kept=kept)
    parts = file_parts(spec.shown, sections, whole_novel=whole_novel)
    notes += _divided(spec.shown, sections, parts, whole_novel)
    return FileRead(
        SourceFile(spec.shown, decoded.encoding, decoded.method, decoded.replaced),
        decoded.diagnostics + tuple(notes),
        decoded.text[:500],
        tuple(parts),
    )


def _divided(path: str, sections, parts, whole_novel: bool) -> list[Diagnostic]:
    """W307 where structure.divide cut the text into parts: no headings at all, or a chapter too long."""
    pieces = [p for p in parts if isinstance(p, Chapter) and p.kind == "part"]
    if whole_novel and all(s.heading is None for s in sections):
        done = f"the text was divided into {len(pieces) + 1} parts" if pieces else "the text is one chapter"
        if pieces and any(at_gaps(tuple(s.blocks)) for s in sections):
            done += " at the runs of blank lines that set them apart"
        return [
            Diagnostic(
                "W307",
                f"no chapter headings found: {done}; "
                "if the book has headings, set [source] heading_pattern in book.toml",
                Location(path),
            )
        ]
    return [
        Diagnostic(
            "W307",
            f"chapter {p.title.rsplit('（', 1)[0]!r} is over 100,000 characters with no heading inside: "
            "divided into parts",
            p.at,
        )
        for p in pieces
        if p.title.endswith("（二）")
    ]


def first_texts(specs: list[FileToRead]) -> list[str]:
    """The first 20 files with text, decoded, to guess the book's language from and to find a
    folder's page title before the files are spread over processes (they are decoded again
    there: a small part of reading)."""
    texts = []
    for spec in specs:
        decoded = _decode_file(spec)
        if not decoded.is_empty:
            texts.append(decoded.text)
            if len(texts) == LANGUAGE_SAMPLE_FILES:
                break
    return texts


def sample_of_first_files(specs: list[FileToRead], texts: list[str] | None = None) -> str:
    """The start of the first 20 files with text, to guess the book's language from."""
    return "".join(text[:500] for text in (first_texts(specs) if texts is None else texts))


def normalize_and_lint(rules: Normalizer, chapter: Chapter) -> Normalized:
    from bookbuilder.check.source_lint import lint_chapter
    from bookbuilder.check.suspects import suspected
    from bookbuilder.normalize.repeats import chapter_sightings

    new, counts, removed = rules.chapter(chapter)
    return Normalized(new, counts, removed + lint_chapter(new), chapter_sightings(new), suspected(new))


def read_and_normalize(rules: Normalizer, spec: FileToRead) -> FileRead:
    """read_file, then every chapter normalized and linted (the lines this file's [[keep]] entries
    name left as they are)."""
    return normalized_parts(read_file(spec), replace(rules, kept=spec.keeps) if spec.keeps else rules)


def normalized_parts(read: FileRead, rules: Normalizer, memo: dict | None = None, jobs: int = 1) -> FileRead:
    """A file's chapters normalized and linted, on `jobs` processes where there is enough text to
    gain by it (a whole novel's chapters: the workers find them in their forked copy of this
    process, and only the results cross back, bookbuilder.system.parallel). Each chapter is
    normalized alone, so the result is the same on any number of processes. `memo` (serve's for a
    whole novel, kept across a rule switched off where it holds: normalized_memo.py) keeps each
    chapter's result: after a correction only the chapters it changed are normalized."""
    chapters = [p for p in read.parts if isinstance(p, Chapter)]
    keys = list(range(len(chapters))) if memo is None else [_memo_key(c, rules) for c in chapters]
    done = {} if memo is None else {k: memo[k] for k in keys if k in memo}
    todo = {k: c for k, c in zip(keys, chapters) if k not in done}  # a chapter given twice: once
    if jobs > 1 and (not forks_workers() or sum(c.chars for c in todo.values()) < ON_EVERY_CORE_CHARS):
        jobs = 1  # sent to a spawned worker, the chapters would cost more to cross than to normalize
    normalized = ordered_map(
        partial(normalize_and_lint, rules),
        todo.values(),
        jobs,
        stage="normalizing the chapters",
        min_items=2,
        encode=_encode_normalized,
        decode=_decode_normalized,
    )
    done.update(zip(todo, normalized))
    if memo is not None:
        memo.clear()
        memo.update(done)
    results = iter(done[k] for k in keys)
    return replace(read, parts=tuple(next(results) if isinstance(p, Chapter) else p for p in read.parts))


def _memo_key(chapter: Chapter, rules: Normalizer) -> tuple:
    """All the rules read of a chapter: the chapter (as sent to a worker: quicker to hash than its
    blocks), its lines' indents (the hard-wrap rule's), the lines kept."""
    return (
        _encode_chapter(chapter),
        tuple(b.indented for b in chapter.blocks if type(b) is Paragraph),
        tuple(k for k in rules.kept if any(k.keeps(b) for b in chapter.blocks)),
    )


def cleaned_again(read: FileRead, patterns: tuple, keeps: tuple) -> FileRead:
    """The file's chapters without what book.toml's on = "cleaned" `patterns` match
    (normalize.by_hand), each chapter they changed linted again."""
    from bookbuilder.check.source_lint import lint_chapter

    def again(n: Normalized) -> Normalized:
        if (done := after_cleaning(n.chapter, patterns, keeps)) is None:
            return n
        chapter, counts, removed = done
        return Normalized(
            chapter,
            {**n.counts, **{k: n.counts.get(k, 0) + v for k, v in counts.items()}},
            # what the cleaning said (its removals, a lost character's W204) stands; the lint is run again
            [d for d in n.findings if d.code in (REMOVED, LOST_GLYPH_CODE)] + removed + lint_chapter(chapter),
        )

    return replace(read, parts=tuple(again(p) if isinstance(p, Normalized) else p for p in read.parts))


def _encode_normalized(n: Normalized) -> tuple:
    return _encode_chapter(n.chapter), n.counts, _encode_diagnostics(n.findings), n.sightings, n.suspected


def _decode_normalized(wire: tuple) -> Normalized:
    chapter, counts, findings, sightings, suspected = wire
    return Normalized(_decode_chapter(chapter), counts, _decode_diagnostics(findings), sightings, suspected)


# Chapters as plain data across a process boundary (parallel.ordered_map's encode and decode): a
# chapter's paragraphs as one string and its blocks' lines as packed ints, diagnostics as tuples.
# Pickled as model objects, a large book's chapters take longer to cross back than to read
# (bench/bench_book.py measures the load).


def encode_read(read: FileRead) -> tuple:
    source = read.source and (
        read.source.path,
        read.source.encoding,
        read.source.method,
        read.source.replaced,
    )
    parts = tuple(_encode_normalized(p) if isinstance(p, Normalized) else p for p in read.parts)
    return source, _encode_diagnostics(read.notes), parts


def decode_read(wire: tuple) -> FileRead:
    source, notes, parts = wire
    return FileRead(
        source and SourceFile(*source),
        tuple(_decode_diagnostics(notes)),
        "",
        tuple(_decode_normalized(p) if type(p) is tuple else p for p in parts),
    )


# Chapter's fields in their declared order: the wire is built from them by name, so that a field
# added to the model crosses between processes without a change here (its value as it is).
_CHAPTER_FIELDS = tuple(f.name for f in fields(Chapter))


def _encode_chapter(chapter: Chapter) -> tuple:
    """Its fields in `_CHAPTER_FIELDS`' order, `at` as its path and line and `blocks` as its
    paragraph texts joined by "\\n" (a scene break is an empty text) and every block's line
    (negative for a scene break) as packed ints; the blocks themselves where that cannot hold them
    (a text with a line break, a block from another file). Paragraph.indented is not sent: only the
    hard-wrap rule reads it, before a chapter is sent."""
    path = chapter.at.path
    texts = [b.text if type(b) is Paragraph else "" for b in chapter.blocks]
    lines = [
        b.at.line if type(b) is Paragraph else -b.at.line
        for b in chapter.blocks
        if b.at.line and b.at.path == path
    ]
    joined = "\n".join(texts)
    if texts and len(lines) == len(texts) and joined.count("\n") == len(texts) - 1:
        blocks: tuple = (joined, array("i", lines).tobytes())
    else:
        blocks = chapter.blocks
    wire = {"at": (path, chapter.at.line), "blocks": blocks}
    return tuple(wire[name] if name in wire else getattr(chapter, name) for name in _CHAPTER_FIELDS)


def _decode_chapter(wire: tuple) -> Chapter:
    values = dict(zip(_CHAPTER_FIELDS, wire, strict=True))
    path, line = values["at"]
    values["at"] = Location(path, line)
    blocks = values["blocks"]
    if blocks and type(blocks[0]) is str:
        joined, packed = blocks
        lines = array("i")
        lines.frombytes(packed)
        values["blocks"] = tuple(
            Paragraph(text, Location(path, n)) if n > 0 else SceneBreak(Location(path, -n))
            for text, n in zip(joined.split("\n"), lines)
        )
    return Chapter(**values)


def _encode_diagnostics(found) -> tuple:
    return tuple((d.code, d.message, d.at and d.at.path, d.at and d.at.line) for d in found)


def _decode_diagnostics(wire: tuple) -> list[Diagnostic]:
    return [
        Diagnostic(code, message, Location(path, line) if path is not None else None)
        for code, message, path, line in wire
    ]


def source_lines(spec: FileToRead) -> list[str]:
    """The file's lines as decoded, before any reading: what a [[keep]] names by line."""
    return _decode_file(spec).text.split("\n")


def found_before(normalized: list[Normalized], what: str) -> Callable[[Chapter], tuple | None]:
    """A whole-book pass's work on a chapter done where it was normalized, while it reads the same."""

    def reading(c: Chapter) -> tuple:
        return c.title, c.at.path, tuple(b.text if type(b) is Paragraph else None for b in c.blocks)

    # most chapters reach the pass as the very object their worker's result decoded to: asked by
    # identity first (the pair keeps the object, so its id is not reused), read whole only if not
    same = {id(n.chapter): (n.chapter, getattr(n, what)) for n in normalized if getattr(n, what) is not None}
    found: dict[tuple, tuple] = {}

    def before(chapter: Chapter) -> tuple | None:
        pair = same.get(id(chapter))
        if pair is not None and pair[0] is chapter:
            return pair[1]
        if not found and same:
            found.update((reading(c), seen) for c, seen in same.values())
        return found.get(reading(chapter))

    return before
