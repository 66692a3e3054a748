"""Damaged and look-alike encodings (issue 18): a few bad bytes never cost the book, and never
pass as text. Fixtures are the sample book's real chapters, encoded and then damaged."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bookbuilder.decode.text import DAMAGE_LIMIT, decode_chapter
from bookbuilder.diagnostics import BookError
from bookbuilder.pipeline import load_book
from tests.conftest import REPO, write_book

SIMPLIFIED = "\n".join(
    p.read_text("utf-8").replace("\r\n", "\n").strip() for p in sorted((REPO / "source").glob("*.txt"))
)


def traditional() -> str:
    import opencc

    return opencc.OpenCC("s2tw.json").convert(SIMPLIFIED)


def damage(data: bytes, lines: list[int], make) -> bytes:
    """Break the first two-byte character of each given (1-based) line with `make(pair)`."""
    out = data.split(b"\n")
    for n in lines:
        line = bytearray(out[n - 1])
        i = next(i for i, b in enumerate(line) if b >= 0x81)
        line[i : i + 2] = make(bytes(line[i : i + 2]))
        out[n - 1] = bytes(line)
    return b"\n".join(out)


def long_text(chars: int) -> str:
    text = SIMPLIFIED
    while len(text) < chars:
        text += "\n" + SIMPLIFIED
    return text


def w106_lines(decoded) -> list[int]:
    return [d.at.line for d in decoded.diagnostics if d.code == "W106" and d.at.line]


@pytest.mark.parametrize("k", [1, 3, 200])
def test_gbk_with_a_few_damaged_sequences_is_kept_and_each_line_named(k):
    text = long_text(210_000)
    lines = sorted(random.Random(k).sample(range(2, text.count("\n")), k))
    lines = [
        n
        for n in lines
        if text.split("\n")[n - 1].strip() and any(ord(c) > 0x80 for c in text.split("\n")[n - 1])
    ]
    data = damage(text.encode("gbk"), lines, lambda pair: pair[:1] + b" ")
    decoded = decode_chapter(data, "novel.txt")
    assert (decoded.encoding, decoded.method, decoded.replaced) == ("gb18030", "plausibility", len(lines))
    assert w106_lines(decoded) == lines[:10]
    if len(lines) > 10:
        assert any(d.code == "W106" and f"{len(lines) - 10} more" in d.message for d in decoded.diagnostics)
    kept = [a == b for a, b in zip(decoded.text.split("\n"), text.split("\n"))]
    assert sum(kept) == text.count("\n") + 1 - len(lines)


def test_more_damage_than_auto_accepts_is_an_error_naming_codec_lines_and_the_remedy(tmp_path):
    text = long_text(210_000)
    lines = [n for n in range(2, text.count("\n")) if any(ord(c) > 0x80 for c in text.split("\n")[n - 1])][
        : DAMAGE_LIMIT + 1
    ]
    data = damage(text.encode("gbk"), lines, lambda pair: pair[:1] + b" ")
    with pytest.raises(BookError) as e:
        decode_chapter(data, "novel.txt")
    message = str(e.value)
    assert e.value.diagnostic.code == "E102" and "201 undecodable" in message and "gb18030" in message
    assert f"lines {lines[0]}, {lines[1]}" in message and 'errors = "replace"' in message
    decoded = decode_chapter(data, "novel.txt", errors="replace")
    assert decoded.replaced == 201 and {d.code for d in decoded.diagnostics} >= {"W104"}


def test_strict_keeps_refusing_damage_and_names_auto():
    data = damage(SIMPLIFIED.encode("gbk"), [3], lambda pair: pair[:1] + b" ")
    with pytest.raises(BookError) as e:
        decode_chapter(data, "c.txt", errors="strict")
    assert 'errors = "auto"' in str(e.value) and "line" in str(e.value) and "3" in str(e.value)


def test_a_truncated_download_keeps_all_but_its_last_half_character():
    data = SIMPLIFIED.encode("gbk")[:-1]
    assert data[-1] >= 0x81  # the file ends inside a character
    decoded = decode_chapter(data, "cut.txt")
    assert (
        decoded.encoding == "gb18030"
        and decoded.text[:-1] == SIMPLIFIED[:-1]
        and decoded.text.endswith("\ufffd")
    )


def test_big5_with_bytes_only_gbk_knows_is_big5_not_gbk_mojibake():
    text = traditional()
    data = damage(text.encode("big5"), [3, 9, 15], lambda pair: b"\xa1\x80")  # a trail byte Big5 never has
    data.decode("gb18030")  # the trap: strict GB18030 takes it
    decoded = decode_chapter(data, "trad.txt")
    assert decoded.encoding == "big5hkscs" and w106_lines(decoded) == [3, 9, 15]
    assert [a == b for a, b in zip(decoded.text.split("\n"), text.split("\n"))].count(False) == 3


def test_utf8_with_stray_latin1_bytes_stays_utf8():
    lines = SIMPLIFIED.split("\n")
    data = "\n".join(lines[:5]).encode() + b"\ncaf\xe9 au lait\n" + "\n".join(lines[5:]).encode()
    decoded = decode_chapter(data, "u.txt")
    assert decoded.encoding == "utf-8" and w106_lines(decoded) == [6]
    assert decoded.text.split("\n")[:5] == lines[:5] and decoded.text.split("\n")[6:] == lines[5:]


def test_utf16_without_bom_is_read():
    decoded = decode_chapter(SIMPLIFIED.encode("utf-16-le"), "w.txt")
    assert decoded.encoding == "utf-16-le" and decoded.text == SIMPLIFIED


def test_a_gbk_passage_inside_a_big5_file_is_decoded_in_its_own_codec():
    big5 = traditional().split("\n")
    passage = SIMPLIFIED.split("\n")[10:20]
    data = (
        ("\n".join(big5[:30])).encode("big5")
        + b"\n"
        + "\n".join(passage).encode("gbk")
        + b"\n"
        + "\n".join(big5[30:]).encode("big5")
    )
    decoded = decode_chapter(data, "mixed.txt")
    out = decoded.text.split("\n")
    assert decoded.encoding == "big5hkscs" and out[:30] == big5[:30] and out[40:] == big5[30:]
    assert out[30:40] == passage
    (stretch,) = [d for d in decoded.diagnostics if d.code == "W107"]
    assert stretch.at.line == 31 and "31–40" in stretch.message and "gb18030" in stretch.message


@pytest.mark.parametrize(
    "trailer",
    [
        b"<PIXTEL_MMI_EBOOK_2005>5" + bytes(59) + b"</PIXTEL_MMI_EBOOK_2005>",  # MTK phones' reader
        b"#!EBOOK\x00\x03g\xfc\x00\x00\x00\x0c",  # glued to the last line
        b"\x00\x00\x01\x02\x00",  # another reader's, unnamed
    ],
)
def test_a_phone_readers_bookmark_data_after_the_text_is_left_out(trailer):
    """Real GBK downloads (六花禁爱, 落花时节又逢君) end in the block a phone's e-book reader
    wrote after opening them: NUL bytes that made the whole book an error."""
    text = "第一章 归来\n" + "他走进院子，看见一棵老树。\n" * 100 + "您下载的文件来自：www.example.com"
    decoded = decode_chapter(text.encode("gbk") + trailer, "p.txt")
    assert decoded.text == text and decoded.encoding == "gb18030"
    (note,) = [d for d in decoded.diagnostics if d.code == "W108"]
    assert note.at.line == 102


def test_lines_of_chinese_read_as_latin1_upstream_are_read_back():
    """A crawler's 一念永恒: every heading GBK read as Latin-1 and saved as UTF-8 (µÚÈýÕÂ Áù¾äÕæÑÔ
    for 第三章 六句真言), 228 lines; UTF-8 read so (å¤©ä¸‹ for 天下) the same. Accented names stay."""
    misread_gbk = "第三章 六句真言".encode("gbk").decode("latin-1")
    misread_utf8 = "天下大势，分久必合".encode().decode("latin-1")
    western = "Émile Zola était là, Ça va très bien"
    text = f"{misread_gbk}\n他走进院子，看见一棵老树。\n{misread_utf8}\n{western}\n"
    decoded = decode_chapter(text.encode("utf-8"), "m.txt")
    assert decoded.text.split("\n")[:4] == [
        "第三章 六句真言",
        "他走进院子，看见一棵老树。",
        "天下大势，分久必合",
        western,
    ]
    assert [d.at.line for d in decoded.diagnostics if d.code == "I102"] == [1, 3]


def test_nul_bytes_in_the_middle_are_still_an_error():
    data = "他走进院子。".encode("gbk") * 1000
    with pytest.raises(BookError) as e:
        decode_chapter(data[:3000] + bytes(8) + data[3000:], "n.txt")
    assert e.value.diagnostic.code == "E101"


def test_a_file_of_random_bytes_is_an_error():
    rng = random.Random(3)
    data = bytes(rng.randrange(1, 256) for _ in range(3000))
    with pytest.raises(BookError) as e:
        decode_chapter(data, "noise.txt")
    assert e.value.diagnostic.code == "E102" and "set encoding" in str(e.value)


def test_a_third_of_random_bytes_is_an_error():
    rng = random.Random(4)
    data = bytearray(SIMPLIFIED.encode("gbk"))
    for i in range(0, len(data), 3):
        data[i] = rng.randrange(1, 256)
    with pytest.raises(BookError) as e:
        decode_chapter(bytes(data), "third.txt")
    assert e.value.diagnostic.code == "E102"


def test_check_json_reports_the_replaced_count(tmp_path):
    import json

    from click.testing import CliRunner

    from bookbuilder.cli import main

    data = damage(SIMPLIFIED.encode("gbk"), [3, 8], lambda pair: pair[:1] + b" ")
    root = write_book(tmp_path / "b", {"1.txt": data}, "")
    result = CliRunner().invoke(main, ["check", str(root), "--json"])
    files = json.loads(result.output)["files"]
    assert [(f["encoding"], f["method"], f["replaced"]) for f in files] == [("gb18030", "plausibility", 2)]
    assert load_book(root).book.files[0].replaced == 2


CODECS = ["utf-8", "gbk", "gb18030", "big5", "utf-16-le"]


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.sampled_from(CODECS), st.integers(0, 5), st.randoms(use_true_random=False))
def test_property_a_few_damaged_bytes_cost_only_their_lines(codec, k, rnd):
    text = traditional() if codec == "big5" else SIMPLIFIED
    raw = text.encode(codec)
    if codec == "utf-16-le" or k == 0:
        decoded = decode_chapter(raw, "p.txt")
        assert decoded.text == text and not w106_lines(decoded)
        return
    candidates = [n for n, line in enumerate(text.split("\n"), 1) if sum(ord(c) > 0x80 for c in line) > 4]
    lines = sorted(rnd.sample(candidates, k))
    broken = damage(
        raw, lines, lambda pair: b"\xff" + pair[1:] if codec.startswith("utf") else pair[:1] + b" "
    )
    decoded = decode_chapter(broken, "p.txt")
    expected = {"utf-8": "utf-8", "gbk": "gb18030", "gb18030": "gb18030", "big5": "big5hkscs"}[codec]
    assert decoded.encoding == expected
    assert w106_lines(decoded) == lines
    out, original = decoded.text.split("\n"), text.split("\n")
    assert [n for n, (a, b) in enumerate(zip(out, original), 1) if a != b] == lines


def test_the_pdf_draws_the_replacement_character(tmp_path):
    """U+FFFD reaches the PDF as a glyph of some installed font, never a .notdef box (E403/E404)."""
    from bookbuilder.check.judges import check_pdf
    from bookbuilder.pipeline import build_pdf

    data = damage(("第一章 开始\n" + SIMPLIFIED[:600]).encode("gbk"), [3], lambda pair: pair[:1] + b" ")
    loaded = load_book(write_book(tmp_path / "b", {"1.txt": data}, ""))
    assert "\ufffd" in "".join(p.text for c in loaded.book.chapters() for p in c.blocks if hasattr(p, "text"))
    pdf, _ = build_pdf(loaded, jobs=1)
    assert [d for d in check_pdf(pdf, loaded.book) if d.code.startswith("E")] == []
