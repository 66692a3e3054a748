"""What a correction says back, and where: each answer kept under an id that the page the browser
is sent to names (?said=<id>), shown on that page once, beside the element whose control was used
(bookbuilder/data/workbench.js places it); a refusal as a page dressed as the others.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from urllib.parse import urlsplit, urlunsplit

from bookbuilder.render.html import text

ANSWERS_KEPT = 64  # answers kept for the pages the browsers were sent to (one each, shown on that page)
NEAR = re.compile(r"[A-Za-z0-9_-]{1,80}")  # the id of the element a control stood in
# What each correction did, in a reader's words: the start of its answer.
ACTION_WORDS = {
    "not-heading": "no longer a heading",
    "volume": "a volume starts here",
    "file-volume": "a volume starts before this chapter's file",
    "chapter": "a chapter, no longer a volume",
    "rename": "renamed",
    "heading": "a heading starts here",
    "keep-line": "this line is kept",
    "keep": "this rule is off: the lines it took are back",
    "remove": "removed everywhere",
    "not-debris": "kept as the story's",
    "undo": "undone",
}


class Answers:
    """The answers of the latest corrections, by id; the oldest forgotten past ANSWERS_KEPT."""

    def __init__(self):
        self._kept: OrderedDict[str, tuple[str, str]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, said: str | None) -> tuple[str, str] | None:
        """(message, the id of the element it is shown beside) of an answer; None: no such answer."""
        with self._lock:
            return self._kept.get(said or "")

    def send(self, back: str, message: str, near: str) -> tuple[int, dict, bytes]:
        """Send the browser back to `back`, which shows `message` beside the element `near`."""
        said = secrets.token_urlsafe(8)
        with self._lock:
            self._kept[said] = (message, near)
            while len(self._kept) > ANSWERS_KEPT:
                self._kept.popitem(last=False)
        parts = urlsplit(back)
        query = "&".join(q for q in (parts.query, f"said={said}") if q)
        return 303, {"Location": urlunsplit(("", "", parts.path, query, parts.fragment))}, b""


def in_words(action: str, said: str, settings: str) -> str:
    """A correction's answer: what it did in a reader's words, then the entry as the file has it."""
    if action == "undo":
        return f"undone: taken out of {settings}: {said.removeprefix('undone: ')}"
    return f"{ACTION_WORDS.get(action, 'done')}: written in {settings} as {said}"


def plain(c) -> str:
    """An entry of the corrections in force, in a reader's words."""
    return {
        "fix": "a heading corrected:",
        "keep": "a line kept as written:",
        "volume": "a volume started before a chapter's file:",
        "disable": "a cleaning rule switched off:",
        "extra": "text removed everywhere:",
        "not_debris": "text the self-check leaves as the story's:",
    }.get(c.kind, "")


def refused_page(status: int, title: str, message: str, back: str = "/") -> tuple[int, dict, bytes]:
    """A refusal's page, dressed as the others: what was refused and why, and the way back."""
    page = (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/><title>{text(title)}</title>\n'
        '<link href="/styles/book.css" rel="stylesheet"/>\n<link href="/serve.css" rel="stylesheet"/>\n'
        '<link href="/favicon.svg" rel="icon" type="image/svg+xml"/>\n</head>\n'
        f'<body>\n<nav class="pages"><a href="{text(back)}">back to the page</a><a href="/">目录</a></nav>\n'
        f'<h1>{text(title)}</h1>\n<p class="bb-error" role="alert">{text(message)}</p>\n</body></html>\n'
    )
    return status, {"Content-Type": "text/html; charset=utf-8"}, page.encode("utf-8")
