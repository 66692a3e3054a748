"""Chapter → plain UTF-8 text for review: the title, a blank line, one paragraph a line,
`* * *` for a scene break. No format of the registry (it has no file in build/ and no checks):
`bookbuilder normalize` writes it (bookbuilder.render.review), the golden tests compare it."""

from __future__ import annotations

from bookbuilder.model import Chapter, Paragraph

SCENE_BREAK = "* * *"


def chapter_text(chapter: Chapter) -> str:
    lines = [chapter.title, ""]
    lines += [b.text if isinstance(b, Paragraph) else SCENE_BREAK for b in chapter.blocks]
    return "\n".join(lines) + "\n"
