"""Book → PDF with WeasyPrint: cover, title page, table of contents with page numbers, running
header, page numbers, one outline entry per chapter (volume › chapter), a real CJK font.

Whole novels are rendered in chunks of chapters in parallel worker processes and merged with
pypdf, so that the result reads like one document:
- page numbers run on across chunks: each chunk is laid out, reports its page count, and only
  then gets its margin boxes (page numbers) with the offset of the chunks before it (see
  `_offset_margin_boxes`); since every chapter starts on a new page, a chunk's page count does
  not depend on where it starts;
- the front matter (cover, title page, table of contents) is unnumbered and rendered last, with
  the chapters' real page numbers; body pages are numbered from 1, as in a printed book;
- the outline and the TOC links are built on the merged file, from each chunk's anchors;
- WeasyPrint subsets fonts keeping glyph ids, so the chunks' subsets of one font are replaced by a
  single subset of their union: the file does not carry a font per chunk.
"""
from __future__ import annotations

import base64
import concurrent.futures as cf
import datetime as dt
import hashlib
import io
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from bookbuilder.atomic import atomic_path
from bookbuilder.model import Book, Chapter
from bookbuilder.render.html import chapter_section, text, volume_section

PAGE_SIZES = {"A5": "A5", "A6": "A6", "B6": "125mm 176mm", "6in×9in": "6in 9in", "ereader": "90mm 122mm"}
PX_TO_PT = 0.75  # WeasyPrint lays out in CSS px; PDF user space is in points
FILL = "." * 80


def _fetcher(root: Path):
    from weasyprint.urls import URLFetcher

    class ConfinedFetcher(URLFetcher):
        """Only data: URIs and files inside the book project: default fetching lets a stylesheet
        or <link rel=attachment> pull /etc/passwd or a network URL into the PDF (GHSA-35jj-wx47-4w8r)."""

        def fetch(self, url, headers=None):
            if url.startswith("file:"):
                path = Path(unquote(urlparse(url).path)).resolve()
                if not path.is_relative_to(root.resolve()):
                    raise ValueError(f"refused to fetch {url}: outside the book project")
            elif not url.startswith("data:"):
                raise ValueError(f"refused to fetch {url}: only data: and project files")
            return super().fetch(url, headers)

    return ConfinedFetcher(allowed_protocols={"data", "file"})


# ---- HTML --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """One chapter of the body, in reading order, with the volume page that precedes it (if any)."""

    anchor: str
    chapter: Chapter
    volume_title: str | None  # the chapter's volume
    volume_anchor: str | None  # set on the first chapter of a titled volume: its volume page comes first


def entries(book: Book) -> list[Entry]:
    out, n = [], 0
    for v, volume in enumerate(book.volumes, 1):
        for i, chapter in enumerate(volume.chapters):
            n += 1
            first = volume.title and i == 0
            out.append(Entry(f"ch{n:05d}", chapter, volume.title, f"part{v:03d}" if first else None))
    return out


