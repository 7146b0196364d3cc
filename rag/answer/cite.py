"""Citations as data: numbering, quotes sliced from abstracts, and the support judge."""

from __future__ import annotations

import re

from rag.text.normalize import clean, content_stems, numbers
from rag.types import Citation, Paper

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


# The support judge, calibrated on tests/data/support_examples.jsonl (22 hand-written
# claim/evidence pairs): supported positives have overlap + cosine >= 1.36, unsupported
# ones (wrong facts that reuse the words, other papers' claims) <= 1.29.
LEXICAL_MIN = 0.95  # (near-)verbatim
COSINE_MIN = 0.92
COMBINED_MIN = 1.33


def lexical_support(claim: str, evidence: str) -> float:
    """Share of the claim's content words found in the evidence (stemmed)."""
    c = set(content_stems(claim))
    if not c:
        return 0.0
    return len(c & set(content_stems(evidence))) / len(c)


def numbers_supported(claim: str, source_text: str) -> bool:
    """Every number in the claim appears in the source."""
    return numbers(claim) <= numbers(source_text)


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
    """Does `evidence` support `claim`? Content-word overlap and embedding cosine
    (there is no offline NLI model), and every number of the claim must be in the source."""
    if not numbers_supported(claim, source_text or evidence):
        return False
    lex = lexical_support(claim, evidence)
    cos = cosine if cosine is not None else 0.0
    return lex >= lexical_min or cos >= cosine_min or (lex + cos) >= combined_min
