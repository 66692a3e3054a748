"""The words and marks the reading and cleaning stages look for, declared once: every
heading, title and cleaning pattern builds its character classes and word lists from here (the
numeral characters from bookbuilder.numerals), and the data files' patterns name them as
{=name} (placeholders, below), so the sets cannot drift apart again. Where a pattern takes a part
of a set, it builds the part from these names and says why."""

from __future__ import annotations

import re

from bookbuilder import numerals

# ---- characters: what Han text and a sentence's end are, written once
# The CJK Unified Ideographs block: the characters of ordinary modern text, what the cleaning and
# heading rules count as a Han character.
HAN_COMMON = "\u4e00-\u9fff"
HAN_CHAR = re.compile(f"[{HAN_COMMON}]")
# Every Han block (extension A, compatibility ideographs, the supplementary planes): what a
# decoding is judged by, where a rare character must count as Chinese too.
HAN_ALL = f"\u3400-\u4dbf{HAN_COMMON}\uf900-\ufaff\U00020000-\U0003134f"
# The marks that stop a sentence: 。！？ and their half-width forms.
SENTENCE_STOPS = "。！？!?"
# A sentence ends at one of those, or at an ellipsis it trails off with.
SENTENCE_END_MARKS = SENTENCE_STOPS + "…"
# Double quotation marks closing right after a sentence's end (他说：“走吧。”): the sentence ended.
CLOSING_QUOTES = "”」』"
# A sentence ended, perhaps inside a quotation: what the cleaning and the heading passes test a
# line's end by. (Readers that cut a text or join lines add marks of their own, named there.)
SENTENCE_ENDED = tuple(SENTENCE_END_MARKS + CLOSING_QUOTES)
# Every punctuation mark a title or a line is told by, full- and half-width.
PUNCTUATION = "，。、；：？！…—“”‘’「」『』（）《》〈〉【】,.;:?!()\"'~～·"
QUOTE_MARKS = '“”「」"'  # the double quotes a paragraph's dialogue opens and closes with
LATIN_LETTERS = "A-Za-zＡ-Ｚａ-ｚ"  # a class's range: Latin letters, half- and full-width

# ---- units: what a 第N… heading counts in
CHAPTER_UNITS = (
    "章回节節幕话話"  # 第N章, 第N回, 第N节, 第N幕 (a play), 第N话 (a web comic's or light novel's)
)
VOLUME_UNITS = "卷集部篇"  # 第N卷, 第N集, 第N部, 第N篇
# A heading glued to the end of the sentence before it (…”第二百一十章冰雪女神祭祀的秘密): only the
# four units real downloads showed glued so; 话 and 幕 after a sentence's end are as often the story's.
GLUED_CHAPTER_UNITS = "章回节節"
# 十一回 …, 三章 …: the units a heading keeps when it lost its 第 (定情人's first is 一回).
BARE_CHAPTER_UNITS = "章回"
# What a volume heading may say beyond VOLUME_UNITS: 第一部分, 第二季 (部分 before 部: the longer first),
# 第一冊 … 第五冊 (a print edition's five books: 天龍八部 from a Big5 download, 10 回 each).
VOLUME_WORDS = ("部分",) + tuple(VOLUME_UNITS) + ("季", "册", "冊")
HALF_VOLUME_UNITS = "部篇卷册冊"  # 上部, 中篇, 下卷, 下册, 上冊: a book in two or three parts
BOOK_PARTS = "上中下"  # the parts those name
LAST_PART = "终終末"  # 终卷, 末卷: the last volume, whatever came before
# A number before one of these is a count in prose (3个人, 5天后, 10点钟, 2号楼, 3部电影), not a heading's.
COUNTER_WORDS = "个年月日号天点时分秒岁次人名位条只件本块元米斤里楼层届期级倍部集章回节页"


def unit_class(*units: str) -> str:
    """A regex character class of these units: unit_class(CHAPTER_UNITS) → [章回节節幕话話]."""
    return "[" + "".join(units) + "]"


