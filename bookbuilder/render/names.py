"""Stable names for the documents of a book (EPUB files and ids, PDF anchors): from what a chapter
is, not where it stands, so that a serialized novel rebuilt with new chapters keeps every other
chapter's name, and readers (KOReader, Kobo, Apple Books) keep their positions, bookmarks and
highlights.

- A numbered chapter is `ch` + its number: `ch00012` (第十二章; else the file's, 012.txt). In a book of titled
  volumes, after its volume's: `v002-ch00012`.
- A volume page is `part` + the volume's number: `part002` (第二卷), `part001-002` (第一季 第二卷).
- Anything without a number (楔子, 后记, a preamble, a divided part, a volume called 番外) is its
  kind and a hash of its title: `front-5f1c03b2`.
- Where two would share a name (a misprinted repeat number), the later ones get `.2`, `.3`, … in
  reading order.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata

from bookbuilder.model import Book, Chapter, Volume
from bookbuilder.numerals import WRITTEN, parse_numeral
from bookbuilder.vocabulary import VOLUME_UNITS, unit_class

_VOLUME_NUMBER = re.compile(rf"\s*第?\s*([0-9{WRITTEN}]+)\s*{unit_class(VOLUME_UNITS, '季册')}")


def _hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def volume_key(volume: Volume) -> str:
    """The numbers that open the volume's title, each level's (第一季 第二卷 → 001-002: 盗墓笔记's
    volumes restart in every season), or a hash of the title when it opens with none."""
    title, numbers, at = volume.title or "", [], 0
    while (m := _VOLUME_NUMBER.match(title, at)) and (number := parse_numeral(m.group(1))) is not None:
        numbers.append(f"{number:03d}")
        at = m.end()
    return "-".join(numbers) if numbers else f"-{_hash(title)}"


def chapter_key(chapter: Chapter) -> str:
    number = chapter.number if chapter.number is not None else chapter.file_number
    if number is not None and chapter.kind == "chapter":
        return f"ch{number:05d}"
    return f"{chapter.kind}-{_hash(chapter.title)}"


def document_names(book: Book) -> tuple[list[str], list[str | None]]:
    """(one name per chapter, in reading order; one per volume, None for an untitled one)."""
    titled = book.has_volume_titles
    taken: dict[str, int] = {}

    def unique(name: str) -> str:
        taken[name] = taken.get(name, 0) + 1
        return name if taken[name] == 1 else f"{name}.{taken[name]}"

    chapters, volumes = [], []
    for volume in book.volumes:
        key = volume_key(volume) if volume.title else None
        volumes.append(unique(f"part{key}") if key else None)
        for chapter in volume.chapters:
            name = chapter_key(chapter)
            chapters.append(unique(f"v{key}-{name}" if titled and key else name))
    return chapters, volumes


# ---- the book's file names ------------------------------------------------------------------------

# What Windows, macOS or a FAT card refuses in a name, as the full-width form a reader reads the same.
_REFUSED = str.maketrans(
    {"/": "／", "\\": "＼", ":": "：", "*": "＊", "?": "？", '"': "＂", "<": "＜", ">": "＞", "|": "｜"}
)
_WINDOWS_DEVICES = frozenset(
    {"CON", "PRN", "AUX", "NUL", *(f"COM{n}" for n in range(1, 10)), *(f"LPT{n}" for n in range(1, 10))}
)
MAX_STEM_BYTES = 200  # ext4 and most others take 255 bytes a name: room for -12.kepub.epub


def file_stem(title: str) -> str:
    """The name build/ gives a book's files: an ASCII title's slug (The Art of War →
    the-art-of-war), else the title itself (仙逆: a reader's shelf and file manager show the name),
    its refused characters made full-width, control and format characters gone, no leading dot or
    dash, cut to MAX_STEM_BYTES. "" when nothing is left."""
    if title.isascii():
        return _slug(title)
    text = "".join(c for c in title.translate(_REFUSED) if unicodedata.category(c)[0] != "C")
    text = " ".join(text.split()).strip(" .-")
    while len(text.encode("utf-8")) > MAX_STEM_BYTES:
        text = text[:-1].rstrip(" .")
    return text + "_" if text.split(".")[0].upper() in _WINDOWS_DEVICES else text


def ascii_stem(title: str) -> str:
    """The title in ASCII letters, for where only those go (HTTP's plain `filename`, which a reading
    app that ignores `filename*` saves the file as): Chinese as toneless pinyin, a syllable
    apart (仙道第一小白脸 → xian-dao-di-yi-xiao-bai-lian; pypinyin knows a character's readings but
    not where a word ends), other letters and digits as they are, the rest a dash. "" when none."""
    folded = unicodedata.normalize("NFKC", title)  # full-width Ｖ２ → V2
    spelled = " ".join(_pinyin(folded))
    slug = _slug(unicodedata.normalize("NFKD", spelled).encode("ascii", "ignore").decode("ascii"))
    return slug if len(slug) <= MAX_STEM_BYTES else slug[: MAX_STEM_BYTES + 1].rsplit("-", 1)[0]


def _pinyin(text: str) -> list[str]:
    """Toneless pinyin of `text` (ü as v, as file names and keyboards write it), a word of
    pypinyin's phrase table read as one (重生 chong sheng, 都市 du shi: alone, 重 and 都 read zhong,
    dou). The table is read here, not loaded into pypinyin, which normalize.clean imports without
    it: a module's import must not change what cleaning makes of a book."""
    os.environ.setdefault("PYPINYIN_NO_PHRASES", "true")  # as normalize.clean, whichever imports it first
    from pypinyin import lazy_pinyin
    from pypinyin.contrib.tone_convert import to_normal
    from pypinyin.phrases_dict import phrases_dict

    spelled, plain, at = [], "", 0
    while at < len(text):
        word = next(
            (
                text[at:end]
                for end in range(min(len(text), at + _LONGEST_PHRASE), at + 1, -1)
                if text[at:end] in phrases_dict
            ),
            None,
        )
        if word is None:
            plain, at = plain + text[at], at + 1
            continue
        spelled += lazy_pinyin(plain) + [to_normal(reading[0]) for reading in phrases_dict[word]]
        plain, at = "", at + len(word)
    return spelled + lazy_pinyin(plain)


_LONGEST_PHRASE = 10  # characters of pypinyin's longest phrase


def _slug(text: str) -> str:
    """Lower-case ASCII letters and digits, a dash for each run of anything else (The Art of War →
    the-art-of-war)."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
