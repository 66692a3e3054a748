"""How a chapter's raw lines are laid out (docs/rules.md §3.1–§3.2 as docs/rules-notes.md amends them):
a hard-wrap width, a typeset page's band of widths, blank lines that mean nothing, indents that
mark paragraphs. Read once per chapter from the chapter itself; lines.unwrap asks the Layout
whether a line runs on into the next."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bookbuilder.model import Paragraph
from bookbuilder.normalize.chars import HAN, CharClass
from bookbuilder.vocabulary import CLOSING_QUOTES, SENTENCE_END_MARKS

CONTINUING_MARKS = "，。、；：！？”’」』）》"  # no paragraph starts with one
# The one-character tests at a line's start and end, for every line: a line that starts with Han,
# a lower-case letter or a mark no paragraph starts with may continue the one before; a line that
# ends with Han, a Latin letter or a digit is open (no punctuation closes it).
_CONTINUED_START = CharClass(f"{HAN}a-z{CONTINUING_MARKS}")
_PUNCT_START = frozenset(CONTINUING_MARKS)
_OPEN_END = CharClass(f"{HAN}A-Za-z0-9")
_CLOSED = tuple(SENTENCE_END_MARKS + CLOSING_QUOTES + "’）》")  # a line whose sentence is closed
MIN_JOIN = 10  # shorter lines are titles, names, signatures, verse (RULES §3.2)
WRAP_LINES, WRAP_WIDTH = 6, 20  # lines, characters: fewer, or narrower, and one length is chance
LAYOUT_LINES = 3  # lines that show a habit of the chapter's layout; fewer can be chance

_OPENER = {"”": "“", "’": "‘", "」": "「", "』": "『"}


def _closes(line: str, mark: str) -> bool:
    """Whether a line that starts with `mark` can go on from `line`: any mark but a closing quote,
    which must close a quote `line` left open (”一万两银子…” after a finished line is a ” typed
    for “, 张居正)."""
    opener = _OPENER.get(mark)
    return opener is None or line.count(opener) > line.count(mark)


def line_lengths(blocks: tuple) -> Counter:
    return Counter(len(b.text) for b in blocks if type(b) is Paragraph)


def hardwrap_width(blocks: tuple, lengths: Counter | None = None) -> int | None:
    """RULES §3.1: a chapter is hard-wrapped when most of its lines have one exact length (the wrap
    width); then a line of that length continues, whatever it ends with."""
    lengths = line_lengths(blocks) if lengths is None else lengths
    total = sum(lengths.values())
    if total < WRAP_LINES:
        return None
    width, count = lengths.most_common(1)[0]
    if width < WRAP_WIDTH or count < 0.4 * total:
        return None
    # A wrap falls anywhere, so most full-width lines end mid-sentence; lines of one length that
    # end their sentences are just paragraphs of one length.
    open_ends = sum(
        1 for b in blocks if type(b) is Paragraph and len(b.text) == width and not b.text.endswith(_CLOSED)
    )
    return width if open_ends >= 0.5 * count else None


# of a chapter's lines indented, at least, for a scrape that kept each paragraph's indent
INDENTED_LINES_SHARE, FLUSH_CONTINUING = 0.6, 0.6
_CLAUSE_END = frozenset("，、：；,;:“‘「『（《【")  # marks inside a sentence: a line ending at one runs on
JUSTIFIED_BAND = 5  # characters: a typeset page's lines differ by what its punctuation takes
JUSTIFIED_SHARE = 0.6
JUSTIFIED_LINES = 20  # a chapter's lines: fewer cannot show a band of lengths


def justified_band(blocks: tuple, lengths: Counter | None = None) -> tuple[int, int] | None:
    """A chapter wrapped as a typeset page is (碧血剑 from a scanned edition): no one length, but
    most lines within a few characters of each other (24–28), because a full-width “，or a
    half-width letter changes how many characters fill a line. (first, last) of the five lengths
    that hold most lines, when they hold 60 % of them and most of those lines end mid-sentence;
    natural paragraphs spread far wider."""
    lengths = line_lengths(blocks) if lengths is None else lengths
    total = sum(lengths.values())
    common = lengths.most_common(JUSTIFIED_BAND)
    if total < JUSTIFIED_LINES or sum(n for _, n in common) < JUSTIFIED_SHARE * total:
        return None  # no five lengths hold enough lines (natural paragraphs: most chapters)
    starts = {lo for length, _ in common for lo in range(max(20, length - JUSTIFIED_BAND + 1), length + 1)}
    if not starts:
        return None
    best = max(sorted(starts), key=lambda lo: sum(lengths[n] for n in range(lo, lo + JUSTIFIED_BAND)))
    inside = [b.text for b in blocks if type(b) is Paragraph and best <= len(b.text) < best + JUSTIFIED_BAND]
    if len(inside) < JUSTIFIED_SHARE * total:
        return None
    open_ends = sum(1 for t in inside if not t.endswith(_CLOSED))
    return (best, best + JUSTIFIED_BAND - 1) if open_ends >= 0.5 * len(inside) else None


@dataclass(frozen=True)
class Layout:
    """What a chapter's line breaks and blank lines mean, read from the chapter itself."""

    width: int | None = None  # the hard-wrap width (RULES §3.1)
    blanks_are_noise: bool = False
    min_join: int = MIN_JOIN  # the shortest line that may continue
    # Hard-wrapped with paragraphs marked by an indent on their first line only (calibre's
    # "print" layout): after a full-width line, an indented line starts a paragraph.
    indent_marks_paragraphs: bool = False
    # Wrapped as a typeset page, lines of a few lengths (justified_band): a line in the band that
    # ends mid-sentence, even at a ， or ：, runs on into the next line. One that ends a sentence
    # is left as a paragraph's end: a wrap there cannot be told from one.
    band: tuple[int, int] | None = None
    # Not hard-wrapped, but paragraphs start at an indent and a flush line always runs on.
    flush_continues: bool = False

    def continues(self, line: str, next_block: Paragraph, adjacent: bool) -> bool:
        """Whether `next_block` continues `line`. Across a blank line only on strong evidence,
        because a blank line normally ends a paragraph (RULES §3.1): a full-width line of a
        hard-wrapped chapter that ends mid-sentence, or a next line that starts with ，。 (no
        paragraph starts that way) — unless this chapter's blank lines are noise."""
        following = next_block.text
        if self.indent_marks_paragraphs and adjacent and len(line) == self.width:
            return not next_block.indented
        if (
            self.band
            and adjacent
            and self.band[0] <= len(line) <= self.band[1]
            and (_OPEN_END[line[-1:]] or line[-1:] in _CLAUSE_END)
        ):
            return True
        if self.flush_continues and adjacent:
            return not next_block.indented
        if adjacent and following[:1] in _PUNCT_START and _closes(line, following[0]):
            return True  # no paragraph starts with ，。」: the line before ended at a wrap
        if not _OPEN_END[line[-1:]]:
            return (
                bool(self.width)
                and len(line) == self.width
                and (adjacent or self.blanks_are_noise or not line.endswith(_CLOSED))
            )
        if following[:1] in _PUNCT_START:
            return True
        if self.width and len(line) == self.width:
            return True
        if adjacent or self.blanks_are_noise:
            return len(line) >= self.min_join and _CONTINUED_START[following[:1]]
        return False


