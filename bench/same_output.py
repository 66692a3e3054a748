#!/usr/bin/env python3
"""Fingerprints of what bookbuilder makes, to show a refactor or a speed change changes no output.

    python bench/same_output.py --out /tmp/before.json [--product TREE] [--pdf]
    python bench/same_output.py --compare /tmp/before.json /tmp/after.json

Builds, with SOURCE_DATE_EPOCH fixed, the sample book, a generated 300-chapter folder book and a
generated 400-chapter whole-novel file (UTF-8 and GB18030), and records the sha256 of each EPUB, kepub,
`normalize` text, `toc` and `check --json` (and with --pdf, each PDF). --product runs another
checkout's bookbuilder (its tree first on PYTHONPATH) on the same inputs, so two commits compare.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from _measure import MAKE_CORPUS  # noqa: E402


def _inputs(work: Path) -> dict[str, Path]:
    folder, single = work / "generated", work / "whole.txt"
    subprocess.run(
        [sys.executable, MAKE_CORPUS, "--out", folder, "-n", "300", "--single", single],
        check=True,
        capture_output=True,
    )
    (folder / "manifest.json").unlink()
    gbk = work / "whole-gb18030.txt"
    subprocess.run(
        [sys.executable, MAKE_CORPUS, "--out", work / "g2", "-n", "120", "--no-chapters"]
        + ["--single", gbk, "--single-encoding", "gb18030", "--seed", "7"],
        check=True,
        capture_output=True,
    )
    return {"sample": ROOT, "folder": folder, "whole": single, "whole-gb18030": gbk}


def _run(product: Path, args: list, env: dict, cwd: Path) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "bookbuilder", *map(str, args)]
    return subprocess.run(cmd, capture_output=True, env=env, cwd=cwd)


def fingerprints(product: Path, pdf: bool) -> dict[str, str]:
    # PYTHONSAFEPATH: `python -m` run in the sample book (this tree) would put it before PYTHONPATH
    env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000", PYTHONPATH=str(product), PYTHONSAFEPATH="1")
    found: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, book in _inputs(work).items():
            # toc and check name files relative to where they run: from the book, the paths are
            # the same whichever tree is measured and wherever the temporary folder is
            at = book if book.is_dir() else book.parent
            out = work / "out" / name
            out.mkdir(parents=True)
            formats = ["epub", "kepub"] + (["pdf"] if pdf else [])
            for fmt in formats:
                target = out / f"book.{fmt}"
                done = _run(product, ["-q", fmt, book, "-o", target], env, at)
                found[f"{name}.{fmt}"] = _digest(target.read_bytes() if target.exists() else done.stderr)
            norm = out / "normalized"
            _run(product, ["-q", "normalize", book, "-o", norm], env, at)
            found[f"{name}.normalize"] = _tree_digest(norm)
            for command in (["toc"], ["check", "--format", "json"]):
                done = _run(product, [*command, book], env, at)
                text = done.stdout.replace(str(work).encode(), b"WORK")
                found[f"{name}.{command[0]}"] = _digest(text + b"rc=%d" % done.returncode)
        shutil.rmtree(work / "out")
    return found


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _tree_digest(folder: Path) -> str:
    if not folder.exists():
        return "missing"
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            h.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--product", type=Path, default=ROOT)
    parser.add_argument("--pdf", action="store_true", help="also build and compare the PDFs (minutes)")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(p.read_text()) for p in args.compare)
        differ = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        for key in differ:
            print(f"differs: {key} {before.get(key)} -> {after.get(key)}")
        print(f"{len(before.keys() | after.keys()) - len(differ)} same, {len(differ)} differ")
        return 1 if differ else 0
    found = fingerprints(args.product.resolve(), args.pdf)
    text = json.dumps(found, indent=1, sort_keys=True)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
