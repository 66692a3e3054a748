"""Book → Kindle AZW3 (KF8), through calibre's `ebook-convert` from the EPUB we write: the route to
a Kindle over USB today (Amazon's kindlegen is gone, and 32-bit). The EPUB is made as for
`bookbuilder epub`, converted in a scratch folder, and the result moved into place atomically.
calibre comes from Debian's `calibre` package (scripts/setup.sh installs it)."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import struct
import tempfile
import time
import uuid
from pathlib import Path

from bookbuilder.diagnostics import BookError, Diagnostic, Location
from bookbuilder.model import Book
from bookbuilder.render import COMMANDS, RenderContext
from bookbuilder.render.epub import EpubRenderer, epub_bytes
from bookbuilder.system import external
from bookbuilder.system.atomic import atomic_path

INSTALL = "install calibre (apt-get install calibre, or https://calibre-ebook.com/download) for the AZW3"


def calibre(tool: str, where: str) -> str:
    found = shutil.which(tool)
    if found is None:
        raise BookError("E409", f"calibre's {tool} is not on PATH: {INSTALL}", where)
    return found


def run(command: list[str], where: str) -> external.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")  # calibre needs no display
    done = external.run(command, where, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip() or f"exit {done.returncode}").splitlines()[-1]
        raise BookError("E410", f"{Path(command[0]).name} failed: {last}", where)
    return done


_PERCENT = re.compile(r"^(\d{1,3})% (.+)$")  # 67% Running AZW3 Output plugin
TICK = 1.0  # seconds between updates of the status while calibre says nothing


def calibre_stage(line: str, percent: int) -> tuple[int, str] | None:
    """(percent done, stage) that a line of ebook-convert's output announces, or None: its
    percentages (1 %, 34 %, 67 %) and the steps between them (the longest, Compressing
    markup..., runs at 67 % for most of a conversion)."""
    if m := _PERCENT.match(line.strip()):
        return int(m.group(1)), m.group(2).strip()
    text = line.strip()
    if not text or not percent or text.startswith("Detected chapter") or "/" in text:
        return None  # the options it was given (before 1 %), one line per chapter, file paths: no stages
    return percent, text


def converted(command: list[str], where: str, status=None) -> None:
    """ebook-convert run, each stage it announces shown through `status(text, seconds since the
    start)`, again every TICK while it says nothing; E410 with its last line if it fails."""
    if status is None:
        run(command, where)
        return
    output = external.Lines(command, where, tick=TICK, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    start, percent, stage, last = time.monotonic(), 0, "starting calibre", ""
    for line in output:  # E412 from external when calibre runs past its limit
        last = line.strip() or last
        if found := calibre_stage(line, percent):
            percent, stage = found
        status(f"{percent}% {stage}", time.monotonic() - start)
    if output.returncode != 0:
        raise BookError(
            "E410", f"{Path(command[0]).name} failed: {last or f'exit {output.returncode}'}", where
        )


class Azw3Renderer(EpubRenderer):
    name = "azw3"
    suffix = "azw3"
    help = COMMANDS["azw3"].help
    flags = COMMANDS["azw3"].flags
    media_type = "application/x-mobi8-ebook"  # calibre's content server's and the OPDS clients' for AZW3
    shelf_label = "Kindle (AZW3)"
    needs = "ebook-convert"

    def render(self, book: Book, context: RenderContext) -> list[Diagnostic]:
        convert = calibre("ebook-convert", str(context.target))
        with tempfile.TemporaryDirectory(prefix="bookbuilder-azw3-") as scratch:
            source, made = Path(scratch) / "book.epub", Path(scratch) / "book.azw3"
            source.write_bytes(epub_bytes(book, context.options, context.epoch))
            when = dt.datetime.fromtimestamp(context.epoch, dt.UTC).isoformat()
            converted(
                [convert, str(source), str(made), "--pubdate", when, "--timestamp", when],
                str(context.target),
                context.status,
            )
            data = reproducible(made.read_bytes(), book.meta.identifier, context.epoch)
        with atomic_path(context.target) as tmp:
            tmp.write_bytes(data)
        return []

    def checks(self, path: Path, book: Book, full_a11y: bool = False) -> list:
        from bookbuilder.check.gate import Check

        return [
            Check(
                "calibre read-back",
                path,
                lambda: self.check(path, book),
                f"{book.meta.title}\x1f{book.meta.author}",
            )
        ]

    def check(self, path: Path, book: Book) -> list[Diagnostic]:
        """E411 where the AZW3's own metadata, read back by calibre, is not the book's."""
        shown = metadata(path)
        found = []
        for field, expected in (("Title", book.meta.title), ("Author(s)", book.meta.author)):
            if shown.get(field, "").split(" [")[0] != expected:
                found.append(
                    Diagnostic(
                        "E411",
                        f"the AZW3's {field.lower()} is {shown.get(field)!r}, not {expected!r}",
                        Location(str(path)),
                    )
                )
        return found


def reproducible(data: bytes, identifier: str, epoch: int) -> bytes:
    """calibre's AZW3 with what it makes up on every run replaced by what the book says: the
    Palm database's creation and modification times (bytes 36–43 of its header), the MOBI
    header's unique id (16 bytes into each MOBI header), and the book's UUID (EXTH records 112
    and 113: calibre adds a random one to every book it reads). Same book, same bytes."""
    out = bytearray(data)
    out[36:44] = struct.pack(">II", epoch, epoch)
    ours = uuid.uuid5(uuid.NAMESPACE_URL, identifier)
    records = struct.unpack(">H", out[76:78])[0]
    for i in range(records):
        start = struct.unpack(">I", out[78 + 8 * i : 82 + 8 * i])[0]
        if out[start + 16 : start + 20] == b"MOBI":
            out[start + 32 : start + 36] = ours.bytes[:4]
    made_up = re.search(rb"calibre:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})", out)
    return bytes(out).replace(made_up.group(1), str(ours).encode("ascii")) if made_up else bytes(out)


def metadata(path: Path) -> dict[str, str]:
    """ebook-meta's fields of a book file: Title, Author(s), Languages, …"""
    out = run([calibre("ebook-meta", str(path)), str(path)], str(path)).stdout
    fields = {}
    for line in out.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip()] = value.strip()
    return fields


RENDERER = Azw3Renderer()
