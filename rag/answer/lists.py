"""Asks for a list: of a given length ("which three kinds of …"), or of several things ("which
techniques did they try"), and how long a sentence's enumeration is."""

from __future__ import annotations

import re
from collections.abc import Callable

from rag.answer.counts import PAPER_HEADS
from rag.answer.need import Need

# "which three kinds of …", "what are the four stages": a list of that many things is asked
# (of two, no: "A and B" is in nearly every sentence, so it would point at none).
_LIST_ASK = re.compile(
    r"\b(?:which|what|name|list)\b(?:\s+(?:are|were|is|was))?(?:\s+the)?\s+(three|four|five|six|[3-6])\s+"
    r"(?:[\w-]+\s+){0,2}?[\w-]+s\b",
    re.I,
)
_COUNTS = {"three": 3, "four": 4, "five": 5, "six": 6}
_COUNT_WORDS = {n: w for w, n in _COUNTS.items()}
_ENUMERATOR = re.compile(r"\((?:\d|i{1,3}|iv|v|vi|[a-f])\)", re.I)
LIST_ITEM_WORDS = 5  # an item of an enumeration is a short phrase
_JOINS = re.compile(r"\b(?:and|or)\b", re.I)
_LIST_SPAN = re.compile(r"[;:()\u2014\u2013]|\s-{1,3}\s|---?")


def list_length(sentence: str) -> int:
    """The longest enumeration in a sentence: "(1) … (2) …", "A, B, and C", "A, B and C",
    "A and B". Inside one span between dashes, colons, semicolons or brackets, a list is a run
    of short comma-separated items closed by "and"/"or": "X, yet Y and Z" joins clauses, and a
    trailing "…, representing Z" does not end one."""
    best = max(1, len(_ENUMERATOR.findall(sentence)))
    for span in _LIST_SPAN.split(sentence):
        pieces = [p.split() for p in span.split(",")]
        best = max(best, 2 if _JOINS.search(span) else 1)
        for i in range(len(pieces)):
            for j in range(i + 1, len(pieces)):
                words = [w.lower() for w in pieces[j]]
                joint = next((k for k, w in enumerate(words) if w in ("and", "or")), None)
                if joint == 0:  # "…, and C"
                    best = max(best, j - i + 1)
                    break
                if joint is not None and joint <= LIST_ITEM_WORDS:  # "…, B and C"
                    best = max(best, j - i + 2)
                    break
                if not words or len(words) > LIST_ITEM_WORDS:
                    break
    return best


def _lists(count: int) -> Callable[[str], bool]:
    said = re.compile(rf"\b(?:{_COUNT_WORDS[count]}|{count})\b", re.I)  # "three hierarchical levels: …"
    return lambda sentence: list_length(sentence) >= count or said.search(sentence) is not None


# "which techniques did they try", "for which other schemes": several things are asked.
_PLURAL_ASK = re.compile(
    r"\b(?:which|what)\s+(?:other\s+|specific\s+|different\s+)?(?:[a-z][\w-]*\s+)?"
    rf"(?!{PAPER_HEADS})([a-z][\w-]*[^s\W]s)\s+"
    r"(?:did|do|does|are|were|can|could|is|was|have|has)\b",
    re.I,
)


def list_needs(question: str, *, names_asked: bool) -> list[Need]:
    """A list asked for: of a given length ("which three kinds of …"; its sentence leads from
    anywhere), or of several things ("which techniques did they try"; leads when close).
    Neither refuses: a paraphrased answer may not have the shape. `names_asked`: the question
    asks for named things, which their own need orders."""
    if lm := _LIST_ASK.search(question):
        count = _COUNTS.get(lm.group(1).lower()) or int(lm.group(1))
        return [Need(f"a list of {count}", _lists(count), required=False, specific=True)]
    if _PLURAL_ASK.search(question) and not names_asked:
        return [Need("a list", _lists_new(question), required=False)]
    return []


_WORD = re.compile(r"[\w-]+")


def _lists_new(question: str) -> Callable[[str], bool]:
    """A list of three or more things the question does not itself list: "What downstream uses
    are enabled by estimating redundancy, uniqueness and synergy?" is not answered by the
    sentence that enumerates redundancy, uniqueness and synergy."""
    asked = {w.lower() for w in _WORD.findall(question)} - {"and", "or"}

    def met(sentence: str) -> bool:
        return list_length(_WORD.sub(lambda m: "" if m.group(0).lower() in asked else m.group(0), sentence)) >= 3

    return met
