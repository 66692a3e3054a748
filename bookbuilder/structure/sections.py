"""Decoded text → headings, paragraphs and scene breaks, every block keeping its line (docs/rules.md §3–§4).

Parsing is structural only: one non-blank line is one paragraph here; joining broken lines,
dropping site junk and fixing punctuation are normalization rules that run afterwards. Which
lines are headings is decided per file, by its own evidence, in the passes of HEADING_PASSES (at
the end of this module; bookbuilder.structure.passes runs them): each a function Reading → Reading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Location, Paragraph, SceneBreak
from bookbuilder.numerals import NUMERAL_CHARS, parse_numeral
from bookbuilder.structure.bracketed_parts import bracketed_parts
from bookbuilder.structure.couplets import couplet_titles
from bookbuilder.structure.edition_matter import EDITION_MATTER_ENDS, EDITION_MATTER_LONGEST
from bookbuilder.structure.few_headings import titles_by_layout
from bookbuilder.structure.fixes import apply_fixes
from bookbuilder.structure.folder_pages import without_page_title
from bookbuilder.structure.heading_choice import choose_headings
from bookbuilder.structure.heading_repeats import gives_title, same_heading
from bookbuilder.structure.headings import (
    STARTS,
    Heading,
    candidate,
    heading_core,
    is_bare_label,
    normalize_title,
    without_page,
)
from bookbuilder.structure.meta import author_and_title
from bookbuilder.structure.page_headers import header_variants, page_headers
from bookbuilder.structure.page_labels import without_page_labels
from bookbuilder.structure.part_sections import part_sections
from bookbuilder.structure.passes import (
    NO_OPTIONS,
    Choice,
    Pass,
    Reading,
    ReadingOptions,
    every_line_as_fields,
    fields,
    run_passes,
    with_found,
)
from bookbuilder.structure.pastes import (
    GLUED_BOOK,
    GLUED_HEADING,
    PASTE_GAP,
    PASTE_LINE,
    after_sentence,
    glued_chapters,
    heading_then_text,
    label_behind,
    may_have_gap,
    may_hold_label,
    paste_pieces,
)
from bookbuilder.vocabulary import (
    CHAPTER_UNITS,
    CLOSING_QUOTES,
    PUNCTUATION,
    SENTENCE_END_MARKS,
    VOLUME_UNITS,
    unit_class,
)

# Every line is stripped of whitespace at both ends (ASCII spaces, tabs, U+3000 ideographic
# indents, any other Unicode space): CSS re-creates the indent (RULES §3.6).
_LOOKS_LIKE_HEADING = re.compile(rf"^第\s*[{NUMERAL_CHARS}]+\s*" + unit_class(CHAPTER_UNITS, VOLUME_UNITS))
LOOK_ALIKE_LINE = 60  # characters: a 第N章 line longer than this is a sentence, not a heading missed (I301)
# A line of only these is a scene break: ***, ＊＊＊, * * *, ——————, ……, ◇◇◇ (RULES §3.5).
_BREAK = re.compile(r"^[*＊※☆★◆◇○●·•~～=＝\-－—_…─━═#＃\s]+$")
# An ellipsis or dash written as a line (……, ——, and the same ellipsis typed ... 。。。 ···) is a
# scene break only after a finished sentence; after an open line it is that line's trailing ……
# (RULES §3.3). The typed forms matter: an ellipsis-defect file turns every …… line into ...
_ELLIPSIS_LINE = re.compile(r"^(?:[…—]+－?|[.。]{3,}|[·・]{3,}|⋯+)$")  # ——－: a dash typed with a slip
# A line a scene break may follow: a sentence ended, or closed by a quote, a bracket, a dash or a dot.
_TERMINAL = tuple(SENTENCE_END_MARKS + CLOSING_QUOTES + "—’）》】.")
# First characters a heading rule or a scene break can start with: most lines are neither.
_BREAK_STARTS = frozenset("*＊※☆★◆◇○●·•~～=＝-－—_… \t.。・⋯─━═#＃")
_SPECIAL_STARTS = STARTS | _BREAK_STARTS


class _Every:
    """Every first character."""

    def __contains__(self, _) -> bool:
        return True


_EVERY_START = _Every()
_CONTENTS_LABEL = re.compile(
    r"^[【\[]?(?:目\s*[录錄]|章节目录|章節目錄|目\s*次|Contents|CONTENTS)[】\]]?[:：]?$"
)
# a scraper's <br> and <p>: paragraph breaks
_HTML_BREAK = re.compile(r"<br\s*/?>|</?p(?:\s[^<>]{0,80})?>", re.I)


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
    decided_by: str | None = None  # the pass that last decided the heading (bookbuilder.structure.passes)


def split_sections(
    text: str,
    path: str,
    options: ReadingOptions = NO_OPTIONS,
    passes: tuple[Pass, ...] | None = None,
    kept: dict | None = None,
) -> tuple[list[Section], list[Diagnostic]]:
    """Cut a decoded file at its headings: the file's reading through each pass of HEADING_PASSES (or
    `passes`), in order; one line a block. A folder's page title goes first (structure/folder_pages.py).
    `kept`: the reading before the [[fix]] pass, kept between loads."""
    text, dropped = without_page_title(text, path, options.page_title)
    text, labels = without_page_labels(text, path, options.off)
    reading, chosen = Reading(path, text, options), HEADING_PASSES if passes is None else passes
    whole = kept is None or chosen is not HEADING_PASSES
    reading = run_passes(reading, chosen) if whole else _through_fixes(kept, reading)
    return reading.sections or [], dropped + labels + list(reading.notes)


def _through_fixes(kept: dict, reading: Reading) -> Reading:
    """HEADING_PASSES, those before the fixes (which never read them) again only for another text or
    other options: serve's reload after a [[fix]] of a whole novel starts at the fixes."""
    first = next(k for k, step in enumerate(HEADING_PASSES) if step.name == "fixes")
    key = (reading.path, reading.text, replace(reading.options, fixes=()))
    if kept.get("key") != key:
        kept.update(key=key, reading=run_passes(reading._replace(options=key[2]), HEADING_PASSES[:first]))
    return run_passes(kept["reading"]._replace(options=reading.options), HEADING_PASSES[first:])


