"""A source's own table of contents, found among the heading candidates and dropped: a run of
headings with no text between them (多情剑客无情剑, 七劍十三俠, 张居正), or with a line or two under
each entry where the same chapters come again later with their text (紅樓夢's 目錄: `第 一 回`
and its couplet on two lines, 120 times).
"""

from __future__ import annotations

import re
from collections import Counter
from statistics import median

from bookbuilder.structure.headings import is_bare_label

SPACED_GAP = 2  # lines under a contents entry (a couplet title on two lines)
LATER_GAP = 5  # lines under a real chapter, at the least, in the median
CONTENTS_RUN = 3  # headings in a row with no text between, at least, for a contents (one is a chapter's)
# Lines between a heading and the same heading given again (a site's index line over the body's own
# 第一回, a page header or an advert between them): one chapter. More lines are a chapter's text.
REPEAT_GAP = 2
# of the steps between empty chapters' numbers, at least, that number on (by 0 to 2): a crawler's run
# misordered now and then (第七十章, 第六十九章, 第七十章), not a list in another order
RUN_ON_SHARE = 0.8


def drop_contents(accepted: dict, before: dict[int, int]):
    """(headings kept, contents entries dropped, the same heading repeated, lines under entries)."""
    accepted, toc, repeats = _drop_runs(accepted, before)
    spaced, between = _spaced_contents(accepted, before)
    for i in spaced:
        del accepted[i]
    return accepted, tuple(toc) + spaced, repeats, between


