"""Stable document names (bookbuilder.render.names): a serialized novel rebuilt with chapters
inserted, appended or renamed keeps every other chapter's EPUB document and PDF anchor."""

import re
import zipfile

import pytest

from bookbuilder.pipeline import build, load_book
from bookbuilder.render.names import document_names
from bookbuilder.render.pdf_documents import entries
from tests.conftest import write_book


def _files(numbers):
    return {f"{n:03d}.txt": f"第{n}章 标题{n}\n正文{n}。" for n in numbers}


def _spine(path):
    with zipfile.ZipFile(path) as z:
        opf = z.read("EPUB/content.opf").decode()
        return re.findall(r'<itemref idref="([^"]+)"', opf), re.search(
            r"<dc:identifier[^>]*>([^<]+)<", opf
        ).group(1)


def _names(root, toml=""):
    loaded = load_book(write_book(root, {}, toml))
    return dict(zip((c.title for c in loaded.book.chapters()), document_names(loaded.book)[0])), loaded


def test_inserting_and_appending_chapters_renames_no_other(tmp_path):
    root = write_book(tmp_path / "b", _files([1, 2, 4, 5]), '[book]\ntitle = "连载"\n')
    before, loaded = _names(root, '[book]\ntitle = "连载"\n')
    spine_before, identifier = _spine(build(loaded, "epub")[0])
    write_book(root, _files([3, 6]))  # chapter 3 arrives late, chapter 6 is new
    after, loaded = _names(root, '[book]\ntitle = "连载"\n')
    spine_after, identifier_after = _spine(build(loaded, "epub")[0])
    assert all(after[title] == name for title, name in before.items())
    assert after["第3章 标题3"] == "ch00003" and after["第6章 标题6"] == "ch00006"
    assert [i for i in spine_after if i not in ("ch00003", "ch00006")] == spine_before
    assert identifier_after == identifier
    assert [e.anchor for e in entries(loaded.book)] == [
        after[c.title] for c in loaded.book.chapters()
    ]  # the PDF's too


def test_a_fix_that_renames_a_chapter_keeps_its_name(tmp_path):
    root = write_book(tmp_path / "b", _files([1, 2, 3]), "")
    before, _ = _names(root, "")
    after, _ = _names(root, '[[fix]]\ntitle = "第2章 标题2"\nrename = "第2章 新的标题"\n')
    assert after["第2章 新的标题"] == before["第2章 标题2"] == "ch00002"


def test_unnumbered_parts_volumes_and_repeats_get_deterministic_names(tmp_path):
    files = {
        "第一卷 潜龙/000.txt": "楔子\n很久以前。",
        "第一卷 潜龙/001.txt": "第1章 甲\n正文。",
        "第一卷 潜龙/002.txt": "第1章 甲\n误印的重复。",
        "第二卷 飞龙/003.txt": "第1章 乙\n正文。",
        "番外/004.txt": "番外一 丙\n正文。",
    }
    root = write_book(tmp_path / "b", files, "")
    loaded = load_book(root)
    chapters, volumes = document_names(loaded.book)
    by_volume = dict(zip((v.title for v in loaded.book.volumes), volumes))
    assert by_volume["第一卷 潜龙"] == "part001" and by_volume["第二卷 飞龙"] == "part002"
    assert re.fullmatch(r"part-[0-9a-f]{8}", by_volume["番外"])
    named = list(zip((c.title for c in loaded.book.chapters()), chapters))
    assert [n for t, n in named if t.startswith("第1章")] == [
        "v001-ch00001",
        "v001-ch00001.2",
        "v002-ch00001",
    ]
    assert re.fullmatch(r"v001-front-[0-9a-f]{8}", dict(named)["楔子"])
    assert document_names(load_book(root).book) == (chapters, volumes)  # the same on every build
    seasons = write_book(
        tmp_path / "s",
        {
            "第一季 第一卷 甲/1.txt": "第1章 一\n正文。",
            "第一季 第二卷 乙/2.txt": "第1章 二\n正文。",
            "第二季 第一卷 丙/3.txt": "第1章 三\n正文。",
        },
        "",
    )
    assert document_names(load_book(seasons).book) == (
        ["v001-001-ch00001", "v001-002-ch00001", "v002-001-ch00001"],
        ["part001-001", "part001-002", "part002-001"],
    )
    assert all(re.fullmatch(r"[A-Za-z][\w.-]*", n) for n in chapters + [v for v in volumes if v])  # XML ids


