"""bookbuilder.normalize.by_hand: [[keep]] lines and extra patterns on the cleaned text, read from
book.toml, applied by load_book, and read again by serve's memo only where they change a file."""

from __future__ import annotations

import pytest
from conftest import write_book

from bookbuilder.diagnostics import REMOVED, BookError, removal_parts
from bookbuilder.model import Location, Paragraph
from bookbuilder.normalize.by_hand import Keep, fold, holds, parse_keeps
from bookbuilder.pipeline import load_book

ADVERT = "云端书斋,一键直达"  # glued with a half-width comma, as the download has it
SELECTED = "云端书斋，一键直达"  # as the page shows it, and the user selects it


def chapters(n: int = 5) -> dict[str, str]:
    """n files, each with the advert glued to a sentence and alone on a line, and a pager line."""
    return {
        f"{k:03d}.txt": f"第{k}章 山门\n\n　　少年推开山门,"
        f"门外是一片竹林。{ADVERT}\n\n　　他在竹林里走了很久,才停下来。\n\n"
        f"　　{ADVERT}\n\n　　本章未完，请点击下一页继续阅读\n\n　　天色暗了下来。\n"
        for k in range(1, n + 1)
    }


CLEANED = (
    f'\n[normalize.junk]\nextra = [{{regex = "{SELECTED}", kind = "inline", name = "literal-1", on = '
    '"cleaned"}]\n'
)


def removed(loaded, rule: str) -> list[str]:
    return sorted(str(d.at) for d in loaded.diagnostics if d.code == REMOVED and removal_parts(d)[0] == rule)


def text_of(loaded) -> str:
    return "\n".join(b.text for c in loaded.book.chapters() for b in c.blocks if type(b) is Paragraph)


@pytest.mark.parametrize(
    "a, b, same",
    [
        ("百度云搜索,搜小说就是方便", "百度云搜索，搜小说就是方便", True),  # widths of punctuation
        ("百度云搜索， 搜小说", "百度云搜索，搜小说", True),  # a space beside a mark
        ("ｗｗｗ．ＥＸＡＭＰＬＥ．ｃｏｍ", "www.example.com", True),  # full-width letters, case
        ("www.exаmple.сom", "www.example.com", True),  # Cyrillic а and с for Latin ones
        ("「他说」", "“他说”", True),  # quotes of either style
        ("百度云搜索", "百度云收索", False),  # another character is another text
        ("一键直达", "一健直达", False),
    ],
)
def test_folding_sets_widths_look_alikes_punctuation_and_spaces_aside(a, b, same):
    assert (fold(a) == fold(b)) == same


@pytest.mark.parametrize(
    "line, text, held",
    [
        ("　　少年推开山门,门外是一片竹林。云端书斋,一键直达", "云端书斋，一键直达", True),
        ("　　云端书斋, 一键直达", "云端书斋，一键直达", True),
        ("　　云端书斋,一键", "云端书斋，一键直达", False),  # just outside: the line holds less than the text
        ("　　他在竹林里走了很久。", "云端书斋，一键直达", False),
    ],
)
def test_a_line_holds_a_kept_text_whatever_its_widths(line, text, held):
    assert holds(line, text) == held


@pytest.mark.parametrize(
    "entries, expected",
    [
        ([{"at": "001.txt:7", "text": "广告"}], [Keep(1, 5, "001.txt", 7, "广告")]),
        (
            [{"at": "卷一/001.txt:7", "text": "广告"}, {"at": "novel.txt:12", "text": "x"}],
            [Keep(1, 5, "卷一/001.txt", 7, "广告"), Keep(2, 9, "novel.txt", 12, "x")],
        ),
    ],
)
def test_keep_entries_are_read_with_their_lines_in_book_toml(entries, expected):
    assert list(parse_keeps(entries, "book.toml", lambda i: 1 + 4 * i)) == expected


@pytest.mark.parametrize(
    "entry, message",
    [
        ({"at": "001.txt:7"}, "give at"),  # no text
        ({"text": "广告"}, "give at"),  # no line
        ({"at": "001.txt:7", "text": "广告", "rule": "x"}, "nothing else"),
        ({"at": "001.txt", "text": "广告"}, 'expected "file:line"'),
        ({"at": "001.txt:0", "text": "广告"}, 'expected "file:line"'),
        ({"at": "001.txt:7", "text": "  "}, "the text the line holds"),
    ],
)
def test_a_malformed_keep_is_e003_naming_its_line(entry, message):
    with pytest.raises(BookError, match=message) as e:
        parse_keeps([{"at": "a.txt:1", "text": "ok"}, entry], "book.toml", lambda i: 10 * i)
    assert (e.value.diagnostic.code, e.value.diagnostic.at) == ("E003", Location("book.toml", 20))


