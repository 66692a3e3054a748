"""A book's PDF pages: chunks of chapters laid out on several processes (bookbuilder.system.parallel),
then put together with pikepdf so that the result reads like one document.

- A chunk is laid out with no margin boxes; it does not need to know where it starts, so the
  chunks never wait for each other. Since every chapter starts on a new page, a chunk's page
  count does not depend on where it starts either.
- Its page numbers and running headers are drawn afterwards, by WeasyPrint, into a stamp document
  of the chunk's margin boxes alone (its pages again, empty, first page numbered by the pages
  before it), drawn into the chunk's pages at the merge (bookbuilder.render.pdf_stamps). The same
  CSS draws them as in one document; nothing in WeasyPrint is changed.
- The front matter (cover, title page, contents) is unnumbered and rendered once every chunk is
  laid out, with the chapters' printed page numbers; body pages are numbered from 1.
- The outline and the contents' links are built on the merged file, from each chunk's anchors.
- WeasyPrint subsets fonts keeping glyph ids, so the chunks' subsets of one font are replaced by a
  single subset of their union (bookbuilder.render.font_share).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import datetime as dt
import hashlib
import io
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Book
from bookbuilder.render import RenderContext
from bookbuilder.render.pdf_cache import DocumentCache
from bookbuilder.render.pdf_carried import carry, project_files, render_carried
from bookbuilder.render.pdf_documents import (
    NO_MARGIN_BOXES,
    STAMPS_ONLY,
    Entry,
    Job,
    Jobs,
    PdfOptions,
    Rendered,
    body_html,
    entries,
    first_fonts,
    first_page_number,
    front_html,
    render_document,
    render_warnings,
    stamp_html,
)
from bookbuilder.system.atomic import was_interrupted
from bookbuilder.system.parallel import default_jobs, guarded, process_pool, stop_workers

PX_TO_PT = 0.75  # WeasyPrint lays out in CSS px; PDF user space is in points
# A chunk's share of the book, in characters of text: about 30 generated chapters, 130 A5 pages.
# Small chunks are what a rebuild lays out again after one chapter changed (render/pdf_cache.py),
# and not smaller, since every document has fixed costs (stylesheets, fonts, PDF writing).
CHUNK_CHARACTERS = 100_000
# What starting a chapter costs, in characters: its heading, and the page it begins.
CHAPTER_CHARACTERS = 600


def plan_chunks(items: list[Entry], chunk_chapters: int = 0) -> list[list[Entry]]:
    """Chunks of whole chapters (a volume page travels with its first chapter): [pdf]
    chunk_chapters a chunk, else cut by the text's length, so that chunks cost alike whether a
    book has 300 short chapters or 40 long ones. A cut falls after the chapter that carries the
    book's running length past a multiple of CHUNK_CHARACTERS, so an edit moves no cut but those
    its length change carries across such a multiple, and a rebuild keeps the other chunks. The
    split depends on the book alone, never on the processes: the same bytes on any machine."""
    if chunk_chapters:
        return [items[i : i + chunk_chapters] for i in range(0, len(items), chunk_chapters)]
    chunks, current, length = [], [], 0
    for entry in items:
        before = length // CHUNK_CHARACTERS
        length += chapter_length(entry)
        current.append(entry)
        if length // CHUNK_CHARACTERS > before:
            chunks.append(current)
            current = []
    return chunks + [current] if current else chunks


def chapter_length(entry: Entry) -> int:
    """A chapter's cost to lay out, in characters of its text and its start."""
    text = sum(len(block.text) for block in entry.chapter.blocks if hasattr(block, "text"))
    return text + len(entry.chapter.title) + CHAPTER_CHARACTERS


def render_pdf_bytes(
    book: Book, options: PdfOptions, context: RenderContext
) -> tuple[bytes, list[Diagnostic]]:
    """The chunks, then each chunk's stamps as soon as it and the chunks before it are laid out
    (their pages give its first page number), then the front matter; merged."""
    with tempfile.TemporaryDirectory(prefix="bookbuilder-pdf-") as scratch:
        return _render_chunks(book, options, context, Jobs(Path(scratch), options.css, context.config.root))


