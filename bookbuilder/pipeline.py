"""The only place where the stages are wired together:

book.toml → Config; source/ → ordered files; per file (bookbuilder.per_file, on every core):
decode → structure (the heading passes, bookbuilder.structure.passes) → parts → normalize + lint;
parts → volumes and chapters → whole-book cleaning → meta → lint → Book; Book → each format's
renderer (bookbuilder.render); its artifact → that renderer's output checks.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache, lru_cache, partial
from pathlib import Path

from bookbuilder.check.suspects import self_check
from bookbuilder.config import DEFAULT_AUTHOR, SCHEMA, Config, load_config, stable_identifier
from bookbuilder.decode.plausibility import guess_language
from bookbuilder.decode.text import decode_chapter, encoding_override
from bookbuilder.diagnostics import REMOVED, BookError, Diagnostic, removal_parts
from bookbuilder.model import Book, Location, Meta, SourceFile
from bookbuilder.normalize.by_hand import check_keeps, kept_places
from bookbuilder.normalize.junk import CLEANED, extra_patterns
from bookbuilder.normalize.rules import disabled, left_out, normalizer
from bookbuilder.normalize.whole_book import clean_whole_book
from bookbuilder.normalized_memo import for_rules
from bookbuilder.per_file import (
    FileToRead,
    Normalized,
    cleaned_again,
    decode_read,
    encode_read,
    first_texts,
    found_before,
    normalized_parts,
    read_and_normalize,
    read_file,
    sample_of_first_files,
    source_lines,
)
from bookbuilder.render import check_tables
from bookbuilder.structure import contents_file, file_volumes, folder_pages, meta
from bookbuilder.structure.chapters import Assembly, finish, parts_at_restarts, without_repeats
from bookbuilder.structure.file_order import discover
from bookbuilder.structure.fixes import unmatched
from bookbuilder.structure.page_labels import RULE as PAGE_LABELS
from bookbuilder.structure.passes import ReadingOptions
from bookbuilder.system.parallel import default_jobs, ordered_map

DEFAULT_EPOCH = 1700000000  # 2023-11-14: builds are reproducible even without SOURCE_DATE_EPOCH


@dataclass(frozen=True)
class Loaded:
    config: Config
    book: Book
    diagnostics: tuple[Diagnostic, ...]
    suspects: tuple = ()  # check.suspects.Group: what the self-check flags (its W203/W309 are in diagnostics)


def source_date_epoch() -> int:
    value = os.environ.get("SOURCE_DATE_EPOCH", "")
    return int(value) if value.strip().isdigit() else DEFAULT_EPOCH


# What a load says while it works (the CLI's progress): (stage, files done, files in all); a stage
# that counts no files says 0 of 0.
Said = Callable[[str, int, int], None]


def _nothing(stage: str, done: int, total: int) -> None:
    return None


def load_book(
    path: Path | str | Config, jobs: int | None = None, memo: dict | None = None, progress: Said | None = None
) -> Loaded:
    """Read, decode, parse and normalize the book at `path` (or by a Config: serve tries a correction so);
    lint it. Chapters are normalized before they are put together (only a headless chapter's title
    depends on the others), so a large book's files go all the way to normalized, linted chapters
    on `jobs` processes (default: every core; bookbuilder.system.parallel). A whole-novel file is
    split into chapters here, and its chapters normalized on `jobs` processes, the whole-book passes
    after. `memo` (kept by the caller between loads, as `serve` does) keeps each file's result while
    the file, book.toml and the rules are unchanged: only the files that changed are read again
    (and, a cleaning rule switched off, only those it took from: bookbuilder.normalized_memo).
    `progress` hears each file read and each stage after."""
    config = path if isinstance(path, Config) else load_config(Path(path))
    check_tables(config, SCHEMA)  # each format's table, by the keys its renderer declares
    tell = progress or _nothing
    cwd = os.getcwd()
    contents = cache(contents_file.find)  # a folder's 目录.txt: found once, for the order and the blurb
    groups, specs = _files_to_read(config, cwd, contents)
    heads = None if config.source.is_file() else first_texts(specs)  # the folder's first files
    if config.source.is_file():
        tell(f"reading and cleaning {config.source.name}", 0, 0)
    elif title := folder_pages.page_title_of(heads):  # every file is read without the site's page title
        specs = [replace(s, reading=replace(s.reading, page_title=title)) for s in specs]
    # per file: decode → structure (the heading passes) → parts → normalize + lint
    language, rules, reads = _read_each_file(config, specs, jobs, memo, heads)
    reads = file_volumes.opened(reads, [s.path for s in specs], config)  # [[volume]]s before their files
    if not config.source.is_file():
        reads = _counted(reads, len(specs), tell)
    taken = _put_together(config, groups, reads, cwd)  # the files' parts → volumes and chapters
    volumes, normalized, notes = _across_files(taken, rules)  # repeated chapters, numbering that starts again
    raw = Book(_meta_until_chosen(config, language), volumes, taken.files)
    tell("cleaning by the whole book's evidence", 0, 0)
    edge_memo: dict = {}  # each chapter's forms at its edges: the cleaning's, reused by the self-check
    book, kept, gone = _whole_book_cleaning(
        raw, rules, normalized, config.keeps, edge_memo
    )  # what repeats over the book, chapters left out
    book, said, kept, gone = _meta(book, config, rules, cwd, kept, gone, contents)  # title, author, intro
    tell("the self-check", 0, 0)
    before = found_before(normalized, "suspected")
    suspects, flagged = self_check(book, config.not_debris, before, edge_memo)
    return Loaded(config, book, notes + (said,) + tuple(gone) + tuple(_lint(book, kept)) + flagged, suspects)


def _counted(reads, total: int, tell: Said):
    """The files' reads, each told as it comes (from the workers, in reading order)."""
    for done, read in enumerate(reads, 1):
        tell("reading the chapter files", done, total)
        yield read


