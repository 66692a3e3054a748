"""serve's memo of normalized results (`pipeline.load_book(memo=…)`), kept across a change of the
rules where it provably holds: a rule switched off ("keep this rule off") normalizes again only
the chapters it took something from, and switching it back on (its undo) finds the results the
rules had before.

Why a chapter the switched-off rules took nothing from normalizes the same without them. A
chapter is normalized by its rules one after another, each a function of the blocks the one
before left and of the rule settings (normalize/rules.py). Switching a cleaning rule or junk
pattern off changes only whether that rule is asked: the other rules, their order and their
settings stay (but for url-advert's switch, which others read too: below). Every line or piece
such a rule takes is recorded under its name (a removal, and its `junk:<name>` count;
normalize/lines.py, where a piece it adds to another rule's overlapping cut is counted too). With
no record, the rule left every block as it found it, so each rule after it saw the same blocks
with the rule on as it sees with it off, and gives the same result. The prefilters that pass
lines by (a pattern's keywords, the judges' hints) pass by only lines no rule would change, so a
rule's keywords missing from the list changes which lines are looked at, not what comes of
them; and cleaning that takes nothing gives its blocks back as they came (it tidies scene breaks
only after a removal), as its early return for a chapter without a keyword does. The whole-book
passes run on every load, after this, from the chapters as they are (pipeline.load_book).

The reading stage reads one of these switches (structure/page_labels.py): a file's reading is
keyed by the settings it reads, so switching that one reads every file again.
"""

from __future__ import annotations

from dataclasses import fields

from bookbuilder.diagnostics import REMOVED, removal_parts
from bookbuilder.normalize.rules import Normalizer
from bookbuilder.per_file import FileRead, Normalized

# A switch that tells other rules something as well: with url-advert off, the listed patterns are
# not told that a line holds a URL (normalize/lines.py: a strong pattern drops a longer line beside
# one), so they may take less without a record of url-advert's. Switching it normalizes all again.
_READ_BY_OTHERS = frozenset({"url-advert"})
# What a Normalizer holds besides the rules a switch adds or takes away: these equal, the change
# is a switch of cleaning rules and junk patterns (off, patterns).
_SAME = tuple(f.name for f in fields(Normalizer) if f.name not in ("off", "patterns"))


def for_rules(memo: dict, rules: Normalizer) -> dict:
    """serve's memo for `rules`: as it is while they are the same; else the results kept for them
    before (a rule switched back on), or those the rules switched off took nothing from, or none.
    The rules' results before are kept for the switch's undo."""
    was = memo.get("rules")
    if was == rules:
        return memo
    files, chapters = memo.get("files", {}), memo.get("chapters", {})
    earlier = memo.get("earlier")
    if earlier is not None and earlier[0] == rules:
        kept_files, kept_chapters = dict(earlier[1]), dict(earlier[2])
    elif was is not None and (names := switched_off(was, rules)):
        kept_files = {key: read for key, read in files.items() if not _file_took(read, names)}
        kept_chapters = {key: n for key, n in chapters.items() if not took_from(n, names)}
    else:
        kept_files, kept_chapters = {}, {}
    memo.update(rules=rules, files=kept_files, chapters=kept_chapters)
    memo["earlier"] = (was, files, chapters) if was is not None else None
    return memo


def switched_off(was: Normalizer, now: Normalizer) -> frozenset[str]:
    """The names of the cleaning rules and junk patterns `now` switches off from `was`, where that is
    all that differs; empty where anything else does (a rule switched on, another setting)."""
    if any(getattr(was, name) != getattr(now, name) for name in _SAME) or not was.off <= now.off:
        return frozenset()
    gone = [p for p in was.patterns if p not in now.patterns]
    if tuple(p for p in was.patterns if p not in gone) != now.patterns:
        return frozenset()  # a pattern added or moved
    names = (now.off - was.off) | {p.name for p in gone}
    return frozenset() if names & _READ_BY_OTHERS else names


def took_from(normalized: Normalized, names: frozenset[str]) -> bool:
    """Whether any of the rules `names` took something from the chapter: a removal or a count of theirs."""
    return any(key.startswith("junk:") and key[5:] in names for key in normalized.counts) or any(
        d.code == REMOVED and removal_parts(d)[0] in names for d in normalized.findings
    )


def _file_took(read: FileRead, names: frozenset[str]) -> bool:
    return any(isinstance(p, Normalized) and took_from(p, names) for p in read.parts)
