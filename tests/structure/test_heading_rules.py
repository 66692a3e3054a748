"""The heading rules as a table (structure/headings.RULES): each record's fixture is decided by
that record when the line is offered to the whole table in order, and each says why it is there."""

import pytest

from bookbuilder.structure.headings import RULES, candidate, deciding_rule


@pytest.mark.parametrize("rule", RULES, ids=[r.name for r in RULES])
def test_each_rules_fixture_is_decided_by_that_rule(rule):
    assert deciding_rule(rule.fixture) == rule.name
    assert rule.why and not rule.why.startswith("A rule of a number")


def test_rule_names_are_unique_and_prose_is_decided_as_no_heading():
    assert len({r.name for r in RULES}) == len(RULES)
    assert candidate(next(r.fixture for r in RULES if r.name == "prose"), 1) is None


def test_a_rule_added_to_the_table_is_asked_in_its_place(monkeypatch):
    from bookbuilder.structure import headings

    def toy(line):
        """A line of three 〓 marks is a chapter (a toy rule)."""
        if line.text == "〓〓〓":
            return headings.Heading("chapter", "〓", None, line.number, rule="toy")
        return headings.NOT_MINE

    assert candidate("〓〓〓", 1) is None
    monkeypatch.setattr(headings, "RULES", (headings._rule("toy", toy, "〓〓〓"), *headings.RULES))
    assert candidate("〓〓〓", 1).rule == "toy"
    assert deciding_rule("〓〓〓") == "toy"
