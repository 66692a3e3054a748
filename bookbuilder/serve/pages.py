"""A loaded book as web pages, for `bookbuilder serve`: a contents page, each chapter in the EPUB's
own markup and CSS with the diagnostics found in it, and each source file with numbered lines.

Pages are made on request from the book in memory. A request names a page by the EPUB's stable
document name or a source file's position in the book, never by a path: nothing outside the book
can be fetched. Every page carries the build it was made from and listens on /events; when a
later build ends, it reloads itself. A chapter page shows the lines cleaning removed from it, in
place and marked. With a workbench (bookbuilder.serve.workbench, for requests from this machine) the
pages also carry its correction forms.

The pages are no format (they are never written to build/): a chapter's markup is the one every
format shares (bookbuilder.render.html.chapter_section), its stylesheet the EPUB's, which the
server asks of the render registry.
"""

from __future__ import annotations

import bisect
import functools
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs

from bookbuilder.decode.text import decode_chapter
from bookbuilder.diagnostics import REMOVED, BookError, Diagnostic, Severity, removal_evidence, removal_parts
from bookbuilder.model import Chapter, Paragraph
from bookbuilder.render.html import chapter_section, paragraphs, text
from bookbuilder.render.names import document_names
from bookbuilder.serve.corrections import fix_files

SHOWN = Severity.WARNING  # a page lists the warnings and errors found in it (info lines are check's)
# Lines a source page shows: an 18 MB download is some 300,000 lines, which a browser takes seconds
# to lay out; a page of this many opens at once, its neighbours linked.
SOURCE_PAGE_LINES = 1000
SERVE_CSS = """
body { max-width: 42em; margin: 0 auto; padding: 1em 1.5em 4em; }
nav.pages { display: flex; justify-content: space-between; margin: 1em 0; font-size: .9em; }
.bb-error { border: 2px solid #b00; padding: .5em 1em; background: #fee; }
ul.diagnostics { font-size: .85em; border-left: 3px solid #c80; padding-left: 1.5em; background: #fffaf0; }
ul.diagnostics .error { color: #b00; }
ol.contents li { margin: .2em 0; }
ol.contents > li:not(.volume) { content-visibility: auto; contain-intrinsic-size: auto 1.5em; }
ol.contents .where, ol.contents .count { font-size: .8em; color: #666; margin-left: .6em; }
ol.source { font-family: monospace; font-size: .85em; white-space: pre-wrap; }
ol.source li:target, ol.source li.bb-chosen { background: #ff8; }
ol.source li.heading { font-weight: bold; }
.bb-removed { color: #a33; background: #fff0f0; border-left: 3px solid #d88; padding-left: .5em; }
.bb-removed { text-indent: 0; }
.bb-removed del { color: #a33; }
.bb-removed .bb-rule, .bb-notice, details.bb-fix, #corrections { font-size: .8em; color: #555; }
.bb-notice { border: 2px solid #080; padding: .5em 1em; background: #efe; color: #000; }
.bb-notice.bb-toast { position: fixed; top: 1em; left: 1em; right: 1em; margin: 0; z-index: 2; }
.bb-links { font-size: .85em; text-align: left; text-indent: 0; }
ol.contents li, #corrections, #corrections p, .bb-notice, .bb-tool { text-align: left; text-indent: 0; }
details.bb-fix { display: inline-block; margin-left: .6em; }
details.bb-fix form, .bb-removed form { display: inline; }
.bb-tool { position: fixed; bottom: 0; left: 0; right: 0; }
.bb-tool { background: #eef; padding: .5em 1em; border-top: 1px solid #99c; }
p.bb-suspect { background: #fff6cc; border-left: 3px solid #e0b000; padding-left: .5em; }
p.bb-suspect::after { content: " ⚑ " attr(data-shape); font-size: .75em; color: #866; }
#suspects { text-align: left; text-indent: 0; border-left: 3px solid #e0b000; }
#suspects { background: #fffbe8; padding: .3em 1em; }
#suspects li { margin: .3em 0; } #suspects details.bb-fix { display: block; margin: .2em 0 0 1em; }
#suspects .context { font-size: .8em; color: #666; } #suspects q { color: #633; }
#suspects .count { font-size: .8em; color: #666; }
.bb-qr { float: right; margin: 0 0 1em 1em; text-align: center; font-size: .8em; }
""".lstrip()
HEADING_CLASS = ' class="heading"'
LISTED = ("listed in junk.toml", "")  # the evidence of a pattern from bookbuilder's list (data/junk.toml)
# The page reloads when /events names another build than the one it was made from, unless a
# correction sent from it is waiting for that build (its answer brings the page).
RELOAD = (
    '<script>new EventSource("/events").onmessage = function (e) {{ if (e.data !== "{}" && !window.bbBusy) '
    "location.reload(); }};</script>"
)
# The pages' icon: a book's spine in the pages' colours (a browser asks for one on every page).
FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="2" y="1" width="12" height="14" '
    'rx="1" fill="#335"/><rect x="4" y="3" width="8" height="2" fill="#eef"/></svg>'
)


