"""Explicit references to papers of an earlier answer: "the second one", "both", "the last two",
"the other one", "the former", a label or a distinctive title word. Pure functions."""

from __future__ import annotations

import re

_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3}
_NOUN = r"(?:one|paper|work|method|approach|model|study|option|benchmark|framework|technique|result|entry|item)"
_NTH = re.compile(rf"\bthe\s+(first|1st|second|2nd|third|3rd|fourth|4th|last|final)\s+{_NOUN}\b", re.I)
# "the last two (papers)", "the first two prove …", not "the first two stages": no other plural noun.
_FIRST_N = re.compile(rf"\bthe\s+(first|last)\s+(two|three)(?:\s+{_NOUN}s?\b|(?!\s+[a-z][\w-]*s\b))", re.I)
# "both", "both of them", "both papers"; not "both images and text".
_BOTH = re.compile(
    rf"\bboth\s+of\s+(?:them|these|those)\b(?!\s+[\w-]+\s+and\b)"
    rf"|\bboth\s+{_NOUN}s?\b(?!\s+and\b)"
    r"|\bboth\b(?!\s+of\b)(?!\s+[\w-]+(?:\s+[\w-]+)?\s+and\b)"
    r"|\beither\b(?!\s+[\w-]+(?:\s+[\w-]+)?\s+or\b)",
    re.I,
)
_FORMER = re.compile(r"\bthe\s+(former|latter)\b", re.I)
_OTHER = re.compile(rf"\b(?:the\s+other|the\s+remaining)\s+{_NOUN}s?\b", re.I)
_COUNT = {"two": 2, "three": 3}


def by_position(question: str, listed: list[str], singled: list[str]) -> list[str] | None:
    """The papers of `listed` (in answer order) the question points at by position, or None.
    `singled`: papers a later turn narrowed the conversation to (what "the other one" excludes)."""
    if len(listed) < 2:
        return None
    m = _FIRST_N.search(question)
    if m:
        n = _COUNT[m.group(2).lower()]
        return listed[:n] if m.group(1).lower() == "first" else listed[-n:]
    m = _NTH.search(question)
    if m:
        word = m.group(1).lower()
        k = len(listed) - 1 if word in ("last", "final") else _ORDINALS[word]
        return [listed[k]] if k < len(listed) else None
    m = _FORMER.search(question)
    if m:
        return [listed[0]] if m.group(1).lower() == "former" else [listed[-1]]
    if _OTHER.search(question) and singled:
        rest = [p for p in listed if p not in singled]
        return rest or None
    if _BOTH.search(question) and len(listed) == 2:
        return list(listed)
    return None


def by_name(question_stems: set[str], listed: list[str], name_stems: dict[str, set[str]]) -> list[str] | None:
    """The listed papers the question names by a distinctive word of their label or title: a
    stem that names exactly one of the listed papers. When several are named, the ones named
    by the most such words: in "the proxy groups paper: which fairness notions …" two title
    words name one paper, while "fairness" is the topic that may share a word with another."""
    hits: dict[str, int] = {}
    for pid in listed:
        own = name_stems.get(pid, set())
        others = set().union(*(name_stems.get(o, set()) for o in listed if o != pid))
        if question_stems & (own - others):
            hits[pid] = len(question_stems & (own - others))
    if not hits:
        return None
    best = max(hits.values())
    return [pid for pid in listed if hits.get(pid) == best]
