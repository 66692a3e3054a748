"""The gate: `check` alone looks at the source only; `check --outputs` runs every output check at
once, with the same findings as one at a time, Ace on a named sample, and results kept until
their artifact changes (bookbuilder.check.gate)."""

import json
import shutil

import pytest
from click.testing import CliRunner

from bookbuilder.check import ace, gate, judges
from bookbuilder.cli import main
from bookbuilder.pipeline import build, check_outputs, load_book
from tests.conftest import write_book

ACE = pytest.mark.skipif(
    not (ace.find_ace() and ace.find_chromium()), reason="Ace by DAISY is not installed here"
)
BOOK = {f"{i:02d}.txt": f"第{i}章 标题{i}\n正文{i}。\n他说：“走吧。”" for i in range(1, 21)}


def _forbidden(*_args, **_kwargs):
    raise AssertionError("an output check ran")


def test_check_alone_never_starts_java_chromium_or_the_read_back(tmp_path, monkeypatch):
    root = write_book(tmp_path / "b", BOOK, "")
    assert CliRunner().invoke(main, ["build", str(root)]).exit_code == 0
    for name in ("run_epubcheck", "check_pdf", "check_epub"):
        monkeypatch.setattr(judges, name, _forbidden)
    monkeypatch.setattr(ace, "run_ace", _forbidden)
    fake = tmp_path / "bin"
    fake.mkdir()
    for tool in ("java", "chromium", "node", "pdftotext"):
        (fake / tool).write_text(f"#!/bin/sh\ntouch {tmp_path}/{tool}-ran\n")
        (fake / tool).chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}:/usr/bin:/bin")
    result = CliRunner().invoke(main, ["check", str(root)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == (
        "outputs not checked (build/ holds artifacts newer than the source): "
        "bookbuilder check --outputs runs EPUBCheck, Ace and the read-backs"
    )
    assert not list(tmp_path.glob("*-ran"))
    as_json = json.loads(CliRunner().invoke(main, ["check", str(root), "--json"]).output)
    assert as_json["outputs"] == {"checked": False, "checks": []}


def _broken_outputs(tmp_path):
    """A book whose EPUB has malformed XHTML and whose PDF draws a character with no glyph."""
    import zipfile

    from weasyprint import HTML

    root = write_book(tmp_path / "b", BOOK, "")
    loaded = load_book(root)
    epub, pdf = build(loaded, "epub")[0], build(loaded, "pdf")[0]
    broken = tmp_path / "broken.epub"
    with zipfile.ZipFile(epub) as z, zipfile.ZipFile(broken, "w") as out:
        for info in z.infolist():
            data = z.read(info.filename)
            out.writestr(
                info,
                data.replace(b"</p>", b"</para>", 1) if info.filename.endswith("ch00001.xhtml") else data,
            )
    broken.replace(epub)
    HTML(string='<p style="font-family: Noto Serif CJK SC">中文\U0001e900字</p>').write_pdf(pdf)
    return loaded


def _found(results):
    return [(r.check.name, r.check.artifact.name, [str(d) for d in r.diagnostics]) for r in results]


@pytest.mark.parametrize("book", ["sample", "broken"])
def test_all_at_once_finds_what_one_at_a_time_finds(tmp_path, sample_book, book):
    if book == "sample":
        loaded = load_book(sample_book)
        build(loaded, "epub"), build(loaded, "pdf")
    else:
        loaded = _broken_outputs(tmp_path)
    serial = check_outputs(loaded, jobs=1)
    shutil.rmtree(loaded.config.build_dir / ".checks")
    concurrent = check_outputs(loaded)
    assert not any(r.reused for r in serial + concurrent)
    assert _found(concurrent) == _found(serial)
    codes = {d.code for r in serial for d in r.diagnostics}
    if book == "broken":
        assert {"E401", "E403"} <= codes
    assert [r.check.name for r in serial][:3] == ["EPUBCheck", "Send to Kindle", "Ace (sample)"]


def test_a_kept_result_is_reused_until_its_artifact_changes(tmp_path):
    root = write_book(tmp_path / "b", BOOK, "")
    loaded = load_book(root)
    build(loaded, "epub")
    pdf = build(loaded, "pdf")[0]
    first = check_outputs(loaded)
    again = check_outputs(loaded)
    assert not any(r.reused for r in first) and all(r.reused for r in again)
    assert _found(again) == _found(first)
    # The EPUB rebuilt from a changed source: its checks run again; the PDF's are still good.
    (root / "source" / "01.txt").write_text("第1章 标题1\n改过的正文。", "utf-8")
    changed = load_book(root)
    build(changed, "epub")
    third = check_outputs(changed)
    assert {r.check.artifact.suffix: r.reused for r in third} == {".epub": False, ".pdf": True}
    # A damaged record is ignored and written anew, never trusted.
    gate.kept_path(pdf).write_text("{not json", "utf-8")
    fourth = check_outputs(changed)
    assert not [r for r in fourth if r.check.artifact == pdf][0].reused
    assert json.loads(gate.kept_path(pdf).read_text("utf-8"))["results"]["PDF read-back"]["diagnostics"] == []


def test_the_cli_reports_each_checks_time_and_reuse(tmp_path):
    root = write_book(tmp_path / "b", BOOK, "")
    assert CliRunner().invoke(main, ["build", str(root)]).exit_code == 0
    first = json.loads(CliRunner().invoke(main, ["check", str(root), "--outputs", "--json"]).output)
    assert first["outputs"]["checked"] and {c["check"] for c in first["outputs"]["checks"]} >= {
        "EPUBCheck",
        "PDF read-back",
    }
    assert all(isinstance(c["seconds"], float) and not c["reused"] for c in first["outputs"]["checks"])
    shown = CliRunner().invoke(main, ["check", str(root), "--outputs"])
    assert "checked b.epub: EPUBCheck (" in shown.output and "kept from the last run" in shown.output


@ACE
def test_ace_on_a_sample_names_the_sample(tmp_path):
    root = write_book(tmp_path / "b", BOOK, "")
    epub = build(load_book(root), "epub")[0]
    found = ace.check_ace(epub)
    notes = [d for d in found if d.code == "I402"]
    assert len(notes) == 1 and "ch00001" in notes[0].message and "ch00020" in notes[0].message
    assert "of the 23 documents" in notes[0].message and "--a11y full" in notes[0].message
    assert not [d for d in found if d.code in ("E407", "W404")]
    assert not [d for d in ace.check_ace(epub, full=True) if d.code == "I402"]