@dataclass(frozen=True)
class Where:
    """A chapter's place in the preview: its document name, title and source lines."""

    name: str
    chapter: Chapter
    path: str
    first: int  # the chapter's first source line (0: unknown)


class Preview:
    """The pages of one build. `error`: the message of a later build that failed (this one is
    still shown, under it)."""

    def __init__(self, loaded, css: str, generation: int, error: str | None = None):
        self.loaded, self.css, self.generation, self.error = loaded, css, generation, error
        # what a page works out from this build, kept for the next request (a group's preview)
        self.memo: dict = {}
        book = loaded.book
        names, _ = document_names(book)
        self.chapters = [
            Where(name, chapter, chapter.at.path, _first_line(chapter))
            for name, chapter in zip(names, book.chapters())
        ]
        self.by_name = {w.name: i for i, w in enumerate(self.chapters)}
        self.files = [f.path for f in book.files]
        self._file_index = {path: k for k, path in enumerate(self.files)}  # its /source/<k>.html
        self._fix_names: dict[str, str] = {}  # path → the file as a [[fix]] names it (fix_at)
        self._starts: dict[str, tuple[list[int], list[int]]] = {}  # path → (first lines, chapter indexes)
        for i, w in enumerate(self.chapters):
            lines, indexes = self._starts.setdefault(w.path, ([], []))
            lines.append(w.first)
            indexes.append(i)
        self.found: dict[int | None, list[Diagnostic]] = {}  # chapter index (None: the book) → diagnostics
        self.removed: dict[int | None, list[Diagnostic]] = {}  # chapter index → what cleaning removed from it
        # (path, line) of each paragraph the self-check flags → its group (check.suspects)
        self.suspect_at = {
            (s.at.path, s.at.line): g
            for g in loaded.suspects
            for s in g.suspects
            if s.where == "paragraph" and s.at is not None
        }
        for d in loaded.diagnostics:
            if d.severity >= SHOWN:
                self.found.setdefault(self._chapter_of(d), []).append(d)
            elif d.code == REMOVED:
                self.removed.setdefault(self._chapter_of(d), []).append(d)

    def fix_at(self, path: str, line: int) -> str:
        """A line as a [[fix]] names it (corrections.fix_at)."""
        return f"{self.fix_file(path)}:{line}"

    def fix_file(self, path: str) -> str:
        """A file as a [[fix]] (or a [[volume]]'s before) names it, each file's name worked out once
        a build: a contents page names the lines of 2,000 files."""
        if not self._fix_names:
            self._fix_names.update(fix_files(self.loaded.config.source, self.files))
        name = self._fix_names.get(path)
        if name is None:  # a volume's folder
            name = self._fix_names[path] = fix_files(self.loaded.config.source, (path,))[path]
        return name

    def _chapter_of(self, d: Diagnostic) -> int | None:
        if d.at is None or d.at.path not in self._starts:
            return None
        lines, indexes = self._starts[d.at.path]
        k = bisect.bisect_right(lines, d.at.line or 0) - 1
        return indexes[max(k, 0)]

    def page(self, path: str, bench=None, query: str = "") -> tuple[str, bytes] | None:
        """(content type, body) of the page at a request's path, or None: there is none. `bench`:
        the workbench whose correction forms the pages carry (None: read-only pages); `query`: the
        request's (a source page's line or page, the answer a correction sent the browser to)."""
        asked = {k: v[0] for k, v in parse_qs(query).items()}
        if bench is not None:
            bench = bench.answering(asked.get("said"))
        if path in ("/", "/index.html"):
            return "text/html; charset=utf-8", self.contents(bench).encode("utf-8")
        if path in ("/favicon.svg", "/favicon.ico"):
            return "image/svg+xml", FAVICON.encode("utf-8")
        if path == "/styles/book.css":
            return "text/css; charset=utf-8", self.css.encode("utf-8")
        if path == "/serve.css":
            return "text/css; charset=utf-8", SERVE_CSS.encode("utf-8")
        folder, _, name = path.rpartition("/")
        stem = name.removesuffix(".html")
        if folder == "/text" and name.endswith(".html") and stem in self.by_name:
            return "text/html; charset=utf-8", self.chapter_page(self.by_name[stem], bench).encode("utf-8")
        if folder == "/source" and name.endswith(".html") and stem.isdigit() and int(stem) < len(self.files):
            page = self.source_page(int(stem), bench, _number(asked.get("line")), _number(asked.get("page")))
            return "text/html; charset=utf-8", page.encode("utf-8")
        return None

    def _document(self, title: str, body: str, bench=None) -> str:
        error = f'<p class="bb-error">{text(self.error)}</p>\n' if self.error else ""
        if bench is not None:
            error += bench.banner()
        return (
            "<!DOCTYPE html>\n"
            f'<html lang="{text(self.loaded.book.meta.language)}" data-build="{self.generation}">\n<head>\n'
            f'<meta charset="utf-8"/>\n<title>{text(title)}</title>\n'
            '<link href="/styles/book.css" rel="stylesheet"/>\n<link href="/serve.css" rel="stylesheet"/>\n'
            '<link href="/favicon.svg" rel="icon" type="image/svg+xml"/>\n'
            f"{RELOAD.format(self.generation)}\n</head>\n<body>\n{error}{body}\n</body>\n</html>\n"
        )

    def _source_link(self, path: str, line: int | None) -> str:
        shown = f"{path}:{line}" if line else path
        if path not in self._file_index:
            return text(shown)
        return f'<a class="where" href="{self.source_url(path, line)}">{text(shown)}</a>'

    def source_url(self, path: str, line: int | None) -> str:
        """The address of a source line: the page of the file that holds it, at the line."""
        anchor = f"?line={line}#L{line}" if line else ""
        return f"/source/{self._file_index[path]}.html{anchor}"

    def _diagnostics(self, found: list[Diagnostic]) -> str:
        if not found:
            return ""
        items = [
            f'<li class="{d.severity}">{text(f"{d.severity} {d.code}: {d.message}")}'
            + (f" {self._source_link(d.at.path, d.at.line)}" if d.at else "")
            + "</li>"
            for d in found
        ]
        return '<ul class="diagnostics">\n' + "\n".join(items) + "\n</ul>\n"

    def contents(self, bench=None) -> str:
        meta = self.loaded.book.meta
        out = [
            bench.contents_top(self) if bench else "",
            f'<h1 class="title">{text(meta.title)}</h1>',
            f'<p class="author">{text(meta.author)}</p>',
            '<p class="bb-links"><a href="/download">download the book</a> (EPUB, PDF…), '
            '<a href="/opds">OPDS catalog</a> for a reading app</p>',
            f"<p>{_count(len(self.chapters), 'chapter')};"
            f" {_count(sum(map(len, self.found.values())), 'warning')}</p>",
            self._diagnostics(self.found.get(None, [])),
            self.suspects_list(bench),
            '<ol class="contents">',
        ]
        names = iter(range(len(self.chapters)))
        for v, volume in enumerate(self.loaded.book.volumes):
            if volume.title:
                at = volume.at if volume.at is not None and volume.at.line else None
                fix = bench.entry(self, at.path, at.line, volume.title, volume=True) if bench and at else ""
                out.append(f'<li class="volume" id="v-{v}">{text(volume.title)}{fix}<ol class="contents">')
            for _ in volume.chapters:
                i = next(names)
                w = self.chapters[i]
                count = len(self.found.get(i, []))
                out.append(
                    f'<li id="c-{w.name}"><a href="/text/{w.name}.html">{text(w.chapter.title)}</a>'
                    f"{self._source_link(w.path, w.first or None)}"
                    + (f'<span class="count">{_count(count, "warning")}</span>' if count else "")
                    + (bench.entry(self, w.path, w.first, w.chapter.title) if bench and w.first else "")
                    + "</li>"
                )
            if volume.title:
                out.append("</ol></li>")
        out.append("</ol>")
        if bench:
            out.append(bench.entry_templates())
        return self._document(meta.title, "\n".join(out), bench)

    def suspects_list(self, bench=None) -> str:
        """What the self-check flags, a group a line: its shape, count, a sample and its first place
        (each chapter holding one marks it in place); with a workbench, its corrections."""
        groups = self.loaded.suspects
        headings = self.heading_suspects()
        if not groups and not headings:
            return ""
        from bookbuilder.check.suspects import SHAPES

        items = []
        for k, g in enumerate(groups):
            first = g.first
            where = self._suspect_link(first) if first.at is not None else "the blurb"
            tools = bench.suspect_tools(self, g) if bench is not None else ""
            context = f' <span class="context">in “{text(first.text[:60])}”</span>' if first.piece else ""
            items.append(
                f'<li id="s-{k}" data-shape="{text(g.shape)}">{text(SHAPES[g.shape])}: '
                f"<q>{text(first.debris[:80])}</q>{context} "
                f'<span class="count">×{len(g.suspects)}</span> {where}{tools}</li>'
            )
        for k, d in enumerate(headings):
            tools = bench.heading_here(self, d.at.path, d.at.line) if bench is not None else ""
            items.append(
                f'<li id="h-{k}" data-shape="heading">a line like a heading in a very long chapter: '
                f"<q>{text(d.message.split(': ', 1)[-1])}</q>"
                f" {self._source_link(d.at.path, d.at.line)}{tools}</li>"
            )
        count = sum(len(g.suspects) for g in groups) + len(headings)
        return (
            f'<section id="suspects"><h2>What the self-check flags ({_count(count, "line")})</h2>'
            "<ul>\n" + "\n".join(items) + "\n</ul></section>"
        )

    def heading_suspects(self) -> list[Diagnostic]:
        """The lines that looked like headings (I301) inside chapters far larger than the median."""
        from bookbuilder.check.suspects import giant_chapters

        if "heading suspects" not in self.memo:  # once a build: it weighs every chapter
            looked = [d for d in self.loaded.diagnostics if d.code == "I301"]
            giants = giant_chapters(self.loaded.book) if looked else set()
            self.memo["heading suspects"] = [d for d in looked if self._chapter_of(d) in giants]
        return self.memo["heading suspects"]

    def _suspect_link(self, suspect) -> str:
        """A link to the chapter page where the suspect stands (or its source line, for a title)."""
        i = self._chapter_of(Diagnostic("W203", "", suspect.at))
        if i is None or suspect.where == "title":
            return self._source_link(suspect.at.path, suspect.at.line)
        return f'<a class="where" href="/text/{self.chapters[i].name}.html">{text(str(suspect.at))}</a>'

    def chapter_page(self, i: int, bench=None) -> str:
        w = self.chapters[i]
        links = [
            f'<a rel="prev" href="/text/{self.chapters[i - 1].name}.html">上一章</a>'
            if i
            else "<span></span>",
            '<a href="/">目录</a>',
            f'<a rel="next" href="/text/{self.chapters[i + 1].name}.html">下一章</a>'
            if i + 1 < len(self.chapters)
            else "<span></span>",
        ]
        nav = '<nav class="pages">' + "".join(links) + "</nav>"
        body = (
            f"{nav}\n<p>{self._source_link(w.path, w.first or None)}</p>"
            f"\n{self._diagnostics(self.found.get(i, []))}"
            f"{self._section(w, self.removed.get(i, []), bench)}\n{nav}"
            + (bench.remove_tool(f"/text/{w.name}.html") if bench else "")
        )
        return self._document(w.chapter.title, body, bench)

    def _section(self, w: Where, removed: list[Diagnostic], bench) -> str:
        """The chapter in the EPUB's markup, with each piece cleaning removed marked where it was:
        after the paragraph of its source line (a cut advert) or before the next one (a dropped line)."""
        blocks = w.chapter.blocks
        flagged = (
            {
                b.at: self.suspect_at[(b.at.path, b.at.line)]
                for b in blocks
                if type(b) is Paragraph and (b.at.path, b.at.line) in self.suspect_at
            }
            if self.suspect_at
            else {}
        )
        if not removed and not flagged:
            return chapter_section(w.chapter, w.name, level=2)
        pending = sorted(removed, key=lambda d: d.at.line or 0)
        out = []
        for block, markup in zip(blocks, paragraphs(blocks, lambda t, heading=False: text(t))):
            line = block.at.line or 0
            while (
                pending
                and type(block) is Paragraph
                and block.at.path == pending[0].at.path
                and (pending[0].at.line or 0) < line
            ):
                out.append(self._removed(pending.pop(0), bench))
            if type(block) is Paragraph and block.at in flagged:  # the self-check's suspect, marked in place
                markup = f'<p class="bb-suspect" data-shape="{text(flagged[block.at].shape)}"' + markup[2:]
            out.append(markup)
        out += [self._removed(d, bench) for d in pending]
        return chapter_section(w.chapter, w.name, level=2, blocks=out)

    def _removed(self, d: Diagnostic, bench) -> str:
        rule, removed = removal_parts(d)
        why = removal_words(rule, removal_evidence(d), self.loaded.config)
        place = f' id="rm-{d.at.line}"' if d.at is not None and d.at.line else ""
        return (
            f'<div class="bb-removed"{place} data-rule="{text(rule)}"><del>{text(removed)}</del> '
            f'<span class="bb-rule">removed: {text(why)} ({text(str(d.at))})</span>'
            + (bench.keep(self, d, rule) if bench else "")
            + "</div>"
        )

    def source_page(self, k: int, bench=None, line: int | None = None, page: int | None = None) -> str:
        """The file as decoded (its raw lines, numbered; each line an anchor #L<n>), a page of
        SOURCE_PAGE_LINES at a time: the one holding `line`, else page `page` (from 1)."""
        shown = self.files[k]
        try:
            lines = source_lines(shown)
        except (OSError, BookError) as e:
            lines = (f"cannot read {shown}: {e}",)
        pages = max(1, -(-len(lines) // SOURCE_PAGE_LINES))
        at = ((line - 1) // SOURCE_PAGE_LINES + 1) if line else (page or 1)
        at = min(max(at, 1), pages)
        first = (at - 1) * SOURCE_PAGE_LINES + 1
        starts = set(self._starts.get(shown, ([], []))[0])  # the lines chapters start at: marked
        items = "\n".join(
            f'<li id="L{n}"{HEADING_CLASS if n in starts else ""}>{text(lines[n - 1])}</li>'
            for n in range(first, min(first + SOURCE_PAGE_LINES, len(lines) + 1))
        )
        nav = _source_nav(k, at, pages, first, len(lines))
        return self._document(
            shown,
            f"{nav}\n<h1>{text(shown)}</h1>\n"
            f'<ol class="source" start="{first}">\n{items}\n</ol>\n{nav}'
            + (bench.line_tool(self, shown) if bench else ""),
            bench,
        )


@functools.lru_cache(maxsize=4)
def _decoded_lines(path: str, size: int, modified: int) -> tuple[str, ...]:
    return tuple(decode_chapter(Path(path).read_bytes(), path).text.split("\n"))


def source_lines(path: str) -> tuple[str, ...]:
    """A source file's lines as decoded, kept while its size and time stay the same: a page of an
    18 MB download, a correction checking its line and the page after it decode it once."""
    st = os.stat(path)
    return _decoded_lines(path, st.st_size, st.st_mtime_ns)


def _source_nav(k: int, at: int, pages: int, first: int, count: int) -> str:
    """A source page's way to the contents and to the pages of lines before and after it."""
    last = min(first + SOURCE_PAGE_LINES - 1, count)
    before = (
        f'<a rel="prev" href="/source/{k}.html?page={at - 1}">lines before</a>' if at > 1 else "<span></span>"
    )
    after = (
        f'<a rel="next" href="/source/{k}.html?page={at + 1}">lines after</a>'
        if at < pages
        else "<span></span>"
    )
    return (
        f'<nav class="pages">{before}<span><a href="/">目录</a> · lines {first}–{last} of {count}</span>'
        f"{after}</nav>"
    )


def _number(value: str | None) -> int | None:
    """A query's positive number (None: none, or not one)."""
    return int(value) if value and value.isdigit() and 0 < int(value) < 10**9 else None


def removal_words(rule: str, evidence: str, config) -> str:
    """Why a piece was removed, in a reader's words: what took it, then the rule's name (the name
    the settings file switches)."""
    junk = config.normalize.get("junk")
    extra = junk.get("extra", ()) if isinstance(junk, dict) else ()
    own = {
        spec.get("name", f"extra-{i + 1}") if isinstance(spec, dict) else f"extra-{i + 1}"
        for i, spec in enumerate(extra)
    }
    if rule in own:
        return f"you asked for this text to be removed everywhere (pattern {rule} in the settings file)"
    if rule == "html":
        return "web page markup left in the text (html)"
    if evidence in LISTED:
        return f"a line websites add, on bookbuilder's list of them ({rule})"
    return f"{evidence} ({rule})" if evidence else f"a site's debris ({rule})"


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def _first_line(chapter: Chapter) -> int:
    if chapter.at.line:
        return chapter.at.line
    return next((b.at.line for b in chapter.blocks if b.at.line and b.at.path == chapter.at.path), 0)
