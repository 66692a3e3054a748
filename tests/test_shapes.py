"""Shapes of real downloads, one synthetic fixture each, through the whole reading stage.

Each folder under tests/fixtures/shapes/ is named for a shape a real download taught a branch of
the code (docs/rules-notes.md names the download and points at the folder). It holds one input,
`input.txt` (bytes in any encoding, as a download comes), a .txt named as a download is where the
name matters, or an `input/` folder of chapter files; and `expected.txt`: the book as `load_book` reads it —
its title and author, the diagnostic codes,
every removal, then each chapter's volume, number, title, kind and source line over its
paragraphs. The texts are invented (or public-domain classics), never a web novel's.

`pytest tests/test_shapes.py --regen-golden` rewrites every expected.txt; then read the diff like
a proofreader before committing: a golden file is only as right as the person who read it."""

import re
from pathlib import Path

import pytest

from bookbuilder.check import report
from bookbuilder.model import Paragraph
from bookbuilder.pipeline import load_book

SHAPES = Path(__file__).resolve().parent / "fixtures" / "shapes"
SCENE_BREAK = "* * *"


def shape_names() -> list[str]:
    return sorted(p.name for p in SHAPES.iterdir() if p.is_dir())


def book_as_text(source: Path) -> str:
    """What a reader of the golden file needs to judge the reading: metadata, codes, removals,
    then the contents with each chapter's paragraphs under its entry."""
    loaded = load_book(source, jobs=1)
    book, diagnostics = loaded.book, loaded.diagnostics
    lines = [
        f"title: {book.meta.title}",
        f"author: {book.meta.author}",
        f"description: {book.meta.description or ''}",
        "codes: " + " ".join(sorted({d.code for d in report.findings(diagnostics)})),
    ]
    lines += [f"file: {f.path}: {f.encoding} by {f.method}, {f.replaced} replaced" for f in book.files]
    lines += [
        f"removed: {r['line']}: {r['rule']}: {r['text']}"
        for r in sorted(
            (report.removal_json(d) for d in report.removals(diagnostics)),
            key=lambda r: (r["path"] or "", r["line"] or 0),
        )
    ]
    for volume in book.volumes:
        for chapter in volume.chapters:
            number = "" if chapter.number is None else chapter.number
            lines += [
                "",
                f"== {volume.title or '-'} | {number} | {chapter.title} | {chapter.kind} | "
                f"line {chapter.at.line}",
            ]
            lines += [b.text if isinstance(b, Paragraph) else SCENE_BREAK for b in chapter.blocks]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("shape", shape_names())
def test_shape(shape, regen, monkeypatch):
    folder = SHAPES / shape
    monkeypatch.chdir(folder)  # sources are named relative to the fixture, as a user's would be
    source = Path(next(p.name for p in sorted(folder.iterdir()) if p.name != "expected.txt"))
    actual = book_as_text(source)
    golden = folder / "expected.txt"
    if regen:
        golden.write_text(actual, "utf-8")
    assert actual == golden.read_text("utf-8"), f"{shape}: the reading differs from expected.txt"


def test_every_shape_is_cited_in_the_notes():
    """docs/rules-notes.md points at each fixture next to the evidence it records."""
    notes = (SHAPES.parent.parent.parent / "docs" / "rules-notes.md").read_text("utf-8")
    missing = [s for s in shape_names() if f"tests/fixtures/shapes/{s}" not in notes]
    assert not missing, f"not cited in docs/rules-notes.md: {missing}"


def test_every_rules_citation_in_the_code_names_a_section_of_docs_rules():
    """The code cites the rule book as `RULES §N` (or docs/rules.md §N): each N is a section there."""
    repo = SHAPES.parent.parent.parent
    sections = set(
        re.findall(r"^#{2,3} (\d+(?:\.\d+)?)[ .]", (repo / "docs" / "rules.md").read_text("utf-8"), re.M)
    )
    cited = {
        (str(p.relative_to(repo)), n)
        for p in (repo / "bookbuilder").rglob("*.py")
        for n in re.findall(r"§(\d+(?:\.\d+)?)", p.read_text("utf-8"))
    }
    assert cited, "no citations found: the pattern is wrong"
    assert not [c for c in cited if c[1] not in sections]
