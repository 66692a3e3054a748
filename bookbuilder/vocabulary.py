"""The words the reading stage counts chapters and volumes in, declared once (issue 34): every
heading pattern builds its character classes from here, so the sets cannot drift apart again."""

CHAPTER_UNITS = "章回节節幕话話"  # 第N章, 第N回, 第N节, 第N幕 (a play), 第N话 (a web comic's or light novel's)
VOLUME_UNITS = "卷集部篇"  # 第N卷, 第N集, 第N部, 第N篇 (headings.py adds 部分 and 季 to its volume rule)
# A heading glued to the end of the sentence before it (…”第二百一十章冰雪女神祭祀的秘密): only the
# four units real downloads showed glued so; 话 and 幕 after a sentence's end are as often the story's.
GLUED_CHAPTER_UNITS = "章回节節"


# How a site's name ends (某某网, 某某书屋, 某某文学, 某某小说, 八零电子书): a name glued before its domain,
# alone after a paragraph's last sentence, or strewn with marks between its characters.
SITE_NAME_ENDINGS = ("网", "阁", "书屋", "书城", "书院", "书库", "文学", "小说", "中文", "电子书")


def unit_class(*units: str) -> str:
    """A regex character class of these units: unit_class(CHAPTER_UNITS) → [章回节節幕话話]."""
    return "[" + "".join(units) + "]"
