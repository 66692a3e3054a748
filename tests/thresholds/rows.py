"""The record of a threshold's row, and the helpers the rows of more than one stage share."""

from typing import NamedTuple

from bookbuilder.model import Location, Paragraph
from bookbuilder.structure import sections


class Threshold(NamedTuple):
    """One constant's row: the rule probed at the constant and one step past it."""

    constant: str  # module.NAME
    value: int
    probe: object  # n → what the rule makes of an input of size n
    at: object  # its answer at the constant
    past: object  # its answer one step past it
    step: float = (
        1  # past the constant: + for a most (n + 1), - for a least (n - 1); a share's step is smaller
    )

    def check(self) -> None:
        """The rule decides one way at the constant and the other one step past it."""
        assert self.probe(self.value) == self.at, f"{self.constant} = {self.value}"
        assert self.probe(self.value + self.step) == self.past, f"{self.constant} {self.step:+}"


def taken(judge, text: str) -> bool:
    """Whether a line judge takes the text."""
    return bool(judge(text))


def titles_in(text: str) -> list[str]:
    """The headings' titles the reading finds in a file's text."""
    return [s.heading.title for s in sections.split_sections(text, "f.txt")[0] if s.heading]


# an indented line of prose, 38 characters
PROSE = "　　天色将晚，城门已闭，行人匆匆赶路，谁也不说一句话，只听得脚步声在石板路上响着走远\n"


def han_number(n: int) -> str:
    """n in Chinese numerals (十二, 二十, 一百 is beyond the rows)."""
    digits = "〇一二三四五六七八九"
    tens, ones = divmod(n, 10)
    return (("" if tens == 1 else digits[tens]) + "十" if tens else "") + (
        digits[ones] if ones or not tens else ""
    )


def as_lines(texts: list[str]) -> list[tuple[int, bool, str]]:
    """Lines as the heading passes keep them: (line number, indented, text)."""
    return [(k, True, t) for k, t in enumerate(texts, 1)]


def paragraphs_of(texts: list[str]) -> tuple[Paragraph, ...]:
    """The texts as a file's paragraphs, one a line."""
    return tuple(Paragraph(t, Location("f.txt", k)) for k, t in enumerate(texts, 1))
