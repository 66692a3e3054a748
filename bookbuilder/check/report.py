"""Diagnostics and results → text for people, JSON for scripts, annotations for GitHub Actions."""

from __future__ import annotations

import json

from bookbuilder.diagnostics import (
    REMOVED,
    Diagnostic,
    Severity,
    count_by_severity,
    removal_evidence,
    removal_parts,
)
from bookbuilder.model import Book, Paragraph


def removals(diagnostics) -> list[Diagnostic]:
    return [d for d in diagnostics if d.code == REMOVED]


def findings(diagnostics) -> list[Diagnostic]:
    """Everything but the removal records."""
    return [d for d in diagnostics if d.code != REMOVED]


def removal_json(d: Diagnostic) -> dict:
    rule, text = removal_parts(d)
    return {
        "path": d.at.path if d.at else None,
        "line": d.at.line if d.at else None,
        "rule": rule,
        "evidence": removal_evidence(d),
        "text": text,
    }


def removal_report(diagnostics) -> str:
    """`normalize --report`: one line per removal, path:line: rule: the removed text."""
    return "\n".join(f"{d.at}: {d.message}" for d in sorted(removals(diagnostics), key=where))


def human(diagnostics) -> str:
    return "\n".join(str(d) for d in sorted_diagnostics(findings(diagnostics)))


def sorted_diagnostics(diagnostics) -> list[Diagnostic]:
    """Errors first, then warnings, then notes; each by file and line."""
    return sorted(diagnostics, key=lambda d: (-d.severity, *where(d)))


def where(d: Diagnostic) -> tuple[str, int]:
    """The sort key of a diagnostic's place: (path, line), the book itself first."""
    return (d.at.path, d.at.line or 0) if d.at else ("", 0)


def summary(diagnostics, strict: bool = False) -> str:
    removed = len(removals(diagnostics))
    counts = count_by_severity(findings(diagnostics))
    parts = [
        f"{counts[Severity.ERROR]} error{'s' * (counts[Severity.ERROR] != 1)}",
        f"{counts[Severity.WARNING]} warning{'s' * (counts[Severity.WARNING] != 1)}",
    ]
    if counts[Severity.INFO]:
        parts.append(f"{counts[Severity.INFO]} info")
    if removed:
        parts.append(
            f"{removed} removal{'s' * (removed != 1)} of site debris"
            " (bookbuilder normalize --report lists them)"
        )
    return ", ".join(parts) + (
        " (--strict: warnings count as errors)" if strict and counts[Severity.WARNING] else ""
    )


def github(diagnostics) -> str:
    """Workflow commands: ::error file=…,line=…,title=CODE::message (one per line)."""
    lines = []
    for d in sorted_diagnostics(d for d in findings(diagnostics) if d.code != "I001"):  # not an annotation
        level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}[d.severity]
        props = []
        if d.at:
            props.append(f"file={_escape_property(d.at.path)}")
            if d.at.line:
                props.append(f"line={d.at.line}")
        props.append(f"title={d.code}")
        lines.append(f"::{level} {','.join(props)}::{_escape_data(d.message)}")
    return "\n".join(lines)


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def changes_line(book: Book) -> str:
    if not book.changes:
        return "normalized: nothing to change"
    return "normalized: " + ", ".join(f"{name} {n}" for name, n in book.changes)


def as_json(book: Book | None, diagnostics, files=None, checks: list[dict] | None = None) -> str:
    """The documented `check --json` object (see README): files, chapters, diagnostics, changes,
    and with --outputs the output checks (each one's artifact, time, whether it was reused)."""
    obj = {
        "files": [
            {"path": f.path, "encoding": f.encoding, "method": f.method, "replaced": f.replaced}
            for f in (book.files if book else files or ())
        ],
        "chapters": []
        if book is None
        else [
            {
                "title": c.title,
                "source": str(c.at),
                "paragraphs": sum(isinstance(b, Paragraph) for b in c.blocks),
                "characters": c.chars,
                "volume": v.title,
            }
            for v in book.volumes
            for c in v.chapters
        ],
        "diagnostics": [d.as_json() for d in sorted_diagnostics(findings(diagnostics))],
        "changes": dict(book.changes) if book else {},
        "removed": [removal_json(d) for d in sorted(removals(diagnostics), key=where)],
        "meta": {}
        if book is None
        else {key: {"value": getattr(book.meta, key), "from": source} for key, source in book.meta.sources},
    }
    obj["outputs"] = {"checked": checks is not None, "checks": checks or []}
    return json.dumps(obj, ensure_ascii=False, indent=2)


