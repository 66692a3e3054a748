"""The long fuzz run (pytest -m slow): many more examples of the same properties as the suite's
bounded fuzz tests. Each test prints how many inputs it tried."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bookbuilder.decode.text import decode_chapter
from bookbuilder.diagnostics import BookError
from bookbuilder.normalize.rules import Normalizer, enabled
from bookbuilder.structure.sections import split_sections

pytestmark = pytest.mark.slow
RULES = Normalizer(enabled({}), "zh-Hans")
COUNT = {"decode": 0, "normalize": 0, "parse": 0}
TEXT = st.text(
    st.one_of(
        st.characters(min_codepoint=0x4E00, max_codepoint=0x4F00),
        st.sampled_from(list(",.!?;:\"'()-—―…。，“”‘’「」 \n0123456789abcXYZ@/ｉＰ１⋯·・")),
        st.characters(blacklist_categories=("Cs",)),
    ),
    max_size=200,
)


@settings(max_examples=20000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=2000))
def test_long_fuzz_decoder(data):
    COUNT["decode"] += 1
    try:
        assert isinstance(decode_chapter(data, "f.txt").text, str)
    except BookError as e:
        assert e.diagnostic.code in ("E101", "E102")


@settings(max_examples=20000, deadline=None, suppress_health_check=list(HealthCheck))
@given(TEXT)
def test_long_fuzz_normalization_idempotent(text):
    COUNT["normalize"] += 1
    once = RULES.text(text)
    assert RULES.text(once) == once


@settings(max_examples=20000, deadline=None, suppress_health_check=list(HealthCheck))
@given(TEXT)
def test_long_fuzz_parser(text):
    COUNT["parse"] += 1
    sections, _ = split_sections(text, "f.txt")
    lines = [b.at.line for s in sections for b in s.blocks]
    assert lines == sorted(lines)  # blocks keep their source order
    assert all(b.text in text for s in sections for b in s.blocks if hasattr(b, "text") and "<" not in b.text)


def teardown_module(module):
    print(f"\nlong fuzz run: inputs tried {COUNT}")
