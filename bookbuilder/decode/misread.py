"""Lines of Chinese that a scraper decoded as Latin-1 (or cp1252) and saved as UTF-8, read back
(the evidence: docs/rules-notes.md, "Decoding (§1)" and "Lines read as Latin-1 upstream").

`µÚÈýÕÂ Áù¾äÕæÑÔ` is 第三章 六句真言 in GBK bytes shown one byte a character; `å¤©ä¸‹` is 天下 in
UTF-8 bytes shown so. A crawler that does this to every heading (一念永恒 from two spiders'
repositories: 228 and 70 lines) leaves the book without chapters. RULES §1.6 allows a repair
where the round trip is lossless: the line's characters are bytes again (U+0080–U+00FF one byte
each, cp1252's € ‚ ƒ … theirs), and the bytes are read in a Chinese codec. The line is read back
only when both sides say so: the bytes read as common Chinese (decode.plausibility, as a whole
file's codec is judged), and the line as it stands reads as no Western language (its letters
mostly outside ASCII: `Émile était là` has 3 accented letters among 12 and stays).
"""

from __future__ import annotations

import re

from bookbuilder.decode.plausibility import plausibility
from bookbuilder.vocabulary import HAN_CHAR

# What the bytes read as, at least (decode.text.PLAUSIBLE, what a file's codec must read as).
MISREAD_PLAUSIBLE = 0.5
# Different Han characters the bytes read as, at least: a line of one sign repeated (······ is
# B7 B7 B7 …, 贩贩贩 in GBK) is an ornament, not a misread word; one character alone is no evidence.
MISREAD_DISTINCT = 2
# Share of the line's letters outside ASCII, at least, for it not to read as a Western language:
# French and German accent a letter in ten or fewer; mojibake is all such letters, but for digits
# and the odd English word in a title.
WESTERN_SHARE = 0.5
# cp1252's characters for the bytes 80–9F that Latin-1 keeps as C1 controls (€ is 80, … is 85).
_CP1252_BYTE = {ch: b for b in range(0x80, 0xA0) if (ch := bytes([b]).decode("cp1252", "ignore"))}
_CODECS = ("utf-8", "gb18030", "big5hkscs")
_ASCII_LETTER = re.compile("[A-Za-z]")
_WESTERN = re.compile("[\x80-\xff" + "".join(_CP1252_BYTE) + "]")
# The quick test: a line that may hold misread characters at all (most lines hold none).
MAY_BE_MISREAD = re.compile(_WESTERN.pattern + "{2}")


def western_bytes(line: str) -> bytes | None:
    """The bytes a Latin-1 or cp1252 reading turned into this line, or None: a character neither
    codec makes (a Han character, a curly quote outside cp1252) was never one byte."""
    out = bytearray()
    for ch in line:
        code = ord(ch)
        if code < 0x100:
            out.append(code)
        elif (byte := _CP1252_BYTE.get(ch)) is not None:
            out.append(byte)
        else:
            return None
    return bytes(out)


def reads_as_western(line: str) -> bool:
    """Whether the line's letters are mostly ASCII, as a Western language's are."""
    accented = len(_WESTERN.findall(line))
    return accented < WESTERN_SHARE * (accented + len(_ASCII_LETTER.findall(line)))


def read_back(line: str) -> tuple[str, str] | None:
    """The line read back as Chinese and the codec its bytes were in, or None: it is no misread."""
    if HAN_CHAR.search(line) or reads_as_western(line):
        return None
    raw = western_bytes(line)
    if raw is None:
        return None
    best: tuple[float, str, str] | None = None
    for codec in _CODECS:
        try:
            text = raw.decode(codec)
        except UnicodeDecodeError:
            continue
        score = plausibility(text)
        if (
            len(set(HAN_CHAR.findall(text))) >= MISREAD_DISTINCT
            and score >= MISREAD_PLAUSIBLE
            and (best is None or score > best[0])
        ):
            best = (score, text, codec)
    return (best[1], best[2]) if best else None


def read_back_misread_lines(text: str) -> tuple[str, list[tuple[int, str, str, str]]]:
    """The text with its misread lines read back, and for each its line number, what it read as
    before and after, and the codec its bytes were in."""
    lines = text.split("\n")
    fixed = []
    for n, line in enumerate(lines):
        if not MAY_BE_MISREAD.search(line) or (found := read_back(line)) is None:
            continue
        lines[n] = found[0]
        fixed.append((n + 1, line, found[0], found[1]))
    return ("\n".join(lines) if fixed else text), fixed
