"""Choosing a file's headings among its candidates (bookbuilder.structure.headings), by the file's own
evidence: weak candidates only where the numbering supports them (their number runs on from a
neighbour's), families of bare numbers only three or more strong and never in a book with 第N章
headings of its own; then what the accepted headings say of each other: a site's page marks,
the items of a document inside a chapter, a label over the prologue, the file's own contents.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter

from bookbuilder.numerals import NUMERAL_CHARS, NUMERAL_RUN
from bookbuilder.structure.headings import (
    BARE_RULES,
    CHAPTER_UNIT,
    RUN_THROUGH_RULES,
    WEAK_RULES,
    Heading,
    is_bare_label,
)
from bookbuilder.structure.own_contents import drop_contents, repeated_headings, title_key
from bookbuilder.structure.passes import Choice, Reading, fields, rule_counts
from bookbuilder.structure.runs_through import gap_fillers, run_through, with_text_after, zeros_restored
from bookbuilder.vocabulary import HAN_COMMON

_NUMERAL_SET = frozenset(NUMERAL_CHARS)
# candidates, fewer and none weak: a chapter file's own heading(s), judged only against each other (every
# judgement of three of a kind needs three)
FILE_HEADINGS = 3
# headings of one kind (volumes, one unit's labels, starred titles), at least, to be a family, not chance
FAMILY_LEAST = 3


def choose_headings(reading: Reading) -> Reading:
    """The pass: the file's headings chosen among its candidates (choose)."""
    if not reading.cands:
        return reading._replace(choice=Choice({}, (), {}, {}))
    # the text between candidates weighs only numbers alone (_alone_apart): counted where there are some
    bare = any(h.rule == "bare" for h in reading.cands.values())
    return reading._replace(
        choice=choose(reading.cands, reading.before, text_before(reading) if bare else None)
    )


def text_before(reading: Reading) -> dict[int, int]:
    """Per candidate: the characters of the file's lines before it, so that what stands between two
    candidates can be weighed as text, not only counted in lines."""
    total, at, found = 0, 0, {}
    for i in reading.cands:
        total += sum(len(fields(item)[2]) for item in reading.lines[at:i])
        at, found[i] = i, total
    return found


def choose(cands: dict[int, Heading], before: dict[int, int], chars: dict[int, int] | None = None) -> Choice:
    """`cands`: line index → candidate, in order; `before[i]`: how many lines other than separators
    come before candidate i (so a run of headings with no text between them can be told); `chars[i]`,
    where known, how many characters of text."""
    if len(cands) < FILE_HEADINGS and not any(h.weak for h in cands.values()):
        return _taken_as_they_are(cands, before)  # a chapter file's own heading (most files)
    accepted = {i: h for i, h in cands.items() if not h.weak}
    strong_chapters = sum(
        1 for h in accepted.values() if h.kind == "chapter" and h.rule in ("numbered", "custom")
    )
    rejected: dict[str, int] = {}
    families: dict[str, dict[int, Heading]] = {}
    for i, h in cands.items():
        if h.weak:
            families.setdefault(h.rule, {})[i] = h
    # titles framed by separators, or starred: three or more, over text of their own (starred
    # ones only in a book without 第N章 headings of its own)
    for rule, allowed in (("framed", True), ("starred", strong_chapters < OWN_HEADINGS)):
        if family := families.pop(rule, None):
            ok = _spread_out(family, before) if allowed else {}
            accepted.update(ok)
            if len(ok) < len(family):
                rejected[rule] = len(family) - len(ok)
    _take_supported(families, accepted, rejected, cands, before, strong_chapters, chars)
    for rule in RUN_THROUGH_RULES:
        if family := families.get(rule):
            if ended := rule == "end-titled":  # 第50章 终 opens a chapter; 第八十三章完 closes one
                family = with_text_after(family, cands, accepted, before)
            ok = run_through(accepted, family, mutual=not ended, lost_after=rule == "bare-glued")
            accepted.update(ok)
            if len(ok) < len(families[rule]):
                rejected[rule] = len(families[rule]) - len(ok)
    if filled := gap_fillers(accepted, _left_out(families, accepted), before):
        accepted.update(filled)
        for h in filled.values():
            if rejected.get(h.rule, 0) > 1:
                rejected[h.rule] -= 1
            else:
                rejected.pop(h.rule, None)
    if first := _first_label_without_di(accepted, families.get("no-di", {})):
        accepted.update(first)
        rejected["no-di"] -= len(first)
        if not rejected["no-di"]:
            del rejected["no-di"]
    if families:
        accepted = _without_inner_items(
            dict(sorted(accepted.items()))
        )  # (cands, and so the strong ones, are in line order)
    if sum(h.kind == "volume" for h in accepted.values()) >= FAMILY_LEAST and not any(
        h.kind == "chapter" for h in accepted.values()
    ):
        # 第一卷 吳越王再世索江山 … with no chapter under any: the 卷 are the book's chapters
        accepted = {i: h._replace(kind="chapter") if h.kind == "volume" else h for i, h in accepted.items()}
    accepted, pages = _drop_page_marks(accepted)
    accepted = _shared_labels(accepted)
    accepted, toc, repeats, between = drop_contents(zeros_restored(accepted), before)
    labels = _labels_on_matter(accepted, before)
    for i in labels:
        del accepted[i]
    return Choice(accepted, toc, rule_counts(accepted), rejected, pages + repeats + between + labels)


