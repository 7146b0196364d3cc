"""A list question about how other papers relate to one indexed paper: "Which papers cite X?",
"Which papers build on X?", "Does any other paper use X?". X's own abstract is no answer to it
(at conference scale "Which papers build on <a benchmark>?" was answered by the benchmark's own
abstract). Abstracts seldom cite, so what can be told is which other abstracts write X's name:
those are listed by the sentence that writes it, and none is said plainly."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rag.answer.overview import names_only, refers_back
from rag.answer.quoted import located, writing
from rag.index.snapshot import Snapshot
from rag.types import REFUSAL, Answer

_RELATION = (
    r"(?:cite[sd]?|build(?:s)?\s+(?:on|upon)|buil[dt]\s+(?:on|upon)|extend(?:s|ed)?|compare[sd]?\s+(?:against|with|to)"
    r"|use[sd]?|mention(?:s|ed)?|refer(?:s|red)?\s+to|improve[sd]?\s+(?:on|upon)|outperform(?:s|ed)?|beat(?:s)?"
    r"|evaluate[sd]?\s+on|follow(?:s|ed)?\s+up\s+on|adopt(?:s|ed)?|rel(?:y|ies|ied)\s+on|discuss(?:es|ed)?)"
)
_ITEMS = r"(?:papers?|works?|studies|abstracts?|articles?)"
_ASKS = re.compile(
    rf"^\s*(?:(?:which|what)\s+(?:other\s+)?{_ITEMS}|(?:does|do|did)\s+any\s+(?:other\s+)?{_ITEMS}"
    rf"|(?:are|is)\s+there\s+(?:any\s+)?(?:other\s+)?{_ITEMS}\s+(?:that|which))"
    rf"\s+(?:also\s+)?(?:have\s+|has\s+)?{_RELATION}\s+(?P<x>.+?)\s*[?.!]*\s*$",
    re.I,
)


@dataclass(frozen=True)
class Others:
    """The one indexed paper a question asks the other papers' relation to."""

    paper_id: str
    name: str


def others_asked(question: str, snap: Snapshot, discussed: Callable[[], list[str]] | None = None) -> Others | None:
    """The paper "Which papers cite X?" asks about, when X is one indexed paper's name (and
    nothing more: "Which papers use GENIE-style optimizers?" asks about a topic) or, in a
    conversation, refers back to the one paper `discussed` gives; else None."""
    m = _ASKS.match(question)
    if m is None:
        return None
    x = m.group("x")
    if discussed is not None and refers_back(x):
        pids = discussed()
        return Others(pids[0], snap.papers[pids[0]].label) if len(pids) == 1 else None
    # The question's own marks are no part of the name, nor a title's ("Can Language Models …?")
    named = [pid for pid in snap.named_in(question) if names_only(x, snap.papers[pid].label.rstrip("?!. "))]
    if len(named) != 1:
        return None
    return Others(named[0], snap.papers[named[0]].label)


def others_answer(question: str, others: Others, snap: Snapshot, allowed: list[str] | None) -> Answer:
    """The other papers whose abstracts write the paper's name, each by the sentence that writes
    it; none: the refusal, saying that the abstracts do not tell."""
    texts = snap.spaced_texts
    pool = texts if allowed is None else {p: texts[p] for p in allowed if p in texts}
    pids = [p for p in writing([others.name], pool) if p != others.paper_id]
    if not pids:
        note = (
            f"No other indexed abstract mentions {others.name}; abstracts seldom cite other work, so "
            "which papers relate to it cannot be told from them."
        )
        return Answer(question=question, answer=REFUSAL, refused=True, backend="extractive", latency_ms=0.0, note=note)
    a = located(question, [others.name], pids, snap)
    a.note = f"Other papers whose abstracts mention {others.name} (abstracts seldom cite other work). {a.note}"
    return a
