"""One way to run another program (issue 34): a judge that hangs or is missing is one line, E412,
exit 1, not a hung `check --outputs` or a traceback."""
import os
import stat
import subprocess

import pytest
from click.testing import CliRunner

from bookbuilder import external
from bookbuilder.cli import main
from bookbuilder.diagnostics import BookError
from tests.conftest import write_book


def _fake(bin_dir, name, body):
    path = bin_dir / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_a_program_that_hangs_is_E412_naming_it(tmp_path, monkeypatch):
    monkeypatch.setenv("BOOKBUILDER_JUDGE_TIMEOUT", "0.5")
    sleeper = _fake(tmp_path, "java", "sleep 30")
    with pytest.raises(BookError, match=r"E412: java timed out after 0.5 s") as caught:
        external.run([str(sleeper), "-jar", "x"], "book.epub")
    assert caught.value.diagnostic.at.path == "book.epub"


def test_a_program_that_is_missing_is_E412():
    with pytest.raises(BookError, match="E412: no-such-judge could not be run"):
        external.run(["/nonexistent/no-such-judge"])


def test_a_hung_epubcheck_fails_check_outputs_in_one_line(tmp_path, monkeypatch):
    root = write_book(tmp_path / "b", {"1.txt": "第一章 甲\n他走了。\n", "2.txt": "第二章 乙\n她来了。\n"}, "")
    runner = CliRunner()
    assert runner.invoke(main, ["epub", str(root)]).exit_code == 0
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _fake(bin_dir, "java", "sleep 30")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("BOOKBUILDER_JUDGE_TIMEOUT", "1")
    result = runner.invoke(main, ["check", str(root), "--outputs"])
    assert result.exit_code == 1
    assert "E412" in result.output and "java timed out after 1 s" in result.output
    assert "Traceback" not in result.output


def test_limits_are_per_program(monkeypatch):
    monkeypatch.delenv("BOOKBUILDER_JUDGE_TIMEOUT", raising=False)
    assert external.limit("/usr/bin/java") == external.LIMITS["java"]
    assert external.limit("ebook-convert") > external.limit("fc-list")
