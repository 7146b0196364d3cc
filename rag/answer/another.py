"""A follow-up that asks for another paper ("Is there another training-free method for this?",
"Any other papers on X?"): the conversation's papers are what it sets aside, not what it asks
about. Answered from the conversation's papers, it named them again as the answer."""

from __future__ import annotations

import re

_ITEMS = r"(?:papers?|works?|studies|methods?|approach(?:es)?|abstracts?|articles?|models?|frameworks?|ones?)"
_ASKS = re.compile(
    r"^\s*(?:(?:is|are)\s+there|(?:do|does|did)\s+(?:you\s+know\s+of|any)|(?:can|could)\s+you\s+(?:find|suggest|recommend)"
    r"|(?:find|show|give|suggest|recommend)(?:\s+me)?|any|what\s+about|how\s+about)\s+"
    rf"(?:(?:an?|any|some)\s+)?(?:other|another|different|alternative)\b(?:\s+[\w-]+){{0,5}}?\s+{_ITEMS}\b",
    re.I,
)


def asks_for_another(question: str) -> bool:
    """The question asks whether papers other than those discussed exist."""
    return _ASKS.match(question) is not None


_OTHER = re.compile(r"\b(?:other|different|alternative)\s+", re.I)
_ANOTHER = re.compile(r"\banother\s+", re.I)


def as_asked_alone(question: str) -> str:
    """The question without its "other": asked of the papers not discussed, "another paper on
    X" is "a paper on X" ("another" is no word a paper writes)."""
    return _ANOTHER.sub("a ", _OTHER.sub("", question, count=1), count=1)
