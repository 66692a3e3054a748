"""One test per diagnostic code: each is produced by a real input and carries its location.
A code added to the catalogue without a trigger here fails `test_every_code_has_a_trigger`."""

import os
import shutil
import zipfile

import pytest

from bookbuilder.check.judges import check_epub, check_pdf
from bookbuilder.decode.text import decode_chapter
from bookbuilder.diagnostics import CODES, BookError
from bookbuilder.pipeline import build, build_epub, build_pdf, load_book
from bookbuilder.render.fonts import find_font
from tests.conftest import REPO, write_book

OK = {"1.txt": "第一章 开始\n正文。"}


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


TRIGGERS = {
    "E001": lambda t: (error_of(lambda: load_book(book(t, toml="[book\n"))), "book.toml", 1),
    "E002": lambda t: (error_of(lambda: load_book(book(t, toml="[book]\nx = 1\n"))), "book.toml", 2),
    "E003": lambda t: (error_of(lambda: load_book(book(t, toml="\n[pdf]\njobs = 'two'\n"))), "book.toml", 3),
    "E004": lambda t: (error_of(lambda: load_book(t / "missing")), "missing", None),
    "E005": lambda t: (error_of(lambda: load_book(book(t, files={"a.md": "x"}))), "source", None),
    "E006": lambda t: (error_of(lambda: load_book(book(t, toml="[source]\ndir = '..'\n"))), "book.toml", 2),
    "E007": lambda t: (
        error_of(lambda: build_epub(load_book(book(t)), _blocked(t) / "x.epub")),
        "blocker",
        None,
    ),
    "E008": lambda t: (
        error_of(lambda: load_book(book(t, toml="[book]\ncover = 'nope.jpg'\n"))),
        "book.toml",
        2,
    ),
    "E009": lambda t: (
        error_of(lambda: load_book(book(t, toml='\n[[fix]]\ntitle = "第九章"\nas = "text"\n'))),
        "book.toml",
        2,
    ),
    "I305": lambda t: (
        first(diagnostics_of(book(t, toml='[[fix]]\ntitle = "第一章 开始"\nrename = "第一章 起"\n')), "I305"),
        "1.txt",
        1,
    ),
    "I001": lambda t: (first(diagnostics_of(book(t)), "I001"), None, None),
    "E010": lambda t: (serve_on_a_port_in_use(book(t)), None, None),
    "I306": lambda t: (
        first(
            diagnostics_of(
                book(
                    t,
                    files={
                        "all.txt": "".join(
                            f"第{n}章\n正文{k}。\n" for k, n in enumerate([*range(1, 11), 1, 2])
                        )
                    },
                )
            ),
            "I306",
        ),
        "all.txt",
        21,
    ),
    "E101": lambda t: (error_of(lambda: load_book(book(t, files={"1.txt": b"%PDF-1.4"}))), "1.txt", None),
    "E102": lambda t: (
        error_of(lambda: load_book(book(t, files={"1.txt": b"\x80\x80\xff" * 5}))),
        "1.txt",
        None,
    ),
    "E103": lambda t: (error_of(lambda: load_book(book(t, files={"1.txt": " \n"}))), "source", None),
    "E104": lambda t: (
        error_of(
            lambda: load_book(
                book(t, files={"1.txt": "中文".encode("gbk")}, toml="[source]\nencoding = 'utf-8'\n")
            )
        ),
        "1.txt",
        None,
    ),
    "W101": lambda t: (
        first(diagnostics_of(book(t, files={**OK, "2.txt": "\u3000\n"})), "W101"),
        "2.txt",
        None,
    ),
    "W102": lambda t: (
        first(diagnostics_of(book(t, files={"1.txt": "第一章\n好\n锟斤拷"})), "W102"),
        "1.txt",
        3,
    ),
    "W103": lambda t: (
        first(decode_chapter("他說：「好。」".encode("big5"), "s.txt").diagnostics, "W103"),
        "s.txt",
        None,
    ),
    "W104": lambda t: (
        first(
            diagnostics_of(
                book(t, files={"1.txt": b"\x80\x80\xff" * 5}, toml="[source]\nerrors = 'replace'\n")
            ),
            "W104",
        ),
        "1.txt",
        None,
    ),
    "W105": lambda t: (
        first(decode_chapter("안녕하세요 세계".encode("euc-kr"), "k.txt").diagnostics, "W105"),
        "k.txt",
        None,
    ),
    "W106": lambda t: (
        first(decode_chapter("第一章\n他说。\n中文".encode("gbk")[:-1], "d.txt").diagnostics, "W106"),
        "d.txt",
        3,
    ),
    "W107": lambda t: (first(decode_chapter(_mixed(), "m.txt").diagnostics, "W107"), "m.txt", 4),
    "W108": lambda t: (
        first(
            decode_chapter(
                ("第一章\n" + "他说。\n" * 300).encode("gbk") + b"<PIXTEL_MMI_EBOOK_2005>3" + bytes(80),
                "p.txt",
            ).diagnostics,
            "W108",
        ),
        "p.txt",
        302,
    ),
    "W109": lambda t: (
        first(
            decode_chapter(
                ("第一章\n" + "第二章 归来".encode("gbk").decode("latin-1") + "\n他说。\n").encode("utf-8"),
                "l.txt",
            ).diagnostics,
            "W109",
        ),
        "l.txt",
        2,
    ),
    "W110": lambda t: (
        first(
            decode_chapter(("第一章\n" + "他说。\n" * 300).encode("gbk") + bytes(9000), "n.txt").diagnostics,
            "W110",
        ),
        "n.txt",
        302,
    ),
    "I101": lambda t: (
        first(diagnostics_of(book(t, toml="[source]\nencoding = 'utf-8'\n")), "I101"),
        "1.txt",
        None,
    ),
    "I201": lambda t: (
        first(diagnostics_of(book(t, files={"1.txt": "第一章\n正文。\n（本章完）"})), "I201"),
        "1.txt",
        3,
    ),
    "W201": lambda t: (
        first(diagnostics_of(book(t, files={"1.txt": "第一章\n正文。\n他说：“好。”。”"})), "W201"),
        "1.txt",
        3,
    ),
    "W202": lambda t: (
        first(diagnostics_of(book(t, files={"1.txt": "第一章\n" + "长" * 5001})), "W202"),
        "1.txt",
        2,
    ),
    # the cleaning told to leave a site's line: the self-check still reports it, grouped
    "W203": lambda t: (
        first(
            diagnostics_of(
                book(
                    t,
                    files={"1.txt": "第一章\n正文。\n请记住本站域名：www.example.com"},
                    toml="[normalize]\njunk = false\n",
                )
            ),
            "W203",
        ),
        "1.txt",
        3,
    ),
    "W309": lambda t: (
        first(diagnostics_of(book(t, files={"1.txt": "第一章 开始 www.example.com 好\n正文。"})), "W309"),
        "1.txt",
        1,
    ),
    "W301": lambda t: (first(diagnostics_of(REPO), "W301"), "002_486e77a6121bde4f.txt", 1),
    "W302": lambda t: (
        first(
            diagnostics_of(book(t, files={"1.txt": "第一章 甲\n文。", "2.txt": "第一章 乙\n文。"})), "W302"
        ),
        "2.txt",
        1,
    ),
    "W303": lambda t: (
        first(
            diagnostics_of(book(t, files={"1.txt": "第二章 甲\n文。", "2.txt": "第一章 乙\n文。"})), "W303"
        ),
        "2.txt",
        1,
    ),
    "W304": lambda t: (
        first(
            diagnostics_of(book(t, files={"1.txt": "第一章 甲\n文。", "2.txt": "第三章 乙\n文。"})), "W304"
        ),
        "2.txt",
        1,
    ),
    "W305": lambda t: (
        first(diagnostics_of(book(t, files={"1.txt": "第一章 甲\n文。\n第二章 乙\n"})), "W305"),
        "1.txt",
        3,
    ),
    "W306": lambda t: (
        first(diagnostics_of(book(t, files={"1.txt": "第一章\n" + "长句子。\n" * 13000})), "W306"),
        "1.txt",
        1,
    ),
    "I301": lambda t: (
        first(diagnostics_of(book(t, files={"1.txt": "第一章\n第一回合，李四就被打倒在地。"})), "I301"),
        "1.txt",
        2,
    ),
    "W307": lambda t: (
        first(load_book(_novel(t, "长句子。\n" * 30000)).diagnostics, "W307"),
        "novel.txt",
        None,
    ),
    "W308": lambda t: (
        first(
            load_book(_novel(t, "第一章 甲\n文。\n第二章 乙\n文二。\n第一章 甲\n文。\n")).diagnostics, "W308"
        ),
        "novel.txt",
        5,
    ),
    "I302": lambda t: (
        first(
            load_book(
                _novel(
                    t,
                    "目录\n第一章 甲\n第二章 乙\n第三章 丙\n第一章 甲\n文。\n第二章 乙\n文。\n第三章 "
                    "丙\n文。",
                )
            ).diagnostics,
            "I302",
        ),
        "novel.txt",
        2,
    ),
    "I304": lambda t: (
        first(load_book(_novel(t, "".join(f"第{n}章\n文。\n" for n in "一二三"))).diagnostics, "I304"),
        "novel.txt",
        None,
    ),
    "I303": lambda t: (
        first(
            load_book(_novel(t, "".join(f"某某网\n第{n}章\n文。\n" for n in "一二三四"))).diagnostics, "I303"
        ),
        "novel.txt",
        1,
    ),
    "E401": lambda t: (
        first(check_epub(_broken_epub(t)), "E401"),
        "broken.epub!EPUB/text/ch00001.xhtml",
        None,
    ),
    "W401": lambda t: (
        first(check_epub(build_epub(load_book(book(t, toml='[book]\ndate = "去年春天"\n')))[0]), "W401"),
        ".epub!EPUB/content.opf",
        10,
    ),
    "W402": lambda t: (first(check_epub(_huge_epub(t)), "W402"), "huge.epub", None),
    "E402": lambda t: (first(_without_java(lambda: check_epub(_built_epub(t))), "E402"), ".epub", None),
    "E403": lambda t: (first(check_pdf(_garbage_pdf(t), load_book(book(t)).book), "E403"), "bad.pdf", None),
    "E404": lambda t: (
        error_of(lambda: build_pdf(load_book(book(t, files={"1.txt": "第一章\n正文\U0001e900。"})), jobs=1)),
        "1.txt",
        2,
    ),
    "E405": lambda t: (error_of(lambda: find_font("No Such Font Family CJK", "Regular")), None, None),
    "E406": lambda t: (
        error_of(
            lambda: build_epub(load_book(_with_cover(book(t, toml="[book]\ncover = 'c.png'\n"), b"GIF89a")))
        ),
        "c.png",
        None,
    ),
    "W403": lambda t: (
        first(
            build_epub(load_book(_with_cover(book(t, toml="[book]\ncover = 'c.png'\n"), _png(200, 200))))[1],
            "W403",
        ),
        "c.png",
        None,
    ),
    "W405": lambda t: (
        first(build_pdf(load_book(_styled(t, "p { colr: red; }\n")), jobs=1)[1], "W405"),
        "pdf.css",
        2,
    ),
    "E408": lambda t: (_worker_killed(t), None, None),
    "W406": lambda t: (
        first(_kindle(_rewrite(_built_epub(t), t / "nolang.epub", lambda n, d: _no_language(n, d))), "W406"),
        "nolang.epub",
        None,
    ),
    "W407": lambda t: (
        first(_kindle(_rewrite(_built_epub(t), t / "link.epub", lambda n, d: _dead_link(n, d))), "W407"),
        "link.epub",
        None,
    ),
    "W408": lambda t: (
        first(_kindle(_rewrite(_built_epub(t), t / "big.epub", lambda n, d: _big_image(n, d))), "W408"),
        "big.epub",
        None,
    ),
    "E409": lambda t: (
        _without_java(lambda: error_of(lambda: build(load_book(book(t)), "azw3"))),
        ".azw3",
        None,
    ),
    "E410": lambda t: (error_of(lambda: _convert(_garbage_azw3(t), t / "out.epub")), "bad.azw3", None),
    "E411": lambda t: (first(_checked_against_another_book(t), "E411"), ".azw3", None),
    "E412": lambda t: (
        error_of(
            lambda: __import__("bookbuilder.system.external", fromlist=["x"]).run(
                ["/nonexistent/judge"], "x.epub"
            )
        ),
        "x.epub",
        None,
    ),
    "I402": lambda t: (
        first(
            __import__("bookbuilder.check.ace", fromlist=["x"]).check_ace(
                build_epub(load_book(book(t, files={f"{i}.txt": f"第{i}章\n正文。" for i in range(1, 21)})))[
                    0
                ]
            ),
            "I402",
        ),
        ".epub",
        None,
    ),
    "I401": lambda t: (
        first(
            _without_ace(
                lambda: __import__("bookbuilder.check.ace", fromlist=["x"]).check_ace(_built_epub(t))
            ),
            "I401",
        ),
        ".epub",
        None,
    ),
    "E407": lambda t: (first(_ace_or_skip(_inaccessible_epub(t)), "E407"), "bad-a11y.epub!", None),
    "W404": lambda t: (first(_ace_or_skip(_moderate_epub(t)), "W404"), "moderate.epub!", None),
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


def test_every_code_has_a_trigger():
    assert set(TRIGGERS) == set(CODES)


@pytest.mark.parametrize("code", sorted(CODES))
def test_code_and_location(tmp_path, code):
    if code == "E404" and os.popen("fc-list :charset=1e900").read().strip():
        pytest.skip("an installed font covers Adlam here")
    diagnostic, path_part, line = TRIGGERS[code](tmp_path)
    assert diagnostic.code == code
    assert (
        str(diagnostic.severity) == {"E": "error", "W": "warning", "I": "info"}[code[0]]
    )  # the code says it
    if path_part is not None:
        assert diagnostic.at is not None and path_part in diagnostic.at.path, diagnostic
    if line is not None:
        assert diagnostic.at.line == line, diagnostic
