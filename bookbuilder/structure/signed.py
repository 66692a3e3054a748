"""The author a book gives without a label: a name alone on the line under the title (调频 / 饶雪漫 /
１, 我与地坛 / 史铁生 / 一), the afterword's signature (后记 … 刘慈欣), the book's name over its
author's at a chapter's edge (（全书完） / 天龙八部 / 金庸 / 释名).

A name alone is two to four Han characters that no label or heading word is. What a reader sees
tells it from a line of the story: it stands where a header or a signature stands (under the title
at the top, last in an afterword, under the book's name), it opens no dedication (献给母亲), and
the story does not say it again and again, as it says a character's name (a heroine's name said
alone under a chapter's title is no author)."""

from __future__ import annotations

import re

from bookbuilder.model import Paragraph
from bookbuilder.structure import bylines
from bookbuilder.vocabulary import HAN_COMMON, POSTSCRIPTS, PREFACES, PROLOGUES, SENTENCE_ENDED, plain

# 金庸 under 侠客行: a name alone, two to four Han characters, that no label or heading word is.
NAME_ALONE = re.compile(
    r"^(?!.*(?:简介|簡介|目录|目錄|正文|"
    + "|".join(plain(PREFACES + PROLOGUES + POSTSCRIPTS))
    + rf"|全集|文集|上卷|下卷|上册|下册|完))[{HAN_COMMON}]{{2,4}}$"
)
# The words a dedication opens with (献给母亲, 谨以此书, 致 阿May, 纪念…): a line under the title that
# gives the book to someone names no author.
DEDICATION_OPENINGS = ("献给", "獻給", "谨以", "謹以", "纪念", "紀念", "致", "给", "給")
STORY_SAYS_MOST = 3  # paragraphs that may say a signing name elsewhere: a character's is said more
# Whose afterword signs it (后记, 後記, 自序): not 译后记 (a translator's), not a preface by another hand.
_SIGNED_MATTER = re.compile("^(?:" + "|".join(plain(POSTSCRIPTS)) + "|自序|跋)")


def name_alone(text: str) -> str:
    """The line's text when it is a name alone (饶雪漫, 金庸), else ""."""
    text = text.strip(" \u3000")
    if text.startswith(DEDICATION_OPENINGS) or text.endswith(bylines.AUTHOR_WORDS):
        return ""  # 献给母亲; 效果显著, 某甲著: a byline's word is bylines.py's to judge
    return text if NAME_ALONE.match(text) else ""


def said_often(name: str, volumes) -> bool:
    """Whether the story says the name in more than STORY_SAYS_MOST paragraphs besides its own line:
    a character's name, not the author's."""
    said = 0
    for volume in volumes:
        for chapter in volume.chapters:
            for block in chapter.blocks:
                if type(block) is Paragraph and name in block.text and block.text.strip(" \u3000") != name:
                    said += 1
                    if said > STORY_SAYS_MOST:
                        return True
    return False


def _paragraphs(blocks) -> list:
    return [b for b in blocks if type(b) is Paragraph]


def name_under_title(blocks, titles: set[str], volumes, alone: bool) -> tuple[object, str, object] | None:
    """(the title's block, the author, the name's block) of an intro page that opens with the book's
    name over its author's (侠客行 / 金庸), or that holds only a title line and a name line (调频 /
    饶雪漫) and nothing else (`alone`: no field, no blurb): then the title line is the title the
    text gives, whatever the file is named."""
    paragraphs = _paragraphs(blocks)
    if len(paragraphs) < 2 or not (name := name_alone(paragraphs[1].text)):
        return None
    title = paragraphs[0].text.strip(" \u3000").strip("《》").strip()
    if title not in titles and (not alone or len(paragraphs) != 2 or not _title_line(title)):
        return None
    return None if said_often(name, volumes) else (paragraphs[0], name, paragraphs[1])


def _title_line(text: str) -> bool:
    """A line that may be a book's title: short, no sentence marks, not the name shape's twin (a
    title line over a name line, not two names)."""
    return 1 < len(text) <= TITLE_MOST and not re.search(r"[，。！？：:；、“”「」]", text)


TITLE_MOST = 20  # characters of a title line over its author's name


def signature(volumes, title: str) -> tuple[str, object] | None:
    """(author, the name's block) of a signature: the first line after a 后记's or 自序's last
    sentence (a date or the next book's name may follow it), or a name under the book's name on
    the line above (天龙八部 / 金庸 after （全书完）)."""
    for volume in volumes:
        for chapter in volume.chapters:
            paragraphs = _paragraphs(chapter.blocks)
            if _SIGNED_MATTER.match(chapter.title or "") and (found := _signed_last(paragraphs)):
                if not said_often(found[0], volumes):
                    return found
            if title and (found := _under_the_name(paragraphs, title)) and not said_often(found[0], volumes):
                return found
    return None


def _signed_last(paragraphs: list) -> tuple[str, object] | None:
    """The first of the lines after the last sentence, when it is a name alone and at most
    SIGNATURE_TAIL lines follow the sentence."""
    ended = [i for i, p in enumerate(paragraphs) if p.text.rstrip(" \u3000").endswith(SENTENCE_ENDED)]
    if not ended or not 0 < len(paragraphs) - 1 - ended[-1] <= SIGNATURE_TAIL:
        return None
    first = paragraphs[ended[-1] + 1]
    return (name, first) if (name := name_alone(first.text)) else None


SIGNATURE_TAIL = 3  # lines after an afterword's last sentence: the name, a date, the next book's name


def _under_the_name(paragraphs: list, title: str) -> tuple[str, object] | None:
    """A name alone on the line under the book's name."""
    for above, below in zip(paragraphs, paragraphs[1:]):
        if above.text.strip(" \u3000").strip("《》") == title and (name := name_alone(below.text)):
            return name, below
    return None
