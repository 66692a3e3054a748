"""Diagnostics as data: a stable code, a severity, a message, a location.

The same records feed the human output, `--json` and GitHub annotations. Every
code is listed once in CODES (severity + one line of documentation);
docs/diagnostics.md is generated from it and a test keeps the two in step.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bookbuilder.model import Location


class Severity(enum.IntEnum):
    INFO = 0
    WARNING = 1
    ERROR = 2

    def __str__(self) -> str:
        return self.name.lower()


# I for INFO beside E and W: the table below reads by the letters its codes begin with
E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741

# code: (severity, what it means). Codes are stable: never reuse a retired one.
CODES: dict[str, tuple[Severity, str]] = {
    # 0xx: project, configuration, files
    "E001": (E, "book.toml is not valid TOML (the line is given)"),
    "E002": (E, "book.toml has a key bookbuilder does not know"),
    "E003": (E, "a book.toml value has the wrong type or an invalid value"),
    "E004": (E, "the book path, or a file or folder in it, does not exist or cannot be read"),
    "E005": (E, "no .txt chapter files were found"),
    "E006": (E, "a path in book.toml points outside the book project"),
    "E007": (E, "an output file or folder cannot be written"),
    "E008": (E, "a file named in book.toml does not exist"),
    "E009": (
        E,
        "a [[fix]] entry in book.toml matches no line of the book, a [[volume]] entry names no chapter "
        "file of it, or a [[keep]] entry's line no longer holds its text",
    ),
    "E010": (E, "serve cannot listen on the address and port given (in use, or not this machine's)"),
    "E011": (
        E,
        "shelf.toml cannot be read or lists an entry that is not a book,"
        " or two books of a shelf have one name",
    ),
    "I001": (
        I,
        "the title and author the book got, and where each came from (book.toml, the text, the file name)",
    ),
    # 1xx: decoding
    "E101": (E, "the file is not text (image, archive, PDF or NUL bytes)"),
    "E102": (
        E,
        "the file does not read as text in any supported encoding, or has more damaged bytes than errors "
        "allows",
    ),
    "E103": (E, "every chapter file is empty"),
    "E104": (E, "an encoding override names an unknown codec or fails to decode the file"),
    "W101": (W, "an empty or whitespace-only file was skipped"),
    "W102": (W, "the text carries a sign of mojibake (锟斤拷, Ã¤, U+FFFD, private-use characters)"),
    "W103": (W, "the encoding was decided by the detector on fewer than 64 bytes"),
    "W104": (W, 'undecodable bytes were replaced because book.toml asked for errors = "replace"'),
    "W105": (W, "the detector named neither GB18030 nor Big5; GB18030 was assumed"),
    "W106": (
        W,
        'a few undecodable byte sequences (damage) were decoded as U+FFFD (errors = "auto"); the lines are '
        "named",
    ),
    "W107": (
        W,
        "a stretch of lines decodes only in another codec than the rest of the file, and was decoded in it",
    ),
    "W108": (W, "a phone reader app's bookmark data (NUL bytes) after the end of the text was left out"),
    # W109 (retired): lines read back from Latin-1 mojibake are each I102 now
    "W110": (W, "the file ends in a run of NUL bytes (a download cut off or padded): they were left out"),
    "I101": (I, "an encoding override from book.toml was used"),
    "I102": (
        I,
        "a line of Chinese that a scraper had shown as Latin-1 or cp1252 (µÚÈýÕÂ for 第三章) was read back",
    ),
    # 2xx: normalization
    "I201": (
        I,
        "cleaning removed this text (rule: text); listed by normalize --report and check --json's removed",
    ),
    "W201": (W, "unbalanced quotation marks in a paragraph"),
    "W202": (W, "a paragraph is over 5,000 characters (missing line breaks?)"),
    "W203": (
        W,
        "after cleaning, lines still look like a site's debris (a URL, markup, an app's advert, a site's "
        "words or name, a template repeated at chapters' edges): one warning per shape, with its count "
        "and first place",
    ),
    "W204": (
        W,
        "a site's placeholder for a character it could not show (<bzhlm2_001bz>, &#;) was written as 〓: "
        "the character is missing",
    ),
    # 3xx: structure
    "W301": (W, "a gap in chapter numbering (a chapter seems missing)"),
    "W302": (W, "two chapters carry the same number"),
    "W303": (W, "chapter numbers go backwards"),
    "W304": (W, "a file name's number disagrees with the chapter heading's number"),
    "W305": (W, "a chapter has no text"),
    "W306": (W, "a chapter is over 50,000 characters (a missed heading?)"),
    "W307": (
        W,
        "no headings were found, or a chapter is over 100,000 characters: the text was divided into parts",
    ),
    "W308": (W, "a chapter repeats an earlier one word for word (title and text) and was left out"),
    "W309": (W, "a chapter's or volume's title holds markup, a URL or a site's words"),
    "I301": (I, "a line looks like a heading but the heading guard rejected it"),
    "I302": (I, "a run of headings with no text between them (the file's own table of contents) was dropped"),
    "I303": (I, "a line repeated before many headings (a site's page header) was dropped"),
    "I305": (I, "a [[fix]] entry from book.toml was applied here"),
    "I306": (
        I,
        "the chapter numbers start again at 1 with no volume heading: the book was divided into parts there "
        "where the titles do not tell the runs apart",
    ),
    "I304": (
        I,
        "how headings were chosen: how many each rule gave, and which candidates the evidence turned down",
    ),
    # 4xx: outputs
    "E401": (E, "EPUBCheck reported an error in the EPUB"),
    "W401": (W, "EPUBCheck reported a warning in the EPUB"),
    "W402": (W, "the EPUB is over 50 MB (the Kindle e-mail limit)"),
    "E402": (E, "Java is missing, so EPUBCheck cannot run"),
    "E403": (E, "the PDF cannot be read back, or lacks text, outline entries or embedded fonts"),
    "E404": (E, "characters of the book have no glyph in the chosen fonts"),
    "E405": (E, "no CJK font was found for the PDF"),
    "E406": (E, "the cover image is not a JPEG or PNG"),
    "W403": (W, "the cover image is small or far from a 1:1.6 ratio"),
    "E407": (E, "Ace by DAISY reported a critical or serious accessibility violation (or could not run)"),
    "W404": (W, "Ace by DAISY reported a moderate or minor accessibility violation"),
    "I401": (I, "Ace by DAISY is not installed, so accessibility was not checked"),
    "I402": (
        I,
        "Ace by DAISY checked a sample of the EPUB's documents, named here (--a11y full checks them all)",
    ),
    "W405": (
        W,
        "WeasyPrint ignored part of a stylesheet, or could not load a resource, while making the PDF",
    ),
    "W406": (W, "the EPUB has no dc:language, or its documents contradict it (Send to Kindle rejects it)"),
    "W407": (
        W,
        "a link in the EPUB points at a file or fragment that is not there (Send to Kindle rejects it)",
    ),
    "W408": (W, "an image in the EPUB is over 5 MB, more than a Kindle book's image may be"),
    "E409": (
        E,
        "calibre's ebook-convert (or ebook-meta) is not installed, so the AZW3 cannot be made or read",
    ),
    "E410": (E, "calibre failed to convert or read a book file"),
    "E411": (E, "the AZW3 read back by calibre does not carry the book's title or author"),
    "E412": (
        E,
        "a program bookbuilder runs (EPUBCheck's Java, pdftotext, calibre, fontconfig) timed out or could "
        "not start",
    ),
    "E408": (E, "a worker process died or failed while building: try again with --jobs 1"),
    "E420": (
        E,
        "a shelf's Dask cluster cannot be used: its scheduler cannot be reached, it has no workers,"
        " they run another bookbuilder, or dask.distributed is not installed",
    ),
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    message: str
    at: Location | None = None

    @property
    def severity(self) -> Severity:
        return CODES[self.code][0]

    def __str__(self) -> str:
        where = f"{self.at}: " if self.at else ""
        return f"{where}{self.severity} {self.code}: {self.message}"

    def as_json(self) -> dict:
        return {
            "code": self.code,
            "severity": str(self.severity),
            "message": self.message,
            "path": self.at.path if self.at else None,
            "line": self.at.line if self.at else None,
        }


REMOVED = "I201"  # a removal record (rule: text), as cleaning keeps them


def removal(rule: str, text: str, at: Location | None, evidence: str = "") -> Diagnostic:
    """The record of text that cleaning removed: listed by `normalize --report` and `check --json`,
    with the evidence that decided it (`rule [evidence]: text`), so a user can judge a removal and
    switch its rule off."""
    evidence = evidence.replace(": ", " ").replace("]", ")")
    return Diagnostic(REMOVED, f"{rule} [{evidence}]: {text}" if evidence else f"{rule}: {text}", at)


def removal_parts(d: Diagnostic) -> tuple[str, str]:
    """(rule, removed text) of a removal record."""
    rule, _, text = d.message.partition(": ")
    return rule.split(" [", 1)[0], text


def removal_evidence(d: Diagnostic) -> str:
    """What decided a removal ('' where the record says nothing more than its rule)."""
    head = d.message.partition(": ")[0]
    return head.split(" [", 1)[1][:-1] if " [" in head else ""


class BookError(Exception):
    """An expected problem with the book or its files: the CLI prints it in one line, exit 1."""

    def __init__(self, code: str, message: str, at: Location | str | None = None):
        if isinstance(at, str):
            at = Location(at)
        self.diagnostic = Diagnostic(code, message, at)
        super().__init__(str(self.diagnostic))

    def __reduce__(self):  # raised in a worker process, it crosses back whole
        return BookError, (self.diagnostic.code, self.diagnostic.message, self.diagnostic.at)


def count_by_severity(diagnostics) -> dict[Severity, int]:
    counts = {s: 0 for s in Severity}
    for d in diagnostics:
        counts[d.severity] += 1
    return counts