def _files_to_read(
    config: Config, cwd: str, find_contents=contents_file.find
) -> tuple[list, list[FileToRead]]:
    """The source's files in reading order (grouped by volume folder), each with what book.toml says of it."""
    groups = discover(config.source, config.order, find_contents)
    whole_novel = config.source.is_file()
    custom = re.compile(config.heading_pattern) if config.heading_pattern else None
    # each file's fixes below; of the rules switched off, those the reading reads (a file's reading,
    # and serve's memo of it, stay the same when another is switched: normalized_memo.py)
    off = disabled(config.normalize) & {PAGE_LABELS}
    reading = ReadingOptions(custom, config.title_junk, (), config.toc_rules, off=off)
    specs = [
        FileToRead(
            file,
            shown,
            _encoding(file, config, whole_novel),
            config.errors,
            replace(reading, fixes=_its_fixes(config, shown)) if config.fixes else reading,
            tuple(k for k in config.keeps if k.names(shown)),
        )
        for group in groups
        for file in group.files
        for shown in (_shown(file, cwd),)
    ]
    return groups, specs


def _its_fixes(config: Config, shown: str) -> tuple:
    """A file's [[fix]]es (naming it or a title): serve reads it again when they change."""
    return tuple(
        f for f in config.fixes if f.at_file is None or shown == f.at_file or shown.endswith("/" + f.at_file)
    )


def _read_each_file(config: Config, specs: list[FileToRead], jobs: int | None, memo: dict | None, heads=None):
    """The book's language, its normalizer, and each file read (bookbuilder.per_file): a whole novel
    here, a folder's files streamed in reading order from the workers while the rest are read."""
    whole = _whole_novel(specs[0], memo) if config.source.is_file() else None
    language = config.language or guess_language(
        whole.sample if whole is not None else sample_of_first_files(specs, heads)
    )
    rules = normalizer(
        config.normalize, language, config.replace_rules, (config.title or "", config.source.name)
    )
    if config.keeps:  # E009 for a [[keep]] whose line no longer holds its text
        named = {
            s.shown: partial(source_lines, s) for s in specs if any(k.names(s.shown) for k in config.keeps)
        }
        check_keeps(config.keeps, named, rules.text, str(config.toml_path))
    chapters = None if memo is None else for_rules(memo, rules)["chapters"]
    reads = (
        [normalized_parts(whole, replace(rules, kept=config.keeps), chapters, jobs or default_jobs())]
        if whole is not None
        else _read_files(specs, rules, jobs, memo)
    )
    return language, rules, _by_hand(config, reads)