def find_candidates(reading: Reading) -> Reading:
    """The file's non-blank lines, and the candidate headings the rules (bookbuilder.structure.headings)
    find among them. A forum paste's long line is first split at its runs of spaces into the
    paragraphs it holds, each keeping the line's number."""
    text, path = reading.text, reading.path
    custom, title_junk = reading.options.heading_pattern, reading.options.title_junk
    lines: list = []
    cands: dict[int, Heading] = {}
    before: dict[int, int] = {}
    separators = 0
    looked_at: list[int] = []
    starts = STARTS if custom is None else _EVERY_START  # a book's own heading_pattern may take any line
    special = _SPECIAL_STARTS if custom is None else _EVERY_START
    html = "<" in text  # one scan of the file spares one per line
    glued = "##" in text  # a Markdown heading may be glued to a paragraph's end
    breaks, append = _BREAK_STARTS, lines.append
    contents_at: list[int] = []  # (their entries may name unnumbered headings)
    separator_at: list[int] = []
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if not line:
            continue
        pieces = _line_pieces(raw, line, number, html, glued, special, custom, title_junk)
        if pieces is None:  # most lines: text
            append(Paragraph(line, Location(path, number), raw[0] != line[0]))
            continue
        for piece in pieces:
            line = piece[2]
            looked_at.append(len(lines))
            if line[0] in breaks and _BREAK.match(line):  # no rule takes a line of symbols alone
                separators += 1  # a separator is not text: a heading after one still follows its own kind
                separator_at.append(len(lines))
            elif line[0] in "目【[C章" and _CONTENTS_LABEL.match(line):  # 目录, 目錄, 【目录】
                contents_at.append(len(lines))
            elif (
                (line[0] in starts or _edition_matter_shape(line))
                and (h := candidate(line, number, custom, title_junk)) is not None
            ) or (may_hold_label(line, number) and (h := label_behind(line, number, custom, title_junk))):
                cands[len(lines)] = h
                before[len(lines)] = len(lines) - separators
            append(piece)
    return reading._replace(
        lines=lines,
        cands=cands,
        before=before,
        looked_at=looked_at,
        separator_at=separator_at,
        contents_at=contents_at,
    )


