"""Questions about the index itself: "How many papers are indexed?", "What papers do you have?",
"Which venues are covered?". No abstract answers them (at conference scale the words "papers"
and "index" found papers on multi-index models); the index's records do, and the answer says
so. Pure functions of the question and the papers."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

from rag.types import Answer, Paper

FROM_INDEX = "From the index (the papers' records), not from the abstracts."

_ITEMS = r"(?:papers|abstracts|articles|documents|works|entries)"
_PLACE = r"(?:indexed|in\s+(?:the|your|this)\s+(?:index|collection|corpus|database|library)|loaded|available|stored|covered|there)"
_END = r"(?:\s+(?:in\s+total|total|altogether|so\s+far|right\s+now|now))?\s*[?.!]*\s*$"
_ASKS = re.compile(
    # "How many papers are indexed?", "How many abstracts do you have?", "How many papers are there?"
    rf"^\s*how\s+many\s+{_ITEMS}\s+(?:(?:are|were|is)(?:\s+there)?(?:\s+{_PLACE})?|do\s+you\s+have(?:\s+{_PLACE})?"
    rf"|have\s+you\s+(?:got|indexed))"
    # "What papers do you have?", "Which papers are indexed?", "What's in the index?"
    rf"|^\s*(?:what|which)\s+{_ITEMS}\s+(?:do\s+you\s+have(?:\s+{_PLACE})?|are\s+{_PLACE}(?:\s+{_PLACE})?)"
    rf"|^\s*what(?:'s|\s+is)\s+(?:indexed|in\s+(?:the|your|this)\s+(?:index|collection|corpus|database|library))"
    # "List all papers", "Show me all the papers"
    rf"|^\s*(?:list|show(?:\s+me)?|give\s+me)\s+(?:all\s+)?(?:the\s+)?(?:indexed\s+)?{_ITEMS}"
    # "Which venues are covered?", "What conferences do you have?"
    rf"|^\s*(?:what|which)\s+(?:venues|conferences|proceedings|years)\s+(?:are\s+{_PLACE}|do\s+you\s+(?:have|cover))"
    rf"|^\s*what\s+(?:venues|conferences|years)\s+(?:are\s+the\s+)?{_ITEMS}\s+(?:from|in)",
    re.I,
)


def asks_about_index(question: str) -> bool:
    """The question asks what the index holds, and nothing else."""
    m = _ASKS.match(question)
    return m is not None and re.match(_END, question[m.end() :], re.I) is not None


def index_answer(question: str, papers: Mapping[str, Paper], allowed: list[str] | None = None) -> Answer:
    """How many papers are indexed (of `allowed`, when the question was narrowed), by the venue
    and year their records give; cites none (no paper says it)."""
    pids = list(papers) if allowed is None else [p for p in allowed if p in papers]
    by_venue = Counter(_venue(papers[p]) for p in pids)
    order = sorted(by_venue.items(), key=lambda kv: (kv[0] == "", -kv[1], kv[0]))  # papers without one last
    parts = [f"{name or 'no venue in their records'} ({n:,})" for name, n in order]
    n = len(pids)
    text = (
        f"{n:,} {'paper is' if n == 1 else 'papers are'} indexed: {'; '.join(parts)}." if n else "No paper is indexed."
    )
    if n and re.search(
        rf"\b(?:what|which|list|show(?:\s+me)?|give\s+me)\s+(?:all\s+)?(?:the\s+)?{_ITEMS}", question, re.I
    ):
        text += " The Papers tab (or `rag papers`) lists them with their titles."
    return Answer(question=question, answer=text, refused=False, backend="extractive", latency_ms=0.0, note=FROM_INDEX)


def _venue(p: Paper) -> str:
    """The venue as its record gives it, with the year when the venue's name has none."""
    venue = (p.venue or "").strip()
    if venue and p.year and str(p.year) not in venue:
        return f"{venue} {p.year}"
    return venue or (str(p.year) if p.year else "")