def _taken_as_they_are(cands: dict[int, Heading], before: dict[int, int]) -> Choice:
    """A chapter file's few strong candidates: too few for any judgement of three of a kind (a
    family, a contents, page marks, a part named on every line), so only those between two
    neighbours are made, as in a longer file: a heading given again on the next line (第1章 来客 /
    第001章, a site's page header) and a site's label right above the book's 序章 are no chapters."""
    accepted = dict(cands)
    repeats = tuple(repeated_headings(accepted, before))
    for i in repeats:
        del accepted[i]
    labels = _labels_on_matter(accepted, before)
    for i in labels:
        del accepted[i]
    return Choice(accepted, (), rule_counts(accepted), {}, repeats + labels)


def _take_supported(families, accepted, rejected, cands, before, strong_chapters: int, chars=None) -> None:
    """Each family of candidates by one rule (numbered, the weak ones, matter, volumes): the members
    the file's numbering supports join `accepted`; how many did not is counted in `rejected`. A family
    of bare numbers is no list's items, and none in a book with 第N章 headings of its own
    (`strong_chapters`) but where they stop for long."""
    for rule in ("numbered",) + WEAK_RULES + ("matter", "financial-volume", "volume"):
        family = families.get(rule)
        if not family:
            continue
        seen = len(family)
        if rule == "bare":
            family = _alone_apart(family, before, chars)
        if rule == "other-unit":
            family = _one_unit(family)
        if rule in BARE_RULES:
            family = _without_lists(family, before, cands, rule)
        if rule in BARE_RULES and strong_chapters >= OWN_HEADINGS and family:
            # never in a book that has 第N章 headings of its own, but where they stop for long
            family = _where_numbering_stops(accepted, family, before)
        kinds = ("volume",) if family and family[next(iter(family))].kind == "volume" else ("chapter",)
        ok = _supported(accepted, family, kinds) if family else {}
        if rule in WEAK_RULES and (len(ok) < FAMILY_MIN or len(ok) < FAMILY_SHARE * len(family)):
            ok = {}
        accepted.update(ok)
        if len(ok) < seen:
            rejected[rule] = seen - len(ok)


def _left_out(families: dict[str, dict[int, Heading]], accepted: dict[int, Heading]) -> dict[int, Heading]:
    """The weak chapter candidates with a number that no family's support took (those that must run
    through had their judgement)."""
    return {
        i: h
        for rule, family in families.items()
        if rule not in RUN_THROUGH_RULES
        for i, h in family.items()
        if i not in accepted and h.kind == "chapter" and h.number is not None
    }


_OTHER_UNIT = re.compile(rf"^第{NUMERAL_RUN}(.)")


def _one_unit(family: dict[int, Heading]) -> dict[int, Heading]:
    """第一段, 第二段 …: the family's candidates counted in its most common unit (第一讲 among 第N段
    lines counts on with no 第N段)."""
    units = [_OTHER_UNIT.match(h.title).group(1) for h in family.values()]
    most = max(set(units), key=units.count)
    return {i: h for (i, h), unit in zip(family.items(), units) if unit == most}


