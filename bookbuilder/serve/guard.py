"""A correction tried on a copy before it is written: the book loaded with the settings file as
the correction would leave it, and that book's paragraphs compared with the book's now.

The story is the paragraphs, in reading order. A correction may take from it only what it names:
the source line it makes a heading, the pieces a pattern it adds cuts (each recorded as a
removal, with its rule), the removals a rule switched back on records again. Any other paragraph
missing, cut or standing elsewhere in the order means the correction would lose a line, and it is
refused before book.toml is touched. A correction that leaves the book exactly as it was is
refused too: it would say it worked and change nothing.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from bookbuilder import pipeline
from bookbuilder.config import load_config
from bookbuilder.diagnostics import REMOVED, BookError, removal_evidence, removal_parts
from bookbuilder.model import Book, Location, Paragraph
from bookbuilder.serve.corrections import Refused, fix_at
from bookbuilder.serve.pages import removal_words

ANY_RULE = "*"  # Named.rules: the removals of whatever rule (an undo brings back what it had kept)
SHOWN_LOST = 3  # lines a refusal quotes of what the correction would lose
_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"\w")


@dataclass(frozen=True)
class Named:
    """What a correction names, and so may take from the story."""

    lines: frozenset[str] = frozenset()  # "file:line" (as [[fix]] writes it) of lines made headings
    rules: frozenset[str] = frozenset()  # rules whose recorded removals it brings in
    changes: bool = True  # it must change the book (False: it changes only what the self-check flags)
    why_not: str = ""  # what to say where it changes nothing
    returns: bool = False  # it brings lines back, which may part a paragraph they had been joined across


def named_by(form: dict, preview, doc) -> Named:
    """What the correction a form asks for names, and so may take from the story (above): the
    line "a heading starts here" makes a heading; for an undo, the entry's line and the removals
    its rule records again. The pattern "remove everywhere" adds is named once it has its name."""
    action = form.get("action")
    k, n = form.get("file", ""), form.get("line", "")
    if action == "heading" and k.isdigit() and int(k) < len(preview.files) and n.isdigit():
        at = fix_at(preview.loaded.config.source, preview.files[int(k)], int(n))
        return Named(lines=frozenset({at}))
    if action == "file-volume":  # [[volume]] before a file: it names no line, so no paragraph may go
        return Named(why_not="the volume it names is open there already")
    if action == "not-debris":
        return Named(changes=False)  # what the self-check flags changes, not the book
    if (
        action == "not-heading"
        and form.get("at", "").endswith(":1")
        and preview.loaded.config.source.is_dir()
    ):
        return Named(why_not="a chapter file's first line titles its chapter even as text")
    if action == "not-heading" and form.get("at"):  # its line made text, perhaps joined to the next
        return Named(lines=frozenset({form["at"]}))
    if action == "keep" and form.get("rule"):  # keep this rule off: every line it took comes back
        return Named(rules=frozenset({form["rule"]}), returns=True)
    if action == "keep-line":  # keep this: one removed line comes back
        return Named(rules=frozenset({ANY_RULE}), returns=True)
    if action != "undo":
        return Named()
    index = int(form["index"]) if form.get("index", "").isdigit() else -1
    fixes = doc.get("fix") or ()
    entry = fixes[index] if form.get("kind") == "fix" and 0 <= index < len(fixes) else None
    lines = frozenset({str(entry["at"])}) if entry is not None and "at" in entry else frozenset()
    return Named(lines=lines, rules=frozenset({ANY_RULE}), changes=False, returns=True)


def trial(site, settings: str) -> tuple[object, dict]:
    """The book loaded with `settings` as its settings file's text, and the memo that load left:
    the site's memo copied, so that the pages' build is untouched until the file is written (and
    then the watcher's rebuild finds the files this load read)."""
    memo = {key: dict(value) if isinstance(value, dict) else value for key, value in site.memo.items()}
    try:
        return pipeline.load_book(load_config(site.path, settings), 1, memo=memo), memo
    except BookError as e:
        raise Refused(f"the book would not build with this correction: {e.diagnostic}") from None


def story(book: Book) -> list[Paragraph]:
    """The book's paragraphs in reading order."""
    return [b for chapter in book.chapters() for b in chapter.blocks if type(b) is Paragraph]


def shape(book: Book) -> tuple:
    """What a reader sees of the book: its volumes, chapters and paragraphs, in order."""
    return tuple(
        (volume.title, tuple((c.title, c.kind, c.blocks) for c in volume.chapters)) for volume in book.volumes
    )


def check(before, after, named: Named) -> None:
    """Refused (with the lines it would lose) where `after` drops, cuts or moves a paragraph of
    `before` that the correction does not name; or where it changes nothing it should."""
    if named.changes and shape(before.book) == shape(after.book):
        why = f" ({named.why_not})" if named.why_not else ""
        raise Refused(f"this correction would change nothing in the book{why}, so it is not made")
    gone = lost(before, after, named)
    if gone:
        raise Refused(
            f"this correction would take story text it does not name out of the book or move it "
            f"({quoted(gone, _taken_by(after, named))}), so it is not made and the settings file is left "
            "as it was"
        )


def quoted(gone: list[Paragraph], taken_by: dict | None = None) -> str:
    """The first SHOWN_LOST lines a correction would lose, quoted with their places and the rules
    that would take from them (`taken_by`: place → rule names), and how many more."""
    said = "; ".join(f"“{p.text[:40]}” ({p.at}{_by((taken_by or {}).get(p.at))})" for p in gone[:SHOWN_LOST])
    return said + (f" and {len(gone) - SHOWN_LOST} more" if len(gone) > SHOWN_LOST else "")


def _taken_by(after, named: Named) -> dict:
    """place → why `after` removes text there by rules the correction does not name, in a reader's
    words: what would take the text (a line brought back may join another that a whole-book pass
    then cuts, with it, as a site's repeated template)."""
    found: dict = {}
    for d in after.diagnostics:
        if d.code == REMOVED and d.at is not None and (rule := removal_parts(d)[0]) not in named.rules:
            found.setdefault(d.at, set()).add(removal_words(rule, removal_evidence(d), after.config))
    return found


def _by(why: set | None) -> str:
    return f"; taken there as {' and '.join(sorted(why))}" if why else ""


def lost(before, after, named: Named) -> list[Paragraph]:
    """The paragraphs of `before` that `after` loses or moves and the correction does not name.
    Places are (path, line) pairs: a Location hashes in Python, and a book has 66,000 paragraphs."""
    source = before.config.source
    was, now = _middles(story(before.book), story(after.book))
    after_keys = {(q.at.path, q.at.line, q.text) for q in now}
    places = _Places(now)
    removed = _removals(after, named.rules)
    # the named line made text, the lines after it joined to it (第40章 第40个山门 + its first sentence)
    absorbed = [
        _bare(q.text) for q in now if named.lines and fix_at(source, q.at.path, q.at.line) in named.lines
    ]
    # what comes back or goes (the named rules' recorded removals, before and after), the longest first
    pieces = _pieces(before, after, named) if named.returns else []
    gone, kept = [], []
    for p in was:
        key = (p.at.path, p.at.line, p.text)
        if key in after_keys:
            kept.append(key)
        elif not (
            (named.lines and fix_at(source, p.at.path, p.at.line) in named.lines)
            or _joined(p, places.text)
            or any(_bare(p.text) in text for text in absorbed)
            or (named.returns and _parted(p, places, pieces))
            or _cut_as_recorded(p, places.text, removed)
        ):
            gone.append(p)
    kept_set = set(kept)
    order = [key for q in now if (key := (q.at.path, q.at.line, q.text)) in kept_set]
    if order != kept:  # a paragraph standing elsewhere: the first one out of place
        path, line, text = kept[next(k for k, (a, b) in enumerate(zip(kept, order)) if a != b)]
        gone.append(Paragraph(text, Location(path, line)))
    return gone


class _Places:
    """The paragraphs of the book after, by place: the first one's text and index at each, and
    (made when first asked for) each file's places in order, for the paragraph above a place."""

    def __init__(self, now: list[Paragraph]):
        self.now = now
        self.text: dict[tuple, str] = {}
        self.index: dict[tuple, int] = {}
        for i, q in enumerate(now):
            place = (q.at.path, q.at.line)
            if place not in self.index:
                self.index[place] = i
                self.text[place] = q.text
        self._lines: dict[str, tuple[list[int], list[Paragraph]]] | None = None

    def above(self, p: Paragraph) -> Paragraph | None:
        """The paragraph of `p`'s file at the nearest line above `p`'s (the first of those there)."""
        if self._lines is None:
            by_file: dict[str, list[Paragraph]] = {}
            for q in self.now:
                by_file.setdefault(q.at.path, []).append(q)
            self._lines = {}
            for path, found in by_file.items():
                found.sort(key=lambda q: q.at.line)  # stable: the book's order among one line's
                self._lines[path] = ([q.at.line for q in found], found)
        lines, found = self._lines.get(p.at.path, ([], []))
        k = bisect.bisect_left(lines, p.at.line)
        return found[bisect.bisect_left(lines, lines[k - 1])] if k else None


def _middles(was: list, now: list) -> tuple[list, list]:
    """The two stories without the paragraphs they begin and end with alike: a correction changes a
    few places, and a rebuild from the memo keeps the same paragraphs (the same objects) elsewhere."""
    start, most = 0, min(len(was), len(now))
    while start < most and (was[start] is now[start] or was[start] == now[start]):
        start += 1
    end = 0
    while end < most - start and (was[-1 - end] is now[-1 - end] or was[-1 - end] == now[-1 - end]):
        end += 1
    return was[start : len(was) - end], now[start : len(now) - end]


def _removals(after, rules: frozenset[str]) -> dict:
    """((path, line) → removed pieces) of the removals `after` records by the named rules."""
    found: dict = {}
    if not rules:
        return found
    for d in after.diagnostics:
        if d.code == REMOVED and d.at is not None:
            rule, piece = removal_parts(d)
            if ANY_RULE in rules or rule in rules:
                found.setdefault((d.at.path, d.at.line), []).append(piece)
    return found


def _joined(p: Paragraph, after_at: dict) -> bool:
    """Every character of the paragraph is still at its place, in order, with more among them: a
    line joined to it (a heading made text), a piece brought back (a removal undone)."""
    text = after_at.get((p.at.path, p.at.line))
    if text is None:
        return False
    rest = iter(_bare(text))
    return all(c in rest for c in _bare(p.text))


def _pieces(before, after, named: Named) -> list[str]:
    found = _removals(before, named.rules).values(), _removals(after, named.rules).values()
    return sorted({_bare(x) for side in found for pieces in side for x in pieces if _bare(x)}, key=len)[::-1]


def _parted(p: Paragraph, places: _Places, pieces: list[str]) -> bool:
    """The paragraph's text runs on the same from its place, once the pieces that come back or go
    are left out on both sides: lines a rule switched off return inside it, or an undo takes them
    out of it again (the reflow joins across the gap a line leaves, and may wrap the chapter anew)."""
    i = places.index.get((p.at.path, p.at.line))
    want, got = _without(_bare(p.text), pieces), ""
    if i is None:  # its place gone: joined to the paragraph before it, across a line taken out again
        above = places.above(p)
        return above is not None and want in _without(_bare(above.text), pieces)
    for q in places.now[i:]:
        got += _without(_bare(q.text), pieces)
        if len(got) >= len(want):
            return got.startswith(want)
    return False


def _without(text: str, pieces: list[str]) -> str:
    for piece in pieces:
        text = text.replace(piece, "")
    return text


def _cut_as_recorded(p: Paragraph, after_at: dict, removed: dict) -> bool:
    """The paragraph reads as it did less the pieces recorded as removed at its place and marks
    beside them (or, nothing but marks left, it went)."""
    pieces = removed.get((p.at.path, p.at.line))
    if not pieces:
        return False
    left = _bare(p.text)
    for piece in pieces:
        left = left.replace(_bare(piece), "", 1)
    now = after_at.get((p.at.path, p.at.line))
    return not _WORD.search(_dropped(left, _bare(now)) if now is not None else left)


def _dropped(text: str, kept: str) -> str:
    """What of `text` is not in `kept`, where `kept` is `text` with characters left out (else all
    of `text`): the marks a cut tidies away with the piece (the comma doubled by it)."""
    gone, k = [], 0
    for c in text:
        if k < len(kept) and c == kept[k]:
            k += 1
        else:
            gone.append(c)
    return "".join(gone) if k == len(kept) else text


def _bare(text: str) -> str:
    return _SPACE.sub("", text)
