"""Ace by DAISY, the accessibility checker Standard Ebooks gates its releases on, as a real
checker: run it on the EPUB, read its report.json, turn each violation into a diagnostic."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Location

HERE = Path(__file__).resolve().parent
INSTALL_HINT = ("ELECTRON_SKIP_BINARY_DOWNLOAD=1 PUPPETEER_SKIP_DOWNLOAD=1 npm install --prefix .tools @daisy/ace "
                "and apt-get install chromium (scripts/setup.sh does both)")
ERROR_IMPACTS = ("critical", "serious")


def find_ace() -> str | None:
    """Ace's Puppeteer runner (the default `ace` needs Electron's binary, which cannot be fetched
    here): $BOOKBUILDER_ACE, on PATH, or in .tools/ of the repository, where scripts/setup.sh puts it."""
    candidates = [os.environ.get("BOOKBUILDER_ACE"), shutil.which("ace-puppeteer"),
                  HERE.parent / ".tools" / "node_modules" / ".bin" / "ace-puppeteer"]
    for candidate in candidates:
        if candidate and Path(candidate).exists():
            return str(candidate)
    return None


def find_chromium() -> str | None:
    return os.environ.get("PUPPETEER_EXECUTABLE_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")


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
        subprocess.run([ace, "--silent", "--force", "--outdir", str(out), str(epub)], env=env,
                       capture_output=True, check=False, timeout=600)
        report = out / "report.json"
        if not report.exists():
            raise RuntimeError("Ace wrote no report")
        return json.loads(report.read_text("utf-8"))


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
            found.append({"impact": test.get("earl:impact", "moderate"), "rule": test.get("dct:title", "?"),
                          "message": result.get("dct:description") or test.get("dct:description", ""),
                          "document": url})
    return found


def check_ace(epub: Path) -> list[Diagnostic]:
    if not find_ace() or not find_chromium():
        return [Diagnostic("I401", f"Ace by DAISY is not installed, accessibility not checked: {INSTALL_HINT}", Location(str(epub)))]
    try:
        report = run_ace(epub)
    except (OSError, RuntimeError, subprocess.TimeoutExpired, json.JSONDecodeError) as e:
        return [Diagnostic("E407", f"Ace by DAISY could not check the EPUB: {e}", Location(str(epub)))]
    return [Diagnostic("E407" if v["impact"] in ERROR_IMPACTS else "W404",
                       f"{v['impact']} {v['rule']}: {v['message']}",
                       Location(f"{epub}!{v['document']}" if v["document"] else str(epub)))
            for v in violations(report)]
