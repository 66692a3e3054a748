"""`bookbuilder serve`: the book as web pages on this machine (bookbuilder.serve.pages), built again
whenever its sources change, and every open page reloaded when a build ends.

A watcher thread compares the sources' sizes and modification times (source/, book.toml,
styles/) four times a second; polling needs nothing from the platform and also sees a file replaced
by an editor's rename. A change loads the book again with the earlier load's per-file results
(pipeline.load_book's memo): only the files that changed are read. Open pages hold a
server-sent-events connection on /events, which sends the number of the newest build.

Pages asked for from this machine carry the workbench's correction forms, whose POSTs
bookbuilder.serve.workbench takes; /opds and /download (bookbuilder.serve.opds) hand the built files to a
reader, over the LAN too with --lan, where nothing writes.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from bookbuilder import pipeline
from bookbuilder.diagnostics import BookError
from bookbuilder.serve.hosts import allowed_hosts, host_refusal, is_loopback
from bookbuilder.serve.opds import Shelf
from bookbuilder.serve.pages import Preview
from bookbuilder.serve.workbench import MAX_FORM, Bench

# Seconds between two looks at the sources: an edit waits half of it on average. A look is one
# stat per file, cheap beside a rebuild (bench/bench_serve.py has the edit-to-page times).
POLL = 0.25
KEEPALIVE = 15.0  # seconds between comments on an idle /events connection


def sources_signature(config) -> tuple:
    """(path, size, mtime) of every file the book is built from: its source, book.toml, styles/."""
    found = []
    roots = [config.source, config.toml_path, config.root / "styles"]
    for root in roots:
        if root.is_file():
            found.append(_entry(str(root)))
        elif root.is_dir():
            for folder, dirs, files in os.walk(root):
                dirs.sort()
                found += [_entry(os.path.join(folder, name)) for name in sorted(files)]
    return tuple(e for e in found if e is not None)


def _entry(path: str):
    """(path, size, modification time), None where it cannot be seen; os.stat on the path's
    text: a Path object per file took half of a look's time."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return path, st.st_size, st.st_mtime_ns


class Site:
    """The newest build's pages, swapped whole when a build ends; /events waits on `changed`."""

    def __init__(self, path: Path, jobs: int | None, echo: Callable[[str], None]):
        self.path, self.jobs, self.echo = path, jobs, echo
        self.memo: dict = {}
        self.generation = 0
        self.preview: Preview | None = None
        self.changed = threading.Condition()
        self.stopping = threading.Event()
        self.bench: Bench | None = None  # set once the port is known
        self.sources: tuple | None = None  # the sources' signature the newest build read
        self.looking = threading.Lock()  # the watcher's look, or a correction's write and adoption
        self.hosts: frozenset[str] = (
            frozenset()
        )  # the Host headers answered (hosts.py): none till the port is known
        self.shelf = Shelf(self)

    def rebuild(self) -> None:
        """Load the book again (only changed files are read); on an error keep the last good pages,
        with the error shown above them. Only the first load, before the server's threads start,
        runs on several processes: forking a process that has threads can copy a held lock."""
        from bookbuilder.render import renderer

        start = time.perf_counter()
        try:
            loaded = pipeline.load_book(self.path, self.jobs if self.preview is None else 1, memo=self.memo)
            css = renderer("epub").options(loaded.config).css  # the pages wear the EPUB's stylesheet
        except BookError as e:
            if self.preview is None:
                raise
            self._publish(
                Preview(self.preview.loaded, self.preview.css, self.generation + 1, str(e.diagnostic))
            )
            self.echo(f"build failed, the last good one is shown: {e.diagnostic}")
            return
        self._publish(Preview(loaded, css, self.generation + 1))
        self.shelf.refresh()  # a reader's files made again in the background, before they are asked for
        files = len(loaded.book.files)
        read = self.memo.get("read", files)
        self.echo(
            f"built {sum(1 for _ in loaded.book.chapters())} chapters in {time.perf_counter() - start:.2f} s "
            f"({read} of {files} files read)"
        )

    def newest_source(self) -> int:
        """When a file the book is built from last changed (ns): a file in build/ older is stale."""
        return max((entry[2] for entry in sources_signature(self.preview.loaded.config)), default=0)

    def _publish(self, preview: Preview) -> None:
        with self.changed:
            self.preview, self.generation = preview, preview.generation
            self.changed.notify_all()
        # Every object alive now (the build, the memo) is left out of the cyclic collector's passes
        # (gc.freeze; freed by its reference count as ever once the next build replaces it): its full
        # passes walked their million objects, 0.2-0.5 s each, in the next correction's trial
        # load and in pages asked for meanwhile.
        gc.freeze()

    def wait(self, seen: int, timeout: float) -> int:
        with self.changed:
            self.changed.wait_for(lambda: self.generation != seen or self.stopping.is_set(), timeout)
            return self.generation

    def adopt(self, loaded, before: tuple | None, write: Callable[[], None]) -> bool:
        """`write` the settings file and publish a book loaded elsewhere with it (a correction's
        trial, bookbuilder.serve.guard) where the other sources are still `before`: the rebuild the
        watcher would make, made already. The watcher does not look meanwhile. False: something
        else changed, and the watcher rebuilds."""
        from bookbuilder.render import renderer

        with self.looking:
            write()
            settings = str(loaded.config.toml_path)
            now = sources_signature(loaded.config)
            if (
                before is None
                or self.sources != before
                or [e for e in now if e[0] != settings] != [e for e in before if e[0] != settings]
            ):
                return False
            self.sources = now
        self._publish(Preview(loaded, renderer("epub").options(loaded.config).css, self.generation + 1))
        self.shelf.refresh()
        return True

    def watch(self, last: tuple) -> None:
        """Rebuild whenever the sources change from `last` (what they were before the first
        build, so that an edit made meanwhile is not missed), until stopped."""
        self.sources = last
        while not self.stopping.wait(POLL):
            with self.looking:
                now = sources_signature(self.preview.loaded.config)
                changed, self.sources = now != self.sources, now
            if changed:
                try:
                    self.rebuild()
                except Exception as e:  # a bug of ours: said, and the last good pages stay
                    self.echo(f"build failed, the last good one is shown: {type(e).__name__}: {e}")

    def stop(self) -> None:
        self.stopping.set()
        with self.changed:
            self.changed.notify_all()


