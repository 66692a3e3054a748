"""Large generated books from ../shared/bench/make_corpus.py (CI has shared/ beside the clone)."""
import json
import subprocess
import sys

import pytest

from bookbuilder.pipeline import load_book
from tests.conftest import REPO

MAKE_CORPUS = REPO.parent / "shared" / "bench" / "make_corpus.py"
needs_corpus = pytest.mark.skipif(not MAKE_CORPUS.exists(), reason="../shared/bench/make_corpus.py not present")


@pytest.fixture(scope="module")
def single_2000(tmp_path_factory):
    out = tmp_path_factory.mktemp("corpus")
    single = out / "novel.txt"
    subprocess.run([sys.executable, str(MAKE_CORPUS), "--out", str(out / "c"), "-n", "2000", "--single", str(single),
                    "--no-chapters"], check=True, capture_output=True)
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
    subprocess.run([sys.executable, str(MAKE_CORPUS), "--out", str(out), "-n", "400"], check=True, capture_output=True)
    (out / "manifest.json").unlink()
    return out


@needs_corpus
def test_a_large_book_loads_the_same_on_one_process_and_on_two(corpus_400):
    """bookbuilder.parallel forks for books of 200+ chapters: the book, its change counts and
    every diagnostic must be what a serial run makes."""
    serial, forked = load_book(corpus_400, jobs=1), load_book(corpus_400, jobs=2)
    assert forked.book == serial.book
    assert forked.book.changes == serial.book.changes and dict(serial.book.changes)["unwrap"] > 0
    assert forked.diagnostics == serial.diagnostics and any(d.code == "W201" for d in serial.diagnostics)
