"""The library API: `from bookbuilder import load_book, build, check`, as README shows it."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
import zipfile

from tests.conftest import REPO


def _readme_example() -> str:
    section = (REPO / "README.md").read_text("utf-8").split("## As a library", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readme_example_builds_the_sample_book(sample_book, monkeypatch):
    code = _readme_example()
    assert len(code.strip().splitlines()) <= 12  # short enough to read at a glance
    monkeypatch.chdir(sample_book)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    printed = out.getvalue()
    wrote = sample_book / printed.split("wrote ", 1)[1].strip()
    assert wrote.suffix == ".epub" and zipfile.is_zipfile(wrote)
    from bookbuilder import load_book

    meta = load_book(sample_book).book.meta
    assert printed.startswith(f"{meta.title} {meta.author} ") and " chapters\n" in printed


def test_check_with_outputs_adds_the_built_files_findings(sample_book):
    from bookbuilder import build, check, load_book

    loaded = load_book(sample_book)
    assert check(loaded) == list(loaded.diagnostics)
    build(loaded, "epub")
    with_outputs = check(loaded, outputs=True)
    assert with_outputs[: len(loaded.diagnostics)] == list(loaded.diagnostics)
    assert not [d for d in with_outputs if d.code.startswith("E")]  # EPUBCheck passes the sample


def test_importing_bookbuilder_loads_no_stage_until_a_name_is_used():
    probe = (
        "import sys, bookbuilder\n"
        "before = {m for m in sys.modules if m.startswith('bookbuilder.')}\n"
        "bookbuilder.load_book\n"
        "print(sorted(before), 'bookbuilder.pipeline' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[] True", done.stderr
    try:
        import bookbuilder

        bookbuilder.no_such_name  # noqa: B018 (the attribute is what is tested)
    except AttributeError as e:
        assert "no_such_name" in str(e)
    else:
        raise AssertionError("an unknown name must raise AttributeError")


def test_the_package_pickles_by_name_as_a_plain_module_does():
    """The package's module class keeps the API's names; it must still travel by name (a Dask
    worker's answer, a cloudpickled function's globals), not fail as an unknown object."""
    import pickle

    import bookbuilder

    assert pickle.loads(pickle.dumps(bookbuilder)) is bookbuilder
