"""`serve`'s workbench: forms on the preview's pages that correct the book, and the one
endpoint, POST /correct, that writes each correction into the settings file (bookbuilder.serve.corrections).
The watcher sees the file change and rebuilds; the answer waits for that build, then sends the
browser back to the page it came from, which shows the change.

A page on another site must not be able to change a book, so a write is refused (403) unless it
comes from this machine (never over the LAN), names this server as its Host (a DNS-rebinding
page names its own), carries that Host as its Origin (a form on another site carries the
site's), and carries the token the pages were made with (new every run).
"""

from __future__ import annotations

import copy
import hmac
import re
import secrets
import threading
from dataclasses import replace
from importlib import resources
from urllib.parse import parse_qs

from tomlkit.exceptions import TOMLKitError

from bookbuilder.diagnostics import REMOVED, BookError, removal_parts
from bookbuilder.render.html import XML_ILLEGAL, text
from bookbuilder.serve import corrections, guard, volume_before
from bookbuilder.serve import preview as removal_preview
from bookbuilder.serve.answers import NEAR, Answers, in_words, plain, refused_page
from bookbuilder.serve.corrections import Refused
from bookbuilder.serve.hosts import is_loopback
from bookbuilder.serve.pages import source_lines

MAX_FORM = 64 * 1024  # bytes: a correction is a few fields
REBUILD_WAIT = 120.0  # seconds the answer waits for the build that reads the correction


