"""Title, author and blurb from what a download says about itself: its opening lines
(《书名》, 书名：, 作者：, 内容简介), its file or folder name (书名（校对版全本）作者：某某.txt), an
info.txt beside the chapters. book.toml wins over all of them; each value keeps where it came
from, for `check` to say."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from bookbuilder.decode.names import readable_name
from bookbuilder.model import Paragraph
from bookbuilder.structure import bylines, name_against_text, signed
from bookbuilder.vocabulary import (
    BARE_CHAPTER_UNITS,
    COUNTER_WORDS,
    DYNASTIES,
    EDITION_WORDS,
    FILE_FORMAT,
    FORM_FIELDS,
    HAN_COMMON,
    any_case,
    unit_class,
)

FIELDS = ("title", "author", "description")
_LABEL = {
    "书名": "title",
    "書名": "title",
    "作品": "title",
    "作品名": "title",
    "标题": "title",
    "作者": "author",
    "作家": "author",
    "著者": "author",
    "原著": "author",
    "本书名称": "title",
    "书籍名称": "title",
    "本书作者": "author",
    "书籍作者": "author",
}  # 本书名称: / 本书作者: / 本书简介: (a reader app's export)
_FIELD = re.compile(
    r"^[【\[]?(本书名称|书籍名称|本书作者|书籍作者|书名|書名|作品名|作品|标题|作者|作家|著者|原著)[】\]]?\s*[:：]\s*(.+)$"
)
# A printed edition's catalogue lines in a download's header (出版社：…, ISBN：…, 斗罗大陆Ⅱ from
# 书香门第): the header's data, not a page; the publisher is kept as the book's.
_CATALOG = re.compile(
    r"^[【\[]?(出版社|出版者|出版时间|出版日期|ISBN|书号|字数|类别|类型|分类|标签|内容标签|状态|连载状态|更新时间|最后更新|搜索关键字|一句话简介|立意)"
    r"[】\]]?\s*[:：]\s*([^。！？]{0,60})$"
)  # a value, not a sentence (晋江's 其它： may be empty)
_SUBJECT_LABELS = ("类别", "类型", "分类", "标签", "内容标签")
# A download's form header (书名: / 男女主角: / 系列名: / 作者:, filled in or not): a form's field, its value
# short and no sentence. Its lines are the header's, never the blurb page's; 书名 and 作者 with a value
# are read as fields (_FIELD) first.
_FORM = re.compile(
    r"^[【\[]?("
    + "|".join(sorted(FORM_FIELDS, key=len, reverse=True))
    + r")[】\]]?\s*[:：]\s*([^。！？“”「」]{0,20})$"
)
_BLURB = re.compile(
    r"^[【\[]?(内容简介|內容簡介|内容提要|內容提要|作品简介|作品簡介|作品简述|本书简介|简介|簡介|文案|简述)[】\]]?"
    r"(?:\s*[:：]\s*(.*)|\s*)$"
)
# 《书名》, and 《书名》完本 or 《书名》[精校版]: an edition word after the title says what copy this is
_QUOTED = re.compile(r"^《([^《》]{1,40})》(?:\s*[（(【\[]?(?:" + "|".join(EDITION_WORDS) + r")[）)】\]]?)?$")
# 金庸《倚天屠龙记》, not ——《纽约时报》 nor a source (選自《瑯嬛文集》 under a preface)
_AUTHOR_QUOTED = re.compile(
    r"^(?![选選摘引转轉出]自|见|見|载|載)([^《》\s:：—\-]{1,12})\s*《([^《》]{1,40})》$"
)
_QUOTED_AUTHOR = re.compile(r"^《?([^《》]{1,40})》\s*(?:作者|著者)\s*[:：]\s*(.+)$")  # 《书名》作者：某某
# 这你都不嗑？ 作者：马户子君: the title without 《》, a space (gone after a ？), then the byline
_SPACED_BYLINE = re.compile(
    r"^([^《》：:，。\s][^《》：:。]{0,29}?)(?:[ \u3000]+|(?<=[？！?!]))(?:作者|著者)\s*[:：]\s*(\S.{0,20})$"
)
# 我是万人迷主角事业粉作者：三倦: the byline glued to the title (four characters at least, not 本文作者：)
_GLUED_BYLINE = re.compile(
    r"^([^《》：:，。/／\s][^《》：:。/／]{3,29}?)(?<![的是文书])(?:作者|著者)[:：]\s*(\S.{0,20})$"
)
# 《沉香如屑》苏寞: the title, then the author's name alone (not an edition word such as 全集 or 完本, 合集,
# TXT下载, 晋江独家发表, 第一章, nor
# what makes another book of it: 《鬼吹灯I》完全解密手册, 外传, 前传 …)
_QUOTED_NAME = re.compile(
    r"^《([^《》]{1,40})》\s*(?!.*(?:"
    + "|".join(EDITION_WORDS)
    + "|全文|合集|文集|作品|"
    + any_case(FILE_FORMAT)
    + "|下载|校对|最新|独家|发表"
    r"|首发|连载|出品|"
    + unit_class(BARE_CHAPTER_UNITS, "节卷")  # a heading's: 第一章, 第三卷
    + rf"|手册|解密|指南|攻略|[前后外]传|续集|同人|设定|评注|赏析))([{HAN_COMMON}A-Za-z·]{{2,8}})$"
)
# An author's dynasty in brackets before the name: (明)徐宏祖, （清）曹雪芹.
_DYNASTY = bylines.ORIGIN
_PAIR = re.compile(
    r"^[\[【]?\s*([^/／◎\[\]【】]{1,30}?)\s*[/／◎]\s*([^/／◎\[\]【】]{1,16}?)\s*(?:著|编著|著作)?\s*[\]】]?$"
)  # 盗墓笔记◎南派三叔
# A trailing tag after an author's name, dropped only when it is clearly one: a year, a site.
_AUTHOR_TAIL = re.compile(r"\s*(?:[（(【\[][^）)】\]]{1,20}[）)】\]]|(?:19|20)\d{2}|\s+著|著)$")
OPENING_LINES, AUTHOR_MOST, TITLE_MOST = 40, 20, 20  # intro lines with title or author; their characters
# [仙侠魔幻] 《上古（出书版）》作者：星零: a site's genre tag before the quoted title
_GENRE_TAG = re.compile(rf"^[\[【〖][{HAN_COMMON}]{{2,6}}[\]】〗]\s*(?=《)")
_AUTHOR_LABEL = re.compile(r"(?:作者|著者)\s*[:：]")
BYLINE_LINES = (
    6  # a first chapter's paragraphs where a header the rules did not set apart may give its byline
)


@dataclass(frozen=True)
class Found:
    value: str
    source: str  # book.toml | text:LINE | file name | folder name | info.txt:LINE | default


@lru_cache(maxsize=1)
def _names() -> dict:
    return tomllib.loads(resources.files("bookbuilder").joinpath("data/names.toml").read_text("utf-8"))


@lru_cache(maxsize=1)
def noise_words() -> tuple[str, ...]:
    """What a download's name adds to the title: the edition words, the format in three spellings, and
    names.toml's other noise words."""
    return EDITION_WORDS + (FILE_FORMAT, FILE_FORMAT.lower(), FILE_FORMAT.title()) + tuple(_names()["noise"])


