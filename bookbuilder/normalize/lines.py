"""Line rules (RULES §3, §5): they see several blocks at once, so they take and return a chapter's
blocks (and the number of changes). Locations survive: a joined paragraph keeps its first line."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from bookbuilder.diagnostics import removal
from bookbuilder.model import Paragraph, SceneBreak
from bookbuilder.normalize.chars import HAN, CharClass
from bookbuilder.normalize.clean import SITE_WORDS, cut, find_urls, site_watermark, url_adverts
from bookbuilder.normalize.junk import JunkPattern, clean_line, inline_spans, patterns_in

_LETTERS = re.compile("[A-Za-zＡ-Ｚａ-ｚ]")
_TXT_HINT = re.compile("[tTｔＴ][xXｘＸ][tTｔＴ]")
# Some character a URL needs: letters (or digits) on both sides of a dot-like mark, or www.
_URL_HINT = re.compile(r"[A-Za-z0-9Ａ-Ｚａ-ｚ０-９][ 　]*[.．。、点,，:：/=?？_-][ 　]*[A-Za-zＡ-Ｚａ-ｚ]|[wWｗＷ][ 　]*[wWｗＷ][ 　]*[wWｗＷ]")
HAN_RE = re.compile(f"[{HAN}]")

# Half-width marks count too (a lone . is a 。 typed half-width), but not ... or 。。。: an ellipsis
# line is a scene break or text of its own (RULES §3.3), never glued on.
_CONTINUING_MARKS = "，。、；：！？”’」』）》"  # no paragraph starts with one
_ORPHAN_MARKS = _CONTINUING_MARKS + ".,!?;:"
_ORPHAN = re.compile(rf"^(?![.。]{{3,}}$)[{re.escape(_ORPHAN_MARKS)}]+$")
_ORPHAN_START = frozenset(_ORPHAN_MARKS)  # the one-character test before the regex
# The one-character tests at a line's start and end, for every line: a line that starts with Han,
# a lower-case letter or a mark no paragraph starts with may continue the one before; a line that
# ends with Han, a Latin letter or a digit is open (no punctuation closes it).
_CONTINUED_START = CharClass(f"{HAN}a-z{_CONTINUING_MARKS}")
_PUNCT_START = frozenset(_CONTINUING_MARKS)
_OPEN_END = CharClass(f"{HAN}A-Za-z0-9")
_LATIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_CLOSED = tuple("。！？…”’」』）》!?")
MIN_JOIN = 10  # shorter lines are titles, names, signatures, verse (RULES §3.2)
VERSE_LINE, VERSE_RUN = 15, 3


def drop_junk(blocks: tuple, patterns: tuple[JunkPattern, ...], counts: Counter, removed: list,
              text: str | None = None) -> tuple:
    """JK-1: drop site advertisements and pager lines; cut adverts out of the lines they hide in
    (bookbuilder.normalize.clean). Every removal is appended to `removed` (diagnostics.removal).
    `text`: the paragraphs joined by newlines, when the caller has them."""
    if text is None:
        text = "\n".join(b.text for b in blocks if type(b) is Paragraph)
    patterns = patterns_in(text, patterns)
    letters = _LETTERS.search(text) is not None  # a URL and a site's strewn name (txt) need Latin letters
    urls = letters and _URL_HINT.search(text) is not None  # plain or disguised: letters around a dot-like mark
    marks = urls or (letters and _TXT_HINT.search(text) is not None)
    if not patterns and not marks:
        return blocks
    boxed = _boxed_banners(blocks) if urls else set()
    out = []
    for i, block in enumerate(blocks):
        if i in boxed:
            _record(counts, removed, "boxed-banner", block.text, block)
            continue
        if type(block) is Paragraph:
            line, changed = block.text, False
            has_url = urls and bool(find_urls(line))
            first, name = clean_line(line, patterns, has_url, leading=True) if patterns else (line, None)
            if name and not first:  # a line that is an advert from its start: dropped whole
                _record(counts, removed, name, line, block)
                continue
            spans = _outermost(inline_spans(line, patterns) +
                               [(a, b, "url-advert") for a, b in (url_adverts(line) if has_url else ())])
            if spans:  # adverts inside the line first: what is left is judged as a line
                for start, end, rule in spans:
                    _record(counts, removed, rule, line[start:end], block)
                line, changed = cut(line, [(a, b) for a, b, _ in spans]), True
                if len(re.sub(r"[\W_]", "", line)) <= 2 and not HAN_RE.search(line):
                    line = ""  # A:, B:, * : the label the advert had
            kept, name = clean_line(line, patterns, has_url) if patterns and line else (line, None)
            if name:
                _record(counts, removed, name, line if not kept else line[len(kept):].strip(), block)
                line, changed = kept or "", True
            if line and marks and site_watermark(line):
                _record(counts, removed, "site-watermark-line", line, block)
                line, changed = "", True
            if not line:
                continue
            if changed:
                block = Paragraph(line, block.at, block.indented)
        out.append(block)
    return tuple(_tidy_breaks(out))


def _record(counts: Counter, removed: list, rule: str, text: str, block: Paragraph) -> None:
    counts[f"junk:{rule}"] += 1
    removed.append(removal(rule, text, block.at))


_FRAME = "*＊|║│#＃"


def _boxed_banners(blocks: tuple) -> set[int]:
    """A site's banner drawn as a box (* … * lines between ***** rules) around a URL or site words:
    every line of the box. A box with neither is the story's and stays."""
    found: set[int] = set()
    run: list[int] = []
    for i, block in enumerate(blocks + (None,)):
        framed = (type(block) is Paragraph and len(block.text) > 2 and block.text[0] in _FRAME
                  and block.text[-1] == block.text[0])
        if framed:
            run.append(i)
            continue
        if type(block) is SceneBreak and run:
            continue  # a box's empty row (* … *) or its rule
        if len(run) >= 2 and any(find_urls(blocks[j].text) or SITE_WORDS.search(blocks[j].text) for j in run):
            found.update(run)
        run = []
    return found


