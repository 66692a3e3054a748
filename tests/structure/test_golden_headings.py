"""A whole synthetic download (banner, title and blurb, a table of contents, site prefixes and
suffixes, volume and chapter on one line, restarts per volume, separators, inline adverts, prose
that looks like headings) against its reviewed contents and metadata: tests/golden/headings/.
Regenerate with `pytest --regen-golden`, then read the diff."""

import json
from pathlib import Path

import pytest

from bookbuilder.check import report
from bookbuilder.pipeline import load_book

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "headings"


@pytest.mark.parametrize("name", ["novel", "paste"])
def test_whole_download_contents_and_metadata(regen, tmp_path, monkeypatch, name):
    """novel: banner, blurb, contents, site debris, volumes; paste: a GBK forum paste with bare
    numerals, <br>, a watermark element and one damaged byte."""
    monkeypatch.chdir(GOLDEN)
    loaded = load_book(Path(f"{name}.txt"), jobs=1)
    got = {
        "meta": {
            key: {"value": getattr(loaded.book.meta, key), "from": source}
            for key, source in loaded.book.meta.sources
        },
        "contents": [
            {k: row[k] for k in ("volume", "number", "title", "kind", "source", "unsure")}
            for row in report.toc_rows(loaded.book, loaded.diagnostics)
        ],
        "removed": [report.removal_json(d) for d in report.removals(loaded.diagnostics)],
        "codes": sorted({d.code for d in loaded.diagnostics}),
        "files": [
            {"encoding": f.encoding, "method": f.method, "replaced": f.replaced} for f in loaded.book.files
        ],
        "text": [[b.text for b in c.blocks if hasattr(b, "text")][:3] for c in loaded.book.chapters()],
    }
    expected = GOLDEN / f"{name}.expected.json"
    if regen:
        expected.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", "utf-8")
    assert got == json.loads(expected.read_text("utf-8"))