@lru_cache(maxsize=1)
def info_file_names() -> frozenset[str]:
    return frozenset(n.lower() for n in _names()["info_files"])


_NOT_A_NAME = re.compile(rf"电子书|小说|下载|全集|目录|简介|{any_case(FILE_FORMAT)}|网|[。，；,;]")


# (明)徐宏祖, 清·曹雪芹: the age an author is dated by, before the name (one of two characters or more)
_AGE = re.compile(rf"^(?:{_DYNASTY}|(?:{'|'.join(DYNASTIES)})[·•・](?=[{HAN_COMMON}]{{2}}))")


def author_value(text: str) -> str:
    """作者：某某2014 → 某某; a tag in brackets after the name goes too; 熊召政，1981年调入… → 熊召政.
    Empty when what is left cannot be a name (too long, a site word)."""
    text = re.split(
        r"[，。；,;]|[ \u3000]+(?:译者|译|翻译|校对|插图)\s*[:：]", text.strip(" 　*"), maxsplit=1
    )[0]  # 毛姆　译者：傅惟慈
    text = re.sub(
        r"^(?:作者|编纂者|編纂者|编者|編者|著者|原著)\s*[:：]\s*", "", text
    )  # 作者：編纂者：周楫, 书名/作者:某某
    text = re.sub(r"^[Bb][Yy][:：\s]*(?=[^\sA-Za-z])", "", text)  # 《异能之复活师》BY轩霄, by小猫不爱叫
    text = _AGE.sub("", text)  # (明)徐宏祖, 清·曹雪芹: the age goes
    for _ in range(2):
        cut = _AUTHOR_TAIL.sub("", text).strip()
        if not cut:
            break
        text = cut
    return "" if len(text) > AUTHOR_MOST or _NOT_A_NAME.search(text) else text


