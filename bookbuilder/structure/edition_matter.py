"""An edition's preface or afterword named by whose it is: 金庸作品集“三联版”序 (射雕英雄传, 天龙八部 from
two sites), 新版序, 译者序, 再版后记, 作者自序, 代序. The name before the word ends as an edition's, an
author's or a quoted name does (版 集 本 者 译, a closing quote, or 自 代 总 原 right before the word),
and the line has no sentence's marks, so 程序, 时间顺序 and 这是新版序。 are no heading. A rule of
structure/headings.py; its lines start with any character, so the reading offers every short line
that ends as one does (EDITION_MATTER_ENDS) to the rules.
"""

from __future__ import annotations

import re

from bookbuilder.vocabulary import (
    AFTERWORD_ALONE,
    POSTSCRIPTS,
    PREFACE_ALONE,
    PREFACES,
    matter_pattern,
    plain,
)

EDITION_MATTER = re.compile(
    r"^[^\s，。！？；：,.!?;:]{0,14}[版集本者译”」》自代总原]"
    rf"(?P<word>{matter_pattern(PREFACES + POSTSCRIPTS + PREFACE_ALONE + AFTERWORD_ALONE)})$"
)
# the last characters of such a line
EDITION_MATTER_ENDS = frozenset(w[-1] for w in PREFACES + POSTSCRIPTS + PREFACE_ALONE + AFTERWORD_ALONE)
EDITION_MATTER_LONGEST = 16  # characters: 金庸作品集“三联版”序 is 11
_AFTERWORDS = plain(POSTSCRIPTS + AFTERWORD_ALONE)


def edition_matter_kind(core: str) -> str | None:
    """ "front" for an edition's preface, "back" for its afterword, None for any other line."""
    if len(core) > EDITION_MATTER_LONGEST or not (m := EDITION_MATTER.match(core)):
        return None
    return "back" if "".join(m.group("word").split()) in _AFTERWORDS else "front"
