"""How Chinese a decoding reads, and decoding that survives a few damaged bytes (the evidence:
docs/rules-notes.md, "Decoding (§1)").

Look-alike codecs decode each other's bytes: Big5 byte pairs are almost all valid GBK, and
UTF-8's are often valid GB18030. Which codec decodes *strictly* therefore says little; what the
result reads like says a lot. Real Chinese text draws 85–92 % of its Han characters from the most
common 1,500 (data/common_hanzi.txt), a wrong codec's output 4–18 %, with kana, Hangul and
private-use characters strewn in.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from bookbuilder.vocabulary import HAN_ALL

_HAN = re.compile(f"[{HAN_ALL}]")
# What a wrong decoding strews among the Han characters: kana, Hangul, private use, U+FFFD,
# half-width katakana, box drawing.
_ODD = re.compile("[\u3040-\u30ff\u3130-\u318f\uac00-\ud7af\ue000-\uf8ff\ufffd\uff61-\uff9f\u2500-\u257f]")
SAMPLE = (
    6_000  # characters judged: the start, the middle and the end of a long text (plenty to tell 0.9 from 0.2)
)
RECORD = "bookbuilder.record"


@lru_cache(maxsize=1)
def common_chars() -> frozenset[str]:
    text = resources.files("bookbuilder").joinpath("data/common_hanzi.txt").read_text("utf-8")
    return frozenset("".join(line for line in text.splitlines() if not line.startswith("#")))


def plausibility(text: str) -> float:
    """The share of Han characters that are common ones, less odd characters: about 0.9 for real
    Chinese, under 0.2 for a wrong codec's output; 0.5 (no evidence) for text without Han."""
    if len(text) > SAMPLE:
        third = SAMPLE // 3
        middle = len(text) // 2
        text = text[:third] + text[middle : middle + third] + text[-third:]
    han = len(_HAN.findall(text))
    odd = len(_ODD.findall(text))
    if han + odd == 0:
        return 0.5
    common = common_chars()
    return (sum(c in common for c in text) - odd) / (han + odd)


@dataclass(frozen=True)
class Damage:
    """One damaged spot: where it starts in the file, where the decoder resumed, the bytes shown."""

    offset: int
    end: int
    raw: bytes


_recorded: list[Damage] = []


def _record(e: UnicodeDecodeError):
    """One U+FFFD per damaged spot: a broken lead byte makes the decoder refuse the bytes after it
    one by one (a1 80 in Big5, ff 88 88 in UTF-8), which is still one damaged character."""
    last = _recorded[-1] if _recorded else None
    if last is not None and last.end == e.start and e.start - last.offset < 4:
        _recorded[-1] = Damage(last.offset, e.end, e.object[last.offset : max(e.end, last.offset + 2)])
        return "", e.end
    _recorded.append(Damage(e.start, e.end, e.object[e.start : max(e.end, e.start + 2)]))
    return "\ufffd", e.end


codecs.register_error(RECORD, _record)


def decode_recording(data: bytes, codec: str) -> tuple[str, list[Damage]]:
    """`data` decoded with each undecodable sequence as U+FFFD, and the list of those sequences."""
    _recorded.clear()
    text = data.decode(codec, RECORD)
    found = list(_recorded)
    _recorded.clear()
    return text, found


def lines_of(data: bytes, offsets: list[int]) -> list[int]:
    """The 1-based line of each byte offset (offsets in increasing order), in one pass."""
    out, line, at = [], 1, 0
    for offset in offsets:
        line += data.count(b"\n", at, offset)
        at = offset
        out.append(line)
    return out


@dataclass(frozen=True)
class Stretch:
    """Lines first..last (1-based) decoded in another codec than the rest of the file."""

    first: int
    last: int
    codec: str


def repair_stretches(
    data: bytes, codec: str, damage: list[Damage], others: tuple[str, ...]
) -> tuple[str, list[Damage], list[Stretch]]:
    """Where a damaged line decodes strictly and plausibly in another codec (a GBK passage pasted
    into a Big5 file), that line, and the neighbours that read better the same way, are decoded in
    it. Returns the text, the damage left and the stretches. Byte-oriented codecs only."""
    lines = data.split(b"\n")
    damaged = sorted({n - 1 for n in lines_of(data, [d.offset for d in damage])})
    chosen: dict[int, str] = {}
    for index in damaged:
        if index in chosen:
            continue
        alt = _better(lines[index], codec, others, margin=0.2)
        if alt is None:
            continue
        chosen[index] = alt
        for step in (-1, 1):  # the stretch around it: lines that read better in the same codec
            j = index + step
            while (
                0 <= j < len(lines)
                and j not in chosen
                and _better(lines[j], codec, (alt,), margin=0.3, quiet=True)
            ):
                chosen[j] = alt
                j += step
    if not chosen:
        text, left = decode_recording(data, codec)
        return text, left, []
    parts, left, offset = [], [], 0
    for index, raw in enumerate(lines):
        text, found = decode_recording(raw, chosen.get(index, codec))
        parts.append(text)
        left += [Damage(offset + d.offset, offset + d.end, d.raw) for d in found]
        offset += len(raw) + 1
    stretches: list[Stretch] = []
    for index in sorted(chosen):
        if stretches and stretches[-1].last == index and stretches[-1].codec == chosen[index]:
            stretches[-1] = Stretch(stretches[-1].first, index + 1, chosen[index])
        else:
            stretches.append(Stretch(index + 1, index + 1, chosen[index]))
    return "\n".join(parts), left, stretches


def _better(
    raw: bytes, codec: str, others: tuple[str, ...], margin: float, quiet: bool = False
) -> str | None:
    """The codec among `others` that decodes this line strictly and reads clearly better than `codec`."""
    mine = plausibility(raw.decode(codec, "replace"))
    for other in others:
        try:
            text = raw.decode(other)
        except UnicodeDecodeError:
            continue
        if len(_HAN.findall(text)) < (2 if quiet else 4):
            continue
        theirs = plausibility(text)
        if theirs >= 0.5 and theirs > mine + margin:
            return other
    return None


def guess_language(sample: str) -> str:
    """zh-Hant when more than 5 % of the Han characters change under OpenCC t2s (RULES §2.7)."""
    han = [c for c in sample if "\u4e00" <= c <= "\u9fff"][:3000]
    if not han:
        return "zh-Hans"
    import opencc

    simplified = opencc.OpenCC("t2s.json").convert("".join(han))
    changed = sum(a != b for a, b in zip(han, simplified))
    return "zh-Hant" if changed > 0.05 * len(han) else "zh-Hans"