def _title_value(text: str) -> str:
    """《盗墓笔记》, <盗墓笔记> [精校版], 《藏海花》全集 → the name without its quotes, a site's edition tag
    or what follows the quoted name."""
    text = _EDITION_TAG.sub("", text.strip(" 　*")).strip()
    if m := re.match(r"《([^《》]{1,40})》|<<?([^<>]{1,40})>>?", text):  # 《藏海花》全集, <<快穿之华丽妖孽>>
        return (m.group(1) or m.group(2)).strip()
    return text.strip("《》").strip()


_EDITION_TAG = re.compile(
    r"\s*[\[【（(](?:" + "|".join(EDITION_WORDS + (FILE_FORMAT, FILE_FORMAT.lower())) + r")[\]】）)]"
)


def _catalog_field(catalog: re.Match, found: dict[str, Found], at: str) -> None:
    """A catalogue's line: its publisher, or the book's subjects (内容标签：灵异神怪 前世今生)."""
    if catalog.group(1) in ("出版社", "出版者"):
        found.setdefault("publisher", Found(catalog.group(2).strip(), at))
    elif catalog.group(1) in _SUBJECT_LABELS:
        found.setdefault("subjects", Found(catalog.group(2).strip(), at))


def _glued_byline(text: str, found: dict[str, Found], kept: list) -> dict[str, str]:
    """清溪道人著 right under the title that opens the file (東度記): its author."""
    if found or len(kept) != 1 or not _bare_title(kept[0]) or not (name := bylines.glued_author(text)):
        return {}
    return {"author": author_value(name)}


def _title_at(found: dict[str, Found], kept: list, index: int, where: str) -> bool:
    """Whether kept[index] is the book's name alone where no title was found yet: then it is found."""
    if "title" in found or not kept or not _bare_title(kept[index]):
        return False
    found["title"] = Found(_title_value(kept[index].text), f"{where}:{kept[index].at.line}")
    return True


def read_lines(blocks, where: str = "text") -> tuple[dict[str, Found], tuple, list[str]]:
    """The fields the opening paragraphs state, the blocks left once those lines are gone, and the
    blurb's paragraphs (after a 内容简介 label, up to the next field line)."""
    found: dict[str, Found] = {}
    kept, blurb, in_blurb = [], [], False
    for index, block in enumerate(blocks):
        if index >= OPENING_LINES and type(block) is Paragraph and _CATALOG.match(block.text.strip()):
            in_blurb = False  # 晋江's 一句话简介：, 立意： after a long 文案: the header's, not the blurb's
            continue
        if type(block) is not Paragraph or index >= OPENING_LINES:
            kept.append(block)
            in_blurb = in_blurb and type(block) is Paragraph
            if in_blurb:
                blurb.append(block.text)
            continue
        text, at = _GENRE_TAG.sub("", _unbracketed(block.text.strip())), f"{where}:{block.at.line}"
        if catalog := _CATALOG.match(text):
            _catalog_field(catalog, found, at)
            in_blurb = False
            continue
        fields = _fields_of(text) or _glued_byline(text, found, kept)
        if not fields and _FORM.match(text):
            in_blurb = False
            continue
        if fields.get("author") and "title" not in fields and _title_at(found, kept, -1, where):
            kept.pop()  # 盗墓笔记 / 作者：南派三叔
        if fields:
            for key, value in fields.items():
                if value:
                    found.setdefault(key, Found(value, at))
            in_blurb = False
            continue
        if in_blurb and re.match(r"^[【\[]?(?:目\s*录|正\s*文)[】\]]?$", text):
            in_blurb = False  # the blurb ends where the contents or the text begin
        if m := _BLURB.match(text):
            in_blurb = True
            if m.group(2):
                blurb.append(m.group(2))
                kept.append(Paragraph(m.group(2), block.at, block.indented))
            continue
        if in_blurb:
            blurb.append(text)
            if text != block.text.strip():  # the blurb's closing 』 goes from the intro page too
                block = Paragraph(text, block.at, block.indented)
        kept.append(block)
    head = kept[0] if kept and type(kept[0]) is Paragraph else None  # a scene break: no name to take
    if "author" in found and head and not _BLURB.match(head.text) and _title_at(found, kept, 0, where):
        kept = kept[1:]  # 西湖二集 / … / 作者：…
    if blurb:
        found.setdefault("description", Found("\n".join(blurb), f"{where}:{_first_line(blocks, blurb[0])}"))
    return found, tuple(kept), blurb


