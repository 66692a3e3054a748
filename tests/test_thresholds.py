"""A fixture on each side of the thresholds that decide what cleaning removes and what is a
heading (issue 45): each row names its constant, and probes the rule at the constant and one
step past it, where the answer must change. A constant moved, or a rule that stops reading it,
fails its row.

Every upper-case numeric constant of normalize/ and structure/ has a row (a tuple's bounds one row
each, or its lower bound where the upper is another constant's). A constant for which no input
lets the limit alone decide (another rule decides first) would be named in NO_FIXTURE with why;
test_every_threshold_is_named fails on a new constant in neither, and test_no_bare_number_decides
on a number other than 0, 1, 2, -1 written in a comparison there (a threshold with no name)."""

import ast
import importlib
import tempfile
from pathlib import Path
from typing import NamedTuple

import pytest

import bookbuilder
from bookbuilder.model import Book, Chapter, Location, Meta, Paragraph, Volume
from bookbuilder.normalize import chars, clean, debris, forms, junk, layout, lines, repeats
from bookbuilder.pipeline import load_book
from bookbuilder.structure import (
    chapters,
    contents_file,
    couplets,
    few_headings,
    file_titles,
    heading_choice,
    headings,
    meta,
    outdent,
    own_contents,
    page_headers,
    pastes,
    sections,
)
from bookbuilder.structure.headings import Heading
from bookbuilder.structure.passes import Choice
from bookbuilder.structure.sections import Section


class Threshold(NamedTuple):
    constant: str  # module.NAME
    value: int
    probe: object  # n → what the rule makes of an input of size n
    at: object  # its answer at the constant
    past: object  # its answer one step past it
    step: float = (
        1  # past the constant: + for a most (n + 1), - for a least (n - 1); a share's step is smaller
    )


def _padded(text: str, n: int) -> str:
    """`text` made n characters long by spaces after it (what a judge's length limit counts)."""
    return text + " " * (n - len(text))


def _taken(judge, text: str) -> bool:
    return bool(judge(text))


def _blocks_after_unwrap(texts: list[str]) -> int:
    blocks = tuple(Paragraph(t, Location("f.txt", i)) for i, t in enumerate(texts, 1))
    return len(lines.unwrap(blocks)[0])


def _heading(line: str):
    """None, "weak" or "strong": what the rules make of a heading line."""
    found = headings.candidate(line, 1)
    return None if found is None else ("weak" if found.weak else "strong")


def _notes(line: str) -> list[str]:
    text = "第一章 开始\n正文一句。\n" + line + "\n正文二句。\n第二章 继续\n正文三句。\n"
    return [d.code for d in sections.split_sections(text, "f.txt")[1]]


def _titles(text: str) -> list[str]:
    return [s.heading.title for s in sections.split_sections(text, "f.txt")[0] if s.heading]


def _bare_family(n: int) -> int:
    """How many of n headings 一 风起, 二 风起 … (weak: bare numerals) are taken."""
    text = "".join(
        f"{'一二三四五六七八九'[i]} 风起\n\n" + "这是一段正文，写得很长很长很长。\n\n" * 6 for i in range(n)
    )
    return len(_titles(text))


def _listed_line_dropped(n: int) -> bool:
    """A line of n characters opening with a strong listed pattern's match (小说快捕), story after it."""
    line = "小说快捕，" + "甲" * (n - 5)
    return junk.clean_line(line, junk.patterns_in(line, junk.active_patterns()))[0] is None


def _listed_url_line_dropped(n: int) -> bool:
    """A line of n characters holding a URL and a strong listed pattern's match: a banner, dropped."""
    line = "小说快捕 www.example.com，" + "甲" * (n - 21)
    return junk.clean_line(line, junk.patterns_in(line, junk.active_patterns()), has_url=True)[0] is None


def _page_title(n: int) -> bool:
    """Whether a line of n characters, the chapter's title joined to the book's and the site's names
    (某书…-第1章 风起-某某小说网), reads as a saved page's title (normalize/repeats.py)."""
    tail = "-第1章 风起-某某小说网"
    return repeats._page_title("某书" + "甲" * (n - 2 - len(tail)) + tail, ("第1章 风起",))


def _file_title(n: int):
    """What a file named 12.txt whose first line is n characters long is titled by that line."""
    blocks = (Paragraph("甲" * n, Location("12.txt", 1)), Paragraph("正文。", Location("12.txt", 2)))
    found = file_titles.title_line("12", blocks)
    return found and len(found[0])


def _template_left(k: int) -> int:
    """How many of a site's slogans repeated in k of a novel's 10 chapters are left once cleaned."""
    text = []
    for n in range(1, 11):
        slogan = "某某云盘搜小说，就上某某搜索网，免费无弹窗。" if n <= k else ""
        text += [f"第{n}章 风起第{n}回", f"　　他转身走了{n}步。{slogan}", "　　天色将晚，城门已闭。"]
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "novel.txt").write_text("\n".join(text) + "\n", "utf-8")
        book = load_book(Path(folder) / "novel.txt", jobs=1).book
    return sum("搜索网" in b.text for c in book.chapters() for b in c.blocks)


_PROSE = "　　天色将晚，城门已闭，行人匆匆赶路，谁也不说一句话，只听得脚步声在石板路上响着走远\n"


def _margin_titles(titles: list[str], prose_lines: int = 40) -> int:
    """How many titles set at the margin over indented prose (`prose_lines` lines each) are taken."""
    return len(_titles("".join(t + "\n" + _PROSE * prose_lines for t in titles)))


def _margin_book(lines: int) -> int:
    """How many of three margin titles are taken in a file of this many non-blank lines."""
    per, extra = divmod(lines - 3, 3)
    return len(
        _titles(
            "".join(t + "\n" + _PROSE * (per + (i < extra)) for i, t in enumerate(["风起", "云涌", "雨落"]))
        )
    )


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
    return sum(" " in t.split(" ", 1)[1] for t in _titles(text))


def _parts_after(k: int) -> int:
    """How many parts a book of no volumes is divided into whose numbering starts again after k."""
    numbers = [*range(1, k + 1), 1, 2]
    at = Location("f.txt", 1)
    book = (Volume(None, tuple(Chapter(f"第{n}章", (), at, n) for n in numbers)),)
    return len(chapters.parts_at_restarts(book)[0])


def _bare_after_own(k: int) -> int:
    """How many of four bare-numbered headings (一 风起 …) are taken after k 第N章 headings."""
    prose = "这是一段正文，写得很长很长很长。\n\n" * 6
    text = "".join(f"第{c}章 开端\n\n" + prose for c in "一二三四五"[:k])
    text += "".join(f"{c} 风起\n\n" + prose for c in "一二三四")
    return len(_titles(text)) - k


def _site_talk_at(share: float) -> bool:
    """Whether a run of 200 Han characters with one notice word (本站) and this share of site words
    (手打, no notice word) is a site's talk."""
    k = round(share * 200) // 2 - 1
    return clean.site_talk("本站" + "手打" * k + "天" * (200 - 2 - 2 * k))


def _sentence_at(share: float) -> str:
    """The story's sign a sentence of 100 Han characters gives with this share of site words (小说)."""
    k = round(share * 100) // 2
    return debris.story_signs("小说" * k + "天" * (100 - 2 * k) + "。")


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


