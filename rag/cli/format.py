"""How answers read in the terminal."""

from __future__ import annotations

import sys
from typing import Any

from rag.answer.cite import display_sentence
from rag.types import Answer


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
            title = f" — {group[0].title}" if group[0].title else ""
            lines.append(f"[{n}] {group[0].label} ({group[0].paper_id}){title}")
            lines += [f'    "{display_sentence(c.quote)}"' for c in group]  # a source's "[7]" is not ours
    elif a.refused and a.closest:
        lines += ["", "Closest papers:"]
        lines += [f"  {c.label} ({c.paper_id})  score {c.score:.3f}" for c in a.closest]
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
        print(sentence, flush=True)

    return emit
