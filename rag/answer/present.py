"""What a reader needs beside the verbatim answer: each citation's paper (authors, link, venue)
and readable forms of the answer and its quotes. `answer` and `quote` stay as they are (the
verifier and the metrics match on them); the readable forms go to `answer_display` and `display`."""

from __future__ import annotations

from collections.abc import Mapping

from rag.answer.cite import escape_markers
from rag.text.display import readable
from rag.text.normalize import clean
from rag.types import Answer, Paper


def readable_quote(quote: str) -> str:
    """A quote as shown: one line, LaTeX/markdown readable, a source's own "[7]" as "(7)"."""
    return escape_markers(readable(clean(quote)))


def present(a: Answer, papers: Mapping[str, Paper]) -> Answer:
    """Fill the display and bibliographic fields of `a` in place (and return it)."""
    for c in a.citations:
        p = papers.get(c.paper_id)
        if p is not None:
            c.title = c.title or p.title
            c.authors, c.url, c.venue = p.authors, p.url, p.venue
        c.display = readable_quote(c.quote)
    for k in a.closest:
        p = papers.get(k.paper_id)
        if p is not None:
            k.title, k.authors, k.url = p.title, p.authors, p.url
    a.answer_display = readable(a.answer)
    return a