def _heading_cut_from(rest: str) -> bool:
    """Whether 第一章 风起, a paste's gap, then `rest` is cut into a heading and its text."""
    return pastes.heading_then_text("第一章 风起　　" + rest, 1, None, ()) is not None


def _book(chapters: list[list[str]]) -> Book:
    """A book of one volume whose chapters hold these paragraphs."""
    made = tuple(
        Chapter(
            f"第{n}章 风起",
            tuple(Paragraph(t, Location("f.txt", 100 * n + i)) for i, t in enumerate(texts)),
            Location("f.txt", 100 * n),
            n,
        )
        for n, texts in enumerate(chapters, 1)
    )
    return Book(Meta("书", "某某", "zh", "id"), (Volume(None, made),))


def _left_after_repeats(chapters: list[list[str]], text: str) -> int:
    """How many paragraphs still hold `text` once normalize/repeats.py has cut the book's repeats."""
    book, _ = repeats.strip_repeated(_book(chapters))
    return sum(text in b.text for c in book.chapters() for b in c.blocks)


def _times_left(n: int) -> int:
    """How many of a site's name glued after n of ten paragraphs, in a book of two chapters, are left."""
    texts = [f"他转身走了{i}步。" + ("166阅读网" if i < n else "") for i in range(10)]
    return _left_after_repeats([texts[0::2], texts[1::2]], "166阅读网")


def _page_title_at(n: int) -> int:
    """How many of four chapters' saved page titles, each their n-th paragraph of eleven, are left."""
    chapters = []
    for c in range(1, 5):
        texts = [f"他走了{i}步，天色将晚。" for i in range(10)]
        texts.insert(n - 1, f"某书-第{c}章 风起-某某小说网")
        chapters.append(texts)
    return _left_after_repeats(chapters, "小说网")


def _piece_left(n: int) -> int:
    """How many of four chapters' site's sentence of n characters (请记住本站网址手打…。) are left."""
    slogan = "请记住本站网址" + "手打" * 33
    slogan += "天" * (n - 1 - len(slogan)) + "。"
    return _left_after_repeats([[f"他转身走了{i}步。" + slogan, "城门已闭。"] for i in range(4)], slogan)


_GLUE = "手机阅读请访问某某小说网。"


def _glued_cut(texts: list[str]) -> list[str]:
    """The repeated glued fragments normalize/repeats.py cuts from chapters of one paragraph each."""
    cuts = repeats.glued_fragments(list(_book([[t] for t in texts]).chapters()))
    return sorted({texts[k][s:e] for (k, _), spans in cuts.items() for s, e, _ in spans})


def _glued(i: int, glue: str) -> str:
    """Chapter i's paragraph: a sentence, the glued fragment, and the story going on apart."""
    return f"天色将晚{i}次。{glue}{'东南西北中发白春夏秋'[i]}门已闭。"


def _fragment_ends_its_sentence(n: int) -> bool:
    """Whether a glued fragment of n characters (site words, then 甲…。) is cut to its sentence's end."""
    glue = _GLUE[:-1] + "甲" * (n - len(_GLUE)) + "。"
    return _glued_cut([_glued(i, glue) for i in range(6)])[0].endswith("。")


def _fragment_beside_a_stray(n: int) -> bool:
    """Whether a fragment glued in five chapters is cut where a sixth has a start sharing its first
    n characters only (starts grouped by their first characters part from it there)."""
    texts = [_glued(i, _GLUE) for i in range(5)] + [_glued(5, _GLUE[:n] + "乙丙丁戊己庚。")]
    return bool(_glued_cut(texts))


def _app_advert_at(share: float) -> bool:
    """Whether App小说 and Han characters enough for this share of app and site words (小说 a site's
    word and a notice's, counted twice) is an app's advert."""
    return _taken(debris.app_advert, "App小说" + "天" * (int(6 / share + 1e-9) - 2))


def _short_notice_at(share: float) -> bool:
    """Whether a short line of two notice words (本站网址本站) and Han characters enough for this share of
    notice words is a site's notice."""
    return _taken(debris.site_notice, "本站网址本站" + "天" * (int(6 / share + 1e-9) - 6))


def _bracketed(text: str) -> bool:
    """Whether the bracket rule cuts the bracket round the text's URL (asked alone: the notice rule,
    asked first by url_adverts, takes a bracket of over 80 characters of site talk whole)."""
    start, end = clean.find_urls(text)[0]
    return clean._bracketed_url(text, start, end) is not None


def _han_number(n: int) -> str:
    digits = "〇一二三四五六七八九"
    tens, ones = divmod(n, 10)
    return (("" if tens == 1 else digits[tens]) + "十" if tens else "") + (
        digits[ones] if ones or not tens else ""
    )


def _glued_book(numbers: list[int], size: int = 5001, preface: str = "", title: str = "風起雲湧") -> str:
    """A book run into one line of `size` characters: its 第N回 labels (these numbers), each glued to its
    title and the 話說 that opens its text, and the text ending in a sentence."""
    heads = [f"第{_han_number(k)}回{title}話說" for k in numbers]
    body = (size - len(preface) - sum(map(len, heads))) // len(numbers)
    line = preface + "".join(h + "天" * (body - 1) + "。" for h in heads)
    return line + "天" * (size - len(line))


def _glued_headings(line: str) -> list[str]:
    """The headings pastes.glued_chapters cuts a line into (none: it is no book run together)."""
    return [text for heading, text in pastes.glued_chapters(line) or () if heading]


def _bare(line: int, number: int, title: str = "风起") -> Heading:
    """A bare-numbered candidate (一 风起), weak: the numbering must support it."""
    return Heading("chapter", f"{number} {title}", number, line, rule="bare", weak=True)


def _list_dropped(lines: list[int]) -> bool:
    """Whether heading_choice drops as a list some of bare headings 1, 2, 3 … standing on these lines
    (the lines between them all text)."""
    family = {i: _bare(i, k + 1, "风云雨雪花月星山水火"[k]) for k, i in enumerate(lines)}
    return len(heading_choice._without_lists(family, {i: i for i in family}, family, "bare")) < len(family)


def _inner_left(n: int) -> int:
    """How many of 第十四章, n bare-numbered items (1, 2, 3, 1 …) and 第十五章 are left as chapters."""
    found = {0: Heading("chapter", "第十四章 风起", 14, 0)}
    found.update((k, _bare(k, (k - 1) % 3 + 1)) for k in range(1, n + 1))
    found[n + 1] = Heading("chapter", "第十五章 云涌", 15, n + 1)
    return len(heading_choice._without_inner_items(found))


def _numbering_stopped(lines: int, gap: int = 10) -> int:
    """How many of four bare headings `gap` lines apart are taken between 第一章 and 第二章 this many
    lines on, in a book with 第N章 headings of its own."""
    found = {0: Heading("chapter", "第一章 风起", 1, 0), 9999: Heading("chapter", "第二章 云涌", 2, 9999)}
    family = {i: _bare(i, k + 1) for k, i in enumerate(range(100, 100 + 4 * gap, gap))}
    before = {0: 0, 9999: lines} | {i: i for i in family}
    return len(heading_choice._where_numbering_stops(found, family, before))


