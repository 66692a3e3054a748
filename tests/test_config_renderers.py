"""config.py keeps each format's table as data and imports no renderer (as an mdBook renderer reads
its own table): the render registry checks each table against the keys its renderer declares."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from bookbuilder.config import load_config
from bookbuilder.diagnostics import BookError
from bookbuilder.render import FORMATS, check_tables

ROOT = Path(__file__).resolve().parents[1]


def test_config_imports_no_renderer_in_its_code():
    tree = ast.parse((ROOT / "bookbuilder" / "config.py").read_text("utf-8"))
    imported = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bookbuilder.render")
    }
    assert imported <= {"bookbuilder.render"}  # the registry's names, never a renderer's module


def test_reading_a_book_toml_with_format_tables_loads_no_renderer(tmp_path):
    book = tmp_path / "b"
    (book / "source").mkdir(parents=True)
    (book / "source" / "1.txt").write_text("第一章\n正文。", "utf-8")
    (book / "book.toml").write_text('[epub]\nvertical = true\n[pdf]\npage_size = "A5"\n', "utf-8")
    script = (
        "import sys; from bookbuilder.config import load_config; "
        f"c = load_config({str(book)!r}); "
        "print(sorted(c.sections)); "
        "print(sorted(m for m in sys.modules if m.startswith('bookbuilder.render.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout.splitlines()
    assert out == ["['epub', 'pdf']", "[]"]
    assert not set(FORMATS.values()) & set(out[1])


@pytest.mark.parametrize(
    "toml, code, message",
    [
        ("[pdf]\njobs = 'two'\n", "E003", "pdf.jobs must be"),
        ("[epub]\nvertcal = true\n", "E002", "unknown key 'epub.vertcal'"),
        ("[kepub]\nx = 1\n", "E002", "unknown key 'kepub'"),
    ],
)
def test_each_formats_table_is_checked_by_its_renderers_keys(tmp_path, toml, code, message):
    (tmp_path / "source").mkdir()
    (tmp_path / "book.toml").write_text(toml, "utf-8")
    config = load_config(tmp_path)  # read as data: no renderer asked yet
    with pytest.raises(BookError) as caught:
        check_tables(config, {"book": {}})
    found = caught.value.diagnostic
    assert found.code == code and message in found.message
    assert found.at.path.endswith("book.toml") and found.at.line in (1, 2)
