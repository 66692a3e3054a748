"""serve's shelf (bookbuilder.serve.opds): the OPDS 1.2 feed and the download page, read over HTTP from a
real server on 127.0.0.1; and the handler's LAN rule, driven through the real handler with a
client address of another machine (over a socket pair: nothing is sent over a network)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_serve import BOOK, _start, _stop

from tests.conftest import ask_handler, form_post, write_book

ATOM = "{http://www.w3.org/2005/Atom}"
TYPES = {
    ".kepub.epub": "application/kepub+zip",
    ".epub": "application/epub+zip",
    ".azw3": "application/x-mobi8-ebook",
    ".pdf": "application/pdf",
}


@pytest.fixture
def book(tmp_path) -> Path:
    return write_book(
        tmp_path / "book", BOOK, '[book]\ntitle = "山门"\nauthor = "某人"\ndescription = "一个少年。"\n'
    )


def _get(url: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(url, timeout=120) as answer:
        return answer.headers["Content-Type"], answer.read()


def _download(url: str) -> tuple[dict, bytes]:
    with urllib.request.urlopen(url, timeout=120) as answer:
        return dict(answer.headers), answer.read()


def _fresh(url: str, seconds: float = 120) -> bytes:
    """The file at `url` once it is no longer sent as last built."""
    deadline = time.monotonic() + seconds
    while "X-Bookbuilder-Stale" in (found := _download(url))[0]:
        assert time.monotonic() < deadline, "never rebuilt"
        time.sleep(0.3)
    return found[1]


def _type_of(href: str) -> str:
    return next(kind for suffix, kind in TYPES.items() if href.endswith(suffix))


def test_the_opds_feed_is_atom_with_an_acquisition_link_per_format_and_downloads_are_build_s_bytes(book):
    subprocess.run(
        [sys.executable, "-m", "bookbuilder", "epub", str(book)], check=True, capture_output=True, timeout=120
    )
    built = book / "build" / "山门.epub"
    process, url = _start(book)
    try:
        kind, body = _get(url + "opds")
        assert kind.startswith("application/atom+xml;profile=opds-catalog;kind=acquisition")
        feed = ET.fromstring(body)
        assert feed.tag == f"{ATOM}feed" and feed.find(f"{ATOM}updated") is not None
        assert any(link.get("rel") == "self" for link in feed.findall(f"{ATOM}link"))
        (entry,) = feed.findall(f"{ATOM}entry")
        assert (
            entry.findtext(f"{ATOM}title") == "山门" and entry.findtext(f"{ATOM}author/{ATOM}name") == "某人"
        )
        assert entry.findtext(f"{ATOM}summary") == "一个少年。" and entry.findtext(f"{ATOM}id").startswith(
            "urn:uuid:"
        )
        assert entry.findtext("{http://purl.org/dc/terms/}language") == "zh-Hans"
        links = entry.findall(f"{ATOM}link")
        acquired = {
            link.get("href"): link for link in links if link.get("rel") == "http://opds-spec.org/acquisition"
        }
        assert {Path(urllib.parse.unquote(urllib.parse.urlsplit(h).path)).name for h in acquired} >= {
            "山门.epub",
            "山门.kepub.epub",
            "山门.pdf",
        }
        for href, link in acquired.items():
            assert link.get("type") == _type_of(href), href
        epub = next(
            link for href, link in acquired.items() if urllib.parse.unquote(href).endswith("/山门.epub")
        )
        assert epub.get("length") == str(built.stat().st_size)  # it exists: its size is said

        kind, data = _get(epub.get("href"))
        assert kind == "application/epub+zip" and data == built.read_bytes()
        edited = book / "source" / "003.txt"
        edited.write_text(BOOK["003.txt"] + "\n　　又过了一年。\n", "utf-8")
        os.utime(edited, ns=(time.time_ns() + 10**9,) * 2)  # a new time even on a coarse clock
        deadline = time.monotonic() + 30
        while b'data-build="2"' not in _get(url)[1]:
            assert time.monotonic() < deadline, "no rebuild"
            time.sleep(0.2)
        again = _fresh(epub.get("href"))  # older than the source now: built again, into build/
        assert again != data and again == built.read_bytes()
        kepub = next(href for href in acquired if href.endswith(".kepub.epub"))
        assert not (book / "build" / "山门.kepub.epub").exists()
        kind, data = _get(kepub)  # not built yet: built on request (quick: waited for), into build/
        assert kind == "application/kepub+zip" and data == (book / "build" / "山门.kepub.epub").read_bytes()
        assert data[:2] == b"PK"

        (cover,) = [link for link in links if link.get("rel") == "http://opds-spec.org/image"]
        kind, image = _get(cover.get("href"))
        assert kind == cover.get("type") == "image/jpeg" and image[:3] == b"\xff\xd8\xff"

        kind, page = _get(url + "download")
        page = page.decode("utf-8")
        assert kind.startswith("text/html") and "<script" not in page
        quoted = urllib.parse.quote("山门")
        assert f'href="/download/{quoted}.epub"' in page and f'href="/download/{quoted}.kepub.epub"' in page
        for missing in ("download/other.epub", "download/../book.toml", "opds/../book.toml"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                _get(url + missing)
            assert refused.value.code == 404
    finally:
        code, said = _stop(process)
    assert code == 0 and "Traceback" not in said, said


def test_over_the_lan_the_pages_carry_no_forms_and_nothing_writes(book):
    from bookbuilder.serve.hosts import allowed_hosts
    from bookbuilder.serve.server import Handler, Site
    from bookbuilder.serve.workbench import Bench

    site = Site(book, 1, lambda line: None)
    site.rebuild()
    site.bench = Bench(site, 3000, "http://192.168.1.5:3000/")
    site.hosts = allowed_hosts(3000, "0.0.0.0", "192.168.1.5")
    handler = type("BookHandler", (Handler,), {"site": site})
    get = b"GET / HTTP/1.1\r\nHost: 192.168.1.5:3000\r\nConnection: close\r\n\r\n"
    here = ask_handler(handler, "127.0.0.1", get.replace(b"192.168.1.5", b"127.0.0.1"))
    assert (
        b" 200 " in here.split(b"\r\n")[0] and b"<form" in here and b"<svg" in here
    )  # the QR of the LAN address
    assert b"http://192.168.1.5:3000/download" in here
    lan = ask_handler(handler, "192.168.1.20", get)
    assert b" 200 " in lan.split(b"\r\n")[0] and b"<form" not in lan and site.bench.token.encode() not in lan
    assert (
        b" 200 "
        in ask_handler(handler, "192.168.1.20", get.replace(b"GET / ", b"GET /opds ")).split(b"\r\n")[0]
    )

    body = urllib.parse.urlencode(
        {
            "token": site.bench.token,
            "action": "not-heading",
            "at": "002.txt:1",
            "expect": "第二章 夜雨",
            "back": "/",
        }
    ).encode()
    before = (book / "book.toml").read_bytes()
    for client in ("192.168.1.20", "10.0.0.7"):
        for host in (b"192.168.1.5:3000", b"127.0.0.1:3000"):
            post = form_post("/correct", host, body)
            answer = ask_handler(handler, client, post)
            assert b" 403 " in answer.split(b"\r\n")[0] and b"read-only" in answer
    assert (book / "book.toml").read_bytes() == before


def test_the_lan_address_is_the_one_given():
    from bookbuilder.serve.server import lan_url

    assert lan_url("192.168.1.5", 3000) == "http://192.168.1.5:3000/"
    assert lan_url("fd00::5", 3000) == "http://[fd00::5]:3000/"


def _many_chapters(n: int) -> dict[str, str]:
    paragraph = "　　少年推开山门，看见远处的山峰上积着雪。他想了想，又回头看了一眼。" * 3
    return {
        f"{i:03d}.txt": f"第{i}章 山门\n\n" + "\n\n".join([paragraph] * 20) + "\n" for i in range(1, n + 1)
    }


def test_a_stale_pdf_is_sent_at_once_as_last_built_while_it_is_made_again(tmp_path):
    """A PDF made stale by touching its source: the download starts in under 2 s (not after the
    rebuild a reading app gives up on), says it is stale, and is as long as the feed says; once the
    background build ends the download is the new file, the feed's length its size."""
    book = write_book(
        tmp_path / "book", _many_chapters(12), '[book]\ntitle = "仙道第一小白脸"\nauthor = "某人"\n'
    )
    subprocess.run(
        [sys.executable, "-m", "bookbuilder", "pdf", str(book), "--jobs", "1"],
        check=True,
        capture_output=True,
        timeout=300,
    )
    built = book / "build" / "仙道第一小白脸.pdf"
    old = built.read_bytes()
    shutil.rmtree(book / "build" / ".cache")  # no kept pages: the rebuild must lay every one out
    process, url = _start(book)
    try:
        touched = book / "source" / "001.txt"
        os.utime(touched, ns=(time.time_ns() + 2 * 10**9,) * 2)  # newer than the PDF, the text the same
        deadline = time.monotonic() + 30
        while b'data-build="2"' not in _get(url)[1]:
            assert time.monotonic() < deadline, "no rebuild"
            time.sleep(0.2)
        href, length = _pdf_link(url)
        assert length == len(old)
        start = time.monotonic()
        with urllib.request.urlopen(href, timeout=120) as answer:
            first = answer.read(1024)
            waited = time.monotonic() - start
            headers, data = answer.headers, first + answer.read()
        assert waited < 2.0, f"the first bytes came after {waited:.1f} s"
        assert headers["X-Bookbuilder-Stale"] == "rebuilding" and data == old
        assert int(headers["Content-Length"]) == len(data) == length
        disposition = headers["Content-Disposition"]
        assert 'filename="xian-dao-di-yi-xiao-bai-lian.pdf"' in disposition
        assert f"filename*=UTF-8''{urllib.parse.quote('仙道第一小白脸.pdf')}" in disposition

        new = _fresh(href, 240)
        assert new[:5] == b"%PDF-" and new == built.read_bytes()
        assert _pdf_link(url)[1] == len(new)
    finally:
        code, said = _stop(process)
    assert code == 0 and "Traceback" not in said, said
    assert "shelf: 仙道第一小白脸.pdf built in" in said


