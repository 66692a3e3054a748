"""E-readers: the Kobo kepub (sentence spans, wrappers, EPUBCheck, the EPUB's text), the Kindle
AZW3 through real calibre (read back), reading-size documents, [output] formats."""

import html
import re
import shutil
import subprocess
import zipfile

import pytest

from bookbuilder.diagnostics import BookError
from bookbuilder.pipeline import build, load_book
from bookbuilder.render.epub import MAX_DOCUMENT
from bookbuilder.render.kepub import KoboSpans, sentences
from tests.conftest import write_book
from tests.render.test_epub import assert_epubcheck_clean

needs_calibre = pytest.mark.skipif(shutil.which("ebook-convert") is None, reason="calibre is not installed")
BOOK = {
    "001.txt": "第一章 风起\n他说：“你好！我是谁？”然后走了……\n“走吧。”她说。\n……\n天亮了。",
    "002.txt": "第二章 云涌\n城上守军齐声惊呼：“西门起火了！”王宫也起火了。",
}


@pytest.mark.parametrize(
    "paragraph, expected",
    [
        ("天亮了。", ["天亮了。"]),
        ("他来了。她走了。", ["他来了。", "她走了。"]),
        ("他说：“你好！我是谁？”然后走了……", ["他说：“你好！", "我是谁？”", "然后走了……"]),
        ("“走吧。”她说。", ["“走吧。”", "她说。"]),  # the closing quote stays with its sentence
        ("什么？！不可能！！", ["什么？！", "不可能！！"]),  # a run of marks is one end
        ("他沉默了……“好吧。”", ["他沉默了……", "“好吧。”"]),  # an opening quote starts the next one
        ("「真的？」『是。』", ["「真的？」", "『是。』"]),
        ("（注：见上文。）下文", ["（注：见上文。）", "下文"]),
        ("没有句号", ["没有句号"]),
        ("……", ["……"]),
        ("Hello world. 好!", ["Hello world. 好!"]),  # a Latin period is not a Chinese sentence end
    ],
)
def test_sentences(paragraph, expected):
    assert sentences(paragraph) == expected
    assert "".join(sentences(paragraph)) == paragraph


def test_kobo_spans_number_paragraphs_and_sentences_as_kobo_does():
    spans = KoboSpans()
    heading, first, second = spans("第一章 风起", True), spans("甲。乙！"), spans("丙<丁>")
    assert heading == '<span class="koboSpan" id="kobo.0.1">第一章 风起</span>'
    assert (
        first
        == '<span class="koboSpan" id="kobo.1.1">甲。</span><span class="koboSpan" id="kobo.1.2">乙！</span>'
    )
    assert second == '<span class="koboSpan" id="kobo.2.1">丙&lt;丁&gt;</span>'  # text is data


def _documents(path):
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n).decode("utf-8") for n in z.namelist() if n.endswith(".xhtml") and "/text/" in n}


def _text(document: str) -> str:
    body = re.sub(r"<[^>]+>", "", document.split("<body>", 1)[1])
    return html.unescape(body).replace("\n", "")


@pytest.fixture(scope="module")
def kobo(tmp_path_factory):
    root = write_book(
        tmp_path_factory.mktemp("kobo") / "b", BOOK, '[book]\ntitle = "风云"\nauthor = "某人"\n'
    )
    loaded = load_book(root)
    return loaded, build(loaded, "epub")[0], build(loaded, "kepub")[0]


def test_kepub_wraps_spans_and_passes_epubcheck(kobo):
    loaded, epub, kepub = kobo
    assert kepub.name == "风云.kepub.epub"
    assert_epubcheck_clean(kepub)
    chapter = _documents(kepub)["EPUB/text/ch00001.xhtml"]
    assert '<div id="book-columns"><div id="book-inner">' in chapter and 'id="kobostylehacks"' in chapter
    assert '<span class="koboSpan" id="kobo.1.2">我是谁？”</span>' in chapter
    ids = re.findall(r'id="(kobo\.\d+\.\d+)"', chapter)
    assert len(ids) == len(set(ids)) == chapter.count('class="koboSpan"')


def test_kepub_text_is_the_epubs(kobo):
    _, epub, kepub = kobo
    plain, kobo_docs = _documents(epub), _documents(kepub)
    assert plain.keys() == kobo_docs.keys()
    for name in plain:
        assert _text(kobo_docs[name]) == _text(plain[name]), name


