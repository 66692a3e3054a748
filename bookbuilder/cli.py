"""The command line: each command loads, does, reports. Our own errors (BookError) become one
line `path[:line]: error CODE: message` and exit 1 here, in one place; usage errors exit 2."""

from __future__ import annotations

import heapq
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from bookbuilder import __version__
from bookbuilder.progress import Progress, Silent
from bookbuilder.render import Command, command, format_names, renderer

# `bookbuilder --help` and `--version` import click and the commands' declarations alone: each
# command imports the stages, the renderers and their libraries when it runs.
if TYPE_CHECKING:
    from bookbuilder import pipeline
    from bookbuilder.render import Renderer

# readable=False: click's own check of an unreadable path is a three-line usage error, exit 2;
# the book's loading says it in one line (E004), exit 1, as for any other bad input.
PATH = click.argument("path", default=".", type=click.Path(path_type=Path, readable=False))
OUTPUT = click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write here instead of build/<name>.<ext>.",
)


class BookCommandGroup(click.Group):
    """The commands: those below, and a build command for each format in the render registry,
    made when asked for (`format_command`), so that a format registered later has one too."""

    def list_commands(self, ctx) -> list[str]:
        return sorted({*self.commands, *format_names()})

    def get_command(self, ctx, name: str) -> click.Command | None:
        if name in self.commands:
            return self.commands[name]
        return format_command(command(name)) if name in format_names() else None

    def invoke(self, ctx):
        from bookbuilder.diagnostics import BookError

        try:
            return super().invoke(ctx)
        except BookError as e:
            click.echo(str(e.diagnostic), err=True)
            sys.exit(1)
        except PermissionError as e:  # a file or folder of the book this user may not read or write
            click.echo(str(BookError("E004", f"cannot read: {e.strerror}", e.filename).diagnostic), err=True)
            sys.exit(1)
        except KeyboardInterrupt:
            click.echo("interrupted: earlier artifacts are untouched", err=True)
            sys.exit(130)


@click.group(cls=BookCommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="bookbuilder")
@click.option(
    "-q", "--quiet", is_flag=True, help="No progress bars or lines (warnings and errors are still printed)."
)
def main(quiet: bool):
    """Turn a folder of raw Chinese novel chapters (.txt, any encoding) into an EPUB 3 and a PDF.

    PATH is a book project (a folder with book.toml), a bare folder of .txt chapter files, or one
    whole-novel .txt file. Exit codes: 0 success, 1 an error in the book or its files, 2 usage.
    """
    from bookbuilder.system.atomic import watch_interrupts

    watch_interrupts()


SHOWN_PER_CODE = 10  # a build shows this many of each warning; `bookbuilder check` lists them all


def _warn(diagnostics) -> None:
    """The first few warnings of each code in report order, then how many more. A large book has
    thousands of one code (W201), so each code's first few are picked, not everything sorted."""
    from bookbuilder.check import report
    from bookbuilder.diagnostics import Diagnostic, Severity

    by_code: dict[str, list[tuple[int, Diagnostic]]] = {}
    for i, d in enumerate(diagnostics):  # i: ties keep their order, as in report.sorted_diagnostics
        by_code.setdefault(d.code, []).append((i, d))
    shown = [
        pick
        for found in by_code.values()
        if found[0][1].severity >= Severity.WARNING
        for pick in heapq.nsmallest(SHOWN_PER_CODE, found, key=lambda p: (*report.where(p[1]), p[0]))
    ]
    codes: dict[str, None] = {}  # in the order their first warning is shown
    for _, d in sorted(shown, key=lambda p: (-p[1].severity, *report.where(p[1]), p[0])):
        click.echo(str(d), err=True)
        codes.setdefault(d.code)
    for code in codes:
        if (n := len(by_code[code])) > SHOWN_PER_CODE:
            click.echo(
                f"… and {n - SHOWN_PER_CODE} more {code} warnings (bookbuilder check lists them all)",
                err=True,
            )


QUICK = 2.0  # seconds: a step quicker than this says nothing of its progress on the way


def _shown(label: str, after: float | None = None) -> Progress:
    """Where a command's progress goes: stderr, as a bar or lines (bookbuilder.progress), or
    nowhere with --quiet. `after`: seconds before it shows anything (QUICK)."""
    return Silent() if _quiet() else Progress(label, QUICK if after is None else after)


