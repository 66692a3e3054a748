"""One vocabulary (issue 34): the chapter and volume units are declared once, in
bookbuilder/vocabulary.py, and every heading pattern is built from them."""
import re
from pathlib import Path

from bookbuilder.vocabulary import CHAPTER_UNITS, VOLUME_UNITS, unit_class

PACKAGE = Path(__file__).resolve().parent.parent / "bookbuilder"


def test_the_units_are_written_in_one_place():
    """The sets, written out; a narrower class with its own reason ([章回] for a 第 dropped) may stand."""
    written = [str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
               if p.name != "vocabulary.py" and re.search(r"章回节節|卷集部篇", p.read_text("utf-8"))]
    assert written == []


def test_unit_class_is_a_class_of_the_units():
    assert re.fullmatch(unit_class(CHAPTER_UNITS, VOLUME_UNITS), "卷") and re.fullmatch(unit_class(CHAPTER_UNITS), "话")
    assert not re.fullmatch(unit_class(CHAPTER_UNITS), "卷")
