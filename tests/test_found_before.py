"""The whole-book passes' per-chapter work done where each chapter is normalized (on the workers:
per_file.Normalized.sightings and .suspected) gives what those passes find on their own: a chapter
the whole-book cleaning changed is looked at again, never read from what its worker saw."""

from bookbuilder.check.suspects import name_tail, self_check, signals
from bookbuilder.normalize.repeats import chapter_sightings, strip_repeated
from bookbuilder.pipeline import load_book
from tests.conftest import one_file_book

# What only the whole-book cleaning cuts, which each chapter's worker saw and the self-check flags
# (a saved page's title under each heading: its site words; a site's name glued after a sentence in
# every chapter: a name tail); a slogan glued inside one sentence, which stays and is flagged; and
# one chapter that quotes a website, which is the story's.
PAGE, TAIL = "　　某书-第{n}章 风起{n}-某某小说网", "　　他转身走了{n}步。166阅读网"
SLOGAN = "　　红光闪烁，小说读一读最快更新在剧烈的波动中又是一道天雷劈了下来。"


def _download(path, chapters: int = 12) -> None:
    lines = []
    for n in range(1, chapters + 1):
        lines += [f"第{n}章 风起{n}", PAGE.format(n=n), TAIL.format(n=n)]
        lines += ["　　远处传来几声犬吠，村子里一片寂静。" for _ in range(6)]
    lines[5] = "　　“记住这个地址www.cassell.edu，明天来找我。”他说。"
    lines[12] = SLOGAN
    path.write_text("\n".join(lines) + "\n", "utf-8")


def test_the_self_check_finds_in_the_loaded_book_what_it_finds_alone(tmp_path):
    book = tmp_path / "某书.txt"
    _download(book)
    loaded = load_book(book, jobs=1)
    assert signals(PAGE.format(n=1)) and name_tail(TAIL.format(n=1))  # what each worker flagged
    texts = [b.text for c in loaded.book.chapters() for b in c.blocks]
    assert not any("小说网" in t or "阅读网" in t for t in texts)  # what the whole book's cleaning cut
    alone, flagged = self_check(loaded.book)  # every chapter looked at here
    assert loaded.suspects == alone
    assert [d for d in loaded.diagnostics if d.code in ("W203", "W309")] == list(flagged)
    assert [g.first.text for g in alone] == [SLOGAN.strip()]  # the check still says something


def test_the_repeats_pass_cuts_with_the_sightings_found_before_what_it_cuts_alone():
    book = one_file_book(
        [
            [f"某书-第{n}章 风起-某某小说网", TAIL.format(n=n).strip(), "远处传来几声犬吠。"]
            for n in range(1, 13)
        ]
    )
    found = {id(c): chapter_sightings(c) for c in book.chapters()}  # as each chapter's worker found them
    cut, removed = strip_repeated(book, seen_before=lambda c: found.get(id(c)))
    assert len(removed) == 12 and (cut, removed) == strip_repeated(book)


def test_the_loaded_book_reuses_each_chapters_sightings(tmp_path, monkeypatch):
    """Each chapter's sightings are found once, where it is normalized, and not again here."""
    from bookbuilder.normalize import repeats

    book = tmp_path / "某书.txt"
    _download(book)
    looked: list[str] = []

    def counted(chapter):
        looked.append(chapter.title)
        return chapter_sightings(chapter)

    monkeypatch.setattr(repeats, "chapter_sightings", counted)
    loaded = load_book(book, jobs=1)
    titles = [c.title for c in loaded.book.chapters()]
    assert len(titles) == 12 and sorted(looked) == sorted(titles)


def test_the_edge_forms_kept_for_the_self_check_give_what_the_book_gives_alone():
    """The cleaning's forms at each chapter's edges, kept for the self-check, are used only for a
    chapter that is the same object under the same names: a changed chapter is read again."""
    from dataclasses import replace

    from bookbuilder.normalize import edges

    book = one_file_book(
        [[f"某书-第{n}章 风起-某某小说网", "远处传来几声犬吠。", f"他走了{n}步。"] for n in range(1, 13)]
    )
    memo: dict = {}
    _, found = edges.templates(book, memo)
    assert found and edges.templates(book, memo) == edges.templates(book)
    assert len(memo) == 12
    first = book.volumes[0].chapters[0]
    changed = book.with_chapters({0: replace(first, blocks=first.blocks[1:])})
    assert edges.templates(changed, memo) == edges.templates(changed)
    renamed = replace(book, meta=replace(book.meta, title="某书"))  # another name folded away
    assert edges.templates(renamed, memo) == edges.templates(renamed)


def test_a_chapters_sightings_from_its_joined_text_are_its_paragraphs_own():
    """The repeats pass's per-chapter scans ask the chapter's joined text first: a chapter without
    site words or brackets is passed over, and one with them gives what each paragraph gives."""
    from bookbuilder.model import Paragraph
    from bookbuilder.normalize.glued_brackets import bracket_sightings
    from bookbuilder.normalize.repeats import _fragment_starts

    book = one_file_book(
        [
            ["远处传来几声犬吠。", "他转身走了三步。"],
            ["“走吧。”网盘搜索，找小说就是方便他转身走了。", "红光闪烁。【三*五*网-整*理*提*供】"],
        ]
    )
    plain, site = book.volumes[0].chapters
    for chapter, found in ((plain, False), (site, True)):
        text = "\n".join(b.text for b in chapter.blocks if type(b) is Paragraph)
        assert _fragment_starts(chapter, text) == _fragment_starts(chapter)
        assert bracket_sightings(chapter, text) == bracket_sightings(chapter)
        assert bool(_fragment_starts(chapter) and bracket_sightings(chapter)) is found
