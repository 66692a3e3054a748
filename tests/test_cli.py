import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from bookbuilder.cli import main
from tests.conftest import write_book

COMMANDS = main.list_commands(None)  # every command: the group's own and one per registered format


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(command):
    result = run(command, "--help")
    assert result.exit_code == 0 and "Usage:" in result.output
    assert main.get_command(None, command).help


def test_check_sample_warns_about_001_and_strict_fails(sample_book):
    result = run("check", sample_book)
    assert result.exit_code == 0
    assert "warning W301" in result.output and "001" in result.output
    assert "0 errors, 1 warning" in result.output
    assert run("check", sample_book, "--strict").exit_code == 1


def test_check_json_is_one_documented_object(sample_book):
    result = run("check", sample_book, "--json")
    data = json.loads(result.output)
    assert set(data) >= {"files", "chapters", "diagnostics"}
    assert [f["encoding"] for f in data["files"]] == ["utf-8", "utf-8"]
    assert {"title", "source", "paragraphs"} <= set(data["chapters"][0])
    assert data["chapters"][0]["source"].endswith("000_d74f4373f8865ab8.txt:1")
    (d, said) = data["diagnostics"]  # warnings first, then notes
    assert (d["code"], d["severity"], d["line"]) == ("W301", "warning", 1) and d["path"].endswith(
        "002_486e77a6121bde4f.txt"
    )
    assert (said["code"], said["severity"]) == ("I001", "info") and "辽东烽火" in said["message"]
    assert data["meta"]["title"] == {"value": "辽东烽火", "from": "book.toml"}


def test_check_github_annotations(sample_book):
    result = run("check", sample_book, "--format", "github")
    (line,) = result.output.splitlines()
    assert line.startswith("::warning file=") and ",line=1,title=W301::" in line


def test_png_renamed_txt_is_one_line_error_naming_the_file(tmp_path):
    root = write_book(
        tmp_path / "b", {"1.txt": "第一章\n内容。", "2.txt": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"}, ""
    )
    result = run("check", root)
    assert result.exit_code == 1
    (line,) = result.output.strip().splitlines()
    assert "2.txt" in line and "error E101" in line and "PNG" in line
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "files, toml, code, where",
    [
        (None, None, "E004", "nope"),
        ({}, "", "E005", "source"),
        ({"a.md": "hello"}, "", "E005", "source"),
        ({"1.txt": "第一章\n内容。"}, "[book\ntitle=1", "E001", "book.toml:1"),
        ({"1.txt": "第一章\n内容。"}, "[book]\ntitel = 'x'\n", "E002", "book.toml:2"),
        ({"1.txt": "第一章\n内容。"}, "[book]\ntitle = 3\n", "E003", "book.toml:2"),
        ({"1.txt": "第一章\n内容。"}, "[normalize]\nunwarp = false\n", "E002", "book.toml:2"),
        ({"1.txt": "第一章\n内容。"}, "[normalize]\njunk = 3\n", "E003", "book.toml:2"),
        ({"1.txt": "  \n\u3000\n"}, "", "E103", "source"),
        ({"1.txt": "第一章\n内容。"}, "[book]\ncover = '../../etc/passwd'\n", "E006", "book.toml:2"),
    ],
)
def test_bad_input_is_one_line_and_exit_1(tmp_path, files, toml, code, where):
    root = tmp_path / "b"
    if files is not None:
        write_book(root, files, toml)
    result = run("epub", root if files is not None else tmp_path / "nope")
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and f"error {code}" in lines[0] and where in lines[0], lines
    assert "Traceback" not in result.output


def test_usage_error_is_exit_2():
    assert run("epub", "--no-such-flag").exit_code == 2


def test_failed_build_leaves_previous_artifact(sample_book):
    assert run("epub", sample_book).exit_code == 0
    epub = sample_book / "build" / "liaodong.epub"
    before = epub.read_bytes()
    (sample_book / "source" / "003.txt").write_bytes(b"%PDF-1.4 broken")
    result = run("epub", sample_book)
    assert result.exit_code == 1 and "003.txt" in result.output
    assert epub.read_bytes() == before


def test_unwritable_output_folder(sample_book):
    (sample_book / "blocker").write_text("a file, not a folder")
    result = run("epub", sample_book, "-o", sample_book / "blocker" / "x.epub")
    assert result.exit_code == 1 and "error E007" in result.output and "Traceback" not in result.output


