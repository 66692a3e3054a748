"""The PDF's documents on machines that share no files with this one (a Dask cluster's workers):
the project's files a document fetches travel with it, the project has one URL wherever it is,
and a document rendered there is the same bytes as here."""

import concurrent.futures as cf
import contextlib
import io
import shutil

import pytest

from bookbuilder.diagnostics import BookError
from bookbuilder.pipeline import build, load_book
from bookbuilder.render import renderer
from bookbuilder.render.pdf_carried import carry, project_files, render_carried
from bookbuilder.render.pdf_documents import (
    NO_MARGIN_BOXES,
    PROJECT_URI,
    Jobs,
    body_html,
    entries,
    project_path,
    render_document,
)
from bookbuilder.system.parallel import Remote
from tests.conftest import write_book


def _png(colour=(200, 30, 30)) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (8, 8), colour).save(out, "PNG")
    return out.getvalue()


def _styled_book(root, chapters: int = 6, toml: str = ""):
    """A book whose stylesheet imports another, which draws a project image by each heading."""
    text = {f"{c:02}.txt": f"第{c}章 夜{c}\n　　风吹过山岗，第{c}章。\n" * 1 for c in range(1, chapters + 1)}
    write_book(root, text, '[book]\ntitle = "图书"\n[pdf]\nchunk_chapters = 2\n' + toml)
    (root / "styles").mkdir()
    (root / "styles" / "pdf.css").write_text(
        '@import "more.css";\nh1::after { content: url("data:image/png;base64,") }\n'
        'p::before { content: url("/etc/hostname") }\n',
        "utf-8",
    )
    (root / "styles" / "more.css").write_text(
        "h1, h2 { background: url(../img/mark.png) no-repeat; }\n", "utf-8"
    )
    (root / "img").mkdir()
    (root / "img" / "mark.png").write_bytes(_png())
    (root / "img" / "unused.png").write_bytes(_png((0, 0, 255)))
    (root / "notes.txt").write_text("not fetched", "utf-8")
    return root


def test_the_files_sent_are_those_the_stylesheets_fetch(tmp_path):
    """The imported sheet and its image; not an unused image, the sources, notes, or a file outside."""
    root = _styled_book(tmp_path / "b")
    options = renderer("pdf").options(load_book(root).config)
    files = project_files(options.css, root)
    assert sorted(files) == ["img/mark.png", "styles/more.css"]
    assert files["img/mark.png"] == (root / "img" / "mark.png").read_bytes()


@pytest.mark.parametrize(
    "url, inside",
    [
        (PROJECT_URI + "img/mark.png", "img/mark.png"),
        (PROJECT_URI + "%2e%2e/%2e%2e/etc/hostname", None),  # climbs out of the project
        ("file:///etc/hostname", None),
        ("http://127.0.0.1/x.png", None),
        ("data:image/png;base64,", None),
    ],
)
def test_a_url_names_a_project_file_or_nothing(tmp_path, url, inside):
    root = _styled_book(tmp_path / "b")
    found = project_path(url, root)
    assert found == (None if inside is None else (root / inside).resolve())


def test_a_real_file_url_inside_the_project_still_names_its_file(tmp_path):
    root = _styled_book(tmp_path / "b")
    assert project_path((root / "img" / "mark.png").as_uri(), root) == (root / "img" / "mark.png").resolve()


def test_a_document_renders_the_same_where_the_project_is_not(tmp_path):
    """Rendered here, then from its carried form after the project is gone: the same document."""
    root = _styled_book(tmp_path / "b")
    loaded = load_book(root)
    options = renderer("pdf").options(loaded.config)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    book = loaded.book
    job = Jobs(scratch, options.css, root)("body", 0, body_html(book, entries(book), 0), NO_MARGIN_BOXES)
    here = render_document(job)
    files = project_files(options.css, root)
    shutil.rmtree(root)
    there = render_carried(carry(job), files)
    assert there.pdf == here.pdf and there.pages == here.pages and there.anchors == here.anchors
    assert _images(here.pdf)  # the heading's image was drawn, here and there


def _images(pdf: bytes) -> int:
    """How many image objects the PDF holds (a background's sits in a pattern, not on the page)."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as document:
        return sum(
            1 for o in document.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"
        )


def test_the_pdf_is_the_same_wherever_the_book_is(tmp_path):
    """WeasyPrint names an image by its URL: the project's one URL keeps a PDF with a stylesheet
    image the same bytes in another folder (another checkout, CI, a shelf's temporary folder)."""
    one = _styled_book(tmp_path / "a" / "book")
    two = _styled_book(tmp_path / "elsewhere" / "深处" / "book")
    first = build(load_book(one), "pdf", tmp_path / "1.pdf", jobs=1, cache=False)[0].read_bytes()
    second = build(load_book(two), "pdf", tmp_path / "2.pdf", jobs=1, cache=False)[0].read_bytes()
    assert first == second and _images(first)


@contextlib.contextmanager
def _process_remote(share=lambda value: value):
    """Other processes standing in for other machines: a real executor, the files handed over."""
    with cf.ProcessPoolExecutor(2) as executor:
        yield Remote(executor, share)


def test_documents_on_a_lent_executor_make_the_same_pdf(tmp_path):
    loaded = load_book(_styled_book(tmp_path / "b"))
    here = build(loaded, "pdf", tmp_path / "here.pdf", jobs=1, cache=False)[0].read_bytes()
    there = build(loaded, "pdf", tmp_path / "there.pdf", jobs=1, cache=False, remote=_process_remote)
    assert there[0].read_bytes() == here


def test_a_document_failing_on_the_lent_executor_is_one_error(tmp_path):
    """A task that fails there (here: a file named outside the project) is E408, not a traceback,
    and no PDF is left."""
    loaded = load_book(_styled_book(tmp_path / "b"))

    def bad_remote():
        return _process_remote(share=lambda files: {**files, "../escape.css": b""})

    with pytest.raises(BookError) as failed:
        build(loaded, "pdf", tmp_path / "out.pdf", jobs=1, cache=False, remote=bad_remote)
    assert failed.value.diagnostic.code == "E408"
    assert "escape.css is outside the project" in failed.value.diagnostic.message
    assert not (tmp_path / "out.pdf").exists()
