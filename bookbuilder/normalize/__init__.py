"""Normalization: Book → Book, rule by rule (RULES §2.5–§3, §5).

Every rule is switchable in book.toml [normalize] (`rule_name = false`), idempotent, and counted:
the counts (rule → paragraphs changed) travel in Book.changes for the build summary and
`check --json`. Order follows RULES §0: junk, then rebuilding paragraphs, then characters.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping

from bookbuilder.diagnostics import Diagnostic, removal
from bookbuilder.model import Book, Chapter, Paragraph
from bookbuilder.normalize import chars, lines
from bookbuilder.normalize.clean import strip_html
from bookbuilder.normalize.junk import active_patterns
from bookbuilder.normalize.mask import mask, unmask

# name: (default, what it does). The text rules run in this order.
RULES: dict[str, tuple[bool, str]] = {
    "html": (True, "scrapers' tags, comments and watermarks removed, entities decoded (HTML-1)"),
    "junk": (True, "drop site advertisements and pager lines, cut adverts out of sentences (JK-1)"),
    "orphans": (True, "append a line of lone closing punctuation to the line before (UW-2)"),
    "unwrap": (True, "join lines broken mid-sentence (UW-1)"),
    "fullwidth_alnum": (True, "full-width letters and digits → half-width (FW-1)"),
    "ellipsis": (True, "... 。。。 ··· ⋯ → …… (EL-1)"),
    "dashes": (True, "-- — ―― → —— between Chinese text (DA-1)"),
    "punctuation": (True, "half-width , . ! ? : ; ( ) in Chinese text → full-width (PU-1)"),
    "quotes": (True, "straight quotes → “ ” (simplified) or 「 」 (traditional) (QU-1)"),
    "space_around_punctuation": (True, "no spaces beside full-width punctuation (SP-2)"),
    "repeated_punctuation": (False, "。。 → 。 and ，， → ， (RP-1; ！！！ is always kept)"),
    "pangu_spacing": (False, "a space between Han and Latin/digits (SP-1)"),
}
CONVERSIONS = ("s2t", "t2s", "s2tw", "tw2s", "s2twp", "tw2sp", "s2hk", "hk2s", "t2tw", "t2hk", "tw2t", "hk2t", "t2jp", "jp2t")
# The language a conversion produces (it also sets the quote style).
CONVERTED_LANGUAGE = {"t2s": "zh-Hans", "tw2s": "zh-Hans", "tw2sp": "zh-Hans", "hk2s": "zh-Hans",
                      "s2t": "zh-Hant", "s2tw": "zh-TW", "s2twp": "zh-TW", "t2tw": "zh-TW",
                      "s2hk": "zh-HK", "t2hk": "zh-HK", "tw2t": "zh-Hant", "hk2t": "zh-Hant"}
TRADITIONAL = ("zh-Hant", "zh-TW", "zh-HK")


def check_options(options: Mapping[str, Any]) -> None:
    """Raise ValueError('key: why') for an unknown rule or a bad value in [normalize]."""
    for key, value in options.items():
        if key == "replace_rules":
            continue  # a file: read by config (bookbuilder.legado)
        if key == "convert":
            if value not in CONVERSIONS:
                raise ValueError(f"convert: {value!r} is not an OpenCC conversion ({', '.join(CONVERSIONS)})")
        elif key == "junk" and isinstance(value, bool):
            continue
        elif key == "junk":
            names = {p.name for p in active_patterns(enable=tuple(p.name for p in _all_junk()))}
            for name in list(value.get("disable", [])) + list(value.get("enable", [])):
                if name not in names:
                    raise ValueError(f"{name}: unknown junk pattern (known: {', '.join(sorted(names))})")
        elif key not in RULES:
            raise ValueError(f"{key}: unknown normalization rule (known: {', '.join(RULES)}, convert, junk)")
        elif not isinstance(value, bool):
            raise ValueError(f"{key}: must be true or false, not {value!r}")


def _all_junk():
    from bookbuilder.normalize.junk import builtin_patterns

    return builtin_patterns()


def enabled(options: Mapping[str, Any]) -> set[str]:
    """The rules switched on. A [normalize.junk] table (patterns to add or switch) keeps junk on."""
    return {name for name, (default, _) in RULES.items()
            if (value := options.get(name, default)) is True or isinstance(value, dict)}


def text_rules(on: set[str], traditional: bool) -> list[tuple[str, Callable[[str], str]]]:
    rules = []
    for name in ("ellipsis", "dashes", "punctuation", "quotes", "space_around_punctuation",
                 "repeated_punctuation", "pangu_spacing"):
        if name in on:
            fn = getattr(chars, name)
            rules.append((name, (lambda t, fn=fn: fn(t, traditional)) if name == "quotes" else fn))
    return rules


@dataclass(frozen=True)
class Normalizer:
    """The rules book.toml switches on, ready to apply to one chapter at a time (chapters are
    independent, so a large book's can be normalized on several processes) and then to the book."""

    on: frozenset[str]
    language: str
    rules: tuple
    patterns: tuple
    converter: Any = None
    replace_rules: tuple = ()  # Legado replace rules for this book (bookbuilder.legado)

    def chapter(self, ch: Chapter) -> tuple[Chapter, dict[str, int], list[Diagnostic]]:
        """The chapter normalized, rule → paragraphs changed, and what cleaning removed (I201)."""
        counts: Counter = Counter()
        removed: list[Diagnostic] = []
        blocks = ch.blocks
        joined = "\n".join([b.text for b in blocks if type(b) is Paragraph])
        if "html" in self.on and ("<" in joined or ">" in joined or "&" in joined):
            blocks = _strip_html(blocks, counts, removed)
            joined = None
        if "junk" in self.on:
            blocks = lines.drop_junk(blocks, self.patterns, counts, removed, joined)
        if self.replace_rules:
            blocks = _replace(blocks, self.replace_rules, counts, removed)
        for name, fn in (("orphans", lines.attach_orphans), ("unwrap", lines.unwrap)):
            if name in self.on:
                blocks, n = fn(blocks)
                counts[name] += n
        title = self.title(ch.title)
        paragraphs = [b for b in blocks if type(b) is Paragraph]
        text = "\n".join([p.text for p in paragraphs])
        if (new := normalize_text(text, self.on, self.rules, self.converter, counts)) != text:
            retexted = iter([p if t == p.text else Paragraph(t, p.at) for p, t in zip(paragraphs, new.split("\n"))])
            blocks = tuple(next(retexted) if type(b) is Paragraph else b for b in blocks)
        return Chapter(title, blocks, ch.at, ch.number, ch.file_number, ch.kind), dict(counts), removed  # replace() is 5× slower

    def title(self, text: str) -> str:
        """A chapter or volume title normalized (titles are not counted as changes)."""
        return normalize_text(text, self.on, self.rules, self.converter) if text else text

    def book(self, book: Book, chapters: list[tuple[Chapter, dict[str, int]]], drop: set[int] | None = None) -> Book:
        """The book with these normalized chapters (in order), its volume titles and metadata. A
        chapter that cleaning emptied (it held only adverts) is left out, and so is a volume left
        with no chapter. `drop`: left_out(chapters), when the caller has it already."""
        counts: dict[str, int] = {}
        drop = left_out(chapters) if drop is None else drop
        done = iter(enumerate(chapters))

        def take() -> Chapter | None:
            i, (ch, changed) = next(done)
            for name, n in changed.items():  # Counter.update is a Python loop too, with more steps
                counts[name] = counts.get(name, 0) + n
            return None if i in drop else ch

        volumes = tuple(replace(v, chapters=tuple(c for c in (take() for _ in v.chapters) if c is not None),
                                title=self.title(v.title) if v.title else v.title)
                        for v in book.volumes)
        volumes = tuple(v for v in volumes if v.chapters) or volumes[:1]
        meta = replace(book.meta, language=self.language)
        if self.converter:
            meta = replace(meta, title=self.converter.convert(meta.title), author=self.converter.convert(meta.author))
        return replace(book, meta=meta, volumes=volumes, changes=tuple(sorted((k, n) for k, n in counts.items() if n)))


def left_out(chapters: list[tuple[Chapter, Mapping[str, int]]]) -> set[int]:
    """The chapters cleaning emptied (they held only adverts), which the book leaves out; none,
    if that would leave the book without a chapter."""
    gone = {i for i, (ch, counts) in enumerate(chapters)
            if not ch.blocks and any(name.startswith(("junk", "html", "replace")) for name in counts)}
    return gone if len(gone) < len(chapters) else set()


def _strip_html(blocks: tuple, counts: Counter, removed: list[Diagnostic]) -> tuple:
    """HTML-1 over a chapter's paragraphs; a paragraph that was only markup is dropped."""
    out = []
    for block in blocks:
        if type(block) is Paragraph and ("<" in block.text or "&" in block.text or ">" in block.text):
            cut: list[str] = []
            text = strip_html(block.text, cut)
            if text != block.text:
                counts["html"] += 1
                removed += [removal("html", piece, block.at) for piece in cut if piece.strip()]
                if not text:
                    continue
                block = Paragraph(text, block.at, block.indented)
        out.append(block)
    return tuple(out)


def _replace(blocks: tuple, rules: tuple, counts: Counter, removed: list[Diagnostic]) -> tuple:
    """The book's Legado replace rules over each paragraph, in their order; each match on record."""
    from bookbuilder.legado import replace_text

    out = []
    for block in blocks:
        if type(block) is Paragraph:
            text, found = replace_text(block.text, rules)
            if found:
                for name, matched in found:
                    counts[f"replace:{name}"] += 1
                    removed.append(removal(name, matched, block.at))
                text = text.strip()
                if not text:
                    continue
                block = Paragraph(text, block.at, block.indented)
        out.append(block)
    return tuple(out)


def normalizer(options: Mapping[str, Any], language: str, replace_rules: tuple = (), names: tuple[str, ...] = ()) -> Normalizer:
    on = enabled(options)
    convert = options.get("convert")
    language = CONVERTED_LANGUAGE.get(convert, language) if convert else language
    junk = options.get("junk") if isinstance(options.get("junk"), dict) else {}
    patterns = active_patterns(tuple(junk.get("extra", ())), tuple(junk.get("disable", ())), tuple(junk.get("enable", ())))
    from bookbuilder.legado import applies

    return Normalizer(frozenset(on), language, tuple(text_rules(on, language in TRADITIONAL)), patterns,
                      _opencc(convert) if convert else None, tuple(r for r in replace_rules if applies(r, names)))


def normalize_book(book: Book, options: Mapping[str, Any]) -> Book:
    """Every chapter in this process (pipeline.load_book spreads a large book over processes)."""
    n = normalizer(options, book.meta.language)
    return n.book(book, [n.chapter(c)[:2] for c in book.chapters()])


def normalize_text(text: str, on: set[str], rules, converter=None, counts: Counter | None = None) -> str:
    """The character rules over paragraphs joined by '\\n'; counts record paragraphs changed per rule."""
    if converter is not None:
        text = _counted("convert", text, converter.convert, counts)
    if "fullwidth_alnum" in on:
        text = _counted("fullwidth_alnum", text, chars.fullwidth_alnum, counts)
    masked, saved = mask(text)
    # Rules feed each other's context (a comma made full-width makes the dash after it Chinese),
    # so run them until nothing changes. No rule looks across a line, so later rounds only need
    # the lines the round before changed.
    lines: list[str] | None = None  # every line, once a round has changed some
    todo: list[int] = []  # the lines the last round changed: the next round's input
    for _ in range(4):
        before = masked
        for name, fn in rules:
            masked = _counted(name, masked, fn, counts)
        if masked == before:
            break
        changed = masked.split("\n")
        pairs = zip(before.split("\n"), changed)
        if lines is None:
            lines = changed
            todo = [i for i, (old, new) in enumerate(pairs) if old != new]
        else:
            done, todo = todo, []
            for i, (old, new) in zip(done, pairs):
                lines[i] = new
                if old != new:
                    todo.append(i)
        masked = "\n".join(lines[i] for i in todo)
    if lines is not None:
        masked = "\n".join(lines)
    return unmask(masked, saved)


def _counted(name: str, text: str, fn: Callable[[str], str], counts: Counter | None) -> str:
    new = fn(text)
    if counts is not None and new != text:
        counts[name] += sum(a != b for a, b in zip(text.split("\n"), new.split("\n")))
    return new


def _opencc(config: str):
    import opencc

    return opencc.OpenCC(f"{config}.json" if not config.endswith(".json") else config)
