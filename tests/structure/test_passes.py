"""Each heading pass on its own (bookbuilder.structure.sections.HEADING_PASSES): per pass a table of
small synthetic files, the headings the file gets and which pass decided each, and the headings it
gets with that pass switched off."""

import json

import pytest
import regex
from click.testing import CliRunner

from bookbuilder.cli import main
from bookbuilder.model import Chapter, Location, Paragraph, SourceFile
from bookbuilder.normalize.legado import TocRule
from bookbuilder.per_file import FileRead, Normalized, decode_read, encode_read
from bookbuilder.structure.fixes import Fix
from bookbuilder.structure.passes import Reading, ReadingOptions, run_passes
from bookbuilder.structure.sections import HEADING_PASSES, find_candidates, split_sections

BODY = "他走进院子，看见一棵老树。\n树下坐着一个老人。\n"
RECALL = TocRule("后顾", regex.compile(r"(?<![的了])回忆[一二三四五六七八九十]+$"))  # a Legado rule for 回忆N


def _chapters(titles, body=BODY) -> str:
    return "".join(f"{title}\n{body}" for title in titles)


def _decided(text: str, off=(), **rules) -> list[tuple[str, str]]:
    reading = run_passes(Reading("f.txt", text, ReadingOptions(**rules)), HEADING_PASSES, off=frozenset(off))
    return [(s.heading.title, s.decided_by) for s in reading.sections or [] if s.heading is not None]


