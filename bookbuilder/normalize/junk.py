"""Junk lines (RULES §5): site advertisements and pager lines, from a data file, extendable and
switchable per pattern in book.toml, counted per pattern."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

LONG_LINE = 80  # characters: longer lines are story text unless the match is the whole line


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: the finder's cache key is hashed per chapter
class JunkPattern:
    name: str
    regex: re.Pattern
    strong: bool
    fragment: bool = False
    default: bool = True
    keywords: tuple[str, ...] = ()  # empty: no pre-filter, always searched

    def may_match(self, text: str) -> bool:
        return not self.keywords or any(k in text for k in self.keywords)


@lru_cache(maxsize=1)
def builtin_patterns() -> tuple[JunkPattern, ...]:
    data = tomllib.loads(resources.files("bookbuilder").joinpath("data/junk.toml").read_text("utf-8"))
    return tuple(
        JunkPattern(p["name"], re.compile(p["regex"]), p.get("strong", False), p.get("fragment", False),
                    p.get("default", True), tuple(p.get("keywords", ())))
        for p in data["pattern"]
    )


def active_patterns(extra: tuple[str, ...] = (), disable: tuple[str, ...] = (), enable: tuple[str, ...] = ()) -> tuple[JunkPattern, ...]:
    patterns = [p for p in builtin_patterns() if (p.default or p.name in enable) and p.name not in disable]
    patterns += [JunkPattern(f"extra-{i + 1}", re.compile(rx), strong=False) for i, rx in enumerate(extra)]
    return tuple(patterns)


@lru_cache(maxsize=8)
def _keyword_finder(patterns: tuple[JunkPattern, ...]) -> re.Pattern | None:
    """One regex over every pattern's keywords: a chapter is scanned once, not once per pattern.
    None when some pattern has no keywords (it must always be searched)."""
    if any(not p.keywords for p in patterns):
        return None
    return re.compile("|".join(sorted({re.escape(k) for p in patterns for k in p.keywords})))


def patterns_in(text: str, patterns: tuple[JunkPattern, ...]) -> tuple[JunkPattern, ...]:
    """The patterns that may match somewhere in `text` (most chapters: none)."""
    finder = _keyword_finder(patterns)
    if finder is not None and finder.search(text) is None:
        return ()
    return tuple(p for p in patterns if p.may_match(text))


def clean_line(line: str, patterns: tuple[JunkPattern, ...]) -> tuple[str | None, str | None]:
    """(the line, or what is left of it, or None to drop it; the name of the pattern that acted)."""
    for p in patterns:
        m = p.regex.search(line) if p.may_match(line) else None
        if not m:
            continue
        if m.start() == 0 and m.end() == len(line):
            return None, p.name
        if p.fragment and m.end() == len(line) and m.start() > 0:
            return line[: m.start()].rstrip(), p.name
        if p.strong and len(line) <= LONG_LINE:
            return None, p.name
    return line, None
