"""OPDS 1.2 feeds as bytes: the one writer behind `serve`'s feed of one book (bookbuilder.serve.opds)
and the shelf's catalogue (bookbuilder.shelf.catalog).

An OPDS catalogue is Atom (RFC 4287): navigation feeds whose entries link to other feeds, and
acquisition feeds whose entries are books with a link per file. Everything a book says about itself
(its title, its blurb) is data: ElementTree escapes it, and code points XML 1.0 cannot carry are
dropped here, so no title can break a feed. The bytes depend only on what is given (no clock).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from bookbuilder.render.html import XML_ILLEGAL

ATOM, DC, OPDS = (
    "http://www.w3.org/2005/Atom",
    "http://purl.org/dc/terms/",
    "http://opds-spec.org/2010/catalog",
)
ACQUISITION_FEED = "application/atom+xml;profile=opds-catalog;kind=acquisition"
NAVIGATION_FEED = "application/atom+xml;profile=opds-catalog;kind=navigation"
ACQUISITION = "http://opds-spec.org/acquisition"
IMAGE, THUMBNAIL = "http://opds-spec.org/image", "http://opds-spec.org/image/thumbnail"
SORT_NEW = "http://opds-spec.org/sort/new"
SUBSECTION = "subsection"
OPENSEARCH = "application/opensearchdescription+xml"

for prefix, uri in (("", ATOM), ("dc", DC), ("opds", OPDS)):
    ET.register_namespace(prefix, uri)


@dataclass(frozen=True)
class Link:
    rel: str
    href: str
    type: str
    title: str | None = None
    length: int | None = None  # bytes of the file linked (an acquisition link's size)


@dataclass(frozen=True)
class Entry:
    """An Atom entry: a book (acquisition links, covers, its metadata) or a navigation entry (a
    link to another feed and a line of `content`)."""

    id: str
    title: str
    updated: str  # RFC 3339, UTC
    links: tuple[Link, ...] = ()
    author: str | None = None
    language: str | None = None
    publisher: str | None = None
    issued: str | None = None
    subjects: tuple[str, ...] = ()
    summary: str | None = None
    content: str | None = None  # a navigation entry's line


@dataclass(frozen=True)
class Feed:
    id: str
    title: str
    updated: str
    links: tuple[Link, ...]
    entries: tuple[Entry, ...] = field(default=())
    author: str = "bookbuilder"


def feed_bytes(feed: Feed) -> bytes:
    """The feed as an XML document in UTF-8."""
    root = ET.Element(f"{{{ATOM}}}feed")
    _sub(root, "id", feed.id)
    _sub(root, "title", feed.title)
    _sub(root, "updated", feed.updated)
    _sub(_sub(root, "author"), "name", feed.author)
    for link in feed.links:
        _link(root, link)
    for entry in feed.entries:
        _entry(root, entry)
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(
        root, encoding="utf-8", xml_declaration=False
    )


def _entry(parent: ET.Element, entry: Entry) -> None:
    element = _sub(parent, "entry")
    _sub(element, "title", entry.title)
    _sub(element, "id", entry.id)
    _sub(element, "updated", entry.updated)
    if entry.author:
        _sub(_sub(element, "author"), "name", entry.author)
    if entry.language:
        _sub(element, f"{{{DC}}}language", entry.language)
    if entry.publisher:
        _sub(element, f"{{{DC}}}publisher", entry.publisher)
    if entry.issued:
        _sub(element, f"{{{DC}}}issued", entry.issued)
    for subject in entry.subjects:
        _sub(element, "category", term=subject, label=subject)
    if entry.summary:
        _sub(element, "summary", entry.summary, type="text")
    if entry.content:
        _sub(element, "content", entry.content, type="text")
    for link in entry.links:
        _link(element, link)


def _link(parent: ET.Element, link: Link) -> None:
    extra = {"title": link.title} if link.title is not None else {}
    if link.length is not None:
        extra["length"] = str(link.length)
    _sub(parent, "link", rel=link.rel, href=link.href, type=link.type, **extra)


def _sub(parent, tag: str, value: str | None = None, **attributes) -> ET.Element:
    attributes = {k: XML_ILLEGAL.sub("", v) for k, v in attributes.items()}  # XML 1.0 cannot carry them
    element = ET.SubElement(parent, tag if tag.startswith("{") else f"{{{ATOM}}}{tag}", attributes)
    if value is not None:
        element.text = XML_ILLEGAL.sub("", value)
    return element