# ---- front and back matter: the headings that have no number. A space in a word: the word may be
# typeset with one (尾 声, 龙族1-3); matter_pattern reads it as \s?.
PROLOGUES = ("楔 子", "引 子")
PREFACES = ("序 言", "前 言", "释 名")  # 释名: an author's note on the book's name (金庸's 天龙八部)
OPENINGS = ("序 章", "序 幕")  # a first chapter before 第一章
PREFACE_ALONE = ("序",)
AFTERWORD_ALONE = ("跋",)  # an afterword's one-character name (再版跋): only where an edition names it
ENDINGS = ("尾 声", "尾 聲", "终 章", "終 章")
POSTSCRIPTS = ("后 记", "後 記")
ENDING_NOTES = (
    "完本感言",
    "完结感言",
    "上架感言",
    "新书感言",
)  # the author's words at the end of a web novel
APPENDICES = ("附录", "附錄")
SIDE_STORIES = ("番外", "外传", "外傳")  # 番外篇二, 外传之一: numbered apart from the chapters
FRONT_MATTER = PROLOGUES + PREFACES + OPENINGS + PREFACE_ALONE
BACK_MATTER = ENDINGS + POSTSCRIPTS + ENDING_NOTES + APPENDICES
# The first characters of the matter words that a site's debris (data/titles.toml) is seen before.
MATTER_STARTS = "楔序引前尾后番附"


