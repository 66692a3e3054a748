"""A site's paging of a long book into parts: 第一部分, 第二部分 … alone on their lines every thirty
chapters or so, over chapters numbered straight through them (七劍十三俠 from one site: 第1回 … 第32回
under 第一部分, 第33回 on under 第二部分, six parts). The readers of the labelled shelf call them the
site's, not the author's volumes, and the book is read without them. Parts that name themselves
(第一部分 童年), or under which the numbering starts again (a collection's stories, each from 第一章),
are volumes and stay.
"""

from __future__ import annotations

import re

from bookbuilder.model import Volume
from bookbuilder.numerals import NUMERAL_RUN

BARE_PART = re.compile(rf"^第\s*{NUMERAL_RUN}\s*部分$")
SITE_PARTS = 2  # bare parts, at least, for them to be a site's paging rather than one odd line


def without_site_parts(volumes: tuple[Volume, ...]) -> tuple[Volume, ...]:
    """The volumes, or one untitled volume of all their chapters where every titled volume is a
    bare 第N部分 and the chapters' numbers run on through them without going back."""
    titled = [v.title for v in volumes if v.title]
    if len(titled) < SITE_PARTS or not all(BARE_PART.match(t) for t in titled):
        return volumes
    numbers = [c.number for v in volumes for c in v.chapters if c.kind == "chapter" and c.number is not None]
    if not numbers or any(b <= a for a, b in zip(numbers, numbers[1:])):
        return volumes
    return (Volume(None, tuple(c for v in volumes for c in v.chapters), None),)
