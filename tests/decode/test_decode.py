import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bookbuilder.decode.text import clean_text, decode_chapter
from bookbuilder.diagnostics import BookError

TEXT = "第一章 风起\n他说：“走吧。”她点了点头：“好。”城上守军齐声惊呼，西门起火……\n" * 3
TRADITIONAL = "第一章 風起\n他說：「走吧。」她點了點頭：「好。」城上守軍齊聲驚呼，西門起火……\n" * 3


@pytest.mark.parametrize(
    "codec, text, expected, method",
    [
        ("utf-8", TEXT, "utf-8", "strict"),
        ("utf-8-sig", TEXT, "utf-8-sig", "bom"),
        ("utf-16", TEXT, "utf-16-le", "bom"),
        ("utf-16-le", TEXT, "utf-16-le", "strict"),
        ("utf-16-be", TEXT, "utf-16-be", "strict"),
        ("gbk", TEXT, "gb18030", None),  # short GBK often also decodes as Big5: the detector decides
        ("gb18030", TEXT + "𠮷䶮", "gb18030", "strict"),
        (
            "big5",
            TRADITIONAL,
            "big5hkscs",
            "plausibility",
        ),  # it also decodes as GB18030, into rare characters
        ("big5hkscs", TRADITIONAL + "佢哋咗啲嘢", "big5hkscs", None),
    ],
)
def test_each_encoding_decodes_to_the_text(codec, text, expected, method):
    decoded = decode_chapter(text.encode(codec), "x.txt")
    assert decoded.text == text
    assert decoded.encoding == expected
    if method:
        assert decoded.method == method


@pytest.mark.parametrize("codec", ["gbk", "big5", "utf-16-le", "utf-16-be", "gb18030"])
def test_200_byte_files(codec):
    text = TRADITIONAL if codec == "big5" else TEXT
    data = text.encode(codec)[:200]
    while True:  # cut at a character boundary
        try:
            expected = data.decode(codec)
            break
        except UnicodeDecodeError:
            data = data[:-1]
    assert decode_chapter(data, "x.txt").text == clean_text(expected)


def test_gb2312_punctuation_is_read_as_gb18030():
    # Python's gb2312 maps A1AA to U+2015; GBK/GB18030 give the em dash U+2014.
    assert decode_chapter("他——不是她。".encode("gbk"), "x.txt").text == "他——不是她。"


@pytest.mark.parametrize(
    "data, words",
    [
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, "PNG"),
        (b"\xff\xd8\xff\xe0" + b"\x00" * 40, "JPEG"),
        (b"%PDF-1.7\n", "PDF"),
        (b"PK\x03\x04rest", "zip"),
        (b"abc\x00\x00\x00\x01def\x00", "NUL"),
    ],
)
def test_binary_files_are_rejected_naming_the_file(data, words):
    with pytest.raises(BookError) as e:
        decode_chapter(data, "source/bad.txt")
    assert e.value.diagnostic.code == "E101"
    assert "source/bad.txt" in str(e.value) and words in str(e.value)


def test_undecodable_bytes_are_an_error_unless_replace_was_asked():
    data = "中文".encode() + b"\xff\xfe\xfd\x80\x81"[1:] * 3 + b"\xff"
    with pytest.raises(BookError) as e:
        decode_chapter(data, "b.txt")
    assert e.value.diagnostic.code == "E102"
    decoded = decode_chapter(data, "b.txt", errors="replace")
    assert [d.code for d in decoded.diagnostics if d.code == "W104"] == ["W104"]


def test_one_stray_control_character_is_not_binary():
    decoded = decode_chapter("他说\x07你好\x7f。".encode(), "x.txt")
    assert decoded.text == "他说你好。"


def test_override_is_used_and_reported():
    decoded = decode_chapter(TEXT.encode("gbk"), "x.txt", encoding="gbk")
    assert decoded.text == TEXT and decoded.method == "override"
    assert [d.code for d in decoded.diagnostics] == ["I101"]
    with pytest.raises(BookError) as e:
        decode_chapter(TEXT.encode("gbk"), "x.txt", encoding="utf-8")
    assert e.value.diagnostic.code == "E104"