NAME_LINES = 3  # the intro page's first paragraphs, where the book's name may stand alone


def _without_the_name(blocks: tuple, titles: set[str], author: str = "") -> tuple:
    """The intro page without a line that is only the book's name (大王饶命 over 八零电子书's
    声明 line, no 作者： under it), or its author's under it: both are the book's already, no
    page of their own."""
    paragraphs = [i for i, b in enumerate(blocks) if type(b) is Paragraph][:NAME_LINES]
    drop = {
        i
        for i in paragraphs
        if _the_name(blocks[i].text.strip().strip("《》"), titles)
        or (author and blocks[i].text.strip() == author)
    }
    return tuple(b for i, b in enumerate(blocks) if i not in drop)


def _the_name(text: str, titles: set[str]) -> bool:
    """The book's name, or the name thrice in a row (儒林外史儒林外史儒林外史: a Project Gutenberg text's
    head)."""
    return text in titles or any(text in (title * 2, title * 3) for title in titles)


def _byline_in(chapter):
    """({title, author}, the chapter without the line) where one of the first chapter's first
    paragraphs is a byline with an author (《上古》作者：星零, 作者：金庸), under a heading that no intro
    page was cut at; else None."""
    from dataclasses import replace

    paragraphs = [i for i, b in enumerate(chapter.blocks) if type(b) is Paragraph][:BYLINE_LINES]
    for i in paragraphs:
        line = _GENRE_TAG.sub("", _unbracketed(chapter.blocks[i].text.strip()))
        fields = _fields_of(line) if _AUTHOR_LABEL.search(line) else {}  # labelled: never a story's 是/否
        if fields.get("author"):
            at, start = f"text:{chapter.blocks[i].at.line}", i
            found = {k: Found(v, at) for k, v in fields.items() if v and k in ("title", "author")}
            if (
                "title" not in found
                and i != paragraphs[0]
                and _bare_title(above := chapter.blocks[i - 1])
                and not re.search(r"\d\s*$", above.text)
            ):  # not a pager's label, 分节阅读 1
                found["title"], start = (
                    Found(_title_value(above.text), f"text:{above.at.line}"),
                    i - 1,
                )  # 《道士下山》 / 作者：…
            return found, replace(chapter, blocks=chapter.blocks[:start] + chapter.blocks[i + 1 :])
    return None


def _unbracketed(text: str) -> str:
    """『重生后我成了打脸专业户/作者:爱挑食』 → the line inside: some downloads put every field line
    of their header in corner brackets (爱下电子书: 『状态:…』, 『内容简介:' … '』)."""
    if text[:1] == "『":
        text = text[1:]
        return text[:-1] if text.endswith("』") else text
    return text[:-1] if text.endswith("』") and "『" not in text else text


def _bare_title(block) -> bool:
    """A short line with no sentence marks: a title, when an 作者： line follows it."""
    return (
        type(block) is Paragraph
        and 1 < len(block.text.strip()) <= TITLE_MOST
        and not re.search(r"[，。！？：:；]", block.text)
    )


def _first_line(blocks, text: str):
    return next((b.at.line for b in blocks if type(b) is Paragraph and text in b.text), "?")


