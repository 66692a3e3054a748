"""The stamps (page numbers, running headers) drawn into the merged body pages.

Each body page's stamp is drawn in the page's own content stream, after its body, each in a
graphics state of its own (q … Q). A form XObject per page, as pikepdf's Page.add_overlay makes,
would cost every page a stream with its dictionary and a resource dictionary of its own; drawn in
the page, the file stays near one WeasyPrint document's size, with the same pixels.

The stamp's resources join the chunk's under names of their own (STAMP_PREFIX): a chunk and its
stamps name a font alike, after its description, but each carries its own subset's widths
(/W), so the two cannot be one entry. The names in the stamp's content are replaced by qpdf's
lexer (pikepdf.TokenFilter), which knows a name from a string or an inline image's data. One
resource dictionary serves every page of a chunk, as one serves every page of a WeasyPrint
document.
"""

from __future__ import annotations

import pikepdf

STAMP_PREFIX = "s-"  # a stamp's resource names in the merged dictionary: /s-<WeasyPrint's name>


def stamp_pages(out: pikepdf.Pdf, body: list, stamps: list) -> None:
    """Draw each stamp after its body page's content; `stamps`: (the stamp document, its page)
    for each page of `body` (pages of `out`)."""
    merged: dict[tuple, tuple] = {}  # (chunk's resources, stamp document's) → (dictionary, renamer)
    for page, (source, stamp) in zip(body, stamps, strict=True):
        own, theirs = page.obj.get("/Resources"), stamp.obj.get("/Resources")
        key = (_key(own), id(source), _key(theirs))
        if key not in merged:
            if theirs is not None and not theirs.is_indirect:
                theirs = source.make_indirect(theirs)
            merged[key] = _merged_resources(
                out, own, out.copy_foreign(theirs) if theirs is not None else None
            )
        resources, renamer = merged[key]
        drawn = stamp.get_filtered_contents(renamer)
        page.obj.Contents = out.make_stream(b"q\n" + _content(page.obj) + b"\nQ\nq\n" + drawn + b"\nQ\n")
        page.obj.Resources = resources


def _key(resources):
    """What tells one resource dictionary from another: its object, or a direct one's text (the
    empty one of a blank page)."""
    if resources is None:
        return None
    return resources.objgen if resources.is_indirect else resources.unparse()


def _merged_resources(out: pikepdf.Pdf, own, theirs) -> tuple:
    """A chunk's resources and, renamed, its stamps' (already copied into the output): one
    indirect dictionary, and the token filter that renames the stamp's names."""
    resources = pikepdf.Dictionary()
    for category, entries in own.items() if own is not None else ():
        resources[category] = (
            pikepdf.Dictionary(entries) if isinstance(entries, pikepdf.Dictionary) else entries
        )
    renames: dict[str, pikepdf.Name] = {}
    for category, entries in theirs.items() if theirs is not None else ():
        if not isinstance(entries, pikepdf.Dictionary):
            continue
        target = resources.get(category)
        if target is None:
            target = resources[category] = pikepdf.Dictionary()
        for name, value in entries.items():
            new = "/" + STAMP_PREFIX + name[1:]
            while new in target:  # never another resource's name
                new = "/" + STAMP_PREFIX + new[1:]
            target[new] = value
            renames[name] = pikepdf.Name(new)
    return out.make_indirect(resources), Renames(renames)


def _content(page_obj) -> bytes:
    """A page's content streams, decoded and joined (a blank page has one empty stream)."""
    contents = page_obj.get("/Contents")
    if contents is None:
        return b""
    streams = list(contents) if isinstance(contents, pikepdf.Array) else [contents]
    return b"\n".join(s.read_bytes() for s in streams)


class Renames(pikepdf.TokenFilter):
    """Replaces each name token that `renames` holds (old name → new)."""

    def __init__(self, renames: dict[str, pikepdf.Name]):
        super().__init__()
        self.renames = {
            old: pikepdf.Token(pikepdf.TokenType.name_, new.unparse()) for old, new in renames.items()
        }

    def handle_token(self, token: pikepdf.Token):
        if token.type_ == pikepdf.TokenType.name_:
            return self.renames.get(token.value, token)
        return token
