"""Ace by DAISY, the accessibility checker Standard Ebooks gates its releases on, as a real
checker: run it on the EPUB, read its report.json, turn each violation into a diagnostic."""

from __future__ import annotations

import json
import os
import posixpath
import re
import shutil
import tempfile
import zipfile
from pathlib import Path

from bookbuilder.diagnostics import BookError, Diagnostic
from bookbuilder.model import Location
from bookbuilder.system import external

HERE = Path(__file__).resolve().parent
INSTALL_HINT = (
    "ELECTRON_SKIP_BINARY_DOWNLOAD=1 PUPPETEER_SKIP_DOWNLOAD=1 npm install --prefix .tools @daisy/ace "
    "and apt-get install chromium (scripts/setup.sh does both)"
)
ERROR_IMPACTS = ("critical", "serious")


def find_ace() -> str | None:
    """Ace's Puppeteer runner (the default `ace` needs Electron's binary, which cannot be fetched
    here): $BOOKBUILDER_ACE, on PATH, or in .tools/ of the repository, where scripts/setup.sh puts it."""
    candidates = [
        os.environ.get("BOOKBUILDER_ACE"),
        shutil.which("ace-puppeteer"),
        HERE.parent.parent / ".tools" / "node_modules" / ".bin" / "ace-puppeteer",
    ]
    for candidate in candidates:
        if candidate and Path(candidate).exists():
            return str(candidate)
    return None


def ace_version() -> str:
    """Ace's version from its package.json, beside its runner."""
    ace = find_ace()
    for folder in Path(ace).resolve().parents if ace else ():
        manifest = folder / "@daisy" / "ace" / "package.json"
        if manifest.is_file():
            return "ace " + json.loads(manifest.read_text("utf-8")).get("version", "?")
    return f"ace {ace}"


def find_chromium() -> str | None:
    return (
        os.environ.get("PUPPETEER_EXECUTABLE_PATH")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )


# Ace's browser can fail to start on a loaded machine (its launch times out, and Ace exits without a
# report): it is started once more before the EPUB is said to be unchecked.
ACE_ATTEMPTS = 2


def run_ace(epub: Path) -> dict:
    """Ace's report.json for `epub`."""
    ace, chromium = find_ace(), find_chromium()
    with tempfile.TemporaryDirectory() as tmp:
        # Chromium refuses to run as root inside its sandbox; Ace cannot pass it flags, so a
        # wrapper adds --no-sandbox (the pages are our own XHTML, loaded from a local folder).
        wrapper = Path(tmp) / "chromium"
        wrapper.write_text(f'#!/bin/sh\nexec "{chromium}" --no-sandbox --disable-gpu "$@"\n')
        wrapper.chmod(0o755)
        env = dict(os.environ, PUPPETEER_EXECUTABLE_PATH=str(wrapper))
        out = Path(tmp) / "report"
        for _attempt in range(ACE_ATTEMPTS):
            done = external.run(
                [ace, "--silent", "--force", "--outdir", str(out), str(epub)],
                str(epub),
                env=env,
                capture_output=True,
                text=True,
            )
            report = out / "report.json"
            if report.exists():
                return json.loads(report.read_text("utf-8"))
        said = (done.stderr or done.stdout or "").strip().splitlines()
        raise RuntimeError(f"Ace wrote no report (exit {done.returncode}{': ' + said[-1] if said else ''})")


def violations(report: dict) -> list[dict]:
    """Every failed assertion: {impact, rule, message, document}."""
    found = []
    for document in report.get("assertions", []):
        url = (document.get("earl:testSubject") or {}).get("url", "")
        for assertion in document.get("assertions", []):
            result = assertion.get("earl:result") or {}
            if result.get("earl:outcome") != "fail":
                continue
            test = assertion.get("earl:test") or {}
            found.append(
                {
                    "impact": test.get("earl:impact", "moderate"),
                    "rule": test.get("dct:title", "?"),
                    "message": result.get("dct:description") or test.get("dct:description", ""),
                    "document": url,
                }
            )
    return found


