"""Line rules (docs/rules.md §3, §5): they see several blocks at once, so they take and return a chapter's
blocks (and the number of changes). Locations survive: a joined paragraph keeps its first line."""

from __future__ import annotations

import re
from collections import Counter

from bookbuilder.diagnostics import removal
from bookbuilder.model import Paragraph, SceneBreak
from bookbuilder.normalize import debris
from bookbuilder.normalize.chars import HAN
from bookbuilder.normalize.clean import (
    SITE_WORDS,
    URL_HINT,
    WATERMARK_HINT,
    cut,
    find_urls,
    site_watermark,
    url_adverts,
)
from bookbuilder.normalize.debris import (
    SITE_NAME_ALONE,
    in_debris_block,
    judge_line,
    site_signals,
    story_signs,
)
from bookbuilder.normalize.forms import FORM_HINTS, form_debris
from bookbuilder.normalize.hints import LATIN_LOOKALIKE, lines_found, prefilter
from bookbuilder.normalize.junk import (
    JunkPattern,
    clean_line,
    inline_spans,
    keyword_finder,
    patterns_in,
)
from bookbuilder.normalize.layout import CONTINUING_MARKS, read_layout
from bookbuilder.vocabulary import SENTENCE_END_MARKS

_LETTERS = LATIN_LOOKALIKE
_URLS, _MARKS = prefilter((URL_HINT,)), prefilter((URL_HINT, WATERMARK_HINT))  # clean.py's judges' hints
HAN_RE = re.compile(f"[{HAN}]")

# Half-width marks count too (a lone . is a 。 typed half-width), but not ... or 。。。: an ellipsis
# line is a scene break or text of its own (RULES §3.3), never glued on.
_ORPHAN_MARKS = CONTINUING_MARKS + ".,!?;:"
_ORPHAN = re.compile(rf"^(?![.。]{{3,}}$)[{re.escape(_ORPHAN_MARKS)}]+$")
_ORPHAN_START = frozenset(_ORPHAN_MARKS)  # the one-character test before the regex
_LATIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
VERSE_LINE, VERSE_RUN = 15, 3
# What is left of a site's credit once its bracketed name is cut: 【txt80.com】整理 (全职高手's last line)
_CREDIT_LEFT = re.compile(r"^[\W_]*(?:收集)?(?:整理|制作|提供|转载|上传|首发|收集)(?:制作|提供)?[\W_]*$")


def drop_junk(
    blocks: tuple,
    patterns: tuple[JunkPattern, ...],
    counts: Counter,
    removed: list,
    text: str | None = None,
    off: frozenset[str] = frozenset(),
) -> tuple:
    """JK-1: drop site advertisements and pager lines; cut adverts out of the lines they hide in
    (bookbuilder.normalize.clean); drop lines that are not text (bookbuilder.normalize.debris), and
    the rest of a block of such lines. Every removal is appended to `removed` with its evidence
    (diagnostics.removal). `text`: the paragraphs joined by newlines, when the caller has them."""
    if text is None:
        text = "\n".join(b.text for b in blocks if type(b) is Paragraph)
    listed = bool(patterns_in(text, patterns))
    urls = _URLS(text)  # a URL, plain or disguised (clean.URL_HINT)
    marks = urls or _MARKS(text)  # or a site's strewn name (txt: clean.WATERMARK_HINT)
    debris_hint = debris_hints()
    hints = debris_hint(text)
    if not listed and not marks and not hints:
        return blocks
    boxed = _boxed_banners(blocks) if urls and "boxed-banner" not in off else set()
    worth = _lines_worth_a_look(blocks, text, patterns, debris_hint)
    out: list = []
    gone: list[int] = []  # indexes in `out` of lines dropped whole (None there), for the block rule
    for i, block in enumerate(blocks):
        if i in boxed:
            _record(
                counts,
                removed,
                "boxed-banner",
                block.text,
                block,
                "a box of lines around a URL or site words",
            )
            gone.append(len(out))
            out.append(None)
            continue
        if type(block) is Paragraph and (worth is None or i in worth):
            kept = _clean_paragraph(
                block,
                patterns,
                urls and "url-advert" not in off,
                marks,
                hints and debris_hint,
                counts,
                removed,
                off,
            )
            if kept is None:
                gone.append(len(out))
            out.append(kept)
            continue
        out.append(block)
    if gone and "debris-block" not in off:
        _debris_blocks(out, blocks, gone, counts, removed)
    if all(o is b for o, b in zip(out, blocks)):  # nothing taken: as the prefilters' early return leaves it
        return blocks
    return tuple(_tidy_breaks([b for b in out if b is not None]))


