"""A shelf built on a real Dask cluster (a LocalCluster: a scheduler on 127.0.0.1 and two worker
processes, one thread each), through `bookbuilder build SHELF --scheduler`."""

import os
import signal
import threading

import pytest
from click.testing import CliRunner

from bookbuilder.cli import main
from bookbuilder.shelf.build import build_shelf
from tests.shelf.local_cluster import local_cluster
from tests.shelf.shelves import add_long_pdf_book, break_book, built, make_mixed_shelf, make_shelf
from tests.shelf.test_stages import stages_by_book

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler():
    with local_cluster(2) as address:
        yield address


def test_the_cluster_builds_the_same_bytes_as_this_machine(tmp_path, scheduler):
    here, there = tmp_path / "here" / "shelf", tmp_path / "there" / "shelf"
    make_shelf(here)
    make_shelf(there)
    assert CliRunner().invoke(main, ["build", str(here), "-j", "2"]).exit_code == 0
    result = CliRunner().invoke(main, ["build", str(there), "--scheduler", scheduler])
    assert result.exit_code == 0, result.output
    assert "shelf: 12 built, 0 unchanged, 0 failed" in result.output
    assert built(here) == built(there) and len(built(here)) == 12
    again = CliRunner().invoke(main, ["build", str(there), "--scheduler", scheduler])
    assert "shelf: 0 built, 12 unchanged" in again.output


def test_projects_bare_folders_and_a_loose_novel_build_as_a_shelf_of_five_books(tmp_path, scheduler):
    """Read as one book of the loose novel and the two folders before; a broken project is that
    book's failure alone (exit 1), its last files kept; mended as it was, nothing is built again."""
    shelf = tmp_path / "shelf"
    names = make_mixed_shelf(shelf)
    result = CliRunner().invoke(main, ["build", str(shelf), "--scheduler", scheduler])
    assert result.exit_code == 0, result.output
    assert "shelf: 5 built, 0 unchanged, 0 failed" in result.output and "read as" not in result.output
    assert sorted(name.split("/")[0] for name in built(shelf)) == sorted(names)
    assert len(built(shelf)["戊书/戊书.epub"]) > 0 and not (tmp_path / "build").exists()
    toml = (shelf / "甲书" / "book.toml").read_text("utf-8")
    break_book(shelf / "甲书")
    result = CliRunner().invoke(main, ["build", str(shelf), "--scheduler", scheduler])
    assert result.exit_code == 1 and "0 built, 4 unchanged, 1 failed" in result.output
    assert "failed 甲书: " in result.output and "Traceback" not in result.output
    (shelf / "甲书" / "book.toml").write_text(toml, "utf-8")
    result = CliRunner().invoke(main, ["build", str(shelf), "--scheduler", scheduler])
    assert result.exit_code == 0 and "0 built, 5 unchanged, 0 failed" in result.output


def test_a_long_books_pdf_documents_run_as_tasks_of_the_cluster(tmp_path, scheduler):
    """A book of 3 chunks on the cluster: its 6 documents (3 chunks, the stamp documents of the two
    after the first, which numbers its own pages, and the front matter) are tasks of their own, and
    the PDF is the same bytes as this machine's, with the image its imported stylesheet draws (the
    project's files travel to the workers). The book tells its stages from the worker."""
    import pikepdf

    here, there = tmp_path / "here" / "shelf", tmp_path / "there" / "shelf"
    add_long_pdf_book(here)
    add_long_pdf_book(there)
    assert not build_shelf(here, jobs=1).failed
    told = []
    with distributed.Client(scheduler) as client, distributed.get_task_stream(client) as stream:
        summary = build_shelf(there, scheduler=scheduler, on_stage=lambda *said: told.append(said))
    assert [r.name for r in summary.built] == ["long"] and not summary.failed
    documents = [t for t in stream.data if str(t["key"]).startswith("render_carried")]
    assert len(documents) == 6
    assert built(here) == built(there) == {"long/长书.pdf": built(here)["long/长书.pdf"]}
    with pikepdf.open(there / "build" / "long" / "长书.pdf") as pdf:
        images = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
    assert images  # the chapter headings' image, drawn from the project's file on the workers
    stages = stages_by_book(told)  # told by the worker as Dask events, heard here
    assert stages["long"][0] == "reading" and stages["long"][-1] == "pdf"


