"""Raw chapter bytes → clean Unicode text, or an error that names the file.

docs/rules.md §1–§2.4 (cited below as RULES §N), as docs/rules-notes.md amends it. BOM, then
strict UTF-8 and UTF-16; then the codec whose result reads as Chinese
(bookbuilder.decode.plausibility), because look-alike codecs
decode each other's bytes: a Big5 file with a few bad bytes decodes strictly as GB18030 mojibake.
A few damaged sequences cost neither the book nor silence (errors = "auto": each damaged line is
a warning); more is an error that names the codec and the remedy. The detector (chardet) only
breaks ties where GB18030 and Big5 both decode strictly and read alike.
"""

from __future__ import annotations

import fnmatch
import re
import unicodedata
from dataclasses import dataclass, replace

from bookbuilder.decode.misread import MAY_BE_MISREAD, read_back_misread_lines
from bookbuilder.decode.plausibility import decode_recording, lines_of, plausibility, repair_stretches
from bookbuilder.diagnostics import BookError, Diagnostic
from bookbuilder.model import Location
from bookbuilder.vocabulary import HAN_ALL

# Magic numbers of files people drop into a chapter folder by mistake (RULES §1.4).
MAGIC = (
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a zip archive (EPUB, DOCX, …)"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"Rar!", "a RAR archive"),
    (b"7z\xbc\xaf", "a 7z archive"),
)
# Longest first: FF FE 00 00 is UTF-32-LE, not UTF-16-LE followed by U+0000.
BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
GB, BIG5 = "gb18030", "big5hkscs"
# Every GB-family label goes to gb18030: Python's gb2312 maps A1AA to U+2015 and fails on GBK-only characters.
_FAMILY = {
    "gb2312": GB,
    "gbk": GB,
    "gb18030": GB,
    "cp936": GB,
    "big5": BIG5,
    "big5hkscs": BIG5,
    "cp950": BIG5,
}
SHORT = 64  # bytes: below this the detector's verdict is a coin toss for look-alike codecs (RULES §8)

# What real Chinese UTF-16 text consists of; a wrong-endian or non-UTF-16 decode scatters over the BMP.
_IMPLAUSIBLE = re.compile(f"[^{HAN_ALL}\u3000-\u303f\uff00-\uffef\u2000-\u206f\u00a0-\u00ff\x20-\x7e\n\r\t]")
_LINE_BREAKS = re.compile("\r\n?|[\u2028\u2029\x0b\x0c]")
# Zero-width, bidi, soft hyphen, C0 (but \t \n), DEL, C1, BOM, XML-illegal noncharacters (RULES §2.3, §6).
_INVISIBLE = re.compile(
    "[\u200b\u2060\u00ad\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\x00-\x08\x0e-\x1f\x7f-\x9f"
    "\ufdd0-\ufdef\ufffe\uffff]"
)
# ZWJ/ZWNJ survive only between emoji, where they build one glyph.
_JOINERS = re.compile(
    "(?<![\U0001f000-\U0001faff\u2600-\u27bf])[\u200c\u200d]|[\u200c\u200d](?![\U0001f000-\U0001faff\u2600-\u27bf])"
)
_SPACES = re.compile("[\u00a0\u2000-\u200a\u202f\u205f]")
# Signs that text was decoded with the wrong codec somewhere upstream (RULES §1.6).
_MOJIBAKE_LITERALS = ("锟斤拷", "烫烫烫", "屯屯屯")
_MOJIBAKE_CHARS = "\ufffd\ue000-\uf8ff\u00c0-\u00ff"
# What clean_text and find_mojibake look for, in one scan: most files hold none of it.
_RARE = re.compile(
    "["
    + _INVISIBLE.pattern[1:-1]
    + _SPACES.pattern[1:-1]
    + _MOJIBAKE_CHARS
    + "\u200c\u200d\u2028\u2029\x0b\x0c\r]"
)
_MOJIBAKE = re.compile(
    "锟斤拷|烫烫烫|屯屯屯|\ufffd|[\ue000-\uf8ff]|[ÃÂâäåæçèé][\x80-\xbf€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]|[À-ÿ]{6,}"
)