def check_ace(epub: Path, full: bool = False) -> list[Diagnostic]:
    """Ace's violations in `epub`. Unless `full`, on a sample of its documents (sample_spine): Ace
    opens every document of the spine in Chromium, and ours are all made by one template, so a
    2,000-chapter book would take it minutes to say what a dozen documents say. I402 names the sample."""
    if not find_ace() or not find_chromium():
        return [
            Diagnostic(
                "I401",
                f"Ace by DAISY is not installed, accessibility not checked: {INSTALL_HINT}",
                Location(str(epub)),
            )
        ]
    notes = []
    with tempfile.TemporaryDirectory() as tmp:
        target = epub
        if not full:
            target, sample, total = sampled_epub(epub, Path(tmp) / epub.name)
            if len(sample) < total:
                notes.append(
                    Diagnostic(
                        "I402",
                        f"Ace checked {len(sample)} of the {total} documents in the reading order: "
                        f"{', '.join(sample)} (bookbuilder check --outputs --a11y full checks every one)",
                        Location(str(epub)),
                    )
                )
        try:
            report = run_ace(target)
        except BookError as e:  # E412 from external: Ace hung or could not start
            return [
                Diagnostic(
                    "E407",
                    f"Ace by DAISY could not check the EPUB: {e.diagnostic.message}",
                    Location(str(epub)),
                )
            ]
        except (OSError, RuntimeError, json.JSONDecodeError) as e:
            return [Diagnostic("E407", f"Ace by DAISY could not check the EPUB: {e}", Location(str(epub)))]
    return notes + [
        Diagnostic(
            "E407" if v["impact"] in ERROR_IMPACTS else "W404",
            f"{v['impact']} {v['rule']}: {v['message']}",
            Location(f"{epub}!{v['document']}" if v["document"] else str(epub)),
        )
        for v in violations(report)
    ]


SAMPLE_CHAPTERS = 8
_ITEMREF = re.compile(r'\s*<itemref idref="([^"]+)"[^>]*/>')
_ITEM = re.compile(r'\s*<item href="([^"]+)" id="([^"]+)" media-type="application/xhtml\+xml"/>')
_NAV_POINT = re.compile(
    r'\s*<navPoint id="[^"]*"[^>]*>\s*<navLabel>\s*<text>[^<]*</text>\s*</navLabel>\s*'
    r'<content src="[^"]*?([^"/]+)\.xhtml"/>\s*</navPoint>'
)
_NAV_ENTRY = re.compile(r'\s*<li>\s*<a href="[^"]*?([^"/]+)\.xhtml">[^<]*</a>\s*</li>')


def sample_spine(ids: list[str]) -> list[str]:
    """The documents Ace checks, chosen from the spine's ids, the same every time: every one that
    is not a chapter's (cover, title page, contents, volume pages), the first and the last
    chapter, the first continuation of a long chapter (`<id>_2`), and chapters evenly spread
    between, SAMPLE_CHAPTERS in all."""
    always = {i for i in ids if i in ("cover", "titlepage", "nav") or i.startswith("part")}
    continued = [i for i in ids if "_" in i and i not in always]
    chapters = [i for i in ids if i not in always and i not in continued]
    chosen = always | set(chapters[:1] + chapters[-1:] + continued[:1])
    step = max(1, len(chapters) // max(1, SAMPLE_CHAPTERS - 2))
    for i in chapters[step::step]:
        if len(chosen - always) >= SAMPLE_CHAPTERS:
            break
        chosen.add(i)
    return [i for i in ids if i in chosen]


def sampled_epub(epub: Path, out: Path) -> tuple[Path, list[str], int]:
    """A copy of `epub` that holds only sample_spine's content documents, in its spine, manifest
    and tables of contents (Ace reads every document the package lists): (the copy, the
    sample, how many documents the spine had)."""
    with zipfile.ZipFile(epub) as source:
        opf_name = next(n for n in source.namelist() if n.endswith(".opf"))
        opf = source.read(opf_name).decode("utf-8")
        ids = _ITEMREF.findall(opf)
        sample = sample_spine(ids)
        if len(sample) == len(ids):
            return epub, sample, len(ids)
        kept = set(sample)
        dropped = {
            posixpath.join(posixpath.dirname(opf_name), m.group(1))
            for m in _ITEM.finditer(opf)
            if m.group(2) not in kept
        }
        opf = _ITEMREF.sub(lambda m: m.group(0) if m.group(1) in kept else "", opf)
        opf = _ITEM.sub(lambda m: m.group(0) if m.group(2) in kept else "", opf)
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
            for info in source.infolist():
                if info.filename in dropped:
                    continue
                data = opf.encode("utf-8") if info.filename == opf_name else source.read(info)
                if info.filename.endswith((".xhtml", ".ncx")) and info.filename not in dropped:
                    text = data.decode("utf-8")
                    text = _NAV_ENTRY.sub(lambda m: m.group(0) if m.group(1) in kept else "", text)
                    data = _NAV_POINT.sub(lambda m: m.group(0) if m.group(1) in kept else "", text).encode(
                        "utf-8"
                    )
                target.writestr(info, data)
    return out, sample, len(ids)