def _starred_taken(titles: list[str], lines: int = 5) -> int:
    """How many starred titles (★青蛙王子 …), each over this many lines of text, are taken."""
    return len(_titles("".join(f"★{t}\n" + "正文一句话说完了。\n" * lines for t in titles)))


def _distinct_starred(share: float) -> int:
    """How many of ten starred titles are taken where this share of them are different (the rest 简,
    an author's name over every essay)."""
    k = round(share * 10) - 1
    titles = [f"故事{'甲乙丙丁戊己庚辛壬癸'[j]}" for j in range(k)] + ["简"] * (10 - k)
    family = {
        10 * j: Heading("chapter", t, None, 10 * j, rule="starred", weak=True) for j, t in enumerate(titles)
    }
    return len(heading_choice._spread_out(family, {i: i for i in family}))


def _family_share(share: float) -> int:
    """How many bare headings are taken where 一 二 三 四 run on and stray ones (九十, 八十 …) make
    the four this share of the family."""
    numbers = [1, 2, 3, 4] + [90, 80, 70, 60, 50, 40, 30][: int(4 / share + 1e-9) - 4]
    prose = "这是一段正文，写得很长很长很长。\n\n" * 6
    return len(
        _titles(
            "".join(
                f"{_han_number(k)} {'风云雨雪花月星山水火'[j]}起\n\n" + prose for j, k in enumerate(numbers)
            )
        )
    )


def _as_lines(texts: list[str]) -> list[tuple[int, bool, str]]:
    """Lines as the heading passes keep them: (line number, indented, text)."""
    return [(k, True, t) for k, t in enumerate(texts, 1)]


def _behind_a_name(n: int, times: int = 3) -> int:
    """How many of `times` lines of n characters, a name then a heading (甲乙丙丁戊己庚辛壬癸 第一章 风…),
    are taken for headings behind the name."""
    texts = []
    for c in "一二三四五"[:times]:
        line = f"甲乙丙丁戊己庚辛壬癸 第{c}章 "
        texts += [line + "风" * (n - len(line)), "正文一句话。", "正文二句话。"]
    return len(few_headings._behind_the_name(_as_lines(texts), (), "book"))


def _serial_taken(k: int, text_lines: int = 5) -> int:
    """How many of k titles of a series after the book's last chapter (一个普通人的日常（一）…), each
    over this many lines of text, are taken."""
    texts = ["第九十章 终局", "正文。"]
    for j in range(k):
        texts += [f"一个普通人的日常（{'一二三四五'[j]}）"] + ["正文一句话。"] * text_lines
    return len(few_headings._serial_after_the_end(_as_lines(texts), 0))