def _read(path: Path, jobs: int | None = None, for_scripts: bool = False) -> pipeline.Loaded:
    """The book loaded, saying which files it reads and what it does once a load takes long;
    nothing where a script reads what the command prints (JSON, annotations)."""
    from bookbuilder import pipeline

    with Silent() if for_scripts else _shown("READ") as shown:
        return pipeline.load_book(path, jobs, progress=shown.files)


def _load(path: Path, jobs: int | None = None, cover: bool = False) -> pipeline.Loaded:
    """The book loaded, its warnings and what normalizing changed shown; with `cover` (a build),
    book.toml's cover checked first, so that a cover that is no image is one line, at once."""
    from bookbuilder.check import report

    if cover:
        from bookbuilder.config import load_config
        from bookbuilder.render.cover import load_cover

        if (named := load_config(Path(path)).cover) is not None:
            load_cover(named)
    loaded = _read(path, jobs)
    _warn(loaded.diagnostics)
    click.echo(report.changes_line(loaded.book), err=True)
    return loaded


JOBS = click.option(
    "-j",
    "--jobs",
    type=click.IntRange(1, 64),
    default=None,
    help="Worker processes (default: every core; for the PDF, [pdf] jobs in book.toml first).",
)


SPLIT = click.option(
    "--split",
    type=click.Choice(["volumes"]),
    default=None,
    help="One file per volume, build/<name>-<n>.<ext>, with series metadata.",
)


NO_CACHE = click.option(
    "--no-cache", is_flag=True, help="Neither read nor write build/.cache (work kept between builds)."
)


def _quiet() -> bool:
    """Whether `bookbuilder -q …` asked for no progress."""
    context = click.get_current_context(silent=True)
    return bool(context and context.find_root().params.get("quiet"))


def _build(
    loaded: pipeline.Loaded,
    fmt: str,
    output: Path | None,
    jobs: int | None,
    split: str | None = None,
    no_cache: bool = False,
) -> None:
    """One format built, its warnings shown; a progress bar where the renderer reports progress."""
    from bookbuilder import pipeline

    if split:
        if output is not None:
            raise click.UsageError("--split writes one file per volume into build/: leave out -o")
        for target, notes in pipeline.build_volumes(loaded, fmt, jobs):
            _warn(notes)
            click.echo(f"wrote {target}")
        return
    counts = renderer(fmt).shows_progress  # it reports chapters done: shown from the start
    slow = counts or renderer(fmt).needs  # another program's conversion (calibre's) is never quick
    with _shown(fmt.upper(), after=0 if slow else None) as shown:
        if counts:
            shown.count(sum(1 for _ in loaded.book.chapters()), "chapters")
        else:
            shown.stage("writing")
        target, notes = pipeline.build(
            loaded, fmt, output, jobs, progress=shown.update, cache=not no_cache, status=shown
        )
    _warn(notes)
    click.echo(f"wrote {target}")


# The options a build command can take, in the order its help lists them; each renderer says
# which its command takes (Renderer.flags).
BUILD_OPTIONS = {"output": OUTPUT, "jobs": JOBS, "no_cache": NO_CACHE, "split": SPLIT}


def format_command(chosen: Command | Renderer) -> click.Command:
    """`bookbuilder <format> [PATH] [-o FILE] [-j N] [--no-cache] [--split volumes]`: the build
    command of one format, with its renderer's help and the options it takes."""

    def command(path, output=None, jobs=None, no_cache=False, split=None):
        _build(_load(path, jobs, cover=True), chosen.name, output, jobs, split, no_cache)

    command.__doc__ = chosen.help
    for flag in reversed([flag for flag in BUILD_OPTIONS if flag in chosen.flags]):
        command = BUILD_OPTIONS[flag](command)
    return click.command(chosen.name)(PATH(command))


@main.command()
@PATH
@JOBS
@NO_CACHE
@click.option("--shard", metavar="K/N", help="A shelf: build only share K of N (by each book's name).")
@click.option("--scheduler", metavar="tcp://HOST:8786", help="A shelf: build its books on this Dask cluster.")
def build(path, jobs, no_cache, shard, scheduler):
    """Build what [output] formats lists into build/ (default: the EPUB and the PDF).

    PATH may be a shelf, a folder of books: each is built into the shelf's build/<name>/, those
    unchanged since the last build skipped, and a broken one reported without stopping the rest."""
    if _is_shelf(path):
        _build_shelf(path, jobs, shard, scheduler)
        return
    if shard or scheduler:
        raise click.UsageError("--shard and --scheduler take a shelf (a folder of books)")
    loaded = _load(path, jobs, cover=True)
    for fmt in loaded.config.formats:
        _build(loaded, fmt, None, jobs, no_cache=no_cache)