_LETTER_RUN = re.compile(LATIN_LOOKALIKE.pattern + "+")


def _lines_worth_a_look(blocks: tuple, text: str, patterns, debris_hint) -> set[int] | None:
    """The indexes of the blocks whose paragraph holds something a rule needs (a listed pattern's
    keyword, a letter, or a debris judge's hint), from scans of the whole chapter's text: most
    paragraphs of a download hold none, and are then not looked at one by one. None: every one."""
    if any(not p.keywords for p in patterns):
        return None  # a pattern with no keywords (book.toml's own) is searched in every line
    finder = keyword_finder(patterns) if patterns else None
    starts, where = [], []
    at = 0
    for i, block in enumerate(blocks):
        if type(block) is Paragraph:
            starts.append(at)
            where.append(i)
            at += len(block.text) + 1
    return lines_found(text, starts, where, [finder, _LETTER_RUN, *debris_hint.scans(text)])


def _clean_paragraph(
    block: Paragraph,
    patterns,
    urls: bool,
    marks: bool,
    hints,
    counts: Counter,
    removed: list,
    off: frozenset[str],
) -> Paragraph | None:
    """The paragraph without its debris, or None when nothing of it is left. `hints`: the debris
    judges' prefilter where the chapter holds one of their hints, else False."""
    line, changed = block.text, False
    patterns = patterns_in(
        line, patterns
    )  # the listed patterns whose keywords the line holds (most lines: none)
    has_url = urls and bool(find_urls(line))
    first, name = clean_line(line, patterns, has_url, leading=True) if patterns else (line, None)
    if name and not first:  # a line that is an advert from its start: dropped whole
        _record(counts, removed, name, line, block, _LISTED)
        return None
    joined: list[str] = []  # rules whose span an earlier overlapping one took in, longer
    spans = _outermost(
        inline_spans(line, patterns)
        + [(a, b, "url-advert:" + why) for a, b, why in (url_adverts(line) if has_url else ())]
        + (
            [(a, b, "form-debris:" + why) for a, b, why in form_debris(line)]
            if (hints or marks)
            and "form-debris" not in off
            and (hints and hints(line) or _LETTERS.search(line))
            else []
        ),
        joined,
    )
    if spans:  # adverts inside the line first: what is left is judged as a line
        for start, end, rule in spans:
            rule, _, evidence = rule.partition(":")
            _record(counts, removed, rule, line[start:end], block, evidence or _LISTED)
        counts.update("junk:" + rule.partition(":")[0] for rule in joined)  # they changed it too
        line, changed = cut(line, [(a, b) for a, b, _ in spans]), True
        if len(re.sub(r"[\W_]", "", line)) <= 2 and not HAN_RE.search(line) or _CREDIT_LEFT.match(line):
            line = ""  # A:, B:, * : the label the advert had; 整理: what its credit said it did
    kept, name = clean_line(line, patterns, has_url) if patterns and line else (line, None)
    if name:
        kept = kept and cut(
            kept, [(len(kept), len(kept))]
        )  # a bracket the cut-off tail opened: …心 ...［本章未完…］
        _record(counts, removed, name, line if not kept else line[len(kept) :].strip(), block, _LISTED)
        line, changed = kept or "", True
    if line and hints and hints(line):
        rule, evidence = judge_line(line, off)
        if rule:
            _record(counts, removed, rule, line, block, evidence)
            line, changed = "", True
    if line and marks and "site-watermark-line" not in off and site_watermark(line):
        _record(counts, removed, "site-watermark-line", line, block, "a site's name strewn with symbols")
        line, changed = "", True
    if not line:
        return None
    return Paragraph(line, block.at, block.indented) if changed else block


_LISTED = "listed in junk.toml"


