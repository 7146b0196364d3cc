""" "Who introduced X?" of an X the abstract credits to others ("… identity testing introduced by
Valiant and Valiant (2014)"): the abstract's sentence answers, not the paper's record, whose
authors did not introduce it. Of an X the abstract only builds on ("The needle-in-a-haystack
test … has been widely adopted", "based on the well-established … principle") and credits to no
one, or does not write at all (a stranger sharing one rare word of it), nothing answers: its
authors did not introduce it either."""

from __future__ import annotations

import re

from rag.answer.background import is_background
from rag.answer.cite import CitationBuilder, cited_answer, display_sentence
from rag.index.snapshot import Snapshot
from rag.text.normalize import content_stems
from rag.types import REFUSAL, Answer, Closest, Paper, SentenceCheck

_ASKS_ORIGIN = re.compile(
    r"^\s*who\s+(?:first\s+)?(?:proposed|introduced|developed|created|invented|coined|defined)\b", re.I
)
_CREDITS = re.compile(
    r"\b(?:introduced|proposed|developed|created|invented|pioneered|coined|defined|formulated)\s+by\s+(?-i:[A-Z])"
    r"|\bdue\s+to\s+(?-i:[A-Z][a-z])",
    re.I,
)

# Of the words of what is asked, this share must be in a paper credited with it (one of four may
# be put otherwise); fewer, and the paper is a stranger sharing a rare one.
WRITTEN_SHARE = 0.75
# "based on the well-established drop-out principle", "builds on classical …": what follows is
# earlier work the paper uses, however its sentence is voiced.
_BUILT_ON = re.compile(
    r"\b(?:based\s+on|builds?\s+(?:up)?on|built\s+(?:up)?on|inspired\s+by|following|extend(?:s|ing)?|revisit(?:s|ing)?"
    r"|well-established|well-known|established|classical|classic|celebrated|seminal|popular|widely[- ]used)"
    r"\s+(?:(?:the|a|an)\s+)?(?:[\w-]+\s+){0,2}$",
    re.I,
)
_LOOK_BACK = 60  # characters before what is asked read for such words


def credited(question: str, asked: str, inner: Answer, snap: Snapshot) -> Answer | None:
    """The answer to "who introduced <asked>?" from the sentence of the paper `inner` (the
    answer to "What is <asked>?") cites first that writes every word of `asked` and credits it
    to someone; the refusal when every sentence that writes it is on earlier work; None when the
    question asks something else, or the paper may have introduced it."""
    stems = set(content_stems(asked))
    if not stems or not inner.citations or _ASKS_ORIGIN.match(question) is None:
        return None
    paper = snap.papers[inner.citations[0].paper_id]
    quote = next(
        (q for _, q in snap.paper_quotes(paper.paper_id) if _CREDITS.search(q) and stems <= set(content_stems(q))),
        None,
    )
    if quote is None:
        return _not_theirs(question, asked, stems, paper, inner, snap)
    builder = CitationBuilder()
    n = builder.cite(paper, quote)
    text = display_sentence(quote)
    check = SentenceCheck(text=text, citations=[n], supported=True, evidence_quote=quote)
    return cited_answer(question, [f"{text} [{n}]"], builder, [check], sources=inner.sources)


def _not_theirs(
    question: str, asked: str, stems: set[str], paper: Paper, inner: Answer, snap: Snapshot
) -> Answer | None:
    """The refusal when `asked` is not in the paper's title or label and the paper does not
    write it (a stranger that shares a rare word of it), or writes it only as earlier work; else
    None (the paper may have introduced it: its record answers)."""
    own = set(content_stems(f"{paper.title or ''} {paper.label}"))
    if stems <= own:
        return None
    quotes = [q for _, q in snap.paper_quotes(paper.paper_id)]
    written = own.union(*(content_stems(q) for q in quotes))
    if sum(s in written for s in stems) < WRITTEN_SHARE * len(stems):
        return _refusal(question, f"No indexed abstract says who introduced {asked.strip()}.", inner, snap)
    writing = [q for q in quotes if stems <= set(content_stems(q))]
    if writing and all(is_background(q) or _built_on(q, asked) for q in writing):
        note = f"The abstracts do not say who introduced {asked.strip()}; {paper.label} builds on it."
        return _refusal(question, note, inner, snap)
    return None


def _built_on(sentence: str, asked: str) -> bool:
    """The sentence writes `asked` right after words that make it earlier work the paper uses."""
    phrase = re.sub(r"^(?:the|a|an)\s+", "", asked.strip(), flags=re.I).lower()
    at = sentence.lower().find(phrase) if phrase else -1
    return at > 0 and _BUILT_ON.search(sentence[max(0, at - _LOOK_BACK) : at]) is not None


def _refusal(question: str, note: str, inner: Answer, snap: Snapshot) -> Answer:
    closest = [Closest(paper_id=s.paper_id, label=snap.papers[s.paper_id].label, score=s.score) for s in inner.sources]
    return Answer(
        question=question,
        answer=REFUSAL,
        refused=True,
        backend="extractive",
        latency_ms=0.0,
        note=note,
        sources=inner.sources,
        closest=closest[:3],
    )