def _is_shelf(path: Path) -> bool:
    """Whether PATH is read as a shelf; where only its contents said so, how it was read, in one line."""
    from bookbuilder.shelf.books import read_folder

    reading = read_folder(path)
    if reading.note:
        click.echo(f"{path}: {reading.note}", err=True)
    return reading.shelf


def _build_shelf(shelf: Path, jobs: int | None, shard: str | None, scheduler: str | None) -> None:
    from bookbuilder.shelf.build import build_shelf
    from bookbuilder.shelf.manifest import parse_shard
    from bookbuilder.shelf.report import ShelfProgress, summary_lines

    try:
        share = parse_shard(shard) if shard else None
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--shard") from None
    progress = ShelfProgress(_quiet())
    try:
        told = None if progress.quiet else progress.stage
        summary = build_shelf(shelf, jobs, share, scheduler, progress.start, progress.done, told)
    finally:
        progress.close()
    for line in summary_lines(summary):
        click.echo(line, err=True)
    if share is None:  # a shard's build leaves the catalogue to the job that gathers the shards
        _write_catalog(shelf)
    if summary.failed:
        sys.exit(1)


def _write_catalog(shelf: Path) -> None:
    from bookbuilder.shelf.catalog import INDEX, ROOT_FEED, write_catalog

    made = write_catalog(shelf / "build")
    for book in made.books:
        if book.note:
            click.echo(f"warning: {book.note} (listed by its folder's name)", err=True)
    if not _quiet():
        click.echo(f"wrote {shelf / 'build' / ROOT_FEED} and {INDEX}: {len(made.books)} books", err=True)


@main.command()
@PATH
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object (files, chapters, diagnostics, changes)."
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text", help="Output format."
)
@click.option("--strict", is_flag=True, help="Treat warnings as errors (exit 1).")
@click.option(
    "--outputs",
    is_flag=True,
    help="Also check the artifacts in build/ (EPUBCheck, Ace, the PDF read back, "
    "calibre), all at once; unchanged artifacts keep their earlier results.",
)
@click.option(
    "--a11y",
    type=click.Choice(["sample", "full"]),
    default="sample",
    help="With --outputs: Ace by DAISY on a named sample of the EPUB's documents (default)"
    " or on all of them.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(1, 64),
    default=None,
    help="With --outputs: checks at once (default: all).",
)
def check(path, as_json, fmt, strict, outputs, a11y, jobs):
    """Lint the source (and with --outputs the built files); exit 1 on errors."""
    from bookbuilder import pipeline
    from bookbuilder.check import report
    from bookbuilder.diagnostics import BookError, Severity

    fmt = "json" if as_json else fmt
    try:
        loaded = _read(path, for_scripts=fmt != "text")
    except BookError as e:
        if fmt != "json":
            raise
        click.echo(report.as_json(None, [e.diagnostic]))
        sys.exit(1)
    diagnostics, results = list(loaded.diagnostics), []
    if outputs:

        def shown(result) -> None:
            reused = ", kept from the last run" if result.reused else ""
            click.echo(
                f"checked {result.check.artifact.name}: {result.check.name} ({result.seconds:.1f} s{reused})",
                err=True,
            )

        with Silent() if fmt != "text" else _shown("CHECK", after=0) as progress:
            progress.stage("running the output checks of build/'s files")
            results = pipeline.check_outputs(loaded, a11y == "full", jobs, shown if fmt != "json" else None)
        diagnostics += [d for r in results for d in r.diagnostics]
    if fmt == "json":
        click.echo(
            report.as_json(
                loaded.book, diagnostics, checks=[r.as_json() for r in results] if outputs else None
            )
        )
    elif fmt == "github":
        if diagnostics:
            click.echo(report.github(diagnostics))
    else:
        if diagnostics:
            click.echo(report.human(diagnostics))
        click.echo(
            f"{sum(1 for _ in loaded.book.chapters())} chapters; {report.summary(diagnostics, strict)}"
        )
        if not outputs:
            fresh = (
                " (build/ holds artifacts newer than the source)" if pipeline.fresh_outputs(loaded) else ""
            )
            click.echo(
                f"outputs not checked{fresh}: bookbuilder check --outputs runs EPUBCheck, Ace and the "
                "read-backs"
            )
    worst = max((d.severity for d in diagnostics), default=Severity.INFO)
    sys.exit(1 if worst == Severity.ERROR or (strict and worst == Severity.WARNING) else 0)


