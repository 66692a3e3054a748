"""One test per diagnostic code: each is produced by a real input and carries its location.

Most codes have a folder, tests/diagnostics/<CODE>/ (as Standard Ebooks' `se` keeps one per lint
code): `in/`, the book (a project with book.toml and source/, or one .txt), and `expected.txt`,
every line of that code that loading it prints. `pytest tests/test_diagnostics.py --regen-golden`
writes the expected files again (then read their diff). The codes that need a running tool, a
fault or a generated input too large to keep are TRIGGERS, named records below. A code added to
the catalogue with neither fails `test_every_code_has_a_folder_or_a_trigger`."""

import os
import shutil
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bookbuilder.check.judges import check_epub, check_pdf
from bookbuilder.decode.text import decode_chapter
from bookbuilder.diagnostics import CODES, BookError, Diagnostic
from bookbuilder.pipeline import build, build_epub, build_pdf, load_book
from bookbuilder.render.fonts import find_font
from bookbuilder.shelf.books import find_books
from tests.conftest import REPO, write_book

OK = {"1.txt": "第一章 开始\n正文。"}
TWENTY_CHAPTERS = {f"{i}.txt": f"第{i}章\n正文。" for i in range(1, 21)}  # more than Ace's sample


def diagnostics_of(root):
    return load_book(root).diagnostics


PARENT = os.getpid()


def error_of(fn):
    with pytest.raises(BookError) as e:
        fn()
    return e.value.diagnostic


def book(tmp_path, files=OK, toml=""):
    return write_book(tmp_path / "b", files, toml)


def first(found, code):
    return next(d for d in found if d.code == code)


@dataclass(frozen=True)
class Trigger:
    """A code that needs a running tool, a fault or a generated input too large to keep as a
    folder: `found(tmp_path)` makes the diagnostic, `path` is a part of where it points
    (None: nowhere in particular), `line` its line (None: the whole file)."""

    found: Callable[[Path], Diagnostic]
    path: str | None
    line: int | None


