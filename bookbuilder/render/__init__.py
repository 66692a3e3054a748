"""The output formats, each one module behind one interface (mdBook's renderers are the picture).

A Renderer has a `name` (the command and the key in the registry), a `suffix` for its file in
build/, whether it `shows_progress`, `options(config)` (its frozen, typed options from book.toml),
`render(book, context)` and `checks(path, book)`, the output checks of an artifact it wrote
(bookbuilder.check.gate runs them). The CLI, pipeline.build,
pipeline.check_outputs and pipeline.fresh_outputs loop over `RENDERERS`; a new format is a new
module with one class, and one line here.

A renderer takes the finished model (with its cover: `with_cover`) and writes only its target,
atomically; it never reads the source files.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from importlib import import_module
from pathlib import Path
from typing import Callable, Protocol

from bookbuilder.config import Config
from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Book, Cover


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
    status: Callable[[str, float], None] | None = None  # what a long step is doing, seconds since it began (AZW3)


class Renderer(Protocol):
    name: str
    suffix: str
    shows_progress: bool  # it calls context.progress(chapters done): the CLI shows a bar

    def options(self, config: Config) -> object: ...

    def render(self, book: Book, context: RenderContext) -> list[Diagnostic]: ...

    def checks(self, path: Path, book: Book, full_a11y: bool = False) -> list: ...  # [gate.Check]


# name → the module holding its renderer, imported when first used (WeasyPrint takes a while).
_MODULES = {"epub": "bookbuilder.render.epub", "pdf": "bookbuilder.render.pdf", "kepub": "bookbuilder.render.kepub",
            "azw3": "bookbuilder.render.azw3"}
NAMES = tuple(_MODULES)


def renderer(name: str) -> Renderer:
    return import_module(_MODULES[name]).RENDERER


def with_cover(book: Book, config: Config) -> tuple[Book, list[Diagnostic]]:
    """The book with its cover: the image book.toml names (checked), or a generated one."""
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