def loopback_hosts(port: int) -> set[str]:
    """The Host headers a browser on this machine sends to the server."""
    return {f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"}


def refusal(
    client: str, host: str | None, origin: str | None, token: str | None, expected: str, port: int
) -> str | None:
    """Why a POST may not write (None: it may). The rule, apart from the socket, to be tested alone."""
    if not is_loopback(client):
        return "corrections are made on the machine serve runs on: over the network, serve is read-only"
    if not token or not hmac.compare_digest(token.encode(), expected.encode()):
        return "the request does not carry this run's token (open the page again from serve)"
    if host not in loopback_hosts(port):
        return f"the request is addressed to {host!r}, not to this server"
    if origin != f"http://{host}":
        return f"the request comes from another page's origin ({origin or 'none given'})"
    return None


SHOWN_TAKEN = 5  # lines a suspect group's preview shows of what "remove everywhere" would take


class Bench:
    """The workbench of one `serve` run: its token, the message of the last correction, one
    correction at a time."""

    def __init__(self, site, port: int, lan_url: str | None = None):
        self.site, self.port, self.lan_url = site, port, lan_url
        self.token = secrets.token_urlsafe(24)
        self.answers = Answers()
        self.shown: tuple[str, str] | None = None  # this request's answer (see `answering`)
        self.lock = threading.Lock()

    # --- the pages' parts ---------------------------------------------------------------------

    def answering(self, said: str | None) -> Bench:
        """The workbench as one request's page sees it: with the answer it was sent to show."""
        answer = self.answers.get(said)
        if answer is None:
            return self
        view = copy.copy(self)
        view.shown = answer
        return view

    def banner(self) -> str:
        notice = ""
        if self.shown is not None:
            message, near = self.shown
            notice = f'<p class="bb-notice" role="status" data-near="{text(near)}">{text(message)}</p>\n'
        return notice + '<script src="/workbench.js" defer></script>\n'

    def _form(self, back: str, fields: dict, inner: str, **attributes) -> str:
        extra = "".join(f' {k.rstrip("_")}="{text(v)}"' for k, v in attributes.items())
        hidden = "".join(
            f'<input type="hidden" name="{k}" value="{text(str(v))}"/>'
            for k, v in {"token": self.token, "back": back, "near": "", **fields}.items()
        )
        return f'<form method="post" action="/correct"{extra}>{hidden}{inner}</form>'

    def contents_top(self, preview) -> str:
        config = preview.loaded.config
        try:
            found = corrections.in_force(corrections.read(config.toml_path))
        except (TOMLKitError, UnicodeDecodeError, OSError):  # not TOML now: the build's error says where
            found = []
        items = [
            f"<li>{text(plain(c))} <code>{text(corrections.table_of(c.kind) + ' ' + c.says)}</code> "
            + self._form(
                "/",
                {"kind": c.kind, "index": c.index, "says": c.says},
                '<button name="action" value="undo">undo</button>',
            )
            + "</li>"
            for c in found
        ]
        listed = (
            ("<ol>" + "".join(items) + "</ol>")
            if items
            else "<p>none yet: each correction made here is listed, with undo</p>"
        )
        return (
            self._qr() + '<section id="corrections"><h2>Corrections in '
            f"force</h2><p>written in {text(corrections.shown(config.toml_path))}, "
            f"where <code>bookbuilder epub</code> reads them</p>{listed}</section>"
        )

    def _qr(self) -> str:
        if not self.lan_url:
            return ""
        import segno

        address = self.lan_url + "download"
        svg = segno.make(address, error="m").svg_inline(scale=3, title="the download page's address")
        return (
            f'<figure class="bb-qr">{svg}<figcaption>on the reader: {text(address)}<br/>'
            f"OPDS: {text(self.lan_url + 'opds')}</figcaption></figure>"
        )

    def entry(self, preview, path: str, line: int, title: str, volume: bool = False) -> str:
        """A contents entry's corrections, made by workbench.js from `entry_templates` when opened (not
        4,000 forms); for a chapter titled by its file's name, a volume before the file only."""
        if not volume and (before_file := volume_before.entry(preview, path, line)):
            return " " + entry_control(*before_file, title)
        story_lines = preview.memo.get("story lines")
        if story_lines is None:
            story_lines = preview.memo["story lines"] = {
                (p.at.path, p.at.line) for p in guard.story(preview.loaded.book)
            }
        if not volume and (path, line) in story_lines:
            return " " + volume_before.NOTE
        return entry_control("volume" if volume else "chapter", preview.fix_at(path, line), title)

    def entry_templates(self) -> str:
        """The corrections of a chapter's and of a volume's entry, once: workbench.js fills in the
        entry's line (at) and its title (expect, and the new title's field)."""
        fields = {"at": "", "expect": ""}
        rename = self._form(
            "/",
            fields,
            '<input name="rename" value="" aria-label="new title" size="14"/> '
            '<button name="action" value="rename">rename</button>',
        )
        made = {
            kind: self._form(
                "/", fields, f'<button name="action" value="not-heading">not a heading</button> {other}'
            )
            + " "
            + rename
            for kind, other in (
                ("chapter", '<button name="action" value="volume">start a volume here</button>'),
                ("volume", '<button name="action" value="chapter">a chapter, not a volume</button>'),
            )
        }
        made = "".join(f'<template id="bb-fix-{kind}">{forms}</template>' for kind, forms in made.items())
        return made + volume_before.template(self._form, rename)

    def keep(self, preview, d, rule: str) -> str:
        """A removal's two ways back: this one alone ([[keep]]), or every one of its rule."""
        if rule not in _keepable(preview.loaded.config):
            return (
                ' <span class="bb-rule">(this cleaning cannot be undone from this page: it is switched for'
                " the whole book in the settings file's [normalize] table)</span>"
            )
        i = preview._chapter_of(d)
        back = f"/text/{preview.chapters[i].name}.html" if i is not None else "/"
        alone = (
            self._form(
                back,
                {
                    "at": preview.fix_at(d.at.path, d.at.line),
                    "text": removal_parts(d)[1],
                },
                '<button name="action" value="keep-line">keep this</button>',
            )
            + " "
            if d.at and d.at.line
            else ""
        )
        return (
            " "
            + alone
            + self._form(
                back,
                {"rule": rule},
                '<button name="action" value="keep">keep this rule off</button>'
                f' <span class="bb-rule">(every line {text(rule)} took out of the book comes back)</span>',
            )
        )

    def suspect_tools(self, preview, group) -> str:
        """A self-check group's corrections: remove everywhere (the group's shape as a pattern,
        previewed with the lines it would take), or keep it (the story's: not flagged again)."""
        from bookbuilder.check.suspects import removal

        keep = self._form(
            "/",
            {"text": group.first.debris},
            '<button name="action" value="not-debris">keep: the story\'s</button>',
        )
        found = removal(group)
        if found is None:
            return ' <span class="bb-rule">(a title: correct it in the contents below)</span> ' + keep
        regex, kind = found
        taken = preview.memo.get(
            (regex, kind)
        )  # each group's preview scans the book: once a build, not once a page
        if taken is None:
            taken = preview.memo[(regex, kind)] = would_remove(preview, regex, kind)
        shown = "".join(
            f'<li>{text(removal_parts(d)[1][:80])} <span class="where">{text(str(d.at))}</span></li>'
            for d in taken[:SHOWN_TAKEN]
        )
        more = f"<li>… {len(taken) - SHOWN_TAKEN} more</li>" if len(taken) > SHOWN_TAKEN else ""
        remove = (
            self._form(
                "/",
                {"regex": regex, "kind": kind},
                f'<button name="action" value="remove">remove everywhere ({len(taken)})</button>',
            )
            if taken
            else ""
        )
        return (
            f' <details class="bb-fix"><summary>correct</summary>{remove} {keep}'
            f'<ul class="bb-takes">{shown}{more}</ul></details>'
        )

    def heading_here(self, preview, shown: str, line: int) -> str:
        """A heading suspect's correction: the line starts a chapter ([[fix]] as = "chapter")."""
        try:
            lines = source_lines(shown)
        except (OSError, BookError):
            return ""
        if not 0 < line <= len(lines):
            return ""
        fields = {
            "file": preview.files.index(shown),
            "line": line,
            "expect": XML_ILLEGAL.sub("", lines[line - 1]),
            "as": "chapter",
        }
        return " " + self._form(
            "/", fields, '<button name="action" value="heading">a heading starts here</button>'
        )

    def remove_tool(self, back: str) -> str:
        return self._form(
            back,
            {},
            'remove everywhere: <input name="text" size="24" aria-label="text to remove"/> '
            '<button name="action" value="remove">remove this everywhere</button>',
            id="bb-remove",
            class_="bb-tool",
            hidden="hidden",
        )

    def line_tool(self, preview, shown: str) -> str:
        k = preview.files.index(shown)
        return self._form(
            f"/source/{k}.html",
            {"file": k, "line": "", "expect": ""},
            'line <span class="bb-line-no"></span>: <select name="as" aria-label="what starts here">'
            '<option value="chapter">a chapter</option><option value="volume">a volume</option></select> '
            '<button name="action" value="heading">a heading starts here</button>',
            id="bb-line",
            class_="bb-tool",
            hidden="hidden",
        )

    # --- the endpoint -------------------------------------------------------------------------

    def post(self, client: str, headers, body: bytes) -> tuple[int, dict, bytes]:
        """(status, headers, body) of the answer to POST /correct."""
        form = {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True).items()}
        why = refusal(
            client, headers.get("Host"), headers.get("Origin"), form.get("token"), self.token, self.port
        )
        if why is not None:
            return refused_page(403, "refused", why)
        back = form.get("back", "/")
        back = back if back.startswith("/") and not back.startswith("//") and "\\" not in back else "/"
        near = form.get("near", "") if NEAR.fullmatch(form.get("near", "")) else ""
        with self.lock:
            preview = self.site.preview
            path = preview.loaded.config.toml_path
            try:
                doc = corrections.read(path)
            except (TOMLKitError, UnicodeDecodeError, OSError) as e:  # the user's edit in progress, say
                return refused_page(
                    409,
                    "not changed",
                    f"{path.name} cannot be read as TOML ({e}): correct it by hand first",
                    back,
                )
            try:
                if form.get("action") == "remove" and (asked := self._unconfirmed(preview, form, back)):
                    return asked
                named = guard.named_by(form, preview, doc)
                said = _apply(form, preview, doc)
                sources = self.site.sources  # what the trial reads, unless a source changes meanwhile
                said, after = self._tried(said, named, corrections.dumps(doc))
            except Refused as e:
                return refused_page(409, "not changed", str(e), back)
            seen = self.site.generation
            written: list[str] = []

            def write() -> None:
                written.append(self._written(said, path, doc, preview.loaded.config))

            adopted = self.site.adopt(after, sources, write)  # the trial is the build the watcher would make
        if not adopted:  # the watcher's build that reads it: the page comes back changed
            self.site.wait(seen, REBUILD_WAIT)
        return self.answers.send(back, in_words(form.get("action", ""), written[0], path.name), near)

    def _unconfirmed(self, preview, form: dict, back: str) -> tuple[int, dict, bytes] | None:
        """A removal not yet confirmed (its count as shown): the page of what it would take."""
        regex = corrections.removal_pattern(form.get("text"), form.get("regex") or None)
        kind = form.get("kind") or "inline"
        if kind not in ("inline", "line"):
            raise Refused(f"kind = {kind!r}: inline or line")
        found = removal_preview.pieces(preview, regex, kind)
        if not found:
            what = form.get("regex") or form.get("text", "").strip()
            raise Refused(
                f"{what!r} is not in the book's paragraphs as they read now (select text inside one "
                "paragraph)"
            )
        if form.get("confirm") == str(len(found)):
            return None
        asked = form.get("text", "").strip() if not form.get("regex") else form["regex"]
        fields = {"regex": regex, "kind": kind} if form.get("regex") else {"text": asked, "kind": kind}
        offer = ""
        if not form.get("regex") and (found_template := removal_preview.template(preview, asked)):
            offer = removal_preview.template_offer(
                found_template,
                lambda inner: self._form(back, {"regex": found_template.regex, "kind": "line"}, inner),
            )
        body = removal_preview.page(
            preview, found, asked, lambda inner: self._form(back, fields, inner), offer
        )
        return _page(200, "remove everywhere?", body + f'<p><a href="{text(back)}">cancel</a></p>')

    def _tried(self, said, named, settings: str) -> tuple[str, object]:
        """The correction tried on a copy of the book (guard): refused where it would lose a line;
        (what to say, with the count "remove everywhere" removes; the book as the trial loaded it)."""
        said, name = said if isinstance(said, tuple) else (said, None)  # remove: the new pattern's name
        if name is not None:
            named = replace(named, rules=frozenset({name}))
        before = self.site.preview.loaded
        after, memo = guard.trial(self.site, settings)
        if name is not None:
            found = [d for d in after.diagnostics if d.code == REMOVED and removal_parts(d)[0] == name]
            if not found:
                raise Refused(
                    f"{said.split(' (', 1)[0]} would remove nothing from the book as it is built (its text "
                    "is kept, or cleaning took it already), so it is not made"
                )
        guard.check(before, after, named)
        self.site.memo = memo  # the build that reads the file finds what the trial read
        if name is None:
            return said, after
        chapters = removal_preview.counted(len({self.site.preview._chapter_of(d) for d in found}), "chapter")
        return f"{said}: {len(found)} removed from the book, in {chapters}", after

    def _written(self, said: str, path, doc, config) -> str:
        """The settings file written (a sidecar left with no settings is deleted); what to say."""
        settings = corrections.dumps(doc)
        if not settings and not config.has_config:
            path.unlink(missing_ok=True)
            return f"{said}; {path.name} had no settings left and is removed"
        existed = path.is_file()
        corrections.write(path, doc)
        return said if existed else f"{said}; {corrections.where_created(path, config.source)}"

    def page(self, path: str) -> tuple[str, bytes] | None:
        if path == "/workbench.js":
            js = resources.files("bookbuilder").joinpath("data/workbench.js").read_bytes()
            return "text/javascript; charset=utf-8", js
        return None


