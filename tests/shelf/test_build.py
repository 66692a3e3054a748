"""`bookbuilder build SHELF` on this machine: incremental, a broken book reported while the others
are built, shards that share the shelf out, a dead worker that is one book's failure."""

import json
import os
import re
import socket

from click.testing import CliRunner

from bookbuilder.cli import main
from bookbuilder.shelf import task
from bookbuilder.shelf.build import build_shelf
from bookbuilder.shelf.manifest import in_shard
from tests.shelf.shelves import add_book, break_book, built, make_shelf


def run(*args, quiet=False):
    result = CliRunner().invoke(main, ["-q"] * quiet + ["build", *map(str, args)])
    return result.exit_code, result.output


def built_names(output: str) -> list[str]:
    return sorted(re.findall(r"built (\S+) \(", output))


def test_twelve_built_and_the_broken_one_reported_with_its_earlier_files_kept(tmp_path):
    shelf = tmp_path / "shelf"
    add_book(shelf, "zz-broken", 99)
    assert run(shelf, "-j", "2")[0] == 0
    before = built(shelf)
    assert list(before) == ["zz-broken/书99.epub"]
    names = make_shelf(shelf)
    break_book(shelf / "zz-broken")
    code, output = run(shelf, "-j", "2")
    assert code == 1
    assert built_names(output) == names
    assert "shelf: 12 built, 0 unchanged, 1 failed" in output
    assert "failed zz-broken: " in output and "book.toml:2: error E002: unknown key 'book.titel'" in output
    after = built(shelf)
    assert after["zz-broken/书99.epub"] == before["zz-broken/书99.epub"]
    assert len(after) == 13 and not list(shelf.rglob("*.part"))


def test_the_shelf_build_writes_the_catalogue_and_a_shard_leaves_it_to_the_gathering_job(tmp_path):
    shelf = tmp_path / "shelf"
    make_shelf(shelf, count=3)
    assert run(shelf, "--shard", "1/2")[0] == 0
    assert not (shelf / "build" / "catalog.opds.xml").exists()
    code, output = run(shelf)
    assert code == 0 and "3 books" in output
    feed = (shelf / "build" / "catalog.opds.xml").read_text("utf-8")
    assert "by-title" in feed and (shelf / "build" / "index.html").is_file()


def test_nothing_changed_rebuilds_nothing_and_one_chapter_rebuilds_its_book(tmp_path):
    shelf = tmp_path / "shelf"
    names = make_shelf(shelf)
    assert run(shelf, "-j", "2")[0] == 0
    first = built(shelf)
    stamps = {p: p.stat().st_mtime_ns for p in (shelf / "build").rglob("*.epub")}
    code, output = run(shelf, "-j", "2")
    assert code == 0 and "shelf: 0 built, 12 unchanged, 0 failed" in output
    assert {p: p.stat().st_mtime_ns for p in stamps} == stamps

    # a fresh checkout: every file's time is new, no content is: nothing built, the times remembered
    signed = json.loads((shelf / "build" / "shelf-manifest.json").read_text("utf-8"))["books"]
    for path in shelf.rglob("*.txt"):
        os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    code, output = run(shelf, "-j", "2")
    assert code == 0 and "shelf: 0 built, 12 unchanged, 0 failed" in output
    resigned = json.loads((shelf / "build" / "shelf-manifest.json").read_text("utf-8"))["books"]
    assert all(resigned[n]["stat"] != signed[n]["stat"] for n in names)
    assert all(resigned[n]["fingerprint"] == signed[n]["fingerprint"] for n in names)

    chapter = shelf / "book05" / "source" / "2.txt"
    chapter.write_text(chapter.read_text("utf-8") + "新加的一段。\n", "utf-8")
    code, output = run(shelf, "-j", "2")
    assert code == 0 and built_names(output) == ["book05"]
    assert "1 built, 11 unchanged" in output
    again = built(shelf)
    assert [n for n in first if first[n] != again[n]] == ["book05/书5.epub"]
    assert sorted(n.split("/")[0] for n in again) == names


def test_a_removed_book_s_files_go_and_a_renamed_output_leaves_no_old_file(tmp_path):
    shelf = tmp_path / "shelf"
    make_shelf(shelf, 3)
    code, output = run(shelf, "-j", "1")
    assert code == 0 and "[3/3] built book03 (" in output
    for path in (shelf / "book02").rglob("*"):
        if path.is_file():
            path.unlink()
    (shelf / "book03" / "book.toml").write_text('[output]\nname = "新名"\nformats = ["epub"]\n', "utf-8")
    code, output = run(shelf, "-j", "1", quiet=True)
    assert code == 0 and "1 built, 1 unchanged, 0 failed, 1 removed" in output
    assert "[1/1]" not in output  # -q: the summary without the progress
    assert sorted(built(shelf)) == ["book01/书1.epub", "book03/新名.epub"]