def _outermost(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Spans that no other span contains (two rules on one advert: one removal, the wider)."""
    spans = sorted(spans, key=lambda s: (s[0], -s[1]))
    out: list[tuple[int, int, str]] = []
    for span in spans:
        if out and span[1] <= out[-1][1]:
            continue
        out.append(span)
    return out


def _tidy_breaks(blocks: list) -> list:
    """No scene break at either end of a chapter or next to another one (junk removal can leave them)."""
    out = []
    for block in blocks:
        if type(block) is SceneBreak and (not out or type(out[-1]) is SceneBreak):
            continue
        out.append(block)
    while out and type(out[-1]) is SceneBreak:
        out.pop()
    return out


_QUOTES = (("“", "”"), ("「", "」"), ("『", "』"))
_SENTENCE_END = tuple("。！？…!?～~—")


def attach_orphans(blocks: tuple) -> tuple[tuple, int]:
    """UW-2: a line of only closing punctuation (a lone 。) belongs to the line before it; so does
    the closing quote that starts a line with no quote of its own open, after a blank line and a
    line whose quote is left open (“他不是盲人。 / / ”阿诺说…: a site put the paragraph break
    inside the quote, 787 times in one real download)."""
    # Most chapters have none: a look at each line's first character tells, without rebuilding.
    if not any(type(b) is Paragraph and b.text[:1] in _ORPHAN_START for b in blocks):
        return blocks, 0
    out, changed = [], 0
    for block in blocks:
        if type(block) is Paragraph and block.text[:1] in _ORPHAN_START and out and type(out[-1]) is Paragraph:
            if _ORPHAN.match(block.text):
                out[-1] = Paragraph(out[-1].text + block.text, out[-1].at, out[-1].indented)
                changed += 1
                continue
            # across a blank line only: lines side by side are unwrapping's to join or keep
            if block.at.line != out[-1].at.line + 1 and (closer := _stray_closer(out[-1].text, block.text)) is not None:
                out[-1] = Paragraph(out[-1].text + closer, out[-1].at, out[-1].indented)
                out.append(Paragraph(block.text[len(closer):], block.at, block.indented))
                changed += 1
                continue
        out.append(block)
    return tuple(out), changed


_OPENER = {"”": "“", "’": "‘", "」": "「", "』": "『"}


def _closes(line: str, mark: str) -> bool:
    """Whether a line that starts with `mark` can go on from `line`: any mark but a closing quote,
    which must close a quote `line` left open (”一万两银子…” after a finished line is a ” typed
    for “, 张居正)."""
    opener = _OPENER.get(mark)
    return opener is None or line.count(opener) > line.count(mark)


def _stray_closer(before: str, line: str) -> str | None:
    """The closing quote `line` starts with, when it closes the quote `before` leaves open at a
    sentence's end and `line` opens none that it would close. (Where `before` ends mid-sentence,
    the break is a wrap inside the quote: unwrapping joins the lines whole.)"""
    if not before.endswith(_SENTENCE_END):
        return None
    for opening, closing in _QUOTES:
        if line[0] == closing and len(line) > 1:
            rest = line[1:]
            if before.count(opening) > before.count(closing) and rest.count(closing) <= rest.count(opening):
                return closing
    return None


def hardwrap_width(blocks: tuple) -> int | None:
    """RULES §3.1: a chapter is hard-wrapped when most of its lines have one exact length (the wrap
    width); then a line of that length continues, whatever it ends with."""
    paragraphs = [b.text for b in blocks if type(b) is Paragraph]
    if len(paragraphs) < 6:
        return None
    width, count = Counter(len(t) for t in paragraphs).most_common(1)[0]
    if width < 20 or count < 0.4 * len(paragraphs):
        return None
    # A wrap falls anywhere, so most full-width lines end mid-sentence; lines of one length that
    # end their sentences are just paragraphs of one length.
    open_ends = sum(1 for t in paragraphs if len(t) == width and not t.endswith(_CLOSED))
    return width if open_ends >= 0.5 * count else None


INDENTED_SHARE, FLUSH_CONTINUING = 0.6, 0.6
_CLAUSE_END = frozenset("，、：；,;:“‘「『（《【")  # marks inside a sentence: a line ending at one runs on
JUSTIFIED_BAND = 5  # characters: a typeset page's lines differ by what its punctuation takes
JUSTIFIED_SHARE = 0.6


def justified_band(blocks: tuple) -> tuple[int, int] | None:
    """A chapter wrapped as a typeset page is (碧血剑 from a scanned edition): no one length, but
    most lines within a few characters of each other (24–28), because a full-width “，or a
    half-width letter changes how many characters fill a line. (first, last) of the five lengths
    that hold most lines, when they hold 60 % of them and most of those lines end mid-sentence;
    natural paragraphs spread far wider."""
    lengths = Counter(len(b.text) for b in blocks if type(b) is Paragraph)
    total = sum(lengths.values())
    common = lengths.most_common(JUSTIFIED_BAND)
    if total < 20 or sum(n for _, n in common) < JUSTIFIED_SHARE * total:
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


def unwrap(blocks: tuple) -> tuple[tuple, int]:
    """UW-1: join a line broken mid-sentence with the next one, guarded (RULES §3.2): the line ends
    without punctuation, has at least 10 characters, is not verse, and the next starts with Han or
    a continuation mark. In a hard-wrapped chapter a line of the wrap width always continues.
    The sample's break (剩下的还有七十多万人 / 马，…) is shorter than the median line, so a
    length-only rule like calibre's unwrap factor would miss it."""
    layout = read_layout(blocks)
    verse = _verse_indices(blocks)
    continues = layout.continues
    out: list = []
    changed = 0
    last: Paragraph | None = None  # the raw line that ends out[-1], when out[-1] is a paragraph
    for i, block in enumerate(blocks):
        if type(block) is not Paragraph:
            out.append(block)
            last = None
            continue
        if last is not None and (not verse or (i not in verse and i - 1 not in verse)):
            at, last_at = block.at, last.at
            if last_at.path == at.path and continues(last.text, block, at.line == last_at.line + 1):
                prev = out[-1]
                sep = " " if last.text[-1:] in _LATIN and block.text[:1] in _LATIN else ""
                out[-1] = Paragraph(prev.text + sep + block.text, prev.at)
                changed += 1
                last = block
                continue
        out.append(block)
        last = block
    return (tuple(out) if changed else blocks), changed


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
        if self.band and adjacent and self.band[0] <= len(line) <= self.band[1] and (
                _OPEN_END[line[-1:]] or line[-1:] in _CLAUSE_END):
            return True
        if self.flush_continues and adjacent:
            return not next_block.indented
        if adjacent and following[:1] in _PUNCT_START and _closes(line, following[0]):
            return True  # no paragraph starts with ，。」: the line before ended at a wrap
        if not _OPEN_END[line[-1:]]:
            return (bool(self.width) and len(line) == self.width
                    and (adjacent or self.blanks_are_noise or not line.endswith(_CLOSED)))
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
    width = hardwrap_width(blocks)
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
    indents_mark = bool(width) and indented >= 0.1 * lines and after_full >= 3 and flush_after_full >= 0.5 * after_full
    # Without a wrap width, the same reading where most lines are indented and the flush ones
    # mostly carry on a sentence (an open end before them, or a ”，。 to start with): a scrape
    # that broke paragraphs at random but kept each one's indent (倚天屠龙记, 笑傲江湖 from one
    # site). Then every flush line continues the line before it.
    indents_only = (not width and indented >= INDENTED_SHARE * lines and flush >= max(3, 0.05 * lines)
                    and flush_continuing >= FLUSH_CONTINUING * flush)
    return Layout(width, noise, _shortest_join(pairs, broken), indents_mark or indents_only, justified_band(blocks),
                  flush_continues=indents_only)