# (pass, shape, file, book.toml's rules, (title, pass that decided it) per heading, titles with the pass off)
CASES = [
    (
        "candidates",
        "numbered chapters",
        _chapters(["第一章 开始", "第二章 继续"]),
        {},
        [("第一章 开始", "candidates"), ("第二章 继续", "candidates")],
        [],
    ),
    (
        "candidates",
        "a heading after a sentence on its line",
        f"他走了。\n{BODY}为他送行。第二章 下山\n{BODY}",
        {},
        [("第二章 下山", "candidates")],
        [],
    ),
    (
        "own-contents",
        "unnumbered titles a 目录 names",
        "目录\n游天台山日记\n游雁宕山日记\n游白岳山日记\n以下是游记。\n"
        + _chapters(["游天台山日记", "游雁宕山日记", "游白岳山日记"]),
        {},
        [
            ("游天台山日记", "own-contents"),
            ("游雁宕山日记", "own-contents"),
            ("游白岳山日记", "own-contents"),
        ],
        [],
    ),
    (
        "choice",
        "the file's own contents dropped",
        "第一章 甲\n第二章 乙\n第三章 丙\n" + _chapters(["第一章 甲", "第二章 乙", "第三章 丙"]),
        {},
        [("第一章 甲", "candidates"), ("第二章 乙", "candidates"), ("第三章 丙", "candidates")],
        ["第一章 甲", "第二章 乙", "第三章 丙"] * 2,
    ),
    (
        "choice",
        "a bare numeral in a book of 第N章",
        _chapters(["第一章 甲", "一", "第二章 乙", "第三章 丙"]),
        {},
        [("第一章 甲", "candidates"), ("第二章 乙", "candidates"), ("第三章 丙", "candidates")],
        ["第一章 甲", "一", "第二章 乙", "第三章 丙"],
    ),
    (
        "choice",
        "a volume named on every chapter's line",
        _chapters([f"第一章 墓中寻龙 {t}" for t in ("盗墓", "厉种", "驴头狼")]),
        {},
        [("盗墓", "choice"), ("厉种", "choice"), ("驴头狼", "choice")],
        ["第一章 墓中寻龙 盗墓", "第一章 墓中寻龙 厉种", "第一章 墓中寻龙 驴头狼"],
    ),
    (
        "few-headings",
        "headings behind the book's name",
        _chapters(["九州 第一章 蛮荒", "九州 第二章 归来", "九州 第三章 远行"], BODY * 20),
        {},
        [("第一章 蛮荒", "few-headings"), ("第二章 归来", "few-headings"), ("第三章 远行", "few-headings")],
        [],
    ),
    (
        "part-sections",
        "bracketed titles opening parts with no chapters",
        "".join(
            f"第{n}部\n【{t}】\n{BODY * 2}"
            for n, t in zip("一二三", ["公元元年,甲", "危机纪元,乙", "广播纪元,丙"])
        ),
        {},
        [
            ("第一部", "part-sections"),
            ("【公元元年,甲】", "part-sections"),
            ("第二部", "part-sections"),
            ("【危机纪元,乙】", "part-sections"),
            ("第三部", "part-sections"),
            ("【广播纪元,丙】", "part-sections"),
        ],
        ["第一部", "第二部", "第三部"],
    ),
    (
        "bracketed-parts",
        "bracketed names right above chapters",
        "第1章 序\n"
        + "".join(
            f"{p}\n" + _chapters([f"第{n}章 甲{n}" for n in ns])
            for p, ns in (("【洗心怀】", (2, 3, 4)), ("【奉宸殿】", (5, 6, 7)))
        ),
        {},
        [("第1章 序", "candidates")]
        + [("【洗心怀】", "bracketed-parts")]
        + [(f"第{n}章 甲{n}", "candidates") for n in (2, 3, 4)]
        + [("【奉宸殿】", "bracketed-parts")]
        + [(f"第{n}章 甲{n}", "candidates") for n in (5, 6, 7)],
        ["第1章 序"] + [f"第{n}章 甲{n}" for n in range(2, 8)],
    ),
    (
        "toc-rules",
        "a Legado rule's headings",
        _chapters(f"回忆{n}" for n in "一二三四"),
        {"toc_rules": (RECALL,)},
        [(f"回忆{n}", "toc-rules") for n in "一二三四"],
        [],
    ),
    (
        "fixes",
        "a heading made text, one renamed",
        _chapters(["第一章 甲", "第二章 乙", "第三章 丙"]),
        {
            "fixes": (
                Fix(1, 1, "f.txt", 4, None, "text", None, False),
                Fix(2, 2, None, None, "第三章 丙", None, "第三章 归途", False),
            )
        },
        [("第一章 甲", "candidates"), ("第三章 归途", "fixes")],
        ["第一章 甲", "第二章 乙", "第三章 丙"],
    ),
    (
        "sections",
        "a page header over every heading",
        "".join(f"古龙作品集\n第{n}章 {t}\n{BODY}" for n, t in zip("一二三", "甲乙丙")),
        {},
        [("第一章 甲", "candidates"), ("第二章 乙", "candidates"), ("第三章 丙", "candidates")],
        [],
    ),
    (
        "title-below",
        "a bare 第N回 over its title",
        "".join(
            f"第{n}回\n{t}\n{BODY}"
            for n, t in zip("一二三", ["甄士隱夢幻識通靈", "賈雨村風塵懷閨秀", "冷子興演說榮國府"])
        ),
        {},
        [
            ("第一回 甄士隱夢幻識通靈", "title-below"),
            ("第二回 賈雨村風塵懷閨秀", "title-below"),
            ("第三回 冷子興演說榮國府", "title-below"),
        ],
        ["第一回", "第二回", "第三回"],
    ),
    (
        "couplets",
        "a 回目 couplet on two lines",
        "".join(
            f"第{n}回　{a}\n{b}\n{BODY}"
            for n, a, b in zip(
                "一二三",
                ["絕世奇事傳聞裡", "英雄豪傑聚一堂", "風雲變幻起波瀾"],
                ["最好交情見面初", "刀光劍影出江湖", "恩怨情仇一線牽"],
            )
        ),
        {},
        [
            ("第一回 絕世奇事傳聞裡 最好交情見面初", "couplets"),
            ("第二回 英雄豪傑聚一堂 刀光劍影出江湖", "couplets"),
            ("第三回 風雲變幻起波瀾 恩怨情仇一線牽", "couplets"),
        ],
        ["第一回 絕世奇事傳聞裡", "第二回 英雄豪傑聚一堂", "第三回 風雲變幻起波瀾"],
    ),
]
_IDS = [f"{name}: {shape}" for name, shape, *_ in CASES]


@pytest.mark.parametrize("name, shape, text, rules, decided, without", CASES, ids=_IDS)
def test_each_pass_decides_its_headings(name, shape, text, rules, decided, without):
    assert _decided(text, **rules) == decided


@pytest.mark.parametrize("name, shape, text, rules, decided, without", CASES, ids=_IDS)
def test_a_pass_switched_off_changes_the_outcome(name, shape, text, rules, decided, without):
    titles = [title for title, _ in _decided(text, off={name}, **rules)]
    assert titles == without and titles != [title for title, _ in decided]


def test_every_pass_has_its_cases_and_the_list_names_each_once():
    names = [step.name for step in HEADING_PASSES]
    assert len(set(names)) == len(names)
    assert set(names) == {name for name, *_ in CASES}