def test_text_selected_on_the_page_is_removed_everywhere_though_the_source_has_half_width_commas(tmp_path):
    root = write_book(tmp_path / "b", chapters(), '[book]\ntitle = "山门"\n' + CLEANED)
    loaded = load_book(root)
    assert SELECTED not in text_of(loaded) and ADVERT not in text_of(loaded)
    assert len(removed(loaded, "literal-1")) == 10  # the glued one and the line alone, in each of 5 chapters
    assert "少年推开山门，门外是一片竹林。\n他在竹林里走了很久，才停下来。" in text_of(
        loaded
    )  # the story whole
    assert dict(loaded.book.changes)["junk:literal-1"] == 10  # what `normalize --report` counts


def test_a_kept_line_stays_and_its_rule_removes_every_other(tmp_path):
    toml = (
        '[book]\ntitle = "山门"\n' + CLEANED + '\n[[keep]]\nat = "002.txt:7"\ntext = "云端书斋，一键直达"\n'
        '\n[[keep]]\nat = "003.txt:9"\ntext = "本章未完，请点击下一页继续阅读"\n'
    )
    loaded = load_book(write_book(tmp_path / "b", chapters(), toml))
    assert len(removed(loaded, "literal-1")) == 9 and not any(
        at.endswith("002.txt:7") for at in removed(loaded, "literal-1")
    )
    assert len(removed(loaded, "next-page")) == 4 and not any(
        at.endswith("003.txt:9") for at in removed(loaded, "next-page")
    )
    second, third = list(loaded.book.chapters())[1:3]
    assert SELECTED in [b.text for b in second.blocks] and "本章未完，请点击下一页继续阅读" in [
        b.text for b in third.blocks
    ]


@pytest.mark.parametrize(
    "keep, line",
    [
        ('at = "002.txt:5"\ntext = "云端书斋，一键直达"', 8),  # the line reads something else now
        ('at = "002.txt:70"\ntext = "云端书斋，一键直达"', 8),  # the file has no such line
        ('at = "009.txt:7"\ntext = "云端书斋，一键直达"', 8),  # no such file
    ],
)
def test_a_keep_whose_line_no_longer_holds_its_text_is_e009_naming_its_entry(tmp_path, keep, line):
    toml = (
        '[book]\ntitle = "山门"\n\n[[keep]]\nat = "001.txt:7"\ntext = "云端书斋，一键直达"\n\n[[keep]]\n'
        + keep
        + "\n"
    )
    with pytest.raises(BookError, match=r"\[\[keep\]\] #2 .*no longer holds") as e:
        load_book(write_book(tmp_path / "b", chapters(), toml))
    assert (e.value.diagnostic.code, e.value.diagnostic.at.line) == ("E009", line)


def test_a_correction_reads_again_only_the_files_it_names_and_builds_what_a_fresh_load_builds(tmp_path):
    root = write_book(tmp_path / "b", chapters(), '[book]\ntitle = "山门"\n')
    memo: dict = {}
    load_book(root, jobs=1, memo=memo)
    for added, read in [
        ('\n[[fix]]\nat = "004.txt:1"\nrename = "第4章 归来"\n', 1),
        ('\n[[keep]]\nat = "002.txt:9"\ntext = "本章未完，请点击下一页继续阅读"\n', 1),
        (CLEANED, 0),
    ]:
        (root / "book.toml").write_text((root / "book.toml").read_text("utf-8") + added, "utf-8")
        again = load_book(root, jobs=1, memo=memo)
        assert memo["read"] == read, added
        fresh = load_book(root, jobs=1)
        assert (again.book, again.diagnostics) == (fresh.book, fresh.diagnostics)
    assert [c.title for c in again.book.chapters()][3] == "第4章 归来" and len(
        removed(again, "literal-1")
    ) == 10