def entry_control(kind: str, at: str, title: str) -> str:
    """A contents entry's *correct*, which workbench.js fills from template bb-fix-`kind` when opened."""
    return (
        f'<details class="bb-fix" data-kind="{kind}" data-at="{text(at)}" data-expect="{text(title)}">'
        "<summary>correct</summary></details>"
    )


def _apply(form: dict, preview, doc) -> str:
    """The correction a form asks for, made in `doc`, checked against the book as built now (a
    page made before the source changed may name a line or title that is not there any more)."""
    action = form.get("action")
    if action in ("not-heading", "volume", "chapter", "rename"):
        at, expect = form.get("at", ""), form.get("expect", "")
        if (at, expect) not in _headings(preview):
            raise Refused(
                f"{expect!r} is no longer a heading at {at} (the book changed since the page was made): "
                "reload the page"
            )
        if action != "rename":
            return corrections.add_fix(doc, at, **{"as": {"not-heading": "text"}.get(action, action)})
        title = " ".join(form.get("rename", "").split())
        if not title or title == expect:
            raise Refused("give the new title")
        return corrections.add_fix(doc, at, rename=title)
    if action == "heading":
        return _heading(form, preview, doc)
    if action == volume_before.ACTION:
        return volume_before.apply(form, preview, doc)
    if action == "keep-line":
        at, removed = form.get("at", ""), form.get("text", "")
        if not any(
            d.at and preview.fix_at(d.at.path, d.at.line) == at and removal_parts(d)[1] == removed
            for found in preview.removed.values()
            for d in found
        ):
            raise Refused(f"nothing at {at} reading {removed!r} is removed now: reload the page")
        _line_holds(preview, at, removed)
        return corrections.add_keep(doc, at, removed)
    if action == "keep":
        rule = form.get("rule", "")
        if not any(removal_parts(d)[0] == rule for found in preview.removed.values() for d in found):
            raise Refused(f"nothing in the book is removed by {rule!r} now: reload the page")
        return corrections.keep(doc, rule, _builtin_names())
    if action == "remove":  # its preview confirmed (Bench._unconfirmed)
        regex = corrections.removal_pattern(form.get("text"), form.get("regex") or None)
        return corrections.remove_everywhere(doc, regex, form.get("kind") or "inline")
    if action == "not-debris":
        flagged = {s.debris for g in preview.loaded.suspects for s in g.suspects}
        if form.get("text", "") not in flagged:
            raise Refused(f"the self-check does not flag {form.get('text', '')!r} now: reload the page")
        return corrections.add_not_debris(doc, form["text"])
    if action == "undo":
        if not form.get("index", "").isdigit():
            raise Refused("which correction? reload the page")
        return corrections.undo(doc, form.get("kind", ""), int(form["index"]), form.get("says", ""))
    raise Refused(f"{action!r} is not a correction serve makes")


