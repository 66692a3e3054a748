import pytest

from bookbuilder.model import Location, Paragraph, SceneBreak
from bookbuilder.normalize.junk import active_patterns, clean_line
from bookbuilder.normalize.lines import attach_orphans, unwrap


def paras(*lines, start=1):
    """Adjacent raw lines (None = a blank line in between)."""
    out, n = [], start
    for line in lines:
        if line is not None:
            out.append(Paragraph(line, Location("f.txt", n)))
        n += 1
    return tuple(out)


def texts(blocks):
    return [b.text for b in blocks]


@pytest.mark.parametrize(
    "lines, expected",
    [
        (
            (
                "眼下王仁恭带领十五万骑兵追了上去，剩下的还有七十多万人",
                "马，眼下隋军分兵就成了自然而然事情。",
            ),
            ["眼下王仁恭带领十五万骑兵追了上去，剩下的还有七十多万人马，眼下隋军分兵就成了自然而然事情。"],
        ),
        (("床前明月光，", "疑是地上霜。"), ["床前明月光，", "疑是地上霜。"]),  # ends with ，
        (
            ("从明天起", "做一个幸福的人", "喂马，劈柴，周游世界"),
            ["从明天起", "做一个幸福的人", "喂马，劈柴，周游世界"],
        ),  # verse
        (("小明：", "你好吗？"), ["小明：", "你好吗？"]),
        (
            ("这是一个很长的句子但是没有结束", None, "下一段开始了。"),
            ["这是一个很长的句子但是没有结束", "下一段开始了。"],
        ),  # blank line
        (
            ("This line is long and English", "continues here."),
            ["This line is long and English continues here."],
        ),
        (
            ("这是一个很长的句子但是没有结束", None, "，下一行接着说完。"),
            ["这是一个很长的句子但是没有结束，下一行接着说完。"],
        ),  # ， never starts a paragraph
        (
            ("ISBN：9787556205295", "类型：武侠仙侠", "状态：全集"),
            ["ISBN：9787556205295", "类型：武侠仙侠", "状态：全集"],
        ),  # a header's fields
        (
            (
                "姓朱的道：“应大哥，你说怎么办？”姓应的沉吟不语。姓",
                "倪的道：“张公子主仆放走，把姓杨的宰了。”",
            ),
            ["姓朱的道：“应大哥，你说怎么办？”姓应的沉吟不语。姓倪的道：“张公子主仆放走，把姓杨的宰了。”"],
        ),  # dialogue: joined
    ],
)
def test_unwrap_table(lines, expected):
    blocks, _ = unwrap(paras(*lines))
    assert texts(blocks) == expected


def test_hardwrapped_chapter_joins_full_width_lines_whatever_they_end_with():
    para = (
        "他说：“我们走吧，天快黑了。”她点点头，收拾好东西，跟着他走出了门，外面的风很大，吹得人睁不开眼睛。"
    )
    wrapped = [para[i : i + 20] for i in range(0, len(para), 20)]
    blocks = paras(*(wrapped + [None] + wrapped + [None] + wrapped))
    out, n = unwrap(blocks)
    assert texts(out) == [para, para, para]


def test_hardwrapped_chapter_whose_indents_mark_paragraphs_splits_at_them():
    """A paragraph can end exactly at the wrap width with 。; only the next line's indent tells."""
    first = "他说：“我们走吧，天快黑了。”她点点头，收拾好东西。"  # 20 characters: ends at the width
    second = "跟着他走出了门，外面的风很大，吹得人睁不开眼睛，他们一前一后地走着，谁也没有说话。"
    width = len(first)
    raw = [
        ("　　" + first),
        *[("　　" if i == 0 else "") + second[i : i + width] for i in range(0, len(second), width)],
    ]
    raw = raw * 3
    blocks = tuple(
        Paragraph(line.strip("　"), Location("f.txt", n), line.startswith("　"))
        for n, line in enumerate(raw, 1)
    )
    assert texts(unwrap(blocks)[0]) == [first, second] * 3
    # the same lines with every line indented (or none): the indent says nothing, full lines join
    flat = tuple(Paragraph(b.text, b.at, True) for b in blocks)
    assert texts(unwrap(flat)[0])[0] == first + second


def test_hardwrapped_chapter_with_random_blank_lines_still_joins_full_width_lines():
    para = (
        "他说：“我们走吧，天快黑了。”她点点头，收拾好东西，跟着他走出了门，外面的风很大，吹得人睁不开眼睛。"
    )
    wrapped = [para[i : i + 20] for i in range(0, len(para), 20)]
    lines = [wrapped[0], None, None, wrapped[1], wrapped[2]]
    blocks = paras(*(lines + [None] + wrapped + [None] + wrapped))
    assert texts(unwrap(blocks)[0]) == [para, para, para]


