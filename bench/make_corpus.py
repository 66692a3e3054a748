#!/usr/bin/env python3
"""make_corpus.py - deterministic benchmark corpus for ``bookbuilder``.

Builds a realistic, large Chinese web novel out of a couple of sample chapters
by recombining their paragraphs and sentences, then injects the defects that
real scraped ``.txt`` chapters carry, at known, seeded rates.

Output (``--out DIR``)::

    DIR/0001.txt ... DIR/NNNN.txt    raw chapters, one per file (with defects)
    DIR/manifest.json                ground truth: encoding + defects per file
    DIR/clean/NNNN.txt               (``--clean``) the defect-free UTF-8 text,
                                     i.e. the "golden" result a normalizer
                                     should reproduce
    --single FILE                    (optional) the whole book as one .txt

Every chapter starts with a heading line ``第N章 <title>`` where N is written
in Chinese numerals (``第一千二百三十四章``), followed by ~``--chars``
characters of body text.

Injected defects (per file, independent draws, rates configurable):

* encoding     : UTF-8 (default), UTF-8 with BOM, GBK, GB18030. GB18030
                 files get one character outside GBK (a CJK Ext-B ideograph)
                 so that they cannot be decoded as GBK.
* crlf         : CRLF line endings
* indent       : paragraphs indented with full-width spaces U+3000 x2
                 (some files indent with ASCII spaces / tabs instead)
* halfwidth    : ，。？！：； replaced by , . ? ! : ; and “ ” by " in
                 Chinese context (only a fraction of the marks in a file)
* ellipsis     : …… written as ... / ......
* hardwrap     : paragraphs broken mid-sentence at a fixed width (old
                 "txt novel" style), or occasionally at random points
* blanks       : random runs of blank / whitespace-only lines

Generation is fully deterministic: chapter ``n`` depends only on
(``--seed``, ``n``, the sample texts), so chapter 17 is byte-identical whether
you generate 20 or 3,000 chapters.

Examples::

    python make_corpus.py --out corpus2000                 # 2,000 chapters
    python make_corpus.py -n 200 --out c200 --single c200.txt --single-clean
    python make_corpus.py --out c --rate-gbk 0.3 --rate-halfwidth 0   # custom

Only the Python standard library is used.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import re
import sys
from dataclasses import asdict, dataclass, field

# The project's copy: the sample book's two raw chapters (source/) are the shared seeds, byte for byte.
DEFAULT_SAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "source", "*.txt")

# --------------------------------------------------------------------------
# Chinese numerals
# --------------------------------------------------------------------------
_DIGITS = "零一二三四五六七八九"
_UNITS = ["", "十", "百", "千"]


def _four(n: int) -> str:
    """Chinese numeral for 0 < n < 10000 (with 零 for inner zeros)."""
    s = ""
    zero = False
    for pos in range(3, -1, -1):
        d = (n // 10**pos) % 10
        if d == 0:
            if s:
                zero = True
            continue
        if zero:
            s += "零"
            zero = False
        s += _DIGITS[d] + _UNITS[pos]
    return s


def chinese_numeral(n: int) -> str:
    """Convert 1 <= n < 10**8 to Chinese numerals.

    >>> [chinese_numeral(x) for x in (1, 10, 15, 20, 105, 110, 1005, 1234, 10000, 10086)]
    ['一', '十', '十五', '二十', '一百零五', '一百一十', '一千零五', '一千二百三十四', '一万', '一万零八十六']
    """
    if not 0 < n < 10**8:
        raise ValueError(n)
    hi, lo = divmod(n, 10000)
    if hi:
        s = _four(hi) + "万"
        if lo:
            s += ("零" if lo < 1000 else "") + _four(lo)
    else:
        s = _four(lo)
    if s.startswith("一十"):  # 10-19: 十五, not 一十五
        s = s[1:]
    return s


# --------------------------------------------------------------------------
# Source text
# --------------------------------------------------------------------------
_SENT_END = re.compile(r"(?<=[。！？…”])")
_HAN = re.compile(r"[\u4e00-\u9fff]{2,8}")


@dataclass
class Source:
    paragraphs: list[str]
    sentences: list[str]
    phrases: list[str]  # short Han-only fragments, used for titles

    @classmethod
    def load(cls, paths: list[str]) -> Source:
        paras: list[str] = []
        for p in paths:
            with open(p, "rb") as f:
                raw = f.read()
            text = raw.decode("utf-8-sig").replace("\r\n", "\n")
            paras += [ln.strip().strip("\u3000") for ln in text.split("\n") if ln.strip()]
        if not paras:
            sys.exit("no sample paragraphs found")
        sents = [s for p in paras for s in _SENT_END.split(p) if len(s) > 4]
        phrases = sorted({m.group(0) for p in paras for m in _HAN.finditer(p)})
        return cls(paras, sents, phrases)


def make_title(rng: random.Random, src: Source) -> str:
    t = rng.choice(src.phrases)
    if len(t) > 6:
        start = rng.randrange(0, len(t) - 3)
        t = t[start : start + rng.randint(2, 6)]
    if rng.random() < 0.15:
        t += rng.choice(["（上）", "（下）", "（一）", "（二）", "！"])
    return t


def make_body(rng: random.Random, src: Source, target: int) -> list[str]:
    """Paragraph list of about ``target`` chars: mix of original paragraphs and
    new ones stitched from 1-4 random sentences."""
    out: list[str] = []
    total = 0
    while total < target:
        if rng.random() < 0.5:
            p = rng.choice(src.paragraphs)
        else:
            p = "".join(rng.choice(src.sentences) for _ in range(rng.randint(1, 4)))
        out.append(p)
        total += len(p)
    return out


# --------------------------------------------------------------------------
# Defects
# --------------------------------------------------------------------------
@dataclass
class Rates:
    gbk: float = 0.10
    gb18030: float = 0.05
    bom: float = 0.10  # fraction of all files: UTF-8 with BOM
    crlf: float = 0.30
    indent: float = 0.60  # full-width indentation
    ascii_indent: float = 0.10  # spaces/tab indentation instead
    halfwidth: float = 0.20
    ellipsis: float = 0.25
    hardwrap: float = 0.10
    blanks: float = 0.30


@dataclass
class ChapterInfo:
    file: str
    number: int
    heading: str
    encoding: str  # python codec used to write the file
    chars: int  # characters of clean text (heading + body, no newlines)
    defects: dict = field(default_factory=dict)


_HALF = {"，": ",", "。": ".", "？": "?", "！": "!", "：": ":", "；": ";"}
RARE_NON_GBK = "𠮷"  # U+20BB7, encodable in GB18030 (4 bytes) but not in GBK


def _halfwidth(rng: random.Random, text: str, frac: float) -> str:
    chars = list(text)
    for i, ch in enumerate(chars):
        if ch in _HALF and rng.random() < frac:
            chars[i] = _HALF[ch]
        elif ch in "“”" and rng.random() < frac:
            chars[i] = '"'
    return "".join(chars)


def _hardwrap(rng: random.Random, paras: list[str]) -> list[str]:
    width = rng.choice([30, 35, 40, 0])  # 0 = break at random points
    out: list[str] = []
    for p in paras:
        if width:
            out += [p[i : i + width] for i in range(0, len(p), width)]
        elif len(p) > 20 and rng.random() < 0.4:
            k = rng.randrange(5, len(p) - 5)
            out += [p[:k], p[k:]]
        else:
            out.append(p)
    return out


def render_chapter(n: int, seed: int, src: Source, target: int, rates: Rates):
    """Return (clean_text, raw_bytes, ChapterInfo) for chapter ``n``."""
    rng = random.Random(f"{seed}:{n}")  # str seeds are hashed with SHA-512: stable
    heading = f"第{chinese_numeral(n)}章 {make_title(rng, src)}"
    paras = make_body(rng, src, target)

    # encoding first: GB18030 chapters get one non-GBK character in clean text
    r = rng.random()
    if r < rates.gbk:
        enc = "gbk"
    elif r < rates.gbk + rates.gb18030:
        enc = "gb18030"
    elif r < rates.gbk + rates.gb18030 + rates.bom:
        enc = "utf-8-sig"
    else:
        enc = "utf-8"
    if enc == "gb18030":
        i = rng.randrange(len(paras))
        k = rng.randrange(len(paras[i]))
        paras[i] = paras[i][:k] + RARE_NON_GBK + paras[i][k:]

    clean = heading + "\n\n" + "\n\n".join("\u3000\u3000" + p for p in paras) + "\n"
    d: dict = {}

    body = paras
    if rng.random() < rates.ellipsis:
        d["ellipsis"] = True
        dots = rng.choice(["...", "......", "。。。"])
        body = [p.replace("……", dots).replace("…", dots[: max(1, len(dots) // 2)]) for p in body]
    if rng.random() < rates.halfwidth:
        frac = rng.choice([0.1, 0.3, 1.0])
        d["halfwidth"] = frac
        body = [_halfwidth(rng, p, frac) for p in body]
    if rng.random() < rates.hardwrap:
        d["hardwrap"] = True
        body = _hardwrap(rng, body)

    r = rng.random()
    if r < rates.indent:
        ind = "\u3000\u3000"
        d["indent"] = "fullwidth"
    elif r < rates.indent + rates.ascii_indent:
        ind = rng.choice(["    ", "\t", "  "])
        d["indent"] = "ascii"
    else:
        ind = ""
    lines = [heading, ""] if rng.random() < 0.5 else [heading]
    blanks = rng.random() < rates.blanks
    d["blanks"] = blanks
    for p in body:
        lines.append(ind + p)
        if blanks and rng.random() < 0.3:
            lines += [rng.choice(["", " ", "\u3000", "\t"]) for _ in range(rng.randint(1, 4))]
        elif not blanks and rng.random() < 0.5:
            lines.append("")  # many sites separate paragraphs by one blank line
    text = "\n".join(lines) + "\n"
    if rng.random() < rates.crlf:
        d["crlf"] = True
        text = text.replace("\n", "\r\n")

    raw = text.encode(enc)
    if enc == "utf-8-sig":
        d["bom"] = True
    info = ChapterInfo(
        file=f"{n:04d}.txt",
        number=n,
        heading=heading,
        encoding=enc,
        chars=len(clean.replace("\n", "")),
        defects=d,
    )
    return clean, raw, text, info


def edit_chapters(out: str | os.PathLike, edit) -> None:
    """What a benchmark or a test adds to a generated folder: each chapter file's text becomes
    edit(k, text) (k: its place in the folder's order), written back in the encoding it was
    generated in, as the manifest records it; the manifest goes, so that the folder holds the book
    alone."""
    manifest = os.path.join(out, "manifest.json")
    with open(manifest, encoding="utf-8") as f:
        files = sorted(json.load(f)["files"], key=lambda info: info["file"])
    os.remove(manifest)
    for k, info in enumerate(files):
        path = os.path.join(out, info["file"])
        with open(path, "rb") as f:
            text = f.read().decode(info["encoding"])
        with open(path, "wb") as f:
            f.write(edit(k, text).encode(info["encoding"]))


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--out", required=True, help="output directory for chapter files")
    ap.add_argument("-n", "--chapters", type=int, default=2000, help="number of chapters (default 2000)")
    ap.add_argument("--chars", type=int, default=2500, help="target body chars per chapter (default 2500)")
    ap.add_argument("--seed", type=int, default=20240601, help="random seed (default 20240601)")
    ap.add_argument(
        "--samples",
        nargs="+",
        default=None,
        help="sample chapter .txt files (UTF-8); default: ../*.txt next to this script",
    )
    ap.add_argument("--clean", action="store_true", help="also write defect-free UTF-8 text to OUT/clean/")
    ap.add_argument("--single", metavar="FILE", help="also write the whole book as one .txt file")
    ap.add_argument(
        "--single-clean",
        action="store_true",
        help="single file gets the clean text (default: the defective text)",
    )
    ap.add_argument("--single-encoding", default="utf-8", help="encoding of the single file (default utf-8)")
    ap.add_argument("--no-chapters", action="store_true", help="do not write per-chapter files")
    for k, v in asdict(Rates()).items():
        ap.add_argument(
            f"--rate-{k.replace('_', '-')}",
            type=float,
            default=v,
            dest=f"rate_{k}",
            help=f"fraction of files with this defect (default {v})",
        )
    a = ap.parse_args(argv)

    samples = a.samples or sorted(glob.glob(DEFAULT_SAMPLES))
    if not samples:
        ap.error("no sample files found; pass --samples")
    src = Source.load(samples)
    rates = Rates(**{k: getattr(a, f"rate_{k}") for k in asdict(Rates())})

    os.makedirs(a.out, exist_ok=True)
    if a.clean:
        os.makedirs(os.path.join(a.out, "clean"), exist_ok=True)
    single = open(a.single, "w", encoding=a.single_encoding, newline="") if a.single else None
    manifest = []
    total_chars = 0
    for n in range(1, a.chapters + 1):
        clean, raw, text, info = render_chapter(n, a.seed, src, a.chars, rates)
        manifest.append(asdict(info))
        total_chars += info.chars
        if not a.no_chapters:
            with open(os.path.join(a.out, info.file), "wb") as f:
                f.write(raw)
        if a.clean:
            with open(os.path.join(a.out, "clean", info.file), "w", encoding="utf-8", newline="\n") as f:
                f.write(clean)
        if single:
            single.write((clean if a.single_clean else text.lstrip("\ufeff")) + "\n")
    if single:
        single.close()
    meta = {
        "seed": a.seed,
        "chapters": a.chapters,
        "target_chars": a.chars,
        "samples": [os.path.basename(s) for s in samples],
        "rates": asdict(rates),
        "total_chars": total_chars,
        "files": manifest,
    }
    with open(os.path.join(a.out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, ensure_ascii=False, indent=1)
    print(f"{a.chapters} chapters, {total_chars:,} chars -> {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