def _line_pieces(raw: str, line: str, number: int, html, glued, special, custom, title_junk) -> list | None:
    """The pieces (line number, indented, text) a stripped line holds: a whole book's chapters, a
    paste's or a page's paragraphs, a heading after a sentence or before its text; or the line
    whole, where it starts as a heading may. None: the line is text (most lines)."""
    paste = (
        len(line) > PASTE_LINE
        and may_have_gap(line)
        and PASTE_GAP.search(line)
        or glued
        and "##" in line
        and GLUED_HEADING.search(line)
    )
    if len(line) > GLUED_BOOK and not paste and (book := glued_chapters(line)):  # a whole book in one line
        return [(number, not heading, piece) for heading, piece in book]
    if paste and line[0] in special and (opening := _title_to_opening(line, number, custom, title_junk)):
        return [(number, raw[0] != line[0], line[:opening])] + [
            (number, True, piece.strip()) for piece in paste_pieces(line[opening:]) if piece.strip()
        ]
    if paste or (html and "<" in line and _HTML_BREAK.search(line)):  # paragraphs in one line
        return [
            (number, True, piece.strip())
            for part in (paste_pieces(line) if paste else (line,))
            for piece in (_HTML_BREAK.split(part) if html and "<" in part else (part,))
            if piece.strip()
        ]
    if "第" in line and len(cut := after_sentence(line)) > 1:  # …为他送行。第二章 下山
        return [(number, raw[0] != line[0], cut[0]), (number, False, cut[1])] + [
            (number, True, t) for t in cut[2:]
        ]
    if line[0] not in special and not _edition_matter_shape(line):
        return [(number, raw[0] != line[0], line)] if may_hold_label(line, number) else None
    if (gap := heading_then_text(line, number, custom, title_junk)) is not None:
        return [(number, raw[0] != line[0], line[: gap[0]]), (number, True, line[gap[1] :])]
    return [(number, raw[0] != line[0], line)]


def _edition_matter_shape(line: str) -> bool:
    """A short line ending as an edition's preface or afterword does (三联版序, 再版后记), whatever its
    first character: offered to the heading rules though no rule starts with that character."""
    return len(line) <= EDITION_MATTER_LONGEST and line[-1] in EDITION_MATTER_ENDS


def _title_to_opening(line: str, number: int, custom, title_junk) -> int | None:
    """Where a 回 title glued to its text's opening word (話說, 卻說) ends, in a line long enough to
    be taken for a paste: 第三回    苦鑽差黑夜謁黃堂　悲鐫級藍呢糊綠轎話說趙溫… (官場現形記 from one
    site, spaces as NBSP) is one heading and its text, not the label alone over a paragraph."""
    gap = heading_then_text(line, number, custom, title_junk)
    return gap[0] if gap is not None and gap[0] == gap[1] else None


def titles_in_own_contents(reading: Reading) -> Reading:
    """The source's own contents may name headings no rule finds: the first 目录 that does."""
    named = next(
        (
            found
            for at in reading.contents_at[:5]
            if (found := titles_from_contents(reading.lines, at, reading.cands))
        ),
        {},
    )
    return with_found(reading, named) if named else reading


def legado_toc_rules(reading: Reading) -> Reading:
    """Legado's rules, as candidates of their own: the best-numbered choice wins."""
    if not reading.options.toc_rules:
        return reading
    from bookbuilder.normalize.legado import best_choice

    reading = every_line_as_fields(reading)
    choice, unused = best_choice(reading.chosen, reading.lines, reading.options.toc_rules)
    return reading._replace(
        choice=choice,
        cands={**reading.cands, **choice.headings},
        notes=reading.notes + tuple(Diagnostic("I304", why, Location(reading.path)) for why in unused),
    )


def cut_sections(reading: Reading) -> Reading:
    """The file cut at its chosen headings: each heading's section of blocks, the file's own
    contents and page headers dropped (I302, I303), look-alike lines noted (I301)."""
    sections, notes = _sections(
        reading.lines,
        reading.looked_at,
        reading.chosen,
        reading.cands,
        reading.path,
        reading.merged,
        reading.decided,
    )
    return reading._replace(sections=sections, notes=reading.notes + tuple(notes))


