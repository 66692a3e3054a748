"""Finding a CJK font on this machine (fontconfig) and checking what it covers (fontTools)."""

from __future__ import annotations

import functools
import shutil
from pathlib import Path

from bookbuilder.diagnostics import BookError
from bookbuilder.system import external

SERIF_SC = "Noto Serif CJK SC"
INSTALL_HINT = "install one (Debian: apt-get install fonts-noto-cjk) or name a font file in book.toml"
# The regional face of Noto Serif CJK for a book language: punctuation sits and glyphs are drawn
# the way readers of that region expect (the faces cover the same characters).
SERIF_BY_LANGUAGE = {
    "zh-Hant": "Noto Serif CJK TC",
    "zh-TW": "Noto Serif CJK TC",
    "zh-HK": "Noto Serif CJK HK",
}


def serif_for(language: str) -> str:
    return SERIF_BY_LANGUAGE.get(language, SERIF_SC)


@functools.lru_cache(maxsize=16)
def find_font(family: str = SERIF_SC, style: str = "Regular") -> tuple[Path, int]:
    """(file, face index) of an installed CJK font. In a .ttc the Simplified Chinese face of Noto
    Serif CJK is not face 0 (that is Japanese), so the index matters."""
    if shutil.which("fc-match"):
        out = external.run(
            ["fc-match", "-f", "%{file}\n%{index}\n%{family}", f"{family}:style={style}"],
            capture_output=True,
            text=True,
        ).stdout.split("\n")
        if len(out) >= 3 and "CJK" in out[2]:
            return Path(out[0]), int(out[1] or 0)
    raise BookError("E405", f"no CJK font found for {family!r}: {INSTALL_HINT}")


def subset_font(path: Path, index: int, chars: str) -> bytes:
    """The face `index` of `path`, cut down to the glyphs for `chars` (fontTools), as OpenType."""
    import io

    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(str(path), fontNumber=index, lazy=True)
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=chars)
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def missing_glyphs(path: Path, index: int, chars: set[str]) -> set[str]:
    """The characters of `chars` that the face has no glyph for (its cmap)."""
    from fontTools.ttLib import TTFont

    cmap = TTFont(str(path), fontNumber=index, lazy=True).getBestCmap()
    return {c for c in chars if ord(c) not in cmap and not c.isspace()}


def check_coverage(book, fonts: list[tuple[Path, int]]) -> None:
    """Every character the book prints must have a glyph: in the chosen fonts, or at least in some
    installed font that fontconfig falls back to. Otherwise an error listing them with path:line —
    never tofu boxes in a PDF."""
    where = book.characters()
    missing = set(where)
    for path, index in fonts:
        missing = missing_glyphs(path, index, missing)
        if not missing:
            return
    missing = {c for c in missing if not _any_font_has(c)}
    if missing:
        shown = ", ".join(f"{c!r} (U+{ord(c):04X}) at {where[c]}" for c in sorted(missing)[:10])
        more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
        first = min(missing, key=lambda c: (where[c].path, where[c].line or 0))
        raise BookError(
            "E404", f"no installed font has a glyph for {shown}{more}: {INSTALL_HINT}", where[first]
        )


def _any_font_has(ch: str) -> bool:
    if not shutil.which("fc-list"):
        return False
    out = external.run(["fc-list", f":charset={ord(ch):x}", "family"], capture_output=True, text=True).stdout
    return bool(out.strip())
