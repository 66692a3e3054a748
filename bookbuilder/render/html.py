"""Chapter → XHTML markup, shared by the EPUB and the PDF (and `serve`'s pages): they differ in
packaging and CSS, never in how a paragraph becomes markup. Chapter text is data: always escaped
(docs/rules.md §6)."""

from __future__ import annotations

import re
from html import escape

from bookbuilder.model import Chapter, Paragraph

# XML 1.0 forbids these; EPUB readers refuse a document holding one (RULES §6).
XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")

# epub:type → ARIA role (DPUB-ARIA), so assistive technology gets the same semantics.
ROLES = {
    "chapter": "doc-chapter",
    "part": "doc-part",
    "introduction": "doc-introduction",
    "prologue": "doc-prologue",
    "epilogue": "doc-epilogue",
}
KIND_TYPES = {"chapter": "chapter", "intro": "introduction", "front": "prologue", "back": "epilogue"}


def text(value: str) -> str:
    """Escape chapter text for XHTML: & < > " ' and XML-illegal code points."""
    return escape(XML_ILLEGAL.sub("", value), quote=True)


def chapter_section(
    chapter: Chapter, anchor: str, level: int = 2, inline=None, blocks: list[str] | None = None
) -> str:
    """<section> with the chapter's heading, paragraphs and scene breaks. `inline(text, heading)`:
    the markup inside a heading or paragraph (the kepub's sentence spans); by default, the text escaped.
    `blocks`: the markup under the heading, where it is more than `paragraphs` (serve's pages
    show what cleaning removed among them)."""
    kind = KIND_TYPES.get(chapter.kind, "chapter")
    heading = inline(chapter.title, True) if inline else text(chapter.title)
    out = [
        f'<section epub:type="{kind}" role="{ROLES[kind]}" id="{anchor}" class="{chapter.kind}" '
        f'aria-labelledby="{anchor}-h">',
        f'<h{level} id="{anchor}-h" class="chapter-title">{heading}</h{level}>',
    ]
    out += paragraphs(chapter.blocks, inline) if blocks is None else blocks
    out.append("</section>")
    return "\n".join(out)


def paragraphs(blocks, inline=None) -> list[str]:
    """<p> for each paragraph, <hr class="scene"/> for each scene break."""
    if inline is not None:
        return [f"<p>{inline(b.text)}</p>" if type(b) is Paragraph else '<hr class="scene"/>' for b in blocks]
    # A paragraph never holds a line break, so the chapter is escaped in one pass, not per paragraph.
    texts = [b.text for b in blocks if type(b) is Paragraph]
    if not texts:
        return ['<hr class="scene"/>' for _ in blocks]
    joined = "\n".join(texts)
    one_pass = joined.count("\n") == len(texts) - 1
    if one_pass and len(texts) == len(blocks):  # no scene break: the paragraphs are the lines
        return ["<p>" + text(joined).replace("\n", "</p>\n<p>") + "</p>"]
    escaped = iter(text(joined).split("\n") if one_pass else map(text, texts))
    return [f"<p>{next(escaped)}</p>" if type(b) is Paragraph else '<hr class="scene"/>' for b in blocks]


def volume_section(title: str, anchor: str, inline=None) -> str:
    return (
        f'<section epub:type="part" role="doc-part" id="{anchor}" class="volume" '
        f'aria-labelledby="{anchor}-h">'
        f'<h1 id="{anchor}-h" class="volume-title">{inline(title, True) if inline else text(title)}</h1>'
        "</section>"
    )
