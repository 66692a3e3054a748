"""Debris judges declare their hints (normalize/debris.LINE_JUDGES, normalize/forms.FORM_HINTS):
the prefilter of normalize/lines.py is built from the declarations, so a judge added with its
hint words runs on the lines they find, with nothing else to change."""

import re

from bookbuilder.model import Chapter, Location, Paragraph
from bookbuilder.normalize import debris
from bookbuilder.normalize.debris import LineJudge
from bookbuilder.normalize.hints import Hint
from bookbuilder.normalize.lines import debris_hints
from bookbuilder.normalize.rules import normalizer

# A line no judge of the package hints at: no letter, picture, mark or site word in it.
TOY_LINE = "喵喵喵喵喵喵"


def _cleaned(*texts):
    chapter = Chapter(
        "第一章",
        tuple(Paragraph(t, Location("f.txt", i)) for i, t in enumerate(texts, 1)),
        Location("f.txt", 1),
    )
    new, counts, diagnostics = normalizer({"unwrap": False}, "zh-Hans").chapter(chapter)
    return [b.text for b in new.blocks], counts


def _toy(text: str) -> str:
    return "a cat's line" if re.fullmatch("喵+", text) else ""


def test_a_registered_judge_runs_on_the_lines_its_hints_find(monkeypatch):
    story = "他转身走了，没有回头。"
    assert not debris_hints()(TOY_LINE)
    assert _cleaned(story, TOY_LINE)[0] == [story, TOY_LINE]
    toy = LineJudge("toy-cat", _toy, (Hint(words=("喵喵",)),))
    monkeypatch.setattr(debris, "LINE_JUDGES", (*debris.LINE_JUDGES, toy))
    assert debris_hints()(TOY_LINE)
    kept, counts = _cleaned(story, TOY_LINE)
    assert kept == [story]
    assert counts["junk:toy-cat"] == 1


def test_every_judge_declares_a_hint_and_the_prefilter_finds_each_fixture():
    # a line each judge takes (from tests/normalize/test_evidence.py's tables), found by the prefilter
    taken = {
        "banner-art": "●▄m●",
        "site-counters": "总点击数：1528456　总书评数：61580",
        "disclaimer": "【本作品来自互联网,本人不做任何负责】版权归原文作者！",
        "app-advert": "下载某某阅读器，免费看全本",
        "collector-credit": "某某书库收集整理",
        "copyright-line": "Copyright © 2008-2015 某某 All Rights Reserved",
        "end-marker": "<-SITEEND->",
        "crawler-leftover": "undefined",
        "script-line": "$(function(){",
    }
    hint = debris_hints()
    for judge in debris.LINE_JUDGES:
        assert judge.hints, judge.name
    for name, line in taken.items():
        assert debris.judge_line(line)[0] == name, line
        assert hint(line), line
