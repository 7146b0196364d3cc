"""Questions about the work a paper builds on ("What do prior approaches assume?", "What
formalism has recently been proposed for …?") and the sentences that describe it. An abstract
states its background first and its own findings later, so the evidence is ordered with a
prior against opening sentences; for such a question the background sentences are what it
asks for, and they lead instead. Pure functions of the text."""

from __future__ import annotations

import re
from functools import lru_cache

from rag.answer.clauses import ask_clause

# Tuned on the dev sets (dev, dev_fresh, short_dev, dev_corpus) at 57 and 2,416 papers: any
# bonus from 0.3 to 0.8 gains the same facts and loses none; 0.5 is the middle.
BACKGROUND_BONUS = 0.5

# The ask is about earlier work: "prior methods", "what has recently been proposed",
# "how effective have they been so far", "before this paper".
_ASKS = re.compile(
    r"\b(?:prior|previous(?:ly)?|existing|earlier|traditional(?:ly)?|conventional(?:ly)?|historically"
    r"|so\s+far|to\s+date|until\s+now|recently|before\s+(?:this|the|it|these|[A-Z][\w-]*))\b",
    re.I,
)
# … unless the earlier work is only what the paper is compared with: "beat existing methods",
# "how does it stack up against earlier approaches" ask for the paper's own result.
_COMPARED = re.compile(
    r"\b(?:beats?|outperform\w*|than|over|against|compared\s+(?:to|with)|versus|vs\.?|relative\s+to|surpass\w*"
    r"|exceed\w*|upon)\s+(?:(?:the|all|many|most|several|other|two|three)\s+)?(?:[\w-]+\s+)?$",
    re.I,
)
_LOOK_BACK = 60  # characters before a cue read for a comparison

# A sentence on earlier work or the field's state, not on the paper's own.
_BACKGROUND = re.compile(
    r"\b(?:existing|prior|previous(?:ly)?|earlier|traditional(?:ly)?|conventional(?:ly)?|recent(?:ly)?"
    r"|historically|typically|commonly|popular|widely|so\s+far|to\s+date|ha(?:ve|s)\s+been|remains?)\b",
    re.I,
)
# The paper's own voice ("we propose", "our results", "this paper shows"); evidence selection
# also reads it, for a sentence that says what the paper itself does.
OWN_VOICE = re.compile(r"\b(?:we|our|this (?:paper|work|study))\b", re.I)


@lru_cache(maxsize=256)  # asked for every candidate paper of one answer
def asks_background(question: str) -> bool:
    """The question's ask is about the work the paper builds on, not compared with."""
    ask = ask_clause(question)
    return any(not _COMPARED.search(ask[max(0, m.start() - _LOOK_BACK) : m.start()]) for m in _ASKS.finditer(ask))


def is_background(sentence: str) -> bool:
    """The sentence describes earlier work or the field's state, in no voice of the paper's own."""
    return _BACKGROUND.search(sentence) is not None and OWN_VOICE.search(sentence) is None