def _long_chapter(lines: int, usual: int = 10) -> int:
    """How many headings a book finds whose chapters run `usual` lines but one `lines` long, which holds
    three headings glued behind the book's name (诛仙六 第六章 雨落): they are looked for there only
    where it is far longer than the others."""
    text = "".join(f"第{_han_number(c)}章 风起\n" + "正文一句话说完了。\n" * (usual - 1) for c in range(1, 5))
    body = ["正文一句话说完了。"] * (lines - 1)
    for k, at in enumerate((lines // 4, lines // 2, 3 * lines // 4)):
        body[at] = f"诛仙六 第{_han_number(6 + k)}章 雨落"
    text += "第五章 云涌\n" + "\n".join(body) + "\n第九章 雪停\n" + "正文一句话说完了。\n" * (usual - 1)
    return len(_titles(text))


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
            f"第{_han_number(i + 1)}回 {season}風吹過小橋邊\n{below}"
            + "這是一段正文，寫得很長很長很長。\n" * 5
        )
    return sum(" " in t.split(" ", 1)[1] for t in _titles(text))


def _header_lines_found(rows: int, times: int = 5, chapters: int = 5) -> int:
    """How many lines page_headers drops where a header of `rows` lines stands over `times` of
    `chapters` headings."""
    texts, found = [], {}
    for c in range(1, chapters + 1):
        texts += [f"页眉{k}行" for k in range(rows)] if c <= times else []
        found[len(texts)] = Heading("chapter", f"第{c}章", c, len(texts))
        texts += [f"第{c}章", "正文一句话说完了。", "正文二句话说完了。"]
    return len(page_headers.page_headers(_as_lines(texts), Choice(found, (), {}, {})))


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
    return len(sections.titles_from_contents(_as_lines(texts), 0, {}))


def _paragraphs(texts: list[str]) -> tuple[Paragraph, ...]:
    return tuple(Paragraph(t, Location("f.txt", k)) for k, t in enumerate(texts, 1))


def _name_dropped_at(n: int) -> bool:
    """Whether the book's name (侠客行) alone as the intro page's n-th paragraph is dropped from it."""
    texts = ["正文一句话说完了。"] * 6
    texts[n - 1] = "侠客行"
    return len(meta._without_the_name(_paragraphs(texts), {"侠客行"})) == 5


def _byline_at(n: int):
    """The author a first chapter's n-th paragraph 作者：金庸 gives (None: too far down to be a header's)."""
    texts = ["正文一句话说完了。"] * 8
    texts[n - 1] = "作者：金庸"
    found = meta._byline_in(Chapter("第一章", _paragraphs(texts), Location("f.txt", 1), 1))
    return found and found[0]["author"].value


def _band_covers(n: int) -> bool:
    """Whether the justified band of 30 open-ended lines of n lengths (24, 25 …) holds them all."""
    blocks = _paragraphs(["天" * (24 + i % n) for i in range(30)])
    return layout.justified_band(blocks) == (24, 24 + n - 1)


def _band_share(share: float):
    """The justified band of 50 lines, this share of them of five lengths (24–28), the rest all longer."""
    k = round(share * 50)
    return layout.justified_band(
        _paragraphs(["天" * (24 + i % 5) for i in range(k)] + ["天" * (40 + i) for i in range(50 - k)])
    )


def _flush_continues(flush: list[bool], continuing: int = 50) -> bool:
    """Whether a chapter of lines of varied lengths, flush where `flush` says (indented elsewhere), reads
    as a scrape whose flush lines carry on the line before: the first `continuing` flush lines follow
    an open end (，), the others a full stop."""
    blocks, carried = [], 0
    for i, at_margin in enumerate(flush):
        ends_open = not (i + 1 < len(flush) and flush[i + 1]) or carried < continuing
        carried += i + 1 < len(flush) and flush[i + 1]
        text = "天" * (14 + (i * 7) % 23) + ("，" if ends_open else "。")
        blocks.append(Paragraph(text, Location("f.txt", i + 1), indented=not at_margin))
    return layout.read_layout(tuple(blocks)).flush_continues


def _join_spaces_gone(clauses: int, length: int | None = None) -> bool:
    """Whether the spaces a join left (天地玄黄宇宙 洪荒日月盈昃, once per clause) are taken out of a line
    of prose (made `length` characters long)."""
    line = "，".join(["天地玄黄宇宙 洪荒日月盈昃"] * clauses)
    line += "天" * ((length or 0) - len(line) - 1) + "。"
    return " " not in chars.han_spaces(line + "\n")


def _names_the_file(share: float) -> bool:
    """Whether the 目录.txt entry 甲乙丙丁戊己庚辛壬癸 names a file whose name shares this share of it."""
    k = round(share * 10)
    stem = "甲乙丙丁戊己庚辛壬癸"[:k] + "子丑寅卯辰巳午未申酉"[k:]
    return contents_file._named("甲乙丙丁戊己庚辛壬癸", [Path(stem + ".txt")]) is not None


def _quoted_at(n: int) -> bool:
    """Whether a strong pattern's match inside quotes of n characters is taken for dialogue."""
    return junk._quoted("他说“" + "甲" * n + "”", 3)


def _repeated_heading_cut(n: int) -> str:
    """What is left of a first line opening with the chapter's title of n characters."""
    title = "甲" * n
    return chapters._drop_repeated_heading(
        title, [Paragraph(title + "清晨，我刚起床。", Location("f.txt", 1))]
    )[0].text


def _wrap_width(lines: int, width: int = 20):
    """The wrap width read from `lines` open-ended lines all `width` characters long."""
    return layout.hardwrap_width(_paragraphs(["甲" * width] * lines))


def _band_of(lines: int):
    """The justified band of `lines` open-ended lines of five lengths (24–28)."""
    return layout.justified_band(_paragraphs(["天" * (24 + i % 5) for i in range(lines)]))


def _contents_of(k: int) -> int:
    """How many headings a 目录 of k entries (游天山日记 …) gives, each found later alone on its line."""
    names = [f"游{c}山日记" for c in "天雁黄庐嵩华衡泰峨武"][:k]
    texts = ["目录", *names, "前言说完了。"] + [t for name in names for t in (name, "正文一句话说完了。")]
    return len(sections.titles_from_contents(_as_lines(texts), 0, {}))


_URL_REST = "搜小说就上某某小说网"  # the rest of a URL's sentence: half its Han characters site words


def _url_rest_cut(n: int) -> int:
    """Where a URL's cut ends when the rest of its sentence, site words, is n characters long."""
    return clean._sentence_rest(" " * (n - len(_URL_REST) - 1) + _URL_REST + "。", 0)


def _url_rest_share(share: float) -> int:
    """Where a URL's cut ends when this share of its sentence's rest is site words (story's 天 added)."""
    return clean._sentence_rest(_URL_REST + "天" * round(5 / share - 10) + "。", 0)


def _notice_of(n: int) -> bool:
    """Whether a notice's sentence of n characters around a URL (注：如果你发现本书未完…) goes whole."""
    before, url, after = "注：如果你发现本书未完属于连载更新请到", "http://www.abc.com", "获取最新更新TXT。"
    text = " " * (n - len(before + url + after)) + before + url + after
    start = len(text) - len(url + after)
    return clean._notice_around(text, start, start + len(url)) is not None


def _strewn_domain(marks: int) -> bool:
    """Whether www.abcd.com with a mark after each of its first `marks` letters is taken as strewn."""
    letters = iter(range(marks))
    domain = "".join(
        c + ("'" if c.isalpha() and next(letters, None) is not None else "") for c in "www.abcd.com"
    )
    return bool(forms.form_debris("他说" + domain + "好的"))


def _notice_of_words(n: int) -> str:
    """What debris.site_notice makes of a line of n notice words and site words (手机版, 全文字)."""
    return debris.site_notice("".join(["请记住", "最新章节", "免费阅读", "首发"][:n]) + "手机版全文字" * 2)


def _block_line(share: float) -> bool:
    """Whether a line between debris lines, this share of its Han characters site words (手机版 and the
    story's 天), goes with them."""
    return bool(debris.in_debris_block("手机版" + "天" * (round(2 / share) - 3), 3, True))


def _site_bracket(share: float) -> bool:
    """Whether a bracket this share site words (请记住 and the story's 天) is taken as a site's."""
    return bool(forms.form_debris("他说【请记住" + "天" * (round(3 / share) - 3) + "】好的"))


def _site_piece_at(share: float) -> bool:
    """Whether a repeated piece of site words (手机版, 全文字) and the story's 天, this share of its Han
    characters site words, is the site's."""
    return repeats._site_piece("手机版全文字" * 3 + "天" * (round(12 / share) - 18))


def _serial_of_width(n: int) -> int:
    """How many of three series titles n characters long (a 20-character stem, spaces, （一）) are taken."""
    texts = ["第九十章 终局", "正文。"]
    for j in range(3):
        texts += ["甲" * 20 + " " * (n - 23) + f"（{'一二三'[j]}）"] + ["正文一句话。"] * 5
    return len(few_headings._serial_after_the_end(_as_lines(texts), 0))


def _noted(n: int) -> list[str]:
    """The notes on a file of n 第N章 headings, each over a line of text."""
    text = "".join(f"第{'一二三四五'[i]}章 风起\n正文一句。\n" for i in range(n))
    return [d.code for d in sections.split_sections(text, "f.txt")[1]]


def _left_in_book(paragraphs, needle: str) -> int:
    """How many paragraphs holding `needle` are left once a novel of ten chapters, chapter c's
    paragraphs `paragraphs(c)`, is cleaned."""
    text = []
    for c in range(1, 11):
        text += [f"第{c}章 风起第{c}回", *paragraphs(c)]
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "novel.txt").write_text("\n".join(text) + "\n", "utf-8")
        book = load_book(Path(folder) / "novel.txt", jobs=1).book
    return sum(needle in b.text for c in book.chapters() for b in c.blocks)


def _site_name_after(n: int) -> int:
    """How many chapters keep a site's name of n characters (…阅读网) after their last sentence."""
    name = "甲乙丙丁戊"[: n - 3] + "阅读网"
    return _left_in_book(
        lambda c: [f"　　他转身走了{c}步。", f"　　天色将晚，城门已闭{c}次。{name}"], "阅读网"
    )


def _notice_times(n: int) -> int:
    """How many of n notices (two notice words and more) in one chapter of ten are left."""
    notice = "请记住本站最新章节免费阅读。"
    return _left_in_book(
        lambda c: (
            [f"　　他转身走了{c}步。"]
            + ([f"　　天色将晚{k}次。{notice}" for k in range(n)] if c == 1 else [])
            + ["　　城门已闭。"]
        ),
        "免费阅读",
    )


