"""Markup debris that is not HTML's own: what a scraper's escaping, misspelling and private
markup leave in a paragraph once clean.py's strip_html has taken the real tags out (HTML-2).

- An entity escaped twice (`&amp;lt;/span&amp;gt;`) is decoded until it is text, and the tag it
  spelt is then taken out as any tag is (the caller runs its tag pass again).
- An entity-shaped token (`&` + a name as HTML spells them, lower case after a capital, digits at
  the end, or a number + `;`) that is no entity is either a near miss of one a scraper writes
  (`&qut;` 464 times at a dialogue's end in a 红楼梦, `&1t;` with a one for the l, `&039;` without
  its #): decoded as that one, since the reader expects the quote mark the page showed; or it is
  removed. `&JG5ZR;` (capitals inside) is not entity-shaped: it is a run of mojibake, left as it is.
- A tag-shaped token whose name is no HTML element is markup when prose could not have written it:
  a closing tag (`</font1>`), a self-closing one, a declaration (`<!go>`), one with attributes
  (`<INPUT TYPE=button …>`), or a machine's identifier as its name (an underscore or a run of
  digits: `<PIXTEL_MMI_EBOOK_2005>`).
  A bare word stays (`<QQ>`, `<Hello>`: ASCII angle brackets are a title mark in web novels, as
  `<<西游记>>` is), and so does any `<` not closed on a name (`a<b`, `I <3 you`, `<_<`).
- A lost character: an identifier with a number standing against a Han character
  (`贾<bzhlm2_002bz>、`: the site's image of a character it could not encode) or a numeric entity
  without its number (`《汉书&#;西域传》`) is written as 〓, the geta mark for a missing glyph, and
  reported (W204), so that the reader sees a character is missing and the user can supply it
  (book.toml [[fix]]); taking it out silently would join the words on either side.
- Code a page's script or a cut tag leaves in the text: a call of the page's functions
  (`app2();read2();`, `chaptererror();`: one 一念永恒 scrape, 476 lines) and the tail of a tag whose
  opening the scraper cut (`《斜阳》 href='1438/im'>《人间失格》`). Prose writes neither a name
  followed by `();` nor an HTML attribute quoted and closed by `>`.
"""

from __future__ import annotations

import html
import re
from html.entities import html5

from bookbuilder.vocabulary import (
    CLOSING_QUOTES,
    HAN_COMMON,
    LOST_GLYPH,
    SCRAPED_ENTITIES,
    SENTENCE_END_MARKS,
)

_ENTITY_SHAPE = re.compile(r"&(#[xX][0-9a-fA-F]{0,6}|#\d{0,7}|[A-Za-z0-9]{1,10});")
# What a misspelt entity looks like: lower case (after a capital: &Agrave;), digits (&frac12;, &039;
# without its #, &1t; with a one for the l). AT&T; R&D; and mojibake's &JG5ZR; are not it.
_DEBRIS_NAME = re.compile(r"[A-Z]?[a-z0-9]{1,10}")
# Look-alike digits a scraper's misspelling puts for letters (&1t;/p> is biquge's, on purpose).
_LOOKALIKE_DIGITS = str.maketrans("10", "lo")
_TWICE = re.compile(r"&amp;(?=(?:#?[A-Za-z0-9]{1,10});)")
_ANGLE = re.compile(r"(&gt;|>)|(&lt;|<)")
# <name …>, </name>, <name/>, <!name> (what HTML opens a declaration with); a name may hold a slash
# (<bzhlm2_002/bz>: another download's copy of the same placeholder).
_TAG_SHAPE = re.compile(
    r"(?<!<)<([/!]?)([A-Za-z][A-Za-z0-9_:.-]{0,40}(?:/[A-Za-z0-9_:.-]{1,20})*)(\s[^<>]{0,200}?)?(/?)>(?!>)"
)
_MACHINE_NAME = re.compile(r"_|\d{3}")
# a script's call: a name (dotted: document.write), its arguments, `);`
# with no arguments (a story that shows code, print("hi");, keeps it): two or more in a row, or one
# glued after a sentence's last mark, before a space or the paragraph's end (求收藏！！app2();).
# One call alone on its line, or inside a sentence, may be a book about code's (alert();) and stays.
_CALL = r"[A-Za-z_$][A-Za-z0-9_$.]{1,40}\(\);"
_AFTER_SENTENCE = re.escape(SENTENCE_END_MARKS + CLOSING_QUOTES + "~～.】")
_SCRIPT_CALL = re.compile(rf"(?:{_CALL}){{2,}}|(?<=[{_AFTER_SENTENCE}]){_CALL}(?=\s|$)")
_ONLY_CALLS = re.compile(rf"(?:{_CALL}\s*)+")  # a line of them: junk.toml's script-call takes it whole
# HTML's own attribute names (the standard's, not a site's): a tag's tail is one of them, quoted, then >
_ATTRIBUTES = "href|src|class|id|style|target|title|alt|name|onclick|onload|rel|type|value|align|width|height"
_TAG_TAIL = re.compile(
    rf"\s?(?<![A-Za-z0-9_-])(?:{_ATTRIBUTES})\s?=\s?(['\"])[^'\"<>\n]{{0,200}}\1(?:\s[^<>\n]{{0,80}})?\s?/?>",
    re.I,
)
_HAN = re.compile(f"[{HAN_COMMON}]")
_LATIN_LETTERS = re.compile("[A-Za-z]{2}")