def titles_below(reading: Reading) -> Reading:
    """第一回 alone, its title on the next line: the two one heading (_title_below)."""
    if reading.sections is None:
        return reading
    sections = [_title_below(section) for section in reading.sections]
    same = all(a is b for a, b in zip(sections, reading.sections))
    return reading if same else reading._replace(sections=sections)


def _sections(
    lines,
    looked_at: list[int],
    choice: Choice,
    cands,
    path: str,
    merged: frozenset[int],
    decided: dict[int, str],
) -> tuple[list[Section], list[Diagnostic]]:
    notes = _choice_notes(lines, choice, path)
    skip = _dropped_lines(lines, choice, path, notes) | merged | set(choice.dropped)
    sections, paged = _cut(lines, looked_at, choice, cands, path, decided, skip, notes)
    for k in paged:  # its first page's heading: 第一章(1) → 第一章
        sections[k].heading = sections[k].heading._replace(title=without_page(sections[k].heading.title))
    for section in sections:
        if section.blocks and isinstance(section.blocks[-1], SceneBreak):
            section.blocks.pop()
    if not sections[0].blocks and len(sections) > 1:
        sections.pop(0)
    return sections, notes


NOTED_HEADINGS = 3  # headings a file's choice took, at least, for a note to say how (fewer: a chapter file)
_NOT_TAKEN = "(the numbering does not support them, or the book has 第N章 headings)"


def _choice_notes(lines, choice: Choice, path: str) -> list[Diagnostic]:
    """What the choice did, told: the contents dropped (I302), the headings taken by each rule and
    those not taken (I304)."""
    notes: list[Diagnostic] = []
    if choice.toc:
        first, last = fields(lines[choice.toc[0]])[0], fields(lines[choice.toc[-1]])[0]
        notes.append(
            Diagnostic(
                "I302",
                f"a table of contents of {len(choice.toc)} entries (lines {first}–{last}) "
                "was dropped: the chapters follow",
                Location(path, first),
            )
        )
    if len(choice.headings) >= NOTED_HEADINGS or choice.rejected:
        taken = ", ".join(f"{n} by {rule}" for rule, n in sorted(choice.rules.items(), key=lambda kv: -kv[1]))
        left = ", ".join(f"{n} {rule}" for rule, n in choice.rejected.items())
        notes.append(
            Diagnostic(
                "I304",
                f"headings: {taken or 'none'}"
                + (f"; not taken: {left} line(s) {_NOT_TAKEN}" if left else ""),
                Location(path),
            )
        )
    return notes


def _dropped_lines(lines, choice: Choice, path: str, notes: list[Diagnostic]) -> set[int]:
    """The lines of the file's own contents (and its 目录) and its page headers (I303, in `notes`)."""
    toc = set(choice.toc)
    if choice.toc and choice.toc[0] > 0 and _CONTENTS_LABEL.match(fields(lines[choice.toc[0] - 1])[2]):
        toc.add(choice.toc[0] - 1)  # the 目录 line above the contents goes with them
    headers = page_headers(lines, choice)
    first = min(choice.headings, default=0)
    top = {i for i in headers if i < first}
    # the book's name over its author's, or 金庸《倚天屠龙记》, at the top: the intro's, for meta
    if len(top) >= 2 or any(author_and_title(fields(lines[i])[2]) for i in top):
        headers -= top
    headers |= header_variants(lines, headers, choice, first)
    if headers:
        shown = "、".join(sorted({fields(lines[i])[2] for i in headers}))[:40]
        notes.append(
            Diagnostic(
                "I303",
                f"a line repeated before {len(headers)} headings was dropped as a page header: {shown}",
                Location(path, fields(lines[min(headers)])[0]),
            )
        )
    return toc | headers


