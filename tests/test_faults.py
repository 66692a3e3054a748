"""Hard inputs and faults: fuzzing, interrupted builds, confinement, missing pieces, escaping."""

import contextlib
import errno
import http.server
import os
import signal
import subprocess
import sys
import threading
import time
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bookbuilder.diagnostics import BookError
from bookbuilder.normalize.rules import normalize_book
from bookbuilder.pipeline import build_epub, build_pdf, load_book
from bookbuilder.structure.sections import split_sections
from tests.conftest import write_book
from tests.render.test_epub import assert_epubcheck_clean


def _left(folder):
    """What a build left in build/ besides the work it keeps for the next build (.cache, .checks)."""
    return sorted(p.name for p in folder.iterdir() if p.name not in (".cache", ".checks"))


LINES = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "第一章 开始",
                "第十二章",
                "第二卷 潜龙",
                "楔子",
                "……",
                "***",
                "。",
                "",
                "　　他说：“好。”",
                "天才一秒记住本站地址：www.xxx.com",
                "第一回合，李四就被打倒在地。",
                "书名：测试",
                "作者：某人",
            ]
        ),
        st.text(
            st.characters(min_codepoint=0x20, max_codepoint=0x9FFF, blacklist_categories=("Cs",)), max_size=40
        ),
    ),
    max_size=40,
)


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(LINES, st.booleans())
def test_fuzz_parser_and_normalizer_never_crash(tmp_path, lines, single):
    """Random lines through the whole loading pipeline: a Book or one of our errors, never another
    exception; normalizing the normalized book changes nothing."""
    text = "\n".join(lines)
    if single:
        path = tmp_path / "novel.txt"
        path.write_text(text, "utf-8")
    else:
        path = write_book(tmp_path / "b", {"1.txt": text, "2.txt": "第二章\n" + text}, "")
    try:
        loaded = load_book(path)
    except BookError as e:
        assert e.diagnostic.code in ("E103", "E005")
        return
    again = normalize_book(loaded.book, loaded.config.normalize)
    assert [[b for b in c.blocks] for c in again.chapters()] == [
        [b for b in c.blocks] for c in loaded.book.chapters()
    ]


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.text(max_size=300))
def test_fuzz_split_sections(text):
    from bookbuilder.model import Paragraph, SceneBreak

    sections, notes = split_sections(text, "f.txt")
    lines = [b.at.line for s in sections for b in s.blocks]
    assert lines == sorted(lines)
    for s in sections:
        assert not s.blocks or not (
            isinstance(s.blocks[0], SceneBreak) or isinstance(s.blocks[-1], SceneBreak)
        )
        assert all(b.text.strip() for b in s.blocks if isinstance(b, Paragraph))


