"""The PDF read back: text, contents page numbers, continuous numbering across chunks, outline,
fonts, confinement of fetching, missing glyphs."""

import re

import pytest
from pypdf import PdfReader

from bookbuilder.check.judges import outline_titles, pdf_fonts
from bookbuilder.diagnostics import BookError
from bookbuilder.pipeline import build, build_pdf, load_book
from tests.conftest import write_book

PARAGRAPH = "城上守军齐声惊呼，西门起火，王宫起火，城内四处起火。高云支大吃一惊，急忙下令关闭城门。"


def chapters(n, paragraphs=12):
    return {
        f"{i:03d}.txt": f"第{i}章 标题{i}\n" + "\n".join(f"{PARAGRAPH}（{i}-{k}）" for k in range(paragraphs))
        for i in range(1, n + 1)
    }


@pytest.fixture(scope="module")
def chunked(tmp_path_factory):
    """A 7-chapter book in chunks of 2 chapters on 2 processes."""
    root = write_book(
        tmp_path_factory.mktemp("pdf") / "b",
        chapters(7, paragraphs=30),
        '[book]\ntitle = "分块测试"\n[pdf]\nchunk_chapters = 2\n',
    )
    loaded = load_book(root)
    path, _ = build_pdf(loaded, jobs=2)
    return loaded, PdfReader(str(path)), path


def body_start(reader):
    labels = reader.page_labels
    return labels.index("1")


def test_page_numbers_run_on_across_chunks(chunked):
    _, reader, _ = chunked
    start = body_start(reader)
    assert start >= 2  # cover, title page, contents are unnumbered (labels i, ii, …)
    for number, page in enumerate(reader.pages[start:], 1):
        lines = page.extract_text().strip().splitlines()
        assert lines[-1].strip() == str(number), (number, lines[-3:])
    assert reader.page_labels[start:] == [str(i) for i in range(1, len(reader.pages) - start + 1)]


def test_stamped_headers_name_each_pages_chapter_and_volume_pages_have_none(tmp_path):
    """Page numbers and running headers are drawn at the merge (render/pdf_pages.py): every body
    page of a book in volumes, chunked by one chapter, carries its own chapter's title above and
    its number below; a volume's page carries only its number."""
    files = {
        f"第{v}卷 卷名{v}/{name}": text
        for v in (1, 2)
        for name, text in list(chapters(4, paragraphs=30).items())[2 * v - 2 : 2 * v]
    }
    root = write_book(tmp_path / "b", files, "[pdf]\nchunk_chapters = 1\n")
    loaded = load_book(root)
    reader = PdfReader(str(build_pdf(loaded, jobs=2)[0]))
    start = body_start(reader)
    owner, seen = None, []
    for number, page in enumerate(reader.pages[start:], 1):
        lines = [line.strip() for line in page.extract_text().strip().splitlines()]
        assert lines[-1] == str(number)
        if (
            lines[0].startswith("第") and "卷" in lines[0]
        ):  # a volume's page: its title, its number, no header
            assert lines == [lines[0], str(number)]
            seen.append(lines[0])
            continue
        if re.fullmatch(r"第\d+章 标题\d+", lines[0]) and lines[0] != owner:
            owner = lines[0]  # a chapter's first page: the heading, then the header naming it
            seen.append(owner)
        assert lines[-2] == owner, (number, lines[-3:])
    assert seen == ["第1卷 卷名1", "第1章 标题1", "第2章 标题2", "第2卷 卷名2", "第3章 标题3", "第4章 标题4"]


def test_recto_starts_every_chapter_on_a_right_hand_page(tmp_path):
    """[pdf] recto: chapters of odd and even lengths, chunked by two on two processes; every
    chapter and volume page starts on an odd page, the blank pages before them carry nothing,
    and the page numbers, the contents and the outline all agree."""
    lengths = [30, 55, 12, 80, 30, 41]
    files = {
        f"第{1 + i // 3}卷 卷{i // 3}/{i + 1:03d}.txt": text
        for i, (text, n) in enumerate(
            zip([chapters(6, paragraphs=n)[f"{i + 1:03d}.txt"] for i, n in enumerate(lengths)], lengths)
        )
    }
    root = write_book(tmp_path / "b", files, "[pdf]\nrecto = true\nchunk_chapters = 2\n")
    loaded = load_book(root)
    reader = PdfReader(str(build_pdf(loaded, jobs=2)[0]))
    start = body_start(reader)
    labels = reader.page_labels[start:]
    assert labels == [str(i) for i in range(1, len(labels) + 1)]
    texts = [page.extract_text().strip() for page in reader.pages[start:]]
    blanks = [i for i, t in enumerate(texts) if not t]
    assert blanks, "this book needs blank pages"
    for number, text in enumerate(texts, 1):
        if text:
            assert text.splitlines()[-1].strip() == str(number)  # its own number, blanks counted
    outline = {
        item.title: reader.get_destination_page_number(item) - start + 1
        for entry in reader.outline
        for item in ([entry] if not isinstance(entry, list) else entry)
    }
    assert len(outline) == 8  # two volumes, six chapters
    assert all(number % 2 == 1 for number in outline.values()), outline
    front = "".join(p.extract_text() for p in reader.pages[:start])
    for title, number in re.findall(r"(第\d+章 标题\d+)[ .]*(\d+)", front):
        assert outline[title] == int(number)
    for i in blanks:
        assert i + 2 in outline.values()  # a blank page stands only before a start