def test_bare_folder_and_single_file(tmp_path):
    folder = write_book(tmp_path / "我的书", {"1.txt": "第一章 开始\n正文。", "2.txt": "第二章 继续\n正文。"})
    result = run("epub", folder / "source")
    assert result.exit_code == 0, result.output
    assert (folder / "build").is_dir() and list((folder / "build").glob("*.epub"))
    single = tmp_path / "novel.txt"
    single.write_text("第一章 开始\n正文。\n\n第二章 继续\n正文。\n", "utf-8")
    assert run("epub", single).exit_code == 0
    assert list((tmp_path / "build").glob("*.epub"))


def test_init_scaffolds_a_buildable_project(tmp_path):
    result = run("init", tmp_path / "new")
    assert result.exit_code == 0
    assert (tmp_path / "new" / "book.toml").is_file() and (tmp_path / "new" / "styles" / "pdf.css").is_file()
    (tmp_path / "new" / "source" / "1.txt").write_text("第一章 开始\n正文。", "utf-8")
    assert run("check", tmp_path / "new").exit_code == 0


def test_toc_lists_volume_number_title_characters_source(tmp_path):
    novel = tmp_path / "novel.txt"
    novel.write_text("第一卷 起\n\n第一章 开始\n正文一。\n\n第二章 继续\n正文二。\n", "utf-8")
    result = run("toc", novel)
    assert result.exit_code == 0
    assert (
        "第一卷 起" in result.output and "[2] 第二章 继续" in result.output and "novel.txt:6" in result.output
    )
    rows = json.loads(run("toc", novel, "--json").output)
    assert [(r["volume"], r["number"], r["title"], r["characters"]) for r in rows] == [
        ("第一卷 起", 1, "第一章 开始", 4),
        ("第一卷 起", 2, "第二章 继续", 4),
    ]


def test_normalize_writes_review_text_and_never_touches_source(sample_book):
    before = {p.name: p.read_bytes() for p in (sample_book / "source").iterdir()}
    result = run("normalize", sample_book, "-o", sample_book / "review")
    assert result.exit_code == 0
    first = (sample_book / "review" / "00001.txt").read_text("utf-8").splitlines()
    assert first[0] == "第一章" and first[1] == ""
    assert {p.name: p.read_bytes() for p in (sample_book / "source").iterdir()} == before
    diff = run("normalize", sample_book, "--diff").output
    added = [line for line in diff.splitlines() if line.startswith("+")]
    assert (
        any("七十多万人马，眼下隋军分兵" in line for line in added)
        and "-马，眼下隋军分兵就成了自然而然事情。" in diff
    )
    assert not any("辽东城破" in line for line in added)  # unchanged lines are not in the diff


def test_normalize_in_place_is_idempotent(tmp_path):
    root = write_book(
        tmp_path / "b",
        {
            "1.txt": "第一章 开始\r\n　　他说:"
            '"走吧..."\r\n这是一个很长很长的句子但是还没有结束呢\r\n在这里结束。'.encode("gbk")
        },
        "",
    )
    assert run("normalize", root, "--in-place").exit_code == 0
    once = (root / "source" / "1.txt").read_text("utf-8")
    assert once == "第一章 开始\n\n他说：“走吧……”\n这是一个很长很长的句子但是还没有结束呢在这里结束。\n"
    assert run("normalize", root, "--in-place").exit_code == 0
    assert (root / "source" / "1.txt").read_text("utf-8") == once


def test_build_shows_a_few_of_each_warning_and_check_all(tmp_path):
    files = {f"{i}.txt": f"第{i}章\n他说：“没有结束。\n然后走了。" for i in range(1, 16)}
    root = write_book(tmp_path / "b", files, "")
    result = run("epub", root)
    assert result.exit_code == 0
    assert result.output.count("W201") == 10 + 1 and "and 5 more W201 warnings" in result.output
    assert run("check", root).output.count("warning W201") == 15


