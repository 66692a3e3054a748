"""Two judgements of one shelf side by side (bench/judge_shelf.py --out), book by book: what a
change did, so that a book it made worse is seen, not averaged away.

    python bench/compare_shelf.py before.json after.json

A book is listed when its truth's verdict changed (each field that now fails or now holds), when
its chapters or volumes changed, or when more of its removals read as story (at risk). The last
line counts the books made right and made wrong by truth, and those whose at-risk removals grew.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def changes(before: dict, after: dict) -> list[str]:
    """What differs between two verdicts of one book, as lines to read."""
    said = []
    was, now = set(before.get("wrong", [])), set(after.get("wrong", []))
    said += [f"now fails: {w[:150]}" for w in sorted(now - was)]
    said += [f"now holds: {w[:150]}" for w in sorted(was - now)]
    for key in ("chapters", "volumes"):
        if before.get(key) != after.get(key):
            said.append(f"{key}: {before.get(key)} -> {after.get(key)}")
    risky_before = {r["text"] for r in before.get("at_risk", [])}
    said += [
        f"at risk: {r['rule']}: {r['text'][:100]}"
        for r in after.get("at_risk", [])
        if r["text"] not in risky_before
    ]
    return said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    before = {v["book"]: v for v in json.loads(args.before.read_text("utf-8"))}
    after = {v["book"]: v for v in json.loads(args.after.read_text("utf-8"))}
    right = wrong = risky = 0
    for name in sorted(before.keys() & after.keys()):
        said = changes(before[name], after[name])
        if not said:
            continue
        print(name)
        print("".join(f"    {line}\n" for line in said), end="")
        right += before[name].get("right") is False and after[name].get("right") is True
        wrong += before[name].get("right") is True and after[name].get("right") is False
        risky += any(line.startswith("at risk") for line in said)
    shared = len(before.keys() & after.keys())
    print(
        f"{shared} books: {right} made right, {wrong} made wrong by truth, {risky} with new removals at risk"
    )


if __name__ == "__main__":
    main()
