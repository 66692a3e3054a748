"""Large generated books from bench/make_corpus.py (a copy of the shared generator, so that a clone alone
runs them)."""

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
