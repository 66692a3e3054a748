"""*Start a volume here* on a chapter that a file's name titles (a folder of 0012 风起.txt holding
the story alone), or the title line of a file named by its number (Chapter12.txt over 风起,
structure/file_titles.py): no heading line opens a volume there without taking the chapter's title
or a story line, so the correction is a [[volume]] naming the file
(bookbuilder.structure.file_volumes), with the title the user types. The chapter keeps its title
and every line; the contents entry offers the control, made by workbench.js from the template here
when the entry is opened, as the other entries' are.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bookbuilder.serve import corrections
from bookbuilder.serve.corrections import Refused

ACTION = "file-volume"
# The contents entry's data-kind, and its template's id (bb-fix-…): a chapter whose file opens with
# its story (its file's name titles it), or one whose file opens with a line that is no block
# (the title line of Chapter12.txt, or of Prelude 1.txt that names it again), which a [[fix]] of
# that line may still rename (a file opening with blank lines is the first kind: its chapter
# stands at its first line of text, structure/chapters.py).
STORY_FIRST, LINE_FIRST = "file", "file-line"
MEMO = "titled by name"  # its key in the preview's memo
NOTE = '<span class="bb-rule">(titled by its file\'s name: rename the file to change it)</span>'
_LINE = re.compile(r":\d+$")


def entry(preview, path: str, line: int) -> tuple[str, str] | None:
    """(data-kind, at) of the entry's controls where its chapter opens a file of a folder book and
    no heading line decided it, else None. `at` carries the file (with the line, where a rename
    may name it)."""
    story_first = _titled_by_name(preview)[0].get((path, line))
    if story_first is None:
        return None
    return (STORY_FIRST, preview.fix_file(path)) if story_first else (LINE_FIRST, preview.fix_at(path, line))


def template(form: Callable[..., str], rename: str) -> str:
    """The controls of such entries, once a page (workbench.js fills in the file and title);
    `rename`: the other entries' rename form."""
    volume = form(
        "/",
        {"at": "", "expect": ""},
        '<input name="title" value="" required="required" placeholder="volume title" '
        'aria-label="the volume\'s title" size="16"/> '
        f'<button name="action" value="{ACTION}">start a volume here</button>',
    )
    return (
        f'<template id="bb-fix-{STORY_FIRST}">{NOTE} {volume}</template>'
        f'<template id="bb-fix-{LINE_FIRST}">{rename} {volume}</template>'
    )


def apply(form: dict, preview, doc) -> str:
    """The [[volume]] written into `doc`, checked against the book as built now (a page made
    before the files changed may name a chapter that no longer opens its file so)."""
    before, expect = _LINE.sub("", form.get("at", "")), form.get("expect", "")
    offered = {(preview.fix_file(path), title) for path, title in _titled_by_name(preview)[1]}
    if (before, expect) not in offered:
        raise Refused(
            f"{expect!r} is no longer a chapter that {before} opens, titled by its name (the book "
            "changed since the page was made): reload the page"
        )
    title = " ".join(form.get("title", "").split())
    if not title:
        raise Refused("give the volume a title")
    return corrections.add_volume(doc, before, title)


def _titled_by_name(preview) -> tuple[dict, set]:
    """Each chapter that opens a file of a folder book with no heading line (no rule or fix decided
    it: the file's name titles it, 第N章 by its place, or the title line the file opens with, its
    number's or its name's again): (path, first line) → whether the file opens with the story; and
    the (path, title) of each. Once a build."""
    found = preview.memo.get(MEMO)
    if found is None:
        starts, titles, opened = {}, set(), set()
        folder = preview.loaded.config.source.is_dir()
        for w in preview.chapters:
            c = w.chapter
            if folder and w.path not in opened and c.kind == "chapter" and not c.decided_by:
                starts[(w.path, w.first)] = bool(c.blocks) and c.blocks[0].at.line == w.first  # or a break
                titles.add((w.path, c.title))
            opened.add(w.path)
        found = preview.memo[MEMO] = starts, titles
    return found