def test_blank_lines_sprinkled_at_random_do_not_stop_a_join_but_paragraph_blanks_do():
    broken = [
        ("他们在城门下等了很久很久，一直没有人出来迎接", "直到天色渐渐暗了下来，众人才散去。"),
        ("城上的守军看着城下的人群却一直没有出声", "仿佛什么也没看见一样。"),
        ("就在这个时候远处传来一阵急促的马蹄", "声，而且越来越近了。"),
        ("这时候人群中有个年轻人忽然喊了一声", "大家都跟着他抬起头来看向城头。"),
        ("城门终于在众人紧张的注视下一点一点", "缓缓地打开了，发出吱呀的响声。"),
        ("一队骑兵举着火把从城里飞快地冲了出来", "直奔北方的大营而去。"),
    ]
    sprinkled = [x for i, (a, b) in enumerate(broken) for x in ((a, None, b) if i % 2 else (a, b))]
    assert texts(unwrap(paras(*sprinkled))[0]) == [a + b for a, b in broken]
    # the same open line before a blank in a chapter whose blank lines end paragraphs: kept apart
    blocks = paras(
        "所有的一切都无法阻挡他们前进的脚步", None, "他令赵云率军前往西门。", None, "城中巷战仍在继续。"
    )
    assert texts(unwrap(blocks)[0]) == [
        "所有的一切都无法阻挡他们前进的脚步",
        "他令赵云率军前往西门。",
        "城中巷战仍在继续。",
    ]


def test_a_chapter_broken_at_random_points_joins_its_short_pieces_too():
    broken = [
        "城门终于在众人紧张的注视下一点一点",
        "缓缓地打开了，发出吱呀的响声。",
        "高句丽战事到",
        "了现在这个地步，就必须速战速决才好。",
        "这时候人群中有个年轻人忽然喊了一声",
        "大家都跟着他抬起头来看向城头。",
        "宇文述仰头看着一丝",
        "云彩都没有的天空，只有一轮孤零零的月亮挂着。",
        "就在这个时候远处传来一阵急促的马蹄",
        "声，而且越来越近了。",
    ]
    assert texts(unwrap(paras(*broken))[0]) == [broken[i] + broken[i + 1] for i in range(0, 10, 2)]
    # one short open line in an otherwise whole chapter is a title or a name: kept
    whole = [
        "他们在城门下等了很久，一直没有人出来迎接。",
        "王君临",
        "他担心夫余人将面临才脱虎口又入狼窝的危险窘境。",
    ]
    assert texts(unwrap(paras(*whole))[0]) == whole


@pytest.mark.parametrize("orphan", ["。", ".", "！", "”"])
def test_orphan_punctuation_half_or_full_width_is_appended(orphan):
    blocks, n = attach_orphans(paras("所有的一切都无法阻挡他们前进的脚步", orphan))
    assert texts(blocks) == ["所有的一切都无法阻挡他们前进的脚步" + orphan] and n == 1
    assert attach_orphans(paras("他走了。", "..."))[1] == 0  # an ellipsis line is never an orphan


@pytest.mark.parametrize(
    "lines, expected",
    [
        (("“他不是盲人。", None, "”阿诺说道。"), ["“他不是盲人。”", "阿诺说道。"]),
        (("「走吧。", None, "」他说。"), ["「走吧。」", "他说。"]),
        (
            ("「走吧。", "」他说。"),
            ["「走吧。」他说。"],
        ),  # side by side: unwrapping's (a ” starts no paragraph)
        (
            ("“卑职略献芹心。”", "”一万两银子又能解决什么？”他叹道。"),
            ["“卑职略献芹心。”", "”一万两银子又能解决什么？”他叹道。"],
        ),  # ” for “
        (
            ("他说：“好。”", None, "”这一句不该有引号。"),
            ["他说：“好。”", "”这一句不该有引号。"],
        ),  # nothing open before
        (("“你去吧。", None, "”他说，“我不去。”"), ["“你去吧。”", "他说，“我不去。”"]),
        (("“你去吧。", None, "”“我不去。”"), ["“你去吧。”", "“我不去。”"]),
        (
            ("“你去吧。", None, "”他说”了什么"),
            ["“你去吧。", "”他说”了什么"],
        ),  # the line itself is no better after
        (
            ("只有黃鸝一名『倉庚", None, "』，食之可以治妒。"),
            ["只有黃鸝一名『倉庚』，食之可以治妒。"],
        ),  # open: a wrap
    ],
)
def test_a_closing_quote_at_a_lines_start_goes_back_to_the_open_quote(lines, expected):
    blocks, _ = attach_orphans(paras(*lines))
    assert texts(unwrap(blocks)[0]) == expected


