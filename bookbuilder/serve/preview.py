"""What "remove everywhere" would take, shown before anything is written: the count, the chapters,
the first pieces in their paragraphs; the user confirms (above CONFIRM_ABOVE pieces by ticking
that they looked). A selection inside a line that repeats with other numbers or names (站长信箱：
someone@… with a different address, 第三章　某某>> with each chapter's title) offers the line's
template, so that the whole repeated line goes rather than the fragment selected.

A template is the line folded as the edge rules fold it (bookbuilder.normalize.edges.fold: each
number as #, the chapter's and the book's names as @), and matched as a regex in which a number
is any number and a name any text.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from itertools import accumulate

from bookbuilder.model import Paragraph
from bookbuilder.normalize.edges import TEMPLATE_LONGEST, fold
from bookbuilder.numerals import TO_MYRIADS
from bookbuilder.render.html import text

CONFIRM_ABOVE = 36  # pieces: a removal of more is confirmed by a tick that the list was looked at
SHOWN_PIECES = 8  # pieces a preview shows in their paragraphs
CONTEXT = 30  # characters of the paragraph shown each side of a piece
NUMBER = f"[0-9０-９{TO_MYRIADS}]+"  # a number in a template, as the self-check's groups write it


@dataclass(frozen=True)
class Piece:
    """One piece a removal would take: its chapter (index in the preview), paragraph and span."""

    chapter: int
    paragraph: Paragraph
    start: int
    end: int


def pieces(preview, regex: str, kind: str) -> list[Piece]:
    """Every piece "remove everywhere" of `regex` would take from the book as built now, in reading
    order (a [[keep]] line is passed by, as the build passes it): found once a build, so that the
    confirmation finds the count its preview showed without looking again."""
    key = ("pieces", regex, kind)
    found = preview.memo.get(key)
    if found is None:
        found = preview.memo[key] = _pieces(removable(preview), re.compile(regex), kind)
    return found


def _pieces(paragraphs: list[tuple[int, Paragraph]], pattern: re.Pattern, kind: str) -> list[Piece]:
    found = []
    for i, block in paragraphs:
        if kind == "line":
            if pattern.fullmatch(block.text):
                found.append(Piece(i, block, 0, len(block.text)))
            continue
        found += [
            Piece(i, block, m.start(), m.end()) for m in pattern.finditer(block.text) if m.end() > m.start()
        ]
    return found


def removable(preview) -> list[tuple[int, Paragraph]]:
    """(chapter index, paragraph) of every paragraph a removal may take, in reading order: the
    [[keep]] lines left out, as the build leaves them. Once a build (a preview looks often)."""
    found = preview.memo.get("removable")
    if found is None:
        keeps = preview.loaded.config.keeps
        found = preview.memo["removable"] = [
            (i, block)
            for i, where in enumerate(preview.chapters)
            for block in where.chapter.blocks
            if type(block) is Paragraph and not (keeps and any(k.keeps(block) for k in keeps))
        ]
    return found


def _whole_lines(preview, regex: str, literal: str) -> int:
    """How many paragraphs a removal may take `regex` matches whole (as `pieces` of kind "line"
    counts them), looking only at those that hold `literal`, a part every match holds: a template
    is tried for each line the selection stands in, and the book has 70,000 paragraphs."""
    paragraphs = removable(preview)
    joined = preview.memo.get("removable text")
    if joined is None:  # the paragraphs' texts in one string, and where each starts in it
        texts = [p.text for _, p in paragraphs]
        joined = preview.memo["removable text"] = (
            "\n".join(texts),
            list(accumulate((len(t) + 1 for t in texts), initial=0)),
        )
    text, starts = joined
    holding, at = [], text.find(literal)
    while at != -1:
        k = bisect.bisect_right(starts, at) - 1
        holding.append(paragraphs[k][1])
        at = text.find(literal, starts[k + 1])  # the next paragraph's start: each counted once
    if len(holding) < 2:
        return len(holding)  # the line itself, or nothing: no template, and no pattern to compile
    pattern = re.compile(regex)
    return sum(1 for p in holding if pattern.fullmatch(p.text))


def unshown(found: list) -> int:
    """How many pieces the preview does not show (it shows the first SHOWN_PIECES)."""
    return max(len(found) - SHOWN_PIECES, 0)


def needs_confirming(count: int) -> bool:
    """A removal of this many pieces is confirmed by a tick, not by the button alone."""
    return count > CONFIRM_ABOVE


def line_regex(line: str, names: tuple[str, ...]) -> str:
    """A line as a template's regex: each of `names` any text, each number any number, spaces any."""
    parts, names = _split(line, names)
    regex = ""
    for k, part in enumerate(parts):
        if k % 2 == 0:
            regex += re.escape(part)
        elif part in names:
            regex += ".+?"
        elif part.isspace():
            regex += r"\s*"
        else:
            regex += NUMBER
    return regex


