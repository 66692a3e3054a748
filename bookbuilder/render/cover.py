"""Covers: a cover image from book.toml checked by its bytes, or one generated with Pillow
(title and author set in a CJK font, 1600×2560 JPEG, the size e-book stores ask for)."""

from __future__ import annotations

import functools
import io
from pathlib import Path

from bookbuilder.diagnostics import BookError, Diagnostic
from bookbuilder.model import Location, Meta

WIDTH, HEIGHT = 1600, 2560
MIN_WIDTH, MIN_HEIGHT, RATIO = 625, 1000, 1.6


def image_kind(data: bytes) -> str | None:
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    return None


def load_cover(path: Path) -> tuple[bytes, str, list[Diagnostic]]:
    """(bytes, jpeg|png, warnings) of the cover named in book.toml."""
    from PIL import Image

    data = path.read_bytes()
    kind = image_kind(data)
    if kind is None:
        raise BookError("E406", "the cover is not a JPEG or PNG image", str(path))
    width, height = Image.open(io.BytesIO(data)).size
    notes = []
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        notes.append(
            Diagnostic(
                "W403",
                f"the cover is {width}×{height}; stores want at least {MIN_WIDTH}×{MIN_HEIGHT}",
                Location(str(path)),
            )
        )
    elif abs(height / width - RATIO) > 0.25:
        notes.append(
            Diagnostic(
                "W403",
                f"the cover is {width}×{height} (1:{height / width:.2f}); 1:1.6 suits readers best",
                Location(str(path)),
            )
        )
    return data, kind, notes


def _wrap(draw, text: str, font, width: int) -> list[str]:
    lines, line = [], ""
    for ch in text:
        if draw.textlength(line + ch, font=font) > width and line:
            lines.append(line)
            line = ch
        else:
            line += ch
    return lines + [line] if line else lines


@functools.lru_cache(maxsize=4)  # `bookbuilder build` makes the EPUB and the PDF of one book
def generate_cover(meta: Meta) -> bytes:
    """A plain, legible typographic cover: title large, author below, a thin frame."""
    from PIL import Image, ImageDraw, ImageFont

    from bookbuilder.render.fonts import find_font, serif_for

    family = serif_for(meta.language)
    bold_path, bold_index = find_font(family, "Bold")
    regular_path, regular_index = find_font(family, "Regular")
    image = Image.new("RGB", (WIDTH, HEIGHT), (32, 44, 58))
    draw = ImageDraw.Draw(image)
    draw.rectangle((80, 80, WIDTH - 80, HEIGHT - 80), outline=(196, 170, 112), width=6)
    draw.rectangle((110, 110, WIDTH - 110, HEIGHT - 110), outline=(196, 170, 112), width=2)
    name, volume = (meta.series[0], meta.title.split(" · ", 1)[-1]) if meta.series else (meta.title, None)
    size = 220 if len(name) <= 5 else 170
    title_font = ImageFont.truetype(str(bold_path), size, index=bold_index)
    lines = _wrap(draw, name, title_font, WIDTH - 360)
    y = 700 - (len(lines) - 1) * size // 2
    for line in lines:
        draw.text((WIDTH // 2, y), line, font=title_font, fill=(244, 236, 220), anchor="mm")
        y += int(size * 1.3)
    if volume:  # one volume of a series: its name under the book's
        volume_font = ImageFont.truetype(str(regular_path), 110, index=regular_index)
        for line in _wrap(draw, volume, volume_font, WIDTH - 360):
            y += 40
            draw.text((WIDTH // 2, y), line, font=volume_font, fill=(230, 214, 180), anchor="mm")
            y += 110
    author_font = ImageFont.truetype(str(regular_path), 90, index=regular_index)
    draw.text((WIDTH // 2, HEIGHT - 600), meta.author, font=author_font, fill=(214, 200, 170), anchor="mm")
    out = io.BytesIO()
    image.save(out, "JPEG", quality=88)
    return out.getvalue()