class Server(ThreadingHTTPServer):
    daemon_threads = True  # /events connections end with the process

    def handle_error(self, request, client_address) -> None:
        """A browser that drops a kept-alive connection is not an error (Chromium does, after a form's
        POST)."""
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


class Handler(BaseHTTPRequestHandler):
    site: Site  # set on a subclass per server
    protocol_version = "HTTP/1.1"
    head_only = False  # this request is a HEAD: headers as GET's, no body

    def parse_request(self) -> bool:
        """Every request, whatever its method, names this server as its Host or is answered with
        why not (bookbuilder.serve.hosts) and nothing else."""
        if not super().parse_request():
            return False
        self.head_only = self.command == "HEAD"
        parts = urlsplit(self.path)
        target = parts.netloc if parts.scheme else ""  # an absolute-form target names the host itself
        refused = host_refusal(self.headers.get_all("Host") or [], self.site.hosts)
        if refused is None and target:
            refused = host_refusal([target], self.site.hosts)
        if refused is None:
            return True
        self.close_connection = True  # a body not read is not taken for the next request
        self._send(refused[0], "text/plain; charset=utf-8", f"{refused[1]}\n".encode())
        return False

    def do_HEAD(self) -> None:  # noqa: N802
        """GET's headers without its body (a reading app may ask a download's size first)."""
        self.do_GET()

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        parts = urlsplit(self.path)
        path = parts.path
        if path == "/events":
            return self._send(200, "text/event-stream", b"") if self.head_only else self._events()
        bench = (
            self.site.bench if is_loopback(self.client_address[0]) else None
        )  # over the LAN: read-only pages
        found = self.site.preview.page(path, bench, parts.query) or (bench.page(path) if bench else None)
        if found is not None:
            return self._send(200, *found)
        shelved = self.site.shelf.page(path, self.headers.get("Host"))
        if shelved is None:
            return self._send(404, "text/plain; charset=utf-8", b"not found\n")
        self._send(*shelved)

    def do_POST(self) -> None:  # noqa: N802
        """Only /correct, and only as bookbuilder.serve.workbench.refusal allows."""
        length = self.headers.get("Content-Length", "0")
        if (
            urlsplit(self.path).path != "/correct"
            or self.site.bench is None
            or not length.isdigit()
            or int(length) > MAX_FORM
        ):
            return self._refuse()
        self._send(*self.site.bench.post(self.client_address[0], self.headers, self.rfile.read(int(length))))

    def _refuse(self) -> None:
        self.close_connection = True  # a body not read is not taken for the next request
        self._send(
            403, "text/plain; charset=utf-8", b"refused: serve takes corrections at POST /correct only\n"
        )

    do_PUT = do_DELETE = do_PATCH = _refuse  # nothing else writes

    def _send(self, status: int, kind_or_headers, body: bytes, headers: dict | None = None) -> None:
        """Headers: a content type, or (workbench answers) a dict of them; then `headers`."""
        fields = (
            {"Content-Type": kind_or_headers} if isinstance(kind_or_headers, str) else dict(kind_or_headers)
        )
        self.send_response(status)
        for name, value in {**fields, **(headers or {})}.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if not self.head_only:
            self.wfile.write(body)

    def _events(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        seen = None
        try:
            while not self.site.stopping.is_set():
                now = self.site.generation if seen is None else self.site.wait(seen, KEEPALIVE)
                self.wfile.write(f"data: {now}\n\n".encode() if now != seen else b": waiting\n\n")
                self.wfile.flush()
                seen = now
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page went away
        self.close_connection = True

    def log_message(self, format, *args) -> None:  # noqa: A002 (http.server's name)
        pass  # requests are not news; builds are


def serve(
    path: Path,
    host: str,
    port: int,
    jobs: int | None,
    echo: Callable[[str], None],
    ready: Callable[[str], None] | None = None,
) -> None:
    """Build, serve at http://host:port/ (port 0: a free one) and rebuild on changes until Ctrl-C.
    A host other than a loopback one (--lan: 0.0.0.0) serves the LAN too, read-only."""
    from bookbuilder.config import load_config

    site = Site(path, jobs, echo)
    before = sources_signature(load_config(Path(path)))
    site.rebuild()
    handler = type("BookHandler", (Handler,), {"site": site})
    try:
        server = Server((host, port), handler)
    except OSError as e:
        raise BookError("E010", f"cannot listen on {host}:{port}: {e.strerror}") from None
    port = server.server_address[1]
    lan = None if is_loopback(host) else lan_url(host, port)
    # Where this machine's browser corrects the book: a loopback address the server listens on (for
    # one LAN address only there is none, and the pages are read-only everywhere).
    local = host if is_loopback(host) else {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host)
    url = f"http://{local if ':' not in local else f'[{local}]'}:{port}/" if local else lan
    site.hosts = allowed_hosts(port, host, urlsplit(lan).hostname if lan else None)
    site.bench = Bench(site, port, lan)
    watcher = threading.Thread(target=site.watch, args=(before,), name="bookbuilder-watch", daemon=True)
    watcher.start()
    site.shelf.start()
    signal.signal(signal.SIGINT, _first_interrupt_only())  # before the line that says Ctrl-C stops it
    said = [f"serving 《{site.preview.loaded.book.meta.title}》 at {url} (Ctrl-C stops)"]
    if lan:
        said.append(
            f"on the LAN, read-only: {lan}download for an e-reader's browser, {lan}opds for a reading app"
        )
    serve_until_stopped(server, said, url, ready, echo, site.stop)
    watcher.join(timeout=5)  # bounded: a watcher stuck in a load never holds the exit
    echo("stopped")


def serve_until_stopped(server, said: list[str], url: str, ready, echo, stop: Callable[[], None]) -> None:
    """Say where it listens, then answer until Ctrl-C; whatever ends it, `stop` the site's threads
    and close the socket."""
    try:
        for line in said:
            echo(line)
        if ready is not None:
            ready(url)
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        stop()
        server.server_close()


def lan_url(host: str, port: int) -> str:
    """The address a device on the LAN reaches: the one given, or for 0.0.0.0 (every network) this
    machine's address on the default route (a UDP socket's connect sends nothing)."""
    import socket

    if host not in ("0.0.0.0", "::", ""):
        return f"http://{host if ':' not in host else f'[{host}]'}:{port}/"
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached, only routed
            address = probe.getsockname()[0]
    except OSError:
        address = socket.gethostname()
    return f"http://{address}:{port}/"


def _first_interrupt_only():
    """A SIGINT handler that interrupts once: a second Ctrl-C while the server stops changes
    nothing, wherever it lands (between two statements of the shutdown too)."""
    interrupted = threading.Event()

    def handler(signum, frame):
        if not interrupted.is_set():
            interrupted.set()
            raise KeyboardInterrupt

    return handler