def _whole_novel(spec: FileToRead, memo: dict | None):
    """A whole novel read, or (serve's memo) as read before while it and its [[fix]]es are the
    same (a [[keep]] or a pattern normalizes chapters again); a [[fix]] runs the passes from it on."""
    if memo is None:
        return read_file(spec, whole_novel=True)
    key = (replace(spec, keeps=()), file_stamp(spec.path))
    memo["read"] = int(memo.get("whole", (None,))[0] != key)
    if memo["read"]:
        memo["whole"] = (key, read_file(spec, whole_novel=True, kept=memo.setdefault("before_fixes", {})))
    return memo["whole"][1]


def _by_hand(config: Config, reads):
    """The chapters without what on = "cleaned" patterns match (normalize.by_hand), linted again:
    after the files are read, so that such a pattern, added or taken out, reads no file again."""
    junk = config.normalize.get("junk")
    patterns = extra_patterns(tuple(junk.get("extra", ())), CLEANED) if isinstance(junk, dict) else ()
    return (cleaned_again(read, patterns, config.keeps) for read in reads) if patterns else reads


@dataclass
class _Taken:
    """The files' parts put together: volumes and chapters, and what was said on the way."""

    asm: Assembly
    files: tuple[SourceFile, ...]
    normalized: list[Normalized]
    notes: list[Diagnostic]


def _put_together(config: Config, groups: list, reads, cwd: str) -> _Taken:
    notes: list[Diagnostic] = []
    files: list[SourceFile] = []
    normalized: list[Normalized] = []
    asm = Assembly()
    previous = None
    # reads first in zip, so that it is run to its end (where the workers are reaped)
    for read, group in zip(reads, [g for g in groups for _ in g.files]):
        if group is not previous and group.title is not None:
            asm.open_volume(group.title, Location(_shown(group.files[0].parent, cwd)))
        previous = group
        notes += read.notes
        if read.source is None:
            continue
        files.append(read.source)
        normalized += [p for p in read.parts if isinstance(p, Normalized)]
        asm.take(
            [p.chapter if isinstance(p, Normalized) else p for p in read.parts],
            volume_from_folder=group.title is not None,
        )
    if not files:
        raise BookError("E103", "every chapter file is empty", str(config.source))
    if config.fixes and (fix := unmatched(config.fixes, notes)) is not None:
        what = f"at = {fix.at_file}:{fix.at_line}" if fix.at_file else f"title = {fix.title!r}"
        raise BookError(
            "E009",
            f"[[fix]] #{fix.index} ({what}) matches no line of the book",
            Location(str(config.toml_path), fix.line),
        )
    return _Taken(asm, tuple(files), normalized, notes)


def _across_files(taken: _Taken, rules) -> tuple[tuple, list[Normalized], tuple[Diagnostic, ...]]:
    """The volumes, without a chapter that repeats an earlier one word for word (W308), divided
    where a book without volumes numbers from 1 again."""
    volumes, repeats = without_repeats(finish(taken.asm, polish=rules.title))
    normalized, notes = taken.normalized, list(taken.notes)
    if repeats:
        normalized = [n for i, n in enumerate(normalized) if i not in repeats]
        notes += [
            Diagnostic(
                "W308",
                f"chapter {chapter.title!r} repeats the one at {earlier.at} word for word: left out",
                chapter.at,
            )
            for chapter, earlier in repeats.values()
        ]
    volumes, divided = parts_at_restarts(volumes)
    notes += divided
    return volumes, normalized, tuple(notes)


def _meta_until_chosen(config: Config, language: str) -> Meta:
    title, author = config.title or "", config.author or DEFAULT_AUTHOR  # until meta.apply chooses
    return Meta(
        title=title,
        author=author,
        language=language,
        description=config.description,
        identifier=config.identifier or stable_identifier(title, author),
        publisher=config.publisher,
        date=config.date,
        subjects=config.subjects,
    )


