import shutil
import socket
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def pytest_addoption(parser):
    parser.addoption(
        "--regen-golden",
        action="store_true",
        help="rewrite the expected files (tests/golden, tests/diagnostics/*/expected.txt; then read them!)",
    )


@pytest.fixture
def regen(request):
    return request.config.getoption("--regen-golden")


@pytest.fixture
def sample_book(tmp_path) -> Path:
    """A copy of the repository's sample book (book.toml, source/, styles/)."""
    root = tmp_path / "sample"
    root.mkdir()
    shutil.copy(REPO / "book.toml", root)
    shutil.copytree(REPO / "source", root / "source")
    shutil.copytree(REPO / "styles", root / "styles")
    return root


def one_file_book(chapters: list[list[str]]):
    """A book of one volume read from one file, f.txt: chapter n (第n章 风起) holds these paragraphs,
    the paragraphs on lines 100·n + i. What the whole-book cleaning passes (repeats) are given."""
    from bookbuilder.model import Book, Chapter, Location, Meta, Paragraph, Volume

    made = tuple(
        Chapter(
            f"第{n}章 风起",
            tuple(Paragraph(t, Location("f.txt", 100 * n + i)) for i, t in enumerate(texts)),
            Location("f.txt", 100 * n),
            n,
        )
        for n, texts in enumerate(chapters, 1)
    )
    return Book(Meta("书", "某某", "zh", "id"), (Volume(None, made),))


def write_book(root: Path, files: dict[str, bytes | str], toml: str | None = None) -> Path:
    """A small book project: files under source/ (str is written as UTF-8)."""
    (root / "source").mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        path = root / "source" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    if toml is not None:
        (root / "book.toml").write_text(toml, "utf-8")
    return root


# The suite's property tests are derandomized (a fixed seed per test) so CI never flakes on a
# new random input; `pytest -m slow` runs the long, random fuzz run that explores further.


@pytest.fixture
def browser():
    """Headless Chromium through Selenium, for the serve tests that click."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def ask_handler(handler_class, client: str, request: bytes) -> bytes:
    """One request through the real handler, as if from `client` (over a socket pair)."""
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


def form_post(path: str, host: bytes, body: bytes) -> bytes:
    """A browser's form POST to `path` on `host` (its Origin the same host), as raw HTTP."""
    return (
        f"POST {path} HTTP/1.1\r\n".encode()
        + b"Host: "
        + host
        + b"\r\nOrigin: http://"
        + host
        + b"\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "
        + str(len(body)).encode()
        + b"\r\nConnection: close\r\n\r\n"
        + body
    )