# 第N章 headings, at least, for a book to have headings of its own: its bare numbers and starred lines
# are then text (but where its headings stop for long, heading_choice._where_numbering_stops).
OWN_HEADINGS = 3
FAMILY_MIN = 3  # a weak rule's headings the numbering supports, at the least, for any of them to be taken
FAMILY_SHARE = (
    0.5  # of the rule's candidates (those left after the lists), at the least, the numbering supports
)
# lines from one numbered line to the next, at the most (the next line), for the two to be items of one list
LIST_GAP = 1
LIST_RUN = 3  # items in a row so close, at the least, for them to be a list or a poem's numbered lines


def _without_lists(
    family: dict[int, Heading], before: dict[int, int], cands: dict[int, Heading], rule: str
) -> dict[int, Heading]:
    """A bare number's family without its lists: three or more of its lines one under another are a
    poem's numbered lines or a list of steps inside a chapter (1. 打开门 / 2. 走进去), not chapters,
    which stand apart with their text between them. A contents is left to the contents rule: a first
    run before the family's chapters and any other rule's (maybe under a blurb), or a run whose names
    come again later on headings of any rule (a volume's own contents, 01　负荆行… over 一 负荆行…)."""
    order = list(family)
    runs, run = [], order[:1]
    for a, b in zip(order, order[1:]):
        if before[b] - before[a] <= LIST_GAP:
            run.append(b)
        else:
            runs.append(run)
            run = [b]
    runs.append(run)
    other = next((i for i, h in cands.items() if h.rule != rule and h.kind == "chapter"), None)
    lists = {
        i
        for k, r in enumerate(runs)
        if len({family[j].number for j in r}) >= LIST_RUN  # (a heading given three times is one)
        and not (k == 0 and len(runs) > 1 and (other is None or r[-1] < other))  # a 目录 over the chapters
        and not _named_again(r, cands)
        for i in r
    }
    return {i: h for i, h in family.items() if i not in lists} if lists else family


def _name(heading: Heading) -> str:
    """A numbered title's name, its number aside: 01 负荆行 → 负荆行."""
    return title_key(heading.title.partition(" ")[2])


def _named_again(run: list[int], cands: dict[int, Heading]) -> bool:
    """Half the run's entries, at the least, are named again on later headings: a contents."""
    later = {_name(h) for i, h in cands.items() if i > run[-1]}
    return sum(1 for i in run if _name(cands[i]) and _name(cands[i]) in later) >= len(run) / 2


# non-blank lines without a 第N章 heading: the book's headings stopped, or changed their style, there
STOPPED = 2000
STOPPED_SECTION = 10  # lines under each of the new style's headings, at the median
# characters between numbers alone on their lines, at the median, that make them pages, not a poem's
# stanzas (a stanza is a few short lines; 我与地坛's sections hold about 1,850 characters at the median,
# the five numbered sections of a review appended to 人间失格 about 800, and stay text)
SECTION_CHARS = 1200
_TITLE_WORD = re.compile(f"[{HAN_COMMON}A-Za-z]")


