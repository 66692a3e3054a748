"""Large generated books from bench/make_corpus.py (a copy of the shared generator, so that a clone
alone runs them)."""

import json
import subprocess
import sys

import pytest

from bookbuilder.pipeline import load_book
from tests.conftest import REPO

MAKE_CORPUS = REPO / "bench" / "make_corpus.py"
needs_corpus = pytest.mark.skipif(not MAKE_CORPUS.exists(), reason="bench/make_corpus.py not present")


@pytest.fixture(scope="module")
def single_2000(tmp_path_factory):
    out = tmp_path_factory.mktemp("corpus")
    single = out / "novel.txt"
    subprocess.run(
        [
            sys.executable,
            str(MAKE_CORPUS),
            "--out",
            str(out / "c"),
            "-n",
            "2000",
            "--single",
            str(single),
            "--no-chapters",
        ],
        check=True,
        capture_output=True,
    )
    return single, json.loads((out / "c" / "manifest.json").read_text("utf-8"))


@needs_corpus
def test_whole_novel_file_splits_into_exactly_2000_chapters(single_2000):
    single, manifest = single_2000
    book = load_book(single).book
    chapters = list(book.chapters())
    assert len(chapters) == 2000
    assert [c.title for c in chapters] == [f["heading"] for f in manifest["files"]]
    assert [c.number for c in chapters] == list(range(1, 2001))


@pytest.fixture(scope="module")
def corpus_400(tmp_path_factory):
    out = tmp_path_factory.mktemp("corpus400") / "source"
    subprocess.run(
        [sys.executable, str(MAKE_CORPUS), "--out", str(out), "-n", "400"], check=True, capture_output=True
    )
    (out / "manifest.json").unlink()
    return out


@needs_corpus
def test_a_large_book_loads_the_same_on_one_process_and_on_two(corpus_400):
    """bookbuilder.system.parallel forks for books of 200+ chapters: the book, its change counts and
    every diagnostic must be what a serial run makes."""
    serial, forked = load_book(corpus_400, jobs=1), load_book(corpus_400, jobs=2)
    assert forked.book == serial.book
    assert forked.book.changes == serial.book.changes and dict(serial.book.changes)["unwrap"] > 0
    assert forked.diagnostics == serial.diagnostics and any(d.code == "W201" for d in serial.diagnostics)


def test_odd_chapters_cross_from_a_worker_whole(tmp_path):
    """What per_file.py's encoding must carry or fall back on: a chapter with no text, a scene
    break, a chapter in two files' parts, more than one chapter in a file."""
    from tests.conftest import write_book

    files = {f"{i:03d}.txt": f"第{i}章 标题\n正文{i}。\n……\n又一段。" for i in range(1, 221)}
    files["005.txt"] = "第5章 空章"
    files["006.txt"] = "第6章 甲\n正文。\n第7章 乙\n正文。"
    root = write_book(tmp_path / "b", files, "")
    serial, parallel = load_book(root, jobs=1), load_book(root, jobs=2)
    assert parallel.book == serial.book and parallel.diagnostics == serial.diagnostics
    titles = [c.title for c in serial.book.chapters()]
    assert "第5章 空章" in titles and "第7章 乙" in titles


def test_a_chapter_crosses_with_every_field_it_declares():
    """per_file's wire is built from Chapter's fields by name: each field, compared or not
    (decided_by), comes back as it went, in the packed form and in the fallback."""
    from dataclasses import fields

    from bookbuilder.model import Chapter, Location, Paragraph, SceneBreak
    from bookbuilder.per_file import _decode_chapter, _encode_chapter

    at = Location("a.txt", 3)
    packed = (Paragraph("甲。", Location("a.txt", 4)), SceneBreak(Location("a.txt", 5)))
    fallback = (Paragraph("甲\n乙。", Location("a.txt", 4)),)  # a line break: the blocks themselves
    for blocks in (packed, fallback):
        chapter = Chapter("第一章 甲", blocks, at, 1, 7, "front", "fixes")
        back = _decode_chapter(_encode_chapter(chapter))
        assert [getattr(back, f.name) for f in fields(Chapter)] == [
            getattr(chapter, f.name) for f in fields(Chapter)
        ]