def decode_entities(text: str, removed: list[str], lost: list[str]) -> str:
    """Entities decoded (twice-escaped ones until they are text), near misses of the ones scrapers
    write decoded as those, other entity-shaped tokens removed (appended to `removed`), a numeric
    one without its number written as the lost-glyph mark (appended to `lost`)."""
    while _TWICE.search(text):
        text = _TWICE.sub("&", text)

    def decoded(m: re.Match) -> str:
        name = m.group(1)
        if f"{name};" in html5:
            return html5[f"{name};"]
        if name.startswith("#") and name.strip("#xX") == "":
            lost.append(m.group(0))
            return LOST_GLYPH
        if name.startswith("#") or name.isdigit():  # &039; is &#039; without its #
            character = html.unescape(f"&#{name.lstrip('#')};")
            if character != "\ufffd" and (character.isprintable() or not character.isascii()):
                return character  # &#8203; stays the zero-width space it is, as HTML-1 left it
        elif not _DEBRIS_NAME.fullmatch(name):
            return m.group(0)
        meant = _near_miss(name, m.string, m.start(), m.end())
        if meant:
            return html5[f"{meant};"]
        if len(name) == 1:  # a&b;c: too short to tell from a formula, unless it is a near miss
            return m.group(0)
        removed.append(m.group(0))
        # between two Latin letters it kept two words apart (Her&rubsp;me as famiiar)
        return (
            " "
            if _LATIN_LETTERS.fullmatch(m.string[m.start() - 1 : m.start()] + m.string[m.end() : m.end() + 1])
            else ""
        )

    return _ENTITY_SHAPE.sub(decoded, text).replace("\xa0", " ")


def _near_miss(name: str, text: str, start: int, end: int) -> str:
    """The entity a scraper writes that `name` misspells: its look-alike digits read as letters, or
    one letter added, dropped or changed. Between &lt; and &gt; (`&t;` is one letter from both),
    the angle bracket that pairs with the next (or the last) one in the paragraph; '' if none."""
    folded = name.lower().translate(_LOOKALIKE_DIGITS)
    if folded in SCRAPED_ENTITIES:
        return folded
    near = [e for e in SCRAPED_ENTITIES if _one_edit(folded, e)]
    if len(near) == 1:
        return near[0]
    if set(near) == {"lt", "gt"}:
        after = _ANGLE.search(text, end)
        if after and after.group(1):
            return "lt"
        before = [a for a in _ANGLE.finditer(text, 0, start)]
        if before and before[-1].group(2):
            return "gt"
    return ""


def _one_edit(a: str, b: str) -> bool:
    """Whether one letter added, dropped or changed makes `a` into `b` (and they differ)."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def foreign_tags(text: str, removed: list[str], lost: list[str]) -> str:
    """Tags of names HTML does not have, where prose could not have written them: removed
    (appended to `removed`), or, for a glyph's placeholder, the lost-glyph mark (appended to `lost`)."""
    if "<" not in text:
        return text

    def replaced(m: re.Match) -> str:
        closing, name, attributes, self_closing = m.group(1), m.group(2), m.group(3), m.group(4)
        machine = bool(_MACHINE_NAME.search(name))
        if not (closing or self_closing or (attributes and "=" in attributes) or machine):
            return m.group(0)  # a bare word: <QQ>, <Hello>
        if machine and not closing and not attributes and any(c.isdigit() for c in name):
            before, after = text[m.start() - 1 : m.start()], text[m.end() : m.end() + 1]
            if _HAN.match(before) or _HAN.match(after) or after == "<" and _placeholder_run(text, m.end()):
                lost.append(m.group(0))
                return LOST_GLYPH
        removed.append(m.group(0))
        return ""

    return _TAG_SHAPE.sub(replaced, text)


def _placeholder_run(text: str, at: int) -> bool:
    """Whether placeholders follow from `at` up to a Han character (嗗<x_005><x_005>一片响声)."""
    while (m := _TAG_SHAPE.match(text, at)) and _MACHINE_NAME.search(m.group(2)):
        at = m.end()
    return bool(_HAN.match(text, at))


def code_leftovers(text: str, removed: list[str]) -> str:
    """A page's script calls and the tails of cut tags taken out (each appended to `removed`)."""
    if ");" in text and not _ONLY_CALLS.fullmatch(text.strip()):
        removed += _SCRIPT_CALL.findall(text)
        text = _SCRIPT_CALL.sub("", text)
    if ">" in text:
        removed += [m.group(0) for m in _TAG_TAIL.finditer(text)]
        text = _TAG_TAIL.sub("", text)
    return text
