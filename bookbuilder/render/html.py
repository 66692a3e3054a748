"""Chapter → XHTML markup, shared by the EPUB and the PDF: they differ in packaging and CSS,
never in how a paragraph becomes markup. Chapter text is data: always escaped (RULES §6)."""
from __future__ import annotations

import re
from html import escape

from bookbuilder.model import Chapter, Paragraph

# XML 1.0 forbids these; EPUB readers refuse a document holding one (RULES §6).
XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")

# epub:type → ARIA role (DPUB-ARIA), so assistive technology gets the same semantics.
ROLES = {"chapter": "doc-chapter", "part": "doc-part", "introduction": "doc-introduction",
         "prologue": "doc-prologue", "epilogue": "doc-epilogue"}
KIND_TYPES = {"chapter": "chapter", "intro": "introduction", "front": "prologue", "back": "epilogue"}


def text(value: str) -> str:
    """Escape chapter text for XHTML: & < > " ' and XML-illegal code points."""
    return escape(XML_ILLEGAL.sub("", value), quote=True)


def chapter_section(chapter: Chapter, anchor: str, level: int = 2) -> str:
    """<section> with the chapter's heading, paragraphs and scene breaks."""
    kind = KIND_TYPES.get(chapter.kind, "chapter")
    out = [f'<section epub:type="{kind}" role="{ROLES[kind]}" id="{anchor}" class="{chapter.kind}" aria-labelledby="{anchor}-h">',
           f'<h{level} id="{anchor}-h" class="chapter-title">{text(chapter.title)}</h{level}>']
    # A paragraph never holds a line break, so the chapter is escaped in one pass, not per paragraph.
    texts = [b.text for b in chapter.blocks if type(b) is Paragraph]
    joined = "\n".join(texts)
    one_pass = joined.count("\n") == len(texts) - 1
    if one_pass and len(texts) == len(chapter.blocks):  # no scene break: the paragraphs are the lines
        out.append("<p>" + text(joined).replace("\n", "</p>\n<p>") + "</p>")
    else:
        escaped = iter(text(joined).split("\n") if one_pass else map(text, texts))
        for block in chapter.blocks:
            out.append(f"<p>{next(escaped)}</p>" if type(block) is Paragraph else '<hr class="scene"/>')
    out.append("</section>")
    return "\n".join(out)


def volume_section(title: str, anchor: str) -> str:
    return (f'<section epub:type="part" role="doc-part" id="{anchor}" class="volume" aria-labelledby="{anchor}-h">'
            f'<h1 id="{anchor}-h" class="volume-title">{text(title)}</h1></section>')
