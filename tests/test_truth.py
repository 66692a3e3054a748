"""The reader's truth (bench/shelves/truth) and the scorer that holds a read book against it."""

from __future__ import annotations

import csv
import importlib.util
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
TRUTH = REPO / "bench" / "shelves" / "truth"
_spec = importlib.util.spec_from_file_location("bench_truth", REPO / "bench" / "truth.py")
truth = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(truth)

FIELDS = {"book", "title", "author", "chapters", "first", "middle", "last", "volumes", "gone", "kept"}


def book(title="书", author="佚名", chapters=(("第一章 起", ["他走了。"]),), volume=None, description=""):
    return {
        "title": title,
        "author": author,
        "description": description,
        "volumes": [
            {
                "title": volume,
                "chapters": [
                    {"title": t, "kind": "chapter", "blocks": [[p, None] for p in paragraphs]}
                    for t, paragraphs in chapters
                ],
            }
        ],
    }


def labelled(**fields):
    base = {
        "book": "x.txt",
        "title": "书",
        "author": "",
        "chapters": 1,
        "first": "第一章 起",
        "middle": "第一章 起",
        "last": "第一章 起",
        "volumes": [],
        "gone": [],
        "kept": ["他走了。"],
    }
    return {**base, **fields}


def test_a_book_that_holds_every_truth_is_right():
    assert truth.score(labelled(), book()) == []


@pytest.mark.parametrize(
    "fields, read, wrong",
    [
        ({"title": "斗罗"}, book(), "title"),
        ({"author": "唐家三少"}, book(), "author"),
        ({}, book(author="某人"), "author"),  # the text names none: the product must not invent one
        ({"chapters": 2}, book(), "chapters"),
        ({"chapters": [2, 3]}, book(), "chapters"),
        ({"first": "第一章 落"}, book(), "first"),
        ({"middle": "第九章 中"}, book(), "middle"),
        ({"volumes": ["第一卷 始"]}, book(), "volumes"),
        ({}, book(volume="第一卷 始"), "volumes"),
        ({"gone": ["本章完"]}, book(chapters=(("第一章 起", ["他走了。本章完"]),)), "gone"),
        (
            {"kept": ["他走了，没有回头。"]},
            book(chapters=(("第一章 起", ["他走了，", "没有回头。"]),)),
            "kept",
        ),
    ],
)
def test_each_field_that_does_not_hold_is_named(fields, read, wrong):
    said = truth.score(labelled(**fields), read)
    assert [w.split(":")[0] for w in said] == [wrong]


def test_widths_spaces_quotes_and_ellipses_are_not_differences():
    read = book(
        title="《书》",
        chapters=(("第一章　起", ["“走吧……”他说，“明天见!”"]),),
    )
    said = truth.score(labelled(first="第一章 起", kept=['"走吧..."他说,「明天见！」']), read)
    assert said == []


def test_a_title_keeps_its_separator_before_a_quote():
    read = book(chapters=(("第三章“约定”", ["他走了。"]),))
    same = "第三章 “约定”"
    said = truth.score(labelled(first=same, middle=same, last=same), read)
    assert [w.split(":")[0] for w in said] == ["first", "last", "middle"]


def test_an_author_the_text_never_names_may_be_anonymous():
    assert truth.score(labelled(author=""), book(author="佚名")) == []
    assert truth.score(labelled(author=""), book(author="")) == []


def test_a_story_line_is_found_inside_a_paragraph_the_product_joined():
    read = book(chapters=(("第一章 起", ["前一句。他走了。后一句。"]),))
    assert truth.lost_lines(labelled(), read) == []


def _truth_files():
    return sorted(TRUTH.glob("*/*.toml"))


@pytest.mark.parametrize("path", _truth_files(), ids=lambda p: f"{p.parent.name}/{p.stem[:30]}")
def test_every_truth_file_is_well_formed(path):
    data = tomllib.loads(path.read_text("utf-8"))
    assert FIELDS <= set(data), FIELDS - set(data)
    assert path.stem == data["book"].removesuffix(".txt")
    count = data["chapters"]
    assert isinstance(count, int) or (isinstance(count, list) and len(count) == 2 and count[0] <= count[1])
    assert all(isinstance(s, str) and s.strip() for s in data["gone"] + data["kept"])
    assert len(data["kept"]) >= 3 or data.get("notes"), "three story lines, or a note saying why not"


def test_every_truth_file_names_a_book_of_its_shelf():
    """dev and heldout truths label books of sample.tsv; a shelf found later (fresh, fresh2) books
    of its own .tsv."""

    def names(path: Path, half: str | None = None) -> set:
        if not path.exists():
            return set()
        with path.open(encoding="utf-8") as fh:
            rows = csv.DictReader(fh, delimiter="\t")
            return {(r.get("half", half), r["local_name"].removesuffix(".txt")) for r in rows}

    later = {p.parent.name for p in _truth_files()} - {"dev", "heldout"}
    known = names(TRUTH / "sample.tsv").union(*(names(TRUTH.parent / f"{half}.tsv", half) for half in later))
    assert {(p.parent.name, p.stem) for p in _truth_files()} <= known


def test_a_line_of_marks_is_kept_as_a_scene_break():
    read = book(chapters=(("第一章 起", ["他走了。", None]),))
    assert truth.lost_lines(labelled(kept=["他走了。", "＊＊＊\u3000＊＊＊"]), read) == []
    assert truth.lost_lines(labelled(kept=["＊＊＊"]), book()) == ["＊＊＊"]  # no scene break: lost


def test_an_unknown_author_of_an_age_is_unknown():
    assert truth.score(labelled(author=""), book(author="清·佚名")) == []
    assert truth.score(labelled(author=""), book(author="清·李某"))[0].startswith("author")


def test_a_rule_of_marks_is_gone_unless_a_line_is_that_rule():
    rule = "-" * 40
    prose = book(chapters=(("第一章 起", ["他走了——再没回来。"]),))
    assert truth.still_there(labelled(gone=[rule]), prose) == []  # a dash in a sentence is not the rule
    left = book(chapters=(("第一章 起", ["他走了。", "—" * 12]),))
    assert truth.still_there(labelled(gone=[rule]), left) == [rule]
    assert truth.still_there(labelled(gone=["本站"]), book(chapters=(("第一章 起", ["本站首发。"]),))) == [
        "本站"
    ]