def _head(book: Book, epoch: int) -> str:
    meta = book.meta
    date = dt.datetime.fromtimestamp(epoch, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return (f'<!DOCTYPE html><html lang="{meta.language}"><head><meta charset="utf-8"/>'
            f"<title>{text(meta.title)}</title><meta name=\"author\" content=\"{text(meta.author)}\"/>"
            f'<meta name="dcterms.created" content="{date}"/><meta name="dcterms.modified" content="{date}"/>'
            f'<meta name="generator" content="bookbuilder"/></head>')


def body_html(book: Book, chunk: list[Entry], epoch: int) -> str:
    parts = []
    for e in chunk:
        if e.volume_anchor:
            parts.append(volume_section(e.volume_title, e.volume_anchor))
        parts.append(chapter_section(e.chapter, e.anchor, level=2))
    return _head(book, epoch) + '<body class="body">' + "\n".join(parts) + "</body></html>"


def front_html(book: Book, epoch: int, pages: dict[str, int] | None) -> str:
    """Cover, title page and contents. `pages` maps anchors to printed page numbers; None means
    one-document mode, where target-counter() finds them."""
    def number(anchor: str) -> str:
        # Clipped dots in a flex filler, not leader() or a dotted border: WeasyPrint draws those
        # dot by dot (18,000 text runs, or 200,000 curves, for a 300-chapter contents).
        return "" if pages is None else f'<span class="pageno">{pages[anchor]}</span>'

    fill = "" if pages is None else f'<span class="fill">{FILL}</span>'
    toc, open_volume = [], None
    for e in entries(book):
        if e.volume_title != open_volume:
            if open_volume:
                toc.append("</ol></li>")
            open_volume = e.volume_title
            if e.volume_title:
                anchor = e.volume_anchor or e.anchor
                toc.append(f'<li class="volume"><a href="#{anchor}"><span class="t">{text(e.volume_title)}</span>{fill}{number(anchor)}</a><ol>')
        toc.append(f'<li><a href="#{e.anchor}"><span class="t">{text(e.chapter.title)}</span>{fill}{number(e.anchor)}</a></li>')
    if open_volume:
        toc.append("</ol></li>")
    cover = ""
    if book.cover is not None:
        uri = f"data:{book.cover.media_type};base64,{base64.b64encode(book.cover.data).decode()}"
        cover = f'<section class="cover"><img src="{uri}" alt="{text(f"封面：{book.meta.title}，{book.meta.author}")}"/></section>'
    return (_head(book, epoch) + f'<body class="front {"numbered" if pages is not None else "linked"}">' + cover
            + f'<section class="titlepage"><h1>{text(book.meta.title)}</h1><p>{text(book.meta.author)}</p></section>'
            + f'<nav class="toc" role="doc-toc"><h1>目录</h1><ol>{"".join(toc)}</ol></nav></body></html>')


def page_css(page_size: str) -> str:
    return f"@page {{ size: {PAGE_SIZES.get(page_size, 'A5')}; }}\n"


# ---- chunk rendering (runs in worker processes) -----------------------------------------------

Stylesheets = tuple[tuple[str, str], ...]  # (CSS text, the URL its relative url()s resolve against)


@dataclass
class ChunkJob:
    index: int
    html: str
    css: Stylesheets
    root: str
    chapters: int


@dataclass
class ChunkResult:
    index: int
    pdf: bytes
    pages: int
    anchors: dict[str, int]  # anchor → page index within the chunk
    seconds: float = 0.0


class _Offsets:
    """Where chunk i learns the page count of the chunks before it (a Manager dict across
    processes, a plain dict in-process)."""

    def __init__(self, counts, index: int):
        self.counts, self.index = counts, index

    def report_and_wait(self, pages: int) -> int:
        self.counts[self.index] = pages
        while True:
            known = [self.counts.get(j) for j in range(self.index)]
            if all(k is not None for k in known):
                return sum(known)
            time.sleep(0.02)


_current: dict = {}


def _offset_margin_boxes(original):
    """Wrap WeasyPrint's make_margin_boxes, which runs once pagination is complete: report this
    chunk's page count, wait for the offset, and draw page numbers shifted by it."""

    def make_margin_boxes(context, page, state):
        job = _current.get("job")
        if job is not None:
            if job.get("offset") is None:
                job["offset"] = job["offsets"].report_and_wait(len(context.page_maker) - 1)
            if job["offset"]:
                counters = dict(state[1])
                counters["page"] = [counters.get("page", [0])[0] + job["offset"]]
                state = (state[0], counters, *state[2:])
        return original(context, page, state)

    make_margin_boxes.bookbuilder = True
    return make_margin_boxes


def _install_hook() -> None:
    import weasyprint.layout as layout

    if not getattr(layout.make_margin_boxes, "bookbuilder", False):
        layout.make_margin_boxes = _offset_margin_boxes(layout.make_margin_boxes)


def render_chunk(job: ChunkJob, counts) -> ChunkResult:
    start = time.perf_counter()
    _install_hook()
    html, stylesheets = _html(job.html, job.css, Path(job.root))
    _current["job"] = {"offsets": _Offsets(counts, job.index), "offset": None}
    try:
        document = html.render(stylesheets=stylesheets)
    finally:
        _current.pop("job", None)
    anchors = {}
    for i, page in enumerate(document.pages):
        for name in page.anchors:
            anchors.setdefault(name, i)
    # Laid out: the front matter can be set while this chunk is still being drawn.
    counts[("anchors", job.index)] = anchors
    data = document.write_pdf()
    return ChunkResult(job.index, data, len(document.pages), anchors, time.perf_counter() - start)


# ---- the whole book -----------------------------------------------------------------------------

def _html(html: str, css: Stylesheets, root: Path):
    """(WeasyPrint HTML, stylesheets), both fetching only through the project-confined fetcher."""
    from weasyprint import CSS, HTML

    fetcher = _fetcher(root)
    stylesheets = [CSS(string=text_, base_url=base, url_fetcher=fetcher) for text_, base in css]
    return HTML(string=html, base_url=root.resolve().as_uri() + "/", url_fetcher=fetcher), stylesheets


@dataclass
class PdfPlan:
    css: Stylesheets
    root: Path
    epoch: int
    jobs: int = 1
    chunk_chapters: int = 0  # 0: chosen from the book's size
    progress: object = None  # called with the number of chapters just finished
    executor_factory: object = None  # jobs → a concurrent.futures.Executor; default processes
    stats: dict = field(default_factory=dict)


MIN_CHUNK, MAX_CHUNK = 30, 80  # chapters


def plan_chunks(items: list[Entry], jobs: int, chunk_chapters: int) -> list[list[Entry]]:
    """Chunks of whole chapters (a volume page travels with its first chapter). At most 80 chapters
    (≈ 360 A5 pages) a chunk bounds a worker's memory, and WeasyPrint's layout cost grows faster
    than the page count, so smaller documents are cheaper per page; below 30 chapters a chunk's
    fixed cost (fonts, PDF writing) outweighs that."""
    size = chunk_chapters or max(MIN_CHUNK, min(MAX_CHUNK, -(-len(items) // max(jobs, 1))))
    return [items[i:i + size] for i in range(0, len(items), size)]


def render_pdf_bytes(book: Book, plan: PdfPlan) -> bytes:
    items = entries(book)
    chunks = plan_chunks(items, plan.jobs, plan.chunk_chapters)
    jobs = [ChunkJob(i, body_html(book, chunk, plan.epoch), plan.css, str(plan.root), len(chunk))
            for i, chunk in enumerate(chunks)]
    front: dict = {}

    def set_front(counts) -> None:
        """Once every chunk is laid out: the printed page of each anchor, then the front matter."""
        offset, pages = 0, {}
        for i in range(len(jobs)):
            for name, index in counts[("anchors", i)].items():
                pages[name] = offset + index + 1
            offset += counts[i]
        front["pages"] = pages
        front["pdf"], front["links"], front["count"] = render_front(book, plan, pages)
        plan.stats.update(chunks=len(chunks), body_pages=offset, front_pages=front["count"])

    results = _run(jobs, plan, set_front)
    return merge(book, front["pdf"], front["links"], results, front["pages"], plan.epoch)


def render_front(book: Book, plan: PdfPlan, pages: dict[str, int]):
    """(PDF bytes, per page [(anchor, rect)] of the contents' links, page count)."""
    html, stylesheets = _html(front_html(book, plan.epoch, pages), plan.css, plan.root)
    document = html.render(stylesheets=stylesheets)
    links = [[(target, rect) for kind, target, rect, _ in page.links if kind == "internal"] for page in document.pages]
    return document.write_pdf(), links, len(document.pages)


def _run(jobs: list[ChunkJob], plan: PdfPlan, when_laid_out) -> list[ChunkResult]:
    done = []
    if plan.jobs <= 1 or len(jobs) == 1:
        counts: dict = {}
        for job in jobs:
            done.append(render_chunk(job, counts))
            if plan.progress:
                plan.progress(job.chapters)
        when_laid_out(counts)
        return done
    import multiprocessing

    # Fresh worker processes (forkserver), not forks of this one: a fork would carry the whole
    # book model, and Python's reference counting would soon copy its pages into every worker.
    context = multiprocessing.get_context("forkserver")
    with context.Manager() as manager:
        counts = manager.dict()
        factory = plan.executor_factory or (lambda n: cf.ProcessPoolExecutor(max_workers=n, mp_context=context))
        with factory(plan.jobs) as executor:
            # Submitted in order: a chunk only ever waits for earlier chunks, which are running or done.
            futures = {executor.submit(render_chunk, job, counts): job for job in jobs}
            pending, laid_out = set(futures), False
            while pending:
                finished, pending = cf.wait(pending, timeout=0.1, return_when=cf.FIRST_COMPLETED)
                for future in finished:
                    done.append(future.result())
                    if plan.progress:
                        plan.progress(futures[future].chapters)
                if not laid_out and all(("anchors", j.index) in counts for j in jobs):
                    laid_out = True
                    when_laid_out(dict(counts))  # the front matter, while the last chunks are drawn
            if not laid_out:
                when_laid_out(dict(counts))
    return sorted(done, key=lambda r: r.index)


def merge(book: Book, front_pdf: bytes, toc_links, results: list[ChunkResult], pages: dict[str, int], epoch: int) -> bytes:
    """Front matter + chunks → one PDF (pikepdf/qpdf: fast, object streams, deterministic /ID)."""
    import pikepdf
    from pikepdf import Array, Dictionary, Name, OutlineItem, String

    from bookbuilder.render.font_share import share_font_programs

    out = pikepdf.Pdf.new()
    sources = [pikepdf.Pdf.open(io.BytesIO(front_pdf))] + [pikepdf.Pdf.open(io.BytesIO(r.pdf)) for r in results]
    for source in sources:
        out.pages.extend(source.pages)
    n_front = len(sources[0].pages)
    share_font_programs(out)

    def page_of(anchor: str) -> int:
        return n_front + pages[anchor] - 1

    with out.open_outline() as outline:  # volume › chapter, pointing at the merged pages
        parent = None
        for e in entries(book):
            if e.volume_anchor:
                parent = OutlineItem(e.volume_title, page_of(e.volume_anchor))
                outline.root.append(parent)
            elif not e.volume_title:
                parent = None
            (parent.children if parent is not None else outline.root).append(OutlineItem(e.chapter.title, page_of(e.anchor)))
    # Clickable contents: WeasyPrint knew where each entry is drawn, not where its chapter landed.
    for page_index, links in enumerate(toc_links):
        page = out.pages[page_index]
        height = float(page.mediabox[3])
        for target, (x, y, w, h) in links:
            if target in pages:
                rect = [x * PX_TO_PT, height - (y + h) * PX_TO_PT, (x + w) * PX_TO_PT, height - y * PX_TO_PT]
                annot = Dictionary(Type=Name.Annot, Subtype=Name.Link, Rect=Array(rect), Border=Array([0, 0, 0]),
                                   Dest=Array([out.pages[page_of(target)].obj, Name.Fit]))
                if Name.Annots not in page.obj:
                    page.obj.Annots = Array()
                page.obj.Annots.append(out.make_indirect(annot))
    out.Root.PageLabels = Dictionary(Nums=Array([0, Dictionary(S=Name.r), n_front, Dictionary(S=Name.D, St=1)]))
    out.Root.Lang = String(book.meta.language)
    out.Root.PageMode = Name.UseOutlines
    date = dt.datetime.fromtimestamp(epoch, dt.timezone.utc).strftime("D:%Y%m%d%H%M%SZ")
    out.docinfo = out.make_indirect(Dictionary(
        Title=String(book.meta.title), Author=String(book.meta.author), Creator=String("bookbuilder"),
        Producer=String("bookbuilder (WeasyPrint, pikepdf)"), CreationDate=String(date), ModDate=String(date)))
    buffer = io.BytesIO()
    out.save(buffer, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.generate, compress_streams=True)
    return buffer.getvalue()


def write_pdf(book: Book, plan: PdfPlan, target: Path) -> None:
    data = render_pdf_bytes(book, plan)
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)


def render_one_document(book: Book, plan: PdfPlan, **options) -> bytes:
    """The whole book as one WeasyPrint document (contents via target-counter): the baseline the
    chunked render is measured against, and the mode for tagged PDF variants (PDF/UA, PDF/A)."""
    front = front_html(book, plan.epoch, None)
    body = body_html(book, entries(book), plan.epoch)
    html, stylesheets = _html(front.replace("</body></html>", "") + body.split('<body class="body">', 1)[1],
                              plan.css, plan.root)
    identifier = hashlib.md5(book.meta.identifier.encode("utf-8")).hexdigest().encode("ascii")
    return html.write_pdf(stylesheets=stylesheets, pdf_identifier=identifier, **options)
