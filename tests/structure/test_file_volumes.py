"""A volume before a chapter that a file's name titles (book.toml's [[volume]], issue 51): the
volume opens before the file it names, its chapter keeps its own title and every line, a later
entry ends it; on a bare folder and on a project whose source is a folder (with sub-folders); a
bad entry is one line naming the settings file and the entry, exit 1."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from bookbuilder.cli import main
from bookbuilder.diagnostics import BookError
from bookbuilder.model import Paragraph
from bookbuilder.pipeline import load_book
from tests.conftest import write_book

NAMES = ["山门", "夜雨", "归来", "远行", "重逢"]


def _story(k: int) -> str:
    """A file of the story alone: its name titles it."""
    return f"　　第{k}天，少年推开山门，门外是一片竹林。\n\n　　他在竹林里走了很久，才回到家中。\n"


def _folder(root: Path) -> Path:
    root.mkdir(parents=True)
    for k, name in enumerate(NAMES, 1):
        (root / f"{k:03} {name}.txt").write_text(_story(k), "utf-8")
    return root


def _settings(folder: Path, text: str) -> None:
    (folder.parent / f"{folder.name}.book.toml").write_text(text, "utf-8")


def _volume(before: str, title: str) -> str:
    return f'[[volume]]\nbefore = "{before}"\ntitle = "{title}"\n\n'


def contents(book) -> list[tuple[str | None, str]]:
    return [(v.title, c.title) for v in book.volumes for c in v.chapters]


def story(book) -> list[tuple[str, int, str]]:
    return [
        (Path(b.at.path).name, b.at.line, b.text)
        for c in book.chapters()
        for b in c.blocks
        if type(b) is Paragraph
    ]


def test_a_volume_starts_before_the_third_of_five_files_and_every_line_stays(tmp_path):
    folder = _folder(tmp_path / "山门")
    before = load_book(folder, 1).book
    assert [v.title for v in before.volumes] == [None]
    _settings(folder, _volume("003 归来.txt", "第二卷 风雨"))
    after = load_book(folder, 1).book
    assert contents(after) == [
        (None, "山门"),
        (None, "夜雨"),
        ("第二卷 风雨", "归来"),
        ("第二卷 风雨", "远行"),
        ("第二卷 风雨", "重逢"),
    ]
    assert story(after) == story(before)  # the chapter keeps its first line: it is no heading
    assert [c.title for c in after.chapters()] == [c.title for c in before.chapters()]


def test_two_volumes_the_later_ends_the_earlier(tmp_path):
    folder = _folder(tmp_path / "山门")
    before = load_book(folder, 1).book
    _settings(folder, _volume("004 远行.txt", "第二卷 远方") + _volume("001 山门.txt", "第一卷 少年"))
    after = load_book(folder, 1).book
    assert [(v.title, [c.title for c in v.chapters]) for v in after.volumes] == [
        ("第一卷 少年", ["山门", "夜雨", "归来"]),
        ("第二卷 远方", ["远行", "重逢"]),
    ]
    assert story(after) == story(before)


def test_an_entry_opens_its_volume_even_where_one_of_its_name_is_open(tmp_path):
    """A volume heading named again (on a chapter's line, a page header) joins the open volume; an
    entry the user wrote is a volume of its own, whatever its title."""
    folder = _folder(tmp_path / "山门")
    _settings(folder, _volume("002 夜雨.txt", "第一卷 上") + _volume("004 远行.txt", "第一卷 下"))
    assert [(v.title, len(v.chapters)) for v in load_book(folder, 1).book.volumes] == [
        (None, 1),
        ("第一卷 上", 2),
        ("第一卷 下", 2),
    ]


def test_in_a_project_whose_source_has_volume_folders(tmp_path):
    """Before a folder's first file the entry names that folder's volume; before a later one it
    opens a volume the folder's next files join, until the next folder's."""
    files = {f"第一部/{k:03} {name}.txt": _story(k) for k, name in enumerate(NAMES[:3], 1)}
    files |= {f"第二部/{k:03} {name}.txt": _story(k) for k, name in enumerate(NAMES[3:], 4)}
    toml = '[book]\ntitle = "山门"\n\n'
    root = write_book(tmp_path / "b", files, toml)
    before = load_book(root, 1).book
    assert [v.title for v in before.volumes] == ["第一部", "第二部"]
    (root / "book.toml").write_text(
        toml + _volume("第一部/002 夜雨.txt", "夜雨之卷") + _volume("第二部/004 远行.txt", "第二部 远行"),
        "utf-8",
    )
    after = load_book(root, 1).book
    assert [(v.title, [c.title for c in v.chapters]) for v in after.volumes] == [
        ("第一部", ["山门"]),
        ("夜雨之卷", ["夜雨", "归来"]),
        ("第二部 远行", ["远行", "重逢"]),
    ]
    assert story(after) == story(before)


@pytest.mark.parametrize(
    "entry, code, said",
    [
        (
            _volume("009 无.txt", "第二卷"),
            "E009",
            "[[volume]] #1 (before = '009 无.txt') names no chapter file",
        ),
        (
            _volume("003 归来.txt", " "),
            "E003",
            "[[volume]] #1 (before = '003 归来.txt'): give the volume a title",
        ),
        ('[[volume]]\ntitle = "第二卷"\n', "E003", '[[volume]] #1: give before = "file.txt"'),
        (
            _volume("003 归来.txt", "第二卷\\u0007"),
            "E003",
            "[[volume]] #1: title = '第二卷\\x07' holds a control",
        ),
        (
            '[[volume]]\nat = "003 归来.txt:1"\ntitle = "第二卷"\n',
            "E003",
            "[[volume]] #1: unknown key(s) ['at']",
        ),
        (
            _volume("003 归来.txt", "第二卷") + _volume("003 归来.txt", "第三卷"),
            "E003",
            "[[volume]] #2: '003 归来.txt' has a volume before it already (#1)",
        ),
    ],
)
def test_a_bad_entry_names_the_settings_file_and_the_entry(tmp_path, entry, code, said):
    folder = _folder(tmp_path / "山门")
    text = '[book]\ntitle = "山门"\n\n' + entry
    _settings(folder, text)
    with pytest.raises(BookError) as raised:
        load_book(folder, 1)
    d = raised.value.diagnostic
    named = int(re.search(r"#(\d+)", said).group(1))  # the entry the message names: its header's line
    header = [n for n, line in enumerate(text.splitlines(), 1) if line == "[[volume]]"][named - 1]
    assert (d.code, d.at.path, d.at.line) == (code, str(tmp_path / "山门.book.toml"), header)
    assert said in d.message


def test_beside_a_whole_novel_it_points_to_a_fix_at_a_line(tmp_path):
    novel = tmp_path / "山门.txt"
    novel.write_text("第一章 山门\n" + _story(1) + "第二章 夜雨\n" + _story(2), "utf-8")
    (tmp_path / "山门.book.toml").write_text(_volume("山门.txt", "第二卷"), "utf-8")
    with pytest.raises(BookError) as raised:
        load_book(novel, 1)
    assert raised.value.diagnostic.code == "E003"
    assert '[[fix]] at = "山门.txt:<line>" with as = "volume"' in raised.value.diagnostic.message


def test_toc_and_the_epub_show_the_volume(tmp_path):
    from tests.render.test_epub import assert_epubcheck_clean

    folder = _folder(tmp_path / "山门")
    _settings(folder, _volume("003 归来.txt", "第二卷 风雨"))
    toc = CliRunner().invoke(main, ["toc", str(folder)])
    assert toc.exit_code == 0, toc.output
    lines = toc.output.splitlines()
    assert lines[2] == "第二卷 风雨" and "归来" in lines[3] and lines[3].startswith("  ")
    done = CliRunner().invoke(main, ["-q", "epub", str(folder)])
    assert done.exit_code == 0, done.output
    (epub,) = (tmp_path / "build").glob("*.epub")
    with zipfile.ZipFile(epub) as z:
        nav = next(z.read(n).decode("utf-8") for n in z.namelist() if n.endswith("nav.xhtml"))
        texts = "".join(z.read(n).decode("utf-8") for n in z.namelist() if n.endswith(".xhtml"))
    shown = re.sub(r"<[^>]+>", " ", nav)
    assert shown.index("夜雨") < shown.index("第二卷 风雨") < shown.index("归来")
    assert "第3天，少年推开山门" in texts  # the chapter's first line is still its text
    assert_epubcheck_clean(epub)


def test_a_bad_entry_is_one_line_and_exit_1_and_the_built_book_stays(tmp_path):
    folder = _folder(tmp_path / "山门")
    assert CliRunner().invoke(main, ["-q", "epub", str(folder)]).exit_code == 0
    (epub,) = (tmp_path / "build").glob("*.epub")
    built = epub.read_bytes()
    _settings(folder, _volume("003 归来.txt", "第二卷") + _volume("006 无.txt", "第三卷"))
    for command in ("epub", "toc"):
        done = CliRunner().invoke(main, [command, str(folder)])
        assert done.exit_code == 1, done.output
        assert done.stderr.splitlines() == [
            f"{tmp_path / '山门.book.toml'}:5: error E009: [[volume]] #2 (before = '006 无.txt') names no "
            "chapter file of the book (a file of 山门 named from it: 0012.txt, or part1/0012.txt in a "
            "sub-folder)"
        ]
    assert epub.read_bytes() == built