def test_contents_page_numbers_point_at_chapter_starts(chunked):
    loaded, reader, _ = chunked
    start = body_start(reader)
    front = "".join(p.extract_text() for p in reader.pages[:start])
    entries = re.findall(r"(第\d+章 标题\d+)[ .]*(\d+)", front)
    assert [title for title, _ in entries] == [c.title for c in loaded.book.chapters()]
    for title, number in entries:
        page = reader.pages[start + int(number) - 1].extract_text()
        assert (
            title in page.splitlines()[1] or title in page.splitlines()[0]
        )  # heading (or header) on that page
        previous = reader.pages[start + int(number) - 2].extract_text() if int(number) > 1 else ""
        assert title not in previous  # and not on the page before: it starts there


def test_outline_equals_contents_and_fonts_embedded(chunked):
    loaded, reader, path = chunked
    assert outline_titles(reader) == [c.title for c in loaded.book.chapters()]
    fonts = pdf_fonts(path)
    assert fonts and all(fonts.values())
    assert reader.metadata.title == "分块测试"


def test_each_chapter_text_equals_its_normalized_text(chunked):
    loaded, reader, _ = chunked
    text = "".join(p.extract_text() for p in reader.pages).replace("\n", "")
    at, missing, found = 0, [], 0
    for chapter in loaded.book.chapters():  # each paragraph, whole and in reading order
        for block in chapter.blocks:
            where = text.find(block.text, at)
            if where == -1:
                missing.append(block.text[:30])
            else:
                at, found = where + len(block.text), found + 1
    assert missing == [] and found == sum(len(c.blocks) for c in loaded.book.chapters()) > 0


def test_stamps_are_drawn_in_each_pages_own_stream_and_a_chunks_pages_share_its_resources(chunked):
    """No form XObject per page (it made the file 1.2× one document's): each body page is one
    content stream, its stamp drawn after the body, and the pages of a chunk (2 chapters) share
    one resource dictionary holding the stamp's fonts under their own names. The first chunk,
    numbered from 1 wherever it is laid out, draws its own margin boxes: no stamp's names."""
    import pikepdf

    _, reader, path = chunked
    with pikepdf.open(path) as pdf:
        body = pdf.pages[body_start(reader) :]
        assert all(isinstance(page.obj.Contents, pikepdf.Stream) for page in body)
        forms = [
            x
            for page in body
            for x in page.obj.Resources.get("/XObject", {}).values()
            if x.get("/Subtype") == "/Form"
        ]
        assert forms == []
        assert len({page.obj.Resources.objgen for page in body}) == 4  # 7 chapters in chunks of 2
        fonts = [str(name) for name in body[-1].obj.Resources.Font.keys()]
        assert any(name.startswith("/s-") for name in fonts) and any(
            not name.startswith("/s-") for name in fonts
        )
        assert body[-1].obj.Contents.read_bytes().rstrip().endswith(b"Q")
        assert not any(str(name).startswith("/s-") for name in body[0].obj.Resources.Font.keys())


def test_reproducible_bytes(tmp_path):
    root = write_book(tmp_path / "b", chapters(3), "")
    loaded = load_book(root)
    first = build_pdf(loaded, tmp_path / "a.pdf", jobs=1)[0].read_bytes()
    second = build_pdf(loaded, tmp_path / "b.pdf", jobs=1)[0].read_bytes()
    assert first == second


def test_the_same_bytes_on_one_core_and_on_two(tmp_path):
    """Chunks laid out on one process or on two, in whatever order they finish: one file."""
    root = write_book(tmp_path / "b", chapters(5), "[pdf]\nchunk_chapters = 2\n")
    loaded = load_book(root)
    one = build(loaded, "pdf", tmp_path / "one.pdf", jobs=1, cache=False)[0].read_bytes()
    assert build(loaded, "pdf", tmp_path / "two.pdf", jobs=2, cache=False)[0].read_bytes() == one


def test_css_url_outside_the_project_is_not_fetched(tmp_path):
    from PIL import Image

    outside = tmp_path / "outside.png"
    Image.new("RGB", (40, 40), (255, 0, 0)).save(outside)
    inside_root = tmp_path / "b"
    root = write_book(inside_root, chapters(1), '[pdf]\ncss = "styles/pdf.css"\n')
    Image.new("RGB", (40, 40), (0, 0, 255)).save(root / "inside.png")
    (root / "styles").mkdir()
    (root / "styles" / "pdf.css").write_text(
        f'h2::before {{ content: url("{outside.as_uri()}") }}\nh2::after {{ content: url("../inside.png") '
        "}\n",
        "utf-8",
    )
    path, _ = build_pdf(load_book(root), jobs=1)
    reader = PdfReader(str(path))
    small = [
        img.image.convert("RGB") for page in reader.pages for img in page.images if img.image.size == (40, 40)
    ]
    assert small  # the project's own image was fetched …
    assert all(img.getpixel((1, 1)) == (0, 0, 255) for img in small)  # … the one outside it never