def test_a_kept_line_stays_where_the_whole_book_s_repeats_take_the_others(tmp_path):
    """A site's sentence repeated through the book (normalize.repeats) is kept on one line alone."""
    template = "百度云搜索,搜小说就是方便"
    files = {
        f"{k:03d}.txt": f"第{k}章 山门\n\n　　少年推开山门,门外是一片竹林。{template}\n\n　　天色暗了下来。\n"
        for k in range(1, 5)
    }
    root = write_book(tmp_path / "b", files, '[book]\ntitle = "山门"\n')
    assert len(removed(load_book(root), "repeated-template")) == 4
    (root / "book.toml").write_text(
        '[book]\ntitle = "山门"\n\n[[keep]]\nat = "003.txt:3"\ntext = "百度云搜索，搜小说就是方便"\n', "utf-8"
    )
    loaded = load_book(root)
    assert len(removed(loaded, "repeated-template")) == 3 and not any(
        a.endswith("003.txt:3") for a in removed(loaded, "repeated-template")
    )
    assert "少年推开山门，门外是一片竹林。百度云搜索，搜小说就是方便" in text_of(loaded)


def test_an_extra_pattern_on_neither_the_source_nor_the_cleaned_text_is_e003(tmp_path):
    toml = '[normalize.junk]\nextra = [{regex = "广告", on = "page"}]\n'
    with pytest.raises(BookError, match="normalize.junk.extra") as e:
        load_book(write_book(tmp_path / "b", chapters(1), toml))
    assert e.value.diagnostic.code == "E003"


def test_a_whole_novel_reads_its_headings_again_only_for_a_fix_and_builds_what_a_fresh_load_builds(tmp_path):
    root, toml = tmp_path / "novel.txt", tmp_path / "novel.book.toml"  # a bare .txt and its settings
    root.write_text("\n".join(chapters().values()), "utf-8")
    toml.write_text('[book]\ntitle = "山门"\n', "utf-8")
    memo: dict = {}
    load_book(root, jobs=1, memo=memo)
    for added, read in [
        ('\n[[keep]]\nat = "novel.txt:21"\ntext = "本章未完，请点击下一页继续阅读"\n', 0),
        ('\n[[fix]]\nat = "novel.txt:25"\nrename = "第3章 归来"\n', 1),
        (CLEANED, 0),
    ]:
        toml.write_text(toml.read_text("utf-8") + added, "utf-8")
        again = load_book(root, jobs=1, memo=memo)
        assert memo["read"] == read, added
        fresh = load_book(root, jobs=1)
        assert (again.book, again.diagnostics) == (fresh.book, fresh.diagnostics)
    assert [c.title for c in again.book.chapters()][2] == "第3章 归来" and len(
        removed(again, "literal-1")
    ) == 10
    assert len(removed(again, "next-page")) == 4


def test_a_lost_character_stays_reported_when_patterns_clean_the_chapter_again(tmp_path):
    """W204 (a character the site could not encode, shown as 〓) is the cleaning's own finding: a
    book.toml pattern on the cleaned text cleans the chapter again and keeps it, as it keeps the
    removals."""
    files = chapters(1)
    files["001.txt"] += "　　宝玉道：“也别逼<bzhlm2_006bz>紧了他。”\n"
    plain = load_book(write_book(tmp_path / "plain", files, "[book]\ntitle = '书'\n"))
    again = load_book(write_book(tmp_path / "again", files, "[book]\ntitle = '书'\n" + CLEANED))
    assert ADVERT not in text_of(again) and "逼〓紧" in text_of(again)
    assert [d.code for d in plain.diagnostics if d.code == "W204"] == ["W204"]
    assert [d.code for d in again.diagnostics if d.code == "W204"] == ["W204"]


def test_two_scene_breaks_a_removal_leaves_side_by_side_become_one():
    import re

    from bookbuilder.model import Chapter, SceneBreak
    from bookbuilder.normalize.by_hand import after_cleaning
    from bookbuilder.normalize.junk import JunkPattern

    def at(n):
        return Location("f.txt", n)

    pattern = (JunkPattern("literal-1", re.compile("本站网址：www.example.com"), strong=False, kind="line"),)
    blocks = (
        Paragraph("他走了。", at(1)),
        SceneBreak(at(3)),
        Paragraph("本站网址：www.example.com", at(5)),
        SceneBreak(at(7)),
        Paragraph("天亮了。", at(9)),
        SceneBreak(at(11)),
        SceneBreak(at(13)),  # two breaks the source has side by side: no removal's doing, left alone
        Paragraph("他回来了。", at(15)),
    )
    chapter, _, removed = after_cleaning(Chapter("第一章", blocks, at(0)), pattern, ())
    assert [b.at.line for b in chapter.blocks] == [1, 3, 9, 11, 13, 15]
    assert [removal_parts(d)[1] for d in removed] == ["本站网址：www.example.com"]