def _render_chunks(
    book: Book, options: PdfOptions, context: RenderContext, job: Jobs
) -> tuple[bytes, list[Diagnostic]]:
    chunks = plan_chunks(entries(book), options.chunk_chapters)
    numbered = _numbered(options)
    bodies = [
        job("body", i, body_html(book, chunk, context.epoch), "" if i < numbered else NO_MARGIN_BOXES)
        for i, chunk in enumerate(chunks)
    ]
    jobs = min(context.jobs or options.jobs or default_jobs(), len(bodies))
    cache = DocumentCache(context.cache / "pdf" if context.cache else None, first_fonts(book, options))
    chapters = sum(len(chunk) for chunk in chunks)
    _tell(context, f"laying out {chapters:,} chapters in {len(chunks)} documents on {jobs} processes")
    done, stamps, front, rendered = _lay_out(book, options, context, job, chunks, bodies, cache, jobs)
    context.stats.update(kept=cache.hits, rendered=rendered, chunks=len(chunks))
    where = paginate([done[k] for k in range(len(chunks))], chunks, options.recto)
    _tell(context, f"merging {sum(r.pages for r in [front, *done.values()]):,} pages")
    for k, result in done.items():
        if k in stamps and result.pages + len(where.blanks[k]) != stamps[k].pages:
            raise RuntimeError(
                f"chunk {k}: {result.pages} pages and {len(where.blanks[k])} blank, "
                f"but its stamps have {stamps[k].pages}"
            )
    messages = [m for r in [front, *done.values(), *stamps.values()] for m in r.messages]
    ordered = [done[k] for k in sorted(done)]
    merged = merge(book, front, ordered, [stamps.get(k) for k in range(len(chunks))], where, context.epoch)
    return merged, render_warnings(messages)


def _numbered(options: PdfOptions) -> int:
    """How many chunks, from the first, draw their own margin boxes: the first, whose pages are
    numbered from 1 wherever it is laid out, so it needs no stamps. Not with right-hand chapter
    starts, whose blank pages are put in at the merge and counted in the numbers."""
    return 0 if options.recto else 1


def _lay_out(
    book: Book,
    options: PdfOptions,
    context: RenderContext,
    job: Jobs,
    chunks: list[list[Entry]],
    bodies: list[Job],
    cache: DocumentCache,
    jobs: int,
) -> tuple[dict, dict, Rendered, int]:
    """Every chunk; each chunk's stamps once it and the chunks before it are laid out; the front
    matter once all are: (chunks, stamps, front matter, how many documents were rendered, not kept)."""
    done: dict[int, Rendered] = {}
    stamps: dict[int, Rendered] = {}
    front = None

    def laid_out(until: int) -> Pagination:
        return paginate([done[k] for k in range(until + 1)], chunks, options.recto)

    def stamp_job(k: int) -> Job:
        where = laid_out(k)
        html = stamp_html(book, chunks[k], done[k].anchors, done[k].pages, context.epoch, where.blanks[k])
        return job("stamps", k, html, STAMPS_ONLY + first_page_number(where.first[k]))

    with guarded("rendering the PDF"), _renderers(context, options, cache, jobs, len(bodies)) as documents:
        for body in bodies:
            documents.start("body", body.index, body)
        import bookbuilder.render.pdf_stamps  # noqa: F401  the merge's (pikepdf's) import, while the workers lay out

        numbered = _numbered(options)  # the first chunks, which need no stamps
        stamped = 0  # the chunks whose stamps are started (or needed none): all before the first not laid out
        while documents.busy():
            if was_interrupted():  # a Ctrl-C lost in a destructor: stop at the next document
                raise KeyboardInterrupt
            kind, k, result = documents.next()
            if kind == "front":
                front = result
            elif kind == "stamps":
                stamps[k] = result
            else:
                done[k] = result
                if context.progress:
                    context.progress(len(chunks[k]))
                if len(done) == len(bodies):  # every page number is known: the contents
                    _tell(context, "page numbers, running headers and the contents")
                    contents = front_html(book, context.epoch, laid_out(len(chunks) - 1).pages)
                    documents.start("front", 0, job("front", 0, contents))
            while stamped < len(bodies) and stamped in done:
                if stamped >= numbered:
                    documents.start("stamps", stamped, stamp_job(stamped))
                stamped += 1
    return done, stamps, front, documents.rendered