def test_a_worker_killed_mid_build_leaves_the_shelf_finished_or_that_book_reported(tmp_path, scheduler):
    """A worker is killed (SIGKILL) as the first book comes back, while the others run: Dask runs
    its task again on a worker that lives (its nanny starts a new one), or the book is reported;
    either way no partial file, and every book built is the same bytes as on this machine."""
    here, there = tmp_path / "here" / "shelf", tmp_path / "there" / "shelf"
    make_shelf(here, chars=300)
    make_shelf(there, chars=300)
    build_shelf(here, jobs=2)
    with distributed.Client(scheduler) as client:
        pids = client.run(os.getpid)
    victim = sorted(pids.values())[0]
    killed = threading.Event()

    def kill_once(result):
        if not killed.is_set():
            os.kill(victim, signal.SIGKILL)
            killed.set()

    summary = build_shelf(there, scheduler=scheduler, on_result=kill_once)
    assert killed.is_set()
    assert len(summary.built) + len(summary.failed) == 12
    assert all("E408" in r.error for r in summary.failed)
    mine, theirs = built(here), built(there)
    assert all(mine[name] == content for name, content in theirs.items())
    assert len(theirs) == len(summary.built)
    assert not list(there.rglob("*.part"))
    with distributed.Client(scheduler) as client:
        client.wait_for_workers(2, timeout=60)
        assert victim not in client.run(os.getpid).values()


def test_a_worker_killed_while_a_long_pdf_spreads_leaves_it_built_or_reported(tmp_path, scheduler):
    """A worker is killed as the long book's PDF begins (heard as its stage): the book's task or
    its documents were on it. Dask runs them again, or the book is E408; either way no partial
    file, and a PDF built is the same bytes as this machine's."""
    here, there = tmp_path / "here" / "shelf", tmp_path / "there" / "shelf"
    add_long_pdf_book(here, chapters=12, per_chunk=2)
    add_long_pdf_book(there, chapters=12, per_chunk=2)
    build_shelf(here, jobs=1)
    with distributed.Client(scheduler) as client:
        client.wait_for_workers(2, timeout=60)
        victim = sorted(client.run(os.getpid).values())[0]
    killed = threading.Event()

    def kill_once(name, stage, detail):
        if stage == "pdf" and not killed.is_set():
            killed.set()
            os.kill(victim, signal.SIGKILL)

    summary = build_shelf(there, scheduler=scheduler, on_stage=kill_once)
    assert killed.is_set()
    assert len(summary.built) + len(summary.failed) == 1
    assert all("E408" in r.error for r in summary.failed)
    assert built(there) == (built(here) if summary.built else {})
    assert not list(there.rglob("*.part"))
    with distributed.Client(scheduler) as client:
        client.wait_for_workers(2, timeout=60)


def test_a_cluster_without_workers_is_one_error_not_a_wait(tmp_path):
    from bookbuilder.shelf import cluster

    shelf = tmp_path / "shelf"
    make_shelf(shelf, 1)
    with local_cluster(0) as empty:
        wait, cluster.CONNECT_SECONDS = cluster.CONNECT_SECONDS, 2
        try:
            result = CliRunner().invoke(main, ["build", str(shelf), "--scheduler", empty])
        finally:
            cluster.CONNECT_SECONDS = wait
    assert result.exit_code == 1
    assert "error E420: the Dask scheduler has no workers after 2 s" in result.output
    assert not (shelf / "build" / "book01").exists()
