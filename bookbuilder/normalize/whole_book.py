"""Cleaning by the whole book's evidence, after each chapter's own: the passes that need every
chapter to decide, in their order, each given the book the one before it left."""

from __future__ import annotations

from functools import partial

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Book, Location
from bookbuilder.normalize.edges import strip_edges
from bookbuilder.normalize.note_labels import strip_note_labels
from bookbuilder.normalize.own_title import strip_own_titles
from bookbuilder.normalize.page_marks import strip_page_marks
from bookbuilder.normalize.repeats import strip_repeated
from bookbuilder.normalize.wrapper import strip_stamps, strip_wrapper


def clean_whole_book(
    book: Book,
    off: frozenset[str],
    kept: frozenset,
    removed_at: frozenset[Location],
    seen_before=None,
    edge_memo: dict | None = None,
) -> tuple[Book, dict[int, list[Diagnostic]]]:
    """A site's repeated sentences and domains, the page numbers of a print, its lines at chapters'
    edges, then a distributor's notice at the book's two ends (told by `removed_at`, where each
    chapter's cleaning took a site's line): the book without them, and each chapter's removals by
    its index in book.chapters(). `off`: the rules switched off; `kept`: the places [[keep]] keeps;
    `seen_before`: a chapter's repeats work done where it was normalized (repeats.strip_repeated);
    `edge_memo`: each chapter's forms at its edges, kept for the self-check (edges.sightings)."""
    removed: dict[int, list[Diagnostic]] = {}
    for strip in (
        partial(strip_repeated, seen_before=seen_before),
        strip_page_marks,
        partial(strip_edges, memo=edge_memo),
        partial(strip_wrapper, removed_at=removed_at),
        partial(strip_stamps, removed_at=removed_at),
        strip_own_titles,
        strip_note_labels,
    ):
        book, found = strip(book, off, kept)
        for k, records in found.items():
            removed[k] = removed.get(k, []) + records
    return book, removed
