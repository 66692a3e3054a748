"""The PDF's chunks kept between builds (render/pdf_cache.py): a warm build is the cold build's
bytes, an edited chapter re-renders only its chunk, a damaged entry is rendered again, and
--no-cache neither reads nor writes."""

from click.testing import CliRunner

from bookbuilder.cli import main
from bookbuilder.pipeline import load_book, source_date_epoch
from bookbuilder.render import RenderContext, renderer, with_cover
from tests.conftest import write_book
from tests.render.test_pdf import chapters

TOML = "[pdf]\nchunk_chapters = 2\n"


def _render(root, target, cache=True):
    loaded = load_book(root)
    book, _ = with_cover(loaded.book, loaded.config)
    chosen = renderer("pdf")
    context = RenderContext(
        target,
        loaded.config,
        source_date_epoch(),
        chosen.options(loaded.config),
        jobs=2,
        cache=loaded.config.build_dir / ".cache" if cache else None,
    )
    chosen.render(book, context)
    return target.read_bytes(), context.stats


def test_warm_equals_cold_and_an_edit_renders_only_its_chunk(tmp_path):
    root = write_book(tmp_path / "b", chapters(8, paragraphs=20), TOML)
    cold, first = _render(root, tmp_path / "cold.pdf")
    # bodies, the stamps of every chunk but the first (it draws its own margin boxes), contents
    assert first["kept"] == 0 and first["rendered"] == 2 * first["chunks"]
    warm, second = _render(root, tmp_path / "warm.pdf")
    assert warm == cold and second["rendered"] == 0
    uncached, _ = _render(root, tmp_path / "none.pdf", cache=False)
    assert uncached == cold
    text = (root / "source" / "005.txt").read_text("utf-8")
    (root / "source" / "005.txt").write_text(
        text.replace("城上", "城下", 1), "utf-8"
    )  # same length: same pages
    edited, third = _render(root, tmp_path / "edited.pdf")
    assert (
        third["rendered"] == 1 and edited != cold
    )  # chapter 5's chunk; its stamps and the contents are kept
    assert edited == _render(root, tmp_path / "edited-cold.pdf", cache=False)[0]


def test_a_damaged_entry_is_rendered_again_and_no_cache_touches_nothing(tmp_path):
    root = write_book(tmp_path / "b", chapters(4, paragraphs=10), TOML)
    cold, _ = _render(root, tmp_path / "cold.pdf")
    entries = list((root / "build" / ".cache" / "pdf").iterdir())
    assert entries
    for entry in entries:
        entry.write_bytes(b"\x80\x04 not a pickle at all")
    again, stats = _render(root, tmp_path / "again.pdf")
    assert again == cold and stats["kept"] == 0
    assert all(entry.read_bytes() != b"\x80\x04 not a pickle at all" for entry in entries)  # rewritten
    fresh = write_book(tmp_path / "c", chapters(4, paragraphs=10), TOML)
    result = CliRunner().invoke(main, ["pdf", str(fresh), "--no-cache", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert not (fresh / "build" / ".cache").exists()