# The codes tests/diagnostics/ has no folder for, each a named record.
TRIGGERS = {
    "E004": Trigger(
        found=lambda t: error_of(lambda: load_book(t / "missing")),
        path="missing",
        line=None,
    ),
    "E007": Trigger(
        found=lambda t: error_of(lambda: build_epub(load_book(book(t)), _blocked(t) / "x.epub")),
        path="blocker",
        line=None,
    ),
    "E010": Trigger(
        found=lambda t: serve_on_a_port_in_use(book(t)),
        path=None,
        line=None,
    ),
    "E011": Trigger(
        found=lambda t: error_of(lambda: find_books(_a_shelf_listing(t, "nothing-here"))),
        path="shelf.toml",
        line=None,
    ),
    "E420": Trigger(
        found=lambda t: error_of(lambda: _no_scheduler(t)),
        path="tcp://127.0.0.1:",
        line=None,
    ),
    "W103": Trigger(
        found=lambda t: first(decode_chapter("他說：「好。」".encode("big5"), "s.txt").diagnostics, "W103"),
        path="s.txt",
        line=None,
    ),
    "W105": Trigger(
        found=lambda t: first(
            decode_chapter("안녕하세요 세계".encode("euc-kr"), "k.txt").diagnostics, "W105"
        ),
        path="k.txt",
        line=None,
    ),
    "W106": Trigger(
        found=lambda t: first(
            decode_chapter("第一章\n他说。\n中文".encode("gbk")[:-1], "d.txt").diagnostics, "W106"
        ),
        path="d.txt",
        line=3,
    ),
    "W107": Trigger(
        found=lambda t: first(decode_chapter(_mixed(), "m.txt").diagnostics, "W107"),
        path="m.txt",
        line=4,
    ),
    "W108": Trigger(
        found=lambda t: first(
            decode_chapter(
                ("第一章\n" + "他说。\n" * 300).encode("gbk") + b"<PIXTEL_MMI_EBOOK_2005>3" + bytes(80),
                "p.txt",
            ).diagnostics,
            "W108",
        ),
        path="p.txt",
        line=302,
    ),
    "W110": Trigger(
        found=lambda t: first(
            decode_chapter(("第一章\n" + "他说。\n" * 300).encode("gbk") + bytes(9000), "n.txt").diagnostics,
            "W110",
        ),
        path="n.txt",
        line=302,
    ),
    "W301": Trigger(
        found=lambda t: first(diagnostics_of(REPO), "W301"),
        path="002_486e77a6121bde4f.txt",
        line=1,
    ),
    "W306": Trigger(
        found=lambda t: first(
            diagnostics_of(book(t, files={"1.txt": "第一章\n" + "长句子。\n" * 13000})), "W306"
        ),
        path="1.txt",
        line=1,
    ),
    "W307": Trigger(
        found=lambda t: first(load_book(_novel(t, "长句子。\n" * 30000)).diagnostics, "W307"),
        path="novel.txt",
        line=None,
    ),
    "E401": Trigger(
        found=lambda t: first(check_epub(_broken_epub(t)), "E401"),
        path="broken.epub!EPUB/text/ch00001.xhtml",
        line=None,
    ),
    "W401": Trigger(
        found=lambda t: first(
            check_epub(build_epub(load_book(book(t, toml='[book]\ndate = "去年春天"\n')))[0]), "W401"
        ),
        path=".epub!EPUB/content.opf",
        line=10,
    ),
    "W402": Trigger(
        found=lambda t: first(check_epub(_huge_epub(t)), "W402"),
        path="huge.epub",
        line=None,
    ),
    "E402": Trigger(
        found=lambda t: first(_without_java(lambda: check_epub(_built_epub(t))), "E402"),
        path=".epub",
        line=None,
    ),
    "E403": Trigger(
        found=lambda t: first(check_pdf(_garbage_pdf(t), load_book(book(t)).book), "E403"),
        path="bad.pdf",
        line=None,
    ),
    "E404": Trigger(
        found=lambda t: error_of(
            lambda: build_pdf(load_book(book(t, files={"1.txt": "第一章\n正文\U0001e900。"})), jobs=1)
        ),
        path="1.txt",
        line=2,
    ),
    "E405": Trigger(
        found=lambda t: error_of(lambda: find_font("No Such Font Family CJK", "Regular")),
        path=None,
        line=None,
    ),
    "E406": Trigger(
        found=lambda t: error_of(
            lambda: build_epub(load_book(_with_cover(book(t, toml="[book]\ncover = 'c.png'\n"), b"GIF89a")))
        ),
        path="c.png",
        line=None,
    ),
    "W403": Trigger(
        found=lambda t: first(
            build_epub(load_book(_with_cover(book(t, toml="[book]\ncover = 'c.png'\n"), _png(200, 200))))[1],
            "W403",
        ),
        path="c.png",
        line=None,
    ),
    "W405": Trigger(
        found=lambda t: first(build_pdf(load_book(_styled(t, "p { colr: red; }\n")), jobs=1)[1], "W405"),
        path="pdf.css",
        line=2,
    ),
    "E408": Trigger(
        found=lambda t: _worker_killed(t),
        path=None,
        line=None,
    ),
    "W406": Trigger(
        found=lambda t: first(
            _kindle(_rewrite(_built_epub(t), t / "nolang.epub", lambda n, d: _no_language(n, d))), "W406"
        ),
        path="nolang.epub",
        line=None,
    ),
    "W407": Trigger(
        found=lambda t: first(
            _kindle(_rewrite(_built_epub(t), t / "link.epub", lambda n, d: _dead_link(n, d))), "W407"
        ),
        path="link.epub",
        line=None,
    ),
    "W408": Trigger(
        found=lambda t: first(
            _kindle(_rewrite(_built_epub(t), t / "big.epub", lambda n, d: _big_image(n, d))), "W408"
        ),
        path="big.epub",
        line=None,
    ),
    "E409": Trigger(
        found=lambda t: _without_java(lambda: error_of(lambda: build(load_book(book(t)), "azw3"))),
        path=".azw3",
        line=None,
    ),
    "E410": Trigger(
        found=lambda t: error_of(lambda: _convert(_garbage_azw3(t), t / "out.epub")),
        path="bad.azw3",
        line=None,
    ),
    "E411": Trigger(
        found=lambda t: first(_checked_against_another_book(t), "E411"),
        path=".azw3",
        line=None,
    ),
    "E412": Trigger(
        found=lambda t: error_of(
            lambda: __import__("bookbuilder.system.external", fromlist=["x"]).run(
                ["/nonexistent/judge"], "x.epub"
            )
        ),
        path="x.epub",
        line=None,
    ),
    "I402": Trigger(
        # where Ace is installed (as E407 and W404): without it, check_ace says I401 instead
        found=lambda t: first(_ace_or_skip(build_epub(load_book(book(t, files=TWENTY_CHAPTERS)))[0]), "I402"),
        path=".epub",
        line=None,
    ),
    "I401": Trigger(
        found=lambda t: first(
            _without_ace(
                lambda: __import__("bookbuilder.check.ace", fromlist=["x"]).check_ace(_built_epub(t))
            ),
            "I401",
        ),
        path=".epub",
        line=None,
    ),
    "E407": Trigger(
        found=lambda t: first(_ace_or_skip(_inaccessible_epub(t)), "E407"),
        path="bad-a11y.epub!",
        line=None,
    ),
    "W404": Trigger(
        found=lambda t: first(_ace_or_skip(_moderate_epub(t)), "W404"),
        path="moderate.epub!",
        line=None,
    ),
}


