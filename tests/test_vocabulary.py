"""One vocabulary (issue 34): units, numerals, matter words, site and edition words and marks are
declared once, in bookbuilder/vocabulary.py (the numerals in bookbuilder/numerals.py),
and every pattern is built from them; the data files name the sets as {=name}."""

import ast
import re
import tomllib
from pathlib import Path

import pytest

from bookbuilder import numerals
from bookbuilder.normalize import clean, junk
from bookbuilder.structure import file_order, headings, meta
from bookbuilder.vocabulary import (
    BACK_MATTER,
    CHAPTER_UNITS,
    EDITION_WORDS,
    FRONT_MATTER,
    PLACEHOLDERS,
    VOLUME_UNITS,
    any_case,
    expand,
    matter_pattern,
    plain,
    unit_class,
)

PACKAGE = Path(__file__).resolve().parent.parent / "bookbuilder"
VOCABULARY = {"vocabulary.py", "numerals.py"}


def _sources(*suffixes: str) -> dict[str, str]:
    """Every module and data file of the package but the two that declare the vocabulary: path → text."""
    return {
        str(p.relative_to(PACKAGE)): p.read_text("utf-8")
        for suffix in suffixes
        for p in sorted(PACKAGE.rglob(f"*{suffix}"))
        if p.name not in VOCABULARY
    }


def _code(text: str) -> str:
    """The text without its comments (# to the line's end), so that an example in a comment does not count."""
    return "\n".join(line.split("  # ")[0] for line in text.splitlines() if not line.lstrip().startswith("#"))


def test_the_units_are_written_in_one_place():
    """The sets, written out; a narrower class built from the names may stand."""
    written = [
        path for path, text in _sources(".py", ".toml").items() if re.search(r"章回节節|卷集部篇", text)
    ]
    assert written == []


def test_numeral_classes_are_written_in_numerals_only():
    """No character class of five or more Chinese numerals outside numerals.py."""
    numeral = {c for c in numerals.NUMERAL_CHARS if not c.isdigit()}  # the Han ones (and ①, ⓪)
    found = [
        (path, cls)
        for path, text in _sources(".py", ".toml").items()
        for cls in re.findall(r"\[([^\[\]\s]{5,})\]", _code(text))
        if len(numeral.intersection(cls)) >= 5
    ]
    assert found == []


def test_matter_words_are_listed_in_the_vocabulary_only():
    """No 楔子|…, "序章", 尾\\s?声 … alternation or string of a matter word outside vocabulary.py."""
    words = [w for w in plain(FRONT_MATTER + BACK_MATTER) if len(w) > 1]
    spellings = "|".join(
        re.escape(w) if len(w) > 2 else re.escape(w[0]) + r"(?:\\s\?)?" + re.escape(w[1]) for w in words
    )
    listing = re.compile(rf"(?:[|\"]\s*(?:{spellings})|(?:{spellings})\s*[|\"])")
    found = [
        (path, m.group(0))
        for path, text in _sources(".py", ".toml").items()
        for m in listing.finditer(_code(text))
    ]
    assert found == []


def test_site_and_edition_words_are_declared_once():
    sources = _sources(".py", ".toml")
    assert [path for path, text in sources.items() if "[Tt][Xx][Tt]" in text] == []
    assert [
        path for path, text in sources.items() if re.search(r"精校版.{1,3}精校", text)
    ] == []  # the edition words' list
    noise = tomllib.loads((PACKAGE / "data" / "names.toml").read_text("utf-8"))["noise"]
    assert not set(noise) & set(EDITION_WORDS + ("TXT", "txt", "Txt"))  # they come from vocabulary.py
    assert set(EDITION_WORDS) <= set(meta.noise_words()) and "Txt" in meta.noise_words()


def test_the_watermarks_are_data():
    code = _code((PACKAGE / "normalize" / "clean.py").read_text("utf-8"))
    for literal in ("藏书网", "9lib", "[lｌ]", "bookbao8", "xiaoshuo", "&[1l]t"):
        assert literal not in code
    table = junk.watermarks()
    assert re.search(table["debris"], "他走了。９9lib?") and "bookbao8" in table["name_words"]


def test_marks_are_declared_once():
    sources = _sources(".py")
    assert [
        path for path, text in sources.items() if "[【〖（(《<「［" in text or "-=*＊☆★◆◇○●_~～─━═#＃" in text
    ] == []