def debris_hints():
    """The prefilter of the debris judges: built from the hints each declares (debris.LINE_JUDGES,
    forms.FORM_HINTS), so that a judge added with its hints is offered the lines they find. Asked
    for every chapter: kept while LINE_JUDGES is the same tuple (hashing every hint cost more)."""
    judges = debris.LINE_JUDGES
    if _BUILT_FROM[0] is not judges:
        _BUILT_FROM[:] = [judges, prefilter(tuple(h for judge in judges for h in judge.hints) + FORM_HINTS)]
    return _BUILT_FROM[1]


_BUILT_FROM: list = [None, None]  # debris_hints: the LINE_JUDGES it was built from, and its prefilter


def _debris_blocks(out: list, blocks: tuple, gone: list[int], counts: Counter, removed: list) -> None:
    """Where most lines of a run went as debris (a distributor's block, a download's header or
    footer), its other site lines go too: each kept paragraph with two removed lines among its
    four neighbours, and site words of its own (debris.in_debris_block). Until nothing changes."""
    dropped = set(gone)
    for _ in range(3):
        found = []
        for i in sorted({j for g in dropped for j in range(g - 2, g + 3)} - dropped):
            if 0 <= i < len(out) and type(out[i]) is Paragraph:
                near = [j for j in range(i - 2, i + 3) if j in dropped]
                both = any(j < i for j in near) and any(j > i for j in near)
                if len(near) >= 2 and (evidence := in_debris_block(out[i].text, len(near), both)):
                    found.append((i, evidence))
        if not found:
            return
        for i, evidence in found:
            _record(counts, removed, "debris-block", out[i].text, out[i], evidence)
            out[i] = None
            dropped.add(i)


def _record(
    counts: Counter, removed: list, rule: str, text: str, block: Paragraph, evidence: str = ""
) -> None:
    counts[f"junk:{rule}"] += 1
    removed.append(removal(rule, text, block.at, evidence))


_FRAME = "*＊|║│#＃"


def _boxed_banners(blocks: tuple) -> set[int]:
    """A site's banner drawn as a box (* … * lines between ***** rules) around a URL or site words:
    every line of the box. A box with neither is the story's and stays."""
    found: set[int] = set()
    run: list[int] = []
    for i, block in enumerate(blocks + (None,)):
        framed = (
            type(block) is Paragraph
            and len(block.text) > 2
            and block.text[0] in _FRAME
            and block.text[-1] == block.text[0]
        )
        if framed:
            run.append(i)
            continue
        if type(block) is SceneBreak and run:
            continue  # a box's empty row (* … *) or its rule
        if len(run) >= 2 and any(find_urls(blocks[j].text) or SITE_WORDS.search(blocks[j].text) for j in run):
            found.update(run)
        run = []
    return found


def _outermost(
    spans: list[tuple[int, int, str]], joined: list[str] | None = None
) -> list[tuple[int, int, str]]:
    """Spans that no other span contains (two rules on one advert: one removal, the wider), and
    spans that overlap made one (a URL's cut that reaches into the next advert's words), the
    other rule of each span so lengthened added to `joined`."""
    spans = sorted(spans, key=lambda s: (s[0], -s[1]))
    out: list[tuple[int, int, str]] = []
    for span in spans:
        if out and span[1] <= out[-1][1]:
            continue
        if out and span[0] < out[-1][1]:
            out[-1] = (out[-1][0], span[1], out[-1][2])
            if joined is not None and span[2].partition(":")[0] != out[-1][2].partition(":")[0]:
                joined.append(span[2])
            continue
        out.append(span)
    return out


def _tidy_breaks(blocks: list) -> list:
    """No scene break at either end of a chapter or next to another one (junk removal can leave them)."""
    out = []
    for block in blocks:
        if type(block) is SceneBreak and (not out or type(out[-1]) is SceneBreak):
            continue
        out.append(block)
    while out and type(out[-1]) is SceneBreak:
        out.pop()
    return out


_QUOTES = (("“", "”"), ("「", "」"), ("『", "』"))
# A line that ends so ends its sentence, or trails off (～, —): the next line is not joined to it.
_LINE_ENDS_SENTENCE = tuple(SENTENCE_END_MARKS + "～~—")


