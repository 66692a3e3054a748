"""Shelves of small generated books, EPUB only, so that a shelf of a dozen builds in seconds."""

import io
from pathlib import Path

from tests.conftest import write_book

EPUB_ONLY = '[output]\nformats = ["epub"]\n'


def chapters(n: int, chars: int = 3) -> dict[str, str]:
    """Book n's three chapters: text of its own, so no two books are the same."""
    return {
        f"{c}.txt": f"第{'一二三'[c - 1]}章 第{n}本的第{c}章\n" + f"这是第{n}本书的正文，第{c}段。\n" * chars
        for c in range(1, 4)
    }


def add_book(shelf: Path, name: str, n: int, chars: int = 3) -> Path:
    return write_book(shelf / name, chapters(n, chars), f'[book]\ntitle = "书{n}"\n' + EPUB_ONLY)


def make_shelf(shelf: Path, count: int = 12, chars: int = 3) -> list[str]:
    names = [f"book{n:02}" for n in range(1, count + 1)]
    for n, name in enumerate(names, 1):
        add_book(shelf, name, n, chars)
    return names


def break_book(root: Path) -> None:
    """A mistake in book.toml: the book fails with E002 naming the key and its line."""
    (root / "book.toml").write_text('[book]\ntitel = "错"\n' + EPUB_ONLY, "utf-8")


def built(shelf: Path) -> dict[str, bytes]:
    """Every book's file under the shelf's build/ (not the manifest or the catalogue), by its path there."""
    build = shelf / "build"
    return {
        p.relative_to(build).as_posix(): p.read_bytes()
        for p in sorted(build.rglob("*"))
        if p.is_file() and p.parent != build and not p.relative_to(build).as_posix().startswith("catalog.")
    }


def add_long_pdf_book(shelf: Path, chapters: int = 12, per_chunk: int = 4) -> Path:
    """A book whose PDF is laid out in chapters / per_chunk chunks, with a stylesheet of its own
    that imports another, which draws an image of the project: files a document fetches."""
    from PIL import Image

    text = {
        f"{c:02}.txt": f"第{c}章 长夜{c}\n" + f"　　这是第{c}章的正文，风吹过山岗。\n" * 20
        for c in range(1, chapters + 1)
    }
    toml = f'[book]\ntitle = "长书"\n[output]\nformats = ["pdf"]\n[pdf]\nchunk_chapters = {per_chunk}\n'
    root = write_book(shelf / "long", text, toml)
    (root / "styles").mkdir()
    (root / "styles" / "pdf.css").write_text('@import "paper.css";\n', "utf-8")
    (root / "styles" / "paper.css").write_text(
        "h1, h2 { background: url(../img/mark.png) no-repeat; }\n", "utf-8"
    )
    (root / "img").mkdir()
    image = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(image, "PNG")
    (root / "img" / "mark.png").write_bytes(image.getvalue())
    return root


def make_mixed_shelf(shelf: Path) -> list[str]:
    """The shelf the user reported read as one book: two projects (book.toml), two bare folders of
    chapter files and a loose whole novel beside them, the bare ones' settings beside them (EPUB only).
    Returns the books' names."""
    for n, name in enumerate(("甲书", "乙书"), 1):
        add_book(shelf, name, n)
    for n, name in enumerate(("丙书", "丁书"), 3):
        for file, text in chapters(n).items():
            (shelf / name).mkdir(parents=True, exist_ok=True)
            (shelf / name / file).write_text(text, "utf-8")
        (shelf / f"{name}.book.toml").write_text(EPUB_ONLY, "utf-8")
    novel = "戊书\n作者：某某\n\n" + "".join(chapters(5).values())
    (shelf / "戊书.txt").write_text(novel, "utf-8")
    (shelf / "戊书.book.toml").write_text(EPUB_ONLY, "utf-8")
    return ["丁书", "丙书", "乙书", "戊书", "甲书"]
