"""Parts and volumes read as a level above chapters, as a reader judges them (docs/rules-notes.md,
"Parts and volumes as a reader sees them"): each shape on both sides, the volume it makes and the
line that stays a chapter or text."""

import pytest

from bookbuilder.pipeline import load_book
from bookbuilder.structure.chapters import volume_in_name
from bookbuilder.structure.headings import candidate
from tests.conftest import write_book

BODY = "他走进院子，天已经黑了。\n" * 3


def contents(root) -> list[tuple[str | None, str]]:
    return [(v.title, c.title) for v in load_book(root, jobs=1).book.volumes for c in v.chapters]


@pytest.mark.parametrize(
    "stem, volume, title",
    [
        ("上卷 第一回 王教头私走延安府 九纹龙大闹史家村", "上卷", "第一回 王教头私走延安府 九纹龙大闹史家村"),
        ("下卷 第六十一回 放冷箭燕青救主", "下卷", "第六十一回 放冷箭燕青救主"),
        ("第二卷 风雪 第3章 不归", "第二卷 风雪", "第3章 不归"),
        ("第一回 王教头私走延安府", None, None),  # no volume in the name: the name titles it whole
        ("正文 第一回 宴桃园豪杰三结义", None, None),  # a site's section label, no volume
        ("上卷帘子", None, None),  # prose: a volume's name needs a separator
        ("楔子 张天师祈禳瘟疫", None, None),
    ],
)
def test_a_volume_spelled_before_the_chapter_in_a_file_name(stem, volume, title):
    named = volume_in_name(stem)
    assert (named and named.volume, named and named.title) == (volume, title)


def test_a_folder_whose_file_names_carry_their_volume_has_those_volumes(tmp_path):
    """summer19940609's 水浒传 and 红楼梦: 上卷 第一回 ….txt … 下卷 第六十一回 ….txt, each file one line
    of text and no heading: the volumes open as the names say, the chapters keep their own titles."""
    root = write_book(
        tmp_path / "b",
        {
            "楔子 开篇.txt": "话说天下大势。",
            "上卷 第一回 甲事.txt": "第一回的正文。",
            "上卷 第二回 乙事.txt": "第二回的正文。",
            "下卷 第三回 丙事.txt": "第三回的正文。",
            "下卷 第四回 丁事.txt": "第四回的正文。",
        },
        "",
    )
    assert contents(root) == [
        (None, "楔子 开篇"),
        ("上卷", "第一回 甲事"),
        ("上卷", "第二回 乙事"),
        ("下卷", "第三回 丙事"),
        ("下卷", "第四回 丁事"),
    ]


def test_a_folder_whose_file_names_carry_no_volume_has_none(tmp_path):
    root = write_book(
        tmp_path / "b",
        {
            "第一回 甲事.txt": "第一回的正文。",
            "第二回 乙事.txt": "第二回的正文。",
            "第三回 丙事.txt": "正文。",
        },
        "",
    )
    assert contents(root) == [(None, "第一回 甲事"), (None, "第二回 乙事"), (None, "第三回 丙事")]


def test_a_part_over_its_first_chapter_is_a_volume_and_the_chapter_stays(tmp_path):
    """魔鬼在你身后: Part 1 开局 right over <h4 >1</h4>; chapter 1 had become the part's text. Three
    parts at least (FAMILY_MIN, as every weak rule's family): two are as likely a story's lines."""
    part = {1: "Part 1 局", 3: "Part 2 局", 5: "Part 3 局"}
    body = "".join(f"{part[n]}\n<h4 >{n}</h4>\n{BODY}" if n in part else f"{n}\n{BODY}" for n in range(1, 7))
    source = tmp_path / "book.txt"
    source.write_text(f"序幕\n{BODY}{body}", "utf-8")
    assert contents(source) == [(None, "序幕")] + [(part[n - (n + 1) % 2], str(n)) for n in range(1, 7)]
    source.write_text(f"序幕\n{BODY}{body.replace('Part 3 局', '尾')}", "utf-8")
    assert "Part 1 局" not in {v for v, _ in contents(source)}  # two parts: text, as before


def test_parts_that_are_the_only_headings_are_the_chapters(tmp_path):
    """微微一笑很倾城: part1 被抛弃了 … with no chapter under any: the parts are the chapters."""
    source = tmp_path / "book.txt"
    source.write_text("".join(f"part{n} 名{n}\n{BODY}" for n in range(1, 5)), "utf-8")
    assert contents(source) == [(None, f"part{n} 名{n}") for n in range(1, 5)]


@pytest.mark.parametrize(
    "line, kind, title, volume",
    [
        ("上卷 附录　陈光蕊赴任逢灾　江流僧复仇报本", "back", "附录 陈光蕊赴任逢灾 江流僧复仇报本", "上卷"),
        ("第二卷 序章 风起", "front", "序章 风起", "第二卷"),
        ("末卷 尾声", "volume", "末卷 尾声", None),  # the matter word alone: the last volume's name
        ("第一卷 风云", "volume", "第一卷 风云", None),
        ("第三冊", "volume", "第三冊", None),  # a print edition's 冊 (天龍八部, five of them)
        ("下册 归途", "volume", "下册 归途", None),
        ("第一部……………………………1", "volume", "第一部", None),  # a contents' leader and page number
        ("第一章 风起……………12", "chapter", "第一章 风起", None),
        ("第一章 等待……1", "chapter", "第一章 等待……1", None),  # a title's ellipsis, not a leader
    ],
)
def test_what_a_volume_line_holds(line, kind, title, volume):
    heading = candidate(line, 1)
    assert (heading.kind, heading.title, heading.volume) == (kind, title, volume)


def test_a_contents_of_parts_with_page_numbers_goes(tmp_path):
    """三体全集's 三体III: 目录, 第一部……1 … 第六部……457, then the six 部 over their text: the entries
    had become six empty volumes of their own."""
    contents_lines = "".join(f"第{n}部……………………{k}\n\n" for n, k in zip("一二三", (1, 7, 211)))
    parts = "".join(f"第{n}部\n第{n}章 名\n{BODY}" for n in "一二三")
    source = tmp_path / "book.txt"
    source.write_text(f"目录\n\n{contents_lines}{parts}", "utf-8")
    assert [v.title for v in load_book(source, jobs=1).book.volumes if v.title] == [
        "第一部",
        "第二部",
        "第三部",
    ]