def _cut(lines, looked_at, choice: Choice, cands, path, decided, skip: set[int], notes: list) -> tuple:
    """The sections of the file cut at the chosen headings, leaving out `skip`; and the sections
    whose chapter went on in later pages (第一章(2), …). Look-alike lines are noted (I301)."""
    sections = [Section(None, [])]
    paged: set[int] = set()
    previous = ""  # the last non-blank line, to judge a lone …… (RULES §3.5)
    blocks = sections[-1].blocks
    # Only the lines a rule looked at (and those skipped) need a look: the runs of paragraphs
    # made as the file was read go into the sections between them whole.
    marks = [*(sorted(skip.union(looked_at)) if skip else looked_at), len(lines)]
    done = 0
    for i in marks:
        if i > done:
            blocks += lines[done:i]
            previous = lines[i - 1].text
        done = i + 1
        if i == len(lines) or i in skip:
            continue
        number, indented, line = lines[i]
        if (heading := choice.headings.get(i)) is not None:
            if heading.lead:  # …的地方……Chapter 2: the sentence before the label ends the chapter before
                blocks.append(Paragraph(heading.lead, Location(path, number), indented))
            if _opens_section(sections, heading, blocks, paged):
                sections.append(Section(heading, [], decided.get(i)))
                blocks = sections[-1].blocks
                previous = ""
            if heading.rest:  # Chapter 1这么多年，…: the chapter's first paragraph, on the label's line
                blocks.append(Paragraph(heading.rest, Location(path, number), True))
                previous = heading.rest
            continue
        at = Location(path, number)
        if (i in cands and cands[i].rule != "fix") or (
            line[0] == "第" and len(line) <= LOOK_ALIKE_LINE and _LOOKS_LIKE_HEADING.match(line)
        ):
            notes.append(
                Diagnostic("I301", f"looks like a heading but was not taken for one: {line[:20]}…", at)
            )
        if is_scene_break(line, previous):
            if blocks and type(blocks[-1]) is not SceneBreak:
                blocks.append(SceneBreak(at))
        else:
            blocks.append(Paragraph(line, at, indented))
        previous = line
    return sections, paged


def _opens_section(sections: list[Section], heading: Heading, blocks: list, paged: set[int]) -> bool:
    """Whether a chosen heading opens a section: not the heading again as the first body line, nor
    the next page of the chapter before (noted in `paged`). 晋江's title line before ˇ…ˇ goes."""
    last = sections[-1]
    if last.heading is not None and not last.blocks and same_heading(last.heading, heading):
        if gives_title(heading, last.heading):  # 11, then 11、破关: the line that gives the title
            last.heading = heading._replace(line=last.heading.line)
        elif last.heading.kind == "volume":  # 第三部 三十四 这样就很好, then 三十四这样就很好
            last.heading = last.heading._replace(kind="chapter", number=heading.number)
        return False  # the heading repeated as the first body line (RULES §4.3)
    if heading.part and heading.part > 1 and _continues(sections, heading):
        paged.add(_last_chapter(sections, heading.kind))
        return False  # 第一章(2): the next page of the same chapter on a paged site
    if heading.rule == "marked" and blocks and type(blocks[-1]) is Paragraph:
        if blocks[-1].text == heading.title:
            blocks.pop()
    return True


# An entry of a source's contents: a title, maybe a leader and a page number (游天台山日记……1).
_CONTENTS_ENTRY = re.compile(
    r"^(?P<title>[^。！？；，,.!?;…·．]{2,30}?)\s*(?:[…\.·．。\-—_]{2,}\s*[（(]?[…\.]*\s*[\d０-９]{0,4}\s*[)）]?)?$"
)
CONTENTS_ENTRIES = 3  # entries of a contents, at least: fewer are a chapter's lines
CONTENTS_FOUND = 0.5  # of the entries, at least this share found later, in order, as lines of their own


