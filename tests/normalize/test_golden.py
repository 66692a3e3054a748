"""Whole chapters against golden files. `pytest tests/normalize/test_golden.py --regen-golden` rewrites
tests/golden/<case>/expected/; then read the diff like a proofreader before committing."""

from pathlib import Path

import pytest

from bookbuilder.pipeline import load_book
from bookbuilder.render.text import chapter_text
from tests.conftest import REPO

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
CASES = {"sample": REPO}  # the sample book at the repo root: the two real seed chapters


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_chapters(case, regen):
    book = load_book(CASES[case]).book
    expected_dir = GOLDEN / case / "expected"
    for chapter in book.chapters():
        name = Path(chapter.at.path).name
        actual = chapter_text(chapter)
        golden = expected_dir / name
        if regen:
            golden.parent.mkdir(parents=True, exist_ok=True)
            golden.write_text(actual, "utf-8")
        assert actual == golden.read_text("utf-8"), f"{name} differs from its golden file"


def test_seed_golden_shows_the_fixes():
    second = (GOLDEN / "sample" / "expected" / "002_486e77a6121bde4f.txt").read_text("utf-8")
    raw = (REPO / "source" / "002_486e77a6121bde4f.txt").read_text("utf-8")
    assert "剩下的还有七十多万人马，眼下隋军分兵就成了自然而然事情。" in second
    assert "所有的一切都无法阻挡他们前进的脚步。" in second
    assert second.count("* * *") == 3 and "……\n……" not in second
    # nothing else changed: every other raw line is in the golden text as it was
    body = set(second.splitlines())
    untouched = [
        line
        for line in raw.splitlines()
        if line not in ("……", "。")
        and "七十多万人" not in line
        and not line.startswith("马，")
        and "前进的脚步" not in line
    ]
    assert all(line in body for line in untouched)
