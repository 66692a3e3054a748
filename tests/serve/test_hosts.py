"""Which names serve answers to (bookbuilder.serve.hosts): the rule as a table, then a real server on
127.0.0.1 asked with other Host headers for every kind of request, a real Chromium that resolves a
foreign name to 127.0.0.1 (DNS rebinding, nothing leaves the machine), and --lan with a loopback
--host through the real command."""

from __future__ import annotations

import http.client
import re
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest
from conftest import write_book
from test_serve import BOOK, _start, _stop

from bookbuilder.serve.hosts import allowed_hosts, host_refusal, is_loopback, lan_refusal

LOCAL = allowed_hosts(3000, "127.0.0.1")
LAN = allowed_hosts(3000, "0.0.0.0", "192.168.1.5")


@pytest.mark.parametrize(
    "hosts, values, status",
    [
        (LOCAL, ["127.0.0.1:3000"], None),
        (LOCAL, ["localhost:3000"], None),
        (LOCAL, ["[::1]:3000"], None),
        (LOCAL, ["LOCALHOST:3000"], None),  # a host name has no case (RFC 3986): curl may send it so
        (LOCAL, [" localhost:3000 "], None),  # the spaces around a field's value are not part of it
        (LOCAL, ["localhost:3001"], 421),  # the right name, another port: another server
        (LOCAL, ["localhost"], 421),  # no port is port 80
        (LOCAL, ["localhost.:3000"], 421),  # a trailing dot is another spelling, and the list is exact
        (LOCAL, ["::1:3000"], 421),  # IPv6 without brackets is not a Host
        (LOCAL, ["[::1]"], 421),
        (LOCAL, ["evil.example:3000"], 421),  # DNS rebinding: the page's own name
        (LOCAL, ["127.0.0.1.evil.example:3000"], 421),
        (LOCAL, ["192.168.1.5:3000"], 421),  # the LAN address, not served on 127.0.0.1
        (LOCAL, [], 400),  # no Host at all
        (LOCAL, ["127.0.0.1:3000", "evil.example:3000"], 400),  # two: which?
        (LAN, ["192.168.1.5:3000"], None),  # over the LAN: the address the reader was shown
        (LAN, ["127.0.0.1:3000"], None),  # and this machine's browser still
        (LAN, ["192.168.1.6:3000"], 421),
        (LAN, ["0.0.0.0:3000"], 421),  # "every network" is listened on, never sent to
        (allowed_hosts(80, "127.0.0.1"), ["localhost"], None),  # port 80 goes unsaid
        (allowed_hosts(80, "127.0.0.1"), ["localhost:80"], None),
        (allowed_hosts(3000, "::1"), ["[::1]:3000"], None),
        (allowed_hosts(3000, "fd00::5"), ["[fd00::5]:3000"], None),  # an IPv6 --host, named in brackets
        (allowed_hosts(3000, "FD00::5"), ["[fd00::5]:3000"], None),
    ],
)
def test_which_hosts_are_answered(hosts, values, status):
    refused = host_refusal(values, hosts)
    assert (refused and refused[0]) == status
    if refused:
        assert "127.0.0.1:3000" in refused[1] or "127.0.0.1:80" in refused[1]  # says where to go instead


@pytest.mark.parametrize(
    "host, loopback",
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("localhost", True),
        ("LOCALHOST", True),
        ("localhost.", True),
        ("app.localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.5", False),
        ("fd00::5", False),
        ("mybox.local", False),
        ("localhost.example", False),
    ],
)
def test_which_hosts_are_loopback(host, loopback):
    assert is_loopback(host) == loopback
    assert (lan_refusal(host) is not None) == loopback


def _ask(
    url: str, method: str, path: str, host: str | None, body: bytes | None = None
) -> tuple[int, dict, bytes]:
    """One request to the server at `url` (127.0.0.1) naming `host` (None: no Host header)."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        if host is not None:
            connection.putheader("Host", host)
        if body is not None:
            connection.putheader("Content-Type", "application/x-www-form-urlencoded")
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


@pytest.fixture
def book(tmp_path) -> Path:
    return write_book(tmp_path / "book", BOOK, '[book]\ntitle = "山门"\nauthor = "某人"\n')


def test_every_request_naming_another_host_is_refused_with_nothing_of_the_book(book):
    process, url = _start(book)
    port = urllib.parse.urlsplit(url).port
    here = f"127.0.0.1:{port}"
    try:
        status, _, page = _ask(url, "GET", "/", here)
        assert status == 200 and "山门".encode() in page
        token = re.search(rb'name="token" value="([^"]+)"', page).group(1)
        form = urllib.parse.urlencode(
            {"token": token, "action": "not-heading", "at": "002.txt:1", "expect": "第二章 夜雨", "back": "/"}
        ).encode()
        for host in (f"evil.example:{port}", f"localhost.:{port}", f"127.0.0.1:{port + 1}", None):
            for method, path, body in [
                ("GET", "/", None),
                ("HEAD", "/", None),
                ("GET", "/text/ch00001.html", None),
                ("GET", "/opds", None),
                ("GET", "/download", None),
                ("GET", "/events", None),
                ("GET", "/workbench.js", None),
                ("POST", "/correct", form),
            ]:
                status, headers, answer = _ask(url, method, path, host, body)
                assert status == (400 if host is None else 421), (host, method, path)
                assert headers["Content-Type"] == "text/plain; charset=utf-8"
                assert token not in answer and "山门".encode() not in answer and "少年".encode() not in answer
                assert method == "HEAD" or f"127.0.0.1:{port}".encode() in answer  # where to go instead
        status, headers, _ = _ask(
            url, "GET", f"http://evil.example:{port}/", here
        )  # absolute-form names its host
        assert status == 421
        status, headers, answer = _ask(url, "HEAD", "/", f"LOCALHOST:{port}")
        assert status == 200 and answer == b"" and int(headers["Content-Length"]) == len(page)
        assert b"not-heading" not in (book / "book.toml").read_bytes()  # the refused POSTs wrote nothing
    finally:
        code, said = _stop(process)
    assert code == 0 and "Traceback" not in said, said


def test_in_a_browser_a_page_whose_name_rebinds_to_this_machine_cannot_read_the_book(book):
    """Chromium resolves evil.example to 127.0.0.1 as a rebinding page's name would: it reaches the
    server, which answers with the refusal instead of the book."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--host-resolver-rules=MAP evil.example 127.0.0.1",
    ):
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    browser.set_page_load_timeout(30)
    process, url = _start(book)
    port = urllib.parse.urlsplit(url).port
    try:
        browser.get(url)
        assert "第一章 山门" in browser.page_source  # the same browser, at the right name, reads it
        for path in ("/", "/opds", "/text/ch00001.html"):
            browser.get(f"http://evil.example:{port}{path}")
            text = browser.page_source
            assert "answers only to" in text and "山门" not in text and "token" not in text, path
    finally:
        browser.quit()
        code, said = _stop(process)
    assert code == 0 and "Traceback" not in said, said


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1"])
def test_lan_with_a_loopback_host_is_a_usage_error_that_says_why(book, host):
    result = subprocess.run(
        [sys.executable, "-m", "bookbuilder", "serve", str(book), "--lan", "--host", host, "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert (
        f"{host} is loopback" in result.stderr
        and "drop --host" in result.stderr
        and "LAN address" in result.stderr
    )
    assert "serving" not in result.stderr  # it stopped before building or listening