def _normalized_by(monkeypatch, folder):
    """per_file.normalize_and_lint, leaving a file named by the process that ran it in `folder`
    (a forked worker inherits the wrapper): which processes normalized the chapters."""
    import os

    from bookbuilder import per_file

    real = per_file.normalize_and_lint

    def spied(rules, chapter):
        (folder / str(os.getpid())).touch()
        return real(rules, chapter)

    folder.mkdir()
    monkeypatch.setattr(per_file, "normalize_and_lint", spied)
    return lambda: {int(p.name) for p in folder.iterdir()} - {os.getpid()}


@needs_corpus
def test_a_whole_novel_is_normalized_on_every_core_to_the_same_book(single_2000, monkeypatch, tmp_path):
    """A whole-novel file's chapters are normalized on two worker processes: the book, its change
    counts and every diagnostic are what one process makes."""
    workers = _normalized_by(monkeypatch, tmp_path / "pids")
    serial = load_book(single_2000[0], jobs=1)
    assert not workers()
    forked = load_book(single_2000[0], jobs=2)
    assert len(workers()) == 2
    assert forked.book == serial.book and forked.book.changes == serial.book.changes
    assert forked.diagnostics == serial.diagnostics


SITE_LINE = "请记住本书首发域名：example58.com。最新章节"
OPEN_AT_THE_CUT = ("　　他走进第{}个院子，看见一棵老树，树下坐", "着一个老人，老人抬头看了他")


def _tricky_novel() -> str:
    """Hard-wrapped paragraphs, one left open on the last line before the next heading; headings
    glued to site debris and back to back; a site's line repeated in every chapter; scene breaks."""
    wrapped = "他走进院子，看见一棵老树，树下坐着一个老人，老人抬头看了他一眼，又低下头去抽烟。" * 3
    lines = ["《某书》", "作者：某人", ""]
    for n in range(1, 41):
        lines.append(f"第{n}章 风起{n}" + ("（www.example58.com）" if n % 7 == 0 else ""))
        if n == 13:
            continue  # a heading right after a heading: a chapter with no text
        for k in range(0, len(wrapped), 23):  # wrapped at 23 characters
            lines.append(("　　" if k == 0 else "") + wrapped[k : k + 23])
        lines += ["", "　　……", "", f"　　{SITE_LINE}{n}", "　　她说：“走吧。”"]
        lines += [OPEN_AT_THE_CUT[0].format(n), OPEN_AT_THE_CUT[1]]
    return "\n".join(lines) + "\n"


def test_a_tricky_whole_novel_reads_the_same_on_every_core(tmp_path, monkeypatch):
    """per_file's threshold set to nothing, so that a small novel is spread too: the same book, change
    counts and diagnostics (a [[keep]] kept, the repeated site line gone) on one process and two."""
    from bookbuilder import per_file
    from bookbuilder.model import Paragraph

    monkeypatch.setattr(per_file, "ON_EVERY_CORE_CHARS", 0)
    novel = tmp_path / "novel.txt"
    novel.write_text(_tricky_novel(), "utf-8")
    kept = _tricky_novel().split("\n").index(f"　　{SITE_LINE}1") + 1  # chapter 1's site line, kept
    keep = f'[[keep]]\nat = "novel.txt:{kept}"\ntext = "{SITE_LINE}1"\n'
    (tmp_path / "novel.book.toml").write_text(keep, "utf-8")
    workers = _normalized_by(monkeypatch, tmp_path / "pids")
    serial = load_book(novel, jobs=1)
    forked = load_book(novel, jobs=2)
    assert len(workers()) == 2
    assert forked.book == serial.book and forked.book.changes == serial.book.changes
    assert forked.diagnostics == serial.diagnostics
    chapters = list(serial.book.chapters())
    assert len(chapters) == 40 and dict(serial.book.changes)["unwrap"] > 0
    paragraphs = [(c.title, b.text) for c in chapters for b in c.blocks if type(b) is Paragraph]
    assert [title for title, text in paragraphs if SITE_LINE in text] == ["第1章 风起1"]
    open_at_the_cut = [
        (title, text.split("个")[0]) for title, text in paragraphs if text.startswith("他走进第")
    ]
    assert open_at_the_cut == [(f"第{n}章 风起{n}", f"他走进第{n}") for n in range(1, 41) if n != 13]
