"""The renderer interface: every format behind one protocol, one registry that the CLI's commands,
build, [output] formats, book.toml's tables, the output checks and the freshness test go
through, and typed, frozen options per format."""

import dataclasses
import re
from dataclasses import dataclass

import pytest
from click.testing import CliRunner

from bookbuilder import pipeline, render
from bookbuilder.cli import main
from bookbuilder.diagnostics import Diagnostic, Location
from bookbuilder.render import format_names, renderer
from bookbuilder.render.pdf import PAGE_SIZES
from bookbuilder.system.atomic import atomic_path
from tests.conftest import write_book

BOOK = {"1.txt": "第一章 起\n正文。", "2.txt": "第二章 承\n又一段正文。"}


@pytest.mark.parametrize("name", format_names())
def test_each_registered_renderer_keeps_the_interface(tmp_path, name):
    chosen = renderer(name)
    assert chosen.name == name and chosen.suffix and isinstance(chosen.shows_progress, bool)
    assert chosen.help and set(chosen.flags) <= set(render.FLAGS) and "output" in chosen.flags
    assert chosen.section is None or chosen.section in render.sections()
    options = chosen.options(pipeline.load_book(write_book(tmp_path / "b", BOOK, "")).config)
    assert dataclasses.is_dataclass(options)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(options, dataclasses.fields(options)[0].name, None)


def test_each_format_declares_its_table_and_the_kepub_and_azw3_share_the_epubs():
    assert sorted(render.sections()) == ["epub", "pdf"]
    assert renderer("kepub").keys is renderer("epub").keys and renderer("azw3").section == "epub"
    assert render.sections()["pdf"]["page_size"] == tuple(
        PAGE_SIZES
    )  # declared once, beside the PDF renderer


@dataclass(frozen=True)
class PlainOptions:
    separator: str


class PlainRenderer:
    """A toy format in a few lines, as a new one would be: the chapters' titles as plain text."""

    name, suffix, shows_progress = "plain", "txt", False
    help = "Build the titles as plain text (default build/<name>.txt)."
    flags = ("output",)
    section, keys = "plain", {"separator": str}
    media_type, shelf_label, needs = "text/plain", "Titles (plain text)", None

    def options(self, config):
        return PlainOptions(separator=config.section("plain").get("separator", "\n\n"))

    def render(self, book, context):
        with atomic_path(context.target) as tmp:
            tmp.write_text(context.options.separator.join(c.title for c in book.chapters()), "utf-8")
        return []

    def checks(self, path, book, full_a11y=False):
        from bookbuilder.check.gate import Check

        return [
            Check("plain", path, lambda: [Diagnostic("W401", f"{path.name} checked", Location(str(path)))])
        ]


RENDERER = PlainRenderer()


@pytest.fixture
def plain():
    """The toy format registered, as a plugin would register it; taken away after the test."""
    render.register(RENDERER)
    yield RENDERER
    render.unregister(RENDERER.name)


def test_a_new_format_is_one_module_and_one_registry_line(tmp_path, monkeypatch):
    monkeypatch.setitem(render.FORMATS, "plain", __name__)  # the line a module in bookbuilder/render/ adds
    loaded = pipeline.load_book(write_book(tmp_path / "b", BOOK, ""))
    target, notes = pipeline.build(loaded, "plain")
    assert target == loaded.config.build_dir / "b.txt" and notes == []
    assert target.read_text("utf-8") == "第一章 起\n\n第二章 承"
    assert pipeline.fresh_outputs(loaded)  # the only artifact there, newer than the source
    assert [d.message for r in pipeline.check_outputs(loaded) for d in r.diagnostics] == ["b.txt checked"]


def test_a_registered_format_is_a_command_with_its_options_and_its_table(tmp_path, plain):
    root = write_book(tmp_path / "b", BOOK, '[plain]\nseparator = " / "\n')
    listed = CliRunner().invoke(main, ["--help"])
    assert re.search(r"^  plain +Build the titles as plain text", listed.output, re.M)
    shown = CliRunner().invoke(main, ["plain", "--help"])
    assert shown.exit_code == 0 and "--output" in shown.output and "--jobs" not in shown.output
    result = CliRunner().invoke(main, ["plain", str(root), "-o", str(tmp_path / "titles.txt")])
    assert result.exit_code == 0, result.output
    assert f"wrote {tmp_path / 'titles.txt'}" in result.output
    assert (tmp_path / "titles.txt").read_text("utf-8") == "第一章 起 / 第二章 承"
    assert (
        CliRunner().invoke(main, ["plain", str(root), "--jobs", "2"]).exit_code == 2
    )  # an option it does not take


def test_a_registered_formats_table_is_checked_like_the_others(tmp_path, plain):
    root = write_book(tmp_path / "b", BOOK, "[plain]\nseparator = 3\n")
    result = CliRunner().invoke(main, ["plain", str(root)])
    assert result.exit_code == 1
    assert "book.toml:2: error E003: plain.separator must be a string, not 3" in result.output
    root.joinpath("book.toml").write_text('[plain]\nseperator = "-"\n', "utf-8")
    result = CliRunner().invoke(main, ["plain", str(root)])
    assert "book.toml:2: error E002: unknown key 'plain.seperator' (known here: separator)" in result.output
    render.unregister("plain")
    result = CliRunner().invoke(main, ["epub", str(root)])  # not registered: no such table
    render.register(RENDERER)
    assert result.exit_code == 1 and "unknown key 'plain'" in result.output


def test_a_format_name_is_registered_once(plain):
    with pytest.raises(ValueError, match="already registered"):
        render.register(RENDERER)
    with pytest.raises(ValueError, match="already registered"):
        render.register(type("Epub", (PlainRenderer,), {"name": "epub"})())


def test_build_builds_what_output_formats_lists(tmp_path, plain):
    root = write_book(tmp_path / "b", BOOK, '[output]\nformats = ["plain"]\n')
    result = CliRunner().invoke(main, ["build", str(root)])
    assert result.exit_code == 0, result.output
    assert f"wrote {root / 'build' / 'b.txt'}" in result.output
    assert sorted(p.name for p in (root / "build").iterdir()) == ["b.txt"]


def test_a_registered_format_is_on_serves_shelf(tmp_path, plain):
    """The OPDS feed and the download page list the formats the registry has, each with the media
    type and words its renderer declares: a new format needs no line in serve."""
    from types import SimpleNamespace

    from bookbuilder.serve.opds import Shelf

    loaded = pipeline.load_book(write_book(tmp_path / "b", BOOK, ""))
    shelf = Shelf(SimpleNamespace(preview=SimpleNamespace(loaded=loaded)))
    assert shelf.formats()[-1] == "plain" and {"epub", "kepub", "pdf"} <= set(shelf.formats())
    status, kind, feed, _ = shelf.page("/opds", "127.0.0.1:8000")
    assert status == 200 and b'type="text/plain"' in feed and b"Titles (plain text)" in feed