def _may_hold_latin1(data: bytes, codec: str) -> bool:
    """Whether the text can hold U+0080–U+00FF at all: in UTF-8 only after a C2 or C3 byte, which
    two scans of the bytes tell at memory speed; a regex would have to walk the whole decoded
    text."""
    if codec.startswith("utf-8"):
        return b"\xc2" in data or b"\xc3" in data
    return codec.startswith(("utf-16", "utf-32"))


@dataclass(frozen=True)
class Decoded:
    text: str  # clean: LF line ends, no BOM, no invisible characters, NFC
    encoding: str  # the Python codec that decoded the bytes
    method: str  # bom | strict | plausibility | detector | override
    diagnostics: tuple[Diagnostic, ...] = ()
    replaced: int = 0  # undecodable byte sequences decoded as U+FFFD

    @property
    def is_empty(self) -> bool:
        return not self.text.strip(" \t\n\u3000")


def decode_chapter(data: bytes, path: str, *, encoding: str | None = None, errors: str = "auto") -> Decoded:
    """Decode one raw chapter file. `encoding` forces a codec (a book.toml override)."""
    notes: list[Diagnostic] = []
    if encoding:
        try:
            # "auto" is our policy, not a Python error handler: an override decodes strictly
            text = data.decode(encoding, "strict" if errors == "auto" else errors)
        except (UnicodeDecodeError, LookupError) as e:
            raise BookError(
                "E104", f"the encoding override {encoding!r} does not decode this file: {_why(e)}", path
            ) from None
        notes.append(Diagnostic("I101", f"decoded as {encoding} by an override in book.toml", Location(path)))
        enc, method = encoding, "override"
    else:
        enc, method, text = _detect(data, path, errors, notes)
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")  # the common case, at memchr speed
    if _may_hold_latin1(data, enc) and MAY_BE_MISREAD.search(text):  # before clean_text drops C1 characters
        text, fixed = read_back_misread_lines(text)
        notes += [
            Diagnostic(
                "I102",
                f"read back as Chinese ({codec} bytes a scraper had shown as Latin-1): "
                f"{was[:16]} → {now[:16]}",
                Location(path, n),
            )
            for n, was, now, codec in fixed
        ]
    if _RARE.search(text) or any(sign in text for sign in _MOJIBAKE_LITERALS):
        text = clean_text(text)
        damaged = any(d.code in ("W104", "W106") for d in notes)  # its U+FFFD are named already
        notes += [d for d in find_mojibake(text, path) if not (damaged and d.message.startswith("U+FFFD"))]
    elif not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    replaced = text.count("\ufffd") if notes and any(d.code in ("W104", "W106") for d in notes) else 0
    return Decoded(text, enc, method, tuple(notes), replaced)


def encoding_override(relpath: str, default: str | None, patterns) -> str | None:
    """The codec book.toml forces for this file: the first matching pattern, else the global one."""
    for pattern, codec in patterns.items():
        if fnmatch.fnmatch(relpath, pattern) or fnmatch.fnmatch(relpath.rsplit("/", 1)[-1], pattern):
            return codec
    return default


def _by_bom(data: bytes, path: str, errors: str, notes: list[Diagnostic]) -> tuple[str, str, str] | None:
    """The file read by the codec its byte-order mark names (damaged bytes judged), or None: no mark."""
    for bom, codec in BOMS:
        if data.startswith(bom):
            try:
                return codec, "bom", data[len(bom) :].decode(codec.removesuffix("-sig"))
            except UnicodeDecodeError as e:
                if errors == "strict":
                    raise BookError(
                        "E102",
                        f"starts with a {codec} byte-order mark but is not valid {codec}: {_why(e)}; "
                        'set errors = "auto" under [source] in book.toml to accept a few damaged bytes',
                        path,
                    ) from None
                text, damage = decode_recording(data[len(bom) :], codec.removesuffix("-sig"))
                _judge(
                    data,
                    path,
                    codec,
                    text,
                    [replace(d, offset=d.offset + len(bom), end=d.end + len(bom)) for d in damage],
                    errors,
                    notes,
                    lines=codec.startswith("utf-8"),
                )
                return codec, "bom", text
    return None


