"""EPUB gates: EPUBCheck 0 errors / 0 warnings on each kind of book, covers, options."""

import io
import subprocess
import sys
import zipfile

import pytest
from PIL import Image

from bookbuilder.check.judges import run_epubcheck
from bookbuilder.diagnostics import BookError
from bookbuilder.pipeline import build_epub, load_book
from tests.conftest import REPO, write_book

MAKE_CORPUS = REPO / "bench" / "make_corpus.py"


def assert_epubcheck_clean(path):
    report = run_epubcheck(path)
    messages = [(m["severity"], m["ID"], m["message"]) for m in report["messages"]]
    assert messages == [], messages


def png(width, height) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


BODY = {"1.txt": "第一章 开始\n他说：“走吧。”\n\n……\n\n她点了点头。", "2.txt": "第二章 继续\n正文。"}


def test_generated_cover_is_first_in_spine_with_alt_text(tmp_path):
    root = write_book(tmp_path / "b", BODY, '[book]\ntitle = "测试之书"\nauthor = "某人"\n')
    epub, notes = build_epub(load_book(root))
    assert notes == []
    assert_epubcheck_clean(epub)
    with zipfile.ZipFile(epub) as z:
        opf = z.read("EPUB/content.opf").decode()
        cover_page = z.read("EPUB/text/cover.xhtml").decode()
        image = Image.open(io.BytesIO(z.read("EPUB/images/cover.jpg")))
    assert image.size == (1600, 2560) and image.format == "JPEG"
    assert opf.index('idref="cover"') < opf.index('idref="titlepage"') < opf.index('idref="ch00001"')
    assert 'properties="cover-image"' in opf and '<meta name="cover" content="cover-img">' in opf
    assert 'alt="封面：测试之书，某人"' in cover_page and 'epub:type="cover"' in cover_page


def test_cover_image_from_book_toml(tmp_path):
    root = write_book(tmp_path / "b", BODY, '[book]\ncover = "cover.png"\n')
    (root / "cover.png").write_bytes(png(1000, 1600))
    epub, notes = build_epub(load_book(root))
    assert notes == []
    assert_epubcheck_clean(epub)
    with zipfile.ZipFile(epub) as z:
        assert z.read("EPUB/images/cover.png") == (root / "cover.png").read_bytes()


def test_small_cover_warns_and_fake_cover_is_an_error(tmp_path):
    root = write_book(tmp_path / "b", BODY, '[book]\ncover = "cover.png"\n')
    (root / "cover.png").write_bytes(png(300, 300))
    _, notes = build_epub(load_book(root))
    assert [n.code for n in notes] == ["W403"]
    (root / "cover.png").write_bytes(b"GIF89a not really")
    with pytest.raises(BookError) as e:
        build_epub(load_book(root))
    assert e.value.diagnostic.code == "E406" and "cover.png" in str(e.value)


def test_embedded_font_subset_and_vertical(tmp_path):
    root = write_book(tmp_path / "b", BODY, "[epub]\nembed_font = true\nvertical = true\n")
    epub, _ = build_epub(load_book(root))
    assert_epubcheck_clean(epub)
    with zipfile.ZipFile(epub) as z:
        font = z.read("EPUB/fonts/book.otf")
        css = z.read("EPUB/styles/book.css").decode()
        opf = z.read("EPUB/content.opf").decode()
        assert "META-INF/com.apple.ibooks.display-options.xml" in z.namelist()
    assert len(font) < 200_000  # a subset, not the 20 MB collection
    from fontTools.ttLib import TTFont

    cmap = TTFont(io.BytesIO(font)).getBestCmap()
    assert all(ord(c) in cmap for c in "他说走吧她点了头正文")
    assert "writing-mode: vertical-rl" in css and 'page-progression-direction="rtl"' in opf


def test_volumes_nest_in_nav_and_ncx(tmp_path):
    root = write_book(
        tmp_path / "b",
        {
            "1_第一卷 起/1.txt": "第一章 甲\n内容。",
            "1_第一卷 起/2.txt": "第二章 乙\n内容。",
            "2_第二卷 承/3.txt": "第三章 丙\n内容。",
        },
        "",
    )
    epub, _ = build_epub(load_book(root))
    assert_epubcheck_clean(epub)
    with zipfile.ZipFile(epub) as z:
        nav = z.read("EPUB/nav.xhtml").decode()
        ncx = z.read("EPUB/toc.ncx").decode()
    assert nav.index("第一卷 起") < nav.index("第一章 甲") < nav.index("第二卷 承") < nav.index("第三章 丙")
    assert '<meta content="2" name="dtb:depth"/>' in ncx and 'playOrder="1"' in ncx
    assert 'epub:type="landmarks"' in nav


