""" "Who introduced X?" of an X the abstract credits to others ("… identity testing introduced by
Valiant and Valiant (2014)"): the abstract's sentence answers, not the paper's record, whose
authors did not introduce it."""

from __future__ import annotations

import re

from rag.answer.cite import CitationBuilder, cited_answer, display_sentence
from rag.index.snapshot import Snapshot
from rag.text.normalize import content_stems
from rag.types import Answer, SentenceCheck

_ASKS_ORIGIN = re.compile(
    r"^\s*who\s+(?:first\s+)?(?:proposed|introduced|developed|created|invented|coined|defined)\b", re.I
)
_CREDITS = re.compile(
    r"\b(?:introduced|proposed|developed|created|invented|pioneered|coined|defined|formulated)\s+by\s+(?-i:[A-Z])"
    r"|\bdue\s+to\s+(?-i:[A-Z][a-z])",
    re.I,
)


def credited(question: str, asked: str, inner: Answer, snap: Snapshot) -> Answer | None:
    """The answer to "who introduced <asked>?" from the sentence of the paper `inner` (the
    answer to "What is <asked>?") cites first that writes every word of `asked` and credits it
    to someone; None when the question asks something else or no sentence does."""
    stems = set(content_stems(asked))
    if not stems or not inner.citations or _ASKS_ORIGIN.match(question) is None:
        return None
    paper = snap.papers[inner.citations[0].paper_id]
    quote = next(
        (q for _, q in snap.paper_quotes(paper.paper_id) if _CREDITS.search(q) and stems <= set(content_stems(q))),
        None,
    )
    if quote is None:
        return None
    builder = CitationBuilder()
    n = builder.cite(paper, quote)
    text = display_sentence(quote)
    check = SentenceCheck(text=text, citations=[n], supported=True, evidence_quote=quote)
    return cited_answer(question, [f"{text} [{n}]"], builder, [check], sources=inner.sources)
