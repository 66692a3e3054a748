"""Line rules (RULES §3, §5): they see several blocks at once, so they take and return a chapter's
blocks (and the number of changes). Locations survive: a joined paragraph keeps its first line."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from bookbuilder.model import Paragraph, SceneBreak
from bookbuilder.normalize.chars import HAN
from bookbuilder.normalize.junk import JunkPattern, clean_line

# Half-width marks count too (a lone . is a 。 typed half-width), but not ... or 。。。: an ellipsis
# line is a scene break or text of its own (RULES §3.3), never glued on.
_ORPHAN = re.compile(r"^(?![.。]{3,}$)[。！？，、；：”’」』）》.,!?;:]+$")
_ENDS_OPEN = re.compile(rf"[{HAN}A-Za-z0-9]$")
_STARTS_CONTINUED = re.compile(rf"^[{HAN}a-z，。、；：！？”’」』）》]")
_STARTS_PUNCT = re.compile(r"^[，。、；：！？”’」』）》]")
_LATIN_END, _LATIN_START = re.compile(r"[A-Za-z0-9]$"), re.compile(r"^[A-Za-z0-9]")
_CLOSED = tuple("。！？…”’」』）》!?")
MIN_JOIN = 10  # shorter lines are titles, names, signatures, verse (RULES §3.2)
VERSE_LINE, VERSE_RUN = 15, 3


def drop_junk(blocks: tuple, patterns: tuple[JunkPattern, ...], counts: Counter) -> tuple:
    """JK-1: drop site advertisements and pager lines; cut junk tails off story lines."""
    text = "\n".join(b.text for b in blocks if isinstance(b, Paragraph))
    patterns = tuple(p for p in patterns if p.may_match(text))  # most chapters: none left
    if not patterns:
        return blocks
    out = []
    for block in blocks:
        if isinstance(block, Paragraph):
            text, name = clean_line(block.text, patterns)
            if name:
                counts[f"junk:{name}"] += 1
                if not text:
                    continue
                block = Paragraph(text, block.at)
        out.append(block)
    return tuple(_tidy_breaks(out))


def _tidy_breaks(blocks: list) -> list:
    """No scene break at either end of a chapter or next to another one (junk removal can leave them)."""
    out = []
    for block in blocks:
        if isinstance(block, SceneBreak) and (not out or isinstance(out[-1], SceneBreak)):
            continue
        out.append(block)
    while out and isinstance(out[-1], SceneBreak):
        out.pop()
    return out


def attach_orphans(blocks: tuple) -> tuple[tuple, int]:
    """UW-2: a line of only closing punctuation (a lone 。) belongs to the line before it."""
    out, changed = [], 0
    for block in blocks:
        if (isinstance(block, Paragraph) and _ORPHAN.match(block.text) and out
                and isinstance(out[-1], Paragraph)):
            out[-1] = Paragraph(out[-1].text + block.text, out[-1].at)
            changed += 1
        else:
            out.append(block)
    return tuple(out), changed


def hardwrap_width(blocks: tuple) -> int | None:
    """RULES §3.1: a chapter is hard-wrapped when most of its lines have one exact length (the wrap
    width); then a line of that length continues, whatever it ends with."""
    paragraphs = [b.text for b in blocks if isinstance(b, Paragraph)]
    if len(paragraphs) < 6:
        return None
    width, count = Counter(len(t) for t in paragraphs).most_common(1)[0]
    if width < 20 or count < 0.4 * len(paragraphs):
        return None
    # A wrap falls anywhere, so most full-width lines end mid-sentence; lines of one length that
    # end their sentences are just paragraphs of one length.
    open_ends = sum(1 for t in paragraphs if len(t) == width and not t.endswith(_CLOSED))
    return width if open_ends >= 0.5 * count else None


def unwrap(blocks: tuple) -> tuple[tuple, int]:
    """UW-1: join a line broken mid-sentence with the next one, guarded (RULES §3.2): the line ends
    without punctuation, has at least 10 characters, is not verse, and the next starts with Han or
    a continuation mark. In a hard-wrapped chapter a line of the wrap width always continues.
    The sample's break (剩下的还有七十多万人 / 马，…) is shorter than the median line, so a
    length-only rule like calibre's unwrap factor would miss it."""
    layout = read_layout(blocks)
    verse = _verse_indices(blocks)
    out: list = []
    changed = 0
    last: Paragraph | None = None  # the raw line that ends out[-1]
    for i, block in enumerate(blocks):
        prev = out[-1] if out else None
        if (isinstance(block, Paragraph) and isinstance(prev, Paragraph) and last is not None
                and last.at.path == block.at.path and i not in verse and i - 1 not in verse
                and layout.continues(last.text, block.text, block.at.line == last.at.line + 1)):
            sep = " " if _LATIN_END.search(last.text) and _LATIN_START.match(block.text) else ""
            out[-1] = Paragraph(prev.text + sep + block.text, prev.at)
            changed += 1
        else:
            out.append(block)
        last = block if isinstance(block, Paragraph) else None
    return tuple(out), changed