@pytest.mark.parametrize(
    "text, cands, separator_at, contents_at",
    [
        ("第一章 开始\n正文。", {0: "第一章 开始"}, [], []),
        ("正文。\n***\n又一段。", {}, [1], []),
        ("目录\n第一章 甲\n第二章 乙", {1: "第一章 甲", 2: "第二章 乙"}, [], [0]),
        ("她说：“第一章还没写完。”", {}, [], []),
    ],
)
def test_candidates_alone(text, cands, separator_at, contents_at):
    reading = find_candidates(Reading("f.txt", text))
    assert {i: h.title for i, h in reading.cands.items()} == cands
    assert (reading.separator_at, reading.contents_at) == (separator_at, contents_at)
    assert len(reading.lines) == text.count("\n") + 1  # every non-blank line, headings too


def test_the_cut_drops_the_page_header_and_a_heading_given_again():
    text = "".join(f"古龙作品集\n第{n}章 {t}\n第{n}章 {t}\n{BODY}" for n, t in zip("一二三", "甲乙丙"))
    sections, notes = split_sections(text, "f.txt")
    assert [[b.text for b in s.blocks] for s in sections] == [BODY.split()] * 3
    assert "I303" in [d.code for d in notes]


@pytest.mark.parametrize("name, shape, text, rules, decided, without", CASES, ids=_IDS)
def test_a_pass_leaves_the_reading_it_was_given_as_it_was(name, shape, text, rules, decided, without):
    k = [step.name for step in HEADING_PASSES].index(name)
    given = run_passes(Reading("f.txt", text, ReadingOptions(**rules)), HEADING_PASSES[:k])

    def state(r: Reading):
        sections = r.sections and [(s.heading, list(s.blocks), s.decided_by) for s in r.sections]
        return (
            list(r.lines),
            dict(r.cands),
            dict(r.before),
            list(r.looked_at),
            r.choice and dict(r.choice.headings),
            dict(r.decided),
            sections,
        )

    before = state(given)
    HEADING_PASSES[k].run(given)
    assert state(given) == before


def test_split_sections_runs_the_passes_it_is_given():
    text = "".join(
        f"第{n}回\n{t}\n{BODY}"
        for n, t in zip("一二三", ["甄士隱夢幻識通靈", "賈雨村風塵懷閨秀", "冷子興演說榮國府"])
    )
    fewer = tuple(step for step in HEADING_PASSES if step.name != "title-below")
    assert [s.heading.title for s in split_sections(text, "f.txt", passes=fewer)[0]] == [
        "第一回",
        "第二回",
        "第三回",
    ]
    assert split_sections(text, "f.txt")[0][0].heading.title == "第一回 甄士隱夢幻識通靈"


def test_passes_are_timed_and_an_unknown_name_is_refused():
    seconds: dict[str, float] = {}
    run_passes(
        Reading("f.txt", _chapters(["第一章 甲", "第二章 乙"])),
        HEADING_PASSES,
        off={"couplets"},
        seconds=seconds,
    )
    assert set(seconds) == {step.name for step in HEADING_PASSES} - {"couplets"}
    assert all(s >= 0 for s in seconds.values())
    with pytest.raises(ValueError, match="no such pass: couplet"):
        run_passes(Reading("f.txt", "正文。"), HEADING_PASSES, off={"couplet"})


def test_the_pass_crosses_the_process_boundary():
    chapter = Chapter(
        "第一章 甲", (Paragraph("正文。", Location("f.txt", 2)),), Location("f.txt", 1), 1, decided_by="fixes"
    )
    read = FileRead(SourceFile("f.txt", "utf-8", "strict"), (), "", (Normalized(chapter, {}, []),))
    assert decode_read(encode_read(read)).parts[0].chapter.decided_by == "fixes"


def test_toc_json_says_which_pass_decided_each_heading(tmp_path):
    novel = tmp_path / "novel.txt"
    novel.write_text(
        "书名：测试\n\n"
        + "".join(
            f"第{n}回\n{t}\n{BODY * 3}"
            for n, t in zip("一二三", ["甄士隱夢幻識通靈", "賈雨村風塵懷閨秀", "冷子興演說榮國府"])
        )
        + _chapters(["第四回 英雄豪傑"], BODY * 3),
        "utf-8",
    )
    rows = json.loads(CliRunner().invoke(main, ["toc", str(novel), "--json"]).output)
    assert [(row["title"], row["pass"]) for row in rows if row["kind"] == "chapter"] == [
        ("第一回 甄士隱夢幻識通靈", "title-below"),
        ("第二回 賈雨村風塵懷閨秀", "title-below"),
        ("第三回 冷子興演說榮國府", "title-below"),
        ("第四回 英雄豪傑", "candidates"),
    ]


def test_the_readme_names_every_pass_toc_json_can_show():
    from pathlib import Path

    readme = (Path(__file__).parents[2] / "README.md").read_text("utf-8")
    assert all(
        f"`{step.name}`" in readme for step in HEADING_PASSES if step.name != "sections"
    )  # the cut decides none
