"""A built PDF read back as a reader sees it, whatever way its pages were made (chunks laid out with
their own margin boxes or stamped at the merge, one process or two): page labels in order, each
body page's printed number its label, each page's running header its own chapter's title, the
outline and the contents' links pointing at the pages where their chapters begin, the contents'
numbers those pages' numbers, and every paragraph in reading order."""

import re

import pytest
from pypdf import PdfReader

from bookbuilder.pipeline import build, load_book
from tests.conftest import write_book

PARAGRAPH = "城上守军齐声惊呼，西门起火，王宫起火，城内四处起火。高云支大吃一惊，急忙下令关闭城门。"
MARGIN_PT = 18 / 25.4 * 72  # the default stylesheet's top and bottom page margins


def volumes_book(root, toml=""):
    """Two titled volumes of chapters of different lengths (one a page, some several)."""
    lengths = [30, 6, 55, 12, 41, 25, 3]
    files = {}
    for i, n in enumerate(lengths, 1):
        body = "\n".join(f"{PARAGRAPH}（{i}-{k}）" for k in range(n))
        files[f"第{1 + (i - 1) // 4}卷 卷名{1 + (i - 1) // 4}/{i:03d}.txt"] = f"第{i}章 标题{i}\n{body}"
    return write_book(root, files, toml)


def page_parts(page) -> tuple[str, str, str]:
    """(running header, body, printed number): the text drawn in the top margin, between the
    margins, in the bottom margin (by where it is drawn, not the order it is drawn in)."""
    height = float(page.mediabox.height)
    parts = {"top": [], "body": [], "bottom": []}

    def visit(text, cm, tm, *_):
        if not text.strip():
            return
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        where = "top" if y > height - MARGIN_PT else "bottom" if y < MARGIN_PT else "body"
        parts[where].append(text)

    page.extract_text(visitor_text=visit)
    return tuple("".join(parts[k]).replace("\n", "").strip() for k in ("top", "body", "bottom"))


def outline_pages(reader) -> list[tuple[str, int]]:
    """(title, page index) of every outline entry, volumes before their chapters, in order."""
    found = []

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                found.append((item.title, reader.get_destination_page_number(item)))

    walk(reader.outline)
    return found


def link_pages(reader, pages: range) -> list[int]:
    """The page index each internal link on `pages` goes to, in the order they are drawn (an entry
    drawn as several boxes, its title, dots and number, is one link in several rectangles)."""
    targets = []
    for i in pages:
        for annot in reader.pages[i].get("/Annots") or []:
            annot = annot.get_object()
            if annot.get("/Subtype") == "/Link" and "/Dest" in annot:
                page = reader.get_destination_page_number(reader._build_destination("", annot["/Dest"]))
                if not targets or targets[-1] != page:
                    targets.append(page)
    return targets


def check_invariants(path, book) -> None:
    reader = PdfReader(str(path))
    labels = reader.page_labels
    start = labels.index("1")
    romans = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"]
    assert labels[:start] == romans[:start]
    assert labels[start:] == [str(n) for n in range(1, len(labels) - start + 1)]

    volumes = [v.title for v in book.volumes if v.title]
    chapters = [c.title for c in book.chapters()]
    entries = outline_pages(reader)
    assert [t for t, _ in entries] == [
        t for v in book.volumes for t in ([v.title] if v.title else []) + [c.title for c in v.chapters]
    ]
    starts = [p for _, p in entries]
    assert starts == sorted(starts) and all(p >= start for p in starts)
    # the contents' links, entry by entry (a volume and its first chapter share a page)
    assert link_pages(reader, range(start)) == list(dict.fromkeys(starts))

    contents = "".join(page_parts(reader.pages[i])[1] for i in range(start))
    printed = re.findall(r"(第\d+[章卷] (?:标题|卷名)\d+)[ .]*(\d+)", contents)
    assert printed == [(title, labels[page]) for title, page in entries]

    owner, text = None, []
    for i in range(start, len(reader.pages)):
        header, body, number = page_parts(reader.pages[i])
        text.append(body)
        assert number == labels[i], (i, number)
        begins = [t for t, p in entries if p == i]
        if begins and begins[-1] in volumes:
            assert (header, body) == ("", begins[-1])  # a volume's page: its title alone, no header
            continue
        if begins:
            owner = begins[-1]
            assert body.startswith(owner)  # the chapter's heading opens its first page
        assert header == owner, (i, header, owner)
    assert {t for t, _ in entries} >= set(chapters)

    joined, at = "".join(text), 0
    for chapter in book.chapters():  # every paragraph, whole and in reading order
        for block in chapter.blocks:
            at = joined.index(block.text, at) + len(block.text)


@pytest.mark.parametrize(
    "toml, jobs", [("", 2), ("[pdf]\nchunk_chapters = 2\n", 2), ("[pdf]\nchunk_chapters = 3\n", 1)]
)
def test_a_built_pdf_reads_back_as_one_book(tmp_path, toml, jobs):
    root = volumes_book(tmp_path / "b", toml)
    loaded = load_book(root)
    path = build(loaded, "pdf", tmp_path / "out.pdf", jobs=jobs, cache=False)[0]
    check_invariants(path, loaded.book)


def test_two_builds_and_one_or_two_processes_give_the_same_bytes(tmp_path):
    root = volumes_book(tmp_path / "b", "[pdf]\nchunk_chapters = 2\n")
    loaded = load_book(root)
    one = build(loaded, "pdf", tmp_path / "one.pdf", jobs=1, cache=False)[0].read_bytes()
    two = build(loaded, "pdf", tmp_path / "two.pdf", jobs=2, cache=False)[0].read_bytes()
    again = build(loaded, "pdf", tmp_path / "again.pdf", jobs=2, cache=False)[0].read_bytes()
    assert one == two == again
