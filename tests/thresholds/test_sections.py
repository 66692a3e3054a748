"""Thresholds of how a file is cut and named (structure/chapters.py, sections.py, outdent.py,
couplets.py, page_headers.py, own_contents.py, meta.py, bylines.py, contents_file.py, file_titles.py): parts
and long chapters, titles told by layout or set as couplets, page headers, a source's own
contents, the title and author read from the text."""

from pathlib import Path

import pytest

from bookbuilder.model import Chapter, Location, Paragraph, Volume
from bookbuilder.structure import (
    bylines,
    chapters,
    contents_file,
    couplets,
    file_titles,
    folder_pages,
    meta,
    outdent,
    own_contents,
    page_headers,
    sections,
)
from bookbuilder.structure.headings import Heading
from bookbuilder.structure.passes import Choice
from bookbuilder.structure.sections import Section
from tests.thresholds.rows import PROSE, Threshold, as_lines, han_number, paragraphs_of, titles_in


def _notes(line: str) -> list[str]:
    text = "第一章 开始\n正文一句。\n" + line + "\n正文二句。\n第二章 继续\n正文三句。\n"
    return [d.code for d in sections.split_sections(text, "f.txt")[1]]


def _file_title(n: int):
    """What a file named 12.txt whose first line is n characters long is titled by that line."""
    blocks = (Paragraph("甲" * n, Location("12.txt", 1)), Paragraph("正文。", Location("12.txt", 2)))
    found = file_titles.title_line("12", blocks)
    return found and len(found[0])


def _margin_titles(titles: list[str], prose_lines: int = 40) -> int:
    """How many titles set at the margin over indented prose (`prose_lines` lines each) are taken."""
    return len(titles_in("".join(t + "\n" + PROSE * prose_lines for t in titles)))


_COUPLETS = [
    ("絕世奇事傳聞裡", "最好交情見面時"),
    ("東郭先生逢狼記", "西門大官喜酒時"),
    ("老子騎牛過函谷", "孔明揮扇借東風"),
    ("青山綠水長相伴", None),
]


def _couplets_read(k: int) -> int:
    """How many 回目 titles end with a second half, where k of four chapters set theirs on a second line."""
    text = ""
    for i, (first, second) in enumerate(_COUPLETS):
        below = f"{second}\n" if i < k and second else ""
        text += f"第{'一二三四'[i]}回 {first}\n{below}" + "這是一段正文，寫得很長很長很長。\n" * 5
    return sum(" " in t.split(" ", 1)[1] for t in titles_in(text))


def _parts_after(k: int) -> int:
    """How many parts a book of no volumes is divided into whose numbering starts again after k."""
    numbers = [*range(1, k + 1), 1, 2]
    at = Location("f.txt", 1)
    book = (Volume(None, tuple(Chapter(f"第{n}章", (), at, n) for n in numbers)),)
    return len(chapters.parts_at_restarts(book)[0])


def _parts_when_titled_again(share: float) -> int:
    """How many parts a book of two runs is divided into where `share` of the second run's four
    chapters are titled as the first run's are (第一章 again), the others by names of their own."""
    at = Location("f.txt", 1)
    first = [Chapter(f"第{n}章", (), at, n) for n in range(1, 12)]
    again = round(share * 4)
    second = [Chapter(f"第{n}章" if n <= again else f"第{n}章 新名{n}", (), at, n) for n in range(1, 5)]
    return len(chapters.parts_at_restarts((Volume(None, tuple(first + second)),))[0])


def _page_header_dropped(width: int, times: int = 5) -> bool:
    """Whether a line of `width` characters before each of `times` headings is dropped as a page header."""
    header = "古龙" + "甲" * (width - 2)
    text = "".join(
        f"{header}\n第{'一二三四五六七八九'[i]}章 风起\n" + "这是一段正文，写得很长很长很长。\n" * 5
        for i in range(times)
    )
    return "I303" in [d.code for d in sections.split_sections(text, "f.txt")[1]]


