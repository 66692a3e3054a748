#!/usr/bin/env python3
"""serve's workbench on a generated book: how long the reload after each correction takes, loaded
as serve loads it (serve.server.Site, its memo kept between loads); then a correction's round trip
over HTTP (POST → the rebuild that reads it → the page back) and the contents page's size.

    python bench/bench_workbench.py -n 2000            # a folder of 2,000 chapter files
    python bench/bench_workbench.py -n 2000 --whole    # the same book as one .txt

The book is bench/make_corpus.py's, with a pager line in every 50th chapter and an advert glued with a
half-width comma (云端书斋,一键直达) into every 40th, so that there is a removal to keep and
text to remove everywhere.
Each reload prints its seconds and how many files it read again; undoing all three gives back
book.toml byte for byte.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bookbuilder.diagnostics import removal_parts  # noqa: E402
from bookbuilder.serve import corrections  # noqa: E402
from bookbuilder.serve.server import Site  # noqa: E402

TOML = '[book]\ntitle = "大书"\nauthor = "某人"\n'
PAGER = "本章未完，请点击下一页继续阅读"
ADVERT, SELECTED = "云端书斋,一键直达", "云端书斋，一键直达"  # the source's, and as the page shows it


def generator() -> Path:
    return REPO / "bench" / "make_corpus.py"


def make_book(n: int, root: Path, whole: bool) -> Path:
    """The book to serve: a project with source/ of `n` files, or (`whole`) one novel.txt."""
    source = root / "source"
    single = ["--single", str(root / "novel.txt"), "--no-chapters"] if whole else []
    subprocess.run(
        [sys.executable, str(generator()), "--out", str(source), "-n", str(n), *single],
        check=True,
        capture_output=True,
    )
    if whole:
        path = root / "novel.txt"
        path.write_bytes(_with_adverts(path.read_bytes(), 0, every=80))
        (root / "novel.book.toml").write_text(TOML, "utf-8")
        return path
    (source / "manifest.json").unlink()
    for k, path in enumerate(sorted(source.glob("*.txt"))):
        path.write_bytes(_with_adverts(path.read_bytes(), k))
    (root / "book.toml").write_text(TOML, "utf-8")
    return root


def _with_adverts(data: bytes, k: int, every: int = 0) -> bytes:
    """A file with the advert glued to a paragraph (every 40th file, or every `every`th paragraph of
    a whole novel) and a pager line (every 50th file, or after every 100th paragraph)."""
    text, codec = _decoded(data)
    lines = text.split("\n")
    if every:
        story = [
            i for i, line in enumerate(lines) if line.startswith("　　") and line.rstrip().endswith("。")
        ]
        for j, i in enumerate(story[::every]):
            lines[i] = lines[i].rstrip() + ADVERT + ("\n　　" + PAGER if j % 2 else "")
    else:
        if k % 40 == 3:
            lines[2] = lines[2].rstrip() + ADVERT
        if k % 50 == 7:
            lines.insert(len(lines) // 2, "　　" + PAGER)
    return "\n".join(lines).encode(codec)


def _decoded(data: bytes) -> tuple[str, str]:
    for codec in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(codec), codec
        except UnicodeDecodeError:
            continue
    raise ValueError("undecodable")


def reload(site: Site, toml: Path, change) -> dict:
    doc = corrections.read(toml)
    said = change(doc)
    corrections.write(toml, doc)
    start = time.perf_counter()
    site.rebuild()
    seconds = round(time.perf_counter() - start, 2)
    assert site.preview.error is None, site.preview.error
    return {
        "seconds": seconds,
        "files_read": site.memo.get("read"),
        "said": said if isinstance(said, str) else said[0],
    }


def reloads(root: Path) -> dict:
    site = Site(root, None, lambda line: None)
    start = time.perf_counter()
    site.rebuild()
    first = round(time.perf_counter() - start, 2)
    preview = site.preview
    toml = preview.loaded.config.toml_path
    chapter = preview.chapters[len(preview.chapters) // 2]
    at = corrections.fix_at(preview.loaded.config.source, chapter.path, chapter.first)
    pager = next(d for found in preview.removed.values() for d in found if PAGER in d.message)
    kept_at = corrections.fix_at(preview.loaded.config.source, pager.at.path, pager.at.line)
    out = {
        "first_load_s": first,
        "fix": reload(
            site, toml, lambda doc: corrections.add_fix(doc, at, rename=chapter.chapter.title + "（改）")
        ),
        "keep": reload(site, toml, lambda doc: corrections.add_keep(doc, kept_at, removal_parts(pager)[1])),
        "extra": reload(
            site, toml, lambda doc: corrections.remove_everywhere(doc, corrections.removal_pattern(SELECTED))
        ),
    }
    out["extra"]["removed"] = sum(
        1 for found in site.preview.removed.values() for d in found if removal_parts(d)[0] == "literal-1"
    )
    for kind in ("extra", "keep", "fix"):
        found = [c for c in corrections.in_force(corrections.read(toml)) if c.kind == kind]
        out[f"undo_{kind}"] = reload(
            site, toml, lambda doc, c=found[-1]: corrections.undo(doc, c.kind, c.index, c.says)
        )
    assert toml.read_text("utf-8") == TOML, "undo gives back book.toml byte for byte"
    return out


def post(url: str, fields: dict) -> tuple[float, str]:
    request = urllib.request.Request(
        url + "correct", urllib.parse.urlencode(fields).encode(), {"Origin": url.rstrip("/")}
    )
    start = time.perf_counter()
    page = urllib.request.urlopen(request, timeout=600).read().decode("utf-8")
    return round(time.perf_counter() - start, 2), page


def round_trip(root: Path) -> dict:
    process = subprocess.Popen(
        [sys.executable, "-m", "bookbuilder", "serve", str(root), "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        url = next(m.group(1) for line in process.stderr if (m := re.search(r"at (http://\S+/) ", line)))
        start = time.perf_counter()
        page = urllib.request.urlopen(url).read().decode("utf-8")
        contents = round(time.perf_counter() - start, 2)
        token = re.search(r'name="token" value="([^"]+)"', page).group(1)
        entries = re.findall(
            r'name="at" value="([^"]+)"/><input type="hidden" name="expect" value="([^"]+)"', page
        )
        at, title = entries[len(entries) // 2]
        fix, page = post(
            url, {"token": token, "action": "rename", "at": at, "expect": title, "rename": title + "（改）"}
        )
        assert f">{title}（改）</a>" in page
        undo = re.search(
            r'name="kind" value="fix"/><input type="hidden" name="index" value="0"/>'
            r'<input type="hidden" name="says" value="([^"]+)"',
            page,
        ).group(1)
        undone, page = post(
            url, {"token": token, "action": "undo", "kind": "fix", "index": "0", "says": html.unescape(undo)}
        )
        assert f">{title}（改）</a>" not in page and f">{title}</a>" in page
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
    return {
        "contents_page_kb": len(page.encode()) // 1024,
        "contents_page_s": contents,
        "correction_round_trip_s": fix,
        "undo_round_trip_s": undone,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("--whole", action="store_true", help="the book as one .txt rather than a folder of files")
    ap.add_argument(
        "--no-http", action="store_true", help="only the reloads, not the round trip through serve"
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = make_book(args.n, Path(tmp) / "book", args.whole)
        found = {"chapters": args.n, "whole_novel": args.whole, **reloads(root)}
        if not args.no_http:
            found.update(round_trip(root))
    print(json.dumps(found, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
