"""Rules in Legado's (开源阅读) JSON formats, the reader app Chinese readers use: replace rules
(净化规则: `[normalize] replace_rules`) and table-of-contents rules (txtTocRule: `[source]
toc_rules`). Their patterns are Java regular expressions, with look-behinds of any width, so they
are compiled with the `regex` package, not `re`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import regex

from bookbuilder.structure.fixes import chapter_number
from bookbuilder.structure.heading_choice import choose
from bookbuilder.structure.headings import Heading, candidate, normalize_title
from bookbuilder.structure.passes import Choice


@dataclass(frozen=True)
class ReplaceRule:
    name: str
    pattern: regex.Pattern
    replacement: str  # a Python template (Java's $1 made \g<1>)
    scope: tuple[str, ...]  # book titles or sources it is for; empty: every book
    titles: bool = False  # scopeTitle: on chapter titles (Legado's default: not)
    content: bool = True  # scopeContent: on the text
    exclude: tuple[str, ...] = ()  # excludeScope: books it is not for, though its scope names them


@dataclass(frozen=True)
class TocRule:
    name: str
    pattern: regex.Pattern


class RuleError(ValueError):
    """A rule file that cannot be used: the message names the file and the rule."""


def _load(path: Path) -> list[dict]:
    try:
        data = json.loads(path.read_text("utf-8-sig"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RuleError(f"{path.name}: not a Legado rule file ({e})") from None
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise RuleError(f"{path.name}: expected a JSON list of rules")
    return data


def _compile(path: Path, name: str, pattern: str, literal: bool = False) -> regex.Pattern:
    try:
        return regex.compile(regex.escape(pattern) if literal else pattern, regex.V0)
    except regex.error as e:
        raise RuleError(f"{path.name}: rule {name!r}: invalid pattern: {e}") from None


def java_replacement(text: str) -> str:
    """Java's replacement syntax ($1, \\$ for a dollar) as a Python template (\\g<1>)."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            out.append("\\\\" if nxt == "\\" else nxt)
            i += 2
        elif c == "$" and i + 1 < len(text) and text[i + 1].isdigit():
            j = i + 1
            while j < len(text) and text[j].isdigit():
                j += 1
            out.append(f"\\g<{text[i + 1 : j]}>")
            i = j
        else:
            out.append("\\\\" if c == "\\" else c)
            i += 1
    return "".join(out)


def _enabled(path: Path, switch: str, body: str, order: str):
    """(order, position, name, rule) of each enabled rule with a pattern, in the file's order."""
    for i, r in enumerate(_load(path)):
        if r.get(switch, True) and r.get(body):
            rank = r.get(order, 0)
            yield (rank if isinstance(rank, int) else 0), i, str(r.get("name") or f"rule {i + 1}"), r


def load_replace_rules(path: Path) -> tuple[ReplaceRule, ...]:
    """The enabled rules in `order`: {name, pattern, replacement, isRegex, isEnabled, order, scope,
    scopeTitle, scopeContent, excludeScope}, with Legado's defaults."""
    rules = []
    for rank, i, name, r in _enabled(path, "isEnabled", "pattern", "order"):
        is_regex = r.get("isRegex", True)
        replacement = str(r.get("replacement") or "")
        rules.append(
            (
                rank,
                i,
                ReplaceRule(
                    name,
                    _compile(path, name, str(r["pattern"]), literal=not is_regex),
                    java_replacement(replacement) if is_regex else replacement.replace("\\", "\\\\"),
                    _names(r.get("scope")),
                    bool(r.get("scopeTitle", False)),
                    bool(r.get("scopeContent", True)),
                    _names(r.get("excludeScope")),
                ),
            )
        )
    return tuple(rule for _, _, rule in sorted(rules, key=lambda t: t[:2]))


def load_toc_rules(path: Path) -> tuple[TocRule, ...]:
    """The enabled rules in `serialNumber` order: {name, rule, enable, serialNumber, example}."""
    rules = [
        (rank, i, TocRule(name, _compile(path, name, str(r["rule"]))))
        for rank, i, name, r in _enabled(path, "enable", "rule", "serialNumber")
    ]
    return tuple(rule for _, _, rule in sorted(rules, key=lambda t: t[:2]))