@pytest.mark.skipif(
    __import__("subprocess").run(["fc-list", ":charset=1e900"], capture_output=True, text=True).stdout.strip()
    != "",
    reason="an installed font covers Adlam here",
)
def test_character_without_a_glyph_is_an_error_with_location(tmp_path):
    root = write_book(tmp_path / "b", {"1.txt": "第一章 开始\n正文。\n他写下了\U0001e900这个字。"}, "")
    with pytest.raises(BookError) as e:
        build_pdf(load_book(root), jobs=1)
    assert e.value.diagnostic.code == "E404"
    assert "U+1E900" in str(e.value) and "1.txt:3" in str(e.value)


@pytest.mark.parametrize("size, width_mm", [("A6", 105), ("B6", 125), ("6in×9in", 152.4), ("ereader", 90)])
def test_page_size_presets(tmp_path, size, width_mm):
    root = write_book(tmp_path / "b", chapters(1, paragraphs=2), f'[pdf]\npage_size = "{size}"\n')
    reader = PdfReader(str(build_pdf(load_book(root), jobs=1)[0]))
    assert abs(float(reader.pages[-1].mediabox.width) / 72 * 25.4 - width_mm) < 0.5


def test_tagged_pdf_ua_variant(tmp_path):
    import pikepdf

    root = write_book(
        tmp_path / "b",
        chapters(2, paragraphs=3),
        '[book]\ntitle = "无障碍"\n[pdf]\npdf_variant = "pdf/ua-1"\n',
    )
    path, _ = build_pdf(load_book(root), jobs=2)
    with pikepdf.open(path) as pdf:
        assert "/StructTreeRoot" in pdf.Root and bool(pdf.Root.MarkInfo.Marked)
        assert str(pdf.Root.Lang) == "zh-Hans"
        assert "pdfuaid" in str(pdf.open_metadata())
    reader = PdfReader(str(path))
    assert reader.metadata.title == "无障碍"
    assert outline_titles(reader) == ["第1章 标题1", "第2章 标题2"]


def test_traditional_book_is_set_in_the_traditional_face(tmp_path):
    root = write_book(
        tmp_path / "b", {"1.txt": "第一章 開始\n他說：「走吧。」"}, '[book]\nlanguage = "zh-Hant"\n'
    )
    path = build_pdf(load_book(root), jobs=1)[0]
    assert any("CJK-TC" in name for name in pdf_fonts(path)), pdf_fonts(path)


def _physical_starts(reader):
    """Each outline entry's page, counting the PDF's first page (the cover) as 1."""
    return {
        item.title: reader.get_destination_page_number(item) + 1
        for entry in reader.outline
        for item in ([entry] if not isinstance(entry, list) else entry)
    }


@pytest.mark.parametrize("chapter_count", [2, 30])
def test_recto_counts_physical_pages_whatever_the_front_matters_length(tmp_path, sample_book, chapter_count):
    """[pdf] recto by the sheet in the reader's hand: every chapter's first page is an odd page of
    the file, cover counted as 1. The sample's front matter has 3 pages (cover, title page,
    contents); 30 chapters make a 4-page one. Either way the body's page 1 is an odd page."""
    if chapter_count == 2:
        root = sample_book
        (root / "book.toml").write_text(
            (root / "book.toml").read_text("utf-8") + "\n[pdf]\nrecto = true\n", "utf-8"
        )
    else:
        root = write_book(tmp_path / "b", chapters(chapter_count, paragraphs=2), "[pdf]\nrecto = true\n")
    reader = PdfReader(str(build_pdf(load_book(root), jobs=1)[0]))
    start = body_start(reader)
    starts = _physical_starts(reader)
    assert len(starts) >= chapter_count
    assert all(page % 2 == 1 for page in starts.values()), starts
    assert start % 2 == 0  # the body's page 1 is physical page start + 1
    padded = not reader.pages[start - 1].extract_text().strip()
    assert padded == (
        chapter_count == 2
    )  # the 3-page front matter ends with a blank; the 4-page one does not


def test_a_stamps_resource_names_are_renamed_as_tokens_not_as_text():
    """The lexer's names: /F1 written /F#31 too; not /F10, nor "/F1" inside a string."""
    import pikepdf

    from bookbuilder.render.pdf_stamps import Renames

    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    page.obj.Contents = pdf.make_stream(b"/F1 12 Tf (/F1 a) Tj /F10 1 Tf /F#31 2 Tf")
    assert (
        page.get_filtered_contents(Renames({"/F1": pikepdf.Name("/s-F1")}))
        == b"/s-F1 12 Tf (/F1 a) Tj /F10 1 Tf /s-F1 2 Tf"
    )
