"""Normalization: Book → Book, rule by rule (docs/rules.md §2.5–§3, §5; cited below as RULES §N).

Every rule is switchable in book.toml [normalize] (`rule_name = false`), idempotent, and counted:
the counts (rule → paragraphs changed) travel in Book.changes for the build summary and
`check --json`. Order follows RULES §0: junk, then rebuilding paragraphs, then characters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from bookbuilder.diagnostics import Diagnostic, removal
from bookbuilder.model import Book, Chapter, Paragraph
from bookbuilder.normalize import appeals, chars, lines
from bookbuilder.normalize.clean import strip_html
from bookbuilder.normalize.debris import JUDGES
from bookbuilder.normalize.edges import RULES as EDGES
from bookbuilder.normalize.junk import active_patterns
from bookbuilder.normalize.mask import mask, unmask
from bookbuilder.normalize.note_labels import RULE as NOTE_LABEL
from bookbuilder.normalize.own_title import RULE as OWN_TITLE
from bookbuilder.normalize.page_marks import RULE as PAGE_MARKS
from bookbuilder.normalize.repeats import RULES as REPEATS
from bookbuilder.normalize.wrapper import RULE as WRAPPER
from bookbuilder.normalize.wrapper import STAMP_RULE
from bookbuilder.structure.headings import is_bare_label
from bookbuilder.structure.page_labels import RULE as PAGE_LABELS
from bookbuilder.vocabulary import LOST_GLYPH

LOST_GLYPH_CODE = "W204"


@dataclass(frozen=True)
class Rule:
    """One normalization rule. `kind` says what it works on and when:
    - "lines": a chapter's blocks, before paragraphs are final: (blocks, Step) → blocks;
    - "characters": the chapter's paragraphs joined by "\\n", once, before masking: (text, Step) → text;
    - "punctuation": the same text with URLs, numbers and Latin runs masked (normalize.mask), run
      with the other punctuation rules until nothing changes, since they feed each other's
      context (a comma made full-width makes the dash after it Chinese): (text, Step) → text.
    `default` is whether it runs when book.toml does not say; `why` is what it does, and where
    RULES (or docs/rules-notes.md) has the reason."""

    name: str
    default: bool
    kind: str
    apply: Callable
    why: str
    titles: bool = True  # whether it runs on chapter and volume titles too
    on_titles: Callable | None = None  # what it does on a title, where a title is not prose


@dataclass
class Step:
    """What a rule may read (the book's rule settings) and record: paragraphs changed per rule
    (`counts`, filled for "lines" rules by the rule itself) and removals (I201)."""

    normalizer: Normalizer
    counts: Counter = field(default_factory=Counter)
    removed: list = field(default_factory=list)


def _html(blocks: tuple, step: Step) -> tuple:
    """HTML-1 over a chapter's paragraphs; a paragraph that was only markup is dropped."""
    if not any(type(b) is Paragraph and _markup_sign(b.text) for b in blocks):
        return blocks
    out = []
    for block in blocks:
        if type(block) is Paragraph and _markup_sign(block.text):
            cut: list[str] = []
            lost: list[str] = []
            text = strip_html(block.text, cut, lost)
            if text != block.text:
                step.counts["html"] += 1
                step.removed.extend(removal("html", piece, block.at) for piece in cut if piece.strip())
                if lost:  # not a removal: a character the reader should know is missing (W204)
                    step.removed.append(Diagnostic(LOST_GLYPH_CODE, _lost_message(lost), block.at))
                if not text:
                    continue
                block = Paragraph(text, block.at, block.indented)
        out.append(block)
    return tuple(out)


def _markup_sign(text: str) -> bool:
    """What HTML-1 and HTML-2 need to find before they can take anything: a tag's or an entity's
    mark, or a script call's end."""
    return "<" in text or "&" in text or ">" in text or ");" in text


def _lost_message(lost: list[str]) -> str:
    shown = ", ".join(dict.fromkeys(lost))
    return f"{shown} stood for a character the site could not show: written as {LOST_GLYPH}"


class _Kept:
    """A paragraph a [[keep]] entry keeps, while cleaning runs: not a Paragraph, so every rule
    passes it by as it passes a heading by (normalize.by_hand)."""

    __slots__ = ("paragraph",)

    def __init__(self, paragraph: Paragraph):
        self.paragraph = paragraph


def _junk(blocks: tuple, step: Step) -> tuple:
    kept = step.normalizer.kept
    if kept and any(k.keeps(b) for b in blocks for k in kept):
        blocks = tuple(_Kept(b) if any(k.keeps(b) for k in kept) else b for b in blocks)
        blocks = lines.drop_junk(
            blocks, step.normalizer.patterns, step.counts, step.removed, off=step.normalizer.off
        )
        return tuple(b.paragraph if type(b) is _Kept else b for b in blocks)
    return lines.drop_junk(
        blocks, step.normalizer.patterns, step.counts, step.removed, off=step.normalizer.off
    )


def _replace(blocks: tuple, step: Step) -> tuple:
    """The book's Legado replace rules over each paragraph, in their order; each match on record."""
    from bookbuilder.normalize.legado import replace_text

    if not step.normalizer.replace_rules:
        return blocks
    out = []
    for block in blocks:
        if type(block) is Paragraph:
            text, found = replace_text(block.text, step.normalizer.replace_rules)
            if found:
                for name, matched in found:
                    step.counts[f"replace:{name}"] += 1
                    step.removed.append(removal(name, matched, block.at))
                text = text.strip()
                if not text:
                    continue
                block = Paragraph(text, block.at, block.indented)
        out.append(block)
    return tuple(out)


def _counting(name: str, fn: Callable[[tuple], tuple[tuple, int]]) -> Callable[[tuple, Step], tuple]:
    def rule(blocks: tuple, step: Step) -> tuple:
        blocks, n = fn(blocks)
        step.counts[name] += n
        return blocks

    return rule


def _convert(text: str, step: Step) -> str:
    converter = step.normalizer.converter
    return converter.convert(text) if converter is not None else text


def _text(fn: Callable[[str], str]) -> Callable[[str, Step], str]:
    return lambda text, step: fn(text)


def _quotes(text: str, step: Step) -> str:
    return chars.quotes(text, step.normalizer.language in TRADITIONAL)


# Declared once, in the order they run (RULES §0: junk, then rebuilding paragraphs, then characters).
RULES: tuple[Rule, ...] = (
    Rule(
        "html",
        True,
        "lines",
        _html,
        "scrapers' tags, comments and watermarks removed, entities decoded (HTML-1); entities escaped twice "
        "or misspelt, made-up ones and tags HTML does not have (HTML-2)",
    ),
    Rule(
        "junk",
        True,
        "lines",
        _junk,
        "drop site advertisements and pager lines, cut adverts out of sentences (JK-1)",
    ),
    Rule(
        "author_appeals",
        True,
        "lines",
        appeals.rule,
        "drop an author's appeal for votes, collections, subscriptions among a chapter's first or "
        "last lines; the author's other words stay (docs/rules-notes.md)",
        titles=False,
    ),
    Rule(
        "replace",
        True,
        "lines",
        _replace,
        "the book's Legado replace rules ([normalize] replace_rules), in their order",
    ),
    Rule(
        "orphans",
        True,
        "lines",
        _counting("orphans", lines.attach_orphans),
        "append a line of lone closing punctuation to the line before (UW-2)",
    ),
    Rule("unwrap", True, "lines", _counting("unwrap", lines.unwrap), "join lines broken mid-sentence (UW-1)"),
    Rule(
        "convert",
        True,
        "characters",
        _convert,
        "OpenCC conversion, when [normalize] convert names one (RULES §2.7)",
    ),
    Rule(
        "fullwidth_alnum",
        True,
        "characters",
        _text(chars.fullwidth_alnum),
        "full-width letters and digits → half-width (FW-1)",
    ),
    Rule(
        "han_spaces",
        True,
        "characters",
        _text(chars.han_spaces),
        "no space between two Han characters in prose: what joined lines left (SP-3, docs/rules-notes.md)",
        titles=False,
    ),  # 第十章 单身狗犯法吗？: a title's space parts its label from its name
    Rule("ellipsis", True, "punctuation", _text(chars.ellipsis), "... 。。。 ··· ⋯ → …… (EL-1)"),
    Rule("dashes", True, "punctuation", _text(chars.dashes), "-- — ―― → —— between Chinese text (DA-1)"),
    Rule(
        "punctuation",
        True,
        "punctuation",
        _text(chars.punctuation),
        "half-width , . ! ? : ; ( ) in Chinese text → full-width (PU-1)",
        on_titles=_text(chars.title_punctuation),
    ),
    Rule(
        "quotes",
        True,
        "punctuation",
        _quotes,
        "straight quotes → “ ” (simplified) or 「 」 (traditional) (QU-1)",
    ),
    Rule(
        "space_around_punctuation",
        True,
        "punctuation",
        _text(chars.space_around_punctuation),
        "no spaces beside full-width punctuation (SP-2)",
        on_titles=_text(chars.title_space_around_punctuation),
    ),
    Rule(
        "repeated_punctuation",
        False,
        "punctuation",
        _text(chars.repeated_punctuation),
        "。。 → 。 and ，， → ， (RP-1; ！！！ is always kept)",
    ),
    Rule(
        "pangu_spacing",
        False,
        "punctuation",
        _text(chars.pangu_spacing),
        "a space between Han and Latin/digits (SP-1)",
    ),
)
# The rules run on a title: those that do, each in its title's version.
_TITLE_RULES = tuple(replace(r, apply=r.on_titles) if r.on_titles else r for r in RULES if r.titles)
# Cleaning's rules that decide from evidence in the file rather than from junk.toml's list;
# [normalize.junk] disable = [...] names them as it names a listed pattern.
EVIDENCE_RULES = (
    ("url-advert", "form-debris", "boxed-banner", "site-watermark-line")
    + JUDGES
    + ("debris-block",)
    + REPEATS
    + (PAGE_MARKS, PAGE_LABELS)
    + EDGES
    + (WRAPPER, STAMP_RULE, OWN_TITLE, NOTE_LABEL)
)
SWITCHES = {r.name for r in RULES} - {"convert", "replace"}  # set by naming a conversion or a file

CONVERSIONS = (
    "s2t",
    "t2s",
    "s2tw",
    "tw2s",
    "s2twp",
    "tw2sp",
    "s2hk",
    "hk2s",
    "t2tw",
    "t2hk",
    "tw2t",
    "hk2t",
    "t2jp",
    "jp2t",
)
# The language a conversion produces (it also sets the quote style).
CONVERTED_LANGUAGE = {
    "t2s": "zh-Hans",
    "tw2s": "zh-Hans",
    "tw2sp": "zh-Hans",
    "hk2s": "zh-Hans",
    "s2t": "zh-Hant",
    "s2tw": "zh-TW",
    "s2twp": "zh-TW",
    "t2tw": "zh-TW",
    "s2hk": "zh-HK",
    "t2hk": "zh-HK",
    "tw2t": "zh-Hant",
    "hk2t": "zh-Hant",
}
TRADITIONAL = ("zh-Hant", "zh-TW", "zh-HK")


def check_options(options: Mapping[str, Any]) -> None:
    """Raise ValueError('key: why') for an unknown rule or a bad value in [normalize]."""
    for key, value in options.items():
        if key == "replace_rules":
            continue  # a file: read by config (bookbuilder.normalize.legado)
        if key == "convert":
            if value not in CONVERSIONS:
                raise ValueError(f"convert: {value!r} is not an OpenCC conversion ({', '.join(CONVERSIONS)})")
        elif key == "junk" and isinstance(value, bool):
            continue
        elif key == "junk":
            names = {p.name for p in active_patterns(enable=tuple(p.name for p in _all_junk()))} | set(
                EVIDENCE_RULES
            )
            for name in list(value.get("disable", [])) + list(value.get("enable", [])):
                if name not in names:
                    raise ValueError(f"{name}: unknown junk pattern (known: {', '.join(sorted(names))})")
        elif key not in SWITCHES:
            raise ValueError(
                f"{key}: unknown normalization rule (known:"
                f" {', '.join(r.name for r in RULES if r.name in SWITCHES)}, convert, junk)"
            )
        elif not isinstance(value, bool):
            raise ValueError(f"{key}: must be true or false, not {value!r}")


def _all_junk():
    from bookbuilder.normalize.junk import builtin_patterns

    return builtin_patterns()


def enabled(options: Mapping[str, Any]) -> frozenset[str]:
    """The rules switched on. A [normalize.junk] table (patterns to add or switch) keeps junk on."""
    return frozenset(
        r.name
        for r in RULES
        if r.name not in SWITCHES
        or (value := options.get(r.name, r.default)) is True
        or isinstance(value, dict)
    )


@dataclass(frozen=True)
class Normalizer:
    """The rules book.toml switches on, with what they need, ready to apply to one chapter at a
    time (chapters are independent, so a large book's are normalized on several processes: this
    crosses to them pickled) and then to the book."""

    on: frozenset[str]
    language: str
    patterns: tuple = ()  # junk patterns (bookbuilder.normalize.junk)
    convert: str | None = None  # an OpenCC conversion
    replace_rules: tuple = ()  # Legado replace rules for this book (bookbuilder.normalize.legado)
    off: frozenset[str] = frozenset()  # cleaning's rules and patterns that [normalize.junk] disable names
    kept: tuple = ()  # the [[keep]] entries of the file being read (normalize.by_hand.Keep)

    @property
    def converter(self):
        return _opencc(self.convert) if self.convert else None

    def rules(self, kind: str, title: bool = False) -> list[Rule]:
        return [r for r in (_TITLE_RULES if title else RULES) if r.kind == kind and r.name in self.on]

    def chapter(self, ch: Chapter) -> tuple[Chapter, dict[str, int], list[Diagnostic]]:
        """The chapter normalized, rule → paragraphs changed, and what cleaning removed (I201)."""
        step = Step(self)
        blocks = ch.blocks
        for rule in self.rules("lines"):
            blocks = rule.apply(blocks, step)
        paragraphs = [b for b in blocks if type(b) is Paragraph]
        text = "\n".join([p.text for p in paragraphs])
        if (new := self.text(text, step)) != text:
            retexted = iter(
                [p if t == p.text else Paragraph(t, p.at) for p, t in zip(paragraphs, new.split("\n"))]
            )
            blocks = tuple(next(retexted) if type(b) is Paragraph else b for b in blocks)
        return replace(ch, title=self.title(ch.title), blocks=blocks), dict(step.counts), step.removed

    def title(self, text: str) -> str:
        """A chapter or volume title normalized (titles are not counted as changes), after the
        replace rules for titles (Legado's scopeTitle)."""
        if text and self.replace_rules:
            from bookbuilder.normalize.legado import replace_title

            text = replace_title(text, self.replace_rules)
        return self.text(text, title=True) if text else text

    def text(self, text: str, step: Step | None = None, title: bool = False) -> str:
        """The character and punctuation rules over paragraphs joined by "\\n" (or over a title);
        with a `step`, its counts record the paragraphs each rule changed."""
        step = step or Step(self, counts=None)
        for rule in self.rules("characters", title):
            text = _counted(rule, text, step)
        masked, saved = mask(text)
        # No rule looks across a line, so the later rounds only need the lines the round before changed.
        punctuation = self.rules("punctuation", title)
        lines_: list[str] | None = None  # every line, once a round has changed some
        todo: list[int] = []  # the lines the last round changed: the next round's input
        for _ in range(4):
            before = masked
            for rule in punctuation:
                masked = _counted(rule, masked, step)
            if masked == before:
                break
            changed = masked.split("\n")
            pairs = zip(before.split("\n"), changed)
            if lines_ is None:
                lines_ = changed
                todo = [i for i, (old, new) in enumerate(pairs) if old != new]
            else:
                done, todo = todo, []
                for i, (old, new) in zip(done, pairs):
                    lines_[i] = new
                    if old != new:
                        todo.append(i)
            masked = "\n".join(lines_[i] for i in todo)
        if lines_ is not None:
            masked = "\n".join(lines_)
        return unmask(masked, saved)

    def book(
        self, book: Book, chapters: list[tuple[Chapter, dict[str, int]]], drop: set[int] | None = None
    ) -> Book:
        """The book with these normalized chapters (in order), its volume titles and metadata. A
        chapter that cleaning emptied (it held only adverts) is left out, and so is a volume left
        with no chapter. `drop`: left_out(chapters), when the caller has it already."""
        counts: Counter = Counter()
        drop = left_out(chapters) if drop is None else drop
        done = iter(enumerate(chapters))

        def take() -> Chapter | None:
            i, (ch, changed) = next(done)
            counts.update(changed)
            if i in drop:
                return None
            if i - 1 in drop and is_bare_label(ch.title) and chapters[i - 1][0].number == ch.number:
                ch = replace(
                    ch, title=chapters[i - 1][0].title
                )  # 第三章 六句真言, an advert, 第三章: the titled one's title
            return ch

        volumes = tuple(
            replace(
                v,
                chapters=tuple(c for c in (take() for _ in v.chapters) if c is not None),
                title=self.title(v.title) if v.title else v.title,
            )
            for v in book.volumes
        )
        volumes = tuple(v for v in volumes if v.chapters) or volumes[:1]
        meta = replace(book.meta, language=self.language)
        if self.converter:
            meta = replace(
                meta, title=self.converter.convert(meta.title), author=self.converter.convert(meta.author)
            )
        return replace(
            book, meta=meta, volumes=volumes, changes=tuple(sorted((k, n) for k, n in counts.items() if n))
        )


def left_out(chapters: list[tuple[Chapter, Mapping[str, int]]]) -> set[int]:
    """The chapters cleaning emptied (they held only adverts), which the book leaves out; none,
    if that would leave the book without a chapter. A chapter with a numbered heading of its own stays
    (曾国藩全集's 第七章 黑雨滂沱 held only a site's page marker, then its sections 一 … 十二): its title is
    the book's, and W305 says its text is missing."""

    def repeated(i: int) -> bool:  # the heading comes again next, after a watermark line (张居正's 第五回)
        return i + 1 < len(chapters) and chapters[i + 1][0].number == chapters[i][0].number

    gone = {
        i
        for i, (ch, counts) in enumerate(chapters)
        if not ch.blocks
        and (ch.number is None or repeated(i))
        and any(name.startswith(("junk", "html", "replace")) for name in counts)
    }
    return gone if len(gone) < len(chapters) else set()


def normalizer(
    options: Mapping[str, Any], language: str, replace_rules: tuple = (), names: tuple[str, ...] = ()
) -> Normalizer:
    """The Normalizer for book.toml's [normalize] `options`, a book in `language`, the book's Legado
    replace rules, which apply to a book by its `names` (bookbuilder.normalize.legado.applies)."""
    from bookbuilder.normalize.legado import applies

    convert = options.get("convert")
    language = CONVERTED_LANGUAGE.get(convert, language) if convert else language
    junk = _junk_table(options)
    patterns = active_patterns(
        tuple(junk.get("extra", ())), tuple(junk.get("disable", ())), tuple(junk.get("enable", ()))
    )
    return Normalizer(
        enabled(options),
        language,
        patterns,
        convert,
        tuple(r for r in replace_rules if applies(r, names)),
        disabled(options),
    )


def _junk_table(options: Mapping[str, Any]) -> Mapping[str, Any]:
    return options.get("junk") if isinstance(options.get("junk"), dict) else {}


def disabled(options: Mapping[str, Any]) -> frozenset[str]:
    """Cleaning's rules and patterns that [normalize.junk] disable names (the reading stage's page
    labels among them: structure/page_labels.py)."""
    return frozenset(_junk_table(options).get("disable", ()))


def normalize_book(book: Book, options: Mapping[str, Any]) -> Book:
    """Every chapter in this process (pipeline.load_book spreads a large book over processes)."""
    n = normalizer(options, book.meta.language)
    return n.book(book, [n.chapter(c)[:2] for c in book.chapters()])


def _counted(rule: Rule, text: str, step: Step) -> str:
    new = rule.apply(text, step)
    if step.counts is not None and new != text:
        step.counts[rule.name] += sum(a != b for a, b in zip(text.split("\n"), new.split("\n")))
    return new


@cache
def _opencc(config: str):
    import opencc

    return opencc.OpenCC(f"{config}.json" if not config.endswith(".json") else config)
