"""`check --outputs`, the release workflow and `make release`."""

import json
import shutil
import subprocess
import sys
import zipfile

import pytest
import yaml
from click.testing import CliRunner

from bookbuilder.cli import main
from tests.conftest import REPO, write_book

CLEAN = {"1.txt": "第一章 开始\n他说：“走吧。”\n\n第二段。", "2.txt": "第二章 继续\n正文。"}


# The project's own bookbuilder, whatever is (or is not) on PATH: a fresh virtualenv has nothing there.
OUR_BOOKBUILDER = f"BOOKBUILDER={sys.executable} -m bookbuilder"


def test_release_workflow_builds_gates_and_attaches():
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "release.yml").read_text("utf-8"))
    triggers = workflow[True] if True in workflow else workflow["on"]  # YAML 1.1 reads `on` as true
    assert triggers["push"]["tags"] == ["v*"]
    steps = workflow["jobs"]["release"]["steps"]
    runs = "\n".join(s.get("run", "") for s in steps)
    assert "fonts-noto-cjk" in runs and "default-jre-headless" in runs and "pip install ." in runs
    assert "make release" in runs
    upload = next(s for s in steps if "action-gh-release" in s.get("uses", ""))
    assert "build/*.epub" in upload["with"]["files"] and "build/*.pdf" in upload["with"]["files"]
    makefile = (REPO / "Makefile").read_text("utf-8")
    assert "check $(BOOK) $(STRICT) --outputs" in makefile and "STRICT ?= --strict" in makefile


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_release_builds_and_passes_the_gate(tmp_path):
    root = write_book(tmp_path / "b", CLEAN, '[book]\ntitle = "发布测试"\n[output]\nname = "release"\n')
    out = subprocess.run(
        ["make", "-C", str(REPO), "release", f"BOOK={root}", OUR_BOOKBUILDER], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert (root / "build" / "release.epub").is_file() and (root / "build" / "release.pdf").is_file()
    assert "0 errors, 0 warnings" in out.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_release_stops_on_the_sample_books_warning(sample_book):
    out = subprocess.run(
        ["make", "-C", str(REPO), "release", f"BOOK={sample_book}", OUR_BOOKBUILDER],
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0 and "W301" in out.stdout


def test_check_outputs_reports_epubcheck_findings_inside_the_epub(tmp_path):
    root = write_book(tmp_path / "b", CLEAN, "")
    assert CliRunner().invoke(main, ["build", str(root)]).exit_code == 0
    epub = next((root / "build").glob("*.epub"))
    # Break the EPUB the way a bad post-processing step would: malformed XHTML in chapter 1.
    broken = tmp_path / "broken.epub"
    with zipfile.ZipFile(epub) as z, zipfile.ZipFile(broken, "w") as out:
        for info in z.infolist():
            data = z.read(info.filename)
            if info.filename.endswith("ch00001.xhtml"):
                data = data.replace(b"</p>", b"</para>", 1)
            out.writestr(info, data)
    broken.replace(epub)
    result = CliRunner().invoke(main, ["check", str(root), "--outputs", "--json"])
    assert result.exit_code == 1
    found = [d for d in json.loads(result.output)["diagnostics"] if d["code"] == "E401"]
    assert found and found[0]["path"].endswith("!EPUB/text/ch00001.xhtml") and found[0]["line"]


def test_check_outputs_clean_book(tmp_path):
    root = write_book(tmp_path / "b", CLEAN, "")
    assert CliRunner().invoke(main, ["build", str(root)]).exit_code == 0
    result = CliRunner().invoke(main, ["check", str(root), "--outputs", "--strict"])
    assert result.exit_code == 0, result.output
    assert "0 errors, 0 warnings" in result.output


def test_pdf_read_back_finds_tofu(tmp_path):
    """A PDF drawn with a character no font has (made by WeasyPrint directly, past our own
    coverage check) is caught on read-back."""
    from weasyprint import HTML

    from bookbuilder.check.judges import check_pdf, notdef_fonts
    from bookbuilder.pipeline import load_book

    pdf = tmp_path / "tofu.pdf"
    HTML(string='<p style="font-family: Noto Serif CJK SC">中文\U0001e900字</p>').write_pdf(pdf)
    assert notdef_fonts(pdf)
    root = write_book(tmp_path / "b", CLEAN, "")
    found = check_pdf(pdf, load_book(root).book)
    assert any(d.code == "E403" and "tofu" in d.message for d in found)


def test_check_says_fresh_artifacts_were_not_checked(tmp_path):
    """check alone is the source's lint; it says that build/ was left alone (tests/check/test_gate.py)."""
    root = write_book(tmp_path / "b", CLEAN, "")
    assert CliRunner().invoke(main, ["build", str(root)]).exit_code == 0
    epub = next((root / "build").glob("*.epub"))
    epub.write_bytes(b"PK\x03\x04 not an epub")  # newer than the source: fresh, and broken
    result = CliRunner().invoke(main, ["check", str(root)])
    assert result.exit_code == 0 and "E401" not in result.output
    assert "outputs not checked (build/ holds artifacts newer than the source)" in result.output
    assert CliRunner().invoke(main, ["check", str(root), "--outputs"]).exit_code == 1
