"""Sections of decoded files → volumes and chapters with titles (docs/rules.md §4).

A folder of files: each file is a chapter (or several, if it holds several headings), each
sub-folder a volume. One whole-novel file: split at headings; 卷/部/集/篇 headings open volumes,
and a preamble (书名：, 作者：, 内容简介) fills metadata and becomes an introduction page.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from bookbuilder.decode.names import readable_name
from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Chapter, Location, Paragraph, Volume
from bookbuilder.numerals import NUMERAL_RUN, to_chinese
from bookbuilder.structure.file_order import file_number
from bookbuilder.structure.file_titles import title_line
from bookbuilder.structure.headings import (
    HALF_VOLUME,
    VOLUME_UNIT,
    Heading,
    classify_heading,
    normalize_title,
)
from bookbuilder.structure.meta import describes
from bookbuilder.structure.sections import Section
from bookbuilder.vocabulary import CLOSING_QUOTES, SENTENCE_END_MARKS

_HASH = re.compile(r"[_\-.\s]*[0-9a-fA-F]{8,}$")
_LEADING_NUMBER = re.compile(r"^[0-9０-９]+[_\-.\s]*")
# 楔子 楔子 张天师祈禳瘟疫….txt: a site's section label, then the title that opens with it again
_LABEL_TWICE = re.compile(r"^(\S+)\s+\1(?=\s|$)")
INTRO_TITLE = "内容简介"
INTRO_MAX = 20_000  # characters: text before the first heading longer than this is story, not a blurb
# A chapter over LONG_CHAPTER characters (or a book without headings) is divided at paragraph ends
# into parts of PART_SIZE on average, none over PART_MAX: a reader's contents needs entries, and an
# e-reader pages slowly through one multi-megabyte document.
LONG_CHAPTER = 100_000
PART_SIZE = 40_000
PART_MAX = 60_000
# Where a long chapter may be cut: after a sentence, its closing quote or parenthesis.
_CUT_AFTER = tuple(SENTENCE_END_MARKS + CLOSING_QUOTES + "’）")


@dataclass(frozen=True)
class VolumeHeading:
    """A 卷/部/集/篇 heading inside a file: it opens a volume (or names its sub-folder's one)."""

    title: str
    at: Location
    opens_file: bool  # the file's first section
    by_hand: bool = False  # book.toml's [[volume]]: it opens a volume even where one of its name is open


Part = VolumeHeading | Chapter


def file_parts(path: str, sections: list[Section], *, whole_novel: bool) -> list[Part]:
    """One file's sections as the parts of the book it holds, in order. A pure function of the
    file, so it runs on whichever process reads the file; Assembly.take puts files together."""
    name = path.rsplit("/", 1)[-1]
    number_in_name = None if whole_novel else file_number(name)
    parts: list[Part] = []
    headless = all(section.heading is None for section in sections)
    for i, section in enumerate(sections):
        heading = section.heading
        if heading is None:
            if not section.blocks:
                continue
            text = Chapter("", tuple(section.blocks), Location(path, section.blocks[0].at.line))
            if whole_novel and (headless or text.chars > INTRO_MAX):
                parts += divide(text, headless=True)
            elif whole_novel:
                parts += _preamble_parts(path, section)
            elif _describes_the_book(section.blocks):
                parts.append(Chapter(INTRO_TITLE, tuple(section.blocks), Location(path, 1), kind="intro"))
            elif i == 0 and (titled := title_line(readable_name(name.rsplit(".", 1)[0]), section.blocks)):
                # Chapter12.txt over *說楔子敷陳大義　借名流隱括全文: the name gives the number, the line the
                # title
                parts.append(
                    Chapter(titled[0], titled[1], section.blocks[0].at, number_in_name, number_in_name)
                )
            elif headless and (named := volume_in_name(readable_name(name.rsplit(".", 1)[0]))) is not None:
                # 上卷 第一回 王教头私走延安府.txt: its volume opens (once), the rest titles it
                parts += [
                    VolumeHeading(named.volume, Location(path, 1), opens_file=i == 0),
                    Chapter(
                        named.title, tuple(section.blocks), Location(path, 1), named.number, number_in_name
                    ),
                ]
            else:
                # at its first line of text: a file that opens with blank lines has no title line there
                first = Location(path, section.blocks[0].at.line)
                parts.append(Chapter("", tuple(section.blocks), first, None, number_in_name))
            continue
        at = Location(path, heading.line)
        if heading.volume:  # 第十三卷 风雪 第2040章 不归: the volume opens here, unless it is open already
            parts.append(VolumeHeading(heading.volume, at, opens_file=i == 0))
        if heading.kind == "volume":
            parts.append(VolumeHeading(heading.title, at, opens_file=i == 0))
            if (
                section.blocks
            ):  # text right under a volume heading: the volume's own page (in parts, if a whole book's long)
                parts += divide(
                    Chapter(heading.title, tuple(section.blocks), at, None, None, "front", section.decided_by)
                )
            continue
        blocks = _drop_repeated_heading(heading.title, section.blocks, heading.volume)
        kind = "chapter" if heading.kind == "chapter" else heading.kind
        parts += divide(
            Chapter(heading.title, blocks, at, heading.number, number_in_name, kind, section.decided_by)
        )
    return parts


def volume_in_name(stem: str) -> Heading | None:
    """The chapter heading a chapter file's name spells out with its volume before it (上卷 第一回
    王教头私走延安府, a folder of 121 files whose texts hold no heading), or None. The name is judged
    as a heading line is, strong candidates only; a name without a volume leaves its chapter to be
    titled by the name whole (title_from_file)."""
    heading = classify_heading(stem.strip(), 1)
    return heading if heading is not None and heading.kind == "chapter" and heading.volume else None


def divide(chapter: Chapter, headless: bool = False) -> list[Chapter]:
    """A chapter over LONG_CHAPTER characters as parts cut after a sentence's end (the first keeps
    the chapter's number; the others are of kind "part"); a headless text at any length, first at
    the runs of blank lines that set its chapters apart, if it has them (at_gaps)."""
    total = chapter.chars
    if headless:
        gap_pieces = at_gaps(chapter.blocks) or [list(chapter.blocks)]
        titles = _first_line_titles(gap_pieces)
        pieces, named = [], []  # named: per piece, its title line (None: numbered 第N部分)
        for gap_piece, title in zip(gap_pieces, titles or [None] * len(gap_pieces)):
            parts = _by_size(gap_piece[1:] if title else gap_piece, PART_MAX)
            pieces += parts
            named += [title] + [None] * (len(parts) - 1)
        if len(pieces) == 1 and not titles:
            return [replace(chapter, title="第一部分")] if total else []
    elif total <= LONG_CHAPTER:
        return [chapter]
    else:
        pieces = _by_size(list(chapter.blocks), LONG_CHAPTER)
    out = []
    for k, blocks in enumerate(pieces, 1):
        line = named[k - 1] if headless else None
        title = (
            line.text
            if line
            else f"第{to_chinese(k)}部分"
            if headless
            else f"{chapter.title}（{to_chinese(k)}）"
        )
        at = line.at if line else chapter.at if k == 1 else blocks[0].at
        out.append(
            Chapter(
                title,
                tuple(blocks),
                at,
                chapter.number if k == 1 else None,
                chapter.file_number,
                chapter.kind if k == 1 else "part",
                chapter.decided_by if k == 1 else None,
            )
        )
    return out


GAP_TITLE = 20  # characters: the longest first line taken for a piece's title
GAP_TITLED = 2 / 3  # of the pieces, at least, that open with one


def _first_line_titles(pieces: list[list]) -> list[Paragraph | None]:
    """Pieces parted by blank lines whose first lines are titles (安徒生童话 from a download: 飞箱,
    丑小鸭, 红鞋, each over its tale): those title lines, one per piece (None where a piece has
    none), or [] when too few pieces open with a short line that is no sentence."""

    def title(piece: list) -> Paragraph | None:
        first = piece[0] if len(piece) > 1 else None
        if type(first) is not Paragraph or len(first.text) > GAP_TITLE or type(piece[1]) is not Paragraph:
            return None
        text = first.text
        return None if text.endswith(_GAP_ENDS + tuple("，、；：,;:")) or "。" in text else first

    found = [title(piece) for piece in pieces]
    return found if len(pieces) > 1 and sum(t is not None for t in found) >= GAP_TITLED * len(pieces) else []


def _by_size(blocks: list, longest: int) -> list[list]:
    """Blocks of over `longest` characters cut after a sentence's end into parts of PART_SIZE on
    average, none over PART_MAX; shorter ones as they are."""
    total = sum(len(b.text) for b in blocks if type(b) is Paragraph)
    if total <= longest:
        return [blocks]
    count = -(-total // PART_SIZE)
    target = total / count
    pieces, current, size = [], [], 0
    for block in blocks:
        current.append(block)
        if type(block) is Paragraph:
            size += len(block.text)
            if (size >= target and block.text.endswith(_CUT_AFTER)) or size >= PART_MAX:
                pieces.append(current)
                current, size = [], 0
    if current:
        if pieces and size < target / 2:
            pieces[-1] += current  # a short tail joins the part before it
        else:
            pieces.append(current)
    return pieces


# A download whose scraper dropped the chapter titles may still set its chapters apart by runs of
# blank lines far longer than those between its paragraphs (剑来 from a crawler: 98 chapters, each
# after 8 or 9 blank lines, none inside one). Such a run is where a chapter ends when the runs are
# few beside the paragraph breaks and the pieces between them are the size of chapters.
GAP_EXTRA = 2  # blank lines more than the usual run between two paragraphs
GAP_LEAST = 3  # blank lines at least
GAP_CHAPTERS = 3  # pieces at least
GAP_SHARE = 0.1  # of the paragraph breaks, at most
GAP_MEDIAN = (1_000, PART_MAX)  # characters: the median piece's size
GAP_ENDED = 0.9  # of the runs, at least, after a finished sentence (or a scene break)
_GAP_ENDS = _CUT_AFTER + tuple(".~～")  # before normalization: …… may still be typed ......


def at_gaps(blocks: tuple) -> list[list] | None:
    """The blocks cut at their long runs of blank lines (read from their source lines), or None
    when the text has no such runs, or they do not part it into chapter-sized pieces."""
    lines = [b.at.line or 0 for b in blocks]
    runs = [after - before - 1 for before, after in zip(lines, lines[1:])]
    if not runs:
        return None
    usual = max(set(runs), key=runs.count)
    cuts = [i + 1 for i, run in enumerate(runs) if run >= max(usual + GAP_EXTRA, GAP_LEAST)]
    if len(cuts) + 1 < GAP_CHAPTERS or len(cuts) > GAP_SHARE * len(runs):
        return None
    ended = sum(type(blocks[i - 1]) is not Paragraph or blocks[i - 1].text.endswith(_GAP_ENDS) for i in cuts)
    if ended < GAP_ENDED * len(cuts):
        return None  # a page's break, as a PDF's text has them, falls inside a sentence
    pieces = [list(blocks[a:b]) for a, b in zip([0] + cuts, cuts + [len(blocks)])]
    sizes = sorted(sum(len(b.text) for b in piece if type(b) is Paragraph) for piece in pieces)
    return pieces if GAP_MEDIAN[0] <= sizes[len(sizes) // 2] <= GAP_MEDIAN[1] else None


@dataclass
class Assembly:
    """Volumes as they are built from the files' parts, in order; titles of headless chapters
    are filled in at the end."""

    volumes: list[tuple[str | None, Location | None, list[Chapter]]] = field(default_factory=list)

    def open_volume(self, title: str | None, at: Location | None) -> None:
        if self.volumes and not self.volumes[-1][2] and self.volumes[-1][0] is None:
            self.volumes.pop()  # an empty untitled volume before the first 卷 heading
        self.volumes.append((title, at, []))

    def add(self, chapter: Chapter) -> None:
        if not self.volumes:
            self.volumes.append((None, None, []))
        self.volumes[-1][2].append(chapter)

    def take(self, parts: list[Part], *, volume_from_folder: bool) -> None:
        for part in parts:
            if isinstance(part, Chapter):
                self.add(part)
            else:
                if self.volumes and not part.by_hand and _same_volume(self.volumes[-1][0], part.title):
                    current = self.volumes[
                        -1
                    ]  # the open volume named again (on a chapter's line, a page header)
                    if len(part.title) > len(current[0]):
                        self.volumes[-1] = (part.title, current[1], current[2])  # 第二篇 → 第二篇 巡天使
                    continue
                if volume_from_folder and part.opens_file and self.volumes and not self.volumes[-1][2]:
                    self.volumes[-1] = (
                        part.title,
                        part.at,
                        [],
                    )  # 第N卷 heading of a sub-folder volume names it
                else:
                    self.open_volume(part.title, part.at)


_VOLUME_LABEL = re.compile(rf"(?:第\s*{NUMERAL_RUN}\s*{VOLUME_UNIT}|卷\s*{NUMERAL_RUN}|^{HALF_VOLUME})")


def volume_label(title: str) -> str:
    """第二篇 巡天使 → 第二篇: what names a volume however its title is spelled out."""
    return "".join(m.group(0).replace(" ", "") for m in _VOLUME_LABEL.finditer(title)) if title else ""


def _same_volume(open_title: str | None, title: str) -> bool:
    if open_title is None:
        return False
    if open_title == title:
        return True
    label = volume_label(title)
    return bool(label) and label == volume_label(open_title)


def _drop_repeated_heading(title: str, blocks: list, volume: str | None = None) -> tuple:
    """A heading repeated as the first body line is dropped (RULES §4.3); repeated at the start
    of the first paragraph (第二部【青云路】第一章【委任】清晨，我刚起床…), it is cut off it."""
    if not blocks or not isinstance(blocks[0], Paragraph):
        return tuple(blocks)
    first = blocks[0]
    if normalize_title(first.text) == title:
        return tuple(blocks[1:])
    for prefix in ((volume or "") + title, title) if volume else (title,):
        target = _HEADING_KEY.sub("", _PART_MARK.sub("", prefix))
        end = _after_prefix(first.text, target) if len(target) >= TITLE_PREFIX else None
        if end is not None and first.text[end:].strip():
            return (Paragraph(first.text[end:].lstrip(), first.at, first.indented),) + tuple(blocks[1:])
    return tuple(blocks)


TITLE_PREFIX = 3  # characters of a title, at least, for a first line opening with it to lose it
_HEADING_KEY = re.compile(r"[\s【】\[\]「」:：、·]")  # what a heading's spelling varies in
_PART_MARK = re.compile(r"\s*[（(](?:上|中|下|\d{1,2})[)）]$")


def _after_prefix(text: str, target: str) -> int | None:
    """Where `text` continues after spelling out `target` (its spaces and brackets aside), or None."""
    k = 0
    for i, c in enumerate(text):
        if k == len(target):
            return i + (1 if c in "】]」" else 0)
        if _HEADING_KEY.match(c):
            continue
        if c != target[k]:
            return None
        k += 1
    return None


def _preamble_parts(path: str, section: Section) -> list[Part]:
    """Text before a whole novel's first heading: its intro page, where bookbuilder.structure.meta reads
    书名：/作者：/内容简介 once cleaning is done (and drops those lines)."""
    if not any(isinstance(b, Paragraph) for b in section.blocks):
        return []
    return [
        Chapter(INTRO_TITLE, tuple(section.blocks), Location(path, section.blocks[0].at.line), kind="intro")
    ]


def _describes_the_book(blocks) -> bool:
    """A headless chapter file that opens with 书名：/作者：/内容简介 (a folder's first file): an intro."""
    return any(isinstance(b, Paragraph) and describes(b.text) for b in blocks[:5])


def finish(asm: Assembly, polish: Callable[[str], str] = str) -> tuple[Volume, ...]:
    """Give headless chapters a title: the file name without number and hash, else 第N章 by position;
    `polish` is what normalization does to a title (chapters may be normalized before this)."""
    volumes, position = [], 0
    for title, at, chapters in asm.volumes:
        done = []
        for chapter in chapters:
            if chapter.kind == "chapter":
                position += 1
            if not chapter.title:
                chapter = replace(
                    chapter, title=polish(title_from_file(chapter.at.path) or f"第{to_chinese(position)}章")
                )
            done.append(chapter)
        volumes.append(Volume(title, tuple(done), at))
    return tuple(volumes)


def without_repeats(
    volumes: tuple[Volume, ...],
) -> tuple[tuple[Volume, ...], dict[int, tuple[Chapter, Chapter]]]:
    """The book without the chapters that repeat an earlier one word for word, title and text (a
    crawler run twice over the same chapters, appending: 149 of 427 chapters in one real file),
    and position in the book → (the chapter left out, the one it repeats). A volume left with no
    chapter goes too."""
    seen: dict[tuple, Chapter] = {}
    repeats: dict[int, tuple[Chapter, Chapter]] = {}
    kept_volumes, position = [], 0
    for volume in volumes:
        kept = []
        for chapter in volume.chapters:
            blocks = chapter.blocks  # the key looks at the ends only; the whole text where two keys meet
            key = (
                (
                    chapter.title,
                    len(blocks),
                    getattr(blocks[0], "text", None),
                    getattr(blocks[-1], "text", None),
                )
                if blocks
                else None
            )
            earlier = seen.get(key) if key else None
            if (
                earlier is None
                and kept
                and blocks
                and chapter.number is not None
                and kept[-1].number == chapter.number
                and chapter.title.startswith(kept[-1].title)
            ):
                # the copy right after, renamed by a crawler (第一百二十七章 分宝, then 分宝1 biqukan.com …)
                earlier = kept[-1]
            if earlier is not None and (
                _texts(earlier) == _texts(chapter)
                or (earlier is kept[-1] and _same_but_tails(earlier, chapter))
            ):
                repeats[position] = (chapter, earlier)
            else:
                if key:
                    seen.setdefault(key, chapter)
                kept.append(chapter)
            position += 1
        if kept or not volume.chapters:
            kept_volumes.append(
                replace(volume, chapters=tuple(kept)) if len(kept) < len(volume.chapters) else volume
            )
    return (tuple(kept_volumes) if repeats else volumes), repeats


def _texts(chapter: Chapter) -> list[str | None]:
    return [b.text if type(b) is Paragraph else None for b in chapter.blocks]


GLUED_TAIL = 40  # characters a site's mark glued on a paragraph's end takes, at most (【愛↑去△小↓說△網w qu】)
TAILED_SHARE = 0.1  # of the copy's paragraphs at most, where one text has such a tail the other lacks
_SENTENCE_END = re.compile(f"[{re.escape(SENTENCE_END_MARKS + CLOSING_QUOTES)}]")


def _same_but_tails(earlier: Chapter, chapter: Chapter) -> bool:
    """The copy right after (第191章 尸峰有赏 twice, 一念永恒 from biqukan) is word for word the chapter
    before but for a site's mark glued on the end of a few paragraphs, in either: each such tail
    short and no sentence's (no sentence ends in it), so that leaving the copy out loses no story."""
    a, b = _texts(earlier), _texts(chapter)
    if len(a) != len(b) or not a:
        return False
    tailed = 0
    for x, y in zip(a, b):
        if x == y:
            continue
        if x is None or y is None:
            return False
        short, long = (x, y) if len(x) < len(y) else (y, x)
        tail = long[len(short) :]
        if not short or not long.startswith(short) or len(tail) > GLUED_TAIL or _SENTENCE_END.search(tail):
            return False
        tailed += 1
    return tailed <= TAILED_SHARE * len(a)


RESTART_AFTER = 10  # chapters: numbering that starts again at 1 after this many marks a new run
# of a later run's chapters, at least, titled as a chapter of an earlier run is (第一章, Chapter 1, 1): the
# contents would give the same entries again, and only a part above them tells them apart
REPEATED_TITLES = 0.5


def parts_at_restarts(volumes: tuple[Volume, ...]) -> tuple[tuple[Volume, ...], list[Diagnostic]]:
    """A book of no volumes whose chapter numbers start again at 1 (I306). Where the later runs'
    chapters are titled as the earlier ones' (平凡的世界: three parts of 第一章 … 第五十四章, bare,
    with no 部 heading in the download) the book is divided there into parts titled 第一部分,
    第二部分, …: its contents are three lists, not one that has 第一章 three times. Where the
    titles tell the chapters apart (大漠谣's 第一章 往事 … then 第一章 绑架 …, a scrape's latest
    chapters before its first ones: 第1303章 惨烈, then 第一章 他叫白小纯), the text names no part and
    readers expect none: the contents stay one list, as the text gives them."""
    if len(volumes) != 1 or volumes[0].title is not None:
        return volumes, []
    groups = _runs_from_one(volumes[0].chapters)
    if len(groups) == 1:
        return volumes, []
    again = "once" if len(groups) == 2 else f"{len(groups) - 1} times"
    said = f"the chapter numbers start again at 1 ({again}) with no volume heading: "
    if not _titled_again(groups):
        note = Diagnostic(
            "I306", said + "the chapters' titles tell them apart, so no part is made", groups[1][0].at
        )
        return volumes, [note]
    divided = tuple(
        Volume(f"第{to_chinese(k)}部分", tuple(group), group[0].at) for k, group in enumerate(groups, 1)
    )
    note = Diagnostic(
        "I306",
        said + f"divided into {len(groups)} parts, 第一部分 to 第{to_chinese(len(groups))}部分",
        groups[1][0].at,
    )
    return divided, [note]


def _runs_from_one(chapters: tuple[Chapter, ...]) -> list[list[Chapter]]:
    """The chapters cut where their numbers start again at 1 after RESTART_AFTER or more."""
    groups: list[list[Chapter]] = [[]]
    highest = 0
    for chapter in chapters:
        if chapter.kind == "chapter" and chapter.number == 1 and highest >= RESTART_AFTER:
            groups.append([])
            highest = 0
        if chapter.kind == "chapter" and chapter.number is not None:
            highest = max(highest, chapter.number)
        groups[-1].append(chapter)
    return groups


def _titled_again(groups: list[list[Chapter]]) -> bool:
    """Whether each later run has REPEATED_TITLES of its numbered chapters titled as an earlier
    run's are (spaces aside)."""
    seen: set[str] = set()
    for k, group in enumerate(groups):
        titles = [chapter.title.replace(" ", "") for chapter in group if chapter.number is not None]
        if k and sum(title in seen for title in titles) < REPEATED_TITLES * len(titles):
            return False
        seen.update(titles)
    return True


def title_from_file(path: str) -> str:
    stem = readable_name(path.rsplit("/", 1)[-1].rsplit(".", 1)[0])
    return normalize_title(_LABEL_TWICE.sub(r"\1", _HASH.sub("", _LEADING_NUMBER.sub("", stem))))