# ---- the book's file names -------------------------------------------------------------------


@pytest.mark.parametrize(
    "title, stem",
    [
        ("仙逆", "仙逆"),
        ("天涯客:某甲之歌", "天涯客：某甲之歌"),  # what file systems refuse, in its full-width form
        ("龙/虎", "龙／虎"),
        ('问?答*"引"<左>|右\\', "问？答＊＂引＂＜左＞｜右＼"),
        ("  .仙逆.  ", "仙逆"),  # no hidden file, no trailing dot (Windows drops it)
        ("仙\u200b逆\x07", "仙逆"),  # control and format characters (zero-width space, a bell)
        ("Re:从零开始", "Re：从零开始"),
        ("斗破苍穹2", "斗破苍穹2"),  # not "2", what an ASCII slug of it was
        ("The Art of War", "the-art-of-war"),  # an ASCII title keeps its slug
    ],
)
def test_file_stem_of_a_title(title, stem):
    from bookbuilder.render.names import file_stem

    assert file_stem(title) == stem


@pytest.mark.parametrize(
    "title, stem",
    [
        ("仙道第一小白脸", "xian-dao-di-yi-xiao-bai-lian"),  # a syllable apart: readable, as a slug is
        ("重生之都市修仙", "chong-sheng-zhi-du-shi-xiu-xian"),  # 重 read as in 重生 (chong), not zhong
        ("绿茶", "lv-cha"),  # ü as v, as file names and keyboards write it
        ("斗破苍穹２", "dou-po-cang-qiong-2"),  # a full-width digit is a digit
        ("第1.5卷 The End", "di-1-5-juan-the-end"),  # English kept, the dot a dash
        ("Café", "cafe"),  # an accent dropped, the letter kept
        ("《》", ""),  # nothing to spell: the caller names it
        ("山" * 41, "-".join(["shan"] * 40)),  # 204 characters: cut between syllables, to 200 at most
        ("山" * 40, "-".join(["shan"] * 40)),  # 199: whole
    ],
)
def test_ascii_stem_of_a_title(title, stem):
    from bookbuilder.render.names import ascii_stem

    assert ascii_stem(title) == stem


def test_spelling_a_title_leaves_pypinyin_as_cleaning_uses_it():
    """normalize.clean reads a site's name against its domain with pypinyin loaded without its phrase
    table; naming a file first must not load it (what cleaning removes would depend on it)."""
    import subprocess
    import sys

    script = (
        "from bookbuilder.render.names import ascii_stem; assert ascii_stem('重生') == 'chong-sheng'; "
        "import pypinyin.constants; print(len(pypinyin.constants.PHRASES_DICT))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        env={k: v for k, v in __import__("os").environ.items() if k != "PYPINYIN_NO_PHRASES"},
    )
    assert done.returncode == 0 and done.stdout.strip() == "0", done.stderr


def test_a_long_title_is_cut_to_what_a_file_system_takes():
    from bookbuilder.render.names import file_stem

    stem = file_stem("长" * 200)
    assert len((stem + "-12.kepub.epub").encode("utf-8")) <= 255 and stem == "长" * len(stem)


def test_a_chinese_title_names_the_files_and_output_name_wins(tmp_path):
    from bookbuilder.pipeline import _artifacts

    root = write_book(tmp_path / "b", _files([1, 2]), '[book]\ntitle = "仙逆"\n')
    assert {path.name for _, path in _artifacts(load_book(root))} == {
        "仙逆.epub",
        "仙逆.pdf",
        "仙逆.kepub.epub",
        "仙逆.azw3",
    }
    assert build(load_book(root), "epub")[0] == root / "build" / "仙逆.epub"
    assert build(load_book(root), "kepub")[0] == root / "build" / "仙逆.kepub.epub"
    slashed = write_book(tmp_path / "c", _files([1, 2]), '[book]\ntitle = "上/下:合集"\n')
    path = build(load_book(slashed), "epub")[0]
    assert path == slashed / "build" / "上／下：合集.epub" and path.is_file()
    named = write_book(tmp_path / "d", _files([1, 2]), '[book]\ntitle = "仙逆"\n[output]\nname = "xianni"\n')
    assert build(load_book(named), "epub")[0] == named / "build" / "xianni.epub"