def _line_holds(preview, at: str, removed: str) -> None:
    """Refused where the line a [[keep]] would name does not hold the removed text (a paragraph
    joined from several source lines): the entry would stop the build (E009)."""

    from bookbuilder.normalize.by_hand import Keep, check_keeps
    from bookbuilder.normalize.rules import normalizer

    config = preview.loaded.config
    keep = Keep(1, None, at.rsplit(":", 1)[0], int(at.rsplit(":", 1)[1]), removed)
    files = {f: (lambda f=f: list(source_lines(f))) for f in preview.files if keep.names(f)}
    try:
        check_keeps(
            (keep,),
            files,
            normalizer(config.normalize, preview.loaded.book.meta.language).text,
            str(config.toml_path),
        )
    except BookError:
        raise Refused(
            f"line {at} of the source does not hold {removed!r} whole (the paragraph was joined from several "
            "lines): keep this rule off instead, or edit the source"
        ) from None


def would_remove(preview, regex: str, kind: str = "inline") -> list:
    """The removal records "remove everywhere" of `regex` would add to the book as built now (its
    [[keep]] lines left out): what a suspect group previews before it is removed."""
    from bookbuilder.normalize.by_hand import after_cleaning
    from bookbuilder.normalize.junk import JunkPattern

    pattern = (JunkPattern("preview", re.compile(regex), strong=False, kind=kind),)
    keeps = preview.loaded.config.keeps
    return [
        d
        for chapter in preview.loaded.book.chapters()
        if (done := after_cleaning(chapter, pattern, keeps))
        for d in done[2]
    ]


