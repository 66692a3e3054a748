"""One way to run another program (issue 34): a judge that hangs or is missing is one line, E412,
exit 1, not a hung `check --outputs` or a traceback."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bookbuilder.diagnostics import BookError
from bookbuilder.system import external
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


def test_limits_are_per_program(monkeypatch):
    monkeypatch.delenv("BOOKBUILDER_JUDGE_TIMEOUT", raising=False)
    assert external.limit("/usr/bin/java") == external.LIMITS["java"]
    assert external.limit("ebook-convert") > external.limit("fc-list")


def _cli(args, bin_dir, timeout="1"):
    """The real command line, in its own process (a traceback would be on its stderr), with the
    fake programs of bin_dir first on PATH."""
    env = dict(
        os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}", BOOKBUILDER_JUDGE_TIMEOUT=timeout
    )
    env.pop("BOOKBUILDER_ACE", None)
    return subprocess.run(
        [sys.executable, "-m", "bookbuilder", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parent.parent,
    )


def _two_chapters(tmp_path):
    return write_book(
        tmp_path / "b", {"1.txt": "第一章 甲\n他走了。\n", "2.txt": "第二章 乙\n她来了。\n"}, ""
    )


def test_a_hung_epubcheck_is_one_line_from_the_real_command_line(tmp_path):
    """The issue's done-when: a fake epubcheck (the `java` that runs it) that sleeps, a built book,
    `bookbuilder check --outputs`: `E412 … timed out`, exit 1, no traceback."""
    root = _two_chapters(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    assert _cli(["epub", str(root)], bin_dir).returncode == 0
    _fake(bin_dir, "java", "exec sleep 30")
    done = _cli(["check", str(root), "--outputs"], bin_dir)
    assert done.returncode == 1
    said = (done.stdout + done.stderr).splitlines()
    assert [line for line in said if "E412" in line] == [
        f"{root / 'build' / 'b.epub'}: error E412: java timed out after 1 s"
    ]
    assert "Traceback" not in done.stderr


def test_a_hung_calibre_is_one_line_from_the_real_command_line(tmp_path):
    """`bookbuilder azw3` with a fake ebook-convert that says where it is and then hangs: the
    progress is read line by line (external.Lines), and the limit still holds."""
    root = _two_chapters(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _fake(bin_dir, "ebook-convert", "echo '1% Converting input to HTML...'\nexec sleep 30")
    done = _cli(["azw3", str(root)], bin_dir)
    assert done.returncode == 1
    assert (
        f"{root / 'build' / 'b.azw3'}: error E412: ebook-convert timed out after 1 s"
        in done.stderr.splitlines()
    )
    assert "AZW3 1% Converting input to HTML..." in done.stderr  # the stage it announced was shown
    assert "Traceback" not in done.stderr
    assert not (root / "build" / "b.azw3").exists()


def test_lines_gives_each_line_and_a_tick_while_the_program_is_silent(tmp_path):
    talker = _fake(tmp_path, "talker", "echo one\nsleep 0.5\necho two >&2\nexit 3")
    output = external.Lines([str(talker)], tick=0.1)
    said = list(output)
    assert [line.strip() for line in said if line] == ["one", "two"]  # stderr too, in its place
    assert "" in said  # the half second of silence
    assert output.returncode == 3


def test_lines_of_a_program_that_hangs_is_E412(tmp_path, monkeypatch):
    monkeypatch.setenv("BOOKBUILDER_JUDGE_TIMEOUT", "0.5")
    sleeper = _fake(tmp_path, "ebook-convert", "echo started\nexec sleep 30")
    said = []
    with pytest.raises(BookError, match=r"E412: ebook-convert timed out after 0.5 s"):
        for line in external.Lines([str(sleeper)], "book.azw3", tick=0.1):
            said.append(line)
    assert said[0].strip() == "started"


def test_lines_of_a_program_that_is_missing_is_E412():
    with pytest.raises(BookError, match="E412: no-such-calibre could not be run"):
        list(external.Lines(["/nonexistent/no-such-calibre"]))


def test_a_hung_ace_is_E407_naming_the_limit(tmp_path, monkeypatch):
    """Ace that hangs is what Ace that fails was: E407, could not check (an Ace missing is I401)."""
    from bookbuilder.check import ace
    from bookbuilder.pipeline import build_epub, load_book

    epub, _ = build_epub(load_book(_two_chapters(tmp_path)))
    monkeypatch.setenv("BOOKBUILDER_ACE", str(_fake(tmp_path, "ace-puppeteer", "exec sleep 30")))
    monkeypatch.setenv("PUPPETEER_EXECUTABLE_PATH", "/bin/true")
    monkeypatch.setenv("BOOKBUILDER_JUDGE_TIMEOUT", "1")
    found = ace.check_ace(epub)
    assert [(d.code, d.message) for d in found] == [
        ("E407", "Ace by DAISY could not check the EPUB: ace-puppeteer timed out after 1 s")
    ]


def test_font_share_asks_fontconfig_through_external(tmp_path, monkeypatch):
    from bookbuilder.render import font_share

    _fake(tmp_path, "fc-list", 'echo "/fonts/NotoSerifCJK.ttc: index=2"')
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert font_share._system_font("NotoSerifCJKsc-Regular") == ("/fonts/NotoSerifCJK.ttc", 2)
    _fake(tmp_path, "fc-list", "exec sleep 30")
    monkeypatch.setenv("BOOKBUILDER_JUDGE_TIMEOUT", "0.5")
    with pytest.raises(BookError, match="E412: fc-list timed out after 0.5 s"):
        font_share._system_font("NotoSerifCJKsc-Regular")


def test_only_external_starts_a_process():
    package = Path(__file__).resolve().parent.parent / "bookbuilder"
    assert [
        str(p.relative_to(package))
        for p in sorted(package.rglob("*.py"))
        if "subprocess" in p.read_text("utf-8")
    ] == ["system/external.py"]