def _glued_in_long_chapter(k: int, lines: int = 500) -> int:
    """How many headings a book finds whose fifth chapter, far longer than the others, holds k headings
    glued behind the book's name (诛仙六 第六章 雨落)."""
    text = "".join(f"第{_han_number(c)}章 风起\n" + "正文一句话说完了。\n" * 9 for c in range(1, 5))
    body = ["正文一句话说完了。"] * (lines - 1)
    for j in range(k):
        body[(j + 1) * lines // (k + 1)] = f"诛仙六 第{_han_number(6 + j)}章 雨落"
    return len(
        _titles(text + "第五章 云涌\n" + "\n".join(body) + "\n第九章 雪停\n" + "正文一句话说完了。\n" * 9)
    )


def _volumes_alone(n: int) -> list[str]:
    """The kinds of the headings of a file of a 序章 and n 第N卷 headings, no chapter under any."""
    text = "序章\n" + "正文一句话说完了。\n" * 3
    text += "".join(f"第{'一二三四'[i]}卷 风起\n" + "正文一句话说完了。\n" * 3 for i in range(n))
    return [s.heading.kind for s in sections.split_sections(text, "f.txt")[0] if s.heading]


def _numbered_then_margin(n: int) -> int:
    """How many headings a file of n 第N章 chapters, then four margin titles over indented prose, gets."""
    text = "".join(f"第{'一二三四'[i]}章 风起\n" + _PROSE * 40 for i in range(n))
    return len(_titles(text + "".join(t + "\n" + _PROSE * 40 for t in ["风起", "云涌", "雨落", "雪停"])))


def _parts_named_again(n: int) -> bool:
    """Whether n part headings in a row (上部 面壁者 …), each named again later (上部 面壁者危机 …), are a
    contents of parts."""
    names = ["上部 面壁者", "中部 咒语", "下部 黑暗森林", "终部 死神永生"][:n]
    accepted = {i: Heading("volume", t, None, i) for i, t in enumerate(names)}
    accepted |= {20 + i: Heading("volume", t + "危机", None, 20 + i) for i, t in enumerate(names)}
    return own_contents._named_again(list(range(n)), sorted(accepted), accepted)


def _strewn_after_story(n: int) -> list[str]:
    """What goes of a strewn run of n Han characters whose first is the story's (护卫"小"说"网: 卫 is
    the story's): a run longer than the least name loses that character; a shorter one is no name."""
    text = '他的护卫"' + '"'.join("大学生小说网"[-(n - 1) :]) + "来了"
    return [text[s:e] for s, e, _ in forms.form_debris(text)]


def _page_header_kept(n: int) -> bool:
    """Whether 第001章, a site's page header under 第1章 来客, stays a heading in a file of n candidates
    (the other chapters each over text): a file of fewer keeps its headings as they are."""
    text = "第1章 来客\n第001章\n" + "正文一句话说完了。\n" * 3
    text += "".join(f"第{k}章 风起\n" + "正文一句话说完了。\n" * 3 for k in range(2, n))
    return "第001章" in _titles(text)


THRESHOLDS = [
    # cleaning: what a line judge takes (normalize/debris.py), by its length
    Threshold(
        "debris.APP_LINE",
        debris.APP_LINE,
        lambda n: _taken(debris.app_advert, _padded("下载某某阅读器，免费看全本", n)),
        True,
        False,
    ),
    Threshold(
        "debris.CREDIT_LINE",
        debris.CREDIT_LINE,
        lambda n: _taken(debris.collector_credit, _padded("某某书库收集整理", n)),
        True,
        False,
    ),
    Threshold(
        "debris.COPYRIGHT_LINE",
        debris.COPYRIGHT_LINE,
        lambda n: _taken(debris.copyright_line, _padded("Copyright © 2008-2015 某某 All Rights Reserved", n)),
        True,
        False,
    ),
    Threshold("debris.ART_LINE", debris.ART_LINE, lambda n: _taken(debris.banner_art, "═" * n), True, False),
    Threshold(
        "debris.NOTICE_LINE",
        debris.NOTICE_LINE,
        lambda n: _taken(debris.site_notice, _padded("请记住本站网址：某某小说网 最新章节", n)),
        True,
        False,
    ),
    Threshold(
        "debris.BLOCK_LINE",
        debris.BLOCK_LINE,
        lambda n: bool(debris.in_debris_block(_padded("某某小说网 手机阅读", n), 2, True)),
        True,
        False,
    ),
    Threshold(
        "debris.DISCLAIMER_LINE",
        debris.DISCLAIMER_LINE,
        lambda n: _taken(debris.disclaimer, _padded("本作品来自互联网，仅供学习交流", n)),
        True,
        False,
    ),
    Threshold(
        "debris.SCRIPT_LINE",
        debris.SCRIPT_LINE,
        lambda n: _taken(debris.script_line, _padded("$(function(){", n)),
        True,
        False,
    ),
    Threshold(
        "debris.SPAM_LINE",
        debris.SPAM_LINE,
        lambda n: _taken(debris.split_words_spam, _padded("激_情饥_渴", n)),
        True,
        False,
    ),
    Threshold(
        "debris.COUNTER_REST",
        debris.COUNTER_REST,
        lambda n: _taken(debris.site_counters, "总点击数：1528456 总书评数：61580 " + "甲" * (n - 2)),
        True,
        False,
    ),
    Threshold(
        "debris.SHORT_NOTICE",
        debris.SHORT_NOTICE,
        lambda n: _taken(debris.site_notice, _padded("本站网址", n)),
        True,
        False,
    ),
    Threshold(
        "clean.WATERMARK_LINE",
        clean.WATERMARK_LINE,
        lambda n: clean.site_watermark(_padded("小＿说  txt 天+堂", n)),
        True,
        False,
    ),
    # a strong listed pattern drops a short line whole; a longer one is the story's
    Threshold("junk.LONG_LINE", junk.LONG_LINE, _listed_line_dropped, True, False),
    Threshold("junk.URL_LINE", junk.URL_LINE, _listed_url_line_dropped, True, False),
    # a URL's bracket is cut whole where it holds this little after the URL
    Threshold(
        "clean.SHORT_BRACKET",
        clean.SHORT_BRACKET,
        lambda n: bool(clean.url_adverts("他转身走了。【www.example58.com " + "甲" * (n - 1) + "】雨停了。")),
        True,
        False,
    ),
    Threshold("repeats.PAGE_TITLE", repeats.PAGE_TITLE, _page_title, True, False),
    # a site's template goes where it repeats through this many chapters
    Threshold(
        "repeats.MIN_CHAPTERS", repeats.MIN_CHAPTERS, _template_left, 0, repeats.MIN_CHAPTERS - 1, step=-1
    ),
    # a file named by its number only is titled by a first line this short
    Threshold("file_titles.TITLE_LINE", file_titles.TITLE_LINE, _file_title, file_titles.TITLE_LINE, None),
    # the story's sign that keeps a line from every neighbour rule: a sentence of ordinary length
    Threshold(
        "debris.STORY_SENTENCE",
        debris.STORY_SENTENCE,
        lambda n: debris.story_signs("天" * n + "。"),
        "a sentence",
        "",
        step=-1,
    ),
    # a site's words after a line's last sentence (which then ends its paragraph)
    Threshold(
        "lines.SITE_TAIL",
        lines.SITE_TAIL,
        lambda n: _taken(lines.site_tail, "他走了。网盘搜索找小说" + "哈" * (n - 7)),
        True,
        False,
    ),
    # shares of site words: a sentence with one notice word is a site's talk; a long sentence is the story's
    Threshold("clean.NOTICE_SHARE", clean.NOTICE_SHARE, _site_talk_at, True, False, step=-0.01),
    Threshold(
        "debris.SENTENCE_SITE_SHARE", debris.SENTENCE_SITE_SHARE, _sentence_at, "", "a sentence", step=-0.02
    ),
    # a URL with site words beside it: the words since the last sentence mark are a label's
    Threshold(
        "clean.SITE_WORDS_BEFORE",
        clean.SITE_WORDS_BEFORE,
        lambda n: bool(
            clean.url_adverts("天色已晚，" + "甲" * (n - 5) + "手机访问 www.example.com 雨停了。")
        ),
        True,
        False,
    ),
    # joining lines: verse (runs of short lines) is never joined; a short line is not joined
    Threshold(
        "lines.VERSE_LINE",
        lines.VERSE_LINE,
        lambda n: _blocks_after_unwrap(["甲" * n, "乙" * n, "丙" * n]),
        3,
        1,
    ),
    Threshold(
        "lines.VERSE_RUN",
        lines.VERSE_RUN,
        lambda n: _blocks_after_unwrap(["甲" * 12] * n) == n,
        True,
        False,
        step=-1,
    ),
    # a header's field line is never joined with the label under it, where it is this short
    Threshold(
        "lines.FIELD_LINE",
        lines.FIELD_LINE,
        lambda n: _blocks_after_unwrap(["类型：" + "甲" * (n - 3), "文案：这是一个很长的故事开头说的是什么"]),
        2,
        1,
    ),
    Threshold(
        "layout.MIN_JOIN",
        layout.MIN_JOIN,
        lambda n: _blocks_after_unwrap(["甲" * n, "乙" * 30]),
        1,
        2,
        step=-1,
    ),
    # headings (structure/headings.py): a strong 第N章 line's length, any heading's, a title's
    Threshold(
        "headings.MAX_HEADING",
        headings.MAX_HEADING,
        lambda n: _heading("第一章 " + "甲" * (n - 4)),
        "strong",
        "weak",
    ),
    Threshold(
        "headings.MAX_LONG_HEADING",
        headings.MAX_LONG_HEADING,
        lambda n: _heading("第一卷 " + "甲" * 20 + " 第二章 " + "乙" * (n - 29)),
        "weak",
        None,
    ),
    Threshold(
        "headings.LONGEST_TITLE",
        headings.LONGEST_TITLE,
        lambda n: _heading("第一章 " + "甲" * n),
        "weak",
        None,
    ),
    # a family of weak headings is taken where the numbering supports this many
    Threshold(
        "heading_choice.FAMILY_MIN",
        heading_choice.FAMILY_MIN,
        _bare_family,
        heading_choice.FAMILY_MIN,
        0,
        step=-1,
    ),
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
    # a book with this many 第N章 headings has its own: its bare numbers are text
    Threshold("heading_choice.OWN_HEADINGS", heading_choice.OWN_HEADINGS, _bare_after_own, 0, 4, step=-1),
    Threshold("few_headings.MARGIN_BOOK", few_headings.MARGIN_BOOK, _margin_book, 3, 0, step=-1),
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
    # after a heading and a paste's gap, prose: longer than a title, or a comma's clauses past one
    Threshold("pastes.PROSE_PIECE", pastes.PROSE_PIECE, lambda n: _heading_cut_from("甲" * n), False, True),
    Threshold(
        "pastes.CLAUSE_PIECE",
        pastes.CLAUSE_PIECE,
        lambda n: _heading_cut_from("甲，" + "乙" * (n - 2)),
        False,
        True,
    ),
    # a line under a bare 第N回 taken for its title; a 第N章 line noted as a heading missed (I301)
    Threshold(
        "sections.TITLE_BELOW",
        sections.TITLE_BELOW,
        lambda n: len(
            _titles("第一回\n" + "甲" * n + "\n正文一句话说完了。\n\n第二回\n又一个\n正文二句话说完了。\n")[0]
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
    # repeats (normalize/repeats.py): a template in a book of fewer chapters, a page title at a
    # chapter's edge, a template's longest sentence, a glued fragment's chapters, start and length
    Threshold("repeats.MIN_TIMES", repeats.MIN_TIMES, _times_left, 0, repeats.MIN_TIMES - 1, step=-1),
    Threshold("repeats.EDGE", repeats.EDGE, _page_title_at, 0, 4),
    Threshold("repeats.PIECE", repeats.PIECE, _piece_left, 0, 4),
    Threshold(
        "repeats.FRAGMENT_CHAPTERS",
        repeats.FRAGMENT_CHAPTERS,
        lambda n: _glued_cut([_glued(i, _GLUE) for i in range(n)]),
        [_GLUE],
        [],
        step=-1,
    ),
    Threshold(
        "repeats.SOON",
        repeats.SOON,
        lambda n: bool(_glued_cut([_glued(i, "甲" * (n - 1) + _GLUE) for i in range(6)])),
        True,
        False,
    ),
    Threshold("repeats.FRAGMENT", repeats.FRAGMENT, _fragment_ends_its_sentence, True, False),
    Threshold("repeats.FRAGMENT_KEY", repeats.FRAGMENT_KEY, _fragment_beside_a_stray, False, True, step=-1),
    Threshold(
        "repeats.MIN_FRAGMENT",
        repeats.MIN_FRAGMENT,
        lambda n: bool(
            repeats._fragment("甲" * (n - 5) + "本站网址。", [(0, "甲" * (n - 5) + "本站网址。乙")])
        ),
        True,
        False,
        step=-1,
    ),
    # shares of an app's or a site's words in a short line: an advert's, a notice's
    Threshold("debris.APP_SHARE", debris.APP_SHARE, _app_advert_at, True, False, step=-0.02),
    Threshold(
        "debris.SHORT_NOTICE_SHARE", debris.SHORT_NOTICE_SHARE, _short_notice_at, True, False, step=-0.06
    ),
    # a URL's bracket holding a site's talk: opened this near before the URL, closed this near after it
    Threshold(
        "clean.BRACKET_REACH",
        clean.BRACKET_REACH,
        lambda n: _bracketed("他转身走了。【" + ("本站手打" * 20)[: n - 1] + "www.example58.com】雨停了。"),
        True,
        False,
    ),
    Threshold(
        "clean.LONG_BRACKET",
        clean.LONG_BRACKET,
        lambda n: _bracketed("他转身走了。【www.example58.com " + ("本站手打" * 30)[: n - 1] + "】雨停了。"),
        True,
        False,
    ),
    # forum pastes (structure/pastes.py): a line this long is cut at its gaps; a label's title this short
    Threshold(
        "pastes.PASTE_LINE",
        pastes.PASTE_LINE,
        lambda n: sum(
            len(s.blocks)
            for s in sections.split_sections(
                "第一章 风起\n他转身走了。  " + "天" * (n - 9) + "。\n", "f.txt"
            )[0]
        ),
        1,
        2,
    ),
    Threshold(
        "pastes.PASTE_TITLE",
        pastes.PASTE_TITLE,
        lambda n: len(pastes.paste_pieces("第四章  " + "甲" * n + "  他转身走了。")),
        2,
        3,
    ),
    # a whole book run into one line: this long, its first label this near the start, its titles this
    # short before the 話說 that opens the text, its numbers missing this many between two labels
    Threshold(
        "pastes.GLUED_BOOK",
        pastes.GLUED_BOOK,
        lambda n: len(_titles(_glued_book([1, 2, 3, 4], n) + "\n")),
        0,
        4,
    ),
    Threshold(
        "pastes.GLUED_START",
        pastes.GLUED_START,
        lambda n: len(
            _glued_headings(_glued_book([1, 2, 3, 4], preface=("甲乙丙丁戊己庚辛壬癸" * 40)[: n - 3]))
        ),
        4,
        0,
    ),
    Threshold(
        "pastes.GLUED_TITLE",
        pastes.GLUED_TITLE,
        lambda n: _glued_headings(_glued_book([1, 2, 3, 4], title="甲" * (n - 2)))[0],
        "第一回 " + "甲" * (pastes.GLUED_TITLE - 2),
        "第一回",
    ),
    Threshold(
        "pastes.GLUED_GAP",
        pastes.GLUED_GAP,
        lambda n: len(_glued_headings(_glued_book([1, 2, 3, 3 + n]))),
        4,
        3,
    ),
    # the choice among weak headings (structure/heading_choice.py): lists of numbered lines, items
    # inside a chapter, a part named on every chapter's line, numbering that stops, starred titles
    Threshold(
        "heading_choice.LIST_RUN",
        heading_choice.LIST_RUN,
        lambda n: _list_dropped([0, 10, *range(20, 20 + n), 40]),
        True,
        False,
        step=-1,
    ),
    Threshold(
        "heading_choice.LIST_GAP",
        heading_choice.LIST_GAP,
        lambda n: _list_dropped([0, 10, 20, 20 + n, 20 + 2 * n, 40]),
        True,
        False,
    ),
    Threshold(
        "heading_choice.INNER_WINDOW",
        heading_choice.INNER_WINDOW,
        _inner_left,
        2,
        heading_choice.INNER_WINDOW + 3,
    ),
    Threshold(
        "heading_choice.SHARED_RUN",
        heading_choice.SHARED_RUN,
        lambda n: (
            heading_choice._shared_labels(
                {i: Heading("chapter", f"第一章 墓中寻龙 {'盗厉驴狼虎'[i]}", 1, i) for i in range(n)}
            )[0].volume
        ),
        "第一章 墓中寻龙",
        None,
        step=-1,
    ),
    Threshold("heading_choice.STOPPED", heading_choice.STOPPED, _numbering_stopped, 0, 4),
    Threshold(
        "heading_choice.STOPPED_SECTION",
        heading_choice.STOPPED_SECTION,
        lambda n: _numbering_stopped(3000, n),
        4,
        0,
        step=-1,
    ),
    Threshold(
        "heading_choice.STARRED_GAP",
        heading_choice.STARRED_GAP,
        lambda n: _starred_taken(["青蛙王子", "白雪公主", "小红帽子", "灰姑娘"], n),
        4,
        0,
        step=-1,
    ),
    Threshold(
        "heading_choice.DISTINCT_STARRED",
        heading_choice.DISTINCT_STARRED,
        _distinct_starred,
        10,
        0,
        step=-0.1,
    ),
    Threshold("heading_choice.FAMILY_SHARE", heading_choice.FAMILY_SHARE, _family_share, 4, 0, step=-0.06),
    # headings the rules missed (structure/few_headings.py): behind a name, a series after the end,
    # inside a chapter many times the length of the others
    Threshold("few_headings.MAX_NAMED", few_headings.MAX_NAMED, _behind_a_name, 3, 0),
    Threshold(
        "few_headings.MIN_PREFIXED", few_headings.MIN_PREFIXED, lambda n: _behind_a_name(20, n), 3, 0, step=-1
    ),
    Threshold("few_headings.MIN_SERIAL", few_headings.MIN_SERIAL, _serial_taken, 3, 0, step=-1),
    Threshold(
        "few_headings.SERIAL_TEXT", few_headings.SERIAL_TEXT, lambda n: _serial_taken(3, n), 3, 0, step=-1
    ),
    Threshold("few_headings.LONG_LINES", few_headings.LONG_LINES, _long_chapter, 6, 9),
    Threshold("few_headings.LONG_GAP", few_headings.LONG_GAP, lambda n: _long_chapter(n * 100, 100), 6, 9),
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
    Threshold(
        "own_contents.LATER_GAP", own_contents.LATER_GAP, lambda n: _contents_dropped(later=n), 4, 0, step=-1
    ),
    Threshold("sections.CONTENTS_FOUND", sections.CONTENTS_FOUND, _contents_titles, 15, 0, step=-0.1),
    # the intro page's name line, a first chapter's byline (structure/meta.py)
    Threshold("meta.NAME_LINES", meta.NAME_LINES, _name_dropped_at, True, False),
    Threshold("meta.BYLINE_LINES", meta.BYLINE_LINES, _byline_at, "金庸", None),
    # a chapter's layout (normalize/layout.py): a typeset page's band of line lengths; a scrape that
    # kept each paragraph's indent, its flush lines carrying on
    Threshold("layout.JUSTIFIED_BAND", layout.JUSTIFIED_BAND, _band_covers, True, False),
    Threshold("layout.JUSTIFIED_SHARE", layout.JUSTIFIED_SHARE, _band_share, (24, 28), None, step=-0.02),
    Threshold(
        "layout.INDENTED_LINES_SHARE",
        layout.INDENTED_LINES_SHARE,
        lambda share: _flush_continues([i >= round(share * 50) for i in range(50)]),
        True,
        False,
        step=-0.02,
    ),
    Threshold(
        "layout.FLUSH_CONTINUING",
        layout.FLUSH_CONTINUING,
        lambda share: _flush_continues([i % 5 == 1 for i in range(50)], round(share * 10)),
        True,
        False,
        step=-0.1,
    ),
    # spaces a join left between Han characters (normalize/chars.py): enough of them, dense enough
    Threshold("chars.JOIN_SPACES", chars.JOIN_SPACES, _join_spaces_gone, True, False, step=-1),
    Threshold(
        "chars.JOIN_DENSITY",
        chars.JOIN_DENSITY,
        lambda density: _join_spaces_gone(4, int(4000 / density)),
        True,
        False,
        step=-0.1,
    ),
    # a 目录.txt's entry names the file whose name is this like it (difflib's ratio)
    Threshold(
        "contents_file.SIMILAR",
        contents_file.SIMILAR,
        lambda share: (
            contents_file._named(
                "甲乙丙丁戊己庚辛壬癸",
                [
                    Path(
                        "甲乙丙丁戊己庚辛壬癸"[: round(share * 10)]
                        + "子丑寅卯辰巳午未申酉"[round(share * 10) :]
                        + ".txt"
                    )
                ],
            )
            is not None
        ),
        True,
        False,
        step=-0.1,
    ),
    Threshold("junk.QUOTED_NAME", junk.QUOTED_NAME, _quoted_at, False, True),
    Threshold(
        "forms.SITE_NAME_LEAST",
        forms.SITE_NAME_LEAST,
        lambda n: forms._site_name_alone("大学生小说网"[-n:]),
        True,
        False,
        step=-1,
    ),
    Threshold(
        "forms.SITE_NAME_MOST",
        forms.SITE_NAME_MOST,
        lambda n: forms._site_name_alone("甲" * (n - 3) + "小说网"),
        True,
        False,
    ),
    Threshold(
        "debris.CREDIT_NAME",
        debris.CREDIT_NAME,
        lambda n: bool(debris.collector_credit("甲" * (n - 2) + "书库整理")),
        True,
        False,
        step=-1,
    ),
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
    Threshold("layout.WRAP_LINES", layout.WRAP_LINES, _wrap_width, 20, None, step=-1),
    Threshold("layout.WRAP_WIDTH", layout.WRAP_WIDTH, lambda n: _wrap_width(6, n), 20, None, step=-1),
    Threshold("layout.JUSTIFIED_LINES", layout.JUSTIFIED_LINES, _band_of, (24, 28), None, step=-1),
    Threshold(
        "repeats.SITE_NAME_PIECE",
        repeats.SITE_NAME_PIECE,
        lambda n: repeats._site_piece("甲" * (n - 3) + "阅读网"),
        True,
        False,
    ),
    Threshold("sections.CONTENTS_ENTRIES", sections.CONTENTS_ENTRIES, _contents_of, 6, 0, step=-1),
    Threshold(
        "pastes.GLUED_LABELS",
        pastes.GLUED_LABELS,
        lambda n: len(_glued_headings(_glued_book(list(range(1, n + 1))))),
        3,
        0,
        step=-1,
    ),
    Threshold(
        "layout.LAYOUT_LINES",
        layout.LAYOUT_LINES,
        lambda n: layout.blank_lines_are_noise([n, n], [10, 1]),
        True,
        False,
        step=-1,
    ),
    Threshold(
        "clean.READING_LEAST",
        clean.READING_LEAST,
        lambda n: clean._spells("笔趣岛小说"[:n], "bqdxsxyz"),
        True,
        False,
        step=-1,
    ),
    Threshold("clean.URL_TAIL", clean.URL_TAIL, _url_rest_cut, 60, 0),
    Threshold("clean.URL_TAIL_SHARE", clean.URL_TAIL_SHARE, _url_rest_share, 11, 0, step=-0.05),
    Threshold("clean.NOTICE_SENTENCE", clean.NOTICE_SENTENCE, _notice_of, True, False),
    Threshold("forms.STREWN_MARKS", forms.STREWN_MARKS, _strewn_domain, True, False, step=-1),
    Threshold(
        "debris.NOTICE_WORDS_LEAST",
        debris.NOTICE_WORDS_LEAST,
        _notice_of_words,
        "notice words 免费阅读、最新章节、请记住",
        "",
        step=-1,
    ),
    Threshold("debris.BLOCK_SITE_SHARE", debris.BLOCK_SITE_SHARE, _block_line, True, False, step=-0.01),
    Threshold("forms.BRACKET_SITE_SHARE", forms.BRACKET_SITE_SHARE, _site_bracket, True, False, step=-0.15),
    Threshold("repeats.PIECE_SITE_SHARE", repeats.PIECE_SITE_SHARE, _site_piece_at, True, False, step=-0.05),
    Threshold("few_headings.SERIAL_LINE", few_headings.SERIAL_LINE, _serial_of_width, 3, 0),
    Threshold("sections.NOTED_HEADINGS", sections.NOTED_HEADINGS, _noted, ["I304"], [], step=-1),
    Threshold("repeats.MIN_KEY", repeats.MIN_KEY, _site_name_after, 0, 10, step=-1),
    Threshold("repeats.STRONG_TIMES", repeats.STRONG_TIMES, _notice_times, 0, 2, step=-1),
    Threshold(
        "few_headings.STRETCH_FOUND", few_headings.STRETCH_FOUND, _glued_in_long_chapter, 9, 6, step=-1
    ),
    Threshold(
        "heading_choice.FAMILY_LEAST",
        heading_choice.FAMILY_LEAST,
        _volumes_alone,
        ["front", "chapter", "chapter", "chapter"],
        ["front", "volume", "volume"],
        step=-1,
    ),
    Threshold("few_headings.NUMBERED_BOOK", few_headings.NUMBERED_BOOK, _numbered_then_margin, 3, 6, step=-1),
    Threshold(
        "own_contents.CONTENTS_RUN", own_contents.CONTENTS_RUN, _parts_named_again, True, False, step=-1
    ),
    Threshold("forms.STREWN_NAME", forms.STREWN_NAME, _strewn_after_story, [], ['"小"说"网']),
    Threshold(
        "heading_choice.FILE_HEADINGS", heading_choice.FILE_HEADINGS, _page_header_kept, False, True, step=-1
    ),
]


@pytest.mark.parametrize("row", THRESHOLDS, ids=[t.constant for t in THRESHOLDS])
def test_each_threshold_decides_at_its_value_and_not_one_step_past(row):
    assert row.probe(row.value) == row.at, f"{row.constant} = {row.value}"
    assert row.probe(row.value + row.step) == row.past, f"{row.constant} {row.step:+}"


# module.NAME → why no input lets it alone decide (none so far)
NO_FIXTURE: dict[str, str] = {}


def _numeric_constants() -> set[str]:
    """module.NAME of every upper-case module-level number (or tuple of numbers) in normalize/ and
    structure/."""
    found = set()
    root = Path(bookbuilder.__file__).parent
    for stage in ("normalize", "structure"):
        for path in sorted((root / stage).glob("*.py")):
            module = importlib.import_module(f"bookbuilder.{stage}.{path.stem}")
            for node in ast.parse(path.read_text("utf-8")).body:
                targets = node.targets if isinstance(node, ast.Assign) else []
                for target in targets:
                    for name in target.elts if isinstance(target, ast.Tuple) else [target]:
                        value = getattr(module, getattr(name, "id", ""), None)
                        values = value if isinstance(value, tuple) and value else (value,)
                        if (
                            name.id.isupper()
                            and not name.id.startswith("_")
                            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
                        ):
                            found.add(f"{path.stem}.{name.id}")
    return found


def test_every_threshold_is_named():
    from tests.test_thresholds_heldout import HELDOUT_THRESHOLDS  # (rows to be moved here at merge)

    constants = _numeric_constants()
    rows = {t.constant for t in THRESHOLDS + HELDOUT_THRESHOLDS}
    assert constants - rows - set(NO_FIXTURE) == set(), "a threshold with no fixture"
    assert (rows | set(NO_FIXTURE)) - constants == set(), "a name that is no constant"
    assert not rows & set(NO_FIXTURE)


_PLAIN_NUMBERS = {0, 1, 2, -1}  # an empty, one, a pair, the last: not thresholds


def _bare_numbers() -> list[str]:
    """path:line: number of each number other than 0, 1, 2, -1 written in a comparison in normalize/
    and structure/ (a threshold with no name)."""
    found = []
    root = Path(bookbuilder.__file__).parent
    for stage in ("normalize", "structure"):
        for path in sorted((root / stage).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if not isinstance(node, ast.Compare):
                    continue
                for side in (node.left, *node.comparators):
                    negative = isinstance(side, ast.UnaryOp) and isinstance(side.op, ast.USub)
                    number = side.operand if negative else side
                    if (
                        isinstance(number, ast.Constant)
                        and isinstance(number.value, (int, float))
                        and not isinstance(number.value, bool)
                        and (-number.value if negative else number.value) not in _PLAIN_NUMBERS
                    ):
                        found.append(f"{stage}/{path.name}:{node.lineno}: {ast.unparse(side)}")
    return found


def test_no_bare_number_decides():
    """A threshold in a comparison is a named constant (with its row above), never a bare number."""
    assert _bare_numbers() == []
