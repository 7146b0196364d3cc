"""Where a paper's code is: "Where can I find the code for X?", "Is X open source?", "Is the
code available?" (in a conversation). The paper is found as "What is X?" finds it; the answer is
its abstract's sentence that gives the code (a link, "the code is available", "we release our
code"), and a paper whose abstract gives none is refused with its record's link, never answered
with what the paper proposes (at 2,416 papers, 22 of 30 such questions were)."""

from __future__ import annotations

import re

from rag.answer.asks import GIVES_CODE
from rag.answer.cite import quoting_answer
from rag.answer.records import quoted_title
from rag.index.snapshot import Snapshot
from rag.types import Answer

MAX_PAPERS = 5  # a name several papers share: each one's code
GIVES = "The sentence says where the code is, or that it is released."

_THE_CODE = r"(?:the\s+|its\s+|their\s+|any\s+)?(?:source\s+)?code"
_ASKS = re.compile(
    r"^\s*(?:(?:can|could)\s+you\s+tell\s+me\s+|please\s+)?(?:"
    rf"where\s+(?:can|could|do|would|should)\s+(?:i|we|one)\s+(?:find|get|download|access|see)\s+{_THE_CODE}"
    r"(?:\s+(?:for|of|from)\s+(?P<a>[^?]+?))?"
    rf"|where\s+is\s+{_THE_CODE}(?:\s+(?:for|of)\s+(?P<b>[^?]+?))?"
    rf"|is\s+(?:there\s+)?{_THE_CODE}(?:\s+(?:for|of)\s+(?P<c>[^?]+?))?"
    r"(?:\s+(?:available|public|released|online|open[- ]sourced?))?"
    r"|(?:is|are)\s+(?P<d>[^?]+?)\s+open[- ]sourced?"
    r"|(?:did|do|does|have|has)\s+(?P<e>[^?]+?)\s+(?:release[sd]?|publish(?:ed)?|share[sd]?|open[- ]source[sd]?)"
    rf"\s+{_THE_CODE}"
    r")\s*[?.!]*\s*$",
    re.I,
)
_LINK = re.compile(r"https?://|\bgithub\b", re.I)
_CODE_WORD = re.compile(r"\bcode\b", re.I)
_MORE = re.compile(r"(?:\band\b|,)\s*(?:what|how|who|which|why|where|when|does|do|did|is|are|can)\b", re.I)
_AUTHORS = re.compile(r"^(?:the\s+)?(?P<x>.+?)\s+(?:authors|team)$", re.I)


def code_asked(question: str) -> str | None:
    """What the question asks the code of ("X", "" when it names nothing: the paper under
    discussion), when it asks where the code is and nothing else; else None."""
    m = _ASKS.match(question)
    if m is None:
        return None
    asked = next((g for g in m.groups() if g), "").strip()
    if _MORE.search(asked):  # "… the code for X and what does it compress?" asks more
        return None
    authors = _AUTHORS.match(asked)  # "Did the OLMo 2 authors release their code?"
    return authors.group("x") if authors else asked


def code_answer(question: str, paper_ids: list[str], snap: Snapshot) -> Answer:
    """Each paper's sentence that gives its code; none does: refused, with the records' links."""
    shown = paper_ids[:MAX_PAPERS]
    picked = []
    for pid in shown:
        # A link first, then a sentence naming the code ("fully open models" says less)
        given = sorted((q for _, q in snap.paper_quotes(pid) if GIVES_CODE.search(q)), key=_says_less)
        if given:
            picked.append((snap.papers[pid], given[:1]))
    a = quoting_answer(question, picked, GIVES)
    if a.refused:
        a.note = _none(shown, snap)
    return a


def _says_less(sentence: str) -> tuple[bool, bool]:
    return _LINK.search(sentence) is None, _CODE_WORD.search(sentence) is None


def _none(paper_ids: list[str], snap: Snapshot) -> str | None:
    """Which papers' abstracts give no code, and where their records point."""
    if not paper_ids:
        return None
    said = []
    for pid in paper_ids:
        p = snap.papers[pid]
        title = quoted_title(p)
        said.append(
            f"The abstract of {title} does not say where its code is"
            + (f"; its record links to {p.url}." if p.url else ".")
        )
    return " ".join(said)
