"""The PDF's documents rendered on another machine (a Dask cluster's workers), which shares no
files with this one: each document goes as a task carrying its HTML and stylesheets, and the
project's files those stylesheets can fetch (fonts, images, imported sheets) go once, shared
(bookbuilder.system.parallel.Remote), not with every document.

On the worker the files are laid out in a folder of its own and the document is rendered as here
(bookbuilder.render.pdf_documents.render_document): the documents name the project by one URL
wherever it is (pdf_documents.PROJECT_URI), read by the same fetcher confined to it, so the same
bytes. The files a
document can fetch are found from the stylesheets themselves (tinycss2, WeasyPrint's own parser):
every url() and @import, followed through the project's imported sheets. The HTML fetches
nothing of the project: the cover is a data: URI and chapter text is escaped."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import urljoin

from bookbuilder.render.pdf_documents import Job, Stylesheets, project_path, project_url, render_document


@dataclass(frozen=True)
class CarriedJob:
    """A document as a task on another machine takes it: its own content, no paths of this one."""

    index: int
    html: str
    css: str  # JSON: the Stylesheets
    extra_css: str


def carry(job) -> CarriedJob:
    """The document `job` (a pdf_documents.Job: files in this machine's scratch folder) as content."""
    return CarriedJob(
        job.index,
        job.html.read_text("utf-8"),
        job.css.read_text("utf-8"),
        job.extra_css,
    )


def render_carried(job: CarriedJob, files: dict[str, bytes]):
    """Render the document on this machine, with the project's `files` (relative path → bytes)
    laid out in a folder of its own: a pdf_documents.Rendered, as render_document gives."""
    with tempfile.TemporaryDirectory(prefix="bookbuilder-pdf-") as scratch:
        project = Path(scratch) / "project"
        project.mkdir()
        for name, content in files.items():
            path = project / PurePosixPath(name)
            if not path.resolve().is_relative_to(project.resolve()):  # a task names project files only
                raise ValueError(f"{name} is outside the project")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        html, css = Path(scratch) / "document.html", Path(scratch) / "css.json"
        html.write_text(job.html, "utf-8")
        css.write_text(job.css, "utf-8")
        return render_document(Job(job.index, html, css, job.extra_css, project))


def project_files(css: Stylesheets, root: Path) -> dict[str, bytes]:
    """The files of the project at `root` that the stylesheets can fetch: relative path → bytes.
    A URL outside the project is left out: the fetcher refuses it here and there alike."""
    root = root.resolve()
    found: dict[str, bytes] = {}
    sheets = [(text, base) for text, base, _shown in css]
    while sheets:
        text, base = sheets.pop()
        for url, imported in _urls(text):
            path = project_path(urljoin(base, url), root)
            if path is None or not path.is_file():
                continue
            name = path.relative_to(root).as_posix()
            if name in found:
                continue
            found[name] = path.read_bytes()
            if imported:
                sheets.append((found[name].decode("utf-8", "replace"), project_url(path, root)))
    return dict(sorted(found.items()))


def _urls(text: str) -> list[tuple[str, bool]]:
    """Every URL a stylesheet names: (url, whether it is an @import'ed sheet)."""
    import tinycss2

    found: list[tuple[str, bool]] = []

    def walk(tokens, importing: bool = False) -> None:
        for token in tokens or ():
            kind = token.type
            if kind == "url":
                found.append((token.value, importing))
            elif kind == "function" and token.lower_name == "url":
                found.extend((t.value, importing) for t in token.arguments if t.type == "string")
            elif kind == "function":
                walk(token.arguments)
            elif kind == "string" and importing:
                found.append((token.value, True))
            elif kind == "at-rule":
                walk(token.prelude, token.lower_at_keyword == "import")
                walk(token.content)
            elif kind == "qualified-rule":
                walk(token.prelude)
                walk(token.content)
            elif kind in ("() block", "[] block", "{} block"):
                walk(token.content)

    walk(tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True))
    return found