def _where_numbering_stops(
    accepted: dict[int, Heading], family: dict[int, Heading], before: dict[int, int]
) -> dict[int, Heading]:
    """The family's candidates that stand in a stretch of 2,000 lines or more without a 第N章
    heading: a book whose headings change style (蜀山的少年: 第十四章 …, then 十五 漫长的朔月之夜,
    25 不能彼此相爱; 云中歌's second part under Chapter 1, Chapter 2 …)."""
    numbered = sorted(
        i for i, h in accepted.items() if h.kind == "chapter" and h.rule in ("numbered", "custom")
    )
    last = max(family)
    tail = [h for i, h in family.items() if not numbered or i > numbered[-1]]
    titled = any(_TITLE_WORD.search(h.title.partition(" ")[2]) for h in tail)
    stretches: dict[
        int, list[int]
    ] = {}  # the numbered heading before it (-1: none) → the candidates after it
    for i in family:
        k = bisect.bisect_left(numbered, i)
        start = before[numbered[k - 1]] if k > 0 else 0
        # After the last one, titled extras (盗墓笔记's 一、起源 … after 全书完) are taken as the book's
        # headings gone on in another style; untitled numbers only as far as they go (异类's 1, 2, 3
        # under its last chapter are its sections).
        end = before[numbered[k]] if k < len(numbered) else before[last] + (STOPPED if titled else 0)
        if end - start > STOPPED:
            stretches.setdefault(numbered[k - 1] if k > 0 else -1, []).append(i)
    kept = {}
    for heading, found in stretches.items():
        if heading >= 0 and before[found[0]] - before[heading] == 1:
            continue  # right under 第三十九章: its own sections (1, 2 … or （一） …), not chapters
        gaps = sorted(before[b] - before[a] for a, b in zip(found, found[1:]))
        if gaps and gaps[len(gaps) // 2] < STOPPED_SECTION:
            continue  # a questionnaire's 1 姓名？ 2 年龄？, one answer under each
        kept.update((i, family[i]) for i in found)
    return kept


def _alone_apart(
    family: dict[int, Heading], before: dict[int, int], chars: dict[int, int] | None = None
) -> dict[int, Heading]:
    """一, 二 … alone on their lines are chapters (活着, 许三观卖血记: a literary novel numbers its
    chapters and titles none) only where pages stand between them: a poem's 一 二 三 a few lines
    apart number its stanzas (夹边沟记事's last pages). Pages are told by lines or by characters:
    an essay's sections of a few long paragraphs each (我与地坛: 一 … 七, 4 to 11 lines and about
    2,000 characters apart) are chapters too. Titled ones (一 青衫磊落险峰行) stay."""
    alone = [i for i, h in family.items() if set(h.title) <= _NUMERAL_SET]
    gaps = sorted(before[b] - before[a] for a, b in zip(alone, alone[1:]))
    if not gaps or gaps[len(gaps) // 2] >= STOPPED_SECTION:
        return family
    if chars is not None:
        spans = sorted(chars[b] - chars[a] for a, b in zip(alone, alone[1:]))
        if spans[len(spans) // 2] >= SECTION_CHARS:
            return family
    return {i: h for i, h in family.items() if i not in alone}


_UNIT = re.compile(
    rf"^第\s*{NUMERAL_RUN}\s*(?P<unit>{CHAPTER_UNIT})"
)  # the unit a numbered title is counted in


def _drop_page_marks(accepted: dict[int, Heading]) -> tuple[dict[int, Heading], tuple[int, ...]]:
    """A site that pages a book by size marks each page `第N节`, untitled, between the real
    chapters' titled `第N回 …` (金瓶梅 from one site: 第1节 … 第100节 among 第一回 … 第一百回). Where the
    chapters of one unit are all untitled and those of another mostly titled, the untitled
    unit's lines are page marks: dropped."""
    units: dict[str, list[int]] = {}
    for i, h in accepted.items():
        if h.kind == "chapter" and h.rule == "numbered" and (m := _UNIT.match(h.title)):
            units.setdefault(m.group("unit"), []).append(i)
    if len(units) < 2:
        return accepted, ()
    bare = {u: [i for i in found if is_bare_label(accepted[i].title)] for u, found in units.items()}
    pages = [u for u, found in units.items() if len(found) >= FAMILY_LEAST and len(bare[u]) == len(found)]
    titled = [
        u for u, found in units.items() if len(found) >= FAMILY_LEAST and len(bare[u]) <= 0.2 * len(found)
    ]
    if len(pages) != 1 or not titled:
        return accepted, ()
    marks = set(units[pages[0]])
    return {i: h for i, h in accepted.items() if i not in marks}, tuple(sorted(marks))


SHARED_RUN = 3  # headings in a row under one 第N章 and one name, at the least, for that to be a volume


def _shared_labels(accepted: dict[int, Heading]) -> dict[int, Heading]:
    """第一章 墓中寻龙 盗墓（一）, 第一章 墓中寻龙 厉种, 第一章 墓中寻龙 驴头狼 …: a book whose 章 is a
    part (鬼吹灯之牧野诡事: 4 章 over 141 headings, 125 of them "repeats") names the part on every
    chapter's line. Three or more headings in a row with the same number and name, each with a title
    of its own after them: the number and name are the volume, the rest the chapter's title."""
    seq = [
        i
        for i, h in accepted.items()
        if h.kind == "chapter"
        and h.rule == "numbered"
        and h.number is not None
        and not h.volume
        and (h.part or 0) < 2
        and h.title.count(" ") >= 2
    ]  # (第一章 风起 云涌（2）: a paged site's next page; 入口（一） may open a part's chapters)
    runs: list[list[int]] = []
    for i in seq:
        key = accepted[i].title.split(" ", 2)[:2]
        if (
            runs
            and accepted[runs[-1][-1]].title.split(" ", 2)[:2] == key
            and accepted[runs[-1][-1]].number == accepted[i].number
        ):
            runs[-1].append(i)
        else:
            runs.append([i])
    changed = dict(accepted)
    for run in runs:
        if len(run) < SHARED_RUN or len({accepted[i].title.split(" ", 2)[2] for i in run}) < len(run) / 2:
            continue
        for i in run:
            label, name, title = accepted[i].title.split(" ", 2)
            changed[i] = accepted[i]._replace(title=title, volume=f"{label} {name}", number=None)
    return changed


INNER_WINDOW = 30  # headings looked past for the next chapter's number


def _without_inner_items(accepted: dict[int, Heading]) -> dict[int, Heading]:
    """Between chapter 14 and chapter 15 of one rule, no other numbered line is a chapter: bare
    numbers there (一 / 1 / （2）) number the items of a document inside chapter 14 (a report's
    outline in 三体, whose chapters are 1科学边界 … 35虫子), unless chapter 15 goes on from them:
    then the numbering started again (长安幻夜: (一) … (四), (一) … (五)). Only bare numbers are
    dropped so: a 第N章 line between is a page or a misprint, judged by the numbering as ever."""
    seq = [(i, h) for i, h in accepted.items() if h.kind == "chapter" and h.number is not None]
    inner: set[int] = set()
    under: Counter = Counter()  # (a chapter's rule, its items' rule) → chapters they were found under
    last = {h.rule: k for k, (_, h) in enumerate(seq)}
    for k, (i, h) in enumerate(seq):
        if k + 1 < len(seq) and seq[k + 1][1].number == h.number + 1:
            continue  # most chapters: the next one runs on
        for m in range(k + 2, min(k + 2 + INNER_WINDOW, len(seq))):
            g = seq[m][1]
            if g.rule == h.rule and g.number == h.number + 1:
                if seq[m - 1][1].number != g.number - 1:  # (not a run that g goes on from: 长安幻夜)
                    items = _items(seq[k + 1 : m], h)
                    inner.update(items)
                    under.update({(h.rule, b.rule) for j, b in seq[k + 1 : m] if j in items})
                break
        else:
            if last[h.rule] == k and i not in inner:
                inner.update(_last_part_items(seq[k + 1 :], h, under))
    return {i: h for i, h in accepted.items() if i not in inner} if inner else accepted


def _last_part_items(after: list[tuple[int, Heading]], h: Heading, under: Counter) -> set[int]:
    """The last part (七、卡列宁的微笑 over １ … ７), with no part after it to bound its items: what
    follows it is its items where it is all one run, 1, 2, 3 … to the end, of a rule whose items
    were found so under ITEM_PARTS parts of its rule before it."""
    if not after or under[(h.rule, after[0][1].rule)] < ITEM_PARTS:
        return set()
    if any(b.rule != after[0][1].rule or b.number != n for n, (_, b) in enumerate(after, 1)):
        return set()
    return _items(after, h)


ITEM_PARTS = 2  # chapters whose items were numbered so, for the last chapter's run to be items too


def _items(between: list[tuple[int, Heading]], h: Heading) -> set[int]:
    """The bare-numbered lines between chapter h and the next: items, not chapters. One with h's own
    number alone of its rule is h given again (一 轻与重, then 1); one of a run (1, 2, 3 under 二、灵与肉,
    昆德拉's sections) is an item like the others."""
    runs = Counter(b.rule for _, b in between if b.weak and b.rule in BARE_RULES)
    return {
        i
        for i, b in between
        if b.weak and b.rule in BARE_RULES and (b.number != h.number or runs[b.rule] > 1)
    }


STARRED_GAP = 3  # lines of text the starred titles have between them, at the median
DISTINCT_STARRED = 0.8  # of the starred titles at least, each its own


def _spread_out(family: dict[int, Heading], before: dict[int, int]) -> dict[int, Heading]:
    """The starred titles, where three or more stand over text of their own (not a list of
    starred points, one under the other) and each is its own (◎简 under every essay of 简媜文集
    is the author's name)."""
    if len({h.title for h in family.values()}) < DISTINCT_STARRED * len(family):
        return {}
    order = list(family)
    gaps = sorted(before[b] - before[a] - 1 for a, b in zip(order, order[1:]))
    return family if len(order) >= FAMILY_LEAST and gaps[len(gaps) // 2] >= STARRED_GAP else {}


def _labels_on_matter(accepted: dict[int, Heading], before: dict[int, int]) -> tuple[int, ...]:
    """A site's untitled page label right above the book's own 序章 or 后记 ([正文 第1节] then 序章,
    a 三体II download): the label would be an empty chapter; the matter heading is the one."""
    order = list(accepted)
    return tuple(
        a
        for a, b in zip(order, order[1:])
        if before[b] - before[a] == 1
        and accepted[b].kind in ("front", "back")
        and accepted[a].kind == "chapter"
        and is_bare_label(accepted[a].title)
    )


_UNIT_AFTER_NUMBER = re.compile(rf"^第?{NUMERAL_RUN}\s*(\S)")


def _first_label_without_di(accepted: dict[int, Heading], family: dict[int, Heading]) -> dict[int, Heading]:
    """一回 before 第二回, 第三回 …: the book's first label with its 第 lost (a one-line classic's
    download), taken where it is the last 一回 before the first of the book's own headings, and
    those start at 2 in the same unit. A 一回 anywhere else stays the sentence it is."""
    chapters = sorted((i, h) for i, h in accepted.items() if h.kind == "chapter")
    if len(chapters) < 2 or chapters[0][1].number != 2 or chapters[1][1].number != chapters[0][1].number + 1:
        return {}
    first, heading = chapters[0]
    before = [(i, h) for i, h in family.items() if i < first and h.number == 1 and h.kind == "chapter"]
    if not before or any(before[-1][0] < i < first for i in accepted):
        return {}
    i, h = before[-1]
    unit, own = _UNIT_AFTER_NUMBER.match(h.title), _UNIT_AFTER_NUMBER.match(heading.title)
    if not unit or not own or unit.group(1) != own.group(1):
        return {}
    return {i: h._replace(weak=False)}


def _supported(accepted: dict[int, Heading], family: dict[int, Heading], kinds) -> dict[int, Heading]:
    """The family's candidates whose number runs on from the heading before them (accepted or of
    the family), or on to the one after them."""
    seq = sorted(
        (j, g) for j, g in {**accepted, **family}.items() if g.kind in kinds and g.number is not None
    )
    ok = {}
    for k, (i, h) in enumerate(seq):
        if i not in family or accepted.get(i) is h:
            continue
        before = seq[k - 1][1].number if k > 0 else None
        nxt = k + 1
        while (
            nxt < len(seq)
            and seq[nxt][0] == seq[nxt - 1][0] + 1
            and seq[nxt][1].number == h.number
            and title_key(seq[nxt][1].title) == title_key(h.title)
        ):
            nxt += (
                1  # past its own repeat on the next line (1.失业 / 1.失业　　…): the heading after them says
            )
        after = seq[nxt][1].number if nxt < len(seq) else None
        # the same heading again, or the number alone then with its title (11, then 11、破关)
        repeat = k > 0 and (
            title_key(seq[k - 1][1].title) == title_key(h.title)
            or (" " not in seq[k - 1][1].title and h.title.startswith(seq[k - 1][1].title + " "))
        )
        typo = (
            before is not None and after is not None and after == before + 2 and h.number in (before, after)
        )
        # 第一章（一） before 第一章（二）: a paged chapter's first page, its second right after it
        first_page = h.part == 1 and after == h.number and seq[nxt][1].part == 2
        # a scrape that wrote the newest chapters first: 第1312章, 第1311章 一念，永恒, 第1310章 (both sides)
        backward = before == h.number + 1 and after == h.number - 1
        if (
            before == h.number - 1
            or after == h.number + 1
            or backward
            or (before == h.number and (h.part or repeat))
            or typo
            or first_page
        ):
            ok[i] = h  # typo: 三十六回 twice between 三十五 and 三十八, the second one the source's misprint
    # A second look, past the candidates left out: a misprinted neighbour (第四十八章 between
    # 第一百四十七章 and 第一百四十八章, 大唐再起) must not cost the next heading its support.
    taken = sorted(
        (j, g.number) for j, g in {**accepted, **ok}.items() if g.kind in kinds and g.number is not None
    )
    where = [j for j, _ in taken]
    for i, h in family.items():
        if i in ok or h.number is None or h.kind not in kinds:
            continue
        k = bisect.bisect_left(where, i)
        if (k > 0 and taken[k - 1][1] == h.number - 1) or (k < len(taken) and taken[k][1] == h.number + 1):
            ok[i] = h
    ok.update((i, h) for i, h in family.items() if h.number is None and h.kind in ("front", "back"))
    return ok
