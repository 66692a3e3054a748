"""A paged site's running label (structure/page_labels.py): `分节阅读 N` lines that count on
through the file, most of them between two halves of a sentence, go with the rule above each; a
diary's days, a list's steps and a story's numbered lines stay."""

from bookbuilder.structure import page_labels
from bookbuilder.structure.page_labels import running_labels, without_page_labels
from bookbuilder.structure.sections import split_sections

# 红楼梦, 第一回: a site's pages of it, cut by size wherever a page ended
PAGES = [
    ("此开卷第一回也。作者自云：因曾历过一番", "梦幻之后，故将真事隐去，而借通灵之说，"),
    ("撰此《石头记》一书也。故曰甄士隐云云。但", "书中所记何事何人？自又云：今风尘碌碌，"),
    ("一事无成，忽念及当日所有之女子，一一", "细考较去，觉其行止见识，皆出于我之上。"),
    ("何我堂堂须眉，诚不若彼裙钗哉？实愧则", "有余，悔又无益之大无可如何之日也！"),
    ("当此，则自欲将已往所赖天恩祖德，锦衣", "纨绔之时，饫甘餍肥之日，背父兄教育之恩，"),
    ("负师友规谈之德，以至今日一技无成、半", "生潦倒之罪，编述一集，以告天下人。"),
]
RULE_MARKS = set("-－—=＝_─━")


def paged(label: str = "分节阅读 {n}", pages=PAGES, rule: str = "------------") -> str:
    """The pages, each page's label (and the rule above it) between the halves of its sentence."""
    lines = ["第一回 甄士隐梦幻识通灵", ""]
    for n, (end, start) in enumerate(pages, 1):
        lines += [end, rule, "", label.format(n=n), "", start] if rule else [end, label.format(n=n), start]
    return "\n".join(lines) + "\n"


def count_labels(text: str) -> int:
    """How many labels (not the rules above them) the file's text has taken."""
    lines = text.split("\n")
    return sum(1 for i in running_labels(lines) if not set(lines[i].strip()) <= RULE_MARKS)


def story(sections) -> str:
    return "".join(str(b.text) for s in sections for b in s.blocks if hasattr(b, "text"))


def test_running_labels_and_their_rules_go_and_the_sentence_runs_on():
    sections, notes = split_sections(paged(), "f.txt")
    text = story(sections)
    assert "分节阅读" not in text and "---" not in text
    assert "因曾历过一番梦幻之后" in text.replace("\n", "")  # the halves are one wrapped line again
    removed = [n for n in notes if n.message.startswith("page-labels")]
    assert len(removed) == 2 * len(PAGES)
    assert removed[1].at.line == 6 and "counting on" in removed[1].message


def test_a_label_framed_by_underscores_without_a_rule():
    assert count_labels(paged("_分节阅读_{n}", rule="")) == len(PAGES)


def test_a_label_framed_by_a_rule_counting_again_in_each_chapter():
    text = paged("-----------Page{n}-----------", rule="")
    for n, again in ((4, 2), (5, 3), (6, 4)):  # a new chapter's pages: its first unlabelled
        text = text.replace(f"Page{n}-", f"Page{again}-")
    assert count_labels(text) == len(PAGES)


def test_a_diarys_days_after_finished_sentences_stay():
    days = [(a + b.rstrip("，") + "。", "天亮了。") for a, b in PAGES]  # each day's entry ends its sentence
    text = paged("Day {n}", days, rule="")
    assert not running_labels(text.split("\n"))
    sections, notes = split_sections(text, "f.txt")
    assert "Day 3" in story(sections) and not any(n.message.startswith("page-labels") for n in notes)


def test_numbers_that_do_not_count_on_stay():
    text = paged().replace("分节阅读 3", "分节阅读 9").replace("分节阅读 5", "分节阅读 7")
    assert not running_labels(text.split("\n"))  # 1 2 9 4 7 6 does not count on


def test_switched_off_by_name():
    assert without_page_labels(paged(), "f.txt", frozenset({page_labels.RULE})) == (paged(), [])
