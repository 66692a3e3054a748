"""HTML-2 (normalize/markup.py, through clean.strip_html): markup debris decided by its shape, each
rule with a case just inside it (debris, taken) and one just outside (prose, kept)."""

import pytest

from bookbuilder.normalize.clean import strip_html
from bookbuilder.pipeline import load_book
from tests.conftest import write_book


def stripped(text: str) -> tuple[str, list[str], list[str]]:
    removed: list[str] = []
    lost: list[str] = []
    return strip_html(text, removed, lost), removed, lost


@pytest.mark.parametrize(
    "raw, kept",
    [
        # valid entities, as HTML-1 always decoded them
        ("A&amp;B 公司", "A&B 公司"),
        ("心梦无痕&nbsp;著", "心梦无痕 著"),
        ("他说&#12289;她说", "他说、她说"),
        ("&AElig;&frac12;", "Æ½"),
        ("原文为法语。&#8203;", "原文为法语。\u200b"),  # a valid number, even of an invisible character
        # escaped twice: decoded until it is text
        ("晏清&amp;amp;翁怀憬", "晏清&翁怀憬"),
        ("@&amp;amp;amp;%……呕！", "@&%……呕！"),
        # near misses of the entities scrapers write: the character the page showed
        ("还有什么人？&qut;婆子道", '还有什么人？"婆子道'),
        ("并&1t;&1t;省亲颂》等文", "并<<省亲颂》等文"),
        ("there&039;s nothing", "there's nothing"),
        ("快&nbp;请", "快 请"),
        # &t; is a letter from both &lt; and &gt;: the bracket that pairs with the next one
        ("要求&t;金曲评审委员会&gt;立刻", "要求<金曲评审委员会>立刻"),
        ("要求&lt;金曲评审委员会&t;立刻", "要求<金曲评审委员会>立刻"),
    ],
)
def test_entities_are_decoded_as_the_page_showed_them(raw, kept):
    assert stripped(raw)[0] == kept


@pytest.mark.parametrize(
    "raw, kept, removed",
    [
        ("Her&rubsp;me as familiar", "Her me as familiar", ["&rubsp;"]),  # two words kept apart
        ("他&zzzz;来了", "他来了", ["&zzzz;"]),
    ],
)
def test_an_entity_shaped_token_that_is_no_entity_is_removed(raw, kept, removed):
    assert stripped(raw)[:2] == (kept, removed)


@pytest.mark.parametrize(
    "prose",
    [
        "AT&T; R&D; 都是公司",  # a capital alone is a word, not an entity's name
        "约旱哪#,UfFxDZA&JG5ZR;R*~}紧的东西",  # mojibake: capitals inside are no entity's
        "他说 & 她说；",
        "a&b;c",  # one letter, near no entity: too short to tell from a formula
        "a &t; b",  # one letter from &lt; and from &gt;, neither bracket to pair with: no guess
    ],
)
def test_what_is_not_entity_shaped_stays(prose):
    assert stripped(prose) == (prose, [], [])


@pytest.mark.parametrize(
    "raw, kept, removed",
    [
        ("谷&lt;/span&gt;", "谷", ["</span>"]),  # a tag escaped once more than the page's
        ("谷</font1>", "谷", ["</font1>"]),  # a closing tag of any name
        ("甲<foo/>乙", "甲乙", ["<foo/>"]),
        ("<!go>“老章诚不欺我！”", "“老章诚不欺我！”", ["<!go>"]),  # <! opens a declaration
        ("说^_^<INPUT TYPE=button VALUE=点这里 ***>。", "说^_^。", ["<INPUT TYPE=button VALUE=点这里 ***>"]),
        ("才行。<PIXTEL_MMI_EBOOK_2005>4", "才行。4", ["<PIXTEL_MMI_EBOOK_2005>"]),  # no Han beside it
    ],
)
def test_a_tag_prose_cannot_have_written_is_removed(raw, kept, removed):
    assert stripped(raw) == (kept, removed, [])


@pytest.mark.parametrize(
    "prose",
    [
        "他读过<<西游记>>。",
        "若a<b，则b>a。",
        "I <3 you",
        "他看着我<_<，不说话。",
        "他打开<QQ>，又关上了。",  # a bare word: ASCII angle brackets as a title mark
        "喝一口<H2O>吧",  # letters and a digit, no machine's identifier
        "<Hello World>",
        "f<x> = 1",
    ],
)
def test_angle_brackets_in_prose_stay(prose):
    assert stripped(prose) == (prose, [], [])


@pytest.mark.parametrize(
    "raw, kept, lost",
    [
        ("贾<bzhlm2_002bz>、贾珖", "贾〓、贾珖", ["<bzhlm2_002bz>"]),
        ("<bzhlm2_001bz>些普洱茶吃", "〓些普洱茶吃", ["<bzhlm2_001bz>"]),
        ("房上嗗<bzhlm2_005bz><bzhlm2_005bz>一片响声", "房上嗗〓〓一片响声", ["<bzhlm2_005bz>"] * 2),
        ("《汉书&#;西域传》", "《汉书〓西域传》", ["&#;"]),
        ("也别逼<bzhlm2_006/bz>紧了他", "也别逼〓紧了他", ["<bzhlm2_006/bz>"]),  # another copy's spelling
    ],
)
def test_a_lost_character_is_marked_not_dropped(raw, kept, lost):
    assert stripped(raw) == (kept, [], lost)


def test_a_lost_character_is_reported_and_a_misspelt_quote_is_curled(tmp_path):
    root = write_book(
        tmp_path / "b",
        {"1.txt": "第一章 甲\n宝玉道：“还有什么人？&qut;婆子道：“逼<bzhlm2_006bz>紧了。&qut;\n"},
        "",
    )
    loaded = load_book(root)
    assert [b.text for b in next(loaded.book.chapters()).blocks] == [
        "宝玉道：“还有什么人？”婆子道：“逼〓紧了。”"
    ]
    assert [d.message.split(" stood")[0] for d in loaded.diagnostics if d.code == "W204"] == [
        "<bzhlm2_006bz>"
    ]


@pytest.mark.parametrize(
    "raw, kept, removed",
    [
        ("求收藏！！app2();", "求收藏！！", ["app2();"]),
        ("推荐票不要停~~~app2();", "推荐票不要停~~~", ["app2();"]),
        ("他走了。app2();read2();她来了。", "他走了。她来了。", ["app2();read2();"]),
        (
            "长篇如《晚年》 href='1435/im'>《斜阳》",
            "长篇如《晚年》《斜阳》",
            [" href='1435/im'>"],
        ),  # 人间失格
        ('她说 class="note">走吧', "她说走吧", [' class="note">']),
    ],
)
def test_a_pages_script_calls_and_cut_tags_tails_go(raw, kept, removed):
    assert stripped(raw) == (kept, removed, [])


@pytest.mark.parametrize(
    "prose",
    [
        '她在屏幕上敲下print("hi");这一行。',  # code a story shows has arguments
        "代码只有一行：init();",  # against a sentence's words
        "alert();",  # a line of code alone: a book about code's
        "他在纸上写了 print(); 就笑了。",
        "他说(笑);然后走了",
        "若a=1>b，则不成立",
        "他写下name=梦>三个字",  # not quoted as an attribute's value
    ],
)
def test_code_in_a_storys_sentence_stays(prose):
    assert stripped(prose) == (prose, [], [])
