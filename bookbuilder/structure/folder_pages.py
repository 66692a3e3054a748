"""A site's page title over every file of a folder book: the line each chapter file opens with
(the book's name, `书名 → 正文`), repeated because the site prints it at the top of every page.
It is no chapter's title and no text: each file is read without it (noted as I303, the page
header's code). Found from the first files of the folder, before they are read; a numbered label
(第一场 opening every episode of a play, 第一章) is the story's, never a page title.
"""

from __future__ import annotations

from collections import Counter

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Location
from bookbuilder.structure.file_titles import SCENE_LABEL
from bookbuilder.structure.headings import candidate
from bookbuilder.vocabulary import SENTENCE_STOPS

PAGE_TITLE_FILES = 3  # files, at least, that open with the line
PAGE_TITLE_SHARE = 0.8  # and this share of the first files with text (per_file.first_texts's)
PAGE_TITLE_MOST = 40  # characters: a page title's longest


def first_line(text: str) -> str:
    """A file's first line with text, stripped (a byte order mark too)."""
    return next(
        (line.strip(" \t\u3000\ufeff") for line in text.split("\n") if line.strip(" \t\u3000\ufeff")), ""
    )


def page_title_of(texts: list[str]) -> str:
    """The page title over the folder's first files (their decoded texts), or ""."""
    return page_title([first_line(text) for text in texts])


def page_title(openings: list[str]) -> str:
    """The line most of the folder's first files open with, when it is a page title's; else ""."""
    lines = [line for line in openings if line]
    if not lines:
        return ""
    line, times = Counter(lines).most_common(1)[0]
    if times < PAGE_TITLE_FILES or times < PAGE_TITLE_SHARE * len(lines):
        return ""
    if len(line) > PAGE_TITLE_MOST or line.endswith(tuple(SENTENCE_STOPS)):
        return ""  # a sentence each file opens with is the story's (an epigraph), not the site's
    if SCENE_LABEL.match(line) or candidate(line, 1) is not None:
        return ""  # a label the files are numbered by: the story's structure
    return line


def without_page_title(text: str, path: str, title: str) -> tuple[str, list[Diagnostic]]:
    """The file's text without its first line where that line is the folder's page title (left
    blank, so that every other line keeps its number), and the note that says so."""
    if not title:
        return text, []
    lines = text.split("\n")
    k = next((i for i, line in enumerate(lines) if line.strip(" \t\u3000\ufeff")), None)
    if k is None or lines[k].strip(" \t\u3000\ufeff") != title:
        return text, []
    lines[k] = ""
    note = Diagnostic(
        "I303",
        f"the line the folder's files open with was dropped as the site's page title: {title[:40]}",
        Location(path, k + 1),
    )
    return "\n".join(lines), [note]
