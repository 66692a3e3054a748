"""Book → Kobo kepub (`.kepub.epub`): the EPUB, with the markup Kobo's own conversion adds, which
Kobo readers need for page counts, reading statistics and reliable highlights:

- each content document's body wrapped in `<div id="book-columns"><div id="book-inner">`, and
  Kobo's `kobostylehacks` style in its head;
- each sentence of each heading and paragraph in `<span class="koboSpan" id="kobo.P.S">`: P counts
  the paragraphs of the document (its headings are paragraph 0, as Kobo numbers text before the
  first paragraph), S the sentences in it.

Kobo's and kepubify's sentence splitting is tuned for English (after . ! ? :); Chinese sentences
end after 。！？ or a run of …, with the closing quotes and brackets that follow them, and never
between an opening quote and its text. The spans hold the text exactly: the kepub's text is the
EPUB's. Sources: kepubify's kepub/transform.go (pgaskin/kepubify), which matches Kobo's
conversion as of 2020.
"""

from __future__ import annotations

import re
from pathlib import Path

from bookbuilder.model import Book
from bookbuilder.render import COMMANDS
from bookbuilder.render.epub import EpubRenderer, Markup
from bookbuilder.render.html import text
from bookbuilder.vocabulary import CLOSING_QUOTES, SENTENCE_END_MARKS

# A sentence ends after a run of these, and the closing quotes and brackets right after them.
_SENTENCE_END = re.compile(f"[{SENTENCE_END_MARKS}]+[{CLOSING_QUOTES}’）》〉】\"')]*")
KOBO_STYLE = (
    '<style type="text/css" id="kobostylehacks">div#book-inner { margin-top: 0; margin-bottom: 0; }</style>\n'
)


def sentences(paragraph: str) -> list[str]:
    """The paragraph cut after each sentence; joined again, exactly the paragraph."""
    out, start = [], 0
    for m in _SENTENCE_END.finditer(paragraph):
        if m.end() > start:
            out.append(paragraph[start : m.end()])
            start = m.end()
    if start < len(paragraph):
        out.append(paragraph[start:])
    return out


class KoboSpans:
    """One document's spans: call it with a heading's or paragraph's text, in document order."""

    def __init__(self):
        self.paragraph = 0
        self.heading_sentences = 0

    def __call__(self, value: str, heading: bool = False) -> str:
        if heading and self.paragraph == 0:
            first, self.heading_sentences = (
                self.heading_sentences,
                self.heading_sentences + len(sentences(value)),
            )
            number = 0
        else:
            self.paragraph += 1
            first, number = 0, self.paragraph
        return "".join(
            f'<span class="koboSpan" id="kobo.{number}.{first + i}">{text(s)}</span>'
            for i, s in enumerate(sentences(value), 1)
        )


class KoboMarkup(Markup):
    head = KOBO_STYLE

    def inline(self):
        return KoboSpans()

    def body(self, inner: str) -> str:
        return f'<div id="book-columns"><div id="book-inner">\n{inner}\n</div></div>'


class KepubRenderer(EpubRenderer):
    name = "kepub"
    suffix = "kepub.epub"
    help = COMMANDS["kepub"].help
    flags = COMMANDS["kepub"].flags
    media_type = "application/kepub+zip"  # calibre's content server's and the OPDS clients' for a kepub
    shelf_label = "Kobo (kepub)"
    markup = KoboMarkup()

    def checks(self, path: Path, book: Book, full_a11y: bool = False) -> list:
        from bookbuilder.check.gate import Check
        from bookbuilder.check.judges import check_epub, epubcheck_version

        return [Check("EPUBCheck", path, lambda: check_epub(path), epubcheck_version())]


RENDERER = KepubRenderer()
