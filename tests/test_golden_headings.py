"""A whole synthetic download (banner, title and blurb, a table of contents, site prefixes and
suffixes, volume and chapter on one line, restarts per volume, separators, inline adverts, prose
that looks like headings) against its reviewed contents and metadata: tests/golden/headings/.
Regenerate with `pytest --regen-golden`, then read the diff."""
import json
from pathlib import Path

from bookbuilder import report
from bookbuilder.pipeline import load_book

GOLDEN = Path(__file__).resolve().parent / "golden" / "headings"


def test_whole_download_contents_and_metadata(regen, tmp_path, monkeypatch):
    monkeypatch.chdir(GOLDEN)
    loaded = load_book(Path("novel.txt"), jobs=1)
    got = {
        "meta": {key: {"value": getattr(loaded.book.meta, key), "from": source} for key, source in loaded.book.meta.sources},
        "contents": [{k: row[k] for k in ("volume", "number", "title", "kind", "source", "unsure")}
                     for row in report.toc_rows(loaded.book, loaded.diagnostics)],
        "removed": [report.removal_json(d) for d in report.removals(loaded.diagnostics)],
        "codes": sorted({d.code for d in loaded.diagnostics}),
    }
    expected = GOLDEN / "expected.json"
    if regen:
        expected.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", "utf-8")
    assert got == json.loads(expected.read_text("utf-8"))
