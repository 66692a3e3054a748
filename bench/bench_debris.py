#!/usr/bin/env python3
"""Issue 37's figure: a real-shaped download (one UTF-8 file of about 4 MB, site debris at the
density real downloads carry) built by `bookbuilder epub` as a whole process, beside the floor: a
script that reads, decodes and zips the same text (whole processes, run alternately).

    python bench/bench_debris.py                 # 567 chapters, about 4 MB, about 1,500 removals
    python bench/bench_debris.py --file X.txt    # the same figure on a real download of yours

The debris is made up, in the shapes real downloads show (several sites, never one list's): an
inline advert in two paragraphs a chapter (a slogan after a bracketed URL, a domain between
sentences, a strewn name), a template carrying the chapter's title at every chapter's end, a
download header and footer. Prints JSON: the build and the floor (min and median of --runs), their
ratio, the removals, and the share of a profiled build spent cleaning.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SENTENCES = [
    "他转身走出了院子，天色已经暗了下来。",
    "“你真的要走？”她低声问道，眼里满是不舍。",
    "远处传来几声犬吠，村子里一片寂静。",
    "老人摇了摇头，把手里的烟袋在鞋底上磕了磕。",
    "风从山口吹过来，带着一股潮湿的泥土气味。",
    "他没有回答，只是默默地握紧了手中的剑。",
]
ADVERTS = [
    "【http://www.{site}.com】{name}百度云搜索资源，搜小说，搜电影就是好用。",
    "{site}.cc [{name}小说]",
    "{name}网Http://wWw.{site}.net/",
    "ｗωｗ{name}Ｘｘｘ書com网",
    "（本章未完，请点击下一页继续阅读）",
]
SITES = [("example58", "某五八"), ("foobooks", "福书"), ("barreader", "巴读"), ("qux", "酷读")]


def make_download(out: Path, chapters: int, seed: int = 7) -> Path:
    rnd = random.Random(seed)
    lines = [
        "《某书》",
        "作者：某人",
        "详细信息请查阅：http://www.example58.com/book/1.html",
        "☆☆☆某书 最新50章正文 开始☆☆☆",
        "",
    ]
    for n in range(1, chapters + 1):
        title = f"第{n}章 风起{n}"
        lines.append(title)
        for p in range(42):
            text = "".join(rnd.choice(SENTENCES) for _ in range(3))
            if (
                p % 21 == 0
            ):  # two a chapter, and the template: about 1,500 removals in 567 chapters, as the real one had
                site, name = rnd.choice(SITES)
                text = (
                    text[:-1]
                    + "。"
                    + rnd.choice(ADVERTS).format(site=site, name=name)
                    + rnd.choice(SENTENCES)
                )
            lines.append("　　" + text)
        lines.append(f"　　请记住某书 最新章节 {title}网址：")
    lines += [
        "注：如果你发现本书未完属于连载更新请到http://www.example58.com 获取最新更新TXT.......",
        "本书更新地址：http://www.example58.com/read/1/",
    ]
    out.write_text("\n".join(lines) + "\n", "utf-8")
    return out


FLOOR = """import sys, zipfile
data = open(sys.argv[1], 'rb').read()
try:
    text = data.decode('utf-8-sig')
except UnicodeDecodeError:
    text = data.decode('gb18030', 'replace')
lines = [l.strip() for l in text.splitlines() if l.strip()]
with zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_DEFLATED) as z:
    for i in range(0, len(lines), 40):
        z.writestr(f'{i}.xhtml', '<p>' + '</p><p>'.join(lines[i:i + 40]) + '</p>')
"""


def timed(cmd: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def cleaning_share(path: Path) -> tuple[float, int]:
    """The share of a profiled load spent in cleaning (normalize's junk rule and the whole-book
    repeats pass), and the removals."""
    from bookbuilder.pipeline import load_book

    profile = cProfile.Profile()
    loaded = profile.runcall(load_book, path, 1)
    stats = pstats.Stats(profile)
    total = stats.total_tt
    cleaning = sum(v[3] for k, v in stats.stats.items() if k[2] in ("_junk", "strip_repeated", "_html"))
    return cleaning / total, sum(1 for d in loaded.diagnostics if d.code == "I201")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--chapters", type=int, default=567)
    ap.add_argument("--file", type=Path, help="a real download instead of the generated one")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        book = args.file or make_download(tmp / "某书.txt", args.chapters)
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        floor_py = tmp / "floor.py"
        floor_py.write_text(FLOOR)
        build, floor = [], []
        for _ in range(args.runs):
            floor.append(timed([sys.executable, str(floor_py), str(book), str(tmp / "f.zip")], env))
            build.append(
                timed(
                    [sys.executable, "-m", "bookbuilder", "epub", str(book), "-o", str(tmp / "b.epub")], env
                )
            )
        share, removals = cleaning_share(book)
        print(
            json.dumps(
                {
                    "file_bytes": book.stat().st_size,
                    "removals": removals,
                    "build_s_min": round(min(build), 2),
                    "build_s_median": round(statistics.median(build), 2),
                    "floor_s_min": round(min(floor), 2),
                    "floor_s_median": round(statistics.median(floor), 2),
                    "ratio_min": round(min(build) / min(floor), 2),
                    "cleaning_share_of_load": round(share, 2),
                },
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
