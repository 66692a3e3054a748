"""Decoded text → headings, paragraphs and scene breaks, every block keeping its line (RULES §3–§4).

Parsing is structural only: one non-blank line is one paragraph here; joining broken lines,
dropping site junk and fixing punctuation are normalization rules that run afterwards.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Location, Paragraph, SceneBreak
from bookbuilder.numerals import NUMERAL_CHARS, parse_numeral

# Every line is stripped of whitespace at both ends (ASCII spaces, tabs, U+3000 ideographic
# indents, any other Unicode space): CSS re-creates the indent (RULES §3.6).
MAX_HEADING = 30
_SENTENCE_PUNCT = re.compile("[，。；“”「」]")
_NUM = f"[{NUMERAL_CHARS}]+"
_HEADING = re.compile(rf"^第\s*({_NUM})\s*([章回节節卷集部篇])(?:[\s:：、.．·\-—]*)(.*)$")
_LOOKS_LIKE_HEADING = re.compile(rf"^第\s*{_NUM}\s*[章回节節卷集部篇]")
_MATTER = re.compile(
    r"^(楔子|序章|序言|序|引子|前言|尾声|尾聲|后记|後記|终章|終章|完本感言|番外[一二三四五六七八九十0-9０-９]*)"
    r"(?:[\s:：、·\-—]+(.*))?$"
)
_FRONT = ("楔子", "序章", "序言", "序", "引子", "前言")
_VOLUME_UNITS = "卷集部篇"
# A line of only these is a scene break: ***, ＊＊＊, * * *, ——————, ……, ◇◇◇ (RULES §3.5).
_BREAK = re.compile(r"^[*＊※☆★◆◇○●·•~～=＝\-—_…\s]+$")
# An ellipsis or dash written as a line (……, ——, and the same ellipsis typed ... 。。。 ···) is a
# scene break only after a finished sentence; after an open line it is that line's trailing ……
# (RULES §3.3). The typed forms matter: an ellipsis-defect file turns every …… line into ...
_ELLIPSIS_LINE = re.compile(r"^(?:[…—]+|[.。]{3,}|[·・]{3,}|⋯+)$")
_TERMINAL = tuple("。！？…—”’」』）》】!?.")
# First characters a built-in heading or a scene break can start with: most lines are neither,
# and one set lookup spares them three regular expressions.
_HEADING_STARTS = frozenset("第楔序引前尾后後终終完番")
_BREAK_STARTS = frozenset("*＊※☆★◆◇○●·•~～=＝-—_… \t.。・⋯")
_SPECIAL_STARTS = _HEADING_STARTS | _BREAK_STARTS
_FULLWIDTH_DIGIT = str.maketrans("０１２３４５６７８９", "0123456789")
_TITLE_JUNK = re.compile(r"\s*[（(](?:求[^）)]{1,6}|第?\s*\d+\s*/\s*\d+\s*页?)[）)]\s*$")


@dataclass(frozen=True)
class Heading:
    kind: str  # volume | chapter | front | back
    title: str
    number: int | None
    line: int


def normalize_title(text: str) -> str:
    """RULES §4.3: half-width digits, one ASCII space between parts, no trailing begging brackets."""
    text = " ".join(text.translate(_FULLWIDTH_DIGIT).split())
    return _TITLE_JUNK.sub("", text)


def classify_heading(line: str, line_no: int, custom: re.Pattern | None = None) -> Heading | None:
    """The heading this stripped line is, or None. Sentence punctuation or length > 30 means body text."""
    if not line or len(line) > MAX_HEADING or (custom is None and line[0] not in _HEADING_STARTS):
        return None
    if _SENTENCE_PUNCT.search(line):
        return None
    if custom is not None and (m := custom.match(line)):
        number = parse_numeral(m.group(1)) if m.groups() and m.group(1) else None
        return Heading("chapter", normalize_title(line), number, line_no)
    if m := _HEADING.match(line):
        numeral, unit, rest = m.groups()
        label = f"第{numeral.replace(' ', '')}{unit}"
        title = normalize_title(f"{label} {rest}" if rest.strip() else label)
        kind = "volume" if unit in _VOLUME_UNITS else "chapter"
        return Heading(kind, title, parse_numeral(numeral), line_no)
    if m := _MATTER.match(line):
        kind = "front" if m.group(1) in _FRONT else "back"
        return Heading(kind, normalize_title(line), None, line_no)
    return None


def is_scene_break(line: str, previous: str = "") -> bool:
    """Whether this stripped line is a scene break, given the last non-blank line before it."""
    if line[0] not in _BREAK_STARTS:
        return False
    if _ELLIPSIS_LINE.match(line):
        return not previous or previous.endswith(_TERMINAL)
    return bool(_BREAK.match(line))


@dataclass
class Section:
    """A run of lines under one heading (or before the first heading: heading None)."""

    heading: Heading | None
    blocks: list


def split_sections(text: str, path: str, custom: re.Pattern | None = None) -> tuple[list[Section], list[Diagnostic]]:
    """Cut a decoded file at its headings; one line becomes one block."""
    sections = [Section(None, [])]
    notes: list[Diagnostic] = []
    previous = ""  # the last non-blank line, to judge a lone …… (RULES §3.5)
    blocks = sections[-1].blocks
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if not line:
            continue
        if custom is None and line[0] not in _SPECIAL_STARTS:  # most lines: plain text
            blocks.append(Paragraph(line, Location(path, number), raw[0] != line[0]))
            previous = line
            continue
        if (heading := classify_heading(line, number, custom)) is not None:
            last = sections[-1]
            if last.heading is not None and not last.blocks and last.heading.title == heading.title:
                continue  # the heading repeated as the first body line (RULES §4.3)
            sections.append(Section(heading, []))
            blocks = sections[-1].blocks
            previous = ""
            continue
        if line[0] == "第" and len(line) <= 2 * MAX_HEADING and _LOOKS_LIKE_HEADING.match(line):
            notes.append(Diagnostic("I301", f"looks like a heading but has sentence punctuation or is too long: {line[:20]}…",
                                    Location(path, number)))
        at = Location(path, number)
        if is_scene_break(line, previous):
            if blocks and not type(blocks[-1]) is SceneBreak:
                blocks.append(SceneBreak(at))
        else:
            blocks.append(Paragraph(line, at, raw[0] != line[0]))
        previous = line
    for section in sections:
        if section.blocks and isinstance(section.blocks[-1], SceneBreak):
            section.blocks.pop()
    if not sections[0].blocks and len(sections) > 1:
        sections.pop(0)
    return sections, notes