def _without_nul_tail(data: bytes, path: str, notes: list[Diagnostic]) -> bytes:
    """A file with NUL bytes that is not UTF-16: its text without the NULs a cut-off download ends in
    (W110) or a phone reader's bookmark data after it (W108); any other is no text file (E101)."""
    cut = reader_trailer(data)
    marked = cut is not None and data[cut : cut + 1] != b"\x00"  # a reader app's mark before its NULs
    if not marked and b"\x00" not in (text_part := data.rstrip(b"\x00")) and len(text_part) >= TRAILER_TEXT:
        # an interrupted download: the text, then NULs to the end (1.4 MB of them after a GBK novel)
        notes.append(
            Diagnostic(
                "W110",
                f"ends in {len(data) - len(text_part):,} NUL bytes (a download cut off or padded): left out",
                Location(path, text_part.count(b"\n") + 1),
            )
        )
        data = text_part
    elif cut is None:
        raise BookError("E101", "contains NUL bytes and is not UTF-16: not a text file", path)
    else:
        mark = data[cut : cut + 24].split(b"\x00")[0].decode("ascii", "replace")
        notes.append(
            Diagnostic(
                "W108",
                f"a phone reader's bookmark data after the text ({len(data) - cut:,} bytes with NULs, "
                f"{mark!r}) was left out",
                Location(path, data.count(b"\n", 0, cut) + 1),
            )
        )
        data = data[:cut]
    return data


def _detect(data: bytes, path: str, errors: str, notes: list[Diagnostic]) -> tuple[str, str, str]:
    for magic, kind in MAGIC:
        if data.startswith(magic):
            raise BookError("E101", f"this is {kind}, not a text chapter", path)
    if found := _by_bom(data, path, errors, notes):
        return found
    if b"\x00" in data:  # NUL is valid UTF-8, but text files outside UTF-16/32 never hold one
        if utf16 := _plausible_utf16(data):
            return utf16
        data = _without_nul_tail(data, path, notes)
    try:
        return "utf-8", "strict", data.decode("utf-8")
    except UnicodeDecodeError as e:
        utf8_error = e.start
    if utf16 := _plausible_utf16(data):
        return utf16
    strict, failed = {}, {"utf-8": utf8_error}  # codec → text; codec → where it first fails
    for codec in (GB, BIG5):
        try:
            strict[codec] = data.decode(codec)
        except UnicodeDecodeError as e:
            failed[codec] = e.start
    if len(strict) == 1 and not _near_misses(data, failed):
        ((codec, text),) = strict.items()
        return codec, "strict", text  # no other codec comes close: nothing to weigh (most files)
    scores = {codec: plausibility(text) for codec, text in strict.items()}
    if len(strict) == 2:
        return _tie_break(data, path, strict, scores, notes)
    if strict:
        ((codec, text),) = strict.items()
        if scores[codec] >= PLAUSIBLE or len(data) < SHORT:
            return codec, "strict", text
    return _damaged(data, path, errors, notes, strict, scores)


# What phone e-book readers append to a TXT file they opened (MTK phones' PIXTEL reader, others'
# #!EBOOK): their bookmarks, binary, full of NUL bytes, after the last line of the text.
_READER_MARK = re.compile(rb"(?:<PIXTEL_MMI_EBOOK_\d+>\d*|#!EBOOK)$")
TRAILER_LIMIT = 4096  # bytes: such a block is small; NULs further from the end are not one
TRAILER_TEXT = 1024  # bytes of text at least before it (a book, not a few bytes of something binary)


def reader_trailer(data: bytes) -> int | None:
    """Where a reader app's bookmark block starts, if the file's NUL bytes are only in one at
    its end; else None."""
    first = data.find(b"\x00")
    if first < TRAILER_TEXT or len(data) - first > TRAILER_LIMIT:
        return None
    mark = _READER_MARK.search(data, max(0, first - 64), first)
    return mark.start() if mark else first


