"""*Start a volume here* on a chapter that a file's name titles (a folder of 0012 风起.txt holding
the story alone): the chapter has no heading line for a [[fix]] to name, so the correction is a
[[volume]] naming the file (bookbuilder.structure.file_volumes), with the title the user types.
The chapter keeps its title and every line; the contents entry offers the control, made by
workbench.js from the template here when the entry is opened, as the other entries' are.
"""

from __future__ import annotations

from collections.abc import Callable

from bookbuilder.render.html import text
from bookbuilder.serve import corrections
from bookbuilder.serve.corrections import Refused, fix_at

ACTION = "file-volume"
KIND = "file"  # the contents entry's data-kind, and its template's id (bb-fix-file)
MEMO = "titled by name"  # its key in the preview's memo
NOTE = '<span class="bb-rule">(titled by its file\'s name: rename the file to change it)</span>'


def entry(preview, path: str, line: int, title: str) -> str:
    """The entry's control where its chapter opens a file of a folder book and no line of the file
    titles it; "" for any other entry. `at` carries the file, as [[volume]] before names it."""
    if (path, line) not in _titled_by_name(preview):
        return ""
    return (
        f' <details class="bb-fix" data-kind="{KIND}" data-at="{text(_file(preview, path))}" '
        f'data-expect="{text(title)}"><summary>correct</summary></details>'
    )


def template(form: Callable[..., str]) -> str:
    """The controls of such an entry, once a page (workbench.js fills in its file and title)."""
    made = form(
        "/",
        {"at": "", "expect": ""},
        '<input name="title" value="" required="required" placeholder="volume title" '
        'aria-label="the volume\'s title" size="16"/> '
        f'<button name="action" value="{ACTION}">start a volume here</button>',
    )
    return f'<template id="bb-fix-{KIND}">{NOTE} {made}</template>'


def apply(form: dict, preview, doc) -> str:
    """The [[volume]] written into `doc`, checked against the book as built now (a page made
    before the files changed may name a chapter that no longer opens its file so)."""
    before, expect = form.get("at", ""), form.get("expect", "")
    offered = {(_file(preview, path), c.title) for (path, _), c in _titled_by_name(preview).items()}
    if (before, expect) not in offered:
        raise Refused(
            f"{expect!r} is no longer a chapter that {before} opens, titled by its name (the book "
            "changed since the page was made): reload the page"
        )
    title = " ".join(form.get("title", "").split())
    if not title:
        raise Refused("give the volume a title")
    return corrections.add_volume(doc, before, title)


def _titled_by_name(preview) -> dict:
    """(path, first line) → chapter, of each chapter that opens a file of a folder book with no
    heading line: no rule, fix or title line decided it and it has no number (its title is the
    file's name, or 第N章 by its place). Worked out once a build."""
    found = preview.memo.get(MEMO)
    if found is None:
        found, opened = {}, set()
        folder = preview.loaded.config.source.is_dir()
        for w in preview.chapters:
            c = w.chapter
            if (
                folder
                and w.path not in opened
                and c.kind == "chapter"
                and not c.decided_by
                and c.number is None
            ):
                found[(w.path, w.first)] = c
            opened.add(w.path)
        preview.memo[MEMO] = found
    return found


def _file(preview, path: str) -> str:
    """The file as [[volume]] before names it: relative to the source folder."""
    return fix_at(preview.loaded.config.source, path, 0).rsplit(":", 1)[0]
