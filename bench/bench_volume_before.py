#!/usr/bin/env python3
"""*Start a volume here* on a folder whose files' names title its chapters (issue 51's 2-second
target per correction): a generated folder of `-n` files, `NNNN <title>.txt` holding the story
alone, served as `serve` serves it and driven in a headless Chromium (Debian's chromium, through
Selenium, as bench_workbench.py does): the contents page's load, then the click on the middle
chapter's *start a volume here* (its title typed) to the end of the load of the updated page, and
its undo's. The book's paragraphs are compared before, with the volume and after the undo.

    python bench/bench_volume_before.py -n 2000
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench_workbench import button, click_to_page, contents_entry, generator, loaded, open_page  # noqa: E402

from bookbuilder.model import Paragraph  # noqa: E402
from bookbuilder.pipeline import load_book  # noqa: E402

VOLUME = "第二卷 风雨"


def make_folder(n: int, root: Path) -> Path:
    """make_corpus.py's clean chapters, each file renamed after its heading's title, that line gone."""
    corpus = root / "corpus"
    subprocess.run(
        [sys.executable, str(generator()), "--out", str(corpus), "-n", str(n), "--clean"],
        check=True,
        capture_output=True,
    )
    folder = root / "大书"
    folder.mkdir()
    for k, path in enumerate(sorted((corpus / "clean").glob("*.txt")), 1):
        heading, _, story = path.read_text("utf-8").partition("\n")
        title = heading.split(maxsplit=1)[-1].strip().replace("/", "／")
        (folder / f"{k:04} {title}.txt").write_text(story.lstrip("\n"), "utf-8")
    return folder


def story(folder: Path) -> list:
    book = load_book(folder, 1).book
    return [(b.at.path, b.at.line, b.text) for c in book.chapters() for b in c.blocks if type(b) is Paragraph]


def in_chromium(folder: Path) -> dict:
    from bench_serve import serve_in_browser
    from selenium.webdriver.common.by import By

    with serve_in_browser(folder) as (driver, url, _):
        contents = open_page(driver, url)
        entries = driver.find_elements(By.CSS_SELECTOR, "ol.contents li:has(> details[data-kind=file])")
        title = entries[len(entries) // 2].find_element(By.CSS_SELECTOR, "a[href^='/text/']").text
        item = contents_entry(driver, title)
        item.find_element(By.NAME, "title").send_keys(VOLUME)
        seconds, _ = click_to_page(driver, button(item, "start a volume here"))
        volumes = [v.text.split("\n")[0] for v in driver.find_elements(By.CSS_SELECTOR, "li.volume")]
        with_volume = story(folder)
        undo = driver.find_elements(By.CSS_SELECTOR, "#corrections button")[-1]
        undo_s, _ = click_to_page(driver, undo)
        loaded(driver)
    return {
        "contents_page": contents,
        "offered": len(entries),
        "start_a_volume_here_s": seconds,
        "volumes_after": volumes,
        "undo_s": undo_s,
        "story_with_volume": with_volume,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=2000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = make_folder(args.n, Path(tmp))
        before = story(folder)
        found = in_chromium(folder)
        kept = found.pop("story_with_volume") == before
        found |= {
            "files": args.n,
            "every_paragraph_kept": kept,
            "after_undo_as_before": story(folder) == before,
        }
        found["settings_left"] = (Path(tmp) / "大书.book.toml").exists()
    print(json.dumps(found, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
