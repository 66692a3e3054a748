import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bookbuilder.normalize import chars
from bookbuilder.normalize.rules import Normalizer, enabled

SIMPLIFIED, TRADITIONAL = Normalizer(enabled({}), "zh-Hans"), Normalizer(enabled({}), "zh-Hant")


def norm(text: str) -> str:
    return SIMPLIFIED.text(text)


@pytest.mark.parametrize(
    "raw, expected",
    [
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
        (
            "关闭城门..",
            "关闭城门。。",
        ),  # two dots are two full stops (a typo kept: RP-1 is off); three are ……
        # QU-1
        ('他说："走吧。"她点了点头："好。"', "他说：“走吧。”她点了点头：“好。”"),
        ('他说：“走吧。"她说："好。”', "他说：“走吧。”她说：“好。”"),  # mixed curly and straight
        ("这是'不'字", "这是‘不’字"),
        (
            '呼喊：“斩敌一人。惊呼："西门起火',
            "呼喊：“斩敌一人。惊呼：“西门起火",
        ),  # after ： it opens, even with “ open
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
    ],
)
def test_rule_table(raw, expected):
    assert norm(raw) == expected


# SP-3: what a join left between Han characters (呼兰河传, 丘吉尔, 龙族4, 安徒生 from downloads), in a
# chapter that has three or more of them; each row is a paragraph of such a chapter.
JOINED = "他在海军进攻 狭窄段的前夕到达，驱逐舰上的人 挤满了甲板，一 应礼仪都免了。"


@pytest.mark.parametrize(
    "raw, expected",
    [
        (
            "老厨子告诉我：“老胡 家的团 圆媳妇来啦，你还不知道。”",
            "老厨子告诉我：“老胡家的团圆媳妇来啦，你还不知道。”",
        ),
        (
            "戴一副 细框眼镜, 一双素白的长腿。",
            "戴一副细框眼镜，一双素白的长腿。",
        ),  # a half-width comma: prose too
        (
            "他吟道：床前明月光 疑是地上霜，举头望明月 低头思故乡。",
            "他吟道：床前明月光 疑是地上霜，举头望明月 低头思故乡。",
        ),  # verse
        ("张三 李四 王五，都来了。", "张三 李四 王五，都来了。"),  # names
        (
            "诗云：关关雎鸠 在河之洲，窈窕淑女 君子好逑。",
            "诗云：关关雎鸠 在河之洲，窈窕淑女 君子好逑。",
        ),  # four-character verse
        ("床前明月光 疑是地上霜", "床前明月光 疑是地上霜"),  # no sentence mark: verse or a list
        ("他买了 iPhone 手机，很高兴。", "他买了 iPhone 手机，很高兴。"),  # Latin beside it: not between Han
    ],
)
def test_join_spaces_in_a_chapter_that_has_them(raw, expected):
    assert norm(f"{JOINED}\n{raw}").split("\n") == [
        "他在海军进攻狭窄段的前夕到达，驱逐舰上的人挤满了甲板，一应礼仪都免了。",
        expected,
    ]


def test_a_few_spaces_in_a_long_chapter_are_left_as_they_are():
    """Lyrics parted by spaces in a chapter of prose (三生三世, 镜): under two per 1,000 characters."""
    lyrics = "千人饮血而欢战马嘶鸣，鼓号齐鸣响彻云端 云不散念惨淡，离颜水 长流化相思 泪悄然。"
    text = "\n".join(["他走进院子，看见一棵老树，树下坐着一个老人。" * 8] * 10 + [lyrics])
    assert norm(text).split("\n")[-1] == lyrics


def test_a_lone_character_set_apart_by_spaces_stays():
    """红楼梦's plaques: 曠性怡情匾額 迎 春園成景備特精奇 (the name between the plaque and the poem)."""
    for line in (
        "曠性怡情匾額 迎 春園成景備特精奇，奉命羞題額曠怡。",
        "憶菊 蘅蕪君 悵望西風抱悶思，蓼紅葦白斷腸時。",
        "诡异追着饲养员从游戏出来了 作者：某甲",
    ):  # a title and its byline (a 晋江 download's first line)
        assert norm(f"{JOINED}\n{line}").split("\n")[1] == line  # and a poem's title and byline before it