def test_every_placeholder_in_the_data_files_is_known():
    regexes = [
        p["regex"]
        for path in ("titles.toml", "junk.toml")
        for p in tomllib.loads((PACKAGE / "data" / path).read_text("utf-8"))["pattern"]
    ]
    names = [m for rx in regexes for m in re.findall(r"\{=([a-z_]+)\}", rx)]
    assert names and set(names) <= set(PLACEHOLDERS)
    assert "{=" not in "".join(p.regex.pattern for p in junk.builtin_patterns())
    with pytest.raises(KeyError):
        expand("{=no_such_set}")


def test_unit_class_is_a_class_of_the_units():
    assert re.fullmatch(unit_class(CHAPTER_UNITS, VOLUME_UNITS), "卷") and re.fullmatch(
        unit_class(CHAPTER_UNITS), "话"
    )
    assert not re.fullmatch(unit_class(CHAPTER_UNITS), "卷")


@pytest.mark.parametrize(
    "words, text, matched",
    [
        (FRONT_MATTER, "序章", "序章"),  # the longer first: 序章, not 序
        (FRONT_MATTER, "序 章", "序 章"),  # typeset with a space
        (FRONT_MATTER, "序", "序"),
        (BACK_MATTER, "尾 聲", "尾 聲"),
        (BACK_MATTER, "附 录", None),  # 附录 is not seen spaced
        (BACK_MATTER, "完本感言", "完本感言"),
    ],
)
def test_matter_pattern(words, text, matched):
    m = re.fullmatch(f"(?:{matter_pattern(words)})", text)
    assert (m.group(0) if m else None) == matched


@pytest.mark.parametrize(
    "word, full_width, yes, no",
    [
        ("TXT", False, ("TXT", "txt", "tXt"), ("ＴＸＴ", "TX")),
        ("TXT", True, ("TXT", "ｔｘｔ", "ＴxＴ"), ("TX",)),
    ],
)
def test_any_case(word, full_width, yes, no):
    rx = re.compile(any_case(word, full_width))
    assert all(rx.fullmatch(t) for t in yes) and not any(rx.fullmatch(t) for t in no)


@pytest.mark.parametrize(
    "name, yes, no",
    [
        ("written_numeral", ("一", "5", "５", "贰", "佰", "万"), ("貳", "廿", "章")),
        ("end_mark_numeral", ("三", "千", "7"), ("两", "万")),
        ("count_numeral", ("三", "两", "十", "2"), ("百",)),
        ("part_numeral", ("三", "百", "〇"), ("两", "千")),
        ("matter_start", ("楔", "附", "番"), ("後", "第")),
        ("matter_start_but_appendix", ("楔", "番"), ("附",)),
        ("chapter_or_volume_unit", ("章", "話", "篇"), ("季", "册")),
        ("separator_mark", ("-", "＊", "═", "#"), ("。", "a")),
    ],
)
def test_placeholders(name, yes, no):
    rx = re.compile(PLACEHOLDERS[name])
    assert all(rx.fullmatch(t) for t in yes) and not any(rx.fullmatch(t) for t in no)


@pytest.mark.parametrize(
    "numerals_set, yes, no",
    [
        (numerals.ONE_TO_TEN, "一九十", "零两百"),
        (numerals.TO_HUNDREDS, "零〇两百", "千万"),
        (numerals.TO_THOUSANDS, "千", "万壹"),
        (numerals.FINANCIAL_TO_TEN, "壹貳參陸拾", "佰一"),
        (numerals.WRITTEN, "万佰仟壹", "貳廿"),
    ],
)
def test_the_numeral_sets(numerals_set, yes, no):
    assert all(c in numerals_set for c in yes) and not any(c in numerals_set for c in no)
    assert all(numerals.parse_numeral(c) is not None for c in numerals_set)  # every one reads as a number


@pytest.mark.parametrize(
    "line, kind, title",
    [
        ("序 章", "front", "序章"),
        ("序 章 风起", "front", "序章 风起"),
        ("尾声（上）", "back", "尾声（上）"),
        ("番外篇三", "back", "番外篇三"),
        ("外传之二 某人", "back", "外传之二 某人"),
        ("上架感言", "back", "上架感言"),
    ],
)
def test_matter_headings_built_from_the_words(line, kind, title):
    heading = headings.candidate(line, 1)
    assert (heading.kind, heading.title) == (kind, title)


@pytest.mark.parametrize(
    "name, rank",
    [
        ("楔子.txt", 0),
        ("序章.txt", 0),
        ("序幕.txt", 0),
        ("序.txt", 0),
        ("序列号.txt", 2),
        ("后记.txt", 3),
        ("尾聲.txt", 3),
        ("番外2.txt", 4),
    ],
)
def test_file_order_matter(name, rank):
    assert file_order.order_key(name)[0] == rank


