"""A site's slogans and credits glued inside the story, found by what the book shows of them
(normalize/repeats.py): two slogans that open alike, each judged on its own chapters; a site's
words in brackets repeated through the chapters; a site's words in braces after a sentence. Beside
each, the story's own repeats that stay. The shapes come from real downloads; 某某 stands for a
site."""

import pytest

from bookbuilder.normalize import repeats
from tests.conftest import one_file_book

STORY = "东南西北中发白春夏秋"  # the story glued on after a slogan: different in each chapter
# two slogans of one download that open alike, a cloud drive's search for the file the site cut
SLOGAN_A = "百度云搜索，搜小说就是方便"
SLOGAN_B = "百度云搜索引擎，找小说、找电影、追剧。"


def _cleaned(chapters: list[list[str]]) -> list[list[str]]:
    book, _ = repeats.strip_repeated(one_file_book(chapters))
    return [[b.text for b in c.blocks] for c in book.chapters()]


def _two_slogans(a: int, b: int) -> list[list[str]]:
    """Ten chapters: slogan A glued after a sentence in the first `a`, slogan B in the last `b`."""
    return [
        [
            f"“走吧。”他说了{i}次。"
            + (SLOGAN_A + STORY[i] + "门已闭。" if i < a else "")
            + (SLOGAN_B if i >= 10 - b else ""),
            "天色将晚。",
        ]
        for i in range(10)
    ]


@pytest.mark.parametrize(
    "a, b",
    [
        (repeats.FRAGMENT_CHAPTERS, repeats.FRAGMENT_CHAPTERS),
        (repeats.FRAGMENT_CHAPTERS, 8),
        (8, repeats.FRAGMENT_CHAPTERS),
    ],
)
def test_two_slogans_that_open_alike_go_both(a, b):
    """The start they share (百度云搜索, five characters) is too short for a fragment; each slogan is
    judged on its own chapters, and neither spoils the other."""
    got = _cleaned(_two_slogans(a, b))
    assert not any("云搜索" in p for c in got for p in c)
    assert got[0][0] == f"“走吧。”他说了0次。{STORY[0]}门已闭。"  # the story after it stays


@pytest.mark.parametrize(
    "a, left_a",
    [(repeats.FRAGMENT_CHAPTERS, 0), (repeats.FRAGMENT_CHAPTERS - 1, repeats.FRAGMENT_CHAPTERS - 1)],
)
def test_each_slogan_is_judged_on_its_own_chapters(a, left_a):
    """Slogan A in too few chapters stays, whatever slogan B beside it does; B goes all the same."""
    got = _cleaned(_two_slogans(a, 8))
    assert sum(SLOGAN_A in p for c in got for p in c) == left_a
    assert not any(SLOGAN_B in p for c in got for p in c)


@pytest.mark.parametrize("shared", range(1, repeats.MIN_FRAGMENT))
def test_a_stray_start_sharing_a_few_characters_spoils_nothing(shared):
    """A sixth chapter whose start shares only the first characters with the slogan (fewer than a
    fragment's) leaves the slogan whole where it is glued, and the stray's story as it is."""
    chapters = _two_slogans(repeats.FRAGMENT_CHAPTERS, 0)
    stray = f"天色将晚。{SLOGAN_A[:shared]}乙丙丁戊己庚，小说就在手边。"
    chapters[9] = [stray]
    got = _cleaned(chapters)
    assert not any(SLOGAN_A in p for c in got for p in c)
    assert got[9] == [stray]


def test_a_slogan_with_its_url_goes_with_the_url():
    """…”百度云搜索，搜小说就是方便  http://www.pan58.com梦先生道: the fragment runs into the domain
    the domain rule takes; the two cuts are one, and the story on either side stays."""
    chapters = [
        [f"他道：“一时不慎{i}。”{SLOGAN_A}  http://www.example58.com{STORY[i]}先生道：“走吧。”"]
        for i in range(6)
    ]
    got = _cleaned(chapters)
    assert got[0] == [f"他道：“一时不慎0。”{STORY[0]}先生道：“走吧。”"]