@contextlib.contextmanager
def _renderers(context: RenderContext, options: PdfOptions, cache: DocumentCache, jobs: int, chunks: int):
    """Where the documents are rendered: on the processes of other machines when the context lends
    them and a book has chunks to spread (the project's files shared with them once); else on
    `jobs` processes of this one, or here. On a failure the documents in flight are dropped."""
    if context.remote is not None and chunks > 1:
        with context.remote() as remote:
            files = remote.share(project_files(options.css, context.config.root))
            documents = _Documents(cache, remote.executor, files)
            try:
                yield documents
            except BaseException:
                documents.cancel()
                raise
        return
    pool = process_pool(jobs) if jobs > 1 else None
    try:
        yield _Documents(cache, pool, workers=jobs)
    except BaseException:
        stop_workers()
        raise
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _tell(context: RenderContext, stage: str) -> None:
    """A stage of the PDF, for whoever shows progress (a line of its own where no bar is drawn)."""
    if context.status:
        context.status(stage, 0.0)


class _Documents:
    """The documents being rendered, each taken from the cache, from a worker of `pool` or (no
    pool) rendered here, and handed out in the order they are ready.

    A pool of this machine is handed no more documents than it has workers: the others wait
    here, so that the contents, ready only once every chunk is laid out and the longest of what
    is left then, go to the first worker free instead of after every stamp started before."""

    def __init__(self, cache: DocumentCache, pool, carried_files=None, workers: int | None = None):
        self.cache, self.pool = cache, pool
        # the project's files as another machine's tasks are handed them: None, the pool is here
        self.carried_files = carried_files
        self.workers = workers  # the most documents handed to the pool at once (None: all)
        self.ready: list[tuple[str, int, Rendered]] = []  # results to take in, from the cache or a worker
        self.pending: dict = {}  # future → (kind, chunk, job)
        self.todo: list[tuple[str, int, Job]] = []  # not yet handed to a worker (or, no pool, rendered)
        self.rendered = 0

    def start(self, kind: str, k: int, document: Job) -> None:
        kept = self.cache.get(document)
        if kept is not None:
            self.ready.append((kind, k, kept))
        elif self.pool is not None and self.carried_files is not None:
            future = self.pool.submit(render_carried, carry(document), self.carried_files)
            self.pending[future] = (kind, k, document)
        else:
            self.todo.append((kind, k, document))
            self._hand_out()

    def _hand_out(self) -> None:
        """Documents to the pool's free workers, the contents first."""
        while (
            self.pool is not None and self.todo and (self.workers is None or len(self.pending) < self.workers)
        ):
            first = next((i for i, (kind, _, _) in enumerate(self.todo) if kind == "front"), 0)
            kind, k, document = self.todo.pop(first)
            self.pending[self.pool.submit(render_document, document)] = (kind, k, document)

    def cancel(self) -> None:
        for future in self.pending:
            future.cancel()

    def busy(self) -> bool:
        return bool(self.ready or self.pending or self.todo)

    def next(self) -> tuple[str, int, Rendered]:
        """(kind, chunk, result) of the next document ready, waiting for one if none is."""
        if not self.ready and self.todo and self.pool is None:
            kind, k, document = self.todo.pop(0)
            self._take(kind, k, document, render_document(document))
        elif not self.ready:
            finished, _ = cf.wait(self.pending, return_when=cf.FIRST_COMPLETED)
            for future in finished:
                self._take(*self.pending.pop(future), future.result())
            self._hand_out()
        return self.ready.pop(0)

    def _take(self, kind: str, k: int, document: Job, result: Rendered) -> None:
        self.ready.append((kind, k, result))
        self.cache.put(document, result)
        self.rendered += 1


@dataclass(frozen=True)
class Pagination:
    """Where the laid-out chunks' pages fall in the book: per chunk the printed number of its
    first page and the pages that a blank page goes before; the printed number of every chapter
    and volume page; whether chapters start on right-hand pages."""

    first: list[int]
    blanks: list[frozenset[int]]
    pages: dict[str, int]
    recto: bool = False


