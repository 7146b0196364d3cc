"""Asks for the best or the worst of several ("which method performs best", "on which of the
benchmarks did it help the most"): only a sentence that ranks or compares answers them."""

from __future__ import annotations

import re

from rag.answer.counts import COMPARATIVES, PAPER_HEADS
from rag.answer.lexicon import parts_of_speech, superlative
from rag.answer.need import Need

# The clause a "which" opens, up to its end; not "which papers …", which asks for papers.
_WHICH = re.compile(rf"\bwhich\s+(?!{PAPER_HEADS})([^?.;,]{{0,80}})", re.I)
_RANK = {"best", "worst", "most", "least"}
# "at least two", "least squares", "at most": amounts and names, no rank.
_NOT_RANK = re.compile(r"\bat\s+(?:least|most)\b|\bleast[- ]squares?\b|\bmost\s+of\b", re.I)
_WORD = re.compile(r"[A-Za-z]+")
# A sentence that ranks or compares: a superlative, a comparative, or a verb of beating.
_RANKS = re.compile(
    r"\b(?:best|worst|most|least|top|leading|superior|inferior|better|worse|than"
    r"|(?:out|under)perform\w*|beat\w*|surpass\w*|exceed\w*|dominat\w*|rank\w*|optimal\w*|win\w*|won"
    r"|state[- ]of[- ]the[- ]art"
    # singling out: "identifying ReLU-activated GNNs … as particularly susceptible"
    r"|particularly|especially)\b",
    re.I,
)


def _superlative(word: str) -> bool:
    """Also those WordNet lists as words of their own ("lowest", "fastest", "greatest")."""
    low = word.lower()
    return superlative(low) or (low.endswith("est") and "adj" in parts_of_speech(low[:-3]))


def asks_rank(question: str) -> bool:
    """ "Which specific VLM turned out to be the most robust?", "which approach performs best?"."""
    for m in _WHICH.finditer(question):
        clause = _NOT_RANK.sub(" ", m.group(1))
        if any(w.lower() in _RANK or _superlative(w) for w in _WORD.findall(clause)):
            return True
    return False


def ranks(sentence: str) -> bool:
    """ "performs best", "is optimal", "more robust than", "err on larger companies"."""
    words = _WORD.findall(sentence)
    return _RANKS.search(sentence) is not None or any(w.lower() in COMPARATIVES or _superlative(w) for w in words)


def rank_needs(question: str) -> list[Need]:
    """A sentence about the thing in general does not say which one came out on top."""
    return [Need("a ranking", ranks, specific=True)] if asks_rank(question) else []