def _long_book(tmp_path, lines: int = 150, count: int = 40):
    chapters = {
        f"{i:03d}.txt": f"第{i}章\n" + "城上守军齐声惊呼，西门起火，王宫起火。\n" * lines
        for i in range(1, count + 1)
    }
    root = write_book(tmp_path / "b", chapters, '[output]\nname = "big"\n[pdf]\nchunk_chapters = 4\n')
    target = root / "build" / "big.pdf"
    target.parent.mkdir()
    target.write_bytes(b"%PDF-1.7 the earlier artifact")
    return root, target


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_interrupted_build_leaves_the_previous_artifact(tmp_path, jobs):
    """Ctrl-C in the middle of rendering a PDF (to the whole process group, as a terminal sends
    it): exit 130, earlier PDF byte for byte, no temp files, on one process or several."""
    root, target = _long_book(tmp_path, lines=200, count=160)  # far more than 4 s of rendering, even on two
    proc = subprocess.Popen(
        [sys.executable, "-m", "bookbuilder", "pdf", str(root), "-j", jobs],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(4)  # loading takes well under this; rendering 40 long chapters takes far longer
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert target.read_bytes() == b"%PDF-1.7 the earlier artifact"
    assert _left(target.parent) == ["big.pdf"]


def test_failure_while_writing_leaves_the_previous_artifact(tmp_path, monkeypatch):
    """A failure injected between rendering and the rename: the target is untouched."""
    from bookbuilder.system import atomic

    root = write_book(tmp_path / "b", {"1.txt": "第一章\n正文。"}, "")
    loaded = load_book(root)
    target, _ = build_epub(loaded)
    before = target.read_bytes()

    def fail(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", fail)
    with pytest.raises(BookError, match="E007.*No space left on device"):
        build_epub(load_book(write_book(tmp_path / "b", {"1.txt": "第一章\n改过的正文。"}, "")))
    assert target.read_bytes() == before
    assert _left(target.parent) == [target.name]


def test_a_full_disk_is_one_line_and_leaves_the_earlier_artifact(tmp_path, monkeypatch):
    """ENOSPC while the EPUB of a book read on two processes is written: one E007 line, exit 1,
    the earlier EPUB byte for byte, no temporary file, no worker left behind."""
    import pathlib

    from click.testing import CliRunner

    from bookbuilder.cli import main

    root = write_book(tmp_path / "b", {f"{i:03d}.txt": f"第{i}章\n正文{i}。" for i in range(1, 301)}, "")
    target = root / "build" / "earlier.epub"
    target.parent.mkdir()
    target.write_bytes(b"PK the earlier artifact")
    write_bytes = pathlib.Path.write_bytes

    def fill_up(self, data):
        if self.name.endswith(".part"):
            write_bytes(self, data[: len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_bytes(self, data)

    monkeypatch.setattr(pathlib.Path, "write_bytes", fill_up)
    result = CliRunner().invoke(main, ["epub", str(root), "-o", str(target), "-j", "2"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert [line for line in result.output.splitlines() if "error" in line] == [
        f"{target}: error E007: cannot write: No space left on device"
    ]
    assert target.read_bytes() == b"PK the earlier artifact"
    assert _left(target.parent) == ["earlier.epub"]
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # no worker left, not even a zombie


@pytest.mark.parametrize(
    "key, toml_value",
    [("book.cover", "cover"), ("pdf.css", "css"), ("pdf.font", "font"), ("source.dir", "dir")],
)
def test_paths_in_book_toml_must_stay_inside_the_project(tmp_path, key, toml_value):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x").write_text("secret")
    root = write_book(tmp_path / "b", {"1.txt": "第一章\n正文。"}, "")
    (root / "link").symlink_to(outside / "x")  # a symlink is resolved before the check
    section, name = key.split(".")
    (root / "book.toml").write_text(f'[{section}]\n{name} = "link"\n', "utf-8")
    with pytest.raises(BookError) as e:
        loaded = load_book(root)
        build_pdf(loaded, jobs=1)
    assert e.value.diagnostic.code == "E006" and key in e.value.diagnostic.message
    assert e.value.diagnostic.at.path.endswith("book.toml") and e.value.diagnostic.at.line == 2


def test_css_never_fetches_outside_files_or_the_network(tmp_path):
    """A local HTTP server on 127.0.0.1 records requests: the build must make none."""
    seen = []

    class Recorder(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            seen.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"p { color: red }")

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Recorder)
    port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        root = write_book(tmp_path / "b", {"1.txt": "第一章\n正文。"}, "")
        (root / "styles").mkdir()
        (root / "styles" / "pdf.css").write_text(
            f'@import url("http://127.0.0.1:{port}/import.css");\n'
            f'h2::before {{ content: url("http://127.0.0.1:{port}/image.png") }}\n'
            'p::before { content: url("file:///etc/hostname") }\n'
            f'body {{ background: url("https://127.0.0.1:{port}/bg.png") }}\n',
            "utf-8",
        )
        (root / "book.toml").write_text('[pdf]\ncss = "styles/pdf.css"\n', "utf-8")
        path, _ = build_pdf(load_book(root), jobs=1)
        assert path.exists()
    finally:
        server.shutdown()
    assert seen == []


def test_no_cjk_font_is_one_line_and_exit_1(tmp_path):
    conf = tmp_path / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
        f"<dir>{tmp_path / 'nofonts'}</dir><cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>"
    )
    root = write_book(tmp_path / "b", {"1.txt": "第一章\n正文。"}, "")
    env = dict(os.environ, FONTCONFIG_FILE=str(conf))
    out = subprocess.run(
        [sys.executable, "-m", "bookbuilder", "pdf", str(root), "-j", "1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 1
    errors = [line for line in out.stderr.splitlines() if "error" in line]
    assert len(errors) == 1 and "E405" in errors[0] and "fonts-noto-cjk" in errors[0]
    assert "Traceback" not in out.stderr


def test_titles_and_metadata_are_escaped_everywhere(tmp_path):
    root = write_book(
        tmp_path / "b",
        {"1.txt": "第一章 1<2 &amp; 3>2 ]]>\n<script>alert(1)</script>\n"},
        '[book]\ntitle = "<书> & \\"名\\""\nauthor = "A & B <c>"\n',
    )
    epub, _ = build_epub(load_book(root))
    assert_epubcheck_clean(epub)
    with zipfile.ZipFile(epub) as z:
        opf = z.read("EPUB/content.opf").decode()
        ncx = z.read("EPUB/toc.ncx").decode()
        chapter = z.read("EPUB/text/ch00001.xhtml").decode()
    assert "&lt;书&gt; &amp; " in opf and "A &amp; B &lt;c&gt;" in opf
    assert "1&lt;2 &amp; 3&gt;2 ]]&gt;" in ncx
    assert "<script>" not in chapter and "alert(1)" not in chapter


def test_source_folder_vanishing_mid_build(tmp_path, monkeypatch):
    """The folder disappears between finding the files and reading them: one clear error."""
    import shutil

    from bookbuilder import pipeline

    root = write_book(tmp_path / "b", {"1.txt": "第一章\n正文。", "2.txt": "第二章\n正文。"}, "")
    real_discover = pipeline.discover

    def discover_then_vanish(*args):
        groups = real_discover(*args)
        shutil.rmtree(root / "source")
        return groups

    monkeypatch.setattr(pipeline, "discover", discover_then_vanish)
    with pytest.raises(BookError) as e:
        load_book(root)
    assert e.value.diagnostic.code == "E004" and "1.txt" in e.value.diagnostic.at.path
    assert "cannot read" in e.value.diagnostic.message


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def test_a_pdf_worker_killed_mid_render_is_one_line_and_leaves_nothing(tmp_path):
    """SIGKILL to a PDF worker (what the OOM killer does): exit 1 with one E408 line naming the
    stage and suggesting --jobs 1, no traceback, no hang, the earlier PDF byte for byte, no
    temporary file, no worker left running."""
    root, target = _long_book(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bookbuilder", "pdf", str(root), "-j", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while len(workers := _children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(workers) >= 2, "the PDF workers never started"
        time.sleep(1)  # into the layout of the first chunks
        os.kill(workers[0], signal.SIGKILL)
        out, err = proc.communicate(timeout=60)  # a hang (CPython issue 94777) fails here
    finally:
        for pid in [proc.pid, *_children(proc.pid)]:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == 1, err
    assert "Traceback" not in err
    assert (
        err.splitlines()[-1]
        == "error E408: a worker process died (out of memory, or killed) while rendering the PDF; try again "
        "with --jobs 1"
    )
    assert target.read_bytes() == b"%PDF-1.7 the earlier artifact"
    assert _left(target.parent) == ["big.pdf"]
    for pid in workers:
        assert not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z"


def _render_or_fail(job, *args, **kwargs):
    if os.getpid() != PARENT:
        raise RuntimeError("a bug in a worker")
    return RENDER_DOCUMENT(job, *args, **kwargs)


PARENT = os.getpid()
RENDER_DOCUMENT = None


def test_a_pdf_worker_that_raises_is_one_line_naming_the_stage(tmp_path, monkeypatch):
    global RENDER_DOCUMENT
    from click.testing import CliRunner

    from bookbuilder.cli import main
    from bookbuilder.render import pdf_pages

    root, target = _long_book(tmp_path)
    RENDER_DOCUMENT = pdf_pages.render_document
    monkeypatch.setattr(pdf_pages, "render_document", _render_or_fail)
    result = CliRunner().invoke(main, ["pdf", str(root), "-j", "2"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.splitlines()[-1] == (
        "error E408: a worker process failed (RuntimeError: a bug in a worker) "
        "while rendering the PDF; try again with --jobs 1"
    )
    assert target.read_bytes() == b"%PDF-1.7 the earlier artifact"
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)