def test_accessibility_metadata(tmp_path):
    root = write_book(tmp_path / "b", BODY, "")
    epub, _ = build_epub(load_book(root))
    with zipfile.ZipFile(epub) as z:
        opf = z.read("EPUB/content.opf").decode()
        chapter = z.read("EPUB/text/ch00001.xhtml").decode()
    assert '<package xml:lang="zh-Hans"' in opf
    for prop in (
        "schema:accessMode",
        "schema:accessModeSufficient",
        "schema:accessibilityFeature",
        "schema:accessibilityHazard",
        "schema:accessibilitySummary",
        "dcterms:conformsTo",
    ):
        assert f'property="{prop}"' in opf
    assert 'role="doc-chapter"' in chapter


@pytest.mark.skipif(not MAKE_CORPUS.exists(), reason="bench/make_corpus.py not present")
def test_generated_300_chapter_book_is_epubcheck_clean(tmp_path):
    corpus = tmp_path / "c"
    subprocess.run(
        [sys.executable, str(MAKE_CORPUS), "--out", str(corpus), "-n", "300"], check=True, capture_output=True
    )
    (corpus / "manifest.json").unlink()
    loaded = load_book(corpus)
    epub, _ = build_epub(loaded, jobs=2)
    assert_epubcheck_clean(epub)
    with zipfile.ZipFile(epub) as z:
        assert sum(n.startswith("EPUB/text/ch") for n in z.namelist()) == 300
        assert z.testzip() is None
    # Read on two processes: the same bytes as on one.
    assert build_epub(loaded, tmp_path / "serial.epub", jobs=1)[0].read_bytes() == epub.read_bytes()


def test_every_entry_is_stamped_alike_and_deflated_but_the_mimetype(tmp_path, monkeypatch):
    """The wall clock and umask do not reach the archive: one time (SOURCE_DATE_EPOCH), mode 0644,
    Unix; the mimetype first and stored, as OCF requires; every other entry deflated."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1704067200")  # 2024-01-01
    epub, _ = build_epub(load_book(write_book(tmp_path / "b", BODY, "")))
    with zipfile.ZipFile(epub) as z:
        infos = z.infolist()
        assert z.testzip() is None
    assert infos[0].filename == "mimetype" and infos[0].compress_type == zipfile.ZIP_STORED
    assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in infos[1:])
    assert {(i.date_time, i.external_attr >> 16, i.create_system) for i in infos} == {
        ((2024, 1, 1, 0, 0, 0), 0o644, 3)
    }


def test_the_same_book_gives_the_same_bytes_in_any_time_zone(tmp_path, monkeypatch):
    """ebooklib stamps its zip entries with the local wall clock: none of it reaches the EPUB.
    The entries carry SOURCE_DATE_EPOCH in UTC (2023-11-14 22:13:20), wherever the build runs,
    and the documents' bytes (put into the final zip past ebooklib) are the book's."""
    import time

    from bookbuilder.render import renderer
    from bookbuilder.render.epub import epub_bytes

    loaded = load_book(write_book(tmp_path / "b", BODY, ""))
    options = renderer("epub").options(loaded.config)
    built = []
    try:
        for zone in ("Asia/Shanghai", "America/New_York", "Pacific/Kiritimati"):
            monkeypatch.setenv("TZ", zone)
            time.tzset()
            built.append(epub_bytes(loaded.book, options, 1700000000))
    finally:
        monkeypatch.undo()
        time.tzset()
    assert built[0] == built[1] == built[2]
    with zipfile.ZipFile(io.BytesIO(built[0])) as z:
        assert {i.date_time for i in z.infolist()} == {(2023, 11, 14, 22, 13, 20)}
        chapter = z.read("EPUB/text/ch00001.xhtml").decode()
    assert "她点了点头。" in chapter and chapter.startswith("<?xml")