def _pdf_link(url: str) -> tuple[str, int]:
    """The feed's PDF acquisition link: (href, length)."""
    feed = ET.fromstring(_get(url + "opds")[1])
    (link,) = [link for link in feed.iter(f"{ATOM}link") if link.get("type") == "application/pdf"]
    return link.get("href"), int(link.get("length"))


def test_a_file_never_built_that_takes_long_is_asked_for_again_later(tmp_path, monkeypatch):
    """Through the real shelf and a real build: with no time to wait, the answer is 503 with
    Retry-After at once, and the build goes on behind; the next download is the file."""
    from bookbuilder.serve import opds
    from bookbuilder.serve.server import Site

    monkeypatch.setattr(opds, "FIRST_BUILD_WAIT", 0.0)
    book = write_book(tmp_path / "book", BOOK, '[book]\ntitle = "山门"\n')
    site = Site(book, 1, lambda line: None)
    site.rebuild()
    status, kind, body, headers = site.shelf.page("/download/" + urllib.parse.quote("山门.epub"), None)
    assert status == 503 and headers["Retry-After"] == "30" and "being built" in body.decode("utf-8")
    deadline = time.monotonic() + 60
    while not (book / "build" / "山门.epub").exists():
        assert time.monotonic() < deadline, "the build behind never ended"
        time.sleep(0.1)
    status, kind, body, headers = site.shelf.page("/download/" + urllib.parse.quote("山门.epub"), None)
    assert status == 200 and body[:2] == b"PK" and "X-Bookbuilder-Stale" not in headers
    assert 'filename="shan-men.epub"' in headers["Content-Disposition"]
    site.stop()
