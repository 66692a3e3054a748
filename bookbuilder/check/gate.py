"""`check --outputs`: every output check of every artifact in build/, run at once, each result
kept beside its artifact for the next run.

A Check is one judge of one artifact (EPUBCheck, Ace, the PDF read back, calibre): each is its own
process or mostly waits on one, and they share nothing, so they run on threads side by side. Each
result is kept in build/.checks/<artifact>.json under the artifact's SHA-256 and the check's
`version` (bookbuilder's and the judge's): a second run on unchanged artifacts answers from there.
A kept result that is unreadable, or for other bytes or another version, is ignored and replaced.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bookbuilder import __version__
from bookbuilder.diagnostics import Diagnostic, Location


@dataclass(frozen=True)
class Check:
    name: str  # "EPUBCheck", "Ace", "PDF read-back", …
    artifact: Path
    run: Callable[[], list[Diagnostic]]
    version: str = ""  # the judge's version: a kept result is reused only under the same one


@dataclass(frozen=True)
class Result:
    check: Check
    diagnostics: list[Diagnostic]
    seconds: float
    reused: bool

    def as_json(self) -> dict:
        return {
            "check": self.check.name,
            "artifact": str(self.check.artifact),
            "seconds": round(self.seconds, 2),
            "reused": self.reused,
            "diagnostics": len(self.diagnostics),
        }


def run_checks(
    checks: list[Check], jobs: int | None = None, progress: Callable[[Result], None] | None = None
) -> list[Result]:
    """Every check, `jobs` at a time (default: all at once); results in the order of `checks`."""
    results: dict[int, Result] = {}
    with cf.ThreadPoolExecutor(max_workers=max(1, jobs or len(checks))) as pool:
        futures = {pool.submit(_run_or_reuse, check): i for i, check in enumerate(checks)}
        for future in cf.as_completed(futures):
            results[futures[future]] = result = future.result()
            if progress:
                progress(result)
    return [results[i] for i in range(len(checks))]


def _run_or_reuse(check: Check) -> Result:
    start = time.perf_counter()
    digest = _sha256(check.artifact)
    key = f"bookbuilder {__version__}; {check.version}"
    kept = _kept(check.artifact)
    entry = kept.get("results", {}).get(check.name) if kept.get("sha256") == digest else None
    if entry and entry.get("version") == key:
        try:
            found = [
                Diagnostic(d["code"], d["message"], Location(d["path"], d["line"]) if d["path"] else None)
                for d in entry["diagnostics"]
            ]
            return Result(check, found, time.perf_counter() - start, True)
        except (KeyError, TypeError):
            pass  # damaged: checked again below
    found = check.run()
    _keep(check.artifact, digest, check.name, key, found)
    return Result(check, found, time.perf_counter() - start, False)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def kept_path(artifact: Path) -> Path:
    return artifact.parent / ".checks" / f"{artifact.name}.json"


def _kept(artifact: Path) -> dict:
    try:
        kept = json.loads(kept_path(artifact).read_text("utf-8"))
        return kept if isinstance(kept, dict) else {}
    except (OSError, ValueError):
        return {}


def _keep(artifact: Path, digest: str, name: str, key: str, found: list[Diagnostic]) -> None:
    """Add this check's result to the artifact's record (write, then rename: a reader never sees
    half a file); checks of one artifact finish on different threads, hence the lock."""
    with _lock(artifact):
        kept = _kept(artifact)
        if kept.get("sha256") != digest:
            kept = {"sha256": digest, "results": {}}
        kept.setdefault("results", {})[name] = {"version": key, "diagnostics": [d.as_json() for d in found]}
        path = kept_path(artifact)
        try:
            path.parent.mkdir(exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.part")
            tmp.write_text(json.dumps(kept, ensure_ascii=False), "utf-8")
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only build/: the result is simply not kept


@cache
def _lock(artifact: Path):
    import threading

    return threading.Lock()