def _mixed():
    """Three Big5 lines, then three GBK lines, then Big5 again."""
    big5 = "他說：「走吧。」她點了點頭，城上守軍齊聲驚呼，西門起火了。\n".encode("big5")
    gbk = "她点了点头说：“好。”城上守军齐声惊呼，西门起火，众人都惊呆了。\n".encode("gbk")
    return big5 * 3 + gbk * 3 + big5 * 3


def _novel(t, text):
    t.mkdir(exist_ok=True)
    (t / "novel.txt").write_text(text, "utf-8")
    return t / "novel.txt"


def _without_ace(fn):
    from bookbuilder.check import ace

    saved = ace.find_ace
    ace.find_ace = lambda: None  # as on a machine without it: the real lookup is tested in test_ace.py
    try:
        return fn()
    finally:
        ace.find_ace = saved


def _ace_or_skip(epub):
    from bookbuilder.check import ace

    if not ace.find_ace() or not ace.find_chromium():
        pytest.skip("Ace by DAISY is not installed here")
    return ace.check_ace(epub)


def _inaccessible_epub(t):
    """An image without alt text: a serious violation (image-alt)."""
    return _rewrite(
        _built_epub(t),
        t / "bad-a11y.epub",
        lambda name, data: (
            data.replace(b'alt="', b'data-x="')
            if name.endswith("cover.xhtml")
            else (None if name == "__extra__" else data)
        ),
    )


def _moderate_epub(t):
    """Headings that skip a level (h1 → h4): a moderate violation (heading-order)."""

    def change(name, data):
        if name == "__extra__":
            return None
        if name.endswith("ch00001.xhtml"):
            return data.replace(b"<p>", b"<h4>x</h4><p>", 1)
        return data

    return _rewrite(_built_epub(t), t / "moderate.epub", change)


def _a_shelf_listing(tmp_path, name):
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "shelf.toml").write_text(f'[shelf]\nbooks = ["{name}"]\n', "utf-8")
    return shelf


def _no_scheduler(tmp_path):
    """A shelf built with --scheduler naming a port where nothing listens."""
    import socket

    from bookbuilder.shelf import cluster
    from bookbuilder.shelf.build import build_shelf

    shelf = tmp_path / "shelf"
    write_book(shelf / "one", OK, '[output]\nformats = ["epub"]\n')
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    wait, cluster.CONNECT_SECONDS = cluster.CONNECT_SECONDS, 2
    try:
        build_shelf(shelf, scheduler=f"tcp://127.0.0.1:{port}")
    finally:
        cluster.CONNECT_SECONDS = wait


def _blocked(t):
    (t / "blocker").write_text("a file where a folder should be")
    return t / "blocker"


def _png(w, h):
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (w, h)).save(out, "PNG")
    return out.getvalue()


def _with_cover(root, data):
    (root / "c.png").write_bytes(data)
    return root


def _built_epub(t):
    return build_epub(load_book(book(t)))[0]


def _rewrite(src, dst, change):
    with zipfile.ZipFile(src) as z, zipfile.ZipFile(dst, "w") as out:
        for info in z.infolist():
            data = change(info.filename, z.read(info.filename))
            out.writestr(
                info,
                data,
                compress_type=zipfile.ZIP_STORED if info.filename == "mimetype" else zipfile.ZIP_DEFLATED,
            )
        if change("__extra__", None):
            out.writestr("EPUB/extra.txt", change("__extra__", None))
    return dst


def _broken_epub(t):
    return _rewrite(
        _built_epub(t),
        t / "broken.epub",
        lambda name, data: (
            data.replace(b"</p>", b"</para>", 1)
            if name.endswith("ch00001.xhtml")
            else (None if name == "__extra__" else data)
        ),
    )


def _huge_epub(t):
    path = t / "huge.epub"
    shutil.copy(_built_epub(t), path)
    with open(path, "ab") as f:
        f.truncate(51 * 2**20)
    return path


def _styled(t, css):
    root = book(t, toml='[pdf]\ncss = "pdf.css"\n')
    (root / "pdf.css").write_text("/* the book's own */\n" + css, "utf-8")
    return root


def _worker_killed(t):
    """A book of 250 files read on two workers, each killed as the kernel's OOM killer would kill
    it (the forked workers inherit the patch; this process is spared)."""
    from bookbuilder import pipeline

    root = book(t, files={f"{i}.txt": f"第{i}章\n正文。" for i in range(1, 251)})
    original = pipeline.read_and_normalize
    pipeline.read_and_normalize = _read_or_die
    try:
        return error_of(lambda: load_book(root, jobs=2))
    finally:
        pipeline.read_and_normalize = original


