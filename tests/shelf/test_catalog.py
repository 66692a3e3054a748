"""The shelf's catalogue (bookbuilder.shelf.catalog) from built files alone, and `serve SHELF`
(bookbuilder.serve.library): twelve small books' EPUBs built once into a shelf's build/, the feeds
parsed as Atom, and every link of the feeds and of index.html fetched from a real server on 127.0.0.1."""

from __future__ import annotations

import html
import http.client
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from bookbuilder import pipeline
from bookbuilder.cli import main
from bookbuilder.shelf.catalog import make_catalog, write_catalog
from tests.conftest import ask_handler, form_post, write_book

ATOM = "{http://www.w3.org/2005/Atom}"
NAVIGATION = "application/atom+xml;profile=opds-catalog;kind=navigation"
ACQUISITION = "application/atom+xml;profile=opds-catalog;kind=acquisition"
ESCAPED = '甲<&"乙'  # a title that is markup if it is not escaped
AUTHORS = ("张三", "李四", "王五")
TITLES = [ESCAPED] + [f"书{n:02d}" for n in range(1, 12)]


def _book(n: int) -> tuple[str, str, str]:
    """(name, title, author) of the nth book: three authors, the first book's title is markup."""
    return f"book{n:02d}", TITLES[n], AUTHORS[n % 3]


@pytest.fixture(scope="module")
def shelf(tmp_path_factory) -> Path:
    """A shelf of 12 books, each one's EPUB built into build/<name>/ (the first one's kepub too)."""
    root = tmp_path_factory.mktemp("shelf")
    for n in range(12):
        name, title, author = _book(n)
        toml = f'[book]\ntitle = "{title.replace(chr(34), chr(92) + chr(34))}"\nauthor = "{author}"\n'
        toml += f'description = "第{n}本书。"\n'
        chapters = {
            "001.txt": f"第一章 开始\n\n　　第{n}本书的正文。\n",
            "002.txt": "第二章 结束\n\n　　完。\n",
        }
        loaded = pipeline.load_book(write_book(root / name, chapters, toml), 1)
        formats = ("epub", "kepub") if n == 0 else ("epub",)
        for fmt in formats:
            suffix = pipeline.renderer_suffix(fmt)
            pipeline.build(loaded, fmt, output=root / "build" / name / f"{name}.{suffix}", jobs=1)
    write_book(root / "broken", {"001.txt": "第一章 开始\n"}, "[book\n")  # on the shelf, never built
    return root


def _feeds(build: Path) -> dict[str, ET.Element]:
    return {
        p.relative_to(build).as_posix(): ET.parse(p).getroot()
        for p in [build / "catalog.opds.xml", *sorted((build / "catalog.opds").glob("*.xml"))]
    }


def test_the_catalogue_lists_the_twelve_books_with_their_titles_authors_and_media_types(shelf):
    made = write_catalog(shelf / "build")
    assert len(made.books) == 12
    feeds = _feeds(shelf / "build")
    assert all(feed.tag == f"{ATOM}feed" and feed.findtext(f"{ATOM}updated") for feed in feeds.values())
    root = feeds["catalog.opds.xml"]
    assert {
        link.get("href"): link.get("type")
        for e in root.iter(f"{ATOM}entry")
        for link in e.iter(f"{ATOM}link")
    } == {
        "catalog.opds/by-title.xml": ACQUISITION,
        "catalog.opds/authors.xml": NAVIGATION,
        "catalog.opds/recent.xml": ACQUISITION,
    }
    entries = feeds["catalog.opds/by-title.xml"].findall(f"{ATOM}entry")
    listed = {e.findtext(f"{ATOM}title"): e.findtext(f"{ATOM}author/{ATOM}name") for e in entries}
    assert listed == {_book(n)[1]: _book(n)[2] for n in range(12)}
    assert [e.findtext(f"{ATOM}title") for e in entries] == TITLES  # by pinyin: jia-yi, shu-01, …
    first = next(e for e in entries if e.findtext(f"{ATOM}title") == ESCAPED)
    kinds = {link.get("rel"): [] for link in first.findall(f"{ATOM}link")}
    for link in first.findall(f"{ATOM}link"):
        kinds[link.get("rel")].append((link.get("href"), link.get("type")))
    assert kinds["http://opds-spec.org/acquisition"] == [
        ("../book00/book00.epub", "application/epub+zip"),
        ("../book00/book00.kepub.epub", "application/kepub+zip"),
    ]
    assert kinds["http://opds-spec.org/image"] == [("../catalog.opds/covers/book00.jpg", "image/jpeg")]
    assert first.findtext(f"{ATOM}summary") == "第0本书。"
    assert first.findtext("{http://purl.org/dc/terms/}language") == "zh-Hans"
    authors = feeds["catalog.opds/authors.xml"].findall(f"{ATOM}entry")
    assert [a.findtext(f"{ATOM}title") for a in authors] == ["李四", "王五", "张三"]  # li, wang, zhang
    for author in authors:
        feed = feeds["catalog.opds/" + author.find(f"{ATOM}link").get("href")]
        assert {e.findtext(f"{ATOM}author/{ATOM}name") for e in feed.iter(f"{ATOM}entry")} == {
            author.findtext(f"{ATOM}title")
        }
    assert len(feeds["catalog.opds/recent.xml"].findall(f"{ATOM}entry")) == 12


