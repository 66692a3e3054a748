"""One font program for every chunk of a merged PDF.

Each chunk that WeasyPrint renders embeds its own subset of the same font (~0.5 MB for Noto Serif
CJK), so a book merged from many chunks would carry the font many times. WeasyPrint subsets with
HarfBuzz's RETAIN_GIDS, so glyph ids (= CIDs) are those of the original font in every chunk: one
subset of the union of the glyphs the chunks use can serve them all. The original is found by
the PostScript name inside the embedded program (fontconfig), and cut with HarfBuzz.
"""

from __future__ import annotations

import io
import shutil
from collections import defaultdict

import pikepdf

from bookbuilder.system import external

MIN_SAVING = 100_000  # bytes: below this, leave the chunks' programs alone


def _descendants(pdf):
    """Each CIDFont (descendant of a Type0 font) used on any page or in a form it draws, once."""
    seen, visited = set(), set()
    for page in pdf.pages:
        for resources in _resources(page.obj.get("/Resources"), visited):
            fonts = resources.get("/Font")
            for font in fonts.values() if fonts is not None else ():
                for d in font.get("/DescendantFonts", []):
                    if d.objgen not in seen:
                        seen.add(d.objgen)
                        yield d


def _resources(resources, visited: set):
    """A resource dictionary and those of the forms it holds, each once: the pages of a chunk
    share one dictionary."""
    if resources is None or (resources.is_indirect and resources.objgen in visited):
        return
    if resources.is_indirect:
        visited.add(resources.objgen)
    yield resources
    forms = resources.get("/XObject")
    for xobject in forms.values() if forms is not None else ():
        if xobject.get("/Subtype") == "/Form" and xobject.objgen not in visited:
            visited.add(xobject.objgen)
            yield from _resources(xobject.get("/Resources"), visited)


def _used_gids(cid_font) -> set[int]:
    """CIDs = glyph ids (Identity): the ones the /W widths array lists, plus .notdef."""
    gids, w = {0}, list(cid_font.get("/W", []))
    i = 0
    while i < len(w):
        first = int(w[i])
        if i + 1 < len(w) and isinstance(w[i + 1], pikepdf.Array):
            gids.update(range(first, first + len(w[i + 1])))
            i += 2
        else:
            gids.update(range(first, int(w[i + 1]) + 1))
            i += 3
    return gids


def _postscript_name(program: bytes) -> str | None:
    from fontTools.ttLib import TTFont

    try:
        font = TTFont(io.BytesIO(program), lazy=True)
        if "CFF " in font:
            return font["CFF "].cff.fontNames[0]
        return font["name"].getDebugName(6)
    except Exception:  # an unreadable program is simply not shared
        return None


def _system_font(ps_name: str) -> tuple[str, int] | None:
    if not shutil.which("fc-list"):
        return None
    out = external.run(
        ["fc-list", f":postscriptname={ps_name}", "file", "index"], capture_output=True, text=True
    ).stdout.strip()
    if not out:
        return None
    path, _, rest = out.splitlines()[0].partition(":")
    return path.strip(), int(rest.split("=")[-1]) if "index=" in rest else 0


def union_subset(path: str, index: int, gids: set[int]) -> bytes:
    """HarfBuzz subset (as WeasyPrint does it, glyph ids kept): fontTools takes seconds on a CJK font."""
    import uharfbuzz as hb

    face = hb.Face(hb.Blob.from_file_path(path), index)
    request = hb.SubsetInput()
    for gid in gids:
        request.glyph_set.add(gid)
    flags = hb.SubsetFlags
    request.flags = (
        flags.RETAIN_GIDS
        | flags.PASSTHROUGH_UNRECOGNIZED
        | flags.DESUBROUTINIZE
        | flags.NO_HINTING
        | flags.NOTDEF_OUTLINE
    )
    drop = request.sets(hb.SubsetInputSets.DROP_TABLE_TAG)
    for tag in ("BASE", "DSIG", "EBDT", "EBLC", "EBSC", "GPOS", "GSUB", "JSTF", "LTSH", "PCLT", "SVG "):
        drop.add(int.from_bytes(tag.encode("ascii"), "big"))
    return hb.subset(face, request).blob.data


def share_font_programs(pdf) -> int:
    """Replace the per-chunk programs of each font by one union subset; the number of fonts shared.
    Old programs become unreferenced, and qpdf does not write them."""
    groups = defaultdict(list)
    for cid_font in _descendants(pdf):
        descriptor = cid_font.get("/FontDescriptor")
        key = next(
            (k for k in ("/FontFile3", "/FontFile2") if descriptor is not None and k in descriptor), None
        )
        if key:
            groups[(key, str(cid_font.get("/BaseFont", "")).split("+")[-1])].append((cid_font, descriptor))
    shared = 0
    for (key, _), members in groups.items():
        programs = {d[key].objgen: d[key] for _, d in members}
        sizes = [len(p.read_raw_bytes()) for p in programs.values()]
        if sum(sizes) - max(sizes) < MIN_SAVING:
            continue
        sample = next(iter(programs.values()))
        ps_name = _postscript_name(sample.read_bytes())
        found = _system_font(ps_name) if ps_name else None
        if not found:
            continue
        gids = set().union(*(_used_gids(cid_font) for cid_font, _ in members))
        stream = pdf.make_stream(union_subset(found[0], found[1], gids))
        if "/Subtype" in sample:
            stream.Subtype = sample.Subtype
        for _, descriptor in members:
            descriptor[key] = stream
        shared += 1
    return shared
