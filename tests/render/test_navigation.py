"""render.navigation writes the documents ebooklib 0.20 writes for the same table of contents
(byte for byte), without its per-chapter searches; only the NCX's depth is ours."""

import pytest
from ebooklib import epub

from bookbuilder.render.navigation import TocEntry, nav_document, ncx_document

GUIDE = [
    {"type": "cover", "href": "text/cover.xhtml", "title": "封面"},
    {"type": "toc", "href": "nav.xhtml", "title": "目录"},
    {"type": "text", "href": "text/ch00001.xhtml", "title": "正文"},
]


def chapter(n: int, title: str | None = None) -> TocEntry:
    return TocEntry(title or f"第{n}章 风起", f"text/ch{n:05d}.xhtml", f"ch{n:05d}")


TOCS = {
    "flat": [chapter(n) for n in range(1, 6)],
    "volumes": [
        TocEntry("第一卷 潜龙", "text/part001.xhtml", "part001", (chapter(1), chapter(2))),
        TocEntry("第二卷 飞龙", "text/part002.xhtml", "part002", (chapter(3),)),
    ],
    "intro then volumes": [
        chapter(1, "内容简介"),
        TocEntry("第一卷", "text/part002.xhtml", "part002", (chapter(2), chapter(3))),
        TocEntry("空卷", "text/part003.xhtml", "part003", ()),
    ],
    "markup in titles": [chapter(1, "<script>&amp; \"引\" '号'"), chapter(2, "a & b > c")],
}


def ebooklib_documents(toc: list[TocEntry], guide: list[dict]) -> tuple[bytes, bytes]:
    book = epub.EpubBook()
    book.set_identifier("urn:uuid:0000")
    book.set_title("书 & <名>")
    book.set_language("zh-Hans")

    def convert(entry: TocEntry):
        if entry.children is None:
            return epub.Link(entry.href, entry.title, entry.uid)
        return epub.Section(entry.title, entry.href), [convert(child) for child in entry.children]

    book.toc = [convert(entry) for entry in toc]
    nav = epub.EpubNav(title="目录")
    nav.add_link(href="styles/book.css", rel="stylesheet", type="text/css")
    book.add_item(epub.EpubNcx())
    book.add_item(nav)
    book.guide = guide
    writer = epub.EpubWriter(
        "unused.epub",
        book,
        {"landmark_title": "导航", "epub3_pages": False, "play_order": {"enabled": True, "start_from": 1}},
    )
    return writer._get_nav(nav), writer._get_ncx()


@pytest.mark.parametrize("name", TOCS)
@pytest.mark.parametrize("guide", [GUIDE, GUIDE[1:], []], ids=["cover", "no cover", "no guide"])
def test_documents_are_ebooklibs(name, guide):
    toc = TOCS[name]
    their_nav, their_ncx = ebooklib_documents(toc, guide)
    assert nav_document("目录", "zh-Hans", "styles/book.css", toc, "导航", guide) == their_nav
    depth = 2 if any(entry.children is not None for entry in toc) else 1
    ours = ncx_document("urn:uuid:0000", "书 & <名>", toc, depth)
    assert ours == their_ncx.replace(
        b'<meta content="0" name="dtb:depth"/>', f'<meta content="{depth}" name="dtb:depth"/>'.encode()
    )


def test_characters_xml_forbids_are_dropped():
    toc = [chapter(1, "第1章\x00\x0b 风起")]
    assert b"\x00" not in nav_document("目录", "zh-Hans", "styles/book.css", toc, "导航", [])
    assert "第1章 风起".encode() in ncx_document("id", "书", toc, 1)
