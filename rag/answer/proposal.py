"""Asks for what a paper proposes ("What did Penn et al. propose for …?", "what did they
develop to fix that?"): the sentence that states the paper's contribution answers them."""

from __future__ import annotations

import re

from rag.answer.need import Need, matches

STATES_CONTRIBUTION = re.compile(
    r"\b(?:we|this (?:paper|work|study))\s+(?:(?:first|then|also)\s+)?(?:propose|introduce|present|develop)\b"
    r"|\b(?:key|main|primary|central|core) contributions?\b",
    re.I,
)
_ASKS_PROPOSAL = re.compile(
    r"^\W*what\s+(?:[\w-]+\s+){0,2}?(?:did|do|does)\s+(?:[\w.'’-]+\s+){1,4}?(?:propose|introduce|present|develop)\b",
    re.I,
)


def proposal_needs(question: str) -> list[Need]:
    """It leads when close to the best sentence; it never refuses (a paper may say what it
    does in other words)."""
    if not _ASKS_PROPOSAL.search(question):
        return []
    return [Need("the contribution", matches(STATES_CONTRIBUTION), required=False, specific=True)]
