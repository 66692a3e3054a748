"""A file or folder name as its bytes meant it.

A zip made on a Chinese system without the UTF-8 flag is unpacked with its names read as CP437,
the zip format's old default: a Big5 folder of hrFZxYeN5qv/ebook came as º⌡Ñ«▓M.txt for
李幼清.txt, ¬L╞F»└╢╟.txt for 林靈素傳.txt, beside its index.txt listing 李幼清, 林靈素傳 …. Such a
name has no Han character, and its CP437 bytes decode as Chinese in one of the legacy codecs; the
best-reading decoding (decode/plausibility.py) is the name. A name that holds Han characters, or
only ASCII, or whose bytes read as no Chinese, is left as it is.
"""

from __future__ import annotations

import re
from functools import lru_cache

from bookbuilder.decode.plausibility import plausibility
from bookbuilder.vocabulary import HAN_ALL

_HAN = re.compile(f"[{HAN_ALL}]")
# What a codec that did not write the name strews in it: private use, kana, Hangul, U+FFFD.
_ODD = re.compile("[\u3040-\u30ff\u3130-\u318f\uac00-\ud7af\ue000-\uf8ff\ufffd]")
NAME_CODECS = ("big5", "gb18030")  # the legacy codecs a Chinese zip's names were written in


@lru_cache(maxsize=4096)
def readable_name(name: str) -> str:
    """The name decoded again where it is CP437 mojibake of a Chinese codec (º⌡Ñ«▓M → 李幼清)."""
    if name.isascii() or _HAN.search(name):
        return name
    try:
        raw = name.encode("cp437")
    except UnicodeEncodeError:
        return name  # a character CP437 has not: the name was never read as CP437
    readings = []
    for codec in NAME_CODECS:
        try:
            text = raw.decode(codec)
        except UnicodeDecodeError:
            continue
        if _HAN.search(text) and not _ODD.search(text):
            readings.append((plausibility(text), text))
    return max(readings)[1] if readings else name
