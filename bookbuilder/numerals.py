"""Chinese numerals → integers (docs/rules.md §4.2), and integers → Chinese numerals for titles."""

from __future__ import annotations

# The numeral characters, declared here once: every pattern elsewhere builds its classes from these
# names (a heading rule that takes only everyday numerals, a volume's financial ones …).
DIGITS = "一二三四五六七八九"  # 1–9 as everyday text writes them
ZEROS = "零〇"
TWO = "两"  # 两百, 两千: the other two
TEN, HUNDRED, THOUSAND, MYRIAD = "十", "百", "千", "万"
FINANCIAL_DIGITS = "壹贰叁肆伍陆柒捌玖"  # 大写, as a cheque writes them (simplified)
FINANCIAL_TRADITIONAL = "貳參陸"  # the traditional forms of 贰, 叁, 陆
FINANCIAL_TEN, FINANCIAL_HUNDRED, FINANCIAL_THOUSAND = "拾", "佰", "仟"

# The sets the patterns use (a character class is [ + one of these + ]):
ONE_TO_TEN = DIGITS + TEN  # 第一 … 第十: a short count
TO_HUNDREDS = ZEROS + DIGITS + TWO + TEN + HUNDRED  # 一百零五: a list's item, a part in brackets
TO_THOUSANDS = TO_HUNDREDS + THOUSAND  # 一千二百: a bare numeral heading
TO_MYRIADS = TO_THOUSANDS + MYRIAD
FINANCIAL_TO_TEN = FINANCIAL_DIGITS + FINANCIAL_TRADITIONAL + FINANCIAL_TEN  # 壹 … 拾: a volume numbered so
WRITTEN = (
    TO_MYRIADS + FINANCIAL_DIGITS + FINANCIAL_TEN + FINANCIAL_HUNDRED + FINANCIAL_THOUSAND
)  # both kinds, simplified

_DIGIT = {
    "零": 0,
    "〇": 0,
    "○": 0,
    "◯": 0,
    "一": 1,
    "壹": 1,
    "二": 2,
    "两": 2,
    "贰": 2,
    "貳": 2,
    "兩": 2,
    "三": 3,
    "叁": 3,
    "參": 3,
    "四": 4,
    "肆": 4,
    "五": 5,
    "伍": 5,
    "六": 6,
    "陆": 6,
    "陸": 6,
    "七": 7,
    "柒": 7,
    "八": 8,
    "捌": 8,
    "九": 9,
    "玖": 9,
}
_DIGIT.update({str(d): d for d in range(10)})
_DIGIT.update({chr(0xFF10 + d): d for d in range(10)})  # full-width ０–９
# 第①章 … 第①①⑥章: a download that writes its chapter numbers in circled digits, one per decimal
# digit; the title stays as printed, the number reads 116.
_DIGIT.update({"⓪": 0, **{chr(0x2460 + d - 1): d for d in range(1, 10)}})
_UNIT = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_GROUP = {"万": 10_000, "萬": 10_000, "亿": 100_000_000, "億": 100_000_000}
_TENS = {"廿": 20, "卅": 30, "卌": 40}  # 第廿一回: twenty-one, as older texts write it
NUMERAL_CHARS = "".join(_DIGIT) + "".join(_UNIT) + "".join(_GROUP) + "".join(_TENS)
NUMERAL_RUN = f"[{NUMERAL_CHARS}]+"  # a number as written in a heading: 12, 十二, 一二
_NUMERAL_SET = frozenset(NUMERAL_CHARS)


def parse_numeral(text: str) -> int | None:
    """'一百零一' → 101, '十一' → 11, '两百' → 200, '一〇一' → 101, '１２' → 12; None if not a numeral."""
    text = text.strip()
    if text.isascii():  # the usual file-name case: 0012
        return int(text) if text.isdigit() else None
    if not _NUMERAL_SET.issuperset(text):
        return None
    if all(c in _DIGIT for c in text):  # positional: 一〇一, 二〇二三, 12, １２
        value = 0
        for c in text:
            value = value * 10 + _DIGIT[c]
        return value
    total = section = digit = 0
    for c in text:
        if c in _DIGIT:
            digit = _DIGIT[c]
        elif c in _UNIT:
            section += (digit or 1) * _UNIT[c]  # a leading 十 means 1×10
            digit = 0
        elif c in _TENS:
            section += _TENS[c]
            digit = 0
        else:
            total += (section + digit) * _GROUP[c]
            section = digit = 0
    return total + section + digit


_DIGITS = ZEROS[0] + DIGITS  # index = value


def digit_by_digit(n: int) -> str:
    """101 → '一〇一', 99 → '九九': a number written digit by digit, as some editions number 回."""
    return "".join("〇一二三四五六七八九"[int(d)] for d in str(n))


def to_chinese(n: int) -> str:
    """101 → '一百零一', 10 → '十', 10005 → '一万零五' (for titles like 第N章)."""
    if n == 0:
        return "零"
    if n >= 100_000_000:
        return str(n)

    def four(k: int) -> str:
        out, zero = "", False
        for unit_value, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
            d = (k // unit_value) % 10
            if d == 0:
                zero = bool(out)
                continue
            if zero:
                out += "零"
                zero = False
            out += _DIGITS[d] + unit
        return out

    high, low = divmod(n, 10_000)
    s = four(high) + "万" + ("零" if 0 < low < 1000 else "") + four(low) if high else four(low)
    return s[1:] if s.startswith("一十") else s