def _fields_of(text: str) -> dict[str, str]:
    if m := _FIELD.match(text):
        key = _LABEL[m.group(1)]
        value = m.group(2)
        if key == "title" and (q := _QUOTED_AUTHOR.match(value)):  # 书名：《X》作者：Y
            return {"title": _title_value(q.group(1)), "author": author_value(q.group(2))}
        if key == "title" and re.search(r"\s(?:作者|著者)\s*[:：]", value):
            title, _, author = re.split(r"\s((?:作者|著者)\s*[:：])", value, maxsplit=1)
            return {"title": _title_value(title), "author": author_value(author)}
        return {key: author_value(value) if key == "author" else _title_value(value)}
    if m := _QUOTED_AUTHOR.match(text):
        return {"title": _title_value(m.group(1)), "author": author_value(m.group(2))}
    if m := _SPACED_BYLINE.match(text) or _GLUED_BYLINE.match(text):
        return {"title": _title_value(m.group(1)), "author": author_value(m.group(2))}
    if m := _QUOTED_NAME.match(text):
        return {"title": _title_value(m.group(1)), "author": author_value(m.group(2))}
    if pair := bylines.title_and_byline(text):  # 倚天屠龙记 金庸 著, 陶庵夢憶  [明]張岱
        return {"title": _title_value(pair[0]), "author": author_value(pair[1])}
    if name := bylines.byline_author(text):  # 江南 著, （清）曹雪芹著, 作者 江南, 作 者江南
        return {"author": author_value(name)}
    if m := _QUOTED.match(text):
        return {"title": m.group(1).strip()}
    if m := _AUTHOR_QUOTED.match(text):
        return {"author": author_value(m.group(1)), "title": m.group(2)}
    if (m := _PAIR.match(text)) and "。" not in text and "，" not in text:
        return {"title": _title_value(m.group(1)), "author": author_value(m.group(2))}
    return {}


def describes(text: str) -> bool:
    """A line that states a field of the book, or opens its blurb."""
    return bool(_fields_of(text.strip()) or _BLURB.match(text.strip()))


def author_and_title(text: str) -> tuple[str, str] | None:
    """(author, title) of a 金庸《倚天屠龙记》 line, else None."""
    m = _AUTHOR_QUOTED.match(text.strip())
    return (author_value(m.group(1)), m.group(2).strip()) if m else None


def from_name(stem: str, source: str = "file name") -> dict[str, Found]:
    """《书名》作者：某某, 书名（校对版全本）作者：某某, 书名-作者, 书名_作者_…, [作者]书名 — a file or
    folder name."""
    stem = _SHELF_INDEX.sub("", readable_name(stem.strip()))  # 宋傳奇 for º║╢╟⌐; 10鬼吹灯…: an index
    stem = _SITE_IN_BRACKETS.sub("", stem)  # 金瓶梅[www.example.org]
    stem = _denoise(stem).lstrip(" .-_")  # [四大名著].红楼梦: a tag, not an author
    if re.search(f"[{HAN_COMMON}]", cut := _ENCODING_TAG.sub("", stem)):
        stem = cut  # 红楼梦-UTF8 (hlm_big5 keeps its name: nothing else is left of it)
    stem = _denoise(_LATIN_TAG.sub("", stem)) or stem  # 某书_chapters, 某书-novel (完结)
    if m := re.match(r"^([^：:]{1,16}[·•][^：:]{1,16})[：:]\s*(.+)$", stem):  # 威廉·夏伊勒：第三帝国的兴亡
        return _named(_denoise(re.split(r"\s*(?:——|_|--)\s*", m.group(2))[0]), m.group(1), source)
    if m := re.match(
        r"^[\[【]([^\]】]{1,16})[\]】]\s*(.+)$", stem
    ):  # [作者]书名, or [快穿]书名 (a genre's tag)
        return _named(
            _denoise(m.group(2)), "" if m.group(1) in _names()["genre_tags"] else m.group(1), source
        )
    if m := re.match(rf"^(.+?)\s*[\[【]([{HAN_COMMON}·]{{2,8}})[\]】]$", stem):  # 三体全集【刘慈欣】
        return _named(_denoise(m.group(1)), m.group(2), source)
    if m := re.match(r"^(.+?)\s*(?:作者|著者)\s*[:：_\-]?\s*(.+)$", stem):
        return _named(_denoise(m.group(1)), _denoise(m.group(2)), source)
    if m := re.match(r"^《([^》]+)》\s*(.*)$", stem):
        return _named(_denoise(m.group(1)), _denoise(m.group(2)) if m.group(2) else "", source)
    parts = [p for p in re.split(r"\s*[-_－—]+\s*", stem) if p]
    parts = [p for p in (_denoise(p) for p in parts) if p]
    if (
        len(parts) >= 2
        and not parts[1][:1].isdigit()
        and "author" in (found := _named(parts[0], parts[1], source))
    ):
        return found  # (鬼吹灯I-1之精绝古城: a series' number, not 书名-作者)
    return _named(
        parts[0] if len(parts) == 1 else _denoise(stem), "", source
    )  # hlm_big5: one name, no author