@pytest.mark.parametrize("fmt", ["epub", "kepub"])
def test_a_long_chapter_continues_across_documents_under_256_kb(tmp_path, fmt):
    """A 1.5 MB chapter (made in the model: structure divides a source chapter of over 100,000
    characters): every document under 256 KB, divided at paragraphs, in reading order, one
    contents entry, the text whole."""
    import dataclasses

    from bookbuilder.model import Location, Paragraph
    from bookbuilder.render import RenderContext, renderer, with_cover

    loaded = load_book(
        write_book(tmp_path / "b", {"1.txt": "第一章 长\n正文。", "2.txt": "第二章 短\n正文。"}, "")
    )
    lines = [
        f"第{i}段。城上守军齐声惊呼，西门起火，王宫起火，城内四处起火，高云支大吃一惊。" * 3
        for i in range(5000)
    ]
    long = dataclasses.replace(
        next(loaded.book.chapters()),
        blocks=tuple(Paragraph(t, Location("1.txt", i + 2)) for i, t in enumerate(lines)),
    )
    volume = dataclasses.replace(
        loaded.book.volumes[0], chapters=(long, *loaded.book.volumes[0].chapters[1:])
    )
    book, _ = with_cover(dataclasses.replace(loaded.book, volumes=(volume,)), loaded.config)
    chosen = renderer(fmt)
    path = tmp_path / f"long.{chosen.suffix}"
    chosen.render(book, RenderContext(path, loaded.config, 0, chosen.options(loaded.config)))
    docs = _documents(path)
    assert sum(len(t.encode()) for t in docs.values()) > 1_500_000
    assert all(len(t.encode()) <= MAX_DOCUMENT for t in docs.values())
    with zipfile.ZipFile(path) as z:
        opf, nav = z.read("EPUB/content.opf").decode(), z.read("EPUB/nav.xhtml").decode()
    spine = re.findall(r'<itemref idref="([^"]+)"', opf)
    pieces = [i for i in spine if i.startswith("ch00001")]
    assert len(pieces) >= 6 and pieces == ["ch00001"] + [f"ch00001_{k}" for k in range(2, len(pieces) + 1)]
    assert spine.index("ch00002") == spine.index(pieces[-1]) + 1
    assert nav.count("第一章 长") == 1 and "ch00001_2" not in nav
    text = "".join(_text(docs[f"EPUB/text/{p}.xhtml"]) for p in pieces)
    assert text == "第一章 长" + "".join(lines)
    assert_epubcheck_clean(path)


