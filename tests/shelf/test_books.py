"""find_books and read_folder: what one level down a shelf is a book, and whether a folder is a
shelf or one book (said in one line where only its contents decided)."""

import pytest
from click.testing import CliRunner

from bookbuilder.cli import main
from bookbuilder.diagnostics import BookError
from bookbuilder.shelf.books import find_books, is_shelf, read_folder

EPUB_ONLY = '[output]\nformats = ["epub"]\n'
ONE_CHAPTER = "第一章 开始\n正文。\n"
NOVEL = "第一章 开始\n正文。\n第二章 结束\n完。\n"  # more than one chapter: a whole novel
# a novel headed by bare numbers, as the heading passes read it
BARE_NOVEL = "".join(
    f"{n}　{t}\n\n　　{t}的正文。\n\n" for n, t in zip("一二三", ("青衫磊落", "玉壁月华", "马疾香幽"))
)


def make_shelf(root):
    (root / "project" / "source").mkdir(parents=True)
    (root / "project" / "book.toml").write_text('[book]\ntitle = "甲"\n', "utf-8")
    (root / "project" / "source" / "1.txt").write_text(ONE_CHAPTER, "utf-8")
    (root / "chapters").mkdir()
    (root / "chapters" / "001.txt").write_text(ONE_CHAPTER, "utf-8")
    (root / "volumes" / "第一卷").mkdir(parents=True)  # a bare book of volume folders
    (root / "volumes" / "第一卷" / "001.txt").write_text(ONE_CHAPTER, "utf-8")
    (root / "whole.txt").write_text(NOVEL, "utf-8")
    (root / "whole.book.toml").write_text('[book]\ntitle = "乙"\n', "utf-8")
    (root / "empty").mkdir()  # no chapters: not a book
    (root / "build").mkdir()  # the shelf's own output
    (root / "build" / "x.txt").write_text("x", "utf-8")
    (root / ".git").mkdir()
    (root / "notes.md").write_text("x", "utf-8")
    return root


def test_a_folder_below_with_book_toml_makes_a_shelf_of_every_book_beside_it(tmp_path):
    """The reported shelf: a project beside bare chapter folders and a loose whole novel was read as
    one book of the loose file and the folders. A book's volume folders never hold a book.toml, so
    it is a shelf, and no guess is said."""
    books = find_books(make_shelf(tmp_path))
    assert [(b.name, b.kind) for b in books] == [
        ("chapters", "folder"),
        ("project", "project"),
        ("volumes", "folder"),
        ("whole", "file"),
    ]
    assert read_folder(tmp_path) == read_folder(tmp_path).__class__(True, "")
    (tmp_path / "whole.txt").write_text(ONE_CHAPTER, "utf-8")  # what the loose file holds is not asked
    assert read_folder(tmp_path).shelf and not read_folder(tmp_path).note


def test_a_book_is_not_a_shelf(tmp_path):
    make_shelf(tmp_path)
    assert not is_shelf(tmp_path / "project")
    assert not is_shelf(tmp_path / "chapters")
    assert not is_shelf(tmp_path / "volumes")
    assert not is_shelf(tmp_path / "whole.txt")


def _write(root, files: dict[str, str]):
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, "utf-8")
    return root


@pytest.mark.parametrize(
    "files, shelf, says",
    [
        ({"001.txt": ONE_CHAPTER, "002.txt": ONE_CHAPTER, "简介.txt": NOVEL}, False, ""),
        ({"甲.txt": NOVEL, "乙.txt": NOVEL}, False, "if each is a novel of its own, write a shelf.toml"),
        ({"第一卷/1.txt": ONE_CHAPTER, "02_第二卷 风起/1.txt": ONE_CHAPTER}, False, "write a shelf.toml"),
        ({"仙逆/1.txt": ONE_CHAPTER, "星辰变/1.txt": ONE_CHAPTER}, True, "write books.book.toml beside it"),
        ({"仙逆/1.txt": ONE_CHAPTER, "遮天.txt": NOVEL}, True, "遮天.txt holds a novel of its own"),
        ({"仙逆/1.txt": ONE_CHAPTER, "天龙八部.txt": BARE_NOVEL}, True, "天龙八部.txt holds a novel"),
        ({"第一卷/1.txt": ONE_CHAPTER, "序.txt": ONE_CHAPTER}, False, "its .txt files chapters"),
        ({"仙逆/1.txt": ONE_CHAPTER, "shelf.toml": ""}, True, ""),
        ({"第一卷/1.txt": ONE_CHAPTER, "../books.book.toml": ""}, False, ""),
        ({"仙逆/1.txt": ONE_CHAPTER, "../books.book.toml": ""}, False, ""),
    ],
)
def test_a_folder_no_settings_file_speaks_for_is_read_by_its_contents_and_says_so(
    tmp_path, files, shelf, says
):
    root = tmp_path / "books"
    root.mkdir()
    reading = read_folder(_write(root, files))
    assert reading.shelf == shelf
    assert (says in reading.note) if says else reading.note == ""
    assert "\n" not in reading.note


def test_the_build_command_says_how_it_read_a_folder_in_one_line(tmp_path):
    root = _write(tmp_path / "books", {"第一卷/1.txt": ONE_CHAPTER, "第二卷/2.txt": "第二章 结束\n完。\n"})
    (tmp_path / "books.book.toml").write_text(EPUB_ONLY, "utf-8")
    done = CliRunner().invoke(main, ["-q", "build", str(root), "-j", "1"])
    assert done.exit_code == 0 and "read as" not in done.output  # its settings say it is one book
    assert (tmp_path / "build" / "books.epub").is_file()
    (tmp_path / "books.book.toml").unlink()
    _write(root, {"星辰变/1.txt": ONE_CHAPTER})  # a folder not named as a volume: read as a shelf
    for book in ("星辰变", "第一卷", "第二卷"):
        (root / f"{book}.book.toml").write_text(EPUB_ONLY, "utf-8")
    done = CliRunner().invoke(main, ["-q", "build", str(root), "-j", "1"])
    assert done.output.splitlines()[0] == (
        f"{root}: read as a shelf of 3 books, a folder each (星辰变, 第一卷, …);"
        " if they are one book's volumes, write books.book.toml beside it"
    )
    assert done.exit_code == 0 and sorted(p.name for p in (root / "build").iterdir() if p.is_dir()) == [
        "catalog.opds",
        "星辰变",
        "第一卷",
        "第二卷",
    ]


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
