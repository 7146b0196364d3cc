"""Extractive answers: compose cited sentences from the selected evidence, or refuse."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from rag.cite import CitationBuilder, display_sentence
from rag.evidence import (
    EVIDENCE_MAX,
    MULTI_CONTRIBUTION_BONUS,
    MULTI_MAX,
    MULTI_RATIO,
    MULTI_SENTENCES,
    Features,
    Vocabulary,
    features,
    is_multi,
    is_referring,
    select_evidence,
)
from rag.language import language_note
from rag.question import check_question
from rag.retrieve import Retrieval, Retriever
from rag.text import words
from rag.types import REFUSAL, Answer, Closest, Hit, Paper, SentenceCheck, Source

log = logging.getLogger(__name__)

__all__ = ["BACKENDS", "BackendUnavailable", "answer", "ask", "is_multi", "is_referring"]


def history_context(history: list[dict[str, object]]) -> tuple[str, list[str]]:
    """Text of the earlier turns and any paper ids they carry."""
    texts: list[str] = []
    ids: list[str] = []
    for turn in history[-4:]:
        content = turn.get("content")
        if isinstance(content, str):
            texts.append(content)
        pids = turn.get("paper_ids")
        if isinstance(pids, list):
            ids += [p for p in pids if isinstance(p, str)]
    return " ".join(texts), list(dict.fromkeys(ids))


def _explain(r: Retrieval, top_k: int) -> list[str]:
    lines = []
    for h in r.hits[:top_k]:
        lines.append(
            f"{h.paper_id} [{h.label}] fused={h.score:.4f} paper_dense={h.dense:.3f} paper_bm25={h.bm25:.2f} "
            f"best_sentence_rrf={h.sentence_score:.4f} best_sentence_cos={h.best_cosine:.3f}"
        )
        for s in h.sentences[:2]:
            d = f"{s.dense:.3f}" if s.dense is not None else "-"
            b = f"{s.bm25:.2f}" if s.bm25 is not None else "-"
            lines.append(f"    sentence {s.sent_index}: dense={d} bm25={b} rrf={s.fused:.4f} :: {s.text[:90]}")
    return lines


BACKENDS = ("extractive", "local", "openai")


class BackendUnavailable(RuntimeError):
    """The requested backend cannot run here (not installed or not configured)."""


def ask(
    question: str,
    *,
    backend: str = "extractive",
    retriever: Retriever,
    llm: Any = None,
    on_sentence: Callable[[str], None] | None = None,
    llm_options: dict[str, Any] | None = None,
    **kw: Any,
) -> Answer:
    """The one entry point `rag ask`, `rag chat`, `rag eval` and the app share.

    `on_sentence` receives the answer sentence by sentence as each is released (verified).
    """
    if backend != "extractive" and llm is None:
        raise BackendUnavailable(f"backend {backend!r} is not configured")
    with retriever.pinned():  # one consistent index view for the whole answer
        if backend == "extractive":
            a = answer(question, retriever=retriever, **kw)
            if on_sentence:
                for line in a.answer.splitlines():
                    on_sentence(line)
            return a
        from rag.generate import llm_answer

        return llm_answer(
            question,
            llm=llm,
            retriever=retriever,
            backend=backend,
            on_sentence=on_sentence,
            **(llm_options or {}),
            **kw,
        )


def answer(
    question: str,
    *,
    retriever: Retriever,
    history: list[dict[str, object]] | None = None,
    top_k: int = 5,
    papers: list[str] | None = None,
    files: list[str] | None = None,
    explain: bool = False,
    cache: bool = True,
) -> Answer:
    """The extractive backend: every sentence of the answer is an evidence sentence, cited.

    In a conversation, a question that refers back ("what did it beat?") is answered from
    the paper(s) discussed before; a question that would be refused on its own gets a
    second try in that context too (follow-ups often read as unanswerable alone).
    """
    with retriever.pinned():
        return _answer(question, retriever, history, top_k, papers, files, explain, cache)


def _answer(
    question: str,
    retriever: Retriever,
    history: list[dict[str, object]] | None,
    top_k: int,
    papers: list[str] | None,
    files: list[str] | None,
    explain: bool,
    cache: bool,
) -> Answer:
    t0 = time.perf_counter()
    question = check_question(question)  # empty or control characters only: one clear UsageError
    why: list[str] = []
    names_one = _names_a_paper(question, retriever.snapshot.papers)
    referring = bool(history) and is_referring(question) and not names_one
    focus = followup_focus(history, retriever, papers, files, cache) if referring else []
    if focus:
        why.append(f"follow-up: refers back to {focus}")
    a = compose(question, focus, retriever, top_k=top_k, papers=papers, files=files, explain=explain, cache=cache)
    if a.refused and history and not focus and not names_one:
        focus = followup_focus(history, retriever, papers, files, cache)
        if focus:
            retry = compose(
                question, focus, retriever, top_k=top_k, papers=papers, files=files, explain=explain, cache=cache
            )
            if not retry.refused:
                why.append(f"answered in the context of the conversation: {focus}")
                a = retry
    if explain:
        a.explain = why + (a.explain or [])
    a.note = language_note(question, a.note)  # English-only corpus and model: say so
    a.latency_ms = round((time.perf_counter() - t0) * 1000, 2)
    return a


def followup_focus(
    history: list[dict[str, object]] | None,
    retriever: Retriever,
    papers: list[str] | None,
    files: list[str] | None,
    cache: bool,
) -> list[str]:
    """The paper(s) the conversation is about: ids carried by the turns, else the best
    match for the earlier turns' text."""
    if not history:
        return []
    text, ids = history_context(history)
    focus = [p for p in ids if p in retriever.snapshot.papers]
    if not focus and text.strip():
        ctx = retriever.retrieve(text, top_k=1, papers=papers, files=files, cache=cache)
        focus = [ctx.hits[0].paper_id] if ctx.hits else []
    return focus


