"""Parts and volumes read as a level above chapters, as a reader judges them (docs/rules-notes.md,
"Parts and volumes as a reader sees them"): each shape on both sides, the volume it makes and the
line that stays a chapter or text."""

import pytest

from bookbuilder.pipeline import load_book
from bookbuilder.structure.chapters import volume_in_name
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
