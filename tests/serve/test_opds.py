"""serve's shelf (bookbuilder.serve.opds): the OPDS 1.2 feed and the download page, read over HTTP from a
real server on 127.0.0.1; and the handler's LAN rule, driven through the real handler with a
client address of another machine (over a socket pair: nothing is sent over a network)."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import write_book
from test_serve import BOOK, _start, _stop

ATOM = "{http://www.w3.org/2005/Atom}"
TYPES = {".kepub.epub": "application/kepub+zip", ".epub": "application/epub+zip", ".azw3": "application/x-mobi8-ebook",
         ".pdf": "application/pdf"}


@pytest.fixture
def book(tmp_path) -> Path:
    return write_book(tmp_path / "book", BOOK, '[book]\ntitle = "山门"\nauthor = "某人"\ndescription = "一个少年。"\n')


def _get(url: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(url, timeout=120) as answer:
        return answer.headers["Content-Type"], answer.read()


def _type_of(href: str) -> str:
    return next(kind for suffix, kind in TYPES.items() if href.endswith(suffix))


def test_the_opds_feed_is_atom_with_an_acquisition_link_per_format_and_downloads_are_build_s_bytes(book):
    subprocess.run([sys.executable, "-m", "bookbuilder", "epub", str(book)], check=True, capture_output=True, timeout=120)
    built = book / "build" / "山门.epub"
    process, url = _start(book)
    try:
        kind, body = _get(url + "opds")
        assert kind.startswith("application/atom+xml;profile=opds-catalog;kind=acquisition")
        feed = ET.fromstring(body)
        assert feed.tag == f"{ATOM}feed" and feed.find(f"{ATOM}updated") is not None
        assert any(link.get("rel") == "self" for link in feed.findall(f"{ATOM}link"))
        (entry,) = feed.findall(f"{ATOM}entry")
        assert entry.findtext(f"{ATOM}title") == "山门" and entry.findtext(f"{ATOM}author/{ATOM}name") == "某人"
        assert entry.findtext(f"{ATOM}summary") == "一个少年。" and entry.findtext(f"{ATOM}id").startswith("urn:uuid:")
        assert entry.findtext("{http://purl.org/dc/terms/}language") == "zh-Hans"
        links = entry.findall(f"{ATOM}link")
        acquired = {link.get("href"): link for link in links if link.get("rel") == "http://opds-spec.org/acquisition"}
        assert {Path(urllib.parse.unquote(urllib.parse.urlsplit(h).path)).name for h in acquired} >= {"山门.epub", "山门.kepub.epub", "山门.pdf"}
        for href, link in acquired.items():
            assert link.get("type") == _type_of(href), href
        epub = next(link for href, link in acquired.items() if urllib.parse.unquote(href).endswith("/山门.epub"))
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
        kind, again = _get(epub.get("href"))  # older than the source now: built again, into build/
        assert again != data and again == built.read_bytes()
        kepub = next(href for href in acquired if href.endswith(".kepub.epub"))
        assert not (book / "build" / "山门.kepub.epub").exists()
        kind, data = _get(kepub)  # not built yet: built on request, into build/
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


def _ask(handler_class, client: str, request: bytes) -> bytes:
    """One request through the real handler, as if from `client`."""
    ours, theirs = socket.socketpair()
    with ours, theirs:
        ours.sendall(request)
        ours.shutdown(socket.SHUT_WR)
        handler_class(theirs, (client, 50000), None)
        theirs.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := ours.recv(65536):
            answer += chunk
    return answer


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
    here = _ask(handler, "127.0.0.1", get.replace(b"192.168.1.5", b"127.0.0.1"))
    assert b" 200 " in here.split(b"\r\n")[0] and b"<form" in here and b"<svg" in here  # the QR of the LAN address
    assert b"http://192.168.1.5:3000/download" in here
    lan = _ask(handler, "192.168.1.20", get)
    assert b" 200 " in lan.split(b"\r\n")[0] and b"<form" not in lan and site.bench.token.encode() not in lan
    assert b" 200 " in _ask(handler, "192.168.1.20", get.replace(b"GET / ", b"GET /opds ")).split(b"\r\n")[0]

    body = urllib.parse.urlencode({"token": site.bench.token, "action": "not-heading", "at": "002.txt:1",
                                   "expect": "第二章 夜雨", "back": "/"}).encode()
    before = (book / "book.toml").read_bytes()
    for client in ("192.168.1.20", "10.0.0.7"):
        for host in (b"192.168.1.5:3000", b"127.0.0.1:3000"):
            post = (b"POST /correct HTTP/1.1\r\nHost: " + host + b"\r\nOrigin: http://" + host +
                    b"\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " +
                    str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)
            answer = _ask(handler, client, post)
            assert b" 403 " in answer.split(b"\r\n")[0] and b"read-only" in answer
    assert (book / "book.toml").read_bytes() == before


def test_the_lan_address_is_the_one_given():
    from bookbuilder.serve.server import lan_url

    assert lan_url("192.168.1.5", 3000) == "http://192.168.1.5:3000/"
    assert lan_url("fd00::5", 3000) == "http://[fd00::5]:3000/"