def test_a_long_feed_is_paged_and_its_pages_list_every_book_once(shelf, monkeypatch):
    from bookbuilder.shelf import catalog

    monkeypatch.setattr(catalog, "PAGE_SIZE", 5)
    files = make_catalog(shelf / "build").files
    paged = {f"catalog.opds/by-title{s}.xml" for s in ("", "-2", "-3")}
    assert {f for f in files if "by-title" in f} == paged
    page, titles, seen = "by-title.xml", [], []
    while page is not None:
        seen.append(page)
        feed = ET.fromstring(files[f"catalog.opds/{page}"])
        rels = {link.get("rel"): link.get("href") for link in feed.findall(f"{ATOM}link")}
        assert (rels["first"], rels["last"]) == ("by-title.xml", "by-title-3.xml")
        titles += [e.findtext(f"{ATOM}title") for e in feed.findall(f"{ATOM}entry")]
        page = rels.get("next")
    assert titles == TITLES and seen == ["by-title.xml", "by-title-2.xml", "by-title-3.xml"]


def test_a_title_is_escaped_in_the_feeds_and_the_page(shelf):
    made = make_catalog(shelf / "build")
    assert b'\xe7\x94\xb2&lt;&amp;"\xe4\xb9\x99' in made.files["catalog.opds/by-title.xml"]
    assert "甲&lt;&amp;&quot;乙" in made.files["index.html"].decode("utf-8")
    assert ESCAPED not in made.files["index.html"].decode("utf-8")


def test_the_same_built_files_give_the_same_bytes_and_a_removed_book_s_cover_goes(shelf, tmp_path):
    build = shelf / "build"
    write_catalog(build)
    first = {p: p.read_bytes() for p in sorted(build.rglob("*")) if p.is_file()}
    write_catalog(build)
    assert {p: p.read_bytes() for p in sorted(build.rglob("*")) if p.is_file()} == first
    copy = tmp_path / "shelf" / "build"
    for path, data in first.items():
        if "book03" not in path.as_posix():
            (copy / path.relative_to(build)).parent.mkdir(parents=True, exist_ok=True)
            (copy / path.relative_to(build)).write_bytes(data)
    made = write_catalog(copy)
    assert len(made.books) == 11 and not (copy / "catalog.opds" / "covers" / "book03.jpg").exists()


def test_the_catalog_command_writes_it_and_a_shelf_not_built_is_one_line(shelf, tmp_path):
    done = CliRunner().invoke(main, ["catalog", str(shelf)])
    assert done.exit_code == 0 and done.output.endswith("index.html: 12 books\n"), done.output
    done = CliRunner().invoke(main, ["catalog", str(tmp_path)])
    assert done.exit_code == 1 and "error E004: no build folder" in done.output


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("href", "src"):
            if attrs.get(key):
                self.found.append((attrs[key], attrs.get("type")))


