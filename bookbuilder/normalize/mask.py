"""Protect what must stay exactly as written (URLs, e-mails, numbers, versions, English) from the
punctuation rules (docs/rules.md §2.6): each protected run becomes one sentinel character, restored after."""

from __future__ import annotations

import re

# A noncharacter: the decoder deletes it from input, so it can only be ours.
SENTINEL = "\ufdd0"

_PROTECTED = re.compile(
    r"https?://[!-~]+"  # URLs (ASCII only: Chinese punctuation right after a URL is not part of it)
    r"|www\.[!-~]+"
    r"|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+"  # e-mail
    r"|&(?:[A-Za-z]+|#\d+|#x[0-9A-Fa-f]+);"  # HTML entities written in the text
    r"|[vV]\d+(?:\.\d+)+"  # versions
    r"|\d+(?:[.,:]\d+)+"  # 3.14, 1,000, 12:30
    r"|\d+(?:\.\d+)?['\"′″]"  # 5'3" — inch and second marks are not quotes
    r"|[A-Za-z0-9_-]+\.(?:txt|jpe?g|png|gif|com|cn|net|org|html?|exe|zip|rar|pdf|docx?|epub|mp[34])\b"
    # two or more English words: an English sentence keeps its ASCII punctuation
    r"|[A-Za-z][A-Za-z'’-]*(?:[,.!?;:]?[ ]+[A-Za-z][A-Za-z'’-]*)+[.!?,;:]*"
)


# Every protected run is ASCII (plus ’ ′ ″): look for them only inside such islands, which Chinese
# text has few of, rather than trying the whole alternation at every Chinese character.
_ISLAND = re.compile(r"[!-~’′″](?:[ !-~’′″]*[!-~’′″])?")
# Every protected run holds one of these; many chapters hold none (their only ASCII is half-width
# punctuation): one scan spares a call per island.
_PROTECTABLE = re.compile(r"[A-Za-z0-9&@]")


def mask(text: str) -> tuple[str, list[str]]:
    saved: list[str] = []
    if not _PROTECTABLE.search(text):
        return text, saved

    def keep(m: re.Match) -> str:
        saved.append(m.group(0))
        return SENTINEL

    def island(m: re.Match) -> str:
        return _PROTECTED.sub(keep, m.group(0))

    return _ISLAND.sub(island, text), saved


def unmask(text: str, saved: list[str]) -> str:
    if not saved:
        return text
    parts = text.split(SENTINEL)
    assert len(parts) == len(saved) + 1, "a rule added or removed a protected run"
    out = [parts[0]]
    for token, part in zip(saved, parts[1:]):
        out += [token, part]
    return "".join(out)
