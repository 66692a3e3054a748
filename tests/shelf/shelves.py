"""Shelves of small generated books, EPUB only, so that a shelf of a dozen builds in seconds."""

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