def test_orphan_punctuation_is_appended():
    blocks, n = attach_orphans(paras("所有的一切都无法阻挡他们前进的脚步", "。"))
    assert texts(blocks) == ["所有的一切都无法阻挡他们前进的脚步。"] and n == 1


def test_orphan_after_scene_break_is_left():
    blocks = (SceneBreak(Location("f", 1)), Paragraph("。", Location("f", 2)))
    assert attach_orphans(blocks)[0] == blocks


PATTERNS = active_patterns()


@pytest.mark.parametrize(
    "line, expected",
    [
        ("天才一秒记住本站地址：www.xxx.com", None),
        ("一秒记住【笔趣阁小说网】xbiqug5.com，更新快，无弹窗！", None),
        ("（本章未完，请点击下一页继续阅读）", None),
        ("(本章完)", None),
        ("请收藏本站：https://www.biqvkk.cc。笔趣阁手机版：https://m.biqvkk.cc", None),
        ("上一页←皇家金牌县令章节目录→下一章", None),
        ("第(3/3)页", None),
        ("www.biquge.com", None),
        ("他走进了门。天才一秒记住本站地址：www.xxx.com", "他走进了门。"),
        ("一秒钟后，他记住了那个地址", "一秒钟后，他记住了那个地址"),
        ("作者有话说：谢谢大家", "作者有话说：谢谢大家"),
        ("求收藏", "求收藏"),  # author begging is off by default
    ],
)
def test_junk_table(line, expected):
    assert clean_line(line, PATTERNS)[0] == expected


def test_long_line_is_never_dropped_on_a_weak_match():
    line = "他把本章完三个字写在纸上，" + "然后继续写下去，" * 12
    assert clean_line(line, PATTERNS)[0] == line


def test_junk_patterns_switchable_and_extendable():
    assert clean_line("求收藏", active_patterns(enable=("author-begging",)))[0] is None
    assert clean_line("www.biquge.com", active_patterns(disable=("domain-only",)))[0] == "www.biquge.com"
    assert clean_line("本书由某某整理", active_patterns(extra=(r"^本书由.*整理$",)))[0] is None


@pytest.mark.parametrize(
    "toml, dropped",
    [
        ("", True),
        ("[normalize]\njunk = false\n", False),
        ("[normalize.junk]\n", True),  # a table tunes the rule and leaves it on
        ('[normalize.junk]\nenable = ["author-begging"]\n', True),
        ('[normalize.junk]\ndisable = ["remember-site", "remember-site-fast"]\n', False),
    ],
)
def test_junk_switch_and_table_in_book_toml(tmp_path, toml, dropped):
    from bookbuilder.pipeline import load_book
    from tests.conftest import write_book

    root = write_book(tmp_path / "b", {"1.txt": "第一章 甲\n正文。\n天才一秒记住：八一中文\n正文二。"}, toml)
    texts = [b.text for b in next(load_book(root).book.chapters()).blocks]
    assert (not any("一秒记住" in t for t in texts)) is dropped


def test_paragraphs_of_one_length_are_not_taken_for_hard_wrapping():
    line = "城上守军齐声惊呼，西门起火，王宫起火，城内四处起火。"
    out, n = unwrap(paras(*[line] * 8))
    assert n == 0 and len(out) == 8


# 陈琳《为袁绍檄豫州》 as 三国演义 第二十二回 quotes it, wrapped as a typeset page: lines of 22–25
# characters, most ending mid-sentence, many at a ， or ；.
TYPESET = [
    "盖闻明主图危以制变，忠臣虑难以立权。是以有非",
    "常之人，然后有非常之事；有非常之事，然后立非常之",
    "功。夫非常者，固非常人所拟也。曩者，强秦弱主，赵",
    "高执柄，专制朝权，威福由己；时人迫胁，莫敢正言；终",
    "有望夷之败，祖宗焚灭，污辱至今，永为世鉴。及臻吕",
    "后季年，产禄专政，内兼二军，外统赵梁；擅断万机，决",
    "事省禁；下陵上替，海内寒心。于是绛侯朱虚兴兵奋怒，",
    "诛夷逆暴，尊立太宗，故能王道兴隆，光明显融：此则",
    "大臣立权之明表也。",
    "司空曹操：祖父中常侍腾，与左悺、徐璜并作妖孽，",
    "饕餮放横，伤化虐民；父嵩，乞匄携养，因赃假位，舆",
    "金辇璧，输货权门，窃盗鼎司，倾覆重器。操赘阉遗丑，",
    "本无懿德，剽狡锋协，好乱乐祸。",
    "幕府董统鹰扬，扫除凶逆；续遇董卓，侵官暴国。于",
    "是提剑挥鼓，发命东夏，收罗英雄，弃瑕取用；故遂与",
    "操同谘合谋，授以裨师，谓其鹰犬之才，爪牙可任。至",
    "乃愚佻短略，轻进易退，伤夷折衄，数丧师徒；幕府辄",
    "复分兵命锐，修完补辑，表行东郡，领兖州刺史，被以",
    "虎文，奖蹙威柄，冀获秦师一克之报。而操遂承资跋扈，",
    "恣行凶忒，割剥元元，残贤害善。",
    "故九江太守边让，英才俊伟，天下知名；直言正色，",
    "论不阿谄；身首被枭悬之诛，妻孥受灰灭之咎。自是士",
    "林愤痛，民怨弥重；一夫奋臂，举州同声。",
]


