"""Rendered PDF documents kept between builds, in build/.cache/pdf/: a serialized novel rebuilt
after one chapter changed lays out only that chapter's chunk (and the stamps and contents whose
page numbers moved). A chunk's PDF does not depend on where it stands in the book (its margin
boxes are drawn by the stamps), so a chunk whose HTML and stylesheets are unchanged is the same
document.

The key is a SHA-256 of everything the document depends on: its HTML, the stylesheets, the extra
CSS, the project folder (url()s resolve in it), bookbuilder's, WeasyPrint's and pydyf's
versions, and the fonts the stylesheets put first (path, size, time). An entry that cannot be
read is rendered again and rewritten, never trusted; entries are written then renamed, so
concurrent builds never see half of one. The merged PDF is the same bytes warm or cold."""

from __future__ import annotations

import hashlib
import os
import pickle
from importlib.metadata import version
from pathlib import Path

from bookbuilder import __version__


class DocumentCache:
    def __init__(self, folder: Path | None, fonts: tuple[tuple[Path, int], ...]):
        self.folder = folder
        stamp = [
            f"bookbuilder {__version__}",
            f"weasyprint {version('weasyprint')}",
            f"pydyf {version('pydyf')}",
        ]
        for path, index in fonts:
            try:
                stat = Path(path).stat()
                stamp.append(f"{path}:{index}:{stat.st_size}:{stat.st_mtime_ns}")
            except OSError:
                stamp.append(f"{path}:{index}")
        self.salt = "\n".join(stamp).encode("utf-8")
        self.hits = self.misses = 0

    def key(self, job) -> str:
        h = hashlib.sha256(self.salt)
        for part in (
            job.html.read_bytes(),
            job.css.read_bytes(),
            job.extra_css.encode("utf-8"),
            str(job.root.resolve()).encode("utf-8"),
        ):
            h.update(len(part).to_bytes(8, "big"))
            h.update(part)
        return h.hexdigest()

    def get(self, job):
        if self.folder is None:
            return None
        try:
            with open(self.folder / self.key(job), "rb") as f:
                found = pickle.load(f)
        except Exception:  # missing, truncated, from another version: rendered again
            self.misses += 1
            return None
        if getattr(found, "pages", None) is None:
            self.misses += 1
            return None
        self.hits += 1
        return found.__class__(
            job.index, *(getattr(found, f) for f in ("pdf", "pages", "anchors", "links", "messages"))
        )

    def put(self, job, rendered) -> None:
        if self.folder is None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            path = self.folder / self.key(job)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.part")
            with open(tmp, "wb") as f:
                pickle.dump(rendered, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only or full build/: the document is simply not kept