@pytest.fixture(scope="module")
def served(shelf):
    write_catalog(shelf / "build")
    process = subprocess.Popen(
        [sys.executable, "-m", "bookbuilder", "serve", str(shelf), "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        for line in process.stderr:
            if found := re.search(r"at (http://127\.0\.0\.1:\d+/)", line):
                yield found.group(1)
                break
            assert time.monotonic() < deadline, "serve did not start"
        else:
            raise AssertionError(f"serve ended: {process.wait()}")
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        finally:
            process.kill()


def _get(url: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(url, timeout=60) as answer:
        assert answer.status == 200, url
        return answer.headers["Content-Type"], answer.read()


def test_every_link_of_the_served_feeds_and_page_answers_with_its_type(served):
    seen: set[str] = set()
    todo = [(served, "text/html"), (served + "catalog.opds.xml", NAVIGATION)]
    while todo:
        url, kind = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        got, body = _get(url)
        if kind is not None:
            assert got.split(";")[0] == kind.split(";")[0] and (kind in got or ";" not in kind), (url, got)
        if got.startswith("application/atom+xml"):
            feed = ET.fromstring(body)
            todo += [
                (urllib.parse.urljoin(url, x.get("href")), x.get("type")) for x in feed.iter(f"{ATOM}link")
            ]
        elif got.startswith("text/html") and "/.book/" not in url:  # a book's pages: served, not crawled
            parser = _Links()
            parser.feed(body.decode("utf-8"))
            todo += [(urllib.parse.urljoin(url, href), kind) for href, kind in parser.found]
    files = [u for u in seen if u.endswith(".epub")]
    assert len(files) == 13  # 12 EPUBs and one kepub
    assert sum(u.endswith(".xml") for u in seen) >= 1 + 3 + 3  # root, by title, authors, recent, 3 authors
    assert any(u.endswith(".opensearch.xml") for u in seen)
    assert any(u.endswith(".search?q={searchTerms}") for u in seen)  # OPDS's own templated search link
    assert sum("/.book/" in u for u in seen) == 12  # index.html links each book's pages


def test_opensearch_finds_a_book_by_title_and_by_author(served):
    _, description = _get(served + ".opensearch.xml")
    template = ET.fromstring(description).find("{http://a9.com/-/spec/opensearch/1.1/}Url").get("template")
    assert template.startswith(served)

    def titles(terms: str) -> list[str]:
        kind, body = _get(template.replace("{searchTerms}", urllib.parse.quote(terms)))
        assert kind.startswith(ACQUISITION)
        return [e.findtext(f"{ATOM}title") for e in ET.fromstring(body).iter(f"{ATOM}entry")]

    assert titles("书05") == ["书05"]
    assert titles("李四") == [_book(n)[1] for n in range(12) if n % 3 == 1]
    assert titles('<&"') == [ESCAPED]
    assert titles("没有这本书") == []


def test_a_book_s_workbench_is_served_under_its_prefix_and_the_rest_is_not(served, shelf):
    kind, page = _get(served + ".book/book05/")
    assert kind.startswith("text/html") and "书05" in page.decode("utf-8")
    links = _Links()
    links.feed(page.decode("utf-8"))
    chapter = next(href for href, _ in links.found if "/text/" in href)
    assert chapter.startswith("/.book/book05/text/")
    assert _get(urllib.parse.urljoin(served, chapter))[0].startswith("text/html")
    # its download page and feed are the shelf's (nothing is built into the book's own folder)
    assert _get(served + ".book/book05/download") == _get(served)
    assert _get(served + ".book/book05/opds")[0].startswith(NAVIGATION)
    assert not (shelf / "book05" / "build").exists()
    with pytest.raises(urllib.error.HTTPError) as broken:
        _get(served + ".book/broken/")
    assert broken.value.code == 500 and b"error E001" in broken.value.read()
    for missing in (".book/nothing/", "book05/book05.pdf", "../book.toml", ".cache/x"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            _get(served + missing)
        assert refused.value.code == 404, missing
    address = urllib.parse.urlsplit(served)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
    connection.request("GET", "/", headers={"Host": "evil.example"})
    assert connection.getresponse().status == 421  # DNS rebinding: the Host rule holds for the shelf
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
    connection.request("POST", "/catalog.opds.xml", body=b"x")
    assert connection.getresponse().status == 403


def test_a_correction_on_a_book_s_page_is_written_into_that_book_s_settings(served, shelf):
    book = "book11"
    _, page = _get(f"{served}.book/{book}/")
    form = next(
        f
        for f in re.findall(r'<form method="post" action="([^"]+)"[^>]*>(.*?)</form>', page.decode(), re.S)
        if 'value="not-heading"' in f[1]
    )
    assert form[0] == f"/.book/{book}/correct"
    fields = {
        k: html.unescape(v) for k, v in re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form[1])
    }
    assert fields["back"].startswith(f"/.book/{book}/")
    # the entry's line and title, which workbench.js puts into the form when the entry is opened
    entry = re.search(r'data-kind="chapter" data-at="([^"]+)" data-expect="([^"]+)"', page.decode())
    fields.update(at=html.unescape(entry.group(1)), expect=html.unescape(entry.group(2)))
    address = urllib.parse.urlsplit(served)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
    # rename: a correction every kind of book takes (not a heading on a chapter file's first line,
    # which titles its chapter whatever a [[fix]] says, is refused: serve/guard.py)
    body = urllib.parse.urlencode({**fields, "action": "rename", "rename": "新的题目"})
    origin = f"http://{address.netloc}"
    kinds = {"Origin": origin, "Content-Type": "application/x-www-form-urlencoded"}
    connection.request("POST", form[0], body=body, headers=kinds)
    answer = connection.getresponse()
    assert answer.status == 303 and answer.getheader("Location").startswith(f"/.book/{book}/")
    assert (
        "[[fix]]" in (settings := (shelf / book / "book.toml").read_text("utf-8")) and "新的题目" in settings
    )


def test_over_the_lan_the_shelf_is_read_only(shelf):
    from bookbuilder.serve.hosts import allowed_hosts
    from bookbuilder.serve.library import Library, LibraryHandler

    library = Library(shelf, 1, lambda line: None)
    library.port, library.lan = 3000, "http://192.168.1.5:3000/"
    library.hosts = allowed_hosts(3000, "0.0.0.0", "192.168.1.5")
    handler = type("ShelfHandler", (LibraryHandler,), {"site": library, "library": library})

    def get(path: str, client: str = "192.168.1.20", host: str = "192.168.1.5:3000") -> bytes:
        return ask_handler(
            handler, client, f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()
        )

    for path in ("/", "/catalog.opds.xml", "/book05/book05.epub", "/.search?q=%E4%B9%A6", "/favicon.ico"):
        assert b" 200 " in get(path).split(b"\r\n")[0], path
    here = get("/.book/book02/", "127.0.0.1", "127.0.0.1:3000")
    token = re.search(rb'name="token" value="([^"]+)"', here).group(1)
    lan = get("/.book/book02/")
    assert b" 200 " in lan.split(b"\r\n")[0] and b"<form" not in lan and token not in lan
    body = urllib.parse.urlencode(
        {"token": token.decode(), "action": "not-heading", "at": "002.txt:1", "expect": "第二章 结束"}
    ).encode()
    before = (shelf / "book02" / "book.toml").read_bytes()
    for host in (b"192.168.1.5:3000", b"127.0.0.1:3000"):
        post = form_post("/.book/book02/correct", host, body)
        answer = ask_handler(handler, "192.168.1.20", post)
        assert b" 403 " in answer.split(b"\r\n")[0] and b"read-only" in answer
    assert (shelf / "book02" / "book.toml").read_bytes() == before
    assert b" 421 " in get("/", host="evil.example").split(b"\r\n")[0]
    library.stop()


def test_a_damaged_epub_is_one_warning_naming_it_and_its_book_is_listed_by_its_name(shelf, tmp_path):
    build = tmp_path / "shelf" / "build"
    for name in ("book01", "book02"):
        (build / name).mkdir(parents=True)
        data = (shelf / "build" / name / f"{name}.epub").read_bytes()
        (build / name / f"{name}.epub").write_bytes(data[: len(data) // 2] if name == "book02" else data)
    done = CliRunner().invoke(main, ["catalog", str(tmp_path / "shelf")])
    assert done.exit_code == 0 and "Traceback" not in done.output, done.output
    warning = next(line for line in done.output.splitlines() if line.startswith("warning:"))
    assert str(build / "book02" / "book02.epub") in warning and "cannot read its metadata" in warning
    feed = ET.parse(build / "catalog.opds" / "by-title.xml").getroot()
    assert [e.findtext(f"{ATOM}title") for e in feed.iter(f"{ATOM}entry")] == ["book02", _book(1)[1]]