def _read_or_die(rules, spec):
    if os.getpid() != PARENT:
        os.kill(os.getpid(), 9)
    raise AssertionError("read in this process")


def _convert(source, target):
    from bookbuilder.render.azw3 import calibre, run

    return run([calibre("ebook-convert", str(source)), str(source), str(target)], str(source))


def _garbage_azw3(t):
    (t / "bad.azw3").write_bytes(b"not a Kindle book at all" * 10)
    return t / "bad.azw3"


def _checked_against_another_book(t):
    from bookbuilder.render import renderer

    azw3, _ = build(load_book(book(t, toml='[book]\ntitle = "甲"\n')), "azw3")
    other = load_book(write_book(t / "other", OK, '[book]\ntitle = "乙"\n')).book
    return renderer("azw3").check(azw3, other)


def _kindle(path):
    from bookbuilder.check.kindle import kindle_findings

    return kindle_findings(path)


def _no_language(name, data):
    if name == "__extra__":
        return None
    return data.replace(b"<dc:language>zh-Hans</dc:language>", b"") if name.endswith(".opf") else data


def _dead_link(name, data):
    if name == "__extra__":
        return None
    return (
        data.replace(b"</section>", b'<p><a href="ch00009.xhtml#nowhere">x</a></p></section>', 1)
        if name.endswith("ch00001.xhtml")
        else data
    )


def _big_image(name, data):
    if name == "__extra__":
        return bytes(6 * 2**20)
    if name.endswith(".opf"):
        return data.replace(
            b"</manifest>", b'<item href="extra.txt" id="big" media-type="image/png"/></manifest>'
        )
    return data


def _garbage_pdf(t):
    (t / "bad.pdf").write_bytes(b"%PDF-1.7\nthis is not a PDF body")
    return t / "bad.pdf"


def _without_java(fn):
    path = os.environ["PATH"]
    os.environ["PATH"] = "/nonexistent"
    try:
        return fn()
    finally:
        os.environ["PATH"] = path


def serve_on_a_port_in_use(root):
    import socket

    from bookbuilder.serve.server import serve

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        return error_of(lambda: serve(root, "127.0.0.1", taken.getsockname()[1], 1, lambda line: None))


FOLDERS = REPO / "tests" / "diagnostics"
FOLDER_CODES = sorted(p.name for p in FOLDERS.iterdir() if (p / "in").is_dir())


def test_every_code_has_a_folder_or_a_trigger():
    assert set(FOLDER_CODES) | set(TRIGGERS) == set(CODES)
    assert not set(FOLDER_CODES) & set(TRIGGERS)  # one place per code


def lines_of_code(code: str, tmp_path: Path, monkeypatch) -> list[str]:
    """What loading the folder's book prints of `code`, paths as seen from beside in/."""
    shutil.copytree(FOLDERS / code / "in", tmp_path / "in")
    monkeypatch.chdir(tmp_path)
    book = Path("in")
    if not (book / "book.toml").exists() and not (book / "source").exists():
        (book,) = book.glob("*.txt")  # a whole-novel file
    try:
        found = load_book(book, jobs=1).diagnostics
    except BookError as e:
        found = (e.diagnostic,)
    here = str(tmp_path.resolve()) + os.sep  # some messages name a folder by its full path
    return [str(d).replace(here, "") for d in found if d.code == code]


@pytest.mark.parametrize("code", FOLDER_CODES)
def test_the_folder_gives_its_code(code, tmp_path, monkeypatch, regen):
    lines = lines_of_code(code, tmp_path, monkeypatch)
    expected = FOLDERS / code / "expected.txt"
    if regen:
        expected.write_text("".join(line + "\n" for line in lines), "utf-8")
    severity = {"E": "error", "W": "warning", "I": "info"}[code[0]]
    assert lines and all(f"{severity} {code}: " in line for line in lines)  # the code says it
    assert lines == expected.read_text("utf-8").splitlines()


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_code_and_location(tmp_path, code):
    if code == "E404" and os.popen("fc-list :charset=1e900").read().strip():
        pytest.skip("an installed font covers Adlam here")
    trigger = TRIGGERS[code]
    diagnostic, path_part, line = trigger.found(tmp_path), trigger.path, trigger.line
    assert diagnostic.code == code
    assert (
        str(diagnostic.severity) == {"E": "error", "W": "warning", "I": "info"}[code[0]]
    )  # the code says it
    if path_part is not None:
        assert diagnostic.at is not None and path_part in diagnostic.at.path, diagnostic
    if line is not None:
        assert diagnostic.at.line == line, diagnostic