@main.command()
@PATH
@click.option("--json", "as_json", is_flag=True, help="Print the rows as a JSON list.")
def toc(path, as_json):
    """Print the detected table of contents: volume, number, title, characters, source:line."""
    import json

    from bookbuilder.check import report

    loaded = _read(path, for_scripts=as_json)
    rows = report.toc_rows(loaded.book, loaded.diagnostics)
    click.echo(
        json.dumps(rows, ensure_ascii=False, indent=2)
        if as_json
        else report.toc_text(loaded.book, loaded.diagnostics)
    )


@main.command()
@PATH
@click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Folder for the normalized chapters (default build/normalized).",
)
@click.option(
    "--diff", is_flag=True, help="Print a unified diff of decoded source against normalized text instead."
)
@click.option("--in-place", is_flag=True, help="Rewrite the source files as normalized UTF-8 (atomically).")
@click.option(
    "--report",
    "report_removals",
    is_flag=True,
    help="List every removal instead: path:line: rule: the removed text.",
)
def normalize(path, out_dir, diff, in_place, report_removals):
    """Write the normalized chapters as UTF-8 text for review (never touches source/ unless --in-place)."""
    from bookbuilder.check import report
    from bookbuilder.render.review import normalized_diff, write_in_place, write_normalized

    loaded = _load(path)
    if report_removals:
        text = report.removal_report(loaded.diagnostics)
        click.echo(text if text else "nothing was removed")
    elif diff:
        click.echo(normalized_diff(loaded), nl=False)
    elif in_place:
        for line in write_in_place(loaded):
            click.echo(line)
    else:
        target = write_normalized(loaded, out_dir or loaded.config.build_dir / "normalized")
        click.echo(f"wrote {target}")


@main.command()
@PATH
@click.option(
    "-p",
    "--port",
    type=click.IntRange(0, 65535),
    default=3000,
    show_default=True,
    help="Port (0: any free one).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on: this machine only, unless another is given (0.0.0.0: every network).",
)
@click.option(
    "--lan",
    is_flag=True,
    help="Also serve the LAN, read-only (--host 0.0.0.0, or this machine's LAN "
    "address; not a loopback one): the OPDS catalog and download page for an "
    "e-reader, a QR code of the address.",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the contents page in the web browser.")
@JOBS
@click.pass_context
def serve(ctx, path, port, host, lan, open_browser, jobs):
    """Serve the book as web pages, rebuilt and reloaded in the browser whenever the source,
    book.toml or styles/ change; correct it there (from this machine only). Ctrl-C stops it.
    A shelf (a folder of books): its catalogue and built files, and each book's pages."""
    import webbrowser

    from bookbuilder.serve.hosts import lan_refusal
    from bookbuilder.serve.server import serve as run

    def echo(line: str) -> None:
        click.echo(line, err=True)

    if lan and ctx.get_parameter_source("host") is click.core.ParameterSource.DEFAULT:
        host = "0.0.0.0"
    elif lan and (why := lan_refusal(host)):
        raise click.BadParameter(why, ctx, param_hint="--host")
    if _is_shelf(path):  # a shelf: its catalogue and files, each book's workbench under /.book/<name>/
        from bookbuilder.serve.library import serve_shelf as run
    run(path, host, port, jobs, echo, ready=webbrowser.open if open_browser else None)


@main.command()
@click.argument("shelf", default=".", type=click.Path(path_type=Path, file_okay=False))
def catalog(shelf):
    """Write the shelf's catalogue from its built files alone: build/catalog.opds.xml (OPDS, for
    reading apps) and build/index.html (for a browser), with links that work from a static host.
    `bookbuilder build SHELF` writes it too, unless it builds one --shard."""
    _write_catalog(shelf)


@main.command()
@click.argument("directory", default=".", type=click.Path(path_type=Path, file_okay=False))
def init(directory):
    """Scaffold a book project: book.toml, source/, styles/ (existing files are kept)."""
    from bookbuilder.scaffold import scaffold

    for line in scaffold(directory):
        click.echo(line)


if __name__ == "__main__":
    main()