@dataclass(frozen=True)
class Layout:
    """What a chapter's line breaks and blank lines mean, read from the chapter itself."""

    width: int | None = None  # the hard-wrap width (RULES §3.1)
    blanks_are_noise: bool = False
    min_join: int = MIN_JOIN  # the shortest line that may continue

    def continues(self, line: str, following: str, adjacent: bool) -> bool:
        """Whether `following` continues `line`. Across a blank line only on strong evidence,
        because a blank line normally ends a paragraph (RULES §3.1): a full-width line of a
        hard-wrapped chapter that ends mid-sentence, or a next line that starts with ，。 (no
        paragraph starts that way) — unless this chapter's blank lines are noise."""
        if not _ENDS_OPEN.search(line):
            return (bool(self.width) and len(line) == self.width
                    and (adjacent or self.blanks_are_noise or not line.endswith(_CLOSED)))
        if _STARTS_PUNCT.match(following):
            return True
        if self.width and len(line) == self.width:
            return True
        if adjacent or self.blanks_are_noise:
            return len(line) >= self.min_join and bool(_STARTS_CONTINUED.match(following))
        return False


def read_layout(blocks: tuple) -> Layout:
    width = hardwrap_width(blocks)
    noise = blank_lines_are_noise(blocks, width)
    return Layout(width, noise, _shortest_join(blocks, width, noise))


def blank_lines_are_noise(blocks: tuple, width: int | None) -> bool:
    """Whether this chapter's blank lines fall at random rather than between paragraphs. Where
    blank lines separate paragraphs, the line before one ends its sentence; where a site sprinkled
    them, lines ending mid-sentence stand before blanks about as often as before other lines.
    Then a blank line says nothing and the adjacent-line rule applies across it."""
    before_blank = [0, 0]  # [lines, of which open-ended]
    before_line = [0, 0]
    for a, b in _line_pairs(blocks):
        tally = before_line if b.at.line == a.at.line + 1 else before_blank
        tally[0] += 1
        tally[1] += _open_ended(a.text, width)
    if before_blank[1] < 3 or before_line[1] == 0:
        return False
    return before_blank[1] / before_blank[0] >= 0.5 * before_line[1] / before_line[0]


def _shortest_join(blocks: tuple, width: int | None, noise: bool) -> int:
    """A chapter broken at random points (several long lines end mid-sentence and run on into the
    next) has short broken pieces too (高句丽战事到 / 了现在这个地步，…): there the 10-character
    guard against joining titles and signatures drops to 2. Verse runs stay protected."""
    pairs = [(a, b) for a, b in _line_pairs(blocks) if noise or b.at.line == a.at.line + 1]
    broken = sum(1 for a, b in pairs if (not width or len(a.text) != width) and _open_ended(a.text, None)
                 and _STARTS_CONTINUED.match(b.text))
    return 2 if broken >= 3 and broken >= 0.05 * len(pairs) else MIN_JOIN


def _line_pairs(blocks: tuple):
    for a, b in zip(blocks, blocks[1:]):
        if isinstance(a, Paragraph) and isinstance(b, Paragraph) and a.at.path == b.at.path:
            yield a, b


def _open_ended(line: str, width: int | None) -> bool:
    if width and len(line) == width:
        return not line.endswith(_CLOSED)
    return len(line) >= MIN_JOIN and bool(_ENDS_OPEN.search(line))


def _verse_indices(blocks: tuple) -> set[int]:
    """Runs of >= 3 adjacent short lines are verse (从明天起 / 做一个幸福的人): never joined."""
    verse: set[int] = set()
    run: list[int] = []
    for i, block in enumerate(blocks + (None,)):
        short = isinstance(block, Paragraph) and len(block.text) <= VERSE_LINE
        if short and run and block.at.line == blocks[run[-1]].at.line + 1:
            run.append(i)
            continue
        if len(run) >= VERSE_RUN:
            verse.update(run)
        run = [i] if short else []
    return verse
