"""Legado replace rules' scope fields, as Legado applies them (gedoor/legado ReplaceRuleDao:
findEnabledByTitleScope / findEnabledByContentScope): scopeTitle (default false) puts a rule on
chapter titles, scopeContent (default true) on the text, excludeScope names books it is not for."""

import json

import pytest

from bookbuilder.pipeline import load_book
from tests.conftest import write_book

TEXT = "第一章 甲乙\n他走进院子，甲乙看见一棵老树。\n"


def _built(tmp_path, rule: dict, title: str = "测试书"):
    (tmp_path / "rules.json").write_text(json.dumps([{"name": "规则", "isRegex": False, **rule}]), "utf-8")
    root = write_book(
        tmp_path, {"1.txt": TEXT}, f'[book]\ntitle = "{title}"\n[normalize]\nreplace_rules = "rules.json"\n'
    )
    chapter = next(load_book(root).book.chapters())
    return chapter.title, chapter.blocks[0].text


@pytest.mark.parametrize(
    "fields, title, text",
    [
        ({}, "第一章 甲乙", "他走进院子，丙丁看见一棵老树。"),  # Legado's defaults: text only
        ({"scopeTitle": True}, "第一章 丙丁", "他走进院子，丙丁看见一棵老树。"),
        ({"scopeTitle": True, "scopeContent": False}, "第一章 丙丁", "他走进院子，甲乙看见一棵老树。"),
        ({"scopeTitle": False, "scopeContent": False}, "第一章 甲乙", "他走进院子，甲乙看见一棵老树。"),
        ({"scopeTitle": True, "excludeScope": "测试书"}, "第一章 甲乙", "他走进院子，甲乙看见一棵老树。"),
        (
            {"scopeTitle": True, "excludeScope": "别的书;另一本"},
            "第一章 丙丁",
            "他走进院子，丙丁看见一棵老树。",
        ),
        (
            {"scope": "测试书", "excludeScope": "测试书"},
            "第一章 甲乙",
            "他走进院子，甲乙看见一棵老树。",
        ),  # exclusion wins
        ({"scope": "别的书;测试书"}, "第一章 甲乙", "他走进院子，丙丁看见一棵老树。"),
        (
            {"scope": "https://www.example.cc/source/12"},
            "第一章 甲乙",
            "他走进院子，甲乙看见一棵老树。",
        ),  # not the folder source/
    ],
    ids=[
        "defaults",
        "title-too",
        "title-only",
        "neither",
        "excluded",
        "excluded-elsewhere",
        "scope-and-exclude",
        "scoped",
        "another-site",
    ],
)
def test_replace_rule_scopes(tmp_path, fields, title, text):
    assert _built(tmp_path, {"pattern": "甲乙", "replacement": "丙丁", **fields}) == (title, text)


def test_a_title_rule_that_would_empty_the_title_leaves_it(tmp_path):
    """Legado keeps a title a rule would blank (BookChapter.getDisplayTitle)."""
    title, _ = _built(
        tmp_path, {"pattern": "第一章 甲乙", "replacement": "", "scopeTitle": True, "scopeContent": False}
    )
    assert title == "第一章 甲乙"
