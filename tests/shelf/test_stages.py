"""What each running book of a shelf is doing: told from where it runs (this process, a process
pool; the cluster's in test_cluster.py) and shown beside the bar on a terminal, or as lines of
their own for a book that runs long where no bar is drawn."""

import io
import os
import pty

import pytest
from click.testing import CliRunner

from bookbuilder.cli import main
from bookbuilder.shelf import report
from bookbuilder.shelf.build import build_shelf
from bookbuilder.shelf.report import ShelfProgress, _cut_to_columns
from bookbuilder.shelf.stages import BookStages
from bookbuilder.shelf.task import BookResult
from tests.shelf.shelves import add_long_pdf_book, make_shelf


def stages_by_book(told: list[tuple[str, str, str]]) -> dict[str, list[str]]:
    """Each book's stages in the order told, a stage once however often its progress was told."""
    out: dict[str, list[str]] = {}
    for name, stage, _detail in told:
        seen = out.setdefault(name, [])
        if not seen or seen[-1] != stage:
            seen.append(stage)
    return out


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_running_book_tells_its_stages_in_order(tmp_path, jobs):
    shelf = tmp_path / "shelf"
    make_shelf(shelf, 3)
    add_long_pdf_book(shelf, chapters=6, per_chunk=2)
    told = []
    summary = build_shelf(shelf, jobs=jobs, on_stage=lambda *said: told.append(said))
    assert len(summary.built) == 4
    stages = stages_by_book(told)
    assert sorted(stages) == ["book01", "book02", "book03", "long"]
    for name, seen in stages.items():
        assert seen[0] == "reading" and "the self-check" in seen, (name, seen)
        assert seen[-1] == ("pdf" if name == "long" else "epub"), (name, seen)


def test_progress_within_a_stage_is_told_at_most_every_second():
    told, clock = [], iter([0.0, 0.1, 0.2, 1.5, 1.6])
    stages = BookStages("b", lambda *said: told.append(said), clock=lambda: next(clock))
    stages.stage("pdf", total=10)  # a new stage: at once (0.0)
    for _ in range(4):  # 0.1 and 0.2: too soon; 1.5: told; 1.6: too soon
        stages.chapters(2)
    assert told == [("b", "pdf", ""), ("b", "pdf", "60%")]


def _result(name: str, failed: bool = False) -> BookResult:
    return BookResult(name, None if failed else {}, "boom" if failed else "", seconds=1.0)


def test_without_a_terminal_a_book_running_long_gets_its_stages_as_lines(monkeypatch):
    out = io.StringIO()
    progress = ShelfProgress(quiet=False, file=out)
    progress.start(2)
    progress.stage("quick", "epub")  # under STAGE_AFTER (10 s): no line
    monkeypatch.setattr(report, "STAGE_AFTER", 0.0)
    progress.stage("long", "reading the chapter files", "3/10 files")
    progress.stage("long", "reading the chapter files", "4/10 files")  # same stage, soon: no line
    progress.stage("long", "pdf", "40%")
    progress.done(_result("long"))
    progress.stage("long", "pdf", "100%")  # told after its end (a cluster's late event): not shown
    lines = out.getvalue().splitlines()
    assert lines == [
        "  long: reading the chapter files 3/10 files",
        "  long: pdf 40%",
        "[1/2] built long (1.0 s)",
    ]


def test_without_a_terminal_quick_books_are_a_line_each():
    out = io.StringIO()
    progress = ShelfProgress(quiet=False, file=out)  # STAGE_AFTER: 10 s
    progress.start(1)
    progress.stage("b", "reading")
    progress.stage("b", "epub")
    progress.done(_result("b", failed=True))
    assert out.getvalue().splitlines() == ["[1/1] FAILED b (1.0 s)"]


def test_on_a_terminal_the_running_books_stages_stand_beside_the_bar():
    leader, follower = pty.openpty()
    with os.fdopen(follower, "w") as terminal:
        progress = ShelfProgress(quiet=False, file=terminal)
        progress.start(3)
        progress.stage("长篇", "pdf", "40%")
        progress.stage("短篇", "epub")
        progress.done(_result("短篇"))
        progress.close()
    shown = _read_all(leader).decode("utf-8", "replace")
    assert "长篇 pdf 40% · 短篇 epub" in shown  # both running, the longest-running first
    assert "1/3" in shown and "长篇 pdf 40%" in shown.rsplit("1/3", 1)[1]  # 短篇 ended; 长篇 still runs


def _read_all(leader: int) -> bytes:
    """Everything the terminal was sent: read until the closed follower's end (EIO on Linux)."""
    got = b""
    try:
        while chunk := os.read(leader, 65536):
            got += chunk
    except OSError:
        pass
    finally:
        os.close(leader)
    return got


@pytest.mark.parametrize(
    "text, columns, shown",
    [
        ("abc", 10, "abc"),
        ("abcdefghij", 10, "abcdefghi…"),
        ("长篇小说第一部", 10, "长篇小说…"),  # a CJK character takes two columns
        ("长篇", 5, "长篇"),
    ],
)
def test_the_text_beside_the_bar_fits_the_terminal(text, columns, shown):
    assert _cut_to_columns(text, columns) == shown


def test_the_shelf_command_prints_a_long_books_stages_in_a_log(tmp_path, monkeypatch):
    shelf = tmp_path / "shelf"
    make_shelf(shelf, 2)
    monkeypatch.setattr(report, "STAGE_AFTER", 0.0)
    result = CliRunner().invoke(main, ["build", str(shelf), "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "  book01: reading" in result.output and "  book02: epub" in result.output
    quiet = CliRunner().invoke(main, ["-q", "build", str(tmp_path / "shelf"), "-j", "1"])
    assert "book01: reading" not in quiet.output