def attach_orphans(blocks: tuple) -> tuple[tuple, int]:
    """UW-2: a line of only closing punctuation (a lone 。) belongs to the line before it; so does
    the closing quote that starts a line with no quote of its own open, after a blank line and a
    line whose quote is left open (“他不是盲人。 / / ”阿诺说…: a site put the paragraph break
    inside the quote, 787 times in one real download)."""
    # Most chapters have none: a look at each line's first character tells, without rebuilding.
    if not any(type(b) is Paragraph and b.text[:1] in _ORPHAN_START for b in blocks):
        return blocks, 0
    out, changed = [], 0
    for block in blocks:
        if (
            type(block) is Paragraph
            and block.text[:1] in _ORPHAN_START
            and out
            and type(out[-1]) is Paragraph
        ):
            if _ORPHAN.match(block.text):
                out[-1] = Paragraph(out[-1].text + block.text, out[-1].at, out[-1].indented)
                changed += 1
                continue
            # across a blank line only: lines side by side are unwrapping's to join or keep
            if (
                block.at.line != out[-1].at.line + 1
                and (closer := _stray_closer(out[-1].text, block.text)) is not None
            ):
                out[-1] = Paragraph(out[-1].text + closer, out[-1].at, out[-1].indented)
                out.append(Paragraph(block.text[len(closer) :], block.at, block.indented))
                changed += 1
                continue
        out.append(block)
    return tuple(out), changed


def _stray_closer(before: str, line: str) -> str | None:
    """The closing quote `line` starts with, when it closes the quote `before` leaves open at a
    sentence's end and `line` opens none that it would close. (Where `before` ends mid-sentence,
    the break is a wrap inside the quote: unwrapping joins the lines whole.)"""
    if not before.endswith(_LINE_ENDS_SENTENCE):
        return None
    for opening, closing in _QUOTES:
        if line[0] == closing and len(line) > 1:
            rest = line[1:]
            if before.count(opening) > before.count(closing) and rest.count(closing) <= rest.count(opening):
                return closing
    return None


def unwrap(blocks: tuple) -> tuple[tuple, int]:
    """UW-1: join a line broken mid-sentence with the next one, guarded (RULES §3.2): the line ends
    without punctuation, has at least 10 characters, is not verse, and the next starts with Han or
    a continuation mark. In a hard-wrapped chapter a line of the wrap width always continues.
    The sample's break (剩下的还有七十多万人 / 马，…) is shorter than the median line, so a
    length-only rule like calibre's unwrap factor would miss it."""
    layout = read_layout(blocks)
    verse = _verse_indices(blocks)
    continues = layout.continues
    out: list = []
    changed = 0
    last: Paragraph | None = None  # the raw line that ends out[-1], when out[-1] is a paragraph
    for i, block in enumerate(blocks):
        if type(block) is not Paragraph:
            out.append(block)
            last = None
            continue
        if last is not None and (not verse or (i not in verse and i - 1 not in verse)):
            at, last_at = block.at, last.at
            if (
                last_at.path == at.path
                and continues(last.text, block, at.line == last_at.line + 1)
                and not (len(last.text) <= FIELD_LINE and _kept_apart(last.text, block.text))
                and not site_tail(last.text)
            ):
                prev = out[-1]
                sep = " " if last.text[-1:] in _LATIN and block.text[:1] in _LATIN else ""
                out[-1] = Paragraph(prev.text + sep + block.text, prev.at)
                changed += 1
                last = block
                continue
        out.append(block)
        last = block
    return (tuple(out) if changed else blocks), changed


_LAST_END = re.compile(rf"[{SENTENCE_END_MARKS}”」』][^{SENTENCE_END_MARKS}”」』]*$")
_LAST_SEPARATOR = re.compile(r"[-_|｜][^-_|｜]*$")
SITE_TAIL = (
    24  # characters after the line's last sentence: a name or a slogan's clauses, not a sentence's start
)
_FUNCTION_CHARS = re.compile("[的了是在和也都就把被着过]")  # a phrase's, not a name's: 学的是中文