_SHELF_INDEX = re.compile(
    rf"^\d+[\s._\-]+|^\d{{1,2}}(?=[{HAN_COMMON}])(?!" + unit_class(COUNTER_WORDS, "小") + ")"
)
# 某书_chapters, 某书-novel, 某书 files: a Latin word a scraper or a shelf put after a Han name, with a
# separator, is the folder's tag (an author's name is taken only in Han, _named): never the title's.
_LATIN_TAG = re.compile(
    rf"(?<=[{HAN_COMMON}》）)\]】])(?:[\s._\-]+[A-Za-z]+)+(?=\s*(?:[（(【\[][^）)】\]]*[）)】\]])?$)"
)
_ENCODING_TAG = re.compile(r"[\s\-_.（(\[]*(?:utf-?8|gbk|gb2312|gb18030|big5|unicode)[）)\]]?$", re.I)
_SITE_IN_BRACKETS = re.compile(
    r"[\[【(（]\s*(?:https?://)?(?:www\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/?\s*[\]】)）]"
)


def _named(title: str, author: str, source: str) -> dict[str, Found]:
    found = {}
    if title := _title_value(title):
        found["title"] = Found(title, source)
    if (author := author_value(author)) and re.search(f"[{HAN_COMMON}]", author):  # hlm_big5: not an author
        found["author"] = Found(author, source)
    return found


def _denoise(text: str) -> str:
    """The noise words of download names (data/names.toml) cut, with the brackets they stood in."""
    words = "|".join(re.escape(w) for w in sorted(noise_words(), key=len, reverse=True))
    text = re.sub(rf"[（(【\[]\s*(?:(?:{words})[\s+、,，]*)+\s*[）)】\]]", "", text)
    text = re.sub(rf"(?:{words})+$", "", text.strip())
    return text.strip(" 　-_.")


def choose(
    toml: dict[str, str],
    text: dict[str, Found],
    name: dict[str, Found],
    info: dict[str, Found],
    defaults: dict[str, str],
) -> dict[str, Found]:
    """book.toml, then the info file, then the text, then the name, then the default, per field."""
    chosen = {}
    for key in FIELDS:
        if toml.get(key):
            chosen[key] = Found(toml[key], "book.toml")
        else:
            chosen[key] = (
                info.get(key) or text.get(key) or name.get(key) or Found(defaults.get(key, ""), "default")
            )
    if chosen["author"] is name.get("author") and chosen["author"].value in chosen["title"].value:
        # 冰与火之歌I_权力的游戏.txt under 冰与火之歌I:权力的游戏: the name's second part is the subtitle
        chosen["author"] = Found(defaults.get("author", ""), "default")
    return chosen