def _author_on_line(n: int) -> bool:
    """Whether an intro page's 作者：某某人 on its n-th line is read for the book's author."""
    texts = ["这是一段开头的介绍文字。"] * (n - 1) + ["作者：某某人"] + ["正文。"] * 3
    found, _, _ = meta.read_lines(tuple(Paragraph(t, Location("f.txt", k)) for k, t in enumerate(texts, 1)))
    return "author" in found


def _chapter_of(sizes: list[int], end: str = "。") -> Chapter:
    """A chapter of paragraphs of these sizes in characters, each ending with `end`."""
    blocks = tuple(
        Paragraph("天" * (n - len(end)) + end, Location("f.txt", k)) for k, n in enumerate(sizes, 1)
    )
    return Chapter("第一章 风起", blocks, Location("f.txt", 1), 1)


def _parts_of(total: int) -> int:
    """How many parts chapters.divide makes of a chapter of `total` characters in paragraphs of 1,000."""
    return len(chapters.divide(_chapter_of([1000] * (total // 1000) + [total % 1000] * (total % 1000 > 0))))


def _before_the_first_heading(n: int) -> str:
    """What a novel's text of n characters before its first heading is made: a blurb or the story's parts."""
    blocks = [
        Paragraph("天" * (min(1000, n - k) - 1) + "。", Location("f.txt", k)) for k in range(0, n, 1000)
    ]
    sections = [
        Section(None, blocks),
        Section(Heading("chapter", "第一章 风起", 1, 9999), [Paragraph("正文。", Location("f.txt", 9999))]),
    ]
    return chapters.file_parts("f.txt", sections, whole_novel=True)[0].title


def _gap_pieces(counts=(10, 10, 10), size=200, usual=0, gap=3, unended=0, last=None) -> int:
    """Into how many chapters chapters.at_gaps parts a headless text of pieces of `counts` paragraphs
    (of `size` characters, the last of each `last`), `usual` blank lines between paragraphs and `gap`
    between pieces; the first `unended` pieces end inside a sentence. 0: it is not parted."""
    blocks, line = [], 1
    for p, count in enumerate(counts):
        for k in range(count):
            n = last if last is not None and k == count - 1 else size
            end = "天" if p < unended and k == count - 1 else "。"
            blocks.append(Paragraph("天" * (n - 1) + end, Location("f.txt", line)))
            line += 1 + (usual if k < count - 1 else gap)
    return len(chapters.at_gaps(tuple(blocks)) or ())


def _gap_share(share: float) -> int:
    """Eleven pieces with as many paragraph breaks in all as make their ten gaps this share of them."""
    blocks = round(10 / share) + 1
    return _gap_pieces(tuple(blocks // 11 + (k < blocks % 11) for k in range(11)))


def _first_lines_titled(first_lines: list[str]) -> int:
    """How many of pieces opening with these lines (then their text) chapters._first_line_titles titles."""
    pieces = [
        [Paragraph(t, Location("f.txt", 1)), Paragraph("正文。", Location("f.txt", 2))] for t in first_lines
    ]
    return len(chapters._first_line_titles(pieces))


_LONG_PROSE = "天色将晚城门已闭行人匆匆赶路谁也不说一句话只听得脚步声响着走远" * 2


def _outdented(titles: int = 3, prose: int = 40, size: int = 31, indents: list[int] | None = None) -> int:
    """How many titles outdent.outdented_titles finds in a file of titles at the margin (天之歌, 地之歌 …),
    each over its share of `prose` lines of `size` characters indented 4 columns (or by `indents`)."""
    layout = []
    for t in range(titles):
        layout.append((0, "天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏"[t] + "之歌"))
        layout += [(4, _LONG_PROSE[:size])] * (prose // titles + (t < prose % titles))
    if indents:
        prose_at = [k for k, (width, _) in enumerate(layout) if width]
        for k, width in zip(prose_at, indents):
            layout[k] = (width, layout[k][1])
    width_of = {k: width for k, (width, _) in enumerate(layout, 1)}
    lines = [(k, True, text) for k, (_, text) in enumerate(layout, 1)]
    return len(outdent.outdented_titles(lines, width_of.__getitem__))


def _couplet_share(share: float) -> int:
    """How many 回目 titles end with a second half where three chapters set theirs on a second line and
    the others (no second half) make the three this share of the chapters whose title is one half."""
    text = ""
    for i in range(int(3 / share + 1e-9)):
        season = "春夏秋冬东南西北山水"[i]
        below = f"{season}雨打濕舊衣裳\n" if i < 3 else ""
        text += (
            f"第{han_number(i + 1)}回 {season}風吹過小橋邊\n{below}"
            + "這是一段正文，寫得很長很長很長。\n" * 5
        )
    return sum(" " in t.split(" ", 1)[1] for t in titles_in(text))


def _header_lines_found(rows: int, times: int = 5, chapters: int = 5) -> int:
    """How many lines page_headers drops where a header of `rows` lines stands over `times` of
    `chapters` headings."""
    texts, found = [], {}
    for c in range(1, chapters + 1):
        texts += [f"页眉{k}行" for k in range(rows)] if c <= times else []
        found[len(texts)] = Heading("chapter", f"第{c}章", c, len(texts))
        texts += [f"第{c}章", "正文一句话说完了。", "正文二句话说完了。"]
    return len(page_headers.page_headers(as_lines(texts), Choice(found, (), {}, {})))


def _contents_dropped(under: int = 1, later: int = 10) -> int:
    """How many entries of a contents (第1章 … 第4章, `under` lines under each) own_contents drops, where
    the same chapters come again later with `later` lines under each."""
    found, before, line = {}, {}, 0
    for n in [1, 2, 3, 4] * 2:
        found[line] = Heading("chapter", f"第{n}章 风起", n, line)
        before[line] = line
        line += (under if line < 4 * (under + 1) else later) + 1
    return len(own_contents._spaced_contents(found, before)[0])


def _contents_titles(share: float) -> int:
    """How many headings a 目录 of ten entries (游天山日记 …) gives where this share of them are found
    later, alone on their lines."""
    names = [f"游{c}山日记" for c in "天雁黄庐嵩华衡泰峨武"]
    texts = ["目录", *names, "前言说完了。"]
    texts += [t for name in names[: round(share * 10)] for t in (name, "正文一句话说完了。")]
    return len(sections.titles_from_contents(as_lines(texts), 0, {}))


def _name_dropped_at(n: int) -> bool:
    """Whether the book's name (侠客行) alone as the intro page's n-th paragraph is dropped from it."""
    texts = ["正文一句话说完了。"] * 6
    texts[n - 1] = "侠客行"
    return len(meta._without_the_name(paragraphs_of(texts), {"侠客行"})) == 5


def _byline_at(n: int):
    """The author a first chapter's n-th paragraph 作者：金庸 gives (None: too far down to be a header's)."""
    texts = ["正文一句话说完了。"] * 8
    texts[n - 1] = "作者：金庸"
    found = meta._byline_in(Chapter("第一章", paragraphs_of(texts), Location("f.txt", 1), 1))
    return found and found[0]["author"].value


def _list_found(others: int = 3, smaller: int = 0) -> bool:
    """Whether a folder's list.txt naming its `others` files is found as its contents, with
    `smaller` files of a sentence each smaller than the list."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        names = [f"风起云涌{k}" for k in range(others)]
        (root / "list.txt").write_text("\n".join(names) + "\n", "utf-8")
        for name in names:
            (root / f"{name}.txt").write_text("　　他走进院子，看见一棵老树。" * 40, "utf-8")
        for k in range(smaller):
            (root / f"短{k}.txt").write_text("好。", "utf-8")
        return contents_file.find(root) == root / "list.txt"


def _names_the_file(share: float) -> bool:
    """Whether the 目录.txt entry 甲乙丙丁戊己庚辛壬癸 names a file whose name shares this share of it."""
    k = round(share * 10)
    stem = "甲乙丙丁戊己庚辛壬癸"[:k] + "子丑寅卯辰巳午未申酉"[k:]
    return contents_file._named("甲乙丙丁戊己庚辛壬癸", [Path(stem + ".txt")]) is not None


def _repeated_heading_cut(n: int) -> str:
    """What is left of a first line opening with the chapter's title of n characters."""
    title = "甲" * n
    return chapters._drop_repeated_heading(
        title, [Paragraph(title + "清晨，我刚起床。", Location("f.txt", 1))]
    )[0].text


def _contents_of(k: int) -> int:
    """How many headings a 目录 of k entries (游天山日记 …) gives, each found later alone on its line."""
    names = [f"游{c}山日记" for c in "天雁黄庐嵩华衡泰峨武"][:k]
    texts = ["目录", *names, "前言说完了。"] + [t for name in names for t in (name, "正文一句话说完了。")]
    return len(sections.titles_from_contents(as_lines(texts), 0, {}))


def _noted(n: int) -> list[str]:
    """The notes on a file of n 第N章 headings, each over a line of text."""
    text = "".join(f"第{'一二三四五'[i]}章 风起\n正文一句。\n" for i in range(n))
    return [d.code for d in sections.split_sections(text, "f.txt")[1]]


def _parts_named_again(n: int) -> bool:
    """Whether n part headings in a row (上部 面壁者 …), each named again later (上部 面壁者危机 …), are a
    contents of parts."""
    names = ["上部 面壁者", "中部 咒语", "下部 黑暗森林", "终部 死神永生"][:n]
    accepted = {i: Heading("volume", t, None, i) for i, t in enumerate(names)}
    accepted |= {20 + i: Heading("volume", t + "危机", None, 20 + i) for i, t in enumerate(names)}
    return own_contents._named_again(list(range(n)), sorted(accepted), accepted)


def _repeats_dropped(gap: int) -> int:
    """How many headings own_contents drops as given again where `gap` lines stand between 第1章 风起
    and 第一章 【风起】 (the next chapter far below)."""
    found = {
        0: Heading("chapter", "第1章 风起", 1, 0),
        gap + 1: Heading("chapter", "第一章 【风起】", 1, gap + 1),
        gap + 12: Heading("chapter", "第2章 云涌", 2, gap + 12),
    }
    return len(own_contents.drop_contents(found, {i: i for i in found})[2])


def _copy_left_out(tail: str, tailed: int) -> bool:
    """Whether 第191章 given again right after itself, `tail` glued on `tailed` of its 20 lines, is
    left out as the copy (structure/chapters.py, without_repeats)."""
    texts = [f"他走进第{n}个院子，看见一棵老树。" for n in range(20)]

    def chapter(lines: list[str], at: int) -> Chapter:
        blocks = tuple(Paragraph(t, Location("f.txt", at + k)) for k, t in enumerate(lines))
        return Chapter("第191章 尸峰有赏", blocks, Location("f.txt", at), 191)

    copy = [t + tail if k < tailed else t for k, t in enumerate(texts)]
    _, repeats = chapters.without_repeats((Volume(None, (chapter(texts, 1), chapter(copy, 30))),))
    return bool(repeats)


def _empty_run_kept(share: float) -> bool:
    """Whether eleven chapters alone on their lines (第一章 … 第十一章, the download lacking their text)
    before 第十二章 … with theirs are kept as chapters, where round((1 - share) × 10) of the ten steps
    between their numbers go back (a pair given in the wrong order)."""
    order = list(range(1, 12))
    for k in range(round((1 - share) * 10)):
        a = 1 + 3 * k
        order[a], order[a + 1] = order[a + 1], order[a]
    text = "".join(f"第{han_number(n)}章 章名{n}\n\n" for n in order)
    text += "".join(f"第{han_number(n)}章 章名{n}\n" + PROSE * 3 for n in range(12, 15))
    return len([t for t in titles_in(text) if t.startswith("第")]) == 14


ROWS = [
    # chapters the download lacks the text of: most steps between their numbers number on
    Threshold(
        "own_contents.RUN_ON_SHARE", own_contents.RUN_ON_SHARE, _empty_run_kept, True, False, step=-0.1
    ),
    # a site's mark glued on a copy's lines: this long at most (longer may be a sentence of story) …
    Threshold("chapters.GLUED_TAIL", chapters.GLUED_TAIL, lambda n: _copy_left_out("乙" * n, 1), True, False),
    # … on a tenth of its lines at most
    Threshold(
        "chapters.TAILED_SHARE",
        chapters.TAILED_SHARE,
        lambda share: _copy_left_out("【某某网】", round(share * 20)),
        True,
        False,
        step=0.05,
    ),
    # a file named by its number only is titled by a first line this short
    Threshold("file_titles.TITLE_LINE", file_titles.TITLE_LINE, _file_title, file_titles.TITLE_LINE, None),
    # titles told by layout alone (structure/outdent.py): short lines at the margin, enough of them
    Threshold(
        "outdent.MAX_TITLE",
        outdent.MAX_TITLE,
        lambda n: _margin_titles(["甲" * (n - 1) + c for c in "一二三"]),
        3,
        0,
    ),
    Threshold(
        "outdent.MIN_TITLES",
        outdent.MIN_TITLES,
        lambda n: _margin_titles(["风起", "云涌", "雨落", "雪停"][:n]),
        outdent.MIN_TITLES,
        0,
        step=-1,
    ),
    # numbering that starts again at 1 after this many chapters divides the book into parts
    Threshold("chapters.RESTART_AFTER", chapters.RESTART_AFTER, _parts_after, 2, 1, step=-1),
    # ... and only where this share of a later run's chapters is titled as an earlier run's (第一章 again)
    Threshold(
        "chapters.REPEATED_TITLES", chapters.REPEATED_TITLES, _parts_when_titled_again, 2, 1, step=-0.25
    ),
    # a 回目 couplet on two lines is read as one title where this many chapters set theirs so
    Threshold(
        "couplets.COUPLETS_LEAST",
        couplets.COUPLETS_LEAST,
        _couplets_read,
        couplets.COUPLETS_LEAST,
        0,
        step=-1,
    ),
    # a page header: a short line repeated before several headings
    Threshold("page_headers.HEADER_LINE", page_headers.HEADER_LINE, _page_header_dropped, True, False),
    Threshold(
        "page_headers.HEADER_TIMES",
        page_headers.HEADER_TIMES,
        lambda n: _page_header_dropped(10, n),
        True,
        False,
        step=-1,
    ),
    # the lines of an intro page that may say the book's title or author
    Threshold("meta.OPENING_LINES", meta.OPENING_LINES, _author_on_line, True, False),
    # a line under a bare 第N回 taken for its title; a 第N章 line noted as a heading missed (I301)
    Threshold(
        "sections.TITLE_BELOW",
        sections.TITLE_BELOW,
        lambda n: len(
            titles_in(f"第一回\n{'甲' * n}\n正文一句话说完了。\n\n第二回\n又一个\n正文二句话说完了。\n")[0]
        ),
        4 + sections.TITLE_BELOW,
        3,
    ),
    Threshold(
        "sections.LOOK_ALIKE_LINE",
        sections.LOOK_ALIKE_LINE,
        lambda n: "I301" in _notes("第三章的内容他早已背熟，" + "甲" * (n - 13) + "。"),
        True,
        False,
    ),
    # a long chapter divided into parts (structure/chapters.py), and a blurb before the first heading
    Threshold("chapters.LONG_CHAPTER", chapters.LONG_CHAPTER, _parts_of, 1, 3),
    Threshold("chapters.PART_SIZE", chapters.PART_SIZE, lambda n: _parts_of(3 * n), 3, 4),
    Threshold(
        "chapters.PART_MAX",
        chapters.PART_MAX,
        lambda n: len(chapters.divide(_chapter_of([n, 50_000], end="天"))),
        2,
        1,
        step=-1,
    ),
    Threshold("chapters.INTRO_MAX", chapters.INTRO_MAX, _before_the_first_heading, "内容简介", "第一部分"),
    # a headless text's chapters set apart by runs of blank lines (chapters.at_gaps), titled by short
    # first lines
    Threshold("chapters.GAP_LEAST", chapters.GAP_LEAST, lambda n: _gap_pieces(gap=n), 3, 0, step=-1),
    Threshold(
        "chapters.GAP_EXTRA", chapters.GAP_EXTRA, lambda n: _gap_pieces(usual=2, gap=2 + n), 3, 0, step=-1
    ),
    Threshold(
        "chapters.GAP_CHAPTERS",
        chapters.GAP_CHAPTERS,
        lambda n: _gap_pieces((10,) * n),
        chapters.GAP_CHAPTERS,
        0,
        step=-1,
    ),
    Threshold("chapters.GAP_SHARE", chapters.GAP_SHARE, _gap_share, 11, 0, step=0.01),
    Threshold(
        "chapters.GAP_ENDED",
        chapters.GAP_ENDED,
        lambda share: _gap_pieces((10,) * 11, unended=10 - round(share * 10)),
        11,
        0,
        step=-0.1,
    ),
    Threshold(
        "chapters.GAP_MEDIAN",
        chapters.GAP_MEDIAN[0],
        lambda n: _gap_pieces(size=100, last=n - 900),
        3,
        0,
        step=-1,
    ),
    Threshold("chapters.GAP_TITLE", chapters.GAP_TITLE, lambda n: _first_lines_titled(["风" * n] * 3), 3, 0),
    Threshold(
        "chapters.GAP_TITLED",
        chapters.GAP_TITLED,
        lambda share: _first_lines_titled(["风起" if j < round(share * 6) else "天" * 30 for j in range(6)]),
        6,
        0,
        step=-1 / 6,
    ),
    # titles told by layout (outdent.outdented_titles): prose lines long enough and enough of them,
    # indented alike, titles not too many among the lines
    Threshold("outdent.PROSE_LINE", outdent.PROSE_LINE, lambda n: _outdented(size=n), 3, 0, step=-1),
    Threshold(
        "outdent.MIN_PROSE_LINES", outdent.MIN_PROSE_LINES, lambda n: _outdented(prose=n), 3, 0, step=-1
    ),
    Threshold(
        "outdent.PROSE_INDENT_ALIKE",
        outdent.PROSE_INDENT_ALIKE,
        lambda share: _outdented(prose=100, indents=[4] * round(share * 100) + [2] * 100),
        3,
        0,
        step=-0.01,
    ),
    Threshold(
        "outdent.MAX_TITLE_SHARE",
        outdent.MAX_TITLE_SHARE,
        lambda share: _outdented(titles=round(share * 50), prose=50 - round(share * 50)),
        17,
        0,
        step=0.02,
    ),
    # couplet titles (structure/couplets.py): a half's length, the halves' difference, how many set so
    Threshold(
        "couplets.HALF",
        couplets.HALF[0],
        lambda n: couplets._one_half("第二回 " + "甲" * n),
        "甲" * 4,
        None,
        step=-1,
    ),
    Threshold(
        "couplets.HALF", couplets.HALF[1], lambda n: couplets._one_half("第二回 " + "甲" * n), "甲" * 12, None
    ),
    Threshold(
        "couplets.HALF_SLACK",
        couplets.HALF_SLACK,
        lambda n: couplets._half_line("甲" * (7 + n), 7),
        True,
        False,
    ),
    Threshold("couplets.COUPLETS_SHARE", couplets.COUPLETS_SHARE, _couplet_share, 3, 0, step=-0.08),
    # a page header: this many lines high at most, over this share of the headings at least
    Threshold(
        "page_headers.HEADER_LINES",
        page_headers.HEADER_LINES,
        lambda n: _header_lines_found(n) == 5 * n,
        True,
        False,
    ),
    Threshold(
        "page_headers.HEADER_SHARE",
        page_headers.HEADER_SHARE,
        lambda share: _header_lines_found(1, round(share * 20), 20),
        6,
        0,
        step=-0.05,
    ),
    # a source's own contents: a line or two under each entry, the chapters later with their text
    Threshold("own_contents.SPACED_GAP", own_contents.SPACED_GAP, lambda n: _contents_dropped(under=n), 4, 0),
    Threshold("own_contents.REPEAT_GAP", own_contents.REPEAT_GAP, _repeats_dropped, 1, 0),
    Threshold(
        "own_contents.LATER_GAP", own_contents.LATER_GAP, lambda n: _contents_dropped(later=n), 4, 0, step=-1
    ),
    Threshold("sections.CONTENTS_FOUND", sections.CONTENTS_FOUND, _contents_titles, 15, 0, step=-0.1),
    # the intro page's name line, a first chapter's byline (structure/meta.py)
    Threshold("meta.NAME_LINES", meta.NAME_LINES, _name_dropped_at, True, False),
    Threshold("meta.BYLINE_LINES", meta.BYLINE_LINES, _byline_at, "金庸", None),
    # a folder's page title: the line most of its first files open with (structure/folder_pages.py)
    Threshold(
        "folder_pages.PAGE_TITLE_FILES",
        folder_pages.PAGE_TITLE_FILES,
        lambda n: folder_pages.page_title(["天涯客"] * n),
        "天涯客",
        "",
        step=-1,
    ),
    Threshold(
        "folder_pages.PAGE_TITLE_SHARE",
        folder_pages.PAGE_TITLE_SHARE,
        lambda share: folder_pages.page_title(
            ["天涯客"] * round(share * 10) + [f"第{k}行字" for k in range(10 - round(share * 10))]
        ),
        "天涯客",
        "",
        step=-0.1,
    ),
    Threshold(
        "folder_pages.PAGE_TITLE_MOST",
        folder_pages.PAGE_TITLE_MOST,
        lambda n: len(folder_pages.page_title(["甲" * n] * 5)),
        40,
        0,
    ),
    # a contents file not named so: among the folder's smallest files, beside enough others
    Threshold("contents_file.LIST_LEAST", contents_file.LIST_LEAST, _list_found, True, False, step=-1),
    Threshold(
        "contents_file.LIST_CANDIDATES",
        contents_file.LIST_CANDIDATES,
        lambda n: _list_found(6, smaller=n - 1),
        True,
        False,
    ),
    # a contents file's list with no 目录 line above it: every line an entry's length
    Threshold(
        "contents_file.ENTRY_MOST",
        contents_file.ENTRY_MOST,
        lambda n: contents_file._a_list(["甲" * n, "乙乙"]),
        True,
        False,
    ),
    # a byline's name: set apart from 著, and glued to it under the title (structure/bylines.py)
    Threshold(
        "bylines.NAME_MOST",
        bylines.NAME_MOST,
        lambda n: bylines.byline_author("甲" * n + " 著"),
        "甲" * 16,
        "",
    ),
    Threshold(
        "bylines.GLUED_NAME_MOST",
        bylines.GLUED_NAME_MOST,
        lambda n: bylines.glued_author("甲" * n + "著"),
        "甲" * 6,
        "",
    ),
    # a 目录.txt's entry names the file whose name is this like it (difflib's ratio)
    Threshold("contents_file.SIMILAR", contents_file.SIMILAR, _names_the_file, True, False, step=-0.1),
    Threshold("meta.AUTHOR_MOST", meta.AUTHOR_MOST, lambda n: len(meta.author_value("甲" * n)), 20, 0),
    Threshold(
        "meta.TITLE_MOST",
        meta.TITLE_MOST,
        lambda n: meta._bare_title(Paragraph("甲" * n, Location("f.txt", 1))),
        True,
        False,
    ),
    Threshold(
        "chapters.TITLE_PREFIX",
        chapters.TITLE_PREFIX,
        _repeated_heading_cut,
        "清晨，我刚起床。",
        "甲甲清晨，我刚起床。",
        step=-1,
    ),
    Threshold("sections.CONTENTS_ENTRIES", sections.CONTENTS_ENTRIES, _contents_of, 6, 0, step=-1),
    Threshold("sections.NOTED_HEADINGS", sections.NOTED_HEADINGS, _noted, ["I304"], [], step=-1),
    Threshold(
        "own_contents.CONTENTS_RUN", own_contents.CONTENTS_RUN, _parts_named_again, True, False, step=-1
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=[t.constant for t in ROWS])
def test_each_threshold_decides_at_its_value_and_not_one_step_past(row):
    row.check()
