"""An order of growth asked for ("what running time", "what regret"): the sentence that states
it in big-O notation leads."""

from __future__ import annotations

import re

from rag.answer.need import Need, matches

# "What running time / expected error / regret does it achieve?": the sentence that states it
# in big-O notation answers, wherever it ranks (a lower bound in Omega only when one is asked).
_ASKS_ORDER = re.compile(
    r"\b(?:what|which)\s+(?:[\w-]+\s+){0,3}?(?:running\s+time|time\s+complexity|complexity|error|regret|rate|bound)s?\b",
    re.I,
)
# A rate that is a setting or a share, not an order of growth ("what learning rate").
_NOT_ORDER = re.compile(
    r"\b(?:learning|success|error|hit|win|acceptance|dropout|sampling|frame|bit|data|compression|token|refusal)[- ]rates?\b",
    re.I,
)
_UPPER_ORDER = r"(?<![A-Za-z])O\s*\(|\\mathcal\{O\}|\\(?:tilde|widetilde)\{(?:O|\\mathcal\{O\})\}|\\Theta\b"
_ORDER = re.compile(_UPPER_ORDER)
_ANY_ORDER = re.compile(_UPPER_ORDER + r"|\\Omega\b")
_LOWER_BOUND = re.compile(r"\blower[- ]bounds?\b", re.I)


def order_needs(question: str, text: str) -> list[Need]:
    """An order of growth asked for (`_ASKS_ORDER`) of a paper that writes one: the sentence
    with it leads. It never refuses: a rate may be stated in words ("linearly")."""
    order = _ANY_ORDER if _LOWER_BOUND.search(question) else _ORDER
    if not _ASKS_ORDER.search(question) or _NOT_ORDER.search(question) or not order.search(text):
        return []
    return [Need("an order of growth", matches(order), required=False, specific=True)]
