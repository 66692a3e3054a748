"""Accessibility gates: Ace by DAISY reports no violation (any impact) and EPUBCheck stays clean
on the sample, a book with volumes, one with a cover image and one with a generated cover.
In CI (where scripts/setup.sh installs Ace and Chromium) a missing Ace is a failure, not a skip."""

import io
import os

import pytest
from PIL import Image

from bookbuilder.check import ace
from bookbuilder.pipeline import build_epub, load_book
from tests.conftest import write_book
from tests.render.test_epub import assert_epubcheck_clean

AVAILABLE = bool(ace.find_ace() and ace.find_chromium())
if not AVAILABLE and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the accessibility gates: {ace.INSTALL_HINT}")
pytestmark = pytest.mark.skipif(not AVAILABLE, reason="Ace by DAISY is not installed here")

BODY = {"1.txt": "第一章 开始\n他说：“走吧。”\n\n……\n\n她点了点头。", "2.txt": "第二章 继续\n正文。"}


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (1000, 1600), (40, 60, 90)).save(out, "PNG")
    return out.getvalue()


def _sample(tmp_path, sample_book):
    return sample_book


def _volumes(tmp_path, _):
    return write_book(
        tmp_path / "v",
        {
            "1_第一卷 起/1.txt": "第一章 甲\n内容。",
            "1_第一卷 起/2.txt": "第二章 乙\n内容。",
            "2_第二卷 承/3.txt": "第三章 丙\n内容。",
        },
        "",
    )


def _cover_image(tmp_path, _):
    root = write_book(tmp_path / "c", BODY, '[book]\ncover = "cover.png"\n')
    (root / "cover.png").write_bytes(_png())
    return root


def _generated_cover(tmp_path, _):
    return write_book(tmp_path / "g", BODY, '[book]\ntitle = "生成封面"\nauthor = "某人"\n')


def _traditional(tmp_path, _):
    return write_book(
        tmp_path / "t", {"1.txt": "第一章 開始\n他說：「走吧。」"}, '[book]\nlanguage = "zh-Hant"\n'
    )


@pytest.mark.parametrize(
    "make",
    [_sample, _volumes, _cover_image, _generated_cover, _traditional],
    ids=["sample", "volumes", "cover-image", "generated-cover", "traditional"],
)
def test_ace_finds_no_violation(tmp_path, sample_book, make):
    epub, _ = build_epub(load_book(make(tmp_path, sample_book)))
    assert_epubcheck_clean(epub)
    found = ace.violations(ace.run_ace(epub))
    assert found == [], found


def test_ace_violations_become_diagnostics(tmp_path):
    from tests.test_diagnostics import _inaccessible_epub

    found = ace.check_ace(_inaccessible_epub(tmp_path))
    assert any(d.code == "E407" and "image-alt" in d.message for d in found), found
