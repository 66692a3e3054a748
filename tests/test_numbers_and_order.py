import pytest

from bookbuilder.numerals import parse_numeral, to_chinese
from bookbuilder.source import order_key


@pytest.mark.parametrize("text, value", [
    ("十一", 11), ("一百零一", 101), ("两百", 200), ("一〇一", 101), ("二〇二三", 2023), ("一千零一", 1001),
    ("一万零五", 10005), ("壹佰零壹", 101), ("１２", 12), ("十", 10), ("二十", 20), ("12", 12), ("章", None),
])
def test_numerals(text, value):
    assert parse_numeral(text) == value


@pytest.mark.parametrize("n", [1, 10, 11, 20, 101, 110, 1001, 1234, 10005, 2000])
def test_numerals_round_trip(n):
    assert parse_numeral(to_chinese(n)) == n


@pytest.mark.parametrize("names, expected", [
    (["10.txt", "2.txt", "1.txt"], ["1.txt", "2.txt", "10.txt"]),
    (["002_486e.txt", "000_d74f.txt", "010_aaaa.txt"], ["000_d74f.txt", "002_486e.txt", "010_aaaa.txt"]),
    (["第十章.txt", "第二章.txt", "第一百零一章.txt", "第十一章.txt"], ["第二章.txt", "第十章.txt", "第十一章.txt", "第一百零一章.txt"]),
    (["番外一.txt", "尾声.txt", "第一章.txt", "楔子.txt"], ["楔子.txt", "第一章.txt", "尾声.txt", "番外一.txt"]),
    (["b2.txt", "b10.txt", "a.txt"], ["a.txt", "b2.txt", "b10.txt"]),
])
def test_file_order(names, expected):
    assert sorted(names, key=order_key) == expected
