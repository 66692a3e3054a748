"""A splitting tool's part marker (structure/page_labels.py, `part_markers`): `第N部分` alone on its
line, counting on once each, where a tool cut the text: between the halves of a sentence, or inside
a chapter whose numbering runs on across it. A book's real parts, each right above its first
chapter's heading, stay as volumes; so do part labels after finished sentences in a text with no
chapters, and labels that do not count on."""

import re

from bookbuilder.structure.page_labels import part_markers, without_page_labels
from bookbuilder.structure.sections import split_sections
from tests.structure.test_page_labels import PAGES, story
from tests.thresholds.rows import han_number

# 红楼梦, 第一回 and on: whole sentences for a chapter's text
SENTENCES = [
    "此开卷第一回也。",
    "作者自云：因曾历过一番梦幻之后，故将真事隐去。",
    "而借通灵之说，撰此《石头记》一书也。",
    "故曰甄士隐云云。",
    "但书中所记何事何人？",
    "自又云：今风尘碌碌，一事无成。",
]


def marker(n: int) -> str:
    return f"第{han_number(n)}部分"


def cut_in_sentences(count: int = len(PAGES), inside: int | None = None) -> str:
    """A text with no chapters cut into parts, each marker between the halves of a sentence (the
    first `inside` of them; the rest after a finished one)."""
    inside = count if inside is None else inside
    lines = ["红楼梦", "", marker(1), ""]
    for k, (end, start) in enumerate((PAGES * 3)[: count - 1]):
        lines += [end if k + 1 < inside else end + "。", "", marker(k + 2), "", start, ""]
    return "\n".join(lines) + "\n"


def cut_in_chapters(count: int = 4, text_after: int = len(SENTENCES) - 2) -> str:
    """Chapters 第一回 … numbered on, a marker inside each after a finished sentence, `text_after`
    lines of its text below the marker (the first marker above the first chapter)."""
    lines = [marker(1), ""]
    for n in range(1, count + 2):
        lines += [f"第{han_number(n)}回 甄士隐梦幻识通灵", ""]
        body = [s + "" for s in SENTENCES]
        if n <= count - 1:
            body.insert(len(body) - text_after, marker(n + 1))
        lines += [line for s in body for line in (s, "")]
    return "\n".join(lines) + "\n"


def real_parts(count: int = 4) -> str:
    """A book in parts: each part's label right above its first chapter's heading."""
    lines = []
    for n in range(1, count + 1):
        lines += [marker(n), "", f"第{han_number(n)}回 甄士隐梦幻识通灵", ""]
        lines += [line for s in SENTENCES for line in (s, "")]
    return "\n".join(lines) + "\n"


def taken(text: str) -> int:
    return len(part_markers(text.split("\n")))


def test_markers_between_the_halves_of_sentences_go_and_the_sentence_runs_on():
    sections, notes = split_sections(cut_in_sentences(), "f.txt")
    text = story(sections)
    assert "部分" not in text and not any(s.heading for s in sections)
    assert "因曾历过一番梦幻之后" in text.replace("\n", "")
    removed = [n for n in notes if "part markers counting on" in n.message]
    assert len(removed) == len(PAGES) and removed[0].at.line == 3


def test_markers_inside_chapters_numbered_on_go_and_the_chapters_stay():
    sections, notes = split_sections(cut_in_chapters(), "f.txt")
    assert [s.heading.title for s in sections if s.heading] == [
        f"第{han_number(n)}回 甄士隐梦幻识通灵" for n in range(1, 6)
    ]
    assert "部分" not in story(sections) and story(sections).count("故曰甄士隐云云。") == 5


def test_a_books_real_parts_stay_as_volumes():
    assert taken(real_parts()) == 0
    sections, _ = split_sections(real_parts(), "f.txt")
    volumes = [s.heading.title for s in sections if s.heading and s.heading.kind == "volume"]
    assert volumes == [marker(n) for n in range(1, 5)]


def test_real_parts_after_chapters_that_end_without_a_full_stop_stay():
    text = real_parts().replace("自又云：今风尘碌碌，一事无成。", "（本回完）")
    assert taken(text) == 0


def test_part_labels_after_finished_sentences_in_a_text_without_chapters_stay():
    assert taken(cut_in_sentences(inside=0)) == 0


def test_part_labels_that_do_not_count_on_stay():
    assert taken(cut_in_sentences().replace(marker(3), marker(5))) == 0
    assert taken(cut_in_sentences().replace(marker(4), marker(3))) == 0  # 第三部分 twice


def test_switched_off_with_the_page_labels():
    text = cut_in_sentences()
    assert without_page_labels(text, "f.txt", frozenset({"page-labels"})) == (text, [])


def test_real_parts_under_a_sites_line_above_a_glued_chapter_heading_stay():
    # 第二册 after a site's line that ends no sentence, over 第九章紫雪家人 (its title glued on)
    text = re.sub(r"\n(第.部分)", r"\n更多好书尽在www.example.com\n\1", real_parts()).replace("回 甄", "回甄")
    assert taken(text) == 0