def site_tail(text: str) -> str:
    """A site's words glued after a line's last sentence, with no end mark of their own (求月票！某某中文,
    ……”网盘搜索，找小说就是方便: a slogan whose URL the site cut): a site-like name, or clauses with
    two site or app words, and no story signs. Such a line ends its paragraph: the next line is not
    its sentence's rest, and normalize/repeats.py finds the tail by its repetition."""
    m = _LAST_END.search(text) or _LAST_SEPARATOR.search(text)  # 某书-第1章 风起-某某小说网: a page's title
    tail = (text[m.start() + 1 :] if m else text).strip(" \u3000")
    if not tail or len(tail) > SITE_TAIL or story_signs(tail) or not HAN_RE.search(tail) or find_urls(tail):
        # a URL is the URL rules' to cut, inside the sentence the next line goes on with (”怕手机访问：wap.…
        # / 什么…)
        return ""
    if SITE_NAME_ALONE.fullmatch(tail) and not _FUNCTION_CHARS.search(tail):
        return "a site's name after the last sentence"
    return "site words after the last sentence" if len(site_signals(tail)) >= 2 else ""


# ISBN：9787556205295 / 类型：武侠仙侠, 命题1号：煤是黑色的 / 命题2号：1+1=2: field lines and a list's items,
# one a line (三体II, 水滸全傳's rosters), never one sentence.
_FIELD_LABEL = re.compile(r"^[^\s：:，。！？“”「」]{1,6}[：:]")  # 搜索关键字：主角：… after 内容标签：…
_FIELD_LINE = re.compile(
    r"^[^\s：:，。！？“”「」]{1,6}[：:]\s*[^：:，。！？；“”「」]+$"
)  # no sentence in it: 姓倪的道：“… is one
FIELD_LINE = 40  # characters at most
_LABEL_ALONE = re.compile(
    r"^[【\[]?(?:文案|内容简介|內容簡介|简介|簡介|内容提要|作品简介)[】\]]?$"
)  # 作者：某某 / 文案 (魔道祖师)


# 《宇宙一级保护人鱼蛋》作者：糖莓, 《男主总被我撩弯[快穿]》桃华君: the title and its byline on one line, a
# field line too (else 文案： under it would be read as the author's name)
_BYLINE_LINE = re.compile(
    r"^《[^《》]{1,30}》\s*(?:(?:作者|作\s*者|著者)[:：]\s*[^：:，。！？；“”「」]+|[^：:，。！？；“”「」\s]{1,12})$"
)
_AUTHOR_LABEL = re.compile(r"^(?:作者|作\s*者|著者)\s*[:：]")
# 晋江's header labels, whose values hold more labels (搜索关键字：主角：某某 ┃ 配角：某某 ┃ 其它：)
_HEADER_LABEL = re.compile(r"^(?:搜索关键字|内容标签|一句话简介|立意|主角|配角|其它|其他)[：:]")


def _kept_apart(line: str, after: str) -> bool:
    """A header's lines are never joined (a short `line`, then `after`): a byline with whatever
    follows it (《狂神》 作者：唐家三少 over 第一册), a field line with a label under it (作者：某某 over
    文案：, or over a bare 文案), and a title line with 作者：某某 under it."""
    if _BYLINE_LINE.match(line):
        return True
    if _FIELD_LINE.match(line) or _HEADER_LABEL.match(line):
        return bool(_FIELD_LABEL.match(after) or _LABEL_ALONE.match(after))
    return bool(_AUTHOR_LABEL.match(after))


def _verse_indices(blocks: tuple) -> set[int]:
    """Runs of >= 3 adjacent short lines are verse (从明天起 / 做一个幸福的人): never joined."""
    verse: set[int] = set()
    run: list[int] = []
    previous_line = 0
    for i, block in enumerate(blocks):
        if type(block) is Paragraph and len(block.text) <= VERSE_LINE:
            line = block.at.line
            if run and line == previous_line + 1:
                run.append(i)
            else:
                if len(run) >= VERSE_RUN:
                    verse.update(run)
                run = [i]
            previous_line = line
        elif run:
            if len(run) >= VERSE_RUN:
                verse.update(run)
            run = []
    if len(run) >= VERSE_RUN:
        verse.update(run)
    return verse