@pytest.mark.parametrize(
    "raw, clean",
    [
        ("\ufeff第一章\r\n正文\r\n", "第一章\n正文\n"),
        ("一\r二\u2028三\u2029四", "一\n二\n三\n四"),
        ("这\u200b段文\u2060字\u00ad", "这段文字"),
        ("中\ufeff间", "中间"),
        ("全角\u3000空格\u00a0不", "全角\u3000空格 不"),
        ("兀", "兀"),  # U+FA0C (Big5 duplicate) → U+5140 by NFC
        ("，；：？！…　", "，；：？！…　"),  # never NFKC
    ],
)
def test_clean_text(raw, clean):
    assert clean_text(raw) == clean


@pytest.mark.parametrize(
    "text, sign",
    [("锟斤拷锟斤拷", "锟斤拷"), ("Ã¤Ã¶Ã¼", "Ã¤"), ("坏\ufffd了", "U+FFFD"), ("私\ue000用", "U+E000")],
)
def test_mojibake_is_warned_with_line(text, sign):
    decoded = decode_chapter(("第一行\n" + text).encode(), "m.txt")
    warning = [d for d in decoded.diagnostics if d.code == "W102"][0]
    assert warning.at.line == 2 and sign in warning.message


def test_utf8_read_as_cp1252_is_read_back_not_only_warned():
    """ä¸­æ–‡ (中文 read as cp1252): lossless, so read back (I102) rather than left with a W102."""
    decoded = decode_chapter("第一行\nä¸\xadæ–‡".encode(), "m.txt")
    assert decoded.text == "第一行\n中文"
    assert [(d.code, d.at.line) for d in decoded.diagnostics] == [("I102", 2)]


def test_short_file_decided_by_detector_gets_low_confidence_warning():
    decoded = decode_chapter("他說：「好。」".encode("big5"), "s.txt")
    assert decoded.method == "detector"
    assert any(d.code in ("W103", "W105") for d in decoded.diagnostics)


HAN = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FA5)
PUNCT = st.sampled_from(list("，。！？：“”……\n"))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    st.text(st.one_of(HAN, PUNCT), min_size=20, max_size=200),
    st.sampled_from(["utf-8", "utf-16-le", "utf-16-be", "gb18030", "utf-8-sig"]),
)
def test_property_decoding_round_trips(text, codec):
    assert decode_chapter(text.encode(codec), "p.txt").text == clean_text(text)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.binary(max_size=300))
def test_property_random_bytes_give_text_or_our_error(data):
    try:
        decoded = decode_chapter(data, "r.txt")
    except BookError as e:
        assert e.diagnostic.code in ("E101", "E102")
    else:
        assert isinstance(decoded.text, str)


def test_book_toml_overrides_per_pattern_and_reports_them(tmp_path):
    import json

    from click.testing import CliRunner

    from bookbuilder.cli import main
    from tests.conftest import write_book

    root = write_book(
        tmp_path / "b",
        {"1.txt": TEXT.encode("gbk"), "old/2.txt": TRADITIONAL.encode("big5")},
        '[source]\nencoding = "gbk"\nencodings = { "old/*.txt" = "big5" }\n',
    )
    data = json.loads(CliRunner().invoke(main, ["check", str(root), "--json"]).output)
    assert [(f["encoding"], f["method"]) for f in data["files"]] == [
        ("gbk", "override"),
        ("big5", "override"),
    ]
    assert sum(d["code"] == "I101" for d in data["diagnostics"]) == 2


def test_empty_files_are_skipped_with_a_warning(tmp_path):
    from bookbuilder.pipeline import load_book
    from tests.conftest import write_book

    root = write_book(tmp_path / "b", {"1.txt": "第一章\n正文。", "2.txt": "\ufeff \r\n\u3000\u200b"}, "")
    loaded = load_book(root)
    (warning,) = [d for d in loaded.diagnostics if d.code == "W101"]
    assert warning.at.path.endswith("2.txt") and len(list(loaded.book.chapters())) == 1
