"""What a debris judge needs to find in a text before it can take anything: its hints, declared
beside the judge (normalize/debris.py's LINE_JUDGES, normalize/forms.py's FORM_HINTS). The
prefilter of normalize/lines.py is built from the declarations: a line none of them hints at is
offered to no judge, and a judge added with its hints is offered the lines they find, with no other
list to keep in step."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache

from bookbuilder.normalize.junk import _trie
from bookbuilder.vocabulary import LATIN_LETTERS

# Latin letters, with the look-alikes a disguised name uses: what a URL and a strewn name (txt) need.
LATIN_LOOKALIKE = re.compile(f"[{LATIN_LETTERS}ωѡ]")


@dataclass(frozen=True)
class Hint:
    """`words`: literal words, any of which is the hint (every judge's words are found by one scan);
    or `finds`: a regex. `first`: a cheaper regex that must find something before `finds` is tried
    (it decides nothing of its own). `beside`: the hint counts only in a text where one of these is
    found too (a bracket matters beside site words)."""

    words: tuple[str, ...] = ()
    finds: re.Pattern | None = None
    first: re.Pattern | None = None
    beside: tuple[re.Pattern, ...] = ()


class Prefilter:
    """The union of a set of hints: whether a text holds any, and which lines of a chapter do."""

    def __init__(self, hints: tuple[Hint, ...]) -> None:
        words = sorted({w for h in hints for w in h.words})
        self.words = re.compile(_trie(words)) if words else None
        # one entry per distinct regex hint, in the order declared: (finds, first, beside)
        self.patterns = tuple(dict.fromkeys((h.finds, h.first, h.beside) for h in hints if h.finds))

    def __call__(self, text: str) -> bool:
        """Whether some judge's hint is in `text`."""
        if self.words is not None and self.words.search(text):
            return True
        return any(
            (first is None or first.search(text))
            and finds.search(text)
            and (not beside or any(rx.search(text) for rx in beside))
            for finds, first, beside in self.patterns
        )

    def scans(self, text: str) -> list[re.Pattern]:
        """The regexes whose every match marks a line worth a judge's look, in a chapter's `text`:
        the words, and each regex hint whose `beside` the text holds."""
        found = [self.words] if self.words is not None else []
        found += [
            finds for finds, _, beside in self.patterns if not beside or any(rx.search(text) for rx in beside)
        ]
        return found


@lru_cache(maxsize=8)
def prefilter(hints: tuple[Hint, ...]) -> Prefilter:
    """The prefilter of these hints, built once for each set of judges."""
    return Prefilter(hints)


def lines_found(text: str, starts: list[int], where: list[int], scans) -> set[int]:
    """The indexes (`where`) of the lines starting at `starts` in `text` where a scan finds something."""
    found: set[int] = set()
    for rx in scans:
        if rx is not None:
            found.update(where[bisect.bisect_right(starts, m.start()) - 1] for m in rx.finditer(text))
    return found