def paginate(done: list[Rendered], chunks: list[list[Entry]], recto: bool) -> Pagination:
    """The body numbered from 1, chunk after chunk. With `recto`, every chapter and volume page
    starts on a right-hand (odd) page: where one would fall on an even page, a blank goes before it."""
    first, blanks, pages, number = [], [], {}, 1
    for result, chunk in zip(done, chunks):
        anchors = [a for e in chunk for a in (e.volume_anchor, e.anchor) if a]
        starts = {result.anchors[a] for a in anchors}
        first.append(number)
        before, printed = set(), {}
        for i in range(result.pages):
            if recto and i in starts and number % 2 == 0:
                before.add(i)
                number += 1
            printed[i] = number
            number += 1
        blanks.append(frozenset(before))
        pages.update((a, printed[result.anchors[a]]) for a in anchors)
    return Pagination(first, blanks, pages, recto)


def merge(
    book: Book,
    front: Rendered,
    chunks: list[Rendered],
    stamps: list[Rendered | None],
    where: Pagination,
    epoch: int,
) -> bytes:
    """Front matter + chunks (with their blank pages), each body page under its stamp (None: the
    chunk drew its own margin boxes) → one PDF (pikepdf/qpdf: fast, object streams, deterministic /ID)."""
    import pikepdf
    from pikepdf import Array, Name

    from bookbuilder.render.font_share import share_font_programs
    from bookbuilder.render.pdf_stamps import stamp_pages

    out = pikepdf.Pdf.new()
    sources = [pikepdf.Pdf.open(io.BytesIO(front.pdf))] + [
        pikepdf.Pdf.open(io.BytesIO(r.pdf)) for r in chunks
    ]
    n_front = len(sources[0].pages)
    # Right-hand pages are odd pages of the file, cover counted: the body's page 1 is one only
    # after an even front matter (the sample's is 3 pages), so an odd one ends with a blank.
    pad_front = frozenset({n_front}) if where.recto and n_front % 2 else frozenset()
    merged = _concatenate(out, sources, [pad_front] + where.blanks)
    n_front += len(pad_front)
    pages = where.pages
    stamp_sources = [None if r is None else pikepdf.Pdf.open(io.BytesIO(r.pdf)) for r in stamps]
    body, under, at = merged[n_front:], [], 0  # the stamps stay open until the file is saved
    for chunk, blanks, source in zip(chunks, where.blanks, stamp_sources):
        count = chunk.pages + len(blanks)
        if source is not None:
            under += [(page, (source, stamp)) for page, stamp in zip(body[at : at + count], source.pages)]
        at += count
    stamp_pages(out, [page for page, _ in under], [stamp for _, stamp in under])
    share_font_programs(out)

    def page_of(anchor: str):
        return Array([merged[n_front + pages[anchor] - 1].obj, Name.Fit])

    _outline(out, book, page_of)
    _contents_links(out, merged, front.links, pages, page_of)
    _document_info(out, book, n_front, epoch)
    buffer = io.BytesIO()
    out.save(
        buffer,
        deterministic_id=True,
        object_stream_mode=pikepdf.ObjectStreamMode.generate,
        compress_streams=True,
    )
    return buffer.getvalue()


def _outline(out, book: Book, page_of) -> None:
    """The bookmarks: volume › chapter, pointing at the merged pages."""
    from pikepdf import OutlineItem

    with out.open_outline() as outline:
        parent = None
        for e in entries(book):
            if e.volume_anchor:
                parent = OutlineItem(e.volume_title, page_of(e.volume_anchor))
                outline.root.append(parent)
            elif not e.volume_title:
                parent = None
            (parent.children if parent is not None else outline.root).append(
                OutlineItem(e.chapter.title, page_of(e.anchor))
            )