def read_layout(blocks: tuple) -> Layout:
    """One pass over the chapter's adjacent line pairs decides the width, whether its blank lines
    are noise, the shortest line that may continue, and whether indents mark paragraphs (see the
    helpers below)."""
    lengths = line_lengths(blocks)
    width = hardwrap_width(blocks, lengths)
    # per kind of gap (0: adjacent lines, 1: a blank line between): [pairs, open-ended first
    # lines, open first lines (outside the wrap width) that run on into the next]
    tally = [[0, 0, 0], [0, 0, 0]]
    lines = indented = after_full = flush_after_full = flush = flush_continuing = 0
    previous = None
    for block in blocks:
        if type(block) is not Paragraph:
            previous = None
            continue
        lines += 1
        indented += block.indented
        if previous is not None and (previous_at := previous.at).path == (at := block.at).path:
            adjacent = at.line == previous_at.line + 1
            t = tally[not adjacent]
            line = previous.text
            t[0] += 1
            if width and len(line) == width:
                t[1] += not line.endswith(_CLOSED)
                if adjacent:
                    after_full += 1
                    flush_after_full += not block.indented
            elif len(line) >= MIN_JOIN and _OPEN_END[line[-1]]:
                t[1] += 1
                t[2] += _CONTINUED_START[block.text[:1]]
            if adjacent and not block.indented:
                flush += 1
                flush_continuing += not line.endswith(_CLOSED) or block.text[:1] in _PUNCT_START
        previous = block
    noise = blank_lines_are_noise(tally[1][:2], tally[0][:2])
    pairs, broken = tally[0][0] + noise * tally[1][0], tally[0][2] + noise * tally[1][2]
    # Lines after a full-width line mostly flush left (continuations) while others are indented:
    # the indent marks a paragraph's first line. (Every line indented, or none: it says nothing.)
    flush_after_full_lines = after_full >= LAYOUT_LINES and flush_after_full >= 0.5 * after_full
    indents_mark = bool(width) and indented >= 0.1 * lines and flush_after_full_lines
    # Without a wrap width, the same reading where most lines are indented and the flush ones
    # mostly carry on a sentence (an open end before them, or a ”，。 to start with): a scrape
    # that broke paragraphs at random but kept each one's indent (倚天屠龙记, 笑傲江湖 from one
    # site). Then every flush line continues the line before it.
    indents_only = (
        not width
        and indented >= INDENTED_LINES_SHARE * lines
        and flush >= max(3, 0.05 * lines)
        and flush_continuing >= FLUSH_CONTINUING * flush
    )
    return Layout(
        width,
        noise,
        _shortest_join(pairs, broken),
        indents_mark or indents_only,
        justified_band(blocks, lengths),
        flush_continues=indents_only,
    )


def blank_lines_are_noise(before_blank: list[int], before_line: list[int]) -> bool:
    """Whether this chapter's blank lines fall at random rather than between paragraphs, from
    [lines, of which open-ended] before a blank line and before another line. Where blank lines
    separate paragraphs, the line before one ends its sentence; where a site sprinkled them, lines
    ending mid-sentence stand before blanks about as often as before other lines. Then a blank
    line says nothing and the adjacent-line rule applies across it."""
    if before_blank[1] < LAYOUT_LINES or before_line[1] == 0:
        return False
    return before_blank[1] / before_blank[0] >= 0.5 * before_line[1] / before_line[0]


def _shortest_join(pairs: int, broken: int) -> int:
    """A chapter broken at random points (several long lines end mid-sentence and run on into the
    next) has short broken pieces too (高句丽战事到 / 了现在这个地步，…): there the 10-character
    guard against joining titles and signatures drops to 2. Verse runs stay protected."""
    return 2 if broken >= LAYOUT_LINES and broken >= 0.05 * pairs else MIN_JOIN