def test_one_or_two_spaces_in_a_chapter_may_stand_for_lost_characters():
    """红楼梦 from one download: 轉過十錦 子 (槅 lost), 玎 如金玉 (璫 lost), once or twice a chapter."""
    text = "間床上橫三豎四，轉過十錦 子，來到房中。\n大家都奇異，玎 如金玉。"
    assert norm(text) == text


@pytest.mark.parametrize(
    "keep",
    [
        "12:30",
        "1,000",
        "3.14",
        "v2.0",
        "https://www.example.com/path?a=1,b=2&c=3",
        "writer@example.com",
        "Hello, world! How are you?",
        "约翰·史密斯",
        "1998-2003",
        "COVID-19",
        "e-mail",
        "don't",
        "&amp;",
        "……",
        "…………",
        "——",
        "！！！",
        "？？",
        "第十四章 寒夜",
        "他身高5'3\"。",
    ],
)
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


TEXTS = st.text(
    st.one_of(
        st.characters(min_codepoint=0x4E00, max_codepoint=0x4E80),
        st.sampled_from(list(",.!?;:\"'()-—―…。，“”‘’「」 \n0123456789abcXYZ@/ｉＰ１")),
    ),
    max_size=80,
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(TEXTS)
def test_property_idempotent_and_never_raises(text):
    once = norm(text)
    assert norm(once) == once


def test_opencc_conversion_sets_language_and_quote_style(tmp_path):
    from bookbuilder.pipeline import load_book
    from tests.conftest import write_book

    root = write_book(
        tmp_path / "b",
        {"1.txt": '第一章 开始\n他说:"这里的头发与后来发生的事。"'},
        '[normalize]\nconvert = "s2t"\n',
    )
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
    assert [b.text for b in next(off.chapters()).blocks] == [
        "他沉默了...",
        "这是一个很长很长的句子但是还没有结束呢",
        "在这里结束。",
    ]
    assert dict(off.changes) == {}


# A title keeps the space before a quoted or bracketed name, after any label or name (SP-2 on a
# title); after punctuation it goes, and in prose it goes as before.
@pytest.mark.parametrize(
    "title, expected",
    [
        ("第三章 “约定”", "第三章 “约定”"),
        ("序章 “约定”", "序章 “约定”"),
        ("番外一 「约定」", "番外一 「约定」"),
        ("Chapter 3 “约定”", "Chapter 3 “约定”"),
        ("第一卷 风云 第三章 “约定”", "第一卷 风云 第三章 “约定”"),
        ("第三章 约定 “誓言”", "第三章 约定 “誓言”"),
        ("第三章 约定  （上）", "第三章 约定 （上）"),  # one space, as the book's separator
        ("第三章: “约定”", "第三章：“约定”"),  # after a colon: the colon parts them
        ("第三章 “约定” 之后", "第三章 “约定”之后"),  # after a closing quote: none kept
        ("第三章 约定 ，誓言", "第三章 约定，誓言"),  # before a comma: none kept
    ],
)
def test_title_keeps_its_separator_before_a_quote(title, expected):
    assert SIMPLIFIED.title(title) == expected


@pytest.mark.parametrize(
    "prose, expected",
    [("他说 “约定”。", "他说“约定”。"), ("序章 “约定”是他写的。", "序章“约定”是他写的。")],
)
def test_prose_loses_the_space_before_a_quote(prose, expected):
    assert norm(prose) == expected


# A dot between two Han characters in a title is a censor's mark, not a full stop; in prose, and
# at a title's end, PU-1 is as before.
@pytest.mark.parametrize(
    "title, expected",
    [
        ("第三章 政.府的人", "第三章 政.府的人"),
        ("第三章 某.某.某", "第三章 某.某.某"),
        ("第三章 某·书", "第三章 某·书"),
        ("第三章 某*书", "第三章 某*书"),
        ("第三章 某○书", "第三章 某○书"),
        ("第三章 他来了.", "第三章 他来了。"),  # at the end: a full stop
        ("第三章 某..书", "第三章 某。。书"),  # two dots: no censor's single mark
        ("第三章 到了,他说", "第三章 到了，他说"),  # the rest of PU-1 still runs
    ],
)
def test_censor_dot_in_a_title_is_no_full_stop(title, expected):
    assert SIMPLIFIED.title(title) == expected


def test_censor_dot_in_prose_is_still_a_full_stop():
    assert norm("他走了.她来了") == "他走了。她来了"
