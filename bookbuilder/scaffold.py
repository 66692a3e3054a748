"""`bookbuilder init`: a commented book.toml, an empty source/ and styles/ to extend."""

from __future__ import annotations

from pathlib import Path

BOOK_TOML = """\
# bookbuilder book project. Every key is optional; delete what you do not need.

[book]
title = "书名"
author = "作者"
language = "zh-Hans"          # zh-Hans, zh-Hant, zh-CN, zh-TW, zh-HK
# identifier = "urn:uuid:…"   # default: a UUID5 of title + author, stable across rebuilds
# description = "内容简介"
# cover = "cover.jpg"         # a JPEG or PNG inside this folder

[source]
dir = "source"                # chapter .txt files; sub-folders are volumes
# order = ["序章.txt", "1.txt"]  # explicit reading order (default: natural order of file names)
# encoding = "gb18030"        # force one codec for every file
# encodings = { "old/*.txt" = "big5hkscs" }   # or per file pattern
# errors = "replace"          # only if you accept U+FFFD for undecodable bytes (you get a warning)
# heading_pattern = '^Chapter (\\d+)'

[normalize]                   # every rule can be switched off; see README
# unwrap = false
# quotes = false
# convert = "t2s"             # OpenCC: t2s, s2t, s2tw, s2hk, …

# [normalize.junk]
# extra = ['^本书由.*整理$']   # more junk-line patterns (regular expressions)
# disable = ["domain-only"]

[output]
# dir = "build"
# name = "my-book"            # build/my-book.epub, build/my-book.pdf
"""

EPUB_CSS = (
    "/* Added after bookbuilder's default EPUB stylesheet. Example: */\n/* p { text-indent: 2em; } */\n"
)
PDF_CSS = "/* Added after bookbuilder's default PDF stylesheet. Example: */\n/* @page { size: A6; } */\n"


def scaffold(directory: Path) -> list[str]:
    directory = Path(directory)
    files = {
        directory / "book.toml": BOOK_TOML,
        directory / "styles" / "epub.css": EPUB_CSS,
        directory / "styles" / "pdf.css": PDF_CSS,
    }
    done = []
    (directory / "source").mkdir(parents=True, exist_ok=True)
    for path, content in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            done.append(f"kept {path}")
        else:
            path.write_text(content, "utf-8")
            done.append(f"created {path}")
    done.append(f"put your chapter .txt files in {directory / 'source'}")
    return done