def _headings(preview) -> set[tuple[str, str]]:
    """(at, title) of every chapter and volume heading in the book as built now."""
    found = {(preview.fix_at(w.path, w.first), w.chapter.title) for w in preview.chapters if w.first}
    return found | {
        (preview.fix_at(v.at.path, v.at.line), v.title)
        for v in preview.loaded.book.volumes
        if v.title and v.at is not None and v.at.line
    }


def _heading(form: dict, preview, doc) -> str:
    k, n = form.get("file", ""), form.get("line", "")
    if not (k.isdigit() and int(k) < len(preview.files) and n.isdigit()):
        raise Refused("which line? click a line of the source first")
    shown, n = preview.files[int(k)], int(n)
    lines = source_lines(shown)
    if not 0 < n <= len(lines) or XML_ILLEGAL.sub("", lines[n - 1]) != form.get("expect"):
        raise Refused(
            f"{shown} has no line {n} reading {form.get('expect', '')!r} now (it changed since the page "
            "was made): reload the page"
        )
    if not lines[n - 1].strip():
        raise Refused("a blank line cannot be a heading")
    kind = form.get("as") if form.get("as") in ("chapter", "volume") else "chapter"
    return corrections.add_fix(doc, preview.fix_at(shown, n), **{"as": kind})


def _builtin_names() -> set[str]:
    """What [normalize.junk] disable may name: junk.toml's patterns and the rules that judge by evidence."""
    from bookbuilder.normalize.junk import builtin_patterns
    from bookbuilder.normalize.rules import EVIDENCE_RULES

    return {p.name for p in builtin_patterns()} | set(EVIDENCE_RULES)


def _keepable(config) -> set[str]:
    """The rules a "keep this" can switch: the built-in junk patterns and book.toml's extra ones."""
    junk = config.normalize.get("junk")
    extra = junk.get("extra", ()) if isinstance(junk, dict) else ()
    return _builtin_names() | {
        spec.get("name", f"extra-{i + 1}") if isinstance(spec, dict) else f"extra-{i + 1}"
        for i, spec in enumerate(extra)
    }


def _page(status: int, title: str, body: str) -> tuple[int, dict, bytes]:
    page = (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"/><title>{text(title)}</title>'
        '<link href="/serve.css" rel="stylesheet"/></head>\n'
        f"<body>{body}</body></html>\n"
    )
    return status, {"Content-Type": "text/html; charset=utf-8"}, page.encode("utf-8")
