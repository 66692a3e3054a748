"""A chapter file's own headings (one file per chapter, a site's download): with fewer than three
candidates, none weak, heading_choice takes them without the judgements of three of a kind, but
judges them against each other as in a longer file: a site's page header under the chapter's
title (第1章 来客 / 第001章) is no second, empty chapter; a real second chapter stays one."""

import json

import pytest
from click.testing import CliRunner

from bookbuilder.cli import main
from bookbuilder.pipeline import load_book
from bookbuilder.structure import heading_choice
from bookbuilder.structure.sections import split_sections

BODY = "　　他推门进来，坐下喝茶。\n　　窗外下起了雨。\n"


def chapter_file(tmp_path, text: str, name: str = "0001.txt"):
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def chapters(path) -> list[tuple[str, list[str]]]:
    """Each chapter's title and its text."""
    return [
        (c.title, [b.text for b in c.blocks])
        for c in load_book(path, jobs=1).book.chapters()
        if c.kind != "intro"
    ]


def test_a_page_header_under_the_title_of_a_two_heading_file_is_no_chapter(tmp_path):
    path = chapter_file(tmp_path, "第1章 来客\n第001章\n" + BODY)
    assert chapters(path) == [("第1章 来客", BODY.split())]
    rows = json.loads(CliRunner().invoke(main, ["toc", str(path), "--json"]).output)
    assert [(row["number"], row["title"], row["characters"]) for row in rows] == [
        (1, "第1章 来客", 18)
    ]  # its two lines of text
    shown = CliRunner().invoke(main, ["toc", str(path)])
    assert shown.exit_code == 0 and "第1章 来客" in shown.output and "第001章" not in shown.output
    spaced = chapter_file(tmp_path, "第1章 来客\n\n第001章\n\n" + BODY, "0002.txt")  # blank lines between
    assert chapters(spaced) == [("第1章 来客", BODY.split())]


@pytest.mark.parametrize(
    "text, titles",
    [
        (f"第1章 来客\n{BODY}第2章 夜雨\n{BODY}", ["第1章 来客", "第2章 夜雨"]),  # a real second chapter
        (f"第1章 来客\n第2章 夜雨\n{BODY}", ["第1章 来客", "第2章 夜雨"]),  # two titles in a row
        (f"第1章 来客\n第002章\n{BODY}", ["第1章 来客", "第002章"]),  # another number, bare
    ],
    ids=["second-chapter", "two-titles-in-a-row", "another-number"],
)
def test_two_headings_that_differ_stay_two_chapters(tmp_path, text, titles):
    path = chapter_file(tmp_path, text)
    found = chapters(path)
    assert [title for title, _ in found] == titles
    assert sum(len(blocks) for _, blocks in found) == len(BODY.split()) * text.count(BODY)


@pytest.mark.parametrize(
    "text",
    [
        "第1章 来客\n第001章\n" + BODY,
        "第1章 来客\n第1章 来客\n" + BODY,  # the same heading given twice
        "[正文 第1节]\n序章\n" + BODY,  # a site's label over the book's own 序章
        f"第1章 来客\n{BODY}第2章 夜雨\n{BODY}",
        f"第1章 来客\n第002章\n{BODY}",
        f"第一卷 起\n第一章 开始\n{BODY}",
        "序章\n" + BODY,
    ],
    ids=[
        "page-header",
        "given-twice",
        "label-over-prologue",
        "two-chapters",
        "another-number",
        "volume",
        "one",
    ],
)
def test_the_chapter_files_shortcut_makes_what_the_full_judgement_makes(tmp_path, text, monkeypatch):
    """Fewer than FILE_HEADINGS candidates leave nothing for the judgements of three of a kind: the
    shortcut's headings are those the full judgement chooses."""
    short = [(s.heading and s.heading.title, s.blocks) for s in split_sections(text, "f.txt")[0]]
    monkeypatch.setattr(heading_choice, "FILE_HEADINGS", 0)
    full = [(s.heading and s.heading.title, s.blocks) for s in split_sections(text, "f.txt")[0]]
    assert short == full and len(short) == len({title for title, _ in short})