def test_console_script_prints_every_line_and_exits_with_our_codes(sample_book, tmp_path):
    """`python -m bookbuilder` as a user runs it: piped output whole, the artifact complete, and
    the exit codes are click's and ours."""
    import subprocess
    import sys
    import zipfile

    def console(*args):
        return subprocess.run(
            [sys.executable, "-m", "bookbuilder", *map(str, args)], capture_output=True, text=True
        )

    built = console("epub", sample_book, "-o", tmp_path / "b.epub")
    assert built.returncode == 0 and built.stdout == f"wrote {tmp_path / 'b.epub'}\n"
    assert "normalized:" in built.stderr
    with zipfile.ZipFile(tmp_path / "b.epub") as z:
        assert z.testzip() is None
    checked = console("check", sample_book, "--strict")
    assert checked.returncode == 1 and "warning W301" in checked.stdout
    missing = console("epub", tmp_path / "nowhere")
    assert missing.returncode == 1 and len(missing.stderr.splitlines()) == 1 and "E004" in missing.stderr
    assert console("epub", "--bogus").returncode == 2


# What `bookbuilder --version` and `--help` import besides the standard library: click, the command
# line and the formats' declarations (bookbuilder.render), nothing else; each command imports the
# stages, the renderers and their libraries (ebooklib, WeasyPrint, OpenCC, pypinyin, regex) when it runs.
QUICK_START = {"click", "bookbuilder", "bookbuilder.cli", "bookbuilder.progress", "bookbuilder.render"}


