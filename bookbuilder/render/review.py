"""`bookbuilder normalize`: the normalized chapters as UTF-8 text, a diff against the decoded
source, or (only when asked) the source rewritten in place, atomically."""

from __future__ import annotations

import difflib
from collections import defaultdict
from pathlib import Path

from bookbuilder.decode.text import decode_chapter
from bookbuilder.pipeline import Loaded
from bookbuilder.render.text import chapter_text
from bookbuilder.system.atomic import atomic_path


def _by_source(loaded: Loaded) -> dict[str, list[str]]:
    """Normalized text per source file; a volume's title heads the first file it comes from."""
    texts = defaultdict(list)
    for volume in loaded.book.volumes:
        for i, chapter in enumerate(volume.chapters):
            if i == 0 and volume.title and loaded.config.source.is_file():
                texts[chapter.at.path].append(volume.title + "\n\n")
            texts[chapter.at.path].append(chapter_text(chapter))
    return texts


def write_normalized(loaded: Loaded, out_dir: Path) -> Path:
    """One file per chapter, title on the first line, numbered in reading order."""
    out_dir = Path(out_dir)
    for n, chapter in enumerate(loaded.book.chapters(), 1):
        with atomic_path(out_dir / f"{n:05d}.txt") as tmp:
            tmp.write_text(chapter_text(chapter), "utf-8")
    return out_dir


def normalized_diff(loaded: Loaded) -> str:
    out = []
    for path, texts in _by_source(loaded).items():
        decoded = decode_chapter(Path(path).read_bytes(), path).text
        before = (decoded if decoded.endswith("\n") else decoded + "\n").splitlines(keepends=True)
        after = ("\n".join(t.rstrip("\n") for t in texts) + "\n").splitlines(keepends=True)
        out += difflib.unified_diff(
            before, after, fromfile=f"{path} (decoded)", tofile=f"{path} (normalized)"
        )
    return "".join(line if line.endswith("\n") else line + "\n" for line in out)


def write_in_place(loaded: Loaded) -> list[str]:
    done = []
    for path, texts in _by_source(loaded).items():
        with atomic_path(Path(path)) as tmp:
            tmp.write_text("\n".join(t.rstrip("\n") for t in texts) + "\n", "utf-8")
        done.append(f"rewrote {path}")
    return done