def test_a_shelf_book_is_the_same_bytes_as_the_book_built_alone(tmp_path):
    shelf = tmp_path / "shelf"
    make_shelf(shelf, 2)
    assert run(shelf, "-j", "2")[0] == 0
    assert CliRunner().invoke(main, ["build", str(shelf / "book02")]).exit_code == 0
    alone = (shelf / "book02" / "build" / "书2.epub").read_bytes()
    assert built(shelf)["book02/书2.epub"] == alone


def test_shards_cover_each_book_exactly_once_and_stay_put_when_a_book_is_added(tmp_path):
    shelf = tmp_path / "shelf"
    names = make_shelf(shelf)
    shares = []
    for k in (1, 2, 3):
        code, output = run(shelf, "-j", "2", "--shard", f"{k}/3")
        assert code == 0
        shares.append(built_names(output))
    assert sorted(sum(shares, [])) == names
    assert all(shares), shares  # twelve names spread over three shards: none is empty
    assert [[n for n in names if in_shard(n, (k, 3))] for k in (1, 2, 3)] == shares
    assert [[n for n in names + ["book13"] if in_shard(n, (k, 3)) and n != "book13"] for k in (1, 2, 3)] == (
        shares
    )
    assert run(shelf, "--shard", "0/3")[0] == 2


def test_a_worker_that_dies_fails_its_book_alone(tmp_path):
    """The process building one book is killed (as the OOM killer would); the shelf's other books
    are built, that one is E408 (the forked workers inherit the patch; this process is spared)."""
    shelf = tmp_path / "shelf"
    names = make_shelf(shelf, 6)
    original, parent = task._build_into, os.getpid()

    def dies_on_book03(book_path, out, book_task):
        if book_task.name == "book03" and os.getpid() != parent:
            os._exit(9)
        return original(book_path, out, book_task)

    task._build_into = dies_on_book03
    try:
        summary = build_shelf(shelf, jobs=2)
    finally:
        task._build_into = original
    assert sorted(r.name for r in summary.built) == [n for n in names if n != "book03"]
    assert [r.name for r in summary.failed] == ["book03"]
    assert "error E408: a worker process died" in summary.failed[0].error
    assert "book03/书3.epub" not in built(shelf)


def test_shelf_toml_sets_the_defaults_of_books_without_settings_and_the_scheduler(tmp_path):
    """A bare folder of chapters and a whole-novel file take [defaults] formats (EPUB, not the
    EPUB and the PDF); [shelf] scheduler is where the books go (here a port where nothing listens)."""
    from bookbuilder.shelf import cluster
    from tests.shelf.shelves import chapters

    shelf = tmp_path / "shelf"
    (shelf / "folder").mkdir(parents=True)
    for name, text in chapters(1).items():
        (shelf / "folder" / name).write_text(text, "utf-8")
    (shelf / "novel.txt").write_text("".join(chapters(2).values()), "utf-8")
    (shelf / "shelf.toml").write_text('[defaults]\nformats = ["epub"]\n', "utf-8")
    assert run(shelf, "-j", "2")[0] == 0
    assert sorted(built(shelf)) == ["folder/folder.epub", "novel/novel.epub"]

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    (shelf / "shelf.toml").write_text(f'[shelf]\nscheduler = "tcp://127.0.0.1:{port}"\n', "utf-8")
    wait, cluster.CONNECT_SECONDS = cluster.CONNECT_SECONDS, 2
    try:
        code, output = run(shelf)
    finally:
        cluster.CONNECT_SECONDS = wait
    assert code == 1 and f"tcp://127.0.0.1:{port}: error E420: cannot reach the Dask scheduler" in output


def test_two_books_of_one_name_one_is_built_the_other_fails_saying_so(tmp_path):
    from tests.shelf.shelves import chapters

    shelf = tmp_path / "shelf"
    add_book(shelf, "novel", 1)
    (shelf / "novel.txt").write_text("".join(chapters(2).values()), "utf-8")
    (shelf / "shelf.toml").write_text('[defaults]\nformats = ["epub"]\n', "utf-8")
    code, output = run(shelf, "-j", "1")
    assert code == 1 and "shelf: 1 built, 0 unchanged, 1 failed" in output
    assert "novel.txt: error E011: another book is also named novel (novel): rename one" in output
    assert sorted(built(shelf)) == ["novel/书1.epub"]
