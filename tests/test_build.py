"""End-to-end: real EPUBCheck on real EPUBs, the real PDF read back with pypdf."""

import os
import subprocess
import sys
import time
import zipfile

import pytest
from pypdf import PdfReader

from bookbuilder.check.judges import check_epub, check_pdf, outline_titles, pdf_fonts, run_epubcheck
from bookbuilder.pipeline import build_epub, build_pdf, load_book
from tests.conftest import write_book


def epubcheck_counts(path):
    report = run_epubcheck(path)
    checker = report["checker"]
    return checker["nFatal"] + checker["nError"], checker["nWarning"], [m["ID"] for m in report["messages"]]


@pytest.fixture(scope="module")
def sample_outputs(tmp_path_factory):
    import shutil

    from tests.conftest import REPO

    root = tmp_path_factory.mktemp("s") / "sample"
    root.mkdir()
    shutil.copy(REPO / "book.toml", root)
    shutil.copytree(REPO / "source", root / "source")
    shutil.copytree(REPO / "styles", root / "styles")
    loaded = load_book(root)
    return loaded, build_epub(loaded)[0], build_pdf(loaded)[0]


def test_sample_epub_passes_epubcheck_clean(sample_outputs):
    _, epub, _ = sample_outputs
    assert epubcheck_counts(epub) == (0, 0, [])
    assert check_epub(epub) == []


def test_sample_epub_structure(sample_outputs):
    loaded, epub, _ = sample_outputs
    with zipfile.ZipFile(epub) as z:
        names = z.namelist()
        assert names[0] == "mimetype" and z.getinfo("mimetype").compress_type == zipfile.ZIP_STORED
        assert all(n.isascii() for n in names)
        chapter = z.read("EPUB/text/ch00002.xhtml").decode()
        opf = z.read("EPUB/content.opf").decode()
    assert 'epub:type="chapter"' in chapter and 'lang="zh-Hans"' in chapter
    assert '<link href="../styles/book.css"' in chapter
    assert "<h1" in chapter and chapter.count('<hr class="scene"/>') == 3
    assert "剩下的还有七十多万人马，眼下隋军分兵就成了自然而然事情。" in chapter
    assert "前进的脚步。</p>" in chapter
    assert "<dc:title>辽东烽火</dc:title>" in opf


def test_sample_pdf_reads_back(sample_outputs):
    loaded, _, pdf = sample_outputs
    reader = PdfReader(str(pdf))
    text = "".join(p.extract_text() for p in reader.pages).replace("\n", "")
    assert "乙支苏渊长叹一声，下令鸣金收兵，迅速东撤。" in text
    assert "宇文述仰头看着一丝云彩都没有天空" in text
    assert outline_titles(reader) == ["第一章", "第二章"]
    fonts = pdf_fonts(pdf)
    assert fonts and all(fonts.values()) and any("CJK" in name for name in fonts)
    assert reader.metadata.title == "辽东烽火"
    assert check_pdf(pdf, loaded.book) == []


def _build_in_subprocess(root, out, tz):
    env = dict(os.environ, TZ=tz, SOURCE_DATE_EPOCH="1700000000")
    subprocess.run(
        [sys.executable, "-m", "bookbuilder", "epub", str(root), "-o", str(out)],
        env=env,
        check=True,
        capture_output=True,
    )
    return out.read_bytes()


def test_epub_is_byte_reproducible_across_time_zones(sample_book, tmp_path):
    first = _build_in_subprocess(sample_book, tmp_path / "a.epub", "Asia/Shanghai")
    time.sleep(1.1)
    second = _build_in_subprocess(sample_book, tmp_path / "b.epub", "America/New_York")
    assert first == second
    with zipfile.ZipFile(tmp_path / "a.epub") as z:
        assert (
            '<meta property="dcterms:modified">2023-11-14T22:13:20Z</meta>'
            in z.read("EPUB/content.opf").decode()
        )


def test_chapter_text_is_data_not_markup(tmp_path):
    # A heading's <b>…</b> is a scraper's remnant (stripped, its &amp; decoded); a < > & that is
    # not a tag is text, escaped on the way out; &amp;amp; (escaped twice) is the & it stood for.
    root = write_book(
        tmp_path / "b",
        {
            "1.txt": "第一章 <b>1<2 &amp; 3>2</b>\n<script>alert(1)</script>"
            "1<2 & 3>2 ]]> \"引号\" '单' <不是标签> &amp;amp;\n"
        },
        "",
    )
    epub, _ = build_epub(load_book(root))
    with zipfile.ZipFile(epub) as z:
        chapter = z.read("EPUB/text/ch00001.xhtml").decode()
        nav = z.read("EPUB/nav.xhtml").decode()
    assert "<script" not in chapter and "alert(1)" not in chapter  # a scraper's script element: gone
    assert (
        "1&lt;2 &amp; 3&gt;2 ]]&gt;" in chapter
        and "&lt;不是标签&gt; &amp;</p>" in chapter
        and "&amp;amp;" not in chapter
    )
    assert "第一章 1&lt;2 &amp; 3&gt;2" in nav and "&lt;b&gt;" not in nav
    assert epubcheck_counts(epub)[:2] == (0, 0)