def test_a_slogan_inside_a_longer_sentence_of_its_own_goes():
    """A slogan that came as a whole paragraph elsewhere goes where the site glued it after a comma
    (不过，灵素说出了真相，百度云搜索引擎，找小说、找电影、追剧。): the rest of the sentence stays."""
    chapters = [[SLOGAN_B, f"天色将晚{i}。"] for i in range(6)] + [[f"不过，她说出了真相，{SLOGAN_B}"]]
    assert _cleaned(chapters)[6] == ["不过，她说出了真相，"]


# ---- brackets


def _bracketed(bracket: str, chapters: int = 10, before: str = "他转身走了{i}步。") -> list[list[str]]:
    return [[before.format(i=i) + bracket, "城门已闭。"] for i in range(chapters)]


@pytest.mark.parametrize(
    "bracket",
    [
        "（我就爱某某电子书论坛小笼包整理）",  # a person in a site's name, before its credit's verb
        "[某·书·网-整。理'提。供]",  # a credit strewn with marks
        "（三*五*网-整*理*提*供）",
        "【本书首发某某文学网，请记住网址】",
        "{看最新章节请到：某某楼}",
    ],
)
def test_a_bracket_of_site_words_glued_in_chapter_after_chapter_goes(bracket):
    got = _cleaned(_bracketed(bracket))
    assert got[0] == ["他转身走了0步。", "城门已闭。"]


def test_a_bracket_alone_on_its_line_goes_and_its_paragraph_with_it():
    chapters = _bracketed("（我就爱某某电子书论坛小笼包整理）")
    chapters[0].insert(1, "（我就爱某某电子书论坛小笼包整理）")
    assert _cleaned(chapters)[0] == ["他转身走了0步。", "城门已闭。"]


def test_a_site_name_strewn_with_marks_goes_even_inside_a_word():
    """都没[奇·书·网]有: no story strews a name with marks, so the bracket goes wherever it stands."""
    got = _cleaned(_bracketed("[某·书·网]有。", before="一点真实感都没{i}"))
    assert got[0] == ["一点真实感都没0有。", "城门已闭。"]


@pytest.mark.parametrize(
    "bracket, before",
    [
        ("[天书]", "他转身走了{i}步。"),  # the story's own words in brackets, in every chapter
        ("（这是小岛书店肯屈尊进货的少数几本绘本之一）", "他转身走了{i}步。"),
        ("（我就爱看小说的最新章节）", "他转身走了{i}步。"),  # a person's thought, no site's name
        ("（她说：“小说网站的最新章节”）", "他转身走了{i}步。"),  # dialogue
        ("[某书网]", "他看了看{i}遍，"),  # a site word in the middle of a sentence, not strewn
        ("{髟赞}", "他的头发{i}"),  # a character composed where the font had none
    ],
)
def test_the_storys_own_brackets_stay_however_often_they_come(bracket, before):
    chapters = _bracketed(bracket, before=before)
    assert _cleaned(chapters) == [[p for p in c] for c in chapters]


@pytest.mark.parametrize(
    "bracket, before, cut",
    [
        ("{看最新章节请到：某某楼}", "他转身走了{i}步。", True),  # once is enough: braces after a sentence
        ("｛看最新章节请到：某某楼｝", "他转身走了{i}步。", True),
        ("{看最新章节请到：某某楼}", "他转身走了{i}步，", False),  # not after a sentence's end
        ("（看最新章节请到：某某楼）", "他转身走了{i}步。", False),  # no braces: once is too few
        ("{最新章节}", "他转身走了{i}步。", False),  # one notice word
        ("{我看最新章节请到了某某楼}", "他转身走了{i}步。", False),  # a person
    ],
)
def test_site_words_in_braces_after_a_sentence_go_though_they_come_once(bracket, before, cut):
    chapters = _bracketed(bracket, chapters=1, before=before) + [["城门已闭。"]] * 4
    got = _cleaned(chapters)
    assert got[0][0] == ("他转身走了0步。" if cut else chapters[0][0])


def test_a_glued_line_of_dialogue_repeated_in_many_chapters_stays():
    """Dialogue with site and app words glued after a sentence, the same in every chapter."""
    line = "他说了{i}次。“去网盘搜索那本小说吧，”她说，“就在手机上。”"
    chapters = [[line.format(i=i), "城门已闭。"] for i in range(10)]
    assert _cleaned(chapters) == chapters
