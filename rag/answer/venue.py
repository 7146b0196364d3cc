"""A question scoped to a venue ("Which ICML 2025 papers are about …?", "the ICML paper on …"):
answered among the indexed papers whose records give that venue, with the venue words taken
out of the question. No abstract writes its venue, so left in they are a name no paper has,
and the question was refused."""

from __future__ import annotations

import re
from collections.abc import Mapping

from rag.types import Paper


def venue_scope(question: str, papers: Mapping[str, Paper]) -> tuple[str, list[str], str] | None:
    """(the question without the venue, the papers of that venue, the venue as asked), or None
    when the question names no venue of the indexed records."""
    names = {p.venue.split()[0] for p in papers.values() if p.venue and p.venue.split()}
    for name in sorted(names, key=len, reverse=True):
        # "icml" is ICML, but "nature" in a question is no venue: only an acronym-like name
        # ("ICML", "NeurIPS") in any case, any other as written and not opening the question.
        acronym = sum(c.isupper() for c in name) >= 2
        m = re.search(
            rf"(?:\b(?:at|from|in|of|to)\s+)?(?<![\w-]){re.escape(name)}(?:\s*'?(?P<year>(?:19|20)?\d\d))?(?![\w-])",
            question,
            re.I if acronym else 0,
        )
        if m is None or (not acronym and not question[: m.start()].strip()):
            continue
        year = m.group("year")
        pids = [pid for pid, p in papers.items() if _of(p, name, year)]  # none: "ICML 2019", say so
        rest = re.sub(r"\s{2,}", " ", f"{question[: m.start()]} {question[m.end() :]}").strip()
        asked = f"{name} {_full_year(year)}" if year else name
        return rest, pids, asked
    return None


# A year as the papers' own: "Which 2024 papers …", "papers from 2025 on …", "… published in
# 2024"; not a year the question is about ("the 2024 election").
_YEAR = re.compile(
    r"(?<![\w-])(?P<y1>(?:19|20)\d\d)\s+(?=(?:papers?|works?|studies|articles|abstracts)\b)"
    r"|\b(?P<n2>papers|works|studies|articles|abstracts)\s+(?:published\s+|that\s+appeared\s+)?(?:from|in|of)\s+"
    r"(?P<y2>(?:19|20)\d\d)(?![\w-])"
    r"|\b(?:published|appeared|presented)\s+in\s+(?P<y3>(?:19|20)\d\d)(?![\w-])",
    re.I,
)


def year_scope(question: str, papers: Mapping[str, Paper]) -> tuple[str, list[str], str] | None:
    """(the question without the year, the papers of that year, the year), or None when the
    question asks for no year of the papers (`venue_scope` for a venue)."""
    m = _YEAR.search(question)
    if m is None:
        return None
    year = m.group("y1") or m.group("y2") or m.group("y3")
    pids = [pid for pid, p in papers.items() if str(p.year or "") == year]
    start = m.end("n2") if m.group("y2") else m.start()
    rest = re.sub(r"\s{2,}", " ", f"{question[:start]} {question[m.end() :]}").strip()
    rest = re.sub(r"\s+([?.!,])", r"\1", rest)
    return rest, pids, year


def _of(p: Paper, name: str, year: str | None) -> bool:
    parts = (p.venue or "").split()
    if not parts or parts[0].lower() != name.lower():
        return False
    return year is None or str(p.year or "") == _full_year(year) or _full_year(year) in parts


def _full_year(year: str) -> str:
    return f"20{year}" if len(year) == 2 else year