def _spaced_contents(accepted: dict, before: dict[int, int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A run of 3+ chapters each with at most two lines under it, whose numbers all come again
    later, in the same order, under headings with text: the contents, and the lines between."""
    order = [i for i, h in accepted.items() if h.kind == "chapter" and h.number is not None]
    gaps = {a: before[b] - before[a] - 1 for a, b in zip(order, order[1:])}
    runs, run = [], []
    for i in order:
        if run and accepted[i].number <= accepted[run[-1]].number:  # the numbers start again
            runs.append(run)
            run = []
        run.append(i)
        if gaps.get(i, SPACED_GAP + 1) > SPACED_GAP:  # text under it: the run ends with it
            runs.append(run)
            run = []
    position = {i: k for k, i in enumerate(order)}
    runs.append(run)  # the last run, open at the end of the file
    for run in runs:
        if len(run) < CONTENTS_RUN:
            continue  # most runs: one chapter with its text
        later = _again_in_order(run, order[position[run[-1]] + 1 :][: 2 * len(run)], accepted)
        if later and median(gaps.get(j, LATER_GAP) for j in later) >= LATER_GAP:
            run = _with_its_matter(run, accepted, before)
            last = run[-1]
            lines = tuple(
                k
                for k in range(run[0] + 1, later[0])
                if k not in accepted and (k < last or k - last <= SPACED_GAP)
            )
            return tuple(run), lines
    return (), ()


def _again_in_order(run: list[int], after: list[int], accepted: dict) -> list[int]:
    """The chapters after the run that give its numbers again, in its order, or [] where one is
    missing: a contents whose entry was not read as a heading (天龙八部's five 卷, 三、破阵子 among them,
    a line too long) still lists the others in the body's order."""
    found, k = [], 0
    for i in run:
        while k < len(after) and accepted[after[k]].number != accepted[i].number:
            k += 1
        if k == len(after):
            return []
        found.append(after[k])
        k += 1
    return found


def _with_its_matter(run: list[int], accepted: dict, before: dict[int, int]) -> list[int]:
    """The contents' other entries: the parts, the 序 and the 结语 it lists among and around its
    chapters (异类's 目录: 序, 第一部分, 第一章 …, 结语, each over a line of epigraph), each within
    two lines of the next entry and named again later in the book."""
    order = list(accepted)
    titles = [title_key(accepted[i].title) for i in order]
    at = {i: k for k, i in enumerate(order)}
    first, last = at[run[0]], at[run[-1]]

    def listed(k: int) -> bool:
        return accepted[order[k]].kind != "chapter" and titles[k] in titles[max(k, last) + 1 :]

    while (
        first > 0 and before[order[first]] - before[order[first - 1]] - 1 <= SPACED_GAP and listed(first - 1)
    ):
        first -= 1
    while (
        last + 1 < len(order)
        and before[order[last + 1]] - before[order[last]] - 1 <= SPACED_GAP
        and listed(last + 1)
    ):
        last += 1
    return [i for i in order[first : last + 1] if i in run or accepted[i].kind != "chapter"]


def _drop_runs(accepted: dict, before: dict[int, int]):
    """A run of headings with no text between them that holds 3+ chapters is a table of contents;
    its last heading is kept when its title does not come again later (the first real chapter)."""
    repeats = repeated_headings(accepted, before)
    for i in repeats:
        del accepted[i]
    order = list(accepted)
    runs, run = [], order[:1]
    for a, b in zip(order, order[1:]):
        if before[b] - before[a] > 1:  # text between them
            runs.append(run)
            run = [b]
        else:
            run.append(b)
    if run:
        runs.append(run)
    toc: list[int] = []
    named_times: Counter | None = None  # each name's headings in the file, counted where a run asks
    chapters_in = [sum(accepted[i].kind == "chapter" for i in run) for run in runs]
    listed = {i for run, n in zip(runs, chapters_in) if n >= CONTENTS_RUN for i in run[:-1]}
    for run, n in zip(runs, chapters_in):
        if n < CONTENTS_RUN and not _named_again(run[:-1], order, accepted):
            continue
        if named_times is None:
            named_times = Counter(key for h in accepted.values() for key in set(_names(h)))
        if _empty_chapters(run, order, accepted, named_times):
            continue
        last = run[-1]
        # named later by a heading over text, not by another list (白夜行's e-book contents at its end)
        body = [j for j in order if j > last and j not in listed]
        later = {title_key(accepted[j].title) for j in body}
        named = {_numbered_name(accepted[j]) for j in body}  # 第008回 … is 第八回 … given again
        keep_last = (
            last != order[-1]
            and title_key(accepted[last].title) not in later
            and (not _numbered_name(accepted[last]) or _numbered_name(accepted[last]) not in named)
            and not _numbering_restarts(last, order, accepted)
        )
        # ●第二卷 惊风密雨 over its own contents (01　负荆行 …): the volume opens here; a volume listed in a
        # contents (异类's 第一部分 among its chapters) is named again later, and goes with it
        keep_first = accepted[run[0]].kind == "volume" and not _volume_named_again(
            accepted[run[0]], [accepted[j] for j in order if j > last]
        )
        toc += run[keep_first:-1] if keep_last else run[keep_first:]
        chapters = [i for i in run if accepted[i].kind == "chapter"]
        if len(chapters) >= CONTENTS_RUN:  # the parts it lists over their entries (七劍十三俠's 第一部分)
            toc += [i for i in _with_its_matter(chapters, accepted, before) if i not in run and i not in toc]
    for i in toc:
        del accepted[i]
    return accepted, toc, tuple(repeats)


def _empty_chapters(run: list[int], order: list[int], accepted: dict, named_times: Counter) -> bool:
    """Chapters whose text the download lacks, not a contents (妖神记 from one crawler: 第一章 … 第二十三章
    each alone on its line, then 第二十四章 with its text; 我的徒弟都是大反派, two thirds of its 1,091
    chapters so): numbered chapters only, most numbered on from the one before (`RUN_ON_SHARE`: a site
    misorders one now and then), the run numbered on from the chapter before it or into the one after
    it, and none of them named again anywhere else in the file. A contents names its chapters again
    below, or its numbering starts again after it."""
    heads = [accepted[i] for i in run]
    if not all(_numbered_chapter(h) for h in heads):
        return False
    steps = [b.number - a.number for a, b in zip(heads, heads[1:])]
    if sum(0 <= step <= 2 for step in steps) < RUN_ON_SHARE * len(steps):
        return False
    at = order.index(run[0])
    before = next((accepted[j] for j in reversed(order[:at]) if _numbered_chapter(accepted[j])), None)
    after = next((accepted[j] for j in order[at + len(run) :] if _numbered_chapter(accepted[j])), None)
    if not (
        (before is not None and before.number + 1 == heads[0].number)
        or (after is not None and after.number == heads[-1].number + 1)
    ):
        return False
    in_run = Counter(key for h in heads for key in set(_names(h)))
    return all(named_times[key] == n for key, n in in_run.items())


def _names(heading) -> tuple:
    """What names a heading, for telling whether it is given again: its title, its number and name."""
    return (title_key(heading.title), _numbered_name(heading))


def _numbered_chapter(heading) -> bool:
    return heading.kind == "chapter" and heading.number is not None


def repeated_headings(accepted: dict, before: dict[int, int]) -> list[int]:
    """The headings to drop where one is given again within REPEAT_GAP lines (1.第1章 甲 / 第1章 甲; a
    site's 第001回 甲 over the body's 第一回 甲; 第1章 来客 / 第001章, its number alone under it as a
    site's page header): all of each chain of them but one, not an empty chapter and then the text."""
    order = list(accepted)
    dropped, chain = [], order[:1]
    for a, b in zip(order, order[1:]):
        if before[b] - before[a] - 1 <= REPEAT_GAP and _again(accepted[a], accepted[b]):
            chain.append(b)
            continue
        dropped += _all_but_kept(chain, accepted, before)
        chain = [b]
    return dropped + _all_but_kept(chain, accepted, before)


def _all_but_kept(chain: list[int], accepted: dict, before: dict[int, int]) -> list[int]:
    """All of a chain but the heading over the text: the first with a name after the last line that
    stood between two of them. The lines between stay where they stand, so that a page header is right
    before the heading kept (西游记-- over the body's 第二回, under a site's 第002回), where page_headers
    finds it; only the heading said again goes."""
    if not chain:
        return []
    last = max(k for k in range(len(chain)) if k == 0 or before[chain[k]] - before[chain[k - 1]] > 1)
    named = [i for i in chain if not is_bare_label(accepted[i].title)]
    kept = next((i for i in chain[last:] if i in named), named[-1] if named else chain[0])
    return [i for i in chain if i != kept]


def _volume_named_again(volume, later: list) -> bool:
    """The volume's name on a later heading, its own or a chapter's line (卷一：木兰歌 in a contents, then
    第一卷：木兰歌 第一回 … over the text)."""
    name = title_key(volume.title.partition(" ")[2] or volume.title)
    names = {
        title_key(t.partition(" ")[2] or t)
        for h in later
        for t in (h.title if h.kind == "volume" else None, h.volume)
        if t
    }
    return name in names


def _numbered_name(heading) -> tuple:
    """A heading as its number and name, however the number is written (第008回 甲 and 第八回 甲 are one)."""
    return (
        (heading.kind, heading.number, title_key(heading.title.partition(" ")[2]))
        if heading.number is not None
        else ()
    )


def _numbering_restarts(last: int, order: list[int], accepted: dict) -> bool:
    """The contents' last entry is no first chapter where the next chapter after it goes back in
    the numbering (the contents ends at 第五十章, the text starts at 第一章), though its own title is
    not given again word for word (a download that lacks its last chapters, or titles it otherwise)."""
    here = accepted[last]
    after = next(
        (
            accepted[j]
            for j in order
            if j > last and accepted[j].kind == "chapter" and accepted[j].number is not None
        ),
        None,
    )
    return (
        here.kind == "chapter"
        and here.number is not None
        and after is not None
        and after.number <= here.number
    )


def _named_again(run: list[int], order: list[int], accepted: dict) -> bool:
    """Three or more headings of any kind, each named again later at the start of a heading (三体II's
    目录: 序章, 上 部 面壁者, 中 部 咒语, 下 部 黑暗森林; then 上部 面壁者危机 …): a contents of parts. The
    run's last heading is left out of the test: it may be the first real one (序章 over its text)."""
    if len(run) < CONTENTS_RUN:
        return False
    later = [title_key(accepted[j].title) for j in order if j > run[-1]]
    return all(any(t.startswith(title_key(accepted[i].title)) for t in later) for i in run)


def _again(first, then) -> bool:
    """The heading given again: the same title; or the same chapter number with its number alone in
    another style (第2章 来客 / 第002章, a site's page header under the chapter's title), or with the same
    name, however the number is written and whatever marks the name wears (第001回 灵根育孕 over 第一回
    灵根育孕; 第九十章 【曝光了！】 over 第九十章 曝光了！)."""
    return title_key(first.title) == title_key(then.title) or (
        then.number is not None
        and then.number == first.number
        and first.kind == then.kind == "chapter"
        and first.part == then.part
        and (is_bare_label(then.title) or _name_key(first.title) == _name_key(then.title) != "")
    )


def _name_key(title: str) -> str:
    """A numbered title's name, its marks and spaces aside (【“公主殿下”】（下） reads 公主殿下下)."""
    return re.sub(r"[\W_]+", "", title.partition(" ")[2])


def title_key(title: str) -> str:
    """A title as compared with another: its spaces aside."""
    return re.sub(r"\s+", "", title)