def _names(field) -> tuple[str, ...]:
    """A scope field's book names and sources, split at ; or ,."""
    return tuple(s.strip() for s in str(field or "").replace(",", ";").split(";") if s.strip())


def _named(field: tuple[str, ...], names: tuple[str, ...]) -> bool:
    """Whether a scope field names the book: one of its entries is in the title or the source's
    name (novel for novel.txt). Legado asks the other way round, whether the name is in the field
    (scope LIKE '%' || name || '%'); the two agree on a whole name, and ours keeps a folder called
    source, the default, out of every scope that holds a site's …/source/… URL."""
    return any(s in n for s in field for n in names if n)


def applies(rule: ReplaceRule, names: tuple[str, ...]) -> bool:
    """A scoped rule is for the books whose title (or source) its scope names, unless its
    excludeScope names them too (Legado's ReplaceRuleDao: the exclusion wins)."""
    return (not rule.scope or _named(rule.scope, names)) and not _named(rule.exclude, names)


def replace_text(text: str, rules: tuple[ReplaceRule, ...]) -> tuple[str, list[tuple[str, str]]]:
    """`text` through each rule with scopeContent in order; (rule name, what it matched) for every match."""
    found: list[tuple[str, str]] = []
    for rule in (r for r in rules if r.content):
        matches = [m.group(0) for m in rule.pattern.finditer(text) if m.group(0)]
        if matches:
            text = rule.pattern.sub(rule.replacement, text)
            found += [(rule.name, m) for m in matches]
    return text, found


def replace_title(title: str, rules: tuple[ReplaceRule, ...]) -> str:
    """A title through the rules with scopeTitle; a rule that would blank it is passed over, as
    Legado does (BookChapter.getDisplayTitle)."""
    for rule in rules:
        if rule.titles and (new := rule.pattern.sub(rule.replacement, title)).strip():
            title = new
    return title


def toc_candidates(lines, rule: TocRule, make) -> dict[int, object]:
    """The lines (index → heading, made by `make(line, number, rule name)`) a txtTocRule matches."""
    return {
        i: make(line, number, rule.name)
        for i, (number, _, line) in enumerate(lines)
        if rule.pattern.search(line)
    }


# Choosing between our headings and an imported rule's (structure.sections.split_sections, with [source]
# toc_rules).


def sequence_score(choice: Choice) -> int:
    """How well a choice's chapter numbers run on by one (a restart at 1 counts too)."""
    numbers = [h.number for h in choice.headings.values() if h.kind == "chapter" and h.number is not None]
    return sum(1 for a, b in zip(numbers, numbers[1:]) if b == a + 1 or (b == 1 and a > 1))


def rule_heading(line: str, line_no: int, rule: str) -> Heading:
    """A line an imported rule (Legado's txtTocRule) takes: what our rules make of it, else a chapter."""
    h = candidate(line, line_no)
    if h is not None:
        return h._replace(rule=rule, weak=False)
    return Heading("chapter", normalize_title(line), chapter_number(line), line_no, rule=rule)


def best_choice(builtin: Choice, lines, rules) -> tuple[Choice, list[str]]:
    """Among the built-in choice and each imported rule's, the one whose numbering runs on best
    (ties: the built-in one); why each rule that found other headings was not used: a rule that
    loses in silence looks like a rule bookbuilder ignores."""
    best, score, name = builtin, sequence_score(builtin), "the built-in rules"
    tried = []
    for rule in rules:
        cands = toc_candidates(lines, rule, rule_heading)
        if not cands:
            continue
        choice = choose(cands, {i: i for i in cands})
        s = sequence_score(choice)
        tried.append((rule.name, len(cands), s, _numbered(choice)))
        if s > score:
            best, score, name = choice, s, rule.name
    why = [
        f"TOC rule {rule!r} matched {n} lines, not used: their numbers run on {s} times, {score} times "
        f"by {name}"
        for rule, n, s, headings in tried
        if rule != name and headings != _numbered(best)
    ]
    return best, why


def _numbered(choice: Choice) -> dict:
    return {i: h.number for i, h in choice.headings.items()}
