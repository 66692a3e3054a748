"""Keep this rule off, and its undo, on a generated book (bench/make_corpus.py's, with the pager lines
and glued adverts bench/bench_workbench.py adds): the server's trial, loaded from a copy of its memo,
is the book a fresh load of the same settings makes; and the memo normalizes again only the
chapters the switched-off rule took something from (normalized_memo.py), the undo none."""

from __future__ import annotations

import bisect
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, write_book

from bookbuilder.config import load_config
from bookbuilder.pipeline import load_book

# bench/make_corpus.py, which writes the book, also edits it (registered first: it holds dataclasses)
_spec = importlib.util.spec_from_file_location("make_corpus", REPO / "bench" / "make_corpus.py")
make_corpus = sys.modules.setdefault("make_corpus", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(make_corpus)

TOML = '[book]\ntitle = "大书"\nauthor = "某人"\n'
OFF = TOML + '\n[normalize.junk]\ndisable = ["next-page"]\n'
PAGER = "本章未完，请点击下一页继续阅读"
ADVERT = "云端书斋,一键直达"
CHAPTERS = 60


def _generated(tmp_path: Path, whole: bool) -> Path:
    """make_corpus's book, a folder of files or one novel.txt, with bench_workbench's debris: in the
    novel an advert glued to every 20th story paragraph, every other one followed by a pager line
    (the shape the guard refused); in the folder an advert in every 7th file, a pager line in every 9th."""
    source = tmp_path / "book" / "source"
    single = ["--single", str(tmp_path / "novel.txt"), "--no-chapters"] if whole else []
    subprocess.run(
        [sys.executable, str(REPO / "bench" / "make_corpus.py"), "--out", str(source), "-n", str(CHAPTERS)]
        + single,
        check=True,
        capture_output=True,
    )
    if whole:
        novel = tmp_path / "novel.txt"
        lines = novel.read_text("utf-8").split("\n")
        story = [
            i for i, line in enumerate(lines) if line.startswith("　　") and line.rstrip().endswith("。")
        ]
        for j, i in enumerate(story[::20]):
            lines[i] = lines[i].rstrip() + ADVERT + ("\n　　" + PAGER if j % 2 else "")
        novel.write_text("\n".join(lines), "utf-8")
        (tmp_path / "novel.book.toml").write_text(TOML, "utf-8")
        return novel
    make_corpus.edit_chapters(source, _with_debris)
    (tmp_path / "book" / "book.toml").write_text(TOML, "utf-8")
    return tmp_path / "book"


def _with_debris(k: int, text: str) -> str:
    """The k-th file's text with an advert glued on (every 7th file) and a pager line (every 9th)."""
    lines = text.split("\n")
    if k % 7 == 3:
        lines[2] = lines[2].rstrip() + ADVERT
    if k % 9 == 4:
        lines.insert(len(lines) // 2, "　　" + PAGER)
    return "\n".join(lines)


def _same(loaded, fresh) -> None:
    assert loaded.book == fresh.book
    assert loaded.diagnostics == fresh.diagnostics


def _pager_chapters(loaded) -> int:
    return sum(1 for d in loaded.diagnostics if d.code == "I201" and "next-page" in d.message)


@pytest.mark.parametrize("whole", [False, True], ids=["folder", "whole-novel"])
def test_the_server_s_trial_of_a_rule_switched_off_and_its_undo_is_a_fresh_load(tmp_path, whole):
    from bookbuilder.serve import guard
    from bookbuilder.serve.server import Site

    root = _generated(tmp_path, whole)
    site = Site(root, None, lambda line: None)  # its first load on every core, as serve.s
    site.rebuild()
    settings = site.preview.loaded.config.toml_path
    assert _pager_chapters(site.preview.loaded) > 1
    after, memo = guard.trial(site, OFF)
    _same(after, load_book(load_config(root, OFF), 1))
    assert _pager_chapters(after) == 0
    site.memo = memo  # written, and rebuilt from what the trial left (as the server does)
    settings.write_text(OFF, "utf-8")
    site.rebuild()
    _same(site.preview.loaded, load_book(root, 1))
    undone, _ = guard.trial(site, TOML)
    _same(undone, load_book(load_config(root, TOML), 1))


@pytest.mark.parametrize("whole", [False, True], ids=["folder", "whole-novel"])
def test_a_rule_switched_off_normalizes_again_only_what_it_took_from_and_its_undo_nothing(tmp_path, whole):
    root = _generated(tmp_path, whole)
    settings = root.parent / "novel.book.toml" if whole else root / "book.toml"
    memo: dict = {}
    before = load_book(root, 1, memo=memo)
    results = _results(memo, whole)
    settings.write_text(OFF, "utf-8")
    off = load_book(root, 1, memo=memo)
    _same(off, load_book(root, 1))
    again = [k for k, v in _results(memo, whole).items() if results.get(k) is not v]
    assert 0 < len(again) == len(_taken_from(before)) < len(results)
    if not whole:  # the files it took from, and no other
        assert {Path(k[0].shown).name for k in again} == {Path(path).name for path, _ in _taken_from(before)}
    settings.write_text(TOML, "utf-8")
    on = load_book(root, 1, memo=memo)
    _same(on, load_book(root, 1))
    assert all(results[k] is v for k, v in _results(memo, whole).items())  # the results from before


def _taken_from(loaded) -> set[tuple[str, int]]:
    """(file, first line) of each chapter the pager rule took a line from."""
    starts = sorted((c.at.path, c.at.line) for c in loaded.book.chapters())
    return {
        starts[bisect.bisect_right(starts, (d.at.path, d.at.line)) - 1]
        for d in loaded.diagnostics
        if d.code == "I201" and "next-page" in d.message
    }


def _results(memo: dict, whole: bool) -> dict:
    """Each file's read (a folder) or each chapter's normalized result (a whole novel) in serve's memo."""
    return dict(memo["chapters"] if whole else memo["files"])


def test_a_rule_whose_cut_an_overlapping_one_took_in_is_normalized_again_when_switched_off(tmp_path):
    """Two patterns' cuts overlapping make one removal, recorded under the first; the second's part
    of it is counted for it, so that switching it off normalizes the chapter again."""
    toml = TOML + (
        "[normalize.junk]\nextra = [\n"
        '  { regex = "甲乙丙", kind = "inline", name = "first" },\n'
        '  { regex = "丙丁戊", kind = "inline", name = "second" },\n]\n'
    )
    only_first = TOML + '[normalize.junk]\nextra = [{ regex = "甲乙丙", kind = "inline", name = "first" }]\n'
    book = write_book(
        tmp_path / "book",
        {
            "001.txt": "第一章 山门\n　　他推开山门甲乙丙丁戊，走进院子。\n",
            "002.txt": "第二章 夜雨\n　　雨下了一夜。\n",
        },
        toml,
    )
    memo: dict = {}
    both = load_book(book, 1, memo=memo)
    assert "甲乙丙丁戊" not in str(both.book)
    (book / "book.toml").write_text(only_first, "utf-8")
    switched = load_book(book, 1, memo=memo)
    assert memo["read"] == 1  # the chapter it had a part in, not the other
    _same(switched, load_book(book, 1))
    assert "他推开山门丁戊，走进院子。" in {b.text for c in switched.book.chapters() for b in c.blocks}


def test_on_the_novel_a_refusal_says_what_would_take_the_text(tmp_path):
    """The pager rule switched off, each pager line comes back joined to the line with the glued
    advert before it, and the whole-book pass takes both as a site's repeated template: the advert,
    text of the book before, would go by a rule the correction does not name. Two fresh loads give it
    (no memo); the refusal says what would take it."""
    from bookbuilder.serve import guard
    from bookbuilder.serve.corrections import Refused

    novel = _generated(tmp_path, True)
    before, after = load_book(novel, 1), load_book(load_config(novel, OFF), 1)
    named = guard.Named(rules=frozenset({"next-page"}), returns=True)
    lost = guard.lost(before, after, named)
    assert lost and all("云端书斋，一键直达" in p.text for p in lost)  # each held an advert
    with pytest.raises(Refused, match=r"taken there as site words repeated in .*\(repeated-template\)"):
        guard.check(before, after, named)


def test_url_advert_switched_off_normalizes_every_chapter_again(tmp_path):
    """url-advert's switch tells the listed patterns whether a line holds a URL: with it off, the
    pager pattern leaves a long line beside a URL that it took with it on, with no record of
    url-advert's in that chapter. So switching it reads every file again."""
    line = "本章未完，请点击下一页继续阅读" + "他推开门走进院子，看见一棵老树。" * 5 + "www.example.com"
    assert 80 < len(line) < 300
    book = write_book(
        tmp_path / "book",
        {"001.txt": f"第一章 山门\n　　{line}\n　　雨停了。\n", "002.txt": "第二章 夜雨\n　　雨下了一夜。\n"},
        TOML,
    )
    memo: dict = {}
    load_book(book, 1, memo=memo)
    (book / "book.toml").write_text(TOML + '[normalize.junk]\ndisable = ["url-advert"]\n', "utf-8")
    switched = load_book(book, 1, memo=memo)
    assert memo["read"] == 2
    _same(switched, load_book(book, 1))
    assert any("本章未完" in b.text for c in switched.book.chapters() for b in c.blocks)