def _from_intro(volumes: tuple, name: dict[str, Found]) -> tuple[dict[str, Found], tuple, bool]:
    """What the book's first chapter says of it (a byline, or an intro page's fields), the volumes
    without those lines, and whether the intro page went (it held only the title and author)."""
    from dataclasses import replace

    text: dict[str, Found] = {}
    gone = False
    first = volumes[0].chapters[0] if volumes and volumes[0].chapters else None
    if first is not None and first.kind != "intro" and (found := _byline_in(first)):
        text, first = found  # a site's pager heading (分节阅读 1) over the header: its byline still counts
        volumes = (replace(volumes[0], chapters=(first,) + volumes[0].chapters[1:]),) + volumes[1:]
    elif first is not None and first.kind == "intro":
        text, kept, _ = read_lines(first.blocks)
        titles = {f.value for f in (text.get("title"), name.get("title")) if f}
        if "author" not in text and (under := signed.name_under_title(kept, titles, volumes, alone=not text)):
            title_line, name, name_line = under  # 侠客行 / 金庸, or 调频 / 饶雪漫 alone on the page
            text["author"] = Found(name, f"text:{name_line.at.line}")
            if "title" not in text and (title := _title_value(title_line.text)) not in titles:
                text["title"], titles = Found(title, f"text:{title_line.at.line}"), titles | {title}
        kept = _without_the_name(kept, titles, text["author"].value if "author" in text else "")
        if not any(type(b) is Paragraph for b in kept) and sum(len(v.chapters) for v in volumes) > 1:
            chapters, gone = volumes[0].chapters[1:], True
        else:
            chapters = (replace(first, blocks=kept),) + volumes[0].chapters[1:]
        volumes = (replace(volumes[0], chapters=chapters),) + volumes[1:]
        volumes = tuple(v for v in volumes if v.chapters)
    return text, volumes, gone


def _from_info_files(info_files) -> dict[str, Found]:
    """The fields a download's info files state (each (path, numbered lines)), the first file's first."""
    from bookbuilder.model import Location

    info: dict[str, Found] = {}
    for path, lines in info_files:
        found, _, _ = read_lines(
            tuple(Paragraph(t, Location(path, n)) for n, t in lines if t.strip()),
            where=path.rsplit("/", 1)[-1],
        )
        for key, value in found.items():
            info.setdefault(key, value)
    return info


def apply(book, config, polish=str, info_files=()) -> tuple[object, dict[str, Found], bool]:
    """The book with its title, author and description chosen (meta.sources says from where), and
    whether its intro page went (it held only the title and author lines)."""
    from dataclasses import replace

    from bookbuilder.config import DEFAULT_AUTHOR, stable_identifier

    kind = "file name" if config.source.is_file() else "folder name"
    stem = config.source.stem if config.source.is_file() else config.root.resolve().name
    name = from_name(name_against_text.without_page_label(stem), kind)  # 三国演义 最新章节更新列表
    text, volumes, gone = _from_intro(book.volumes, name)
    if "title" in name and (
        quoted := name_against_text.title_in_text(name["title"].value, volumes)
        or name_against_text.title_in_text(stem, volumes)  # 天龍八部繁UTF8: the name's cut left 繁
    ):
        spelled = "author" not in name and name_against_text.author_spelled(stem, quoted, volumes)
        name = {"title": Found(quoted, f"{kind}, as the text quotes it")} | (
            {"author": Found(spelled, f"{kind}, as the text writes it")} if spelled else {}
        )  # shendiaoxialv_jinyong: 神雕侠侣 by 金庸; raw三体: 三体
    if "author" not in text and "author" not in name:  # 后记 … 刘慈欣; 天龙八部 / 金庸 after （全书完）
        title = (text.get("title") or name.get("title") or Found("", "")).value
        if found := signed.signature(volumes, title):
            text["author"] = Found(found[0], f"text:{found[1].at.line}")
    info = _from_info_files(info_files)
    toml = {key: getattr(config, key) for key in config.meta_given}
    chosen = choose(
        toml, text, name, info, {"title": config.title or "", "author": DEFAULT_AUTHOR, "description": ""}
    )
    chosen = {
        k: (
            v
            if v.source == "book.toml"
            else Found(polish(v.value) if k != "description" else v.value, v.source)
        )
        for k, v in chosen.items()
    }
    title, author = chosen["title"].value, chosen["author"].value
    publisher = book.meta.publisher or (text["publisher"].value if "publisher" in text else "")
    subjects = book.meta.subjects or (
        tuple(re.split(r"[\s、，,/|｜]+", text["subjects"].value)) if "subjects" in text else ()
    )
    meta = replace(
        book.meta,
        title=title,
        author=author,
        description=chosen["description"].value,
        publisher=publisher,
        subjects=tuple(t for t in subjects if t),
        identifier=config.identifier or stable_identifier(title, author),
        sources=tuple((k, v.source) for k, v in chosen.items()),
    )
    return replace(book, meta=meta, volumes=volumes), chosen, gone