@pytest.mark.parametrize("flag", ["--version", "--help", "pdf --help"])
def test_a_quick_start_imports_only_click_and_the_declarations(flag):
    import subprocess
    import sys

    probe = (
        f"import sys\nsys.argv = ['bookbuilder', *{flag!r}.split()]\nfrom bookbuilder.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\nprint(' '.join(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    loaded = done.stdout.split("\n")[-2].split()
    ours = {
        m
        for m in loaded
        if m.split(".")[0] not in sys.stdlib_module_names and not m.startswith("_") and m != "click"
    }
    ours = {m for m in ours if not m.startswith("click.")} | {"click"}
    if flag == "pdf --help":  # the group's own start: Ctrl-C watched (system.atomic and its errors)
        ours -= {
            "bookbuilder.system",
            "bookbuilder.system.atomic",
            "bookbuilder.diagnostics",
            "bookbuilder.model",
        }
    assert ours == QUICK_START


def test_the_self_check_is_in_every_format_of_check_and_strict_fails_on_it(tmp_path):
    # a script call glued to a word inside the chapter, which cleaning leaves (after a sentence's end,
    # or at every chapter's edge, it would take it)
    story = "少年推开山门。\n风吹过。\n鸟飞过。\n天色暗了下来read2();\n他走了。\n她来了。\n夜深了。\n"
    files = {f"{k}.txt": f"第{k}章 山门\n{story}" for k in (1, 2, 3)}
    root = write_book(tmp_path / "b", files)
    runner = CliRunner()
    text = runner.invoke(main, ["check", str(root)])
    assert (
        text.exit_code == 0
        and "warning W203: 'read2();' (in '天色暗了下来read2();') looks like markup a scraper left"
        in text.output
    )
    assert "3 times, first here" in text.output
    github = runner.invoke(main, ["check", str(root), "--format", "github"])
    assert "::warning file=" in github.output and "title=W203::" in github.output
    found = json.loads(runner.invoke(main, ["check", str(root), "--json"]).output)
    assert [d["line"] for d in found["diagnostics"] if d["code"] == "W203"] == [5]
    assert runner.invoke(main, ["check", str(root), "--strict"]).exit_code == 1


def test_progress_without_a_terminal_is_a_line_about_every_tenth():
    from bookbuilder.progress import Progress

    runner = CliRunner()

    @click.command()
    def work():
        with Progress("PDF", tty=False) as progress:
            progress.stage("laying out")
            progress.count(25, "chapters")
            for _ in range(25):
                progress.update(1)
            progress.stage("merging")

    lines = runner.invoke(work).output.splitlines()
    assert [line.split(" chapters")[0] for line in lines] == [
        "PDF laying out",
        "PDF 12% 3/25",
        "PDF 20% 5/25",
        "PDF 32% 8/25",
        "PDF 40% 10/25",
        "PDF 52% 13/25",
        "PDF 60% 15/25",
        "PDF 72% 18/25",
        "PDF 80% 20/25",
        "PDF 92% 23/25",
        "PDF 100% 25/25",
        "PDF merging",
    ]
    assert lines[-2].endswith("chapters, 0 s left")


def test_a_quick_step_says_nothing_and_a_long_one_says_its_stage_once_late():
    """Quick loads print nothing; a stage still going on after `after` seconds is shown then."""
    import time

    from bookbuilder.progress import Progress

    @click.command()
    def work():
        with Progress("READ", after=0.3, tty=False) as progress:
            progress.stage("quick")
            progress.stage("slow")
            time.sleep(0.6)
        with Progress("READ", after=5, tty=False) as progress:
            progress.stage("quick")

    assert CliRunner().invoke(work).output.splitlines() == ["READ slow"]


def _console(*args, timeout=300):
    import subprocess
    import sys

    return subprocess.run(
        [sys.executable, "-m", "bookbuilder", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_a_pdf_built_into_a_pipe_says_how_far_it_is(tmp_path):
    root = write_book(tmp_path / "b", {f"{k}.txt": f"第{k}章 山门\n少年推开山门。\n" for k in range(1, 5)})
    done = _console("pdf", root, "-j", "1")
    assert done.returncode == 0, done.stderr
    shown = [line.split(" chapters")[0] for line in done.stderr.splitlines() if line.startswith("PDF ")]
    assert len(shown) >= 3 and "PDF 100% 4/4" in shown  # a short book is one document: one count
    assert shown[0] == "PDF laying out 4" and shown[-1].startswith("PDF merging")
    quiet = _console("-q", "pdf", root, "-j", "1")
    assert quiet.returncode == 0 and not [line for line in quiet.stderr.splitlines() if line.isupper()]
    assert not [line for line in quiet.stderr.splitlines() if line.startswith("PDF")]


def test_reading_and_writing_an_epub_say_what_they_do(tmp_path, monkeypatch):
    """Past QUICK seconds (here at once), the load counts the files it reads and names its
    stages, and the EPUB names its own; --quiet silences them, warnings stay."""
    from bookbuilder import cli

    monkeypatch.setattr(cli, "QUICK", 0)
    root = write_book(
        tmp_path / "b", {f"{k:02}.txt": f"第{k}章 山门\n少年推开山门。\n" for k in range(1, 21)}
    )
    lines = run("epub", root, "-j", "1").output.splitlines()
    read = [line for line in lines if line.startswith("READ ")]
    assert [line.split(" files")[0] for line in read if " files, " in line][-1] == "READ 100% 20/20"
    assert "READ the self-check" in read and "EPUB writing" in lines
    quiet = run("-q", "epub", root, "-j", "1").output.splitlines()
    assert not [line for line in quiet if line.startswith(("READ", "EPUB"))]


def test_a_cover_that_is_no_image_is_one_line_before_anything_else(tmp_path):
    """Before: the normalization summary, then the error. Now the cover is checked first."""
    root = write_book(
        tmp_path / "b", {"1.txt": "第一章 山门\n　　少年推开山门。\n"}, '[book]\ncover = "cover.jpg"\n'
    )
    (root / "cover.jpg").write_text("not an image", "utf-8")
    for command in ("epub", "build"):
        done = CliRunner().invoke(main, [command, str(root)])
        assert done.exit_code == 1, done.output
        assert done.stderr.splitlines() == [
            f"{root / 'cover.jpg'}: error E406: the cover is not a JPEG or PNG image"
        ]
        assert not (root / "build").exists()


def test_an_unreadable_folder_is_one_line_and_exit_1(tmp_path, monkeypatch):
    """Not click's usage error (exit 2), nor a traceback: E004 naming the folder. As root a chmod
    does not stop reading, so there the folder's scandir is made to fail as it would."""
    import os

    root = write_book(tmp_path / "b", {"1.txt": "第一章 山门\n　　少年推开山门。\n"})
    source = root / "source"
    if os.geteuid() == 0:
        real_scandir = os.scandir

        def scandir(path="."):
            if Path(path) == source:
                raise PermissionError(13, "Permission denied", str(path))
            return real_scandir(path)

        monkeypatch.setattr(os, "scandir", scandir)
    else:
        source.chmod(0)
    try:
        done = CliRunner().invoke(main, ["epub", str(root)])
    finally:
        source.chmod(0o755)
    assert done.exit_code == 1, done.output
    assert done.stderr.splitlines() == [f"{source}: error E004: cannot read: Permission denied"]


def test_the_book_path_is_not_checked_by_click():
    """click.Path checks an existing path's readability itself (os.access) and fails with its
    usage error, exit 2, before bookbuilder can say anything: the check is left to the loading."""
    for command in ("epub", "build", "check", "toc", "normalize"):
        path = next(p for p in main.get_command(None, command).params if p.name == "path")
        assert path.type.readable is False, command