SHORT_CHAPTER = 200
_UNSURE = {
    "W301": "a chapter missing before it",
    "W302": "its number repeats",
    "W303": "its number goes back",
    "W305": "no text",
    "I301": "a look-alike line inside",
    "I305": None,
    "W309": "its title holds markup, a URL or a site's words",
}


def _doubts(book: Book, diagnostics) -> dict[tuple[str, int | None], list[str]]:
    """Per chapter (by its source path and heading line): what makes its entry doubtful."""
    starts: dict[str, list[tuple[int, tuple]]] = {}
    for chapter in book.chapters():
        starts.setdefault(chapter.at.path, []).append(
            (chapter.at.line or 0, (chapter.at.path, chapter.at.line))
        )
    found: dict[tuple, list[str]] = {}
    for d in diagnostics:
        if d.code in _UNSURE and d.at and d.at.path in starts:
            line = d.at.line or 0
            owner = [key for start, key in starts[d.at.path] if start <= line]
            if owner and (d.code in ("I301", "I305") or line == owner[-1][1]):
                found.setdefault(owner[-1], []).append(_UNSURE[d.code] or d.message)
    return found


def toc_rows(book: Book, diagnostics=()) -> list[dict]:
    """The detected table of contents, one row per chapter: what `bookbuilder toc` prints; `unsure`
    lists what makes an entry doubtful (numbering, size, rejected look-alike lines inside)."""
    # the length a build divides a chapter at (here, not at the top: `--version` imports no stage)
    from bookbuilder.structure.chapters import LONG_CHAPTER

    doubts = _doubts(book, diagnostics)
    rows, n = [], 0
    for volume in book.volumes:
        for chapter in volume.chapters:
            n += 1
            said = list(dict.fromkeys(doubts.get((chapter.at.path, chapter.at.line), [])))
            fixes = [s for s in said if s.startswith("fix #")]
            unsure = [s for s in said if not s.startswith("fix #")]
            if chapter.kind == "chapter" and chapter.chars < SHORT_CHAPTER:
                unsure.append(f"under {SHORT_CHAPTER} characters")
            if chapter.chars > LONG_CHAPTER:
                unsure.append(f"over {LONG_CHAPTER:,} characters")
            rows.append(
                {
                    "index": n,
                    "volume": volume.title,
                    "number": chapter.number,
                    "title": chapter.title,
                    "kind": chapter.kind,
                    "pass": chapter.decided_by,
                    "characters": chapter.chars,
                    "source": str(chapter.at),
                    "unsure": unsure,
                    "fixes": fixes,
                }
            )
    return rows


def toc_text(book: Book, diagnostics=()) -> str:
    """One line per entry; a ? before those `unsure` names, with the reasons at the end."""
    lines, current = [], object()
    for row in toc_rows(book, diagnostics):
        if row["volume"] != current:
            current = row["volume"]
            if current:
                lines.append(f"{current}")
        indent = "  " if current else ""
        number = "" if row["number"] is None else f"[{row['number']}] "
        mark = "?" if row["unsure"] else " "
        why = f"  ? {'; '.join(row['unsure'])}" if row["unsure"] else ""
        why += "".join(f"  [{fix}]" for fix in row["fixes"])
        lines.append(
            f"{indent}{mark}{row['index']:>5}  {number}{row['title']}  ({row['characters']:,} chars) "
            f" {row['source']}{why}"
        )
    return "\n".join(lines)
