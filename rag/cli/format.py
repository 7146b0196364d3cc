"""How answers read in the terminal."""

from __future__ import annotations

import sys
from typing import Any

from rag.answer.present import readable_quote
from rag.corpus.label import display_label
from rag.text.display import readable
from rag.types import Answer, Citation


def authors_short(authors: list[str] | None) -> str:
    """ "First Author et al." (or the one author)."""
    if not authors:
        return ""
    return authors[0] + (" et al." if len(authors) > 1 else "")


def reference_line(n: int, c: Citation) -> str:
    """`[1] <label> — <title> (<first author> et al., <venue>) <url>`; parts the paper lacks left out."""
    label = readable(display_label(c.label, c.title))
    line = f"[{n}] {label}"
    if c.title and readable(c.title) != label:  # a label that is the whole title is not repeated
        line += f" — {readable(c.title)}"
    who = ", ".join(x for x in (authors_short(c.authors), c.venue or "") if x)
    if who:
        line += f" ({who})"
    if c.url:
        line += f" {c.url}"
    return line


def format_references(a: Answer) -> str:
    lines: list[str] = []
    if a.backend_error:
        lines += ["", f"Note: the {a.backend} backend failed ({a.backend_error}); this answer comes from the evidence."]
    if a.note:
        lines += ["", f"Note: {a.note}"]
    if a.citations:
        lines += ["", "References:"]
        for n in sorted({c.n for c in a.citations}):
            group = [c for c in a.citations if c.n == n]
            lines.append(reference_line(n, group[0]))
            lines += [f'    "{c.display or readable_quote(c.quote)}"' for c in group]  # a source's "[7]" is not ours
            lines.append(f"    paper id: {group[0].paper_id}")
    elif a.refused and a.closest:
        lines += ["", "Closest papers:"]
        for k in a.closest:
            title = f" — {readable(k.title)}" if k.title else ""
            by = f" ({authors_short(k.authors)})" if k.authors else ""
            lines.append(
                f"  {readable(display_label(k.label, k.title))}{title}{by} [{k.paper_id}]  score {k.score:.3f}"
            )
    if a.explain:
        lines += ["", "Explain:"] + [f"  {x}" for x in a.explain]
    return "\n".join(lines)


def printer(stream: bool) -> Any:
    """Print sentences as they are released; a progress hint on a terminal until the first."""
    state = {"first": True}
    if stream and sys.stderr.isatty():
        print("writing…", end="\r", file=sys.stderr, flush=True)

    def emit(sentence: str) -> None:
        if state["first"] and stream and sys.stderr.isatty():
            print(" " * 10, end="\r", file=sys.stderr, flush=True)
        state["first"] = False
        print(readable(sentence), flush=True)

    return emit