def _whole_book_cleaning(
    raw: Book, rules, normalized: list[Normalized], keeps: tuple = (), edge_memo: dict | None = None
) -> tuple[Book, list, list[Diagnostic]]:
    """The whole book's evidence, after each chapter's own (normalize.repeats): the book cleaned;
    the findings of the chapters kept; the removals in the chapters left out."""
    normalized = list(normalized)
    kept = kept_places(raw.chapters(), keeps)
    removed_at = frozenset(d.at for n in normalized for d in n.findings if d.code == REMOVED)
    seen = found_before(normalized, "sightings")
    raw, repeated = clean_whole_book(raw, rules.off, kept, removed_at, seen, edge_memo)
    for k, found in repeated.items():
        counts = Counter(normalized[k].counts) + Counter(f"junk:{removal_parts(d)[0]}" for d in found)
        normalized[k] = replace(normalized[k], counts=dict(counts), findings=normalized[k].findings + found)
    pairs = [(chapter, n.counts) for chapter, n in zip(raw.chapters(), normalized)]
    drop = left_out(pairs)
    book = rules.book(raw, pairs, drop)
    kept = [n.findings for i, n in enumerate(normalized) if i not in drop]
    gone = [d for i, n in enumerate(normalized) if i in drop for d in n.findings if d.code == REMOVED]
    return book, kept, gone


def _meta(book: Book, config: Config, rules, cwd: str, kept: list, gone: list[Diagnostic], find_contents):
    """The title, author and description chosen (structure.meta), said in an I001; an intro page
    that only held them is gone, its findings with it."""
    info = _info_files(config, cwd, find_contents)
    book, chosen, intro_gone = meta.apply(book, config, rules.title, info)
    if intro_gone:
        gone = gone + [d for d in kept[0] if d.code == REMOVED]
        kept = kept[1:]
    said = Diagnostic(
        "I001",
        "title {} ({}), author {} ({})".format(
            chosen["title"].value, chosen["title"].source, chosen["author"].value, chosen["author"].source
        ),
    )
    return book, said, kept, gone


def _lint(book: Book, kept: list) -> list[Diagnostic]:
    from bookbuilder.check.source_lint import lint

    return lint(book, kept)


def _read_files(specs: list[FileToRead], rules, jobs: int | None, memo: dict | None):
    def read(missing):
        return ordered_map(
            partial(read_and_normalize, rules),
            missing,
            jobs,
            stage="reading the chapter files",
            encode=encode_read,
            decode=decode_read,
        )

    if memo is None:
        return read(specs)
    kept: dict = for_rules(memo, rules)["files"]
    keys = [(spec, file_stamp(spec.path)) for spec in specs]  # the spec holds what book.toml says of the file
    missing = [spec for spec, key in zip(specs, keys) if key not in kept]
    fresh = iter(read(missing))
    reads = [kept[key] if key in kept else next(fresh) for key in keys]
    memo["files"] = dict(zip(keys, reads))
    memo["read"] = len(missing)
    return reads


def file_stamp(path: Path) -> tuple[int, int] | None:
    """(size, modification time) of a file, None where it cannot be seen: what says it changed."""
    try:
        st = path.stat()
    except OSError:
        return None  # read_file reports it
    return st.st_size, st.st_mtime_ns


def _info_files(config: Config, cwd: str, find_contents) -> list[tuple[str, list[tuple[int, str]]]]:
    """An info.txt / 简介.txt beside the chapters (folder books), and the text above a 目录.txt's
    list (`find_contents` finds it): its path and numbered lines."""
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
    if listed := find_contents(config.source):  # the blurb above a 目录.txt's list
        found.append((_shown(listed, cwd), contents_file.read(listed)[0]))
    return found


def _encoding(file: Path, config: Config, whole_novel: bool) -> str | None:
    if not config.encodings:  # no per-file overrides: no file's path to look up
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


def output_path(config: Config, book: Book, fmt: str, override: Path | None = None) -> Path:
    if override is not None:
        return Path(override)
    return config.build_dir / f"{slug(config, book)}.{fmt}"


def slug(config: Config, book: Book) -> str:
    """[output] name, else the title's file name (render.names.file_stem), else the folder's or file's."""
    from bookbuilder.render.names import file_stem

    if config.output_name:
        return config.output_name
    for candidate in (
        book.meta.title,
        config.root.resolve().name if config.has_config or config.source.is_dir() else config.source.stem,
    ):
        if stem := file_stem(candidate):
            return stem
    return "book"


