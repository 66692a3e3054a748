"""An author's appeal for the book's publication at a chapter's edge (normalize/appeals.py): notes
marked as the author's (ps, PS, 作者的话, a line in brackets) or asking for votes, collections,
subscriptions there and then go; the author's other words, and the same words in the story's middle
or in dialogue, stay. Made-up notes of the shape web serials carry; the story is 西游记's."""

import pytest

from bookbuilder.model import Location, Paragraph
from bookbuilder.normalize import appeals
from tests.normalize.test_clean import clean as cleaned

STORY = [
    "诗曰：混沌未分天地乱，茫茫渺渺无人见。",
    "自从盘古破鸿蒙，开辟从兹清浊辨。",
    "覆载群生仰至仁，发明万物皆成善。",
    "欲知造化会元功，须看西游释厄传。",
    "盖闻天地之数，有十二万九千六百岁为一元。",
    "毕竟不知那猴王怎生修炼，且听下回分解。",
]


def clean(*texts: str, options=None) -> list[str]:
    return cleaned(*texts, options=options, title="第一回 灵根育孕源流出")


@pytest.mark.parametrize(
    "note",
    [
        "ps：求推荐票、求收藏，拜托拜托",
        "PS.今天加更一章，记得先投个月票！",
        "P.S. 谢谢大家的推荐票和收藏。",
        "【新书上传，恳请各位把订阅继续下去！】",
        "【感谢大家的支持，粉丝节还有红包礼包，把订阅继续下去！】x",  # a crawler's stray letter after it
        "（周末两更，求月票）",
        "作者的话：感谢书友的打赏，今晚还有一章。",
        "新书期，兄弟们别忘了收藏与推荐啊！",
        "求收藏！！求推荐！！",
        # the publication named to the readers, unmarked and asking with no 求 (圣墟's)
        "好久不见^_^新书开始上传，会员点击、推荐票、收藏，请大家伸伸手吧。",
        "来吧，推荐票向我砸来吧，新书期冲榜，大家有票都砸给本书吧，感谢啊感谢。",
        "大家有月票的话，都投给本书吧。",
    ],
)
def test_an_appeal_at_the_chapters_end_or_start_goes(note):
    assert clean(*STORY, note) == STORY
    assert clean(note, *STORY) == STORY


def test_a_run_of_the_note_goes_and_the_authors_other_words_stay():
    note = [
        "新书期，兄弟们别忘了收藏与推荐啊！",
        "求收藏！！",
        "让大家知道，我们回来了！",
        "目标是点击榜，推荐榜，第一！",
    ]
    assert clean(*STORY, "----------", *note) == STORY + ["----------", "让大家知道，我们回来了！"]


def test_a_line_naming_the_publication_alone_stays():
    assert clean(*STORY, "目标是点击榜，推荐榜，第一！") == STORY + ["目标是点击榜，推荐榜，第一！"]


@pytest.mark.parametrize(
    "line",
    [
        "“求你收藏好这幅画，”老者说道，“莫要让人看见。”",  # dialogue
        "「求推荐票的事，明天再说。」",  # a thought in 「」
        "那富翁求我替他收藏这幅古画。",  # asking, but not for the book
        "申请人是一项专利，成本不高，要求投资建厂。",  # a demand
        "这几年千方百计寻求投资走正道。",  # a pursuit
        "他掏出月票，挤上了最后一班公交车。",  # a bus pass: no asking, no mark, not in a note's run
        "（叮！收到打赏一千点，宿主可以收藏一件宝物。）",  # a story's aside in brackets, nothing of the book
        "他在竹林里走了很久（求收藏）。",  # an appeal glued into a story sentence: cut by bracket rules
        "天快黑了，他去求收藏家鉴定那幅画。",  # a collector, in a story's sentence
        "他抬头一看，桌上放着一张月票。",  # a story's line naming a site's term, in a note's run or not
        "大家都办了月票，每天坐公交上学。",  # a bus pass spoken of to no one: 月票 cast by no one
        "目标是点击榜，推荐榜，第一！",  # the publication named, to no one
        # asking, with no 他 or 她, for a word the publication's name opens (收藏家, 推荐信, 订阅报纸)
        "老人求收藏家出手相助，却被拒绝。",
        "我求收藏家们手下留情。",
        "王林求推荐信未果，只得独自上路。",
        "村长求订阅报纸的人多交一文钱。",
        "掌柜求月票般地哀求着，众人哄笑。",
        # marked as a note, but asking for nothing of the book: a letter's P.S. in the story
        "P.S. 爸爸的投资失败了，我们搬了家。",
        "P.S. 那幅画我已收藏好了，勿念。",
        "作者的话：这一章写到了收藏家老王。",  # the author's other words
    ],
)
def test_the_same_words_in_the_story_stay(line):
    assert clean(*STORY, line) == STORY + [line]
    assert clean(line, *STORY) == [line] + STORY


def test_an_appeal_in_the_middle_of_the_chapter_stays():
    story = STORY[:3] + ["ps：求推荐票、求收藏"] + STORY[3:] + STORY
    assert clean(*story) == story


def test_two_of_the_authors_other_lines_end_the_run():
    note = ["求收藏！！", "今天去了趟医院。", "明天还要早起。"]
    assert clean(*STORY, *note) == STORY + note  # the appeal stands behind two other lines
    assert clean(*STORY, note[0], note[1]) == STORY + [note[1]]  # behind one


def test_the_removal_carries_its_evidence_and_the_rule_switches_off():
    _, records = appeals.without_appeals(
        tuple(Paragraph(t, Location("f.txt", 1)) for t in (*STORY, "求收藏！"))
    )
    assert len(records) == 1 and "author_appeals [an author's appeal" in records[0].message
    assert clean(*STORY, "求收藏！", options={"author_appeals": False}) == STORY + ["求收藏！"]


def test_a_stray_dot_after_the_note_goes_with_it_and_a_rule_before_it_stays():
    assert clean(*STORY, "——————", "求收藏！", ".") == STORY + ["——————"]
    assert clean("（月票榜争夺激烈，求月票）", "。", *STORY) == STORY  # at the head: the mark after the note
    assert clean(*STORY, ".") == STORY[:-1] + [STORY[-1] + "."]  # no note: the orphans rule's as before


def test_an_appeal_with_a_sites_name_glued_after_it_is_left_to_the_repeats_pass():
    # 求月票！某某中文 in every chapter: the book's repetition takes 某某中文 (tests/fixtures/shapes/slogan-
    # glued-where-its-url-was-cut); taken here, the last chapter's would stay unseen
    assert clean(*STORY, "求月票！某某中文") == STORY + ["求月票！某某中文"]


def test_a_story_line_naming_a_sites_term_stays_in_a_notes_run():
    assert clean(*STORY, "求收藏！", "他抬头一看，桌上放着一张月票。") == STORY + [
        "他抬头一看，桌上放着一张月票。"
    ]
