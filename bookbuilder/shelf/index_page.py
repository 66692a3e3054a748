"""build/index.html: the shelf as one page for a phone's browser (and an e-reader's): each book's
cover, title, author and a link per file. No script; one small stylesheet in the page, whose
grid of covers is as wide as the screen allows. Every title, name and link is escaped: they are data.
"""

from __future__ import annotations

from bookbuilder.render.html import text
from bookbuilder.shelf.opds import NAVIGATION_FEED

STYLE = """
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 0.75rem; }
h1 { font-size: 1.4rem; margin: 0.25rem 0 0.5rem; }
ul.books { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr));
  list-style: none; margin: 0; padding: 0; }
ul.books > li { overflow-wrap: anywhere; }
img, .nocover { aspect-ratio: 2 / 3; background: #eee; display: block; height: auto; object-fit: cover;
  width: 100%; }
.title { font-weight: bold; margin: 0.4rem 0 0.1rem; }
.author { color: #555; margin: 0 0 0.3rem; }
.files a { display: inline-block; margin: 0 0.5rem 0.3rem 0; padding: 0.2rem 0; }
.note { color: #555; font-size: 0.9rem; }
"""


def index_html(
    shelf: str,
    books: list,
    covers: dict[str, tuple[str, str]],
    files: dict[str, list[tuple[str, str, str, int]]],
    feed: str,
    pages: dict[str, str] | None = None,
) -> bytes:
    """The page: `covers` maps a book's name to its (cover, thumbnail) links, `files` to its
    (link, media type, label, size) rows, `pages` (served only) to its workbench; `feed` is the
    OPDS catalogue's link."""
    items = []
    for book in books:
        image = (
            f'<img src="{text(covers[book.name][1])}" alt="" loading="lazy" width="160" height="240"/>'
            if book.name in covers
            else '<div class="nocover" aria-hidden="true"></div>'
        )
        links = " ".join(
            f'<a href="{text(link)}" type="{text(kind)}">{text(label)}</a>'
            f' <span class="note">{_size(size)}</span>'
            for link, kind, label, size in files[book.name]
        )
        if pages and book.name in pages:
            links += f' <a class="pages" href="{text(pages[book.name])}">pages</a>'
        lang = f' lang="{text(book.language)}"' if book.language else ""
        items.append(
            f'<li{lang}>{image}\n<p class="title">{text(book.title)}</p>\n'
            f'<p class="author">{text(book.author)}</p>\n<p class="files">{links}</p></li>'
        )
    count = f"{len(books)} book{'s' if len(books) != 1 else ''}"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8"/>\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1"/>\n'
        f"<title>{text(shelf)}</title>\n<style>{STYLE}</style>\n"
        f'<link rel="alternate" type="{NAVIGATION_FEED}" href="{text(feed)}"/>\n'
        f"</head>\n<body>\n<h1>{text(shelf)}</h1>\n"
        f'<p class="note">{count}. For a reading app: the <a href="{text(feed)}">OPDS catalogue</a>.</p>\n'
        f'<ul class="books">\n' + "\n".join(items) + "\n</ul>\n</body></html>\n"
    ).encode("utf-8")


def _size(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB" if size >= 1_000_000 else f"{max(1, round(size / 1000))} kB"