def blank_lines_are_noise(before_blank: list[int], before_line: list[int]) -> bool:
    """Whether this chapter's blank lines fall at random rather than between paragraphs, from
    [lines, of which open-ended] before a blank line and before another line. Where blank lines
    separate paragraphs, the line before one ends its sentence; where a site sprinkled them, lines
    ending mid-sentence stand before blanks about as often as before other lines. Then a blank
    line says nothing and the adjacent-line rule applies across it."""
    if before_blank[1] < 3 or before_line[1] == 0:
        return False
    return before_blank[1] / before_blank[0] >= 0.5 * before_line[1] / before_line[0]


def _shortest_join(pairs: int, broken: int) -> int:
    """A chapter broken at random points (several long lines end mid-sentence and run on into the
    next) has short broken pieces too (高句丽战事到 / 了现在这个地步，…): there the 10-character
    guard against joining titles and signatures drops to 2. Verse runs stay protected."""
    return 2 if broken >= 3 and broken >= 0.05 * pairs else MIN_JOIN


def _verse_indices(blocks: tuple) -> set[int]:
    """Runs of >= 3 adjacent short lines are verse (从明天起 / 做一个幸福的人): never joined."""
    verse: set[int] = set()
    run: list[int] = []
    previous_line = 0
    for i, block in enumerate(blocks):
        if type(block) is Paragraph and len(block.text) <= VERSE_LINE:
            line = block.at.line
            if run and line == previous_line + 1:
                run.append(i)
            else:
                if len(run) >= VERSE_RUN:
                    verse.update(run)
                run = [i]
            previous_line = line
        elif run:
            if len(run) >= VERSE_RUN:
                verse.update(run)
            run = []
    if len(run) >= VERSE_RUN:
        verse.update(run)
    return verse