def test_a_chapter_wrapped_as_a_typeset_page_joins_its_lines_of_a_few_lengths():
    out, _ = unwrap(paras(*TYPESET))
    assert texts(out) == [
        "".join(TYPESET[:9]),
        "".join(TYPESET[9:13]),
        "".join(TYPESET[13:20]),
        "".join(TYPESET[20:]),
    ]


@pytest.mark.parametrize(
    "lines",
    [
        # natural paragraphs: lengths spread wide, so no band, and a ， at a line's end stays
        ["他回头看了一眼，", "山门已经远了。"] * 6
        + ["雨下了一夜，屋檐下的水滴个不停，打在石阶上，", "像是有人在轻轻地敲门。"] * 6,
        # lines of a few lengths that end their sentences: short paragraphs, not a wrap
        [
            "“你要去哪里？”他问道，声音有些沙哑。",
            "她没有回答，只是低头看着脚下的青石板路。",
            "远处传来几声犬吠，夜色渐渐浓了起来。",
            "他叹了一口气，转身走回了那间破旧的茅屋。",
        ]
        * 6,
    ],
)
def test_lines_that_are_not_a_typeset_page_keep_their_breaks(lines):
    out, _ = unwrap(paras(*lines))
    assert len(out) == len(lines)


def test_where_paragraphs_keep_their_indent_a_flush_line_continues_the_one_before():
    """倚天屠龙记 from one site: each paragraph indented, broken at random places (also after a
    finished sentence, or inside a quote), the pieces after a break flush left."""

    def indented(text, n):
        return Paragraph(text, Location("f.txt", n), True)

    def flush(text, n):
        return Paragraph(text, Location("f.txt", n), False)

    chapter = []
    for k in range(4):
        n = 10 * k
        chapter += [
            indented("觉远失声叫道：“啊哟，吓了我一跳，原来是你。”郭襄笑道：“你装", n),
            flush("甚么鬼？”觉远垂头丧气，点了点头。", n + 1),
            indented("郭襄见了这等怪事，如何肯不弄个明白？当下飞步追赶。", n + 3),
            flush("铁链声渐近，只见觉远仍是挑着那对铁桶。", n + 4),
            flush("。他手中却拿着一本书。", n + 5),
            indented("郭襄怒道：“这位大师是忠厚老实的好人。”", n + 7),
            indented("那僧人冷笑一声，并不答话。", n + 8),
            indented("郭襄道：“难道我还怕了你这和尚？”", n + 9),
        ]
    out, _ = unwrap(tuple(chapter))
    assert texts(out)[:3] == [
        "觉远失声叫道：“啊哟，吓了我一跳，原来是你。”郭襄笑道：“你装甚么鬼？”觉远垂头丧气，点了点头。",
        "郭襄见了这等怪事，如何肯不弄个明白？当下飞步追赶。铁链声渐近，只见觉远仍是挑着那对铁桶。。他手中却拿着一本书。",
        "郭襄怒道：“这位大师是忠厚老实的好人。”",
    ]
    # the same lines all indented: the indent says nothing, the finished sentences stay apart
    same = tuple(Paragraph(b.text, b.at, True) for b in chapter)
    assert len(unwrap(same)[0]) > len(out)


def test_junk_that_takes_nothing_leaves_the_blocks_as_they_came_whatever_the_patterns_look_for():
    """A chapter holding a pattern's keyword but nothing it takes reads as it would with the pattern
    switched off (serve's memo reuses it so: normalized_memo.py): not tidied on the way."""
    from collections import Counter

    from bookbuilder.normalize.lines import drop_junk

    at = Location("a.txt", 1)
    blocks = (SceneBreak(at), Paragraph("他说本章未完的故事还长。", at), SceneBreak(at), SceneBreak(at))
    with_it = active_patterns()
    without = active_patterns(disable=("next-page",))
    assert any(p.name == "next-page" for p in with_it) and len(without) == len(with_it) - 1
    for patterns in (with_it, without):
        counts, removed = Counter(), []
        assert drop_junk(blocks, patterns, counts, removed) is blocks and not removed and not counts