def _contents_links(out, merged: list, links: list, pages: dict, page_of) -> None:
    """Clickable contents: WeasyPrint knew where each entry is drawn, not where its chapter landed."""
    from pikepdf import Array, Dictionary, Name

    for page, page_links in zip(merged, links):
        height = float(page.mediabox[3])
        for target, (x, y, w, h) in page_links:
            if target in pages:
                rect = [x * PX_TO_PT, height - (y + h) * PX_TO_PT, (x + w) * PX_TO_PT, height - y * PX_TO_PT]
                annot = Dictionary(
                    Type=Name.Annot,
                    Subtype=Name.Link,
                    Rect=Array(rect),
                    Border=Array([0, 0, 0]),
                    Dest=page_of(target),
                )
                if Name.Annots not in page.obj:
                    page.obj.Annots = Array()
                page.obj.Annots.append(out.make_indirect(annot))


def _document_info(out, book: Book, n_front: int, epoch: int) -> None:
    """Page labels (roman for the front matter), language, the outline shown, and the dates."""
    from pikepdf import Array, Dictionary, Name, String

    out.Root.PageLabels = Dictionary(
        Nums=Array([0, Dictionary(S=Name.r), n_front, Dictionary(S=Name.D, St=1)])
    )
    out.Root.Lang = String(book.meta.language)
    out.Root.PageMode = Name.UseOutlines
    date = dt.datetime.fromtimestamp(epoch, dt.UTC).strftime("D:%Y%m%d%H%M%SZ")
    out.docinfo = out.make_indirect(
        Dictionary(
            Title=String(book.meta.title),
            Author=String(book.meta.author),
            Creator=String("bookbuilder"),
            Producer=String("bookbuilder (WeasyPrint, pikepdf)"),
            CreationDate=String(date),
            ModDate=String(date),
        )
    )


def _concatenate(out, sources, blanks: list[frozenset[int]]) -> list:
    """Every page of `sources` into `out`, in order, a blank page before those `blanks` names
    (per source, by index; its page count: after its last); the pages as a list. Pages are appended to the
    page tree in one go: pikepdf's pages.extend takes time growing with the pages already there,
    so one call for all. WeasyPrint's page trees hold only Kids and Count, and each
    page its own boxes and resources."""
    import pikepdf

    if any(set(source.Root.Pages.keys()) - {"/Type", "/Kids", "/Count"} for source in sources):
        raise RuntimeError("a WeasyPrint page tree with inherited attributes: bookbuilder cannot merge it")

    def blank(like):
        return out.make_indirect(
            pikepdf.Dictionary(
                Type=pikepdf.Name.Page,
                MediaBox=pikepdf.Array([float(v) for v in like.obj.MediaBox]),
                Resources=pikepdf.Dictionary(),
                Contents=out.make_stream(b""),
            )
        )

    kids = []
    for source, before in zip(sources, blanks):
        for i, page in enumerate(source.pages):
            if i in before:
                kids.append(blank(page))
            kids.append(out.copy_foreign(page.obj))
        if len(source.pages) in before:
            kids.append(blank(source.pages[-1]))
    tree = out.Root.Pages
    for kid in kids:
        kid.Parent = tree
    tree.Kids, tree.Count = pikepdf.Array(kids), len(kids)
    return list(out.pages)


def render_one_document(
    book: Book, options: PdfOptions, context: RenderContext, **variant
) -> tuple[bytes, list[Diagnostic]]:
    """The whole book as one WeasyPrint document (contents via target-counter): the baseline the
    chunked render is measured against, and the mode for tagged PDF variants (PDF/UA, PDF/A)."""
    front = front_html(book, context.epoch, None)
    body = body_html(book, entries(book), context.epoch)
    html = front.replace("</body></html>", "") + body.split('<body class="body">', 1)[1]
    identifier = hashlib.md5(book.meta.identifier.encode("utf-8")).hexdigest().encode("ascii")
    recto = (
        "section.chapter, section.intro, section.front, section.back, section.volume { break-before: "
        "right; }\n"
    )
    with tempfile.TemporaryDirectory(prefix="bookbuilder-pdf-") as scratch:
        job = Jobs(Path(scratch), options.css, context.config.root)(
            "book", 0, html, recto if options.recto else ""
        )
        rendered = render_document(job, identifier, **variant)
    return rendered.pdf, render_warnings(list(rendered.messages))