def test_the_site_words_read_the_format_in_its_spellings():
    assert (
        clean.SITE_WORDS.search("txt下载")
        and clean.NOTICE_WORDS.search("Txt")
        and not clean.SITE_WORDS.search("Txt")
    )
    assert (
        meta._title_value("盗墓笔记[精校版]") == "盗墓笔记"
        and meta._title_value("盗墓笔记[Txt]") == "盗墓笔记[Txt]"
    )


# ---- one name per meaning (issue 45): a set or threshold is written once, and two meanings are
# never one name with two values


def _assignments():
    """(module, name, value node) for every name bound at a module's top, tuples unpacked."""
    for path in sorted(PACKAGE.rglob("*.py")):
        module = str(path.relative_to(PACKAGE))
        for node in ast.parse(path.read_text("utf-8")).body:
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if isinstance(target, ast.Name):
                        yield module, target.id, node.value
                    elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                        for name, value in zip(target.elts, node.value.elts):
                            if isinstance(name, ast.Name):
                                yield module, name.id, value


def _written_characters(value: ast.AST) -> str | None:
    """The text of a set of characters written out: "…", tuple("…"), frozenset("…"), re.compile("[…]")."""
    if isinstance(value, ast.Call) and len(value.args) == 1:
        callee = ast.unparse(value.func)
        if callee in ("tuple", "frozenset", "set"):
            value = value.args[0]
        elif callee == "re.compile" and isinstance(value.args[0], ast.Constant):
            # a pattern that is one class: a larger pattern uses a class, it does not declare one
            one_class = re.fullmatch(r"\[([^\[\]]*)\][+*]?", str(value.args[0].value))
            return one_class and one_class.group(1)
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return value.value
    return None


HAN_RANGE = ("\u4e00-\u9fff", "\\u4e00-\\u9fff")


def test_no_module_writes_its_own_set_of_sentence_ends_or_han_class():
    """vocabulary.py's SENTENCE_END_MARKS, SENTENCE_ENDED, HAN_COMMON, HAN_CHAR and HAN_ALL are the
    sets; a module that needs a wider one adds its own marks to them, by name."""
    found = [
        (module, name)
        for module, name, value in _assignments()
        if module not in VOCABULARY
        and (chars := _written_characters(value)) is not None
        and (set("。！？") <= set(chars) and "，" not in chars or any(r in chars for r in HAN_RANGE))
    ]
    assert found == []


def test_no_two_modules_write_the_same_set():
    """A class or set of five characters or more, written out in two modules, is one meaning with
    two names (the punctuation of a title was written out three times): vocabulary.py names it."""
    seen: dict[str, list[str]] = {}
    for module, _, value in _assignments():
        chars = _written_characters(value)
        if chars and len(set(chars)) >= 5 and not chars.isalnum() and "." not in chars[:1]:
            seen.setdefault(chars, []).append(module)
    assert {chars: modules for chars, modules in seen.items() if len(set(modules)) > 1} == {}


def test_no_module_writes_the_han_range_or_the_sentence_stops():
    """Not even inside a larger pattern: vocabulary.HAN_COMMON (or HAN_CHAR, HAN_ALL) and
    SENTENCE_STOPS (or SENTENCE_END_MARKS) are named."""
    written = (*HAN_RANGE, "。！？!?")
    found = [path for path, text in _sources(".py").items() if any(r in _code(text) for r in written)]
    assert found == []


def test_a_threshold_name_means_one_value():
    """LONG_CHAPTER was 100,000 in two modules and 50,000 in a third; INDENTED_SHARE 0.6 and 0.9:
    a constant's name, wherever it is bound, has one value (two meanings get two names)."""
    values: dict[str, set] = {}
    for _, name, value in _assignments():
        if name.isupper() and isinstance(value, ast.Constant) and isinstance(value.value, int | float):
            values.setdefault(name, set()).add(value.value)
    assert {name: v for name, v in values.items() if len(v) > 1} == {}


def test_the_checks_of_one_name_per_meaning_can_fail(tmp_path):
    """What the two tests above look for, seen where it is."""
    tree = ast.parse('E = tuple("。！？…")\nH = re.compile(r"[\\u4e00-\\u9fff]")\nOK = SENTENCE_ENDED\n')
    seen = [_written_characters(node.value) for node in tree.body]
    assert set("。！？") <= set(seen[0]) and any(r in seen[1] for r in HAN_RANGE) and seen[2] is None