@needs_calibre
def test_azw3_is_built_and_read_back_by_calibre(tmp_path):
    root = write_book(tmp_path / "b", BOOK, '[book]\ntitle = "风云"\nauthor = "某人"\n')
    loaded = load_book(root)
    azw3, _ = build(loaded, "azw3")
    assert azw3.suffix == ".azw3" and azw3.read_bytes()[60:68] == b"BOOKMOBI"
    from bookbuilder.render.azw3 import metadata

    meta = metadata(azw3)
    assert meta["Title"] == "风云" and meta["Author(s)"].startswith("某人") and meta["Languages"] == "zho"
    text_file = tmp_path / "back.txt"
    subprocess.run(
        ["ebook-convert", str(azw3), str(text_file)],
        check=True,
        capture_output=True,
        env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    back = text_file.read_text("utf-8")
    for chapter in loaded.book.chapters():
        assert chapter.title in back
        for block in chapter.blocks:
            if hasattr(block, "text"):
                assert block.text in back, block.text
    assert back.index("第一章 风起") < back.index("第二章 云涌")
    # The contents, as calibre reads them back out of the AZW3 (its EPUB's NCX).
    epub_back = tmp_path / "back.epub"
    subprocess.run(
        ["ebook-convert", str(azw3), str(epub_back)],
        check=True,
        capture_output=True,
        env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    with zipfile.ZipFile(epub_back) as z:
        ncx = z.read(next(n for n in z.namelist() if n.endswith(".ncx"))).decode("utf-8")
    assert re.findall(r"<text>([^<]+)</text>", ncx)[1:] == [c.title for c in loaded.book.chapters()]
    assert build(loaded, "azw3")[0].read_bytes() == azw3.read_bytes()  # reproducible
    from bookbuilder.render import renderer

    assert renderer("azw3").check(azw3, loaded.book) == []


@pytest.mark.parametrize(
    "line, percent, found",
    [
        ("34% Running transforms on e-book...\n", 1, (34, "Running transforms on e-book...")),
        ("\tCompressing markup...\n", 67, (67, "Compressing markup...")),  # a step between percentages
        ("\tDetected chapter: 第一章 风起\n", 34, None),  # one per chapter: no stage
        ("Output saved to   /tmp/b.azw3\n", 67, None),
        ("pubdate: '2023-11-14T22:13:20+00:00'\n", 0, None),  # the options, before it starts
        ("\n", 1, None),
    ],
)
def test_calibre_stages(line, percent, found):
    from bookbuilder.render.azw3 import calibre_stage

    assert calibre_stage(line, percent) == found


def test_a_silent_step_still_ticks(tmp_path):
    """While the converter says nothing (27 s compressing a 4 MB novel), its stage is shown again
    every second with the time taken: a real process, silent for 2.5 s."""
    from bookbuilder.render.azw3 import converted

    heard = []
    converted(
        ["sh", "-c", "echo '1% Converting input'; sleep 2.5; echo '67% Running AZW3 Output plugin'"],
        "x",
        lambda stage, seconds: heard.append((stage, seconds)),
    )
    silent = [seconds for stage, seconds in heard if stage == "1% Converting input"]
    assert len(silent) >= 3 and silent == sorted(silent) and silent[-1] >= 2
    assert heard[-1][0] == "67% Running AZW3 Output plugin"
    with pytest.raises(BookError, match="E410.*sh failed: broken"):
        converted(["sh", "-c", "echo broken; exit 3"], "x", lambda *_: None)


@needs_calibre
def test_azw3_shows_calibres_progress_while_it_converts(tmp_path):
    from click.testing import CliRunner

    from bookbuilder.cli import main

    root = write_book(tmp_path / "b", BOOK, '[book]\ntitle = "风云"\nauthor = "某人"\n')
    result = CliRunner().invoke(main, ["azw3", str(root)])
    assert result.exit_code == 0, result.output
    shown = [line for line in result.stderr.splitlines() if line.startswith("AZW3 ")]
    assert "AZW3 1% Converting input to HTML..." in shown and "AZW3 67% Running AZW3 Output plugin" in shown
    assert "AZW3 67% Compressing markup..." in shown, shown
    assert result.output.index("AZW3 67%") < result.output.index("wrote ")


def test_azw3_without_calibre_is_one_line_saying_how_to_install_it(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from bookbuilder.cli import main

    root = write_book(tmp_path / "b", BOOK, "")
    monkeypatch.setenv("PATH", "/nonexistent")
    result = CliRunner().invoke(main, ["azw3", str(root)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    error = [line for line in result.output.splitlines() if "error" in line]
    assert len(error) == 1 and "E409" in error[0] and "apt-get install calibre" in error[0]
    assert not list(root.glob("build/*.azw3"))


def test_output_formats_are_checked_against_the_registry(tmp_path):
    root = write_book(tmp_path / "b", BOOK, '[output]\nformats = ["epub", "mobi"]\n')
    with pytest.raises(BookError, match="E003.*output.formats: 'mobi'.*known: epub, pdf, kepub, azw3"):
        load_book(root)
    ok = write_book(tmp_path / "c", BOOK, '[output]\nformats = ["kepub", "epub"]\n')
    assert load_book(ok).config.formats == ("kepub", "epub")


def test_split_volumes_gives_one_book_per_volume_with_series_metadata(tmp_path):
    from click.testing import CliRunner

    from bookbuilder.cli import main

    files = {
        "第一卷 潜龙/001.txt": "第一章 甲\n正文一。",
        "第一卷 潜龙/002.txt": "第二章 乙\n正文二。",
        "第二卷 飞龙/003.txt": "第三章 丙\n正文三。",
    }
    root = write_book(
        tmp_path / "b", files, '[book]\ntitle = "龙"\nauthor = "某人"\n[output]\nname = "long"\n'
    )
    result = CliRunner().invoke(main, ["epub", str(root), "--split", "volumes"])
    assert result.exit_code == 0, result.output
    first, second = root / "build" / "long-1.epub", root / "build" / "long-2.epub"
    assert f"wrote {first}" in result.output and f"wrote {second}" in result.output
    covers = []
    for n, path, volume, chapters in (
        (1, first, "第一卷 潜龙", ["第一章 甲", "第二章 乙"]),
        (2, second, "第二卷 飞龙", ["第三章 丙"]),
    ):
        assert_epubcheck_clean(path)
        with zipfile.ZipFile(path) as z:
            opf = z.read("EPUB/content.opf").decode()
            nav = z.read("EPUB/nav.xhtml").decode()
            covers.append(z.read("EPUB/images/cover.jpg"))
        assert f"<dc:title>龙 · {volume}</dc:title>" in opf
        assert re.search(r'<meta property="belongs-to-collection" id="series">龙</meta>', opf)
        assert '<meta refines="#series" property="collection-type">series</meta>' in opf
        assert f'<meta refines="#series" property="group-position">{n}</meta>' in opf
        assert [t for t in re.findall(r"第.章 .", nav)] == chapters
    assert covers[0] != covers[1]  # each cover names its volume
    assert (
        CliRunner()
        .invoke(main, ["kepub", str(root), "--split", "volumes", "-o", str(tmp_path / "x")])
        .exit_code
        == 2
    )
    kepubs = CliRunner().invoke(main, ["kepub", str(root), "--split", "volumes"])
    assert kepubs.exit_code == 0 and (root / "build" / "long-2.kepub.epub").is_file()
