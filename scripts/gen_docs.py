#!/usr/bin/env python3
"""Write the docs that are made from the code: docs/diagnostics.md from CODES, and README's
lists of the normalization rules (normalize.rules.RULES) and of the evidence rules
(normalize.rules.EVIDENCE_RULES, the judges' names among them).

    python scripts/gen_docs.py          # rewrite them
    python scripts/gen_docs.py --check  # exit 1, naming the files, where they are not current

README keeps its own words around each list; a list is the lines between a `begin:` and an
`end:` marker naming it, and only those are rewritten (tests/test_docs.py checks they are current).
"""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bookbuilder.diagnostics import CODES  # noqa: E402
from bookbuilder.normalize.rules import EVIDENCE_RULES, RULES, SWITCHES  # noqa: E402

DIAGNOSTICS_HEAD = """# Diagnostic codes

Every message bookbuilder prints has a stable code. Generated from `bookbuilder/diagnostics.py`
by `python scripts/gen_docs.py` (tests/test_docs.py checks it is current). Each code is produced
from a real input: the book in `tests/diagnostics/<CODE>/in/`, with the lines it gives in
`expected.txt`, or a named trigger in `tests/test_diagnostics.py`.

| code | severity | meaning |
|---|---|---|
"""
# README's regions: name → (the marker's comment syntax, the lines between the markers)
COMMENT = {"toml": "# {}", "markdown": "<!-- {} -->"}


def diagnostics_md() -> str:
    rows = [f"| {code} | {severity} | {meaning} |\n" for code, (severity, meaning) in CODES.items()]
    return DIAGNOSTICS_HEAD + "".join(rows)


def rule_switches() -> list[str]:
    """book.toml's [normalize] switches, each at its default, with what it does."""
    lines = []
    for rule in RULES:
        if rule.name in SWITCHES:
            setting = f"{rule.name} = {str(rule.default).lower()}"
            lines.append(f"{setting:<32} # {rule.why}")
    return lines


def evidence_rules() -> list[str]:
    """The names, as normalize.rules.EVIDENCE_RULES lists them, wrapped as README's prose is."""
    return textwrap.wrap(", ".join(f"`{name}`" for name in EVIDENCE_RULES) + ".", 100)


REGIONS = {"rules": ("toml", rule_switches), "evidence rules": ("markdown", evidence_rules)}


def readme(text: str) -> str:
    """README with each generated region made again; a region missing is an error."""
    for name, (syntax, make) in REGIONS.items():
        begin = COMMENT[syntax].format(f"begin: {name} (python scripts/gen_docs.py writes these lines)")
        end = COMMENT[syntax].format(f"end: {name}")
        pattern = re.compile(rf"^{re.escape(begin)}\n.*?^{re.escape(end)}$", re.S | re.M)
        if not pattern.search(text):
            raise SystemExit(f"README.md: no region {name!r} (a line {begin!r}, then {end!r})")
        made = "\n".join([begin, *make(), end])
        text = pattern.sub(lambda _, made=made: made, text, count=1)
    return text


def made() -> dict[Path, str]:
    """Each generated file → what it should hold."""
    return {
        ROOT / "docs" / "diagnostics.md": diagnostics_md(),
        ROOT / "README.md": readme((ROOT / "README.md").read_text("utf-8")),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 where not current")
    args = parser.parse_args()
    stale = [path for path, text in made().items() if path.read_text("utf-8") != text]
    if args.check:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is not current: python scripts/gen_docs.py", file=sys.stderr)
        return 1 if stale else 0
    for path, text in made().items():
        path.write_text(text, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