def compose(
    question: str,
    focus: list[str],
    retriever: Retriever,
    *,
    top_k: int,
    papers: list[str] | None,
    files: list[str] | None,
    explain: bool,
    cache: bool,
) -> Answer:
    snap = retriever.snapshot
    vocab = _vocab(retriever)
    query = question if not focus else f"{question} {' '.join(snap.papers[p].label for p in focus)}"
    r = retriever.retrieve(query, top_k=top_k, papers=papers, files=files, cache=cache)
    hits = r.hits
    if focus:
        hits = sorted(hits, key=lambda h: (h.paper_id not in focus, -h.score))
        # A referred-to paper missing from the pool still leads the sources.
        missing = [p for p in focus if p not in {h.paper_id for h in hits}]
        if missing:
            hits = retriever.retrieve(query, top_k=top_k, papers=missing, cache=cache).hits + hits
    why = _explain(Retrieval(hits, r.query_vec), top_k) if explain else []
    multi = is_multi(question) and not focus
    candidates = hits[: len(focus)] if focus else hits[: min(top_k, 6) if multi else 1]
    accepted: list[tuple[Hit, list[tuple[str, str, float]], Features]] = []
    for h in candidates:
        ev = select_evidence(
            question,
            snap.papers[h.paper_id],
            retriever,
            r.query_vec,
            max_sentences=MULTI_SENTENCES if multi else EVIDENCE_MAX,
            contribution_bonus=MULTI_CONTRIBUTION_BONUS if multi else 0.0,
        )
        f = features(question, h, [q for _, q, _ in ev], vocab, followup=bool(focus))
        why.append(f"answerability {h.paper_id}: {f}")
        if f.answerable():
            accepted.append((h, ev, f))
    if accepted and multi:
        best = max(a[2].score for a in accepted)
        accepted = [a for a in accepted if a[2].score >= MULTI_RATIO * best][:MULTI_MAX]
    builder = CitationBuilder()
    lines: list[str] = []
    checks: list[SentenceCheck] = []
    for h, ev, _ in accepted:
        paper = snap.papers[h.paper_id]
        parts = []
        for _, quote, _ in ev:
            n = builder.cite(paper, quote)
            parts.append(f"{display_sentence(quote)} [{n}]")
            checks.append(
                SentenceCheck(text=display_sentence(quote), citations=[n], supported=True, evidence_quote=quote)
            )
        lines.append(f"- {paper.label}: {' '.join(parts)}" if multi else " ".join(parts))
    refused = not accepted
    return Answer(
        question=question,
        answer=REFUSAL if refused else "\n".join(lines),
        refused=refused,
        backend="extractive",
        latency_ms=0.0,
        citations=builder.citations,
        sentences=checks,
        grounding=1.0,
        answer_source="extractive",
        sources=[Source(paper_id=h.paper_id, score=h.score) for h in hits],
        closest=[Closest(paper_id=h.paper_id, label=h.label, score=h.score) for h in hits[:3]] if refused else [],
        explain=why if explain else None,
    )


def _names_a_paper(question: str, papers: dict[str, Paper]) -> bool:
    toks = set(words(question))
    return any(p.label.lower() in toks for p in papers.values() if " " not in p.label)


def _vocab(retriever: Retriever) -> Vocabulary:
    """Term statistics of the current snapshot, computed once per snapshot."""
    snap = retriever.snapshot
    vocab = snap.derived.get("vocab")
    if vocab is None:
        vocab = snap.derived.setdefault("vocab", Vocabulary(snap.papers))
    return vocab  # type: ignore[no-any-return]
