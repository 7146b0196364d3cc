"""Explicit references to papers of an earlier answer: "the second one", "both", "the last two",
"the other one", "the former", a label or a distinctive title word. Pure functions."""

from __future__ import annotations

import re
from itertools import pairwise

from rag.answer.overview import KIND, subject
from rag.text.normalize import fold

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


def asks_by_position(question: str) -> bool:
    """The question points at papers of a list by position ("the second one", "the latter",
    "both"); "the other one" needs the papers singled out before, so it is not counted."""
    return any(p.search(question) for p in (_FIRST_N, _NTH, _FORMER, _BOTH))


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


# "Compare X and Y", "X vs. Y", "how do X and Y differ?", "Which is larger, X or Y?": the question asks about each paper it
# names. Not "does X beat Y?": abstracts seldom compare each other, so that one is left to the
# usual answerability check.
_COMPARES = re.compile(
    r"\b(?:compar\w*|versus|vs\b|differ(?!entia)\w*|distinguish\w*|contrast\w*|in common|similarit\w*|similar"
    r"|which (?:one|of)|which (?:is|was|has|does|did)(?= [^?]*\bor\b))\b",
    re.I,
)
_BETWEEN_NAMES = re.compile(
    r"^\s*(?:,\s*)?(?:(?:and|or|&|vs\.?|versus|with|to|against"
    r"|(?:differs?|compared?|contrast(?:s|ed)?)\s+(?:from|to|with|against))\s+)?(?:the\s+)?$",
    re.I,
)


# "What is X and what is Y?": the question asked again of the next name.
_ASKED_AGAIN = re.compile(
    r"^\s*[,;.?]?\s*(?:and\s+)?(?:what|how|who)(?:'s|\s+(?:is|are|was|were|does|do|did))?\s+(?:the\s+)?$", re.I
)
_AROUND_NAMES = re.compile(rf"(?:the\s+)?|(?:'s)?(?:\s+{KIND}s?)?", re.I)


def compares(question: str) -> bool:
    """The question has a word of comparison ("compare", "vs", "differ", "in common" …)."""
    return _COMPARES.search(question) is not None


def may_ask_of_each(question: str) -> bool:
    """The question may ask about each paper it names (`compared`): it compares, or is an
    overview question ("What do X and Y propose?")."""
    return compares(question) or subject(question, about=True) is not None


def compared(question: str, named: dict[str, str]) -> list[str]:
    """The papers a question compares or asks about each of, in the order it names them, or
    []: `named` maps each paper the question names to its label. Two or more labels, each
    naming one paper, written side by side ("X and Y", "X, Y or Z"), no other label beside
    them, and a word of comparison, or (no such word) the names are all that an overview
    question asks about ("What are X and Y?", "Tell me about X and Y", "What is X and what is Y?")."""
    question = fold(question)  # a name typed without its accents names the paper too
    by_label: dict[str, list[str]] = {}
    for pid, label in named.items():
        by_label.setdefault(fold(label), []).append(pid)
    if len(by_label) < 2 or any(len(p) > 1 for p in by_label.values()):
        return []
    spans: list[tuple[int, int, str]] = []
    for label in by_label:
        m = re.search(rf"(?<![\w-]){re.escape(label)}(?![\w-])", question)
        if m is None:
            return []
        spans.append((m.start(), m.end(), label))
    spans.sort()
    gaps = [question[a[1] : b[0]] for a, b in pairwise(spans)]
    if _COMPARES.search(question):
        ok = all(_BETWEEN_NAMES.match(g) for g in gaps)
    else:
        ok = _asks_of_each(question, spans[0][0], spans[-1][1], gaps)
    return [by_label[label][0] for _, _, label in spans] if ok else []


def _asks_of_each(question: str, start: int, end: int, gaps: list[str]) -> bool:
    """An overview question whose subject is the names alone, joined by "and" or commas or
    asked again ("What is X and what is Y?")."""
    s = subject(question, about=True)
    if s is None or question.find(s) < 0:
        return False
    a = question.find(s)
    joined = all(
        _ASKED_AGAIN.match(g) or re.fullmatch(r"\s*(?:,\s*)?(?:and|&)\s+(?:the\s+)?|\s*,\s*", g, re.I) for g in gaps
    )
    around = _AROUND_NAMES.fullmatch(question[a:start]) and _AROUND_NAMES.fullmatch(question[end : a + len(s)])
    return joined and a <= start and end <= a + len(s) and bool(around)