def titles_from_contents(lines, at: int, cands: dict) -> dict[int, Heading]:
    """The lines that a contents block (a 目录 line at `at`, then entries) names, found later in
    the text in the same order, each alone on its line: headings, whatever they look like
    (徐霞客游记: 游天台山日记, 游雁宕山日记, …), and the entries themselves (dropped as contents by
    the choice). Only where most entries are found so."""
    entries: list[tuple[int, str]] = []
    for i in range(at + 1, min(len(lines), at + 1 + 500)):
        m = _CONTENTS_ENTRY.match(fields(lines[i])[2])
        if not m:
            break
        entries.append((i, m.group("title").strip()))
    if len(entries) < CONTENTS_ENTRIES or sum(i in cands for i, _ in entries) > 0.3 * len(entries):
        return {}  # a contents of headings the rules take already (第 一 回 …): theirs to place
    position = {title: k for k, (_, title) in enumerate(entries)}
    found: dict[int, int] = {}  # line index → entry
    k = 0
    for i in range(entries[-1][0] + 1, len(lines)):
        if (p := position.get(fields(lines[i])[2])) is not None and p >= k:
            found[i] = p
            k = p + 1
    if len(found) < max(3, CONTENTS_FOUND * len(entries)):
        return {}
    made = {}
    for i, p in list(found.items()) + [(j, k) for k, (j, _) in enumerate(entries)]:
        if i not in cands:
            number = fields(lines[i])[0]
            made[i] = Heading("chapter", normalize_title(entries[p][1]), None, number, rule="contents")
    return made


TITLE_BELOW = 30  # characters: the longest line taken for the title under a bare 第N回


def _title_below(section: Section) -> Section:
    """第一回 alone, its title on the next line (甄士隱夢幻識通靈賈雨村風塵懷閨秀, as classics are
    typeset): that line is the title. It is short, has no punctuation at all, and text follows."""
    h, blocks = section.heading, section.blocks
    if (
        h is None
        or h.kind != "chapter"
        or not is_bare_label(h.title)
        or len(blocks) < 2
        or type(blocks[0]) is not Paragraph
        or type(blocks[1]) is not Paragraph
    ):
        return section
    line = blocks[0].text
    if _NUMERAL_ALONE.match(core := heading_core(line)):
        # a number is no title: the chapter's own again (第一章 / 一), or its first section's (１, <h3>1</h3>)
        if parse_numeral(core.strip("（()）")) == h.number:
            return replace(section, blocks=blocks[1:])
        return section
    if (
        len(line) <= TITLE_BELOW and not _PUNCTUATION.search(line) and not line.endswith(("曰", "云"))
    ):  # 诗曰: a poem follows
        return replace(
            section, heading=h._replace(title=f"{h.title} {' '.join(line.split())}"), blocks=blocks[1:]
        )
    return section


_NUMERAL_ALONE = re.compile(rf"^[（(]?(?:[{NUMERAL_CHARS}]+|[0-9０-９]+)[)）]?$")


_PUNCTUATION = re.compile(f"[{re.escape(PUNCTUATION)}]")


def _last_chapter(sections: list[Section], kind: str = "chapter") -> int | None:
    found = (k for k in reversed(range(len(sections))) if (h := sections[k].heading) and h.kind == kind)
    return next(found, None)


def _continues(sections: list[Section], heading: Heading) -> bool:
    """Whether the heading is another page of the last chapter (not 第102章 …（五） written twice); an
    unnumbered one's (附录一：成吉思汗家族(2) under (1)) where its title is the same but for the page."""
    k = _last_chapter(sections, heading.kind)
    last = sections[k].heading if k is not None else None
    if last is None or last.number != heading.number or last.part == heading.part:
        return False
    return heading.number is not None or without_page(last.title) == without_page(heading.title)


# The reading stage, in order: what each pass decides is the next one's to build on.
HEADING_PASSES = (
    Pass("candidates", find_candidates),  # lines, and what the heading rules take among them
    Pass("own-contents", titles_in_own_contents),  # titles a 目录 names, found later alone on their lines
    Pass("choice", choose_headings),  # the candidates the file's own numbering supports
    Pass("few-headings", titles_by_layout),  # where the rules found little: titles by layout, behind a name
    Pass("part-sections", part_sections),  # bracketed titles opening parts that have no chapters
    Pass("bracketed-parts", bracketed_parts),  # bracketed titles right above chapters: their parts
    Pass("toc-rules", legado_toc_rules),  # book.toml's Legado rules, where their numbering runs on best
    Pass("fixes", apply_fixes),  # book.toml's [[fix]] entries
    Pass("sections", cut_sections),  # the file cut at its headings; contents and page headers dropped
    Pass("title-below", titles_below),  # 第一回 over its title on the next line: one heading
    Pass("couplets", couplet_titles),  # a 回目 couplet set on two lines: one title
)
