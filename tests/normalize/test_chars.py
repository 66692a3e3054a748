import pytest
from hypothesis import given, settings, strategies as st

from bookbuilder.normalize import Normalizer, chars, enabled

SIMPLIFIED, TRADITIONAL = Normalizer(enabled({}), "zh-Hans"), Normalizer(enabled({}), "zh-Hant")


def norm(text: str) -> str:
    return SIMPLIFIED.text(text)


@pytest.mark.parametrize("raw, expected", [
    # FW-1
    ("他花了１０００元，买了一部ｉＰｈｏｎｅ。", "他花了1000元，买了一部iPhone。"),
    ("１６：３２", "16:32"),
    # PU-1
    ('他停下脚步,回头看了一眼,问道:"你确定?"', "他停下脚步，回头看了一眼，问道：“你确定？”"),
    ("原来如此!他终于明白了.", "原来如此！他终于明白了。"),
    ("真的?!", "真的？！"),
    ("中文;中文", "中文；中文"),
    ("中文; 中文", "中文; 中文"),  # ; only between two Han characters
    ("他(很轻)地说", "他（很轻）地说"),
    ("见图(1)与(a)", "见图(1)与(a)"),  # no Han inside: not Chinese parentheses
    ("他说:\n", "他说：\n"),  # : at the paragraph's end
    ("比分3:2", "比分3:2"),  # after a digit: a ratio, not a Chinese colon
    ("迅速东撤.“没错", "迅速东撤。“没错"),
    ("关闭城门..", "关闭城门。。"),  # two dots are two full stops (a typo kept: RP-1 is off); three are ……
    # QU-1
    ('他说："走吧。"她点了点头："好。"', "他说：“走吧。”她点了点头：“好。”"),
    ('他说：“走吧。"她说："好。”', "他说：“走吧。”她说：“好。”"),  # mixed curly and straight
    ("这是'不'字", "这是‘不’字"),
    ('呼喊：“斩敌一人。惊呼："西门起火', "呼喊：“斩敌一人。惊呼：“西门起火"),  # after ： it opens, even with “ open
    ('"走吧，"他说。"好。"', "“走吧，”他说。“好。”"),
    # EL-1
    ("他沉默了...", "他沉默了……"),
    ("“我不知道。。。”", "“我不知道……”"),
    ("那是···一个梦吗？", "那是……一个梦吗？"),
    ("窗外⋯⋯什么也没有", "窗外……什么也没有"),
    ("她想了想......终于", "她想了想……终于"),
    ("他想…算了", "他想……算了"),
    # DA-1
    ("他--不，是她", "他——不，是她"),
    ("可是—我不想去", "可是——我不想去"),
    ("Anna—Marie", "Anna—Marie"),  # a lone — between Latin letters stays
    ("他――不", "他——不"),
    # SP-2
    ("iPhone ，好", "iPhone，好"),
    ("他说 ： “好 。”", "他说：“好。”"),
])
def test_rule_table(raw, expected):
    assert norm(raw) == expected


@pytest.mark.parametrize("keep", [
    "12:30", "1,000", "3.14", "v2.0", "https://www.example.com/path?a=1,b=2&c=3", "writer@example.com",
    "Hello, world! How are you?", "约翰·史密斯", "1998-2003", "COVID-19", "e-mail", "don't", "&amp;",
    "……", "…………", "——", "！！！", "？？", "第十四章 寒夜", "他身高5'3\"。",
])
def test_must_not_change(keep):
    assert norm(keep) == keep


def test_must_not_change_inside_chinese():
    text = "访问https://www.example.com/a,b，时间12:30，价格1,000元，圆周率3.14。"
    assert norm(text) == text


def test_traditional_quotes_prefer_corner_brackets():
    assert TRADITIONAL.text('他說："走吧。"') == "他說：「走吧。」"
    assert TRADITIONAL.text("「好」『好』") == "「好」『好』"


def test_optional_rules():
    assert chars.repeated_punctuation("好。。他，，说！！！") == "好。他，说！！！"
    assert chars.pangu_spacing("在LeanCloud上用3个") == "在 LeanCloud 上用 3 个"
    assert chars.pangu_spacing(chars.pangu_spacing("中A中")) == "中 A 中"


def test_rules_never_cross_paragraphs():
    assert norm("他说\n.接着") == "他说\n.接着"


TEXTS = st.text(st.one_of(
    st.characters(min_codepoint=0x4E00, max_codepoint=0x4E80),
    st.sampled_from(list(",.!?;:\"'()-—―…。，“”‘’「」 \n0123456789abcXYZ@/ｉＰ１")),
), max_size=80)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(TEXTS)
def test_property_idempotent_and_never_raises(text):
    once = norm(text)
    assert norm(once) == once


def test_opencc_conversion_sets_language_and_quote_style(tmp_path):
    from bookbuilder.pipeline import load_book
    from tests.conftest import write_book

    root = write_book(tmp_path / "b", {"1.txt": '第一章 开始\n他说:"这里的头发与后来发生的事。"'}, '[normalize]\nconvert = "s2t"\n')
    book = load_book(root).book
    (chapter,) = book.chapters()
    assert book.meta.language == "zh-Hant"
    assert chapter.title == "第一章 開始"
    assert chapter.blocks[0].text == "他說：「這裏的頭髮與後來發生的事。」"


def test_rules_can_be_switched_off_and_are_counted(tmp_path):
    from bookbuilder.pipeline import load_book
    from tests.conftest import write_book

    files = {"1.txt": "第一章\n他沉默了...\n这是一个很长很长的句子但是还没有结束呢\n在这里结束。"}
    on = load_book(write_book(tmp_path / "a", files, "")).book
    off = load_book(write_book(tmp_path / "b", files, "[normalize]\nellipsis = false\nunwrap = false\n")).book
    assert dict(on.changes) == {"ellipsis": 1, "unwrap": 1}
    assert [b.text for b in next(off.chapters()).blocks] == ["他沉默了...", "这是一个很长很长的句子但是还没有结束呢", "在这里结束。"]
    assert dict(off.changes) == {}