def build(
    loaded: Loaded,
    fmt: str,
    output: Path | None = None,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    cache: bool = True,
    status: Callable[[str, float], None] | None = None,
    remote=None,
) -> tuple[Path, list[Diagnostic]]:
    """The book in format `fmt` (a name in render.format_names()), at build/<name>.<suffix> or `output`;
    with `cache`, reusing work kept in build/.cache (the PDF's chunks); `status` hears what a long
    step is doing (calibre's, for the AZW3); `remote` lends other machines' processes
    (RenderContext.remote: a shelf's PDF documents on its Dask cluster)."""
    from bookbuilder.render import RenderContext, renderer, with_cover

    chosen = renderer(fmt)
    target = output_path(loaded.config, loaded.book, chosen.suffix, output)
    options = chosen.options(loaded.config)
    book, notes = with_cover(loaded.book, loaded.config)
    context = RenderContext(
        target,
        loaded.config,
        source_date_epoch(),
        options,
        jobs,
        progress,
        loaded.config.build_dir / ".cache" if cache else None,
        status=status,
        remote=remote,
    )
    return target, notes + chosen.render(book, context)


def build_volumes(loaded: Loaded, fmt: str, jobs: int | None = None) -> list[tuple[Path, list[Diagnostic]]]:
    """`--split volumes`: one file per volume, build/<name>-<n>.<suffix>, each a book of its own
    (title 书名 · 卷名, its own cover and identifier) that says which of the series it is."""
    results = []
    for n, volume_book in enumerate(volume_books(loaded.book), 1):
        target = loaded.config.build_dir / f"{slug(loaded.config, loaded.book)}-{n}.{renderer_suffix(fmt)}"
        results.append(build(replace(loaded, book=volume_book), fmt, target, jobs))
    return results


def volume_books(book: Book) -> list[Book]:
    name, meta = book.meta.title, book.meta
    return [
        replace(
            book,
            volumes=(volume,),
            meta=replace(
                meta,
                title=f"{name} · {volume.title or f'第{n}部分'}",
                series=(name, n),
                identifier=stable_identifier(f"{meta.identifier}\x1f{n}", meta.author),
            ),
        )
        for n, volume in enumerate(book.volumes, 1)
    ]


def renderer_suffix(fmt: str) -> str:
    from bookbuilder.render import renderer

    return renderer(fmt).suffix


def build_epub(
    loaded: Loaded, output: Path | None = None, jobs: int | None = None
) -> tuple[Path, list[Diagnostic]]:
    return build(loaded, "epub", output, jobs)


def build_pdf(
    loaded: Loaded, output: Path | None = None, jobs: int | None = None, progress=None
) -> tuple[Path, list[Diagnostic]]:
    return build(loaded, "pdf", output, jobs, progress)


def _artifacts(loaded: Loaded) -> list[tuple[str, Path]]:
    from bookbuilder.render import format_names, renderer

    return [(name, output_path(loaded.config, loaded.book, renderer(name).suffix)) for name in format_names()]


def fresh_outputs(loaded: Loaded) -> bool:
    """build/ holds artifacts newer than every source file and book.toml: worth checking too."""
    config = loaded.config
    artifacts = [path for _, path in _artifacts(loaded) if path.exists()]
    if not artifacts:
        return False
    sources = [Path(f.path) for f in loaded.book.files] + [config.toml_path]
    newest = max((p.stat().st_mtime for p in sources if p.exists()), default=0)
    return all(a.stat().st_mtime >= newest for a in artifacts)


def check_outputs(loaded: Loaded, full_a11y: bool = False, jobs: int | None = None, progress=None) -> list:
    """Each format's output checks on its artifact in build/, where there is one (EPUBCheck, the
    Kindle checks and Ace by DAISY for the EPUB, EPUBCheck for the kepub, the PDF read back, the
    AZW3 read back by calibre), run at once, each result reused while its artifact is unchanged
    (bookbuilder.check.gate): the results, in that order."""
    from bookbuilder.check.gate import run_checks
    from bookbuilder.render import renderer

    checks = [
        c
        for name, path in _artifacts(loaded)
        if path.exists()
        for c in renderer(name).checks(path, loaded.book, full_a11y)
    ]
    return run_checks(checks, jobs, progress)


def check(
    loaded: Loaded, outputs: bool = False, full_a11y: bool = False, jobs: int | None = None
) -> list[Diagnostic]:
    """What `bookbuilder check` reports, as a list: the source's diagnostics, and with `outputs`
    those of the built files in build/ (check_outputs: EPUBCheck, Ace, the read-backs)."""
    found = list(loaded.diagnostics)
    if outputs:
        found += [d for result in check_outputs(loaded, full_a11y, jobs) for d in result.diagnostics]
    return found
