"""bookbuilder.serve.corrections: each workbench correction as the book.toml entry a person would write,
the rest of the file untouched, and undo back to the file as it was; the sidecar settings file
of a bare .txt or folder (config.sidecar_path)."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomlkit

from bookbuilder.config import load_config, sidecar_path
from bookbuilder.diagnostics import BookError
from bookbuilder.serve import corrections
from bookbuilder.serve.corrections import Refused

BUILTIN = {"next-page", "remember-site"}
STARTS = [
    "",
    '# my book\n[book]\ntitle = "山门"   # the title\nauthor = "某人"\n\n# cleaning\n[normalize]\nellipsis = '
    "false\n",
    '[book]\ntitle = "x"\n\n[[fix]]\ntitle = "第九章"  # mine\nas = "text"\n',
    '[normalize.junk]\ndisable = ["remember-site"]  # a banner of my own\nenable = '
    '["tail-ad"]\n\n[epub]\nvertical = false\n',
]
CORRECTIONS = [  # (what the page asks, what book.toml then says)
    (
        lambda doc: corrections.add_fix(doc, "novel.txt:9", **{"as": "text"}),
        '[[fix]]\nat = "novel.txt:9"\nas = "text"\n',
    ),
    (
        lambda doc: corrections.add_fix(doc, "novel.txt:9", rename="第九章 归途"),
        'at = "novel.txt:9"\nrename = "第九章 归途"\n',
    ),
    (
        lambda doc: corrections.add_fix(doc, "卷一/003.txt:1", **{"as": "volume"}),
        'at = "卷一/003.txt:1"\nas = "volume"\n',
    ),
    (lambda doc: corrections.keep(doc, "next-page", BUILTIN), '"next-page"]'),
    (
        lambda doc: corrections.remove_everywhere(doc, corrections.removal_pattern(" 一秒记住.com ")),
        '{regex = "一秒记住\\\\.com", kind = "inline", name = "literal-1", on = "cleaned"}',
    ),
    (
        lambda doc: corrections.remove_everywhere(
            doc, corrections.removal_pattern(regex="^求月票.{0,6}$"), "line"
        ),
        '{regex = "^求月票.{0,6}$", kind = "line", name = "literal-1", on = "cleaned"}',
    ),
    (
        lambda doc: corrections.add_keep(doc, "novel.txt:7", "云端书斋，一键直达"),
        '[[keep]]\nat = "novel.txt:7"\ntext = "云端书斋，一键直达"\n',
    ),
]


@pytest.mark.parametrize("start", STARTS)
@pytest.mark.parametrize("make, written", CORRECTIONS)
def test_a_correction_adds_its_entry_and_undo_gives_back_the_file_as_it_was(start, make, written):
    doc = tomlkit.parse(start)
    before = corrections.in_force(doc)
    make(doc)
    text = tomlkit.dumps(doc)
    assert written in text
    kept = text.splitlines()
    for line in start.splitlines():  # comments and layout kept; a list the entry joins keeps its comment
        assert line in kept or any(
            k.startswith(line.split("[")[0]) and written in k and "#" in k for k in kept
        ), line
    added = [c for c in corrections.in_force(tomlkit.parse(text)) if c not in before]
    assert len(added) == 1 or "remember-site" in start  # …except where the file already had that entry
    again = tomlkit.parse(text)
    for c in added:
        corrections.undo(again, c.kind, c.index, c.says)
    assert tomlkit.dumps(again).rstrip("\n") == start.rstrip("\n")


def test_a_second_correction_of_a_line_changes_its_one_entry():
    doc = tomlkit.document()
    corrections.add_fix(doc, "novel.txt:15", rename="第三章 归途")
    corrections.add_fix(doc, "novel.txt:15", **{"as": "volume"})
    assert tomlkit.dumps(doc) == '[[fix]]\nat = "novel.txt:15"\nrename = "第三章 归途"\nas = "volume"\n'
    corrections.add_fix(doc, "novel.txt:15", **{"as": "text"})  # not a heading: nothing left to rename
    assert tomlkit.dumps(doc) == '[[fix]]\nat = "novel.txt:15"\nas = "text"\n'


@pytest.mark.parametrize(
    "start, rule, after",
    [
        ("", "next-page", '[normalize.junk]\ndisable = ["next-page"]\n'),  # a built-in pattern: disabled
        ('[normalize.junk]\nenable = ["tail-ad"]\n', "tail-ad", ""),  # one the user switched on: off again
        ('[normalize.junk]\nextra = ["广告"]\n', "extra-1", ""),  # one the user added (unnamed): it goes
        (
            '[normalize.junk]\nextra = [{regex = "x", name = "mine"}, {regex = "y"}]\n',
            "mine",
            '[normalize.junk]\nextra = [{regex = "y"}]\n',
        ),
        (
            "[normalize]\njunk = true\n",
            "next-page",
            '[normalize]\n\n[normalize.junk]\ndisable = ["next-page"]\n',
        ),
    ],
)
def test_keep_this_switches_the_rule_that_removed_it(start, rule, after):
    doc = tomlkit.parse(start)
    corrections.keep(doc, rule, BUILTIN | {"tail-ad"})
    assert tomlkit.dumps(doc).strip() == after.strip()


@pytest.mark.parametrize(
    "start, ask, message",
    [
        ("", lambda d: corrections.keep(d, "html", BUILTIN), "cannot be switched off by name"),
        ("[normalize]\njunk = false\n", lambda d: corrections.keep(d, "next-page", BUILTIN), "junk = false"),
        ("", lambda d: corrections.removal_pattern("的"), "at least 2 characters"),
        ("", lambda d: corrections.removal_pattern("一行\n两行"), "within one paragraph"),
        ("", lambda d: corrections.removal_pattern(regex="(广告"), "not a regular expression"),
        ("", lambda d: corrections.removal_pattern(regex="广?告?"), "matches empty text"),
        ("", lambda d: corrections.remove_everywhere(d, "广告", "word"), "inline or line"),
        (
            '[normalize.junk]\nextra = [{regex = "广告位", kind = "inline", on = "cleaned"}]\n',
            lambda d: corrections.remove_everywhere(d, "广告位"),
            "already removed everywhere",
        ),
        (
            '[[keep]]\nat = "a.txt:3"\ntext = "广告位"\n',
            lambda d: corrections.add_keep(d, "a.txt:3", "广告位"),
            "kept already",
        ),
        (
            '[[keep]]\nat = "a.txt:3"\ntext = "广告位"\n',
            lambda d: corrections.undo(d, "keep", 0, 'at = "a.txt:4", text = "广告位"'),
            "no longer in the settings file",
        ),
        (
            '[[fix]]\nat = "a.txt:1"\nas = "text"\n',
            lambda d: corrections.undo(d, "fix", 0, 'at = "a.txt:2", as = "text"'),
            "no longer in the settings file",
        ),
        ("", lambda d: corrections.undo(d, "fix", 0, 'at = "a.txt:2"'), "no longer in the settings file"),
    ],
)
def test_a_correction_that_cannot_be_made_is_a_message_and_changes_nothing(start, ask, message):
    doc = tomlkit.parse(start)
    with pytest.raises(Refused, match=message):
        ask(doc)
    assert tomlkit.dumps(doc) == start


def test_write_replaces_the_file_whole(tmp_path):
    path = tmp_path / "book.toml"
    path.write_text("[book]\n", "utf-8")
    doc = corrections.read(path)
    corrections.add_fix(doc, "a.txt:3", **{"as": "text"})
    corrections.write(path, doc)
    assert path.read_text("utf-8") == '[book]\n\n[[fix]]\nat = "a.txt:3"\nas = "text"\n'
    assert [p.name for p in tmp_path.iterdir()] == ["book.toml"]  # no temporary file left


@pytest.mark.parametrize(
    "source, shown, expected",
    [
        ("book/source", "book/source/001.txt", "001.txt:5"),
        ("book/source", "book/source/卷一/001.txt", "卷一/001.txt:5"),
        ("novel.txt", "novel.txt", "novel.txt:5"),
    ],
)
def test_a_line_is_named_from_the_source_as_toc_prints_it(tmp_path, monkeypatch, source, shown, expected):
    monkeypatch.chdir(tmp_path)
    (tmp_path / shown).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / shown).write_text("x", "utf-8")
    assert corrections.fix_at(Path(source), shown, 5) == expected


def test_a_bare_txt_and_a_bare_folder_read_their_sidecar(tmp_path):
    novel = tmp_path / "山门.txt"
    novel.write_text("第一章 山门\n\n　　少年。\n", "utf-8")
    folder = tmp_path / "夜雨"
    folder.mkdir()
    (folder / "001.txt").write_text("第一章 夜雨\n\n　　雨。\n", "utf-8")
    assert (
        sidecar_path(novel) == tmp_path / "山门.book.toml"
        and sidecar_path(folder) == tmp_path / "夜雨.book.toml"
    )
    bare = load_config(novel), load_config(folder)
    for path in (novel, folder):
        sidecar_path(path).write_text(
            '[book]\nauthor = "某人"\n\n[[fix]]\nat = "001.txt:1"\nas = "text"\n', "utf-8"
        )
    for before, path in zip(bare, (novel, folder)):
        config = load_config(path)
        assert (config.author, len(config.fixes), config.toml_path) == ("某人", 1, sidecar_path(path))
        assert (config.source, config.build_dir, config.title) == (
            before.source,
            before.build_dir,
            before.title,
        )
        assert before.toml_path == sidecar_path(path)  # where the first correction goes
    sidecar_path(novel).write_text('[source]\ndir = "elsewhere"\n', "utf-8")
    with pytest.raises(BookError, match="source.dir: not read beside 山门.txt"):
        load_config(novel)
