"""Citations as data: numbering, quotes sliced from abstracts, and the support judge's entry points."""

from __future__ import annotations

import re
from typing import Any

from rag.answer.judge import COMBINED_MIN, COSINE_MIN, LEXICAL_MIN, judge, lexical_support
from rag.text.normalize import clean
from rag.types import REFUSAL, Answer, Citation, Paper, SentenceCheck

__all__ = ["COMBINED_MIN", "COSINE_MIN", "LEXICAL_MIN", "lexical_support", "supports"]

_MARKER = re.compile(r"\[(\d+)\]")


def escape_markers(text: str) -> str:
    """Bracketed numbers in source text must never read as our citations."""
    return _MARKER.sub(r"(\1)", text)


def display_sentence(quote: str) -> str:
    return escape_markers(clean(quote))


class CitationBuilder:
    """Numbers cited papers in order of first use; one `Citation` per (paper, quote)."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}
        self.citations: list[Citation] = []

    def cite(self, paper: Paper, quote: str) -> int:
        n = self.numbers.setdefault(paper.paper_id, len(self.numbers) + 1)
        if not any(c.paper_id == paper.paper_id and c.quote == quote for c in self.citations):
            self.citations.append(
                Citation(n=n, paper_id=paper.paper_id, label=paper.label, title=paper.title, quote=quote)
            )
        return n


# The support judge lives in `judge` (rules + overlap/cosine gate); these names stay for
# the callers and tests that use them.
def supports(
    claim: str,
    evidence: str,
    *,
    source_text: str | None = None,
    cosine: float | None = None,
    lexical_min: float = LEXICAL_MIN,
    cosine_min: float = COSINE_MIN,
    combined_min: float = COMBINED_MIN,
) -> bool:
    """Does `evidence` support `claim`? `judge.judge` (numbers, names, negation, opposite
    predicates, overclaims, then content-word overlap and embedding cosine). Numbers must be in
    the evidence sentence itself; `source_text` is accepted for old callers and not needed."""
    del source_text
    return judge(
        claim, evidence, cosine=cosine, lexical_min=lexical_min, cosine_min=cosine_min, combined_min=combined_min
    ).supported


def cited_answer(
    question: str, lines: list[str], builder: CitationBuilder, checks: list[SentenceCheck], **fields: Any
) -> Answer:
    """An extractive answer of cited `lines` (none: the refusal), with `fields` (note, sources …)."""
    return Answer(
        question=question,
        answer="\n".join(lines) if lines else REFUSAL,
        refused=not lines,
        backend="extractive",
        latency_ms=0.0,
        citations=builder.citations,
        sentences=checks,
        **fields,
    )


def quoting_answer(question: str, picked: list[tuple[Paper, list[str]]], reason: str, **fields: Any) -> Answer:
    """Each paper's picked sentences quoted as they stand, each cited (`reason`: why they were
    picked); one line per paper, led by its label when there are several (none: the refusal)."""
    builder = CitationBuilder()
    lines: list[str] = []
    checks: list[SentenceCheck] = []
    for paper, quotes in picked:
        said = []
        for quote in quotes:
            n = builder.cite(paper, quote)
            said.append(f"{display_sentence(quote)} [{n}]")
            checks.append(SentenceCheck(text=quote, citations=[n], supported=True, evidence_quote=quote, reason=reason))
        if said:
            lines.append(" ".join(said) if len(picked) == 1 else f"- {paper.label}: {' '.join(said)}")
    return cited_answer(question, lines, builder, checks, **fields)
