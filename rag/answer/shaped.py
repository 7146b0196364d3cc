"""Small parts the answer routes (`rag.answer.routes`) share: a refusal that says why, a note
put first, `sources` filled up, and the quoted phrases a question asks word for word."""

from __future__ import annotations

from rag.answer.quoted import quoted_phrases, unquoted, writing
from rag.retrieval.retriever import Retriever
from rag.types import REFUSAL, Answer, Query, Source

MIN_SOURCES = 10  # `sources` lists at least this many papers (or all)


def refused(query: Query, note: str) -> Answer:
    """The refusal, saying why (`note`): what the question asks of is not indexed."""
    return Answer(
        question=query.question, answer=REFUSAL, refused=True, backend="extractive", latency_ms=0.0, note=note
    )


def lead_note(a: Answer, said: str) -> None:
    """Put what a route did (how it read or narrowed the question) before the answer's note."""
    a.note = f"{said} {a.note}" if a.note else said


def asked_phrases(question: str, retriever: Retriever) -> list[str]:
    """The quoted phrases asked word for word: none in a question that names a paper (by its
    label, or a quoted title), which is then about that paper."""
    phrases = quoted_phrases(question)
    snap = retriever.snapshot
    rest = unquoted(question)  # a name inside the quotes is part of the phrase
    return [] if not phrases or snap.named_in(rest) or snap.referenced_in(question) else phrases


def padded(a: Answer, query: Query, retriever: Retriever) -> Answer:
    """An answer from a few papers, its `sources` filled up with the question's closest other
    papers (at least `MIN_SOURCES`, as every answer lists)."""
    if len(a.sources) < MIN_SOURCES:
        seen = {s.paper_id for s in a.sources}
        hits = retriever.retrieve(
            query.question, top_k=MIN_SOURCES, papers=query.papers, files=query.files, cache=query.cache
        ).hits
        a.sources += [Source(paper_id=h.paper_id, score=h.score) for h in hits if h.paper_id not in seen]
        a.sources = a.sources[: max(MIN_SOURCES, len(seen))]
    return a


def writing_papers(query: Query, phrases: list[str], retriever: Retriever) -> list[str]:
    """The papers (of those the query allows) whose abstracts write every phrase word for word."""
    texts = retriever.snapshot.spaced_texts
    return writing(phrases, texts if query.papers is None else {p: texts[p] for p in query.papers if p in texts})
