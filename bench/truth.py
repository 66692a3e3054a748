"""A book scored against the truth a reader wrote from its raw text (bench/shelves/truth/README.md).

A book is **right** when every field of its truth holds in the book the product read: its title
and author, the chapters a reader expects (count, first, a middle and the last title), its
volumes, every site string gone and every story line whole. Comparisons fold what a reader would
not call a difference (character widths, quote styles, ellipsis and dash forms, spaces) and keep
what they would: a title's separator before a quote stays a difference.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from pathlib import Path

UNKNOWN_AUTHORS = ("", "佚名", "未知")  # what the product may call an author the text never names
# the same with the age the text gives it: 清·佚名, （清）佚名 (施公案's byline says so much and no more)
_UNKNOWN_OF_AN_AGE = re.compile(r"^[（(〔\[]?\w{1,2}[）)〕\]]?[·・\s]?(?:佚名|无名氏|未知)$")

_QUOTES = str.maketrans({c: '"' for c in "“”„‟＂「」『』‘’'﹁﹂﹃﹄〝〞"})
_ELLIPSIS = re.compile(r"(?:\.{2,}|…+|。{2,}|·{3,}|・{3,})+")
_DASHES = re.compile(r"[-—–―─－]+")
_SPACE = re.compile(r"\s+")
# a space a title keeps: the one before an opening quote or bracket (第三章 “约定”)
_SPACE_NOT_BEFORE_OPENING = re.compile(r"\s+(?![\"(\[{<《〈【〔])")
# the mark after a title's leading number, which the product writes as a space (1. 疯狂年代, 一、轻与重)
_NUMBER_MARK = re.compile(r"^((?:第)?[0-9零〇一二三四五六七八九十百千两]+[章回节卷部集篇段]?)[、.:]+")


def _common(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    text = _ELLIPSIS.sub("…", text)
    return _DASHES.sub("—", text)


def fold_text(text: str) -> str:
    """A line of text as compared: no spaces at all; a lone full stop written either way."""
    return _SPACE.sub("", _common(text)).replace(".", "。")


def fold_title(text: str) -> str:
    """A title as compared: spaces only where a reader sees them (before a quote), 《》 taken off."""
    text = _common(text).strip().strip("《》<>")
    text = _SPACE_NOT_BEFORE_OPENING.sub("", text)
    return _NUMBER_MARK.sub(r"\1", _SPACE.sub(" ", text))


def load_truths(folder: Path) -> dict[str, dict]:
    """Every truth file of a folder, by the book's local name (a file's with its .txt)."""
    truths = {}
    for path in sorted(folder.glob("*.toml")):
        with path.open("rb") as fh:
            truth = tomllib.load(fh)
        truths[truth["book"]] = truth
    return truths


def _chapters(dumped: dict) -> list[dict]:
    """The chapters a reader counts: every one but the preamble page."""
    return [c for v in dumped["volumes"] for c in v["chapters"] if c["kind"] != "intro"]


def _paragraphs(dumped: dict) -> list[str]:
    texts = [t for v in dumped["volumes"] for c in v["chapters"] for t, _ in c["blocks"] if t is not None]
    return texts + (dumped.get("description") or "").splitlines()


def _all_text(dumped: dict) -> str:
    titles = [dumped["title"] or "", dumped["author"] or ""]
    titles += [v["title"] or "" for v in dumped["volumes"]]
    titles += [c["title"] for v in dumped["volumes"] for c in v["chapters"]]
    return "\n".join(fold_text(t) for t in titles + _paragraphs(dumped))


def _as_downloaded(title: str, local_name: str) -> str:
    """A title taken from the file's name, as it reads under the name the download had: the shelf
    writes each book as ``<owner>__<repo>__<name>``, a prefix no user's copy carries."""
    owner_repo = "__".join(local_name.split("__")[:2]) + "__"
    return title.removeprefix(owner_repo).rsplit("__", 1)[-1] if title.startswith(owner_repo) else title


def _count_holds(expected, got: int) -> bool:
    if isinstance(expected, list):
        return expected[0] <= got <= expected[1]
    return got == expected


def score(truth: dict, dumped: dict) -> list[str]:
    """What does not hold of ``truth`` in the read book: empty when the book is right."""
    if "failed" in dumped:
        return [f"failed: {dumped['failed']}"]
    wrong = []
    title = _as_downloaded(dumped["title"] or "", truth["book"])
    if fold_title(title) != fold_title(truth["title"]):
        wrong.append(f"title: {title!r}, not {truth['title']!r}")
    author = (dumped["author"] or "").strip()
    if truth["author"] == "" and author not in UNKNOWN_AUTHORS and not _UNKNOWN_OF_AN_AGE.match(author):
        wrong.append(f"author: {author!r}, the text names none")
    elif truth["author"] != "" and fold_title(author) != fold_title(truth["author"]):
        wrong.append(f"author: {author!r}, not {truth['author']!r}")
    chapters = _chapters(dumped)
    if not _count_holds(truth["chapters"], len(chapters)):
        wrong.append(f"chapters: {len(chapters)}, not {truth['chapters']}")
    titles = [fold_title(c["title"]) for c in chapters]
    for field, at in (("first", 0), ("last", -1)):
        got = chapters[at]["title"] if chapters else None
        if not chapters or titles[at] != fold_title(truth[field]):
            wrong.append(f"{field}: {got!r}, not {truth[field]!r}")
    if fold_title(truth["middle"]) not in titles:
        wrong.append(f"middle: no chapter titled {truth['middle']!r}")
    volumes = [fold_title(v["title"]) for v in dumped["volumes"] if v["title"]]
    if volumes != [fold_title(t) for t in truth.get("volumes", [])]:
        shown = [v["title"] for v in dumped["volumes"] if v["title"]]
        wrong.append(f"volumes: {len(shown)} {shown[:3]}, not {len(truth.get('volumes', []))}")
    wrong += [f"gone: still there: {gone!r}" for gone in still_there(truth, dumped)]
    wrong += [f"kept: lost {line!r}" for line in lost_lines(truth, dumped)]
    return wrong


def still_there(truth: dict, dumped: dict) -> list[str]:
    """The truth's site strings the read book still shows. A string of marks alone (a rule of dashes
    under every heading) is looked for as a whole line: folded, it is one dash, which every
    sentence with a —— holds."""
    text = _all_text(dumped)
    lines = set(text.splitlines())
    return [
        gone
        for gone in truth.get("gone", [])
        if fold_text(gone)
        and (fold_text(gone) in lines if _NO_WORD.fullmatch(gone) else fold_text(gone) in text)
    ]


def lost_lines(truth: dict, dumped: dict) -> list[str]:
    """The truth's story lines no paragraph of the read book holds whole."""
    if "failed" in dumped:
        return []
    paragraphs = [fold_text(p) for p in _paragraphs(dumped)]
    breaks = any(t is None for v in dumped["volumes"] for c in v["chapters"] for t, _ in c["blocks"])
    return [
        line
        for line in truth.get("kept", [])
        if not any(fold_text(line) in p for p in paragraphs) and not (breaks and _NO_WORD.fullmatch(line))
    ]


_NO_WORD = re.compile(r"[\W_]+")  # ＊＊＊　＊＊＊: a line of marks the book shows as a scene break
