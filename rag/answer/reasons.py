"""Asks for a reason ("Why does it first restrict the rollout …?", "What weakness of X
motivated Y?"): an abstract states the problem just before the sentence that answers it
("However, extrapolation can lead to prohibitively high variance. To address this, we …")."""

from __future__ import annotations

import re

_ASKS_REASON = re.compile(
    r"^\W*(?:why\b|what\s+(?:[\w-]+\s+){0,3}?(?:problems?|weakness\w*|shortcomings?|limitations?|issues?|drawbacks?"
    r"|motivat\w*|reasons?)\b)",
    re.I,
)
# A sentence answering the one before it: "To address this, …", "We address this critical issue …".
_ADDRESSES = re.compile(
    r"^\W*(?:to\s+(?:address|overcome|tackle|mitigate|remedy|solve|resolve|alleviate|bridge|close|fill|fix|circumvent)"
    r"\s+(?:this|these|that|those|such|the\s+(?:above|aforementioned))\b|to\s+this\s+end\b"
    r"|we\s+(?:address|tackle|overcome|mitigate|remedy|resolve|alleviate|bridge|fill)\s+(?:this|these)\b)",
    re.I,
)


def asks_reason(question: str) -> bool:
    return _ASKS_REASON.search(question) is not None


def problem_before(quotes: list[tuple[str, str]], candidates: list[str]) -> str | None:
    """Of the paper's sentences (`quotes`: (id, text) in the abstract's order), the one before
    the first of `candidates` (ids, best first) that addresses a problem stated just before it."""
    position = {cid: i for i, (cid, _) in enumerate(quotes)}
    for cid in candidates:
        i = position.get(cid)
        if i and _ADDRESSES.search(quotes[i][1]):
            return quotes[i - 1][0]
    return None


def reason_asked(
    question: str, quotes: list[tuple[str, str]], scored: list[tuple[str, str, float]], margin: float
) -> str | None:
    """For a question asking a reason, the problem stated before the first sentence scored
    within `margin` of the best (`scored`: id, quote, score, best first) that addresses it;
    only a sentence that is itself scored (usable evidence)."""
    if not scored or not asks_reason(question):
        return None
    close = [i for i, _, s in scored if s >= scored[0][2] - margin]
    problem = problem_before(quotes, close)
    return problem if problem in {i for i, _, _ in scored} else None