def _near_misses(data: bytes, failed: dict[str, int]) -> bool:
    """Whether a codec that fails on this file fails only a little (a damaged Big5 or UTF-8 file,
    or a GBK passage in a Big5 one, that GB18030 happens to decode): then which one reads as
    Chinese must decide. GBK text fails as Big5 on 1.6–2.7 % of its characters and as UTF-8 at
    once: within its first few hundred characters, and as often right after the first failure.
    A damaged file decodes long before its first failure, or cleanly after it."""
    for codec, start in failed.items():
        if codec == GB:
            continue
        if len(data[:start].translate(None, _ASCII_BYTES)) >= NEAR_MISS_PREFIX:
            return True
        window = data[start + 4 : start + 4 + (NEAR_MISS_SAMPLE if codec == BIG5 else NEAR_MISS_SAMPLE // 8)]
        if window and window.decode(codec, "replace").count("\ufffd") <= NEAR_MISS_FAILURES:
            return True
    return False


# A decoding reads as Chinese when plausibility() gives at least this (real text: 0.85–0.92).
PLAUSIBLE = 0.5
# Damage that errors = "auto" accepts: at most DAMAGE_LIMIT sequences a file and one in DAMAGE_RATE
# characters, but DAMAGE_FEW always (a short chapter may lose a byte or two).
DAMAGE_LIMIT, DAMAGE_RATE, DAMAGE_FEW = 200, 1000, 5
SHOWN_LINES = 10
# A near miss: a codec that decodes NEAR_MISS_PREFIX non-ASCII bytes before failing, or fails at
# most NEAR_MISS_FAILURES times in the NEAR_MISS_SAMPLE bytes after (GBK as Big5: 16–27 there;
# as UTF-8 it fails on nearly every character, so an eighth of that tells).
NEAR_MISS_PREFIX, NEAR_MISS_SAMPLE, NEAR_MISS_FAILURES = 600, 2048, 6
_ASCII_BYTES = bytes(range(128))


def _damaged(
    data: bytes, path: str, errors: str, notes: list[Diagnostic], strict: dict, scores: dict
) -> tuple[str, str, str]:
    """No codec decodes the file both strictly and plausibly: each candidate decodes it with its
    damaged sequences replaced, and the one that reads as Chinese with the least damage wins."""
    tried = {}  # codec → (text, damaged sequences, plausibility); "replace" counts at C speed
    for codec in ("utf-8", GB, BIG5, "cp950"):
        text = strict[codec] if codec in strict else data.decode(codec, "replace")
        tried[codec] = (
            text,
            0 if codec in strict else text.count("\ufffd"),
            scores[codec] if codec in scores else plausibility(text),
        )
    codec = min(tried, key=lambda c: (tried[c][2] < PLAUSIBLE, tried[c][1], -tried[c][2]))
    text, damage, score = tried[codec]
    if score < PLAUSIBLE and strict:  # nothing reads as Chinese (random Han, another language): as decoded
        codec = next(iter(strict))
        return codec, "strict", strict[codec]
    if score < PLAUSIBLE and errors == "replace":
        codec = min(tried, key=lambda c: tried[c][1])
    elif score < PLAUSIBLE:
        raise BookError(
            "E102",
            "not text in any supported encoding (UTF-8, UTF-16, GB18030, Big5-HKSCS, CP950): none "
            "reads as Chinese; if you know the encoding, set encoding under [source] in book.toml",
            path,
        )
    text, damage = decode_recording(data, codec)
    if damage and codec != "utf-8":
        others = tuple(c for c in (GB, BIG5, "utf-8") if c != codec)
        text, damage, stretches = repair_stretches(data, codec, damage, others)
        for s in stretches:
            notes.append(
                Diagnostic(
                    "W107",
                    f"lines {s.first}–{s.last} decode only as {s.codec} (the rest of the file "
                    f"as {codec}): decoded so",
                    Location(path, s.first),
                )
            )
    _judge(data, path, codec, text, damage, errors, notes)
    return codec, "plausibility", text


def _judge(
    data: bytes,
    path: str,
    codec: str,
    text: str,
    damage: list,
    errors: str,
    notes: list[Diagnostic],
    lines: bool = True,
) -> None:
    """Accept the damage (a W106 per damaged line, the first ten, then a count) or refuse the file."""
    if not damage:
        return
    where = lines_of(data, [d.offset for d in damage]) if lines else [None] * len(damage)
    too_much = len(damage) > DAMAGE_LIMIT or len(damage) > max(DAMAGE_FEW, len(text) // DAMAGE_RATE)
    if errors == "strict" or (errors == "auto" and too_much):
        first = ", ".join(str(n) for n in list(dict.fromkeys(n for n in where if n))[:5]) or "?"
        why = (
            'book.toml asks for errors = "strict"'
            if errors == "strict"
            else f'more than errors = "auto" accepts (at most {DAMAGE_LIMIT}, and one in {DAMAGE_RATE:,} '
            "characters)"
        )
        remedy = "auto" if errors == "strict" and not too_much else "replace"
        raise BookError(
            "E102",
            f"{len(damage)} undecodable byte sequence(s) as {codec}, the encoding it reads as (lines "
            f'{first}): {why}; to keep them as U+FFFD, set errors = "{remedy}" under [source] in book.toml',
            path,
        )
    by_line: dict = {}
    for n, d in zip(where, damage):
        by_line.setdefault(n, []).append(d)
    code = "W104" if errors == "replace" else "W106"
    for n, found in list(by_line.items())[:SHOWN_LINES]:
        shown = ", ".join(d.raw.hex(" ") for d in found[:3])
        notes.append(
            Diagnostic(
                code,
                f"{len(found)} undecodable byte sequence(s) ({shown}) decoded as U+FFFD "
                f"(the file is {codec})",
                Location(path, n),
            )
        )
    if len(by_line) > SHOWN_LINES:
        rest = sum(len(v) for v in list(by_line.values())[SHOWN_LINES:])
        notes.append(
            Diagnostic(
                code,
                f"{rest} more undecodable byte sequence(s) on {len(by_line) - SHOWN_LINES} more "
                "lines decoded as U+FFFD",
                Location(path),
            )
        )


def _plausible_utf16(data: bytes) -> tuple[str, str, str] | None:
    if len(data) % 2:
        return None
    for codec in ("utf-16-le", "utf-16-be"):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if text and len(_IMPLAUSIBLE.findall(text)) <= 0.05 * len(text):
            return codec, "strict", text
    return None


def _tie_break(
    data: bytes, path: str, candidates: dict[str, str], scores: dict[str, float], notes: list[Diagnostic]
) -> tuple[str, str, str]:
    """GB18030 and Big5 both decode the file: the one that reads as Chinese; where both read
    alike (a short file, mostly ASCII), the detector decides."""
    (a, sa), (b, sb) = scores.items()
    if abs(sa - sb) >= 0.25 and len(data) >= SHORT:
        codec = a if sa > sb else b
        return codec, "plausibility", candidates[codec]
    import chardet

    guess = (chardet.detect(data[:16384])["encoding"] or "").lower().replace("_", "-")
    family = _FAMILY.get(guess)
    if family is None:
        family = GB if sa >= sb else BIG5
        notes.append(
            Diagnostic(
                "W105",
                f"both GB18030 and Big5 decode this file and the detector said {guess or 'nothing'}; "
                f"assumed {family}",
                Location(path),
            )
        )
    elif len(data) < SHORT:
        notes.append(
            Diagnostic(
                "W103",
                f"only {len(data)} bytes: {family} was the detector's guess, check the text",
                Location(path),
            )
        )
    return family, "detector", candidates[family]


def _why(e: Exception) -> str:
    if isinstance(e, UnicodeDecodeError):
        return f"byte 0x{e.object[e.start]:02x} at offset {e.start}"
    return str(e)


def clean_text(text: str) -> str:
    """RULES §2.1–2.4: one line-ending, no invisible characters, odd spaces made plain, NFC (never NFKC)."""
    if "\r" in text or "\u2028" in text or "\u2029" in text or "\x0b" in text or "\x0c" in text:
        text = _LINE_BREAKS.sub("\n", text)
    text = _SPACES.sub(" ", _INVISIBLE.sub("", text))
    if "\u200c" in text or "\u200d" in text:
        text = _JOINERS.sub("", text)
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return text


def find_mojibake(text: str, path: str, limit: int = 3) -> list[Diagnostic]:
    """Warn (never repair) where the text shows a sign of an earlier wrong decode."""
    found = []
    for m in _MOJIBAKE.finditer(text):
        if len(found) == limit:
            found.append(Diagnostic("W102", "more signs of mojibake follow in this file", Location(path)))
            break
        line = text.count("\n", 0, m.start()) + 1
        sign = m.group(0)
        shown = (
            f"U+{ord(sign):04X}"
            if len(sign) == 1 and (sign == "\ufffd" or "\ue000" <= sign <= "\uf8ff")
            else repr(sign)
        )
        found.append(
            Diagnostic(
                "W102",
                f"{shown} looks like mojibake (text decoded with the wrong codec upstream)",
                Location(path, line),
            )
        )
    return found