def plain(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words as written without the optional space: 尾 声 → 尾声."""
    return tuple(w.replace(" ", "") for w in words)


# The characters of matter words, navigation and site words that differ between the scripts, as pairs:
# a download mixes them (后記: a 神雕俠侶 typed in both; 前一頁回目錄), so each is read in either form.
SCRIPT_PAIRS = (
    "后後",
    "记記",
    "声聲",
    "终終",
    "录錄",
    "传傳",
    "书書",
    "结結",
    "网網",
    "说說",
    "页頁",
    "读讀",
    "阅閱",
    "载載",
    "节節",
    "级級",
    "签籤",
    "释釋",
)


def matter_pattern(words: tuple[str, ...]) -> str:
    """An alternation of matter words, the longer first (序章 before 序); a space read as up to three
    (后　　记: a download spaces a two-character heading out), and each character in either script
    where the words give both (后記 as 后记 and 後記)."""
    variants = {c: pair for pair in SCRIPT_PAIRS for c in pair}

    def spelt(word: str) -> str:
        return "".join(
            r"\s{0,3}" if c == " " else f"[{variants[c]}]" if c in variants else re.escape(c) for c in word
        )

    return "|".join(spelt(w) for w in sorted(words, key=lambda w: -len(w.replace(" ", ""))))


def either_script(words: tuple[str, ...]) -> str:
    """An alternation of these words, the longer first, each character of SCRIPT_PAIRS in either form
    (后一页 as 后一頁, 後一頁: a traditional page's navigation)."""
    variants = {c: pair for pair in SCRIPT_PAIRS for c in pair}
    return "|".join(
        "".join(f"[{variants[c]}]" if c in variants else re.escape(c) for c in w)
        for w in sorted(words, key=len, reverse=True)
    )


# ---- site and edition words: what a download site adds to a book's name or text
FILE_FORMAT = "TXT"  # 书名TXT下载, [TXT]: the format a site offers its copy in
EDITION_WORDS = (
    "精校版",
    "精校",
    "校对版",
    "全本",
    "完本",
    "全集",
    "合集",  # a collection, as 全集 is (《龙族》合集: the three books of 龙族 in one file)
    "完结",
    "精排版",
    "出书版",
)  # 书名（精校版）, 《书名》[全本], 《书名（出书版）》


def any_case(word: str, full_width: bool = False) -> str:
    """A regex of an ASCII word in any case: TXT → [Tt][Xx][Tt]; with full_width, ｔｘｔ and ＴＸＴ too."""

    def letter(c: str) -> str:
        forms = c.upper() + c.lower()
        return forms + "".join(chr(ord(f) + 0xFEE0) for f in forms) if full_width else forms

    return "".join(f"[{letter(c)}]" if c.isalpha() else re.escape(c) for c in word)


# How a site's name ends (某某网, 某某书屋, 某某文学, 某某小说, 八零电子书): a name glued before its domain,
# alone after a paragraph's last sentence, or strewn with marks between its characters.
SITE_NAME_ENDINGS = ("网", "阁", "书屋", "书城", "书院", "书库", "文学", "小说", "中文", "电子书")

# What an app's advert names (某某App，听书声音最全，离线朗读): the app, and what it offers a reader.
# 网盘 (a cloud drive: 网盘搜索，找小说就是方便) is where such sites send a reader for the file.
# One signal only: a line needs one of these, no story signs, and the shape of an
# advert (normalize/debris.py).
APP_WORDS = (
    "App",
    "APP",
    "app",
    "客户端",
    "阅读器",
    "听书",
    "离线朗读",
    "离线阅读",
    "追书神器",
    "换源",
    "安卓版",
    "苹果版",
    "网盘",
)
# A saved web page's navigation, kept as lines (回目录 回首页 上一级 下一页): a page's links, never a
# sentence.
NAVIGATION_WORDS = (
    "回目录",
    "回首页",
    "回书页",
    "返回目录",
    "返回首页",
    "返回书页",
    "返回列表",
    "上一级",
    "上一页",
    "下一页",
    "前一页",
    "后一页",
    "上一章",
    "下一章",
    "上一篇",
    "下一篇",
    "加入书签",
    "添加书签",
    "章节目录",
    "加入书架",
)
# A download's form header (书名: / 男女主角: / 系列名: / 作者:), filled in or left empty: the labels a
# site's form has. 书名 and 作者 feed the metadata (structure/meta.py); the others are the form's only.
FORM_FIELDS = (
    "书名",
    "作者",
    "男女主角",
    "主角",
    "配角",
    "系列名",
    "系列",
    "原名",
    "别名",
    "译者",
    "出版社",
    "字数",
    "状态",
    "类型",
    "类别",
    "标签",
    "来源",
    "首发",
    "更新",
    "备注",
)
# What a collector's credit says it did (某某书库收集整理, 本书由某某整理): the verb a credit ends in.
CREDIT_VERBS = ("收集整理", "整理制作", "整理", "收集", "制作", "扫校", "校对", "上传", "提供")
# What a page's copyright line is made of (Copyright © 2008-2015 某某 All Rights Reserved).
COPYRIGHT_WORDS = (
    "Copyright",
    "COPYRIGHT",
    "copyright",
    "©",
    "(c)",
    "(C)",
    "All Rights Reserved",
    "All rights reserved",
    "版权所有",
)
# A crawler's leftovers alone on a line: what a script prints for an empty value.
CRAWLER_LEFTOVERS = (
    "Array",
    "Array[]",
    "Array()",
    "undefined",
    "null",
    "NULL",
    "None",
    "NaN",
    "[object Object]",
    "false",
    "true",
)
# Story signs: what a story's line has and a site's seldom does (a line with one is never taken by a
# rule about its neighbours): a person, dialogue.
PERSONS = "他她我你"
DIALOGUE_QUOTES = "“”「」『』"
# ---- an author's appeal for the book's publication (normalize/appeals.py): what a web serial's
# author asks its readers for (votes, collections, subscriptions, tips, investment, extra chapters),
# what the asking is said with right before it (求收藏, 别忘了收藏, 记得投个月票), and the names only
# a site's publication has, which a story does not use (a ranking, the month's vote, an extra chapter)
APPEAL_WORDS = ("推荐", "月票", "收藏", "订阅", "打赏", "投资", "加更")
APPEAL_ASKING = ("求", "别忘了", "记得", "拜托", "恳请")
# 要求 a demand, 寻求 and 追求 a pursuit, 需求 a need: 求 after these is no plea to the readers
NOT_A_PLEA = "要追需寻谋征力讲请"
PUBLICATION_NAMES = ("推荐票", "月票", "推荐榜", "点击榜", "加更")
# What may follow the word asked for (收藏与推荐啊, 求收藏了, 求打赏哦): a joining word or a particle.
# Any other character makes it part of a story's word (收藏家, 推荐信, 订阅报纸, 月票般), no plea.
APPEAL_WORD_ENDS = "与和及跟啊呀吧哦哟啦呢嘛了哈喔噢"
# what a note in brackets names when it is about the book, not the story: this book, its updates, its sale
BOOK_PUBLICATION = PUBLICATION_NAMES + ("本书", "新书", "订阅", "上架", "更新")
# what a note marked as the author's (ps：, 作者的话) names when it is about the book: also its readers
# and their tips, which a story's letter with a P.S. (爸爸的投资, 收藏好了) does not name
MARKED_NOTE_WORDS = BOOK_PUBLICATION + ("打赏", "书友")
# how an author's note speaks to the readers (请大家伸伸手吧, 兄弟姐妹们): with a publication's name it
# is an appeal, unmarked (normalize/appeals.py)
READER_ADDRESS = ("大家", "各位", "兄弟姐妹", "兄弟们", "书友", "读者")

# ---- marks
OPENING_BRACKETS = "[【〖（(《<「［"  # and their partners, one for one:
CLOSING_BRACKETS = "]】〗）)》>」］"
SITE_BRACKETS = (
    "[【〖（(",
    "]】〗）)",
)  # [某某小说], 【某某网】: the brackets a site puts its name or an advert in
LABEL_BRACKETS = ("【[〖", "】]〗")  # 【第一章】, [正文 第1节], 〖01〗: brackets a heading's label stands in
# What sites draw lines of (------, ＊＊＊, ☆☆☆, ═══): a separator glued to a heading, or framing a title.
SEPARATOR_MARKS = "-=*＊☆★◆◇○●_~～─━═#＃"
STAR_MARKS = "★☆◆◇●○■□▲△◎"  # ★青蛙王子: a mark before a title


def char_class(chars: str) -> str:
    """A regex character class of these characters, each escaped: char_class("-=*") → [\\-=\\*]."""
    return "[" + re.escape(chars) + "]"


# ---- placeholders: how the data files (titles.toml, junk.toml) name the sets above in a regex.
PLACEHOLDERS = {
    "chapter_or_volume_unit": unit_class(CHAPTER_UNITS, VOLUME_UNITS),
    "bare_chapter_unit": unit_class(BARE_CHAPTER_UNITS),
    "written_numeral": f"[0-9０-９{numerals.WRITTEN}]",
    # 第二章 完: a chapter's end mark, numbered as the 第N章 rules number (两 was never among them)
    "end_mark_numeral": "[" + numerals.TO_THOUSANDS.replace(numerals.TWO, "") + r"\d]",
    "count_numeral": f"[{numerals.ONE_TO_TEN}{numerals.TWO}\\d]",  # 三更, 两更: how many updates today
    "one_to_ten": f"[{numerals.ONE_TO_TEN}]",
    # （第三部分）: a page's part in brackets (两 has not been among them)
    "part_numeral": "[" + numerals.TO_HUNDREDS.replace(numerals.TWO, "") + r"\d]",
    "matter_start": unit_class(MATTER_STARTS),
    # book-title's lookahead (《书名》第一章) has not taken 附 (《书名》附录): left out, as it was
    "matter_start_but_appendix": unit_class(MATTER_STARTS.replace("附", "")),
    "file_format": any_case(FILE_FORMAT),
    "ending_note": "|".join(ENDING_NOTES),
    "last_chapter": plain(ENDINGS)[2],  # 终章 (終章 has not been seen after a mark)
    "separator_mark": char_class(SEPARATOR_MARKS),
    "navigation_word": "(?:" + either_script(NAVIGATION_WORDS) + ")",
}
_PLACEHOLDER = re.compile(r"\{=([a-z_]+)\}")


def expand(regex: str) -> str:
    """A data file's regex with each {=name} replaced by its set (KeyError for an unknown name)."""
    return _PLACEHOLDER.sub(lambda m: PLACEHOLDERS[m.group(1)], regex)


# ---- markup: what a scraper's HTML leaves behind (normalize/markup.py)
# The entities scrapers write in a novel's text: a token one letter from one of these is that one
# misspelt (&qut; for &quot;), decoded as it; other entity names are rare enough to be left to chance.
SCRAPED_ENTITIES = ("quot", "amp", "lt", "gt", "nbsp", "apos", "hellip", "mdash", "ldquo", "rdquo", "middot")
# The geta mark, what Japanese and Chinese typesetting put for a character that could not be set:
# where a site's placeholder for a character (an image it had for it) stood.
LOST_GLYPH = "〓"

# The dynasties and ages a classic's author is dated by before a middle dot (清·曹雪芹, 明·吴承恩,
# 北宋·苏轼): the age, not the name (structure/meta.py author_value).
DYNASTIES = (
    "先秦", "秦", "西汉", "东汉", "汉", "三国", "魏", "西晋", "东晋", "晋", "南北朝", "隋", "唐", "五代",
    "北宋", "南宋", "宋", "辽", "金", "元", "明", "清", "民国", "近代", "现代", "当代",
)  # fmt: skip
