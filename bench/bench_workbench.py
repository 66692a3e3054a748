#!/usr/bin/env python3
"""serve's workbench on a generated book: how long the reload after each correction takes, loaded
as serve loads it (serve.server.Site, its memo kept between loads); then the pages in a headless
Chromium (Debian's chromium, through Selenium): the contents page's load (its size, elements and
forms), a source page opened at a chapter's line, and each correction's time from the click to the
end of the load of the page that answers it (rename, not a heading, start a volume here, a heading
starts here, keep this, keep this rule off, remove this everywhere), each with its undo's.

    python bench/bench_workbench.py -n 2000            # a folder of 2,000 chapter files
    python bench/bench_workbench.py -n 2000 --whole    # the same book as one .txt
    python bench/bench_workbench.py -n 2000 --no-browser --cycles 40   # memory over 80 rebuilds

The book is bench/make_corpus.py's, with a pager line in every 50th chapter and an advert glued with a
half-width comma (云端书斋,一键直达) into every 40th, so that there is a removal to keep and
text to remove everywhere.
Each reload prints its seconds and how many files it read again; undoing all three gives back
book.toml byte for byte.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

sys.path.insert(0, str(REPO / "bench"))

from make_corpus import edit_chapters  # noqa: E402

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
        path = root / "novel.txt"  # written in make_corpus's --single-encoding, UTF-8
        path.write_bytes(_with_adverts(path.read_bytes().decode("utf-8"), 0, every=80).encode("utf-8"))
        (root / "novel.book.toml").write_text(TOML, "utf-8")
        return path
    edit_chapters(source, lambda k, text: _with_adverts(text, k))
    (root / "book.toml").write_text(TOML, "utf-8")
    return root


def _with_adverts(text: str, k: int, every: int = 0) -> str:
    """A file's text with the advert glued to a paragraph (every 40th file, or every `every`th
    paragraph of a whole novel) and a pager line (every 50th file, or after every 100th paragraph)."""
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
    return "\n".join(lines)


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


def reloads(root: Path, cycles: int = 0) -> dict:
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
    if cycles:
        out["memory"] = memory_over(site, toml, at, chapter.chapter.title, cycles)
    return out


def _rss_mb() -> float:
    status = Path("/proc/self/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024


def memory_over(site: Site, toml: Path, at: str, title: str, cycles: int) -> dict:
    """The server's resident memory over a long session: `cycles` renames, each undone, every
    build published as serve publishes it (frozen out of the cyclic collector's passes, gc.freeze),
    so that garbage a build leaves in cycles, which freezing keeps, would show as growth."""
    import gc

    rss, frozen = [round(_rss_mb())], [gc.get_freeze_count()]
    for k in range(cycles):
        reload(site, toml, lambda doc, k=k: corrections.add_fix(doc, at, rename=f"{title}（{k}）"))
        found = [c for c in corrections.in_force(corrections.read(toml)) if c.kind == "fix"]
        reload(site, toml, lambda doc, c=found[-1]: corrections.undo(doc, c.kind, c.index, c.says))
        rss.append(round(_rss_mb()))
        frozen.append(gc.get_freeze_count())
    return {"cycles": cycles, "rss_mb": rss, "frozen_objects": frozen}


# The time a click took to give the updated page: from the click (the browser's clock) to the end of
# the load of the page the answer brought, read from that page's own navigation timing.
CLICK = (
    """const started = performance.timeOrigin + performance.now(); arguments[0].click(); return started;"""
)
LOADED = """const nav = performance.getEntriesByType('navigation')[0];
return document.readyState === 'complete' && nav && nav.loadEventEnd > 0
    ? [document.documentElement.dataset.build || '', performance.timeOrigin + nav.loadEventEnd,
       nav.loadEventEnd]
    : null;"""


def loaded(driver, build: str | None = None, timeout: float = 120) -> tuple[str, float, float]:
    """(build, epoch ms when the page finished loading, ms its load took) of the page shown, once
    it is another build than `build` (an answer's page) and finished."""
    from selenium.common.exceptions import WebDriverException

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            found = driver.execute_script(LOADED)
        except WebDriverException:  # between two pages
            found = None
        if found and found[0] != build:
            return found[0], found[1], found[2]
        time.sleep(0.02)
    raise SystemExit(f"no new page after {timeout} s at {driver.current_url}")


def click_to_page(driver, element) -> tuple[float, str]:
    """Seconds from clicking `element` to the end of the load of the page the click brought."""
    build = driver.execute_script("return document.documentElement.dataset.build")
    started = driver.execute_script(CLICK, element)
    build, ended, _ = loaded(driver, build)
    return round((ended - started) / 1000, 2), build


def open_page(driver, url: str) -> dict:
    """A page opened afresh: the seconds its load took, its size and its elements."""
    driver.get("about:blank")
    driver.get(url)
    _, _, ms = loaded(driver)
    size = driver.execute_script(
        "return [performance.getEntriesByType('navigation')[0].transferSize,"
        " document.getElementsByTagName('*').length, document.forms.length]"
    )
    return {"s": round(ms / 1000, 2), "kb": size[0] // 1024, "elements": size[1], "forms": size[2]}


def button(scope, label: str):
    from selenium.webdriver.common.by import By

    return scope.find_element(By.XPATH, f".//button[normalize-space()='{label}']")


def contents_entry(driver, title: str):
    """The contents entry of the chapter titled `title`, its corrections opened."""
    from selenium.webdriver.common.by import By

    link = driver.find_element(By.XPATH, f"//ol[@class='contents']//a[normalize-space()='{title}']")
    item = link.find_element(By.XPATH, "./ancestor::li[1]")
    item.find_element(By.TAG_NAME, "summary").click()
    return item


def undo_last(driver, url: str) -> float:
    """Undo the newest correction from the contents page: its click-to-page seconds."""
    from selenium.webdriver.common.by import By

    driver.get(url)
    loaded(driver)
    seconds, _ = click_to_page(driver, driver.find_elements(By.CSS_SELECTOR, "#corrections button")[-1])
    return seconds


def select_in_chapter(driver, chosen: str) -> None:
    """Select `chosen` in the chapter's text, as a reader's drag would."""
    driver.execute_script(
        """const p = [...document.querySelectorAll('section p')]
            .find(p => p.textContent.includes(arguments[0]));
        const node = [...p.childNodes].find(n => n.nodeType === 3 && n.data.includes(arguments[0]));
        const at = node.data.indexOf(arguments[0]), range = document.createRange();
        range.setStart(node, at); range.setEnd(node, at + arguments[0].length);
        getSelection().removeAllRanges(); getSelection().addRange(range);""",
        chosen,
    )


def refused(driver) -> str:
    """The refusal a correction's answer page gives (serve/guard.py's 409), or ""."""
    from selenium.webdriver.common.by import By

    errors = driver.find_elements(By.CSS_SELECTOR, "p.bb-error")
    return errors[0].text[:100] if errors and driver.title == "not changed" else ""


def contents_corrections(driver, url: str, title: str) -> dict:
    """Each correction of a contents entry (rename, not a heading, start a volume), then its undo."""
    from selenium.webdriver.common.by import By

    out = {}
    for action in ("rename", "not a heading", "start a volume here"):
        driver.get(url)
        loaded(driver)
        item = contents_entry(driver, title)
        if action == "rename":
            field = item.find_element(By.NAME, "rename")
            field.clear()
            field.send_keys(title + "（改）")
        seconds, _ = click_to_page(driver, button(item, action))
        if why := refused(driver):  # serve/guard.py (a chapter file's first line titles it even as text)
            out[action] = {"s": seconds, "refused": why}
            continue
        # in force: the list of corrections on the contents page holds it (what it does to a book
        # titled by its files is tests/serve's to judge)
        assert len(driver.find_elements(By.CSS_SELECTOR, "#corrections li")) == 1, f"{action}: not listed"
        if action == "rename":
            assert title + "（改）" in driver.find_element(By.CSS_SELECTOR, "ol.contents").text
        out[action] = {"s": seconds, "undo_s": undo_last(driver, url)}
    return out


def source_corrections(driver, url: str, href: str, line: int) -> dict:
    """The source page at a chapter's line, opened; then "a heading starts here" on a line below it."""
    from selenium.webdriver.common.by import By

    opened = open_page(driver, url.rstrip("/") + href)
    at = driver.find_element(By.ID, f"L{line}")
    in_view = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return r.top > -1 && r.bottom < innerHeight + 1;", at
    )
    lines = driver.execute_script("return document.querySelectorAll('ol.source li').length")
    below = next(
        e
        for e in driver.find_elements(By.CSS_SELECTOR, f"#L{line} ~ li")[2:40]
        if len(e.text.strip()) > 10 and not e.get_attribute("class")
    )
    target = below.get_attribute("id")
    below.click()
    seconds, _ = click_to_page(driver, button(driver.find_element(By.ID, "bb-line"), "a heading starts here"))
    assert driver.find_elements(By.CSS_SELECTOR, f"#{target}.heading"), "the line is not a heading"
    return {
        "open": {**opened, "line_in_view": in_view, "lines_on_page": lines},
        "a heading starts here": {"s": seconds, "undo_s": undo_last(driver, url)},
    }


def chapter_corrections(driver, url: str, pager_chapter: str, advert_chapter: str) -> dict:
    """On chapter pages: keep a removed line, keep its rule off, remove selected text everywhere."""
    from selenium.webdriver.common.by import By

    out = {}
    for action in ("keep this", "keep this rule off"):
        driver.get(url + f"text/{pager_chapter}.html")
        loaded(driver)
        removed = next(e for e in driver.find_elements(By.CSS_SELECTOR, ".bb-removed") if PAGER in e.text)
        rule = removed.get_attribute("data-rule")
        seconds, _ = click_to_page(driver, button(removed, action))
        if why := refused(driver):
            out[action] = {"s": seconds, "refused": why}
            continue
        still = [
            e
            for e in driver.find_elements(By.CSS_SELECTOR, f".bb-removed[data-rule='{rule}']")
            if PAGER in e.text
        ]
        assert not still, f"{action}: still removed by {rule}"
        out[action] = {"s": seconds, "undo_s": undo_last(driver, url)}
    driver.get(url + f"text/{advert_chapter}.html")
    loaded(driver)
    select_in_chapter(driver, SELECTED)
    tool = driver.find_element(By.ID, "bb-remove")
    asked, _ = click_to_page(driver, button(tool, "remove this everywhere"))  # what it would take, first
    for tick in driver.find_elements(By.CSS_SELECTOR, "input[name=confirm][type=checkbox]"):
        tick.click()  # above CONFIRM_ABOVE pieces: the list looked at
    take = driver.find_element(By.XPATH, "//button[starts-with(normalize-space(), 'remove these')]")
    seconds, _ = click_to_page(driver, take)
    assert SELECTED not in _paragraphs(driver), "remove this everywhere: still in the chapter"
    out["remove this everywhere"] = {"s": seconds, "preview_s": asked, "undo_s": undo_last(driver, url)}
    return out


def _paragraphs(driver) -> str:
    """The chapter's paragraphs as the page shows them (not the removals marked among them)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('section p')].map(p => p.textContent).join('\\n')"
    )


def in_chromium(root: Path) -> dict:
    """serve's pages in a headless Chromium: the contents page's load, a source page opened at a
    chapter's line, and each correction's click-to-updated-page time with its undo's."""
    from bench_serve import serve_in_browser
    from selenium.webdriver.common.by import By

    with serve_in_browser(root) as (driver, url, _):
        contents = open_page(driver, url)
        entries = driver.find_elements(By.CSS_SELECTOR, "ol.contents li:not(.volume)")
        middle = entries[len(entries) // 2]
        title = middle.find_element(By.CSS_SELECTOR, "a[href^='/text/']").text
        href = middle.find_element(By.CSS_SELECTOR, "a.where").get_attribute("href")
        line = int(re.search(r"#L(\d+)$", href).group(1))
        pager = re.search(r"/text/(\w+)\.html", _chapter_with(driver, url, PAGER, entries)).group(1)
        advert = re.search(r"/text/(\w+)\.html", _chapter_with(driver, url, ADVERT[:4], entries)).group(1)
        found = {
            "contents_page": contents,
            **contents_corrections(driver, url, title),
            **source_corrections(
                driver, url, urllib.parse.urlsplit(href)._replace(scheme="", netloc="").geturl(), line
            ),
            **chapter_corrections(driver, url, pager, advert),
        }
    found["correction_max_s"] = max(v["s"] for v in found.values() if isinstance(v, dict) and "undo_s" in v)
    return found


def _chapter_with(driver, url: str, words: str, entries) -> str:
    """The link of the first chapter whose page shows `words` (a removal, or the advert)."""
    from selenium.webdriver.common.by import By

    hrefs = [e.find_element(By.CSS_SELECTOR, "a[href^='/text/']").get_attribute("href") for e in entries]
    for href in hrefs:
        page = urllib.request.urlopen(href, timeout=60).read().decode("utf-8")
        if words in page:
            return href
    raise SystemExit(f"no chapter shows {words!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("--whole", action="store_true", help="the book as one .txt rather than a folder of files")
    ap.add_argument("--no-browser", action="store_true", help="only the reloads, not the pages in Chromium")
    ap.add_argument(
        "--cycles", type=int, default=0, help="then this many renames and undos, with the memory after each"
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = make_book(args.n, Path(tmp) / "book", args.whole)
        found = {"chapters": args.n, "whole_novel": args.whole, **reloads(root, args.cycles)}
        if not args.no_browser:
            found["chromium"] = in_chromium(root)
    print(json.dumps(found, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
