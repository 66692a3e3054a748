"""What Amazon's converter is known to reject in an EPUB sent to a Kindle (Send to Kindle), checked
on the built file by `check --outputs` (docs/kindle.md lists the sources):

- W406: no dc:language, or one the content documents contradict (their xml:lang);
- W407: a link, in the navigation or the text, to a file or fragment that is not in the EPUB;
- W408: an image over 5 MB;
- W402 (judges.epub_size): the file over 50 MB, Send to Kindle's limit.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from pathlib import Path
from urllib.parse import unquote
from xml.etree import ElementTree

from bookbuilder.diagnostics import Diagnostic, Location

IMAGE_LIMIT = 5 * 1024 * 1024
_OPF = {"opf": "http://www.idpf.org/2007/opf", "dc": "http://purl.org/dc/elements/1.1/"}
_ID = re.compile(rb'\sid="([^"]+)"')
_HREF = re.compile(rb'\s(?:href|src)="([^"]+)"')
_LANG = re.compile(rb'<html[^>]*\sxml:lang="([^"]+)"')


def kindle_findings(path: Path) -> list[Diagnostic]:
    """The warnings above for the EPUB at `path`; none for a file that is not a readable EPUB
    (EPUBCheck says what is wrong with it)."""
    try:
        return _findings(path)
    except (zipfile.BadZipFile, ElementTree.ParseError, KeyError, OSError):
        return []


def _findings(path: Path) -> list[Diagnostic]:
    shown = str(path)
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        opf_name = next((n for n in names if n.endswith(".opf")), None)
        if opf_name is None:
            return []
        opf = ElementTree.fromstring(z.read(opf_name))
        base = posixpath.dirname(opf_name)
        languages = [e.text or "" for e in opf.iterfind("opf:metadata/dc:language", _OPF)]
        manifest = {
            posixpath.normpath(posixpath.join(base, unquote(item.get("href", "")))): item.get(
                "media-type", ""
            )
            for item in opf.iterfind("opf:manifest/opf:item", _OPF)
        }
        documents = {
            name: z.read(name)
            for name, kind in manifest.items()
            if kind in ("application/xhtml+xml", "application/x-dtbncx+xml") and name in names
        }
        found = _language_findings(languages, documents, shown) + _link_findings(documents, names, shown)
        for info in z.infolist():
            if manifest.get(info.filename, "").startswith("image/") and info.file_size > IMAGE_LIMIT:
                found.append(
                    Diagnostic(
                        "W408",
                        f"{info.filename} is {info.file_size / 2**20:.1f} MB, over the 5 MB a "
                        "Kindle book's image may be",
                        Location(shown),
                    )
                )
    return found


def _language_findings(languages: list[str], documents: dict[str, bytes], shown: str) -> list[Diagnostic]:
    """W406: no dc:language, or the first document whose xml:lang differs from it."""
    if not languages or not languages[0].strip():
        return [
            Diagnostic(
                "W406", "no dc:language: Amazon's converter refuses a book without one", Location(shown)
            )
        ]
    for name, data in documents.items():
        lang = _LANG.search(data)
        if lang and lang.group(1).decode() != languages[0]:
            return [
                Diagnostic(
                    "W406",
                    f"{name} says xml:lang={lang.group(1).decode()!r}, the package "
                    f"dc:language {languages[0]!r}",
                    Location(shown),
                )
            ]
    return []


def _link_findings(documents: dict[str, bytes], names: set[str], shown: str) -> list[Diagnostic]:
    """W407: each link of a document to a file, or an anchor, the EPUB does not hold."""
    found = []
    ids = {name: set(m.decode() for m in _ID.findall(data)) for name, data in documents.items()}
    for name, data in documents.items():
        for href in (h.decode() for h in _HREF.findall(data)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", href):  # http:, mailto:, data:
                continue
            file, _, fragment = href.partition("#")
            target = (
                posixpath.normpath(posixpath.join(posixpath.dirname(name), unquote(file))) if file else name
            )
            if target not in names or (fragment and target in ids and fragment not in ids[target]):
                found.append(
                    Diagnostic("W407", f"{name} links to {href}, which is not in the EPUB", Location(shown))
                )
    return found
