"""Papers by their links: a question that pastes a paper's OpenReview, PMLR or arXiv address
("What does https://openreview.net/forum?id=… propose?") names that paper."""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import parse_qs, urlsplit

from rag.types import Paper

# An address as pasted: with a scheme, or a host with a path ("openreview.net/forum?id=…").
_URL = re.compile(r"\bhttps?://[^\s<>\"'“”]+|\b(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/[^\s<>\"'“”]*", re.I)
_TRAILING = ".,;:!?)]}>'’"
_EXTENSION = re.compile(r"(?:\.html?|\.pdf|v\d+)$")  # "zhang24a.html", "2401.01234v2"


def link_key(url: str) -> str | None:
    """What identifies the paper an address points at: OpenReview's `id` (its forum and its
    PDF share it), else host and path without the file's extension or version."""
    parts = urlsplit(url if "://" in url else f"https://{url}")
    host = parts.netloc.lower().removeprefix("www.")
    if not host:
        return None
    ids = parse_qs(parts.query).get("id")
    if host.endswith("openreview.net") and ids:
        return f"openreview:{ids[0]}"
    path = parts.path.rstrip("/")
    if host.endswith("arxiv.org"):  # /abs/2401.01234, /pdf/2401.01234v2
        path = re.sub(r"^/(?:abs|pdf|html)/", "/", path)
    path = re.sub(r"/[^/]+\.pdf$", "", path) if host.endswith("mlr.press") else path  # …/a24a/a24a.pdf
    return f"{host}{_EXTENSION.sub('', path)}" if path else None


def links_in(text: str) -> list[tuple[int, int, str]]:
    """(start, end, address) of each address the text pastes, without trailing punctuation."""
    out = []
    for m in _URL.finditer(text):
        url = m.group().rstrip(_TRAILING)
        out.append((m.start(), m.start() + len(url), url))
    return out


class LinkIndex:
    """The papers whose records give a link, by `link_key`."""

    def __init__(self, papers: Mapping[str, Paper]) -> None:
        self.papers: dict[str, list[str]] = {}
        for pid, p in papers.items():
            key = link_key(p.url) if p.url else None
            if key:
                self.papers.setdefault(key, []).append(pid)

    def find(self, text: str) -> list[tuple[int, int, list[str]]]:
        """(start, end, papers) of each address in `text` that an indexed paper's record gives."""
        found = []
        for start, end, url in links_in(text):
            pids = self.papers.get(link_key(url) or "")
            if pids:
                found.append((start, end, pids))
        return found
