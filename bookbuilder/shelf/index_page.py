"""build/index.html: the shelf as one page for a phone's browser (and an e-reader's): each book's
cover, title, author, when it last changed and a link per file, with a search box (a word of a
title or an author, or its pinyin) and a choice of order (title, author, recently changed).

The page works from any static host or straight from the disk: the search and the sorting are a
small script in the page, over what each book's item carries in its data attributes (its words,
its place by title and by author, its date); it only hides and reorders those items, never writes
markup, and without it the page is the list by title. Every title, name and link is escaped: they
are data."""

from __future__ import annotations

from bookbuilder.render.html import text
from bookbuilder.shelf.built import by_sound
from bookbuilder.shelf.opds import NAVIGATION_FEED

STYLE = """
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 0.75rem; }
h1 { font-size: 1.4rem; margin: 0.25rem 0 0.5rem; }
[hidden] { display: none !important; }
form.find { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; margin: 0 0 1rem; }
form.find input { flex: 1 1 12rem; font-size: 1rem; padding: 0.3rem; }
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

FIND = """<form class="find" role="search" hidden>
<input type="search" id="find" placeholder="Find: a word of a title or an author" aria-label="Find a book"/>
<label>Order <select id="order"><option value="title">by title</option>
<option value="author">by author</option><option value="changed">recently changed</option></select></label>
<span id="shown" class="note" aria-live="polite"></span>
</form>"""

# Every word typed must be in the book's words; the dates are RFC 3339 in UTC, which sort as text.
SCRIPT = """(function () {
  var list = document.querySelector("ul.books"), form = document.querySelector("form.find");
  var find = document.getElementById("find"), order = document.getElementById("order");
  var shown = document.getElementById("shown"), books = Array.prototype.slice.call(list.children);
  function place(a, b) {
    if (order.value === "changed" && a.dataset.changed !== b.dataset.changed) {
      return a.dataset.changed < b.dataset.changed ? 1 : -1;
    }
    var by = order.value === "author" ? "byAuthor" : "byTitle";
    return a.dataset[by] - b.dataset[by];
  }
  function sort() {
    books.sort(place).forEach(function (li) { list.appendChild(li); });
  }
  function filter() {
    var words = find.value.toLowerCase().split(/\\s+/).filter(Boolean), found = 0;
    books.forEach(function (li) {
      var hit = words.every(function (w) { return li.dataset.words.indexOf(w) >= 0; });
      li.hidden = !hit;
      found += hit ? 1 : 0;
    });
    shown.textContent = words.length ? found + " of " + books.length : "";
  }
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  find.addEventListener("input", filter);
  order.addEventListener("change", sort);
  form.hidden = false;
})();"""


def index_html(
    shelf: str,
    books: list,
    covers: dict[str, tuple[str, str]],
    files: dict[str, list[tuple[str, str, str, int]]],
    feed: str,
    pages: dict[str, str] | None = None,
) -> bytes:
    """The page: `books` by title, `covers` maps a book's name to its (cover, thumbnail) links,
    `files` to its (link, media type, label, size) rows, `pages` (served only) to its workbench;
    `feed` is the OPDS catalogue's link."""
    by_author = sorted(books, key=lambda b: (by_sound(b.author), b.author, by_sound(b.title), b.name))
    author_place = {book.name: n for n, book in enumerate(by_author)}
    items = [_item(book, n, author_place[book.name], covers, files, pages) for n, book in enumerate(books)]
    count = f"{len(books)} book{'s' if len(books) != 1 else ''}"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8"/>\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1"/>\n'
        f"<title>{text(shelf)}</title>\n<style>{STYLE}</style>\n"
        f'<link rel="alternate" type="{NAVIGATION_FEED}" href="{text(feed)}"/>\n'
        f"</head>\n<body>\n<h1>{text(shelf)}</h1>\n"
        f'<p class="note">{count}. For a reading app: the <a href="{text(feed)}">OPDS catalogue</a>.</p>\n'
        f"{FIND}\n"
        f'<ul class="books">\n' + "\n".join(items) + f"\n</ul>\n<script>{SCRIPT}</script>\n</body></html>\n"
    ).encode("utf-8")


def _item(book, by_title: int, by_author: int, covers: dict, files: dict, pages: dict | None) -> str:
    """One book's item: what the page shows of it, and in its data attributes what the script
    finds and sorts it by."""
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
    sounds = [by_sound(book.title), by_sound(book.author)]  # xian-ni: found as xian ni and as xianni
    words = " ".join(
        [book.title, book.author] + [s.replace("-", j) for s in sounds for j in (" ", "")]
    ).lower()
    data = (
        f' data-words="{text(words)}" data-by-title="{by_title}" data-by-author="{by_author}"'
        f' data-changed="{text(book.modified)}"'
    )
    changed = f'<time datetime="{text(book.modified)}">{text(book.modified[:10])}</time>'
    return (
        f'<li{lang}{data}>{image}\n<p class="title">{text(book.title)}</p>\n'
        f'<p class="author">{text(book.author)}</p>\n<p class="files">{links}</p>\n'
        f'<p class="note">changed {changed}</p></li>'
    )


def _size(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB" if size >= 1_000_000 else f"{max(1, round(size / 1000))} kB"
