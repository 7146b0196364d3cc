"""A paper's whole abstract: "Show me the abstract of X", "What is the full abstract of X?",
"Give me X's abstract". It was refused, or answered by two of its sentences; the answer is now
every sentence of the abstract, in order, each cited, so the paper shows them all highlighted."""

from __future__ import annotations

import re

from rag.answer.cite import quoting_answer
from rag.index.snapshot import Snapshot
from rag.types import Answer

MAX_PAPERS = 3  # a name several papers share: each one's abstract
WHOLE = "The abstract's own sentence, in its order."

_ABSTRACT = r"(?:the\s+)?(?:full\s+|whole\s+|complete\s+|entire\s+|original\s+)?abstract"
_ASKS = re.compile(
    r"^\s*(?:(?:can|could)\s+you\s+|please\s+)?(?:"
    rf"(?:show|give|print|display|read|paste|send)\s+(?:me\s+)?{_ABSTRACT}\s+(?:of|for)\s+(?P<a>[^?]+?)"
    rf"|what(?:'s|\s+is)\s+{_ABSTRACT}\s+(?:of|for)\s+(?P<b>[^?]+?)"
    rf"|(?:show|give|print|display|read|paste|send)\s+(?:me\s+)?(?P<c>[^?]+?)['’]s\s+(?:full\s+|whole\s+|complete\s+)?abstract"
    rf"|(?:show|give|print|display|read|paste|send)\s+(?:me\s+)?(?:the\s+|its\s+|their\s+)(?:full\s+|whole\s+|complete\s+)?abstract"
    r")\s*[?.!]*\s*$",
    re.I,
)


def abstract_asked(question: str) -> str | None:
    """What the question asks the whole abstract of ("X"; "" for "Show me the abstract", the
    paper under discussion), or None when it asks something else."""
    m = _ASKS.match(question)
    if m is None:
        return None
    return next((g for g in m.groups() if g), "").strip()


def abstract_answer(question: str, paper_ids: list[str], snap: Snapshot) -> Answer:
    """Each paper's abstract, sentence by sentence, each sentence cited."""
    picked = [(snap.papers[pid], [q for _, q in snap.paper_quotes(pid)]) for pid in paper_ids[:MAX_PAPERS]]
    return quoting_answer(question, picked, WHOLE)
