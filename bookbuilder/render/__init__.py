"""The output formats, each one module behind one interface (mdBook's renderers are the picture),
and the registry of them.

A Renderer has a `name` (its command, its key in the registry and in [output] formats), a
`suffix` for its file in build/, the `help` of its command and the build options that command
takes (`flags`: output, jobs, no_cache, split), whether it `shows_progress`, the [section] of
book.toml it reads and that table's `keys` (key → str, bool, int, list[str], or a tuple of the
allowed values: bookbuilder.config checks them), `options(config)` (its frozen, typed options from
that table), `render(book, context)` and `checks(path, book)`, the output checks of an artifact
it wrote (bookbuilder.check.gate runs them).

The CLI's build commands, `build`, [output] formats, the check of book.toml, pipeline.build,
pipeline.check_outputs and pipeline.fresh_outputs all go through `format_names()` and `renderer(name)`.
A new format is a module with one renderer (`RENDERER`) and one line in FORMATS; a renderer
made elsewhere (a plugin, a test) is added with `register`.

A renderer takes the finished model (with its cover: `with_cover`) and writes only its target,
atomically; it never reads the source files. The other modules here are the pieces renderers
share (html: chapter markup, which `serve`'s pages use too; names, navigation, cover, fonts) and
their parts (pdf_*, font_share); text.py is no format: the chapters as plain text for review,
which `bookbuilder normalize` writes (bookbuilder.render.review).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # `bookbuilder --help` imports this package: only what its commands' help needs
    from bookbuilder.diagnostics import Diagnostic
    from bookbuilder.model import Book
    from bookbuilder.settings import Config

# The CLI options a build command can take (bookbuilder.cli has their words).
FLAGS = ("output", "jobs", "no_cache", "split")


@dataclass(frozen=True)
class RenderContext:
    """What a renderer needs besides the book: where to write, the project (stylesheets and fonts
    resolve inside it), the time every artifact carries (SOURCE_DATE_EPOCH), the processes it may
    use, its options, and whom to tell of progress (chapters done)."""

    target: Path
    config: Config
    epoch: int
    options: object
    jobs: int | None = None
    progress: Callable[[int], None] | None = None
    cache: Path | None = None  # build/.cache: work kept between builds (None: neither read nor written)
    stats: dict = field(default_factory=dict, compare=False)  # what the renderer says it did
    status: Callable[[str, float], None] | None = (
        None  # what a long step is doing, seconds since it began (AZW3)
    )
    # Another machine's processes for the work a renderer spreads (the PDF's documents), entered
    # only when there is work to spread: a context manager giving a system.parallel.Remote.
    remote: Callable[[], AbstractContextManager] | None = None


class Renderer(Protocol):
    name: str
    suffix: str
    help: str  # its command's help: the first line is what `bookbuilder --help` lists
    flags: tuple[str, ...]  # which of FLAGS its command takes
    shows_progress: bool  # it calls context.progress(chapters done): the CLI shows a bar
    section: str | None  # its table in book.toml ([epub]); None: it reads none
    keys: Mapping[str, Any]  # that table's keys → what each value must be
    media_type: str  # its file's media type (serve's shelf, OPDS)
    shelf_label: str  # what serve's shelf tells a reader the file is for
    needs: str | None  # a program it cannot be made without (calibre's ebook-convert), or None

    def options(self, config: Config) -> object: ...

    def render(self, book: Book, context: RenderContext) -> list[Diagnostic]: ...

    def checks(self, path: Path, book: Book, full_a11y: bool = False) -> list: ...  # [gate.Check]


@dataclass(frozen=True)
class Command:
    """What the CLI lists and parses of a format's build command: its name, its help and the
    options it takes. Declared here, so that `bookbuilder --help` and `bookbuilder pdf --help`
    import no renderer (ebooklib, WeasyPrint); each renderer takes its help and flags from here."""

    name: str
    help: str  # the first line is what `bookbuilder --help` lists
    flags: tuple[str, ...]


EPUB_FLAGS = ("output", "jobs", "no_cache", "split")
COMMANDS = {
    "epub": Command("epub", "Build the EPUB 3 (default build/<name>.epub).", EPUB_FLAGS),
    "pdf": Command(
        "pdf",
        "Build the PDF (default build/<name>.pdf), rendering chapters in parallel.",
        ("output", "jobs", "no_cache"),
    ),
    "kepub": Command(
        "kepub",
        "Build the Kobo kepub (default build/<name>.kepub.epub): the EPUB with Kobo's sentence spans.",
        EPUB_FLAGS,
    ),
    "azw3": Command(
        "azw3",
        "Build the Kindle AZW3 (default build/<name>.azw3) through calibre's ebook-convert.",
        EPUB_FLAGS,
    ),
}

# name → the module holding its renderer, imported when first asked for.
FORMATS = {
    "epub": "bookbuilder.render.epub",
    "pdf": "bookbuilder.render.pdf",
    "kepub": "bookbuilder.render.kepub",
    "azw3": "bookbuilder.render.azw3",
}
_registered: dict[str, Renderer] = {}  # renderers added by `register`


def format_names() -> tuple[str, ...]:
    """Every format's name: FORMATS', then the registered ones."""
    return tuple(FORMATS) + tuple(_registered)


def renderer(name: str) -> Renderer:
    if name in _registered:
        return _registered[name]
    return import_module(FORMATS[name]).RENDERER


def command(name: str) -> Command | Renderer:
    """A format's command as the CLI needs it: declared in COMMANDS, else its renderer's own
    (a registered one, or a format added to FORMATS alone)."""
    return COMMANDS[name] if name in COMMANDS and name not in _registered else renderer(name)


def register(added: Renderer) -> None:
    """A renderer made outside this package (a plugin, a test): a format like the others, with its
    command, its table in book.toml and its place in [output] formats."""
    if added.name in FORMATS or added.name in _registered:
        raise ValueError(f"a format named {added.name!r} is already registered")
    unknown = set(added.flags) - set(FLAGS)
    if unknown:
        raise ValueError(f"{added.name}: unknown flags {sorted(unknown)} (known: {', '.join(FLAGS)})")
    _registered[added.name] = added


def unregister(name: str) -> None:
    """Take away a renderer `register` added."""
    del _registered[name]


def sections() -> dict[str, Mapping[str, Any]]:
    """The formats' tables of book.toml: section → its keys. Formats that share a table (the kepub
    and the AZW3 read [epub]) must declare it alike."""
    found: dict[str, Mapping[str, Any]] = {}
    for chosen in map(renderer, format_names()):
        if chosen.section is None:
            continue
        if found.setdefault(chosen.section, chosen.keys) != chosen.keys:
            raise ValueError(
                f"{chosen.name}: [{chosen.section}] is declared with other keys by another format"
            )
    return found


def check_tables(config: Config, own: Mapping[str, Any]) -> None:
    """Each format's table of book.toml (config.sections) checked against the keys its renderer
    declares, as book.toml's own tables (`own`) were when it was read: an unknown key or table is
    E002, a value of the wrong kind E003, each naming the key and its line. Asks every renderer
    for its table, and so imports its module: only for a book.toml with a table beyond its own."""
    if not config.sections:
        return
    from bookbuilder.settings import check_schema

    toml = config.toml_path
    text = toml.read_text("utf-8", errors="replace") if toml.is_file() else ""
    tables = {k: dict(v) if isinstance(v, Mapping) else v for k, v in config.sections.items()}
    check_schema(tables, {**own, **sections()}, "", toml, text)


def with_cover(book: Book, config: Config) -> tuple[Book, list[Diagnostic]]:
    """The book with its cover: the image book.toml names (checked), or a generated one."""
    from dataclasses import replace

    from bookbuilder.model import Cover
    from bookbuilder.render.cover import generate_cover, load_cover

    if config.cover is not None:
        data, kind, notes = load_cover(config.cover)
        return replace(book, cover=Cover(data, kind)), notes
    return replace(book, cover=Cover(generate_cover(book.meta), "jpeg", generated=True)), []


def default_css(fmt: str) -> str:
    from importlib import resources

    return resources.files("bookbuilder").joinpath(f"styles/{fmt}.css").read_text("utf-8")


def stylesheet(config: Config, fmt: str) -> str:
    """bookbuilder's CSS for `fmt`, then the book's own (styles/<fmt>.css or [fmt] css)."""
    css = default_css(fmt)
    own = config.css_path(fmt)
    if own is not None:
        css += "\n/* " + own.name + " */\n" + own.read_text("utf-8")
    return css
