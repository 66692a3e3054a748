"""An author's note under its label at chapters' ends (normalize/note_labels.py): the label repeated
at the end of three chapters or more goes with the lines under it; a speech tag that ends one chapter,
or a label with the story going on long under it, stays."""

from bookbuilder.normalize import note_labels
from tests.normalize.test_own_title import paragraphs

BODY = "".join(f"他走进第{n}个院子，看见一棵老树。\n树下坐着一个老人，正在下棋。\n" for n in range(1, 4))
NOTES = ["抱歉，今天只有一更了。", "谢谢大家的打赏。", "推荐一本书，有兴趣的话可以去看看啊~", "这章晚了点。"]


def book(labelled: int, label: str = "某某说", under: int = 1) -> str:
    """Four chapters, the first `labelled` of them ending on `label` over `under` lines of a note."""
    text = ""
    for n in range(4):
        text += f"第{'一二三四'[n]}章 风起\n{BODY}"
        if n < labelled:
            text += label + "\n" + "\n".join([NOTES[n]] * under) + "\n"
    return text


def test_a_label_ending_three_chapters_goes_with_its_notes(tmp_path):
    found = paragraphs(tmp_path, book(3))
    assert "某某说" not in found and not any(n in found for n in NOTES)
    assert found.count("树下坐着一个老人，正在下棋。") == 12  # every story line kept


def test_a_speech_tag_ending_fewer_chapters_stays(tmp_path):
    found = paragraphs(tmp_path, book(2))
    assert found.count("某某说") == 2 and NOTES[0] in found


def test_a_label_with_the_story_going_on_long_under_it_stays(tmp_path):
    found = paragraphs(tmp_path, book(3, under=note_labels.NOTE_LINES + 1))
    assert found.count("某某说") == 3


def test_switched_off_by_name(tmp_path):
    toml = f'[normalize.junk]\ndisable = ["{note_labels.RULE}"]\n'
    assert paragraphs(tmp_path, book(3), toml).count("某某说") == 3
