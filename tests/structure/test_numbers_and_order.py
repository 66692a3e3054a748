import pytest

from bookbuilder.numerals import parse_numeral, to_chinese
from bookbuilder.pipeline import load_book
from bookbuilder.structure.file_order import order_key


@pytest.mark.parametrize(
    "text, value",
    [
        ("十一", 11),
        ("一百零一", 101),
        ("两百", 200),
        ("一〇一", 101),
        ("二〇二三", 2023),
        ("一千零一", 1001),
        ("廿一", 21),
        ("卅", 30),
        ("一百廿三", 123),  # 廿 and 卅, as older texts count (第廿一回)
        ("一万零五", 10005),
        ("壹佰零壹", 101),
        ("１２", 12),
        ("十", 10),
        ("二十", 20),
        ("12", 12),
        ("章", None),
    ],
)
def test_numerals(text, value):
    assert parse_numeral(text) == value


@pytest.mark.parametrize("n", [1, 10, 11, 20, 101, 110, 1001, 1234, 10005, 2000])
def test_numerals_round_trip(n):
    assert parse_numeral(to_chinese(n)) == n


@pytest.mark.parametrize(
    "names, expected",
    [
        (["10.txt", "2.txt", "1.txt"], ["1.txt", "2.txt", "10.txt"]),
        (["002_486e.txt", "000_d74f.txt", "010_aaaa.txt"], ["000_d74f.txt", "002_486e.txt", "010_aaaa.txt"]),
        (
            ["第十章.txt", "第二章.txt", "第一百零一章.txt", "第十一章.txt"],
            ["第二章.txt", "第十章.txt", "第十一章.txt", "第一百零一章.txt"],
        ),
        (
            ["番外一.txt", "尾声.txt", "第一章.txt", "楔子.txt"],
            ["楔子.txt", "第一章.txt", "尾声.txt", "番外一.txt"],
        ),
        # a preface or opening lead, 序 only as the whole name or before its title: 序列号 is a chapter's name
        (
            ["第1章.txt", "序.txt", "序幕.txt", "序列号.txt"],
            ["序.txt", "序幕.txt", "第1章.txt", "序列号.txt"],
        ),
        (["第一章.txt", "序：缘起.txt"], ["序：缘起.txt", "第一章.txt"]),
        (["b2.txt", "b10.txt", "a.txt"], ["a.txt", "b2.txt", "b10.txt"]),
        (
            ["②终有一天.txt", "⑩于是.txt", "①即便如此.txt"],
            ["①即便如此.txt", "②终有一天.txt", "⑩于是.txt"],
        ),  # circled numbers
        (
            ["后记.txt", "Prelude 1.txt", "①即便如此.txt"],
            ["①即便如此.txt", "Prelude 1.txt", "后记.txt"],
        ),  # 后记 never leads
    ],
)
def test_file_order(names, expected):
    assert sorted(names, key=order_key) == expected


def test_a_folders_own_contents_file_orders_it_and_gives_its_blurb(tmp_path):
    """koujjiao/…14's shape: files named by their titles, the order only in 目录.txt, whose
    entries name them loosely (Interlude for Interlude 1 and 2, a title with a word changed)."""
    names = [
        "Prelude 1",
        "①即便如此，日常仍在继续。",
        "Interlude 1",
        "Interlude 2",
        "②终有一天，将会习惯。",
        "后记",
    ]
    for k, name in enumerate(names):
        (tmp_path / f"{name}.txt").write_text(f"第{k}段文字，他走了。\n", "utf-8")
    listed = (
        "简介\n持续着错误的青春模样。\n\n目录\nPrelude 1\n①即便这般，日常仍在继续。"
        "\nInterlude\nInterlude\n②终有一天，将会习惯。\n"
    )
    (tmp_path / "目录.txt").write_text(listed, "utf-8")
    loaded = load_book(tmp_path, jobs=1)
    assert [c.title for c in loaded.book.chapters()] == names
    assert loaded.book.meta.description == "持续着错误的青春模样。"
