"""The EPUB's two tables of contents: the EPUB 3 navigation document (with its landmarks) and the
NCX that older readers use. They are written here and handed to ebooklib as finished documents,
as the chapters are: ebooklib's NCX writer searches the whole navMap again for every chapter
(its time grows with the square of the chapters) and its nav writer runs os.path.relpath, two
abspath calls and getcwd for every link. The documents are the ones ebooklib 0.20 writes, byte
for byte, which a test checks, with the NCX's dtb:depth set to the real depth."""

from __future__ import annotations

from dataclasses import dataclass

from bookbuilder.render.html import XML_ILLEGAL

# Escaped as lxml (under ebooklib) escapes, not as html.text does (which also escapes quotes in
# text), so that the documents stay ebooklib's byte for byte.
_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTRIBUTE = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}
)
# Epub 2 guide types that EPUB 3 landmarks name otherwise (as ebooklib maps them).
_LANDMARK_TYPES = {"notes": "rearnotes", "text": "bodymatter"}


@dataclass(frozen=True)
class TocEntry:
    """A line of the table of contents: a chapter (children None) or a volume with its chapters."""

    title: str
    href: str  # relative to the EPUB folder, where both documents live
    uid: str
    children: tuple[TocEntry, ...] | None = None


def _text(value: str) -> str:
    return XML_ILLEGAL.sub("", value).translate(_TEXT)


def _attribute(value: str) -> str:
    return XML_ILLEGAL.sub("", value).translate(_ATTRIBUTE)


def nav_document(
    title: str,
    language: str,
    css_href: str,
    toc: list[TocEntry],
    landmarks_title: str,
    landmarks: list[dict[str, str]],
) -> bytes:
    """The navigation document: `toc` as nested lists, then `landmarks` (the guide: dicts of type,
    href and title) as EPUB 3 landmarks."""
    out = [
        "<?xml version='1.0' encoding='utf-8'?>\n<!DOCTYPE html>\n"
        f'<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" '
        f'lang="{_attribute(language)}" xml:lang="{_attribute(language)}">\n'
        f"  <head>\n    <title>{_text(title)}</title>\n"
        f'    <link href="{_attribute(css_href)}" rel="stylesheet" type="text/css"/>\n  </head>\n'
        f'  <body>\n    <nav epub:type="toc" id="id" role="doc-toc">\n      <h2>{_text(title)}</h2>\n'
    ]
    _nav_list(out, toc, "      ")
    out.append("    </nav>\n")
    if landmarks:
        out.append(f'    <nav epub:type="landmarks">\n      <h2>{_text(landmarks_title)}</h2>\n      <ol>\n')
        for mark in landmarks:
            kind = _LANDMARK_TYPES.get(mark["type"], mark["type"])
            out.append(
                f'        <li>\n          <a epub:type="{_attribute(kind)}" '
                f'href="{_attribute(mark["href"])}">'
                f"{_text(mark['title'])}</a>\n        </li>\n"
            )
        out.append("      </ol>\n    </nav>\n")
    out.append("  </body>\n</html>\n")
    return "".join(out).encode("utf-8")


def _nav_list(out: list[str], entries: tuple[TocEntry, ...] | list[TocEntry], indent: str) -> None:
    if not entries:
        out.append(f"{indent}<ol/>\n")
        return
    out.append(f"{indent}<ol>\n")
    for entry in entries:
        out.append(
            f'{indent}  <li>\n{indent}    <a href="{_attribute(entry.href)}">{_text(entry.title)}</a>\n'
        )
        if entry.children is not None:
            _nav_list(out, entry.children, indent + "    ")
        out.append(f"{indent}  </li>\n")
    out.append(f"{indent}</ol>\n")


def ncx_document(identifier: str, title: str, toc: list[TocEntry], depth: int) -> bytes:
    """The NCX: `toc` as nested navPoints, numbered in reading order (playOrder)."""
    out = [
        "<?xml version='1.0' encoding='utf-8'?>\n"
        '<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">\n  <head>\n'
        f'    <meta content="{_attribute(identifier)}" name="dtb:uid"/>\n'
        f'    <meta content="{depth}" name="dtb:depth"/>\n'
        '    <meta content="0" name="dtb:totalPageCount"/>\n'
        '    <meta content="0" name="dtb:maxPageNumber"/>\n'
        f"  </head>\n  <docTitle>\n    <text>{_text(title)}</text>\n  </docTitle>\n"
    ]
    if toc:
        out.append("  <navMap>\n")
        _nav_points(out, toc, "    ", [0], 0)
        out.append("  </navMap>\n")
    else:
        out.append("  <navMap/>\n")
    out.append("</ncx>\n")
    return "".join(out).encode("utf-8")


def _nav_points(out: list[str], entries, indent: str, order: list[int], section: int) -> int:
    """ebooklib's numbering: playOrder counts every point; a volume's id is sep_N, N counting
    volumes at each level as ebooklib's recursion does."""
    for entry in entries:
        order[0] += 1
        point_id = f"sep_{section}" if entry.children is not None else entry.uid
        out.append(
            f'{indent}<navPoint id="{_attribute(point_id)}" playOrder="{order[0]}">\n'
            f"{indent}  <navLabel>\n{indent}    <text>{_text(entry.title)}</text>\n{indent}  </navLabel>\n"
            f'{indent}  <content src="{_attribute(entry.href)}"/>\n'
        )
        if entry.children is not None:
            section = _nav_points(out, entry.children, indent + "  ", order, section + 1)
        out.append(f"{indent}</navPoint>\n")
    return section
