"""The renderer interface: every format behind one protocol, one registry that build, the output
checks and the freshness test loop over, and typed, frozen options per format."""
import dataclasses
from dataclasses import dataclass

import pytest

from bookbuilder import pipeline, render
from bookbuilder.atomic import atomic_path
from bookbuilder.diagnostics import Diagnostic, Location
from bookbuilder.render import NAMES, renderer
from tests.conftest import write_book

BOOK = {"1.txt": "第一章 起\n正文。", "2.txt": "第二章 承\n又一段正文。"}


@pytest.mark.parametrize("name", NAMES)
def test_each_registered_renderer_keeps_the_interface(tmp_path, name):
    chosen = renderer(name)
    assert chosen.name == name and chosen.suffix and isinstance(chosen.shows_progress, bool)
    options = chosen.options(pipeline.load_book(write_book(tmp_path / "b", BOOK, "")).config)
    assert dataclasses.is_dataclass(options)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(options, dataclasses.fields(options)[0].name, None)


@dataclass(frozen=True)
class PlainOptions:
    separator: str


class PlainRenderer:
    """A toy format in a few lines, as a new one would be: the chapters as plain text."""

    name, suffix, shows_progress = "plain", "txt", False

    def options(self, config):
        return PlainOptions(separator="\n\n")

    def render(self, book, context):
        with atomic_path(context.target) as tmp:
            tmp.write_text(context.options.separator.join(c.title for c in book.chapters()), "utf-8")
        return []

    def checks(self, path, book, full_a11y=False):
        from bookbuilder.check.gate import Check

        return [Check("plain", path, lambda: [Diagnostic("W401", f"{path.name} checked", Location(str(path)))])]


RENDERER = PlainRenderer()


def test_a_new_format_is_one_module_and_one_registry_line(tmp_path, monkeypatch):
    monkeypatch.setitem(render._MODULES, "plain", __name__)
    monkeypatch.setattr(render, "NAMES", (*render.NAMES, "plain"))
    loaded = pipeline.load_book(write_book(tmp_path / "b", BOOK, ""))
    target, notes = pipeline.build(loaded, "plain")
    assert target == loaded.config.build_dir / "b.txt" and notes == []
    assert target.read_text("utf-8") == "第一章 起\n\n第二章 承"
    assert pipeline.fresh_outputs(loaded)  # the only artifact there, newer than the source
    assert [d.message for r in pipeline.check_outputs(loaded) for d in r.diagnostics] == ["b.txt checked"]


def test_build_builds_what_output_formats_lists(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from bookbuilder.cli import main

    monkeypatch.setitem(render._MODULES, "plain", __name__)
    monkeypatch.setattr(render, "NAMES", (*render.NAMES, "plain"))
    root = write_book(tmp_path / "b", BOOK, '[output]\nformats = ["plain"]\n')
    result = CliRunner().invoke(main, ["build", str(root)])
    assert result.exit_code == 0, result.output
    assert f"wrote {root / 'build' / 'b.txt'}" in result.output
    assert sorted(p.name for p in (root / "build").iterdir()) == ["b.txt"]
