#!/usr/bin/env python3
"""serve's workbench on a generated book (issue 36): the contents page's size and time, and a
correction's round trip (POST → the rebuild that reads it → the page back), then its undo.

    python bench/bench_workbench.py -n 2000
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

from _measure import generated_book


def post(url: str, fields: dict) -> tuple[float, str]:
    request = urllib.request.Request(url + "correct", urllib.parse.urlencode(fields).encode(), {"Origin": url.rstrip("/")})
    start = time.perf_counter()
    page = urllib.request.urlopen(request, timeout=600).read().decode("utf-8")
    return round(time.perf_counter() - start, 2), page


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=2000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        book = generated_book(args.n, Path(tmp) / "book")
        process = subprocess.Popen([sys.executable, "-m", "bookbuilder", "serve", str(book), "--port", "0"],
                                   stderr=subprocess.PIPE, text=True)
        try:
            url = next(m.group(1) for line in process.stderr if (m := re.search(r"at (http://\S+/) ", line)))
            start = time.perf_counter()
            page = urllib.request.urlopen(url).read().decode("utf-8")
            contents = round(time.perf_counter() - start, 2)
            token = re.search(r'name="token" value="([^"]+)"', page).group(1)
            entries = re.findall(r'name="at" value="([^"]+)"/><input type="hidden" name="expect" value="([^"]+)"', page)
            at, title = entries[len(entries) // 2]
            fix, page = post(url, {"token": token, "action": "rename", "at": at, "expect": title, "rename": title + "（改）"})
            assert f">{title}（改）</a>" in page
            undo = re.search(r'name="kind" value="fix"/><input type="hidden" name="index" value="0"/>'
                             r'<input type="hidden" name="says" value="([^"]+)"', page).group(1)
            undone, page = post(url, {"token": token, "action": "undo", "kind": "fix", "index": "0",
                                      "says": html.unescape(undo)})
            assert f">{title}（改）</a>" not in page and f">{title}</a>" in page
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=30)
    print(json.dumps({"chapters": args.n, "contents_page_kb": len(page.encode()) // 1024, "contents_page_s": contents,
                      "correction_round_trip_s": fix, "undo_round_trip_s": undone}))


if __name__ == "__main__":
    main()
