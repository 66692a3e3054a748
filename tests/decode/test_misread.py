"""Lines of Chinese a scraper showed as Latin-1 or cp1252 (decode/misread.py): read back where the
bytes read as common Chinese and the line reads as no Western language; each line an I102."""

import pytest

from bookbuilder.decode import misread
from bookbuilder.decode.plausibility import common_chars
from bookbuilder.decode.text import decode_chapter
from tests.thresholds.rows import Threshold


def shown_as_latin1(text: str, codec: str = "gbk") -> str:
    return text.encode(codec).decode("latin-1")


def shown_as_cp1252(text: str) -> str:
    """As Windows shows GBK bytes: cp1252's € ‚ … for 80–9F, the C1 control where cp1252 has none."""
    return "".join(bytes([b]).decode("cp1252", "ignore") or chr(b) for b in text.encode("gbk"))


@pytest.mark.parametrize(
    "line, read",
    [
        (shown_as_latin1("第三章 六句真言"), "第三章 六句真言"),
        # short titles read as less common than a whole file (0.5 to 0.67: 一念永恒's 10 the old 0.7 missed)
        (shown_as_latin1("第四十二章 晋升考核"), "第四十二章 晋升考核"),
        (shown_as_latin1("第111章 触摸桎梏"), "第111章 触摸桎梏"),
        (shown_as_latin1("第168章 微服私访　"), "第168章 微服私访　"),
        (shown_as_latin1("正文"), "正文"),
        (shown_as_cp1252("第一百章 “谁在那里”"), "第一百章 “谁在那里”"),  # 80–9F bytes as cp1252 shows them
        (shown_as_latin1("天下大势，分久必合", "utf-8"), "天下大势，分久必合"),
    ],
)
def test_misread_lines_are_read_back(line, read):
    assert misread.read_back(line)[0] == read


@pytest.mark.parametrize(
    "line",
    [
        "Émile Zola était là, Ça va très bien",  # French: a letter in ten accented
        "Über die Brücke gehen wir nach Hause",  # German
        "Noël à Sète",
        "éééé",  # no Chinese in its bytes
        "······",  # an ornament: 贩贩贩 in GBK, one character repeated
        "××××××",
        "¤¤¤¤",
        shown_as_latin1("第一章") + " Hello World",  # mostly English: reads as a Western line, stays
        "第一章 Ã¤",  # a line with Han was never one byte a character
    ],
)
def test_western_lines_and_ornaments_stay(line):
    assert misread.read_back(line) is None


def test_each_line_read_back_is_an_info_with_its_line():
    text = "第一章 回家\n他走进院子。\n" + shown_as_latin1("第二章 六句真言") + "\n她笑了。\nNoël à Sète\n"
    decoded = decode_chapter(text.encode("utf-8"), "m.txt")
    assert decoded.text.split("\n")[2] == "第二章 六句真言"
    assert decoded.text.split("\n")[4] == "Noël à Sète"
    assert [(d.code, d.at.line) for d in decoded.diagnostics] == [("I102", 3)]
    assert "第二章 六句真言" in decoded.diagnostics[0].message


# Han characters outside the 1,500 common ones, and inside them
RARE = "蕤薨嬖缱绻觳觫龃龉魍魉饕餮耄耋踟蹰"
COMMON = "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对"


def test_misread_plausible_threshold():
    """A line of 20 Han characters, this share of them common: read back from half on."""
    rare = [c for c in RARE if c not in common_chars()]
    common = [c for c in COMMON if c in common_chars()]

    def probe(share: float) -> bool:
        n = round(share * 20)
        text = "".join(common[:n]) + "".join(rare[k % len(rare)] for k in range(20 - n))
        return misread.read_back(shown_as_latin1(text)) is not None

    Threshold("misread.MISREAD_PLAUSIBLE", misread.MISREAD_PLAUSIBLE, probe, True, False, step=-0.05).check()


def test_misread_distinct_threshold():
    def probe(n: int) -> bool:
        return misread.read_back(shown_as_latin1("正文说"[:n])) is not None

    Threshold("misread.MISREAD_DISTINCT", misread.MISREAD_DISTINCT, probe, True, False, step=-1).check()


def test_western_share_threshold():
    """第三章 is six characters outside ASCII: with six ASCII letters beside them (a half) the line
    is no Western text and is read back; with seven it reads as one and stays."""

    def probe(share: float) -> bool:
        letters = round(6 / share - 6)
        return misread.read_back(shown_as_latin1("第三章") + " " + "a" * letters) is not None

    Threshold("misread.WESTERN_SHARE", misread.WESTERN_SHARE, probe, True, False, step=-0.05).check()
