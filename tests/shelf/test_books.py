"""find_books: what one level down a shelf is a book, and what is not."""

import pytest

from bookbuilder.diagnostics import BookError
from bookbuilder.shelf.books import find_books, is_shelf


def make_shelf(root):
    (root / "project" / "source").mkdir(parents=True)
    (root / "project" / "book.toml").write_text('[book]\ntitle = "甲"\n', "utf-8")
    (root / "project" / "source" / "1.txt").write_text("第一章 开始\n正文。\n", "utf-8")
    (root / "chapters").mkdir()
    (root / "chapters" / "001.txt").write_text("第一章 开始\n正文。\n", "utf-8")
    (root / "whole.txt").write_text("第一章 开始\n正文。\n", "utf-8")
    (root / "whole.book.toml").write_text('[book]\ntitle = "乙"\n', "utf-8")
    (root / "empty").mkdir()  # no chapters: not a book
    (root / "build").mkdir()  # the shelf's own output
    (root / "build" / "x.txt").write_text("x", "utf-8")
    (root / ".git").mkdir()
    (root / "notes.md").write_text("x", "utf-8")
    return root


def test_one_level_down_each_kind_is_a_book(tmp_path):
    books = find_books(make_shelf(tmp_path))
    assert [(b.name, b.kind) for b in books] == [
        ("chapters", "folder"),
        ("project", "project"),
        ("whole", "file"),
    ]
    # .txt files at the top read as a folder book's chapters, until a shelf.toml says it is a shelf
    assert not is_shelf(tmp_path)
    (tmp_path / "shelf.toml").write_text("", "utf-8")
    assert is_shelf(tmp_path)
    (tmp_path / "shelf.toml").unlink()
    (tmp_path / "whole.txt").unlink()
    assert is_shelf(tmp_path)


def test_a_book_is_not_a_shelf(tmp_path):
    make_shelf(tmp_path)
    assert not is_shelf(tmp_path / "project")
    assert not is_shelf(tmp_path / "chapters")
    assert not is_shelf(tmp_path / "whole.txt")


def test_shelf_toml_lists_the_books(tmp_path):
    make_shelf(tmp_path)
    (tmp_path / "shelf.toml").write_text('[shelf]\nbooks = ["whole.txt", "project"]\n', "utf-8")
    assert [b.name for b in find_books(tmp_path)] == ["project", "whole"]


@pytest.mark.parametrize(
    "text, message",
    [('[shelf]\nbooks = ["empty"]\n', "empty is not a book"), ("[shelf\n", "cannot read shelf.toml")],
)
def test_a_wrong_shelf_toml_is_one_error_naming_it(tmp_path, text, message):
    make_shelf(tmp_path)
    (tmp_path / "shelf.toml").write_text(text, "utf-8")
    with pytest.raises(BookError, match=message) as caught:
        find_books(tmp_path)
    assert caught.value.diagnostic.at.path.endswith("shelf.toml")