def _split(line: str, names: tuple[str, ...]) -> tuple[list[str], tuple[str, ...]]:
    """The line's parts, text as it stands at even places and at odd ones what a template reads as
    any (a name, a number, spaces); and the names, longest first."""
    names = tuple(sorted({n for n in names if n}, key=len, reverse=True))
    splitter = "|".join([*map(re.escape, names), NUMBER, r"\s+"])
    return re.split(f"({splitter})", line.strip()), names


def _longest_text(line: str, names: tuple[str, ...]) -> str:
    """The longest part of the line its template keeps as it stands (every match holds it)."""
    return max(_split(line, names)[0][::2], key=len)


@dataclass(frozen=True)
class Template:
    regex: str  # kind "line"
    folded: str  # as a reader is shown it
    count: int  # paragraphs of the book it matches whole


def template(preview, selected: str) -> Template | None:
    """The template of the line a selection stands inside, where that line (folded) stands whole in
    more paragraphs than one and is more than the selection; None: there is none."""
    selected = selected.strip()
    book_names = (preview.loaded.book.meta.title,)
    tried = set()
    best = None
    for i, where in enumerate(preview.chapters):
        for block in where.chapter.blocks:
            line = block.text.strip() if type(block) is Paragraph else ""
            if selected not in line or line == selected or len(line) > TEMPLATE_LONGEST:
                continue
            names = (*_titles(preview, i), *book_names)
            regex = line_regex(line, names)
            if regex in tried:
                continue
            tried.add(regex)
            count = _whole_lines(preview, regex, _longest_text(line, names))
            if count > 1 and (best is None or count > best.count):
                best = Template(regex, fold(line, names), count)
    return best


def _titles(preview, i: int) -> tuple[str, ...]:
    """The titles of the chapter and its neighbours, and their words (a template names the next
    chapter, or the chapter's title without its number)."""
    titles = [w.chapter.title for w in preview.chapters[max(i - 1, 0) : i + 2]]
    words = (
        word for title in titles for word in title.split() if len(word) > 1 and not re.search(NUMBER, word)
    )
    return (*titles, *words)


def marked(piece: Piece) -> str:
    """The piece in its paragraph, marked, with CONTEXT characters each side (escaped)."""
    words = piece.paragraph.text
    before = words[max(piece.start - CONTEXT, 0) : piece.start]
    after = words[piece.end : piece.end + CONTEXT]
    return (
        ("…" if piece.start > CONTEXT else "")
        + text(before)
        + f"<mark>{text(words[piece.start : piece.end])}</mark>"
        + text(after)
        + ("…" if piece.end + CONTEXT < len(words) else "")
    )


def page(preview, found: list[Piece], asked: str, form, template_form: str) -> str:
    """The preview page: what would go, and the form (`form(inner)`) that confirms it."""
    chapters = sorted({p.chapter for p in found})
    items = "".join(
        f'<li><a href="/text/{preview.chapters[p.chapter].name}.html">'
        f"{text(preview.chapters[p.chapter].chapter.title)}</a> "
        f'<span class="where">{text(str(p.paragraph.at))}</span><br/>{marked(p)}</li>'
        for p in found[:SHOWN_PIECES]
    )
    more = f"<li>… and {unshown(found)} more</li>" if unshown(found) else ""
    count = len(found)
    what = f"{counted(count, 'piece')} in {counted(len(chapters), 'chapter')}"
    if needs_confirming(count):
        ask = (
            f'<label><input type="checkbox" name="confirm" value="{count}" required="required"/> '
            f"I have looked at the list: remove all {count}</label> "
        )
    else:
        ask = f'<input type="hidden" name="confirm" value="{count}"/>'
    button = f'<button name="action" value="remove">remove these {count}</button>'
    return (
        '<section id="bb-preview" class="bb-preview">'
        f"<h1>Remove everywhere?</h1><p>Removing <q>{text(asked)}</q> would take {what}:</p>"
        f'<ol class="bb-takes">{items}{more}</ol>{template_form}{form(ask + button)}</section>'
    )


def template_offer(found: Template, form) -> str:
    """The offer to remove the whole repeated line instead (`form(inner)` posts its regex)."""
    return (
        f'<p class="bb-template">The selection stands inside a line that repeats in {found.count} '
        f"paragraphs with other numbers or names: <q>{text(found.folded)}</q> "
        f"(# any number, @ a chapter's or the book's name). "
        + form(
            f'<button name="action" value="remove">remove the whole line everywhere ({found.count})</button>'
        )
        + "</p>"
    )


def counted(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")
