"""Extractive answers: compose cited sentences from the selected evidence, or refuse."""

from __future__ import annotations

import logging
import time

import numpy as np

from rag.answer.accept import LOOSE, STRICT, Accepted, Bar, Trial, accept, listed, near_best
from rag.answer.cite import CitationBuilder, cited_answer, display_sentence
from rag.answer.clauses import ask_clause
from rag.answer.conversation import Focus, resolve_focus
from rag.answer.definite import describes, topicless
from rag.answer.described import also_fitting, described_runner_up
from rag.answer.described_as import described_paper
from rag.answer.evidence import is_referring
from rag.answer.language import language_note
from rag.answer.list_question import LIST_POOL, alternatives, asked_of, asks_for_papers, counted_note, is_multi
from rag.answer.pointed import (
    compared_focus,
    compared_with_discussed,
    names_another_paper,
    same_name_focus,
    same_name_note,
)
from rag.answer.question import check_question
from rag.answer.runner_up import named_runner_up, near_tie
from rag.answer.unsaid import unsaid_note
from rag.retrieval.retriever import Retrieval, Retriever
from rag.types import Answer, Closest, Query, SentenceCheck, Source

log = logging.getLogger(__name__)


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


def answer(query: Query, retriever: Retriever) -> Answer:
    """The extractive backend: every sentence of the answer is an evidence sentence, cited.

    In a conversation, a question that refers back ("what did it beat?") is answered from
    the paper(s) discussed most recently, or exactly those it points at ("the second one");
    a question that would be refused on its own gets a second try in that context too
    (follow-ups often read as unanswerable alone).
    """
    with retriever.pinned():
        t0 = time.perf_counter()
        # Empty or control characters only: one clear UsageError.
        query = query.model_copy(update={"question": check_question(query.question)})
        focus = compared_focus(query.question, retriever)
        if not focus.papers and query.history:
            focus = resolve_focus(query, retriever)
            focus = compared_with_discussed(query.question, focus, retriever) or focus
        if not focus.compared:
            focus = same_name_focus(query.question, focus, retriever) or focus
        from_question = focus.compared or focus.same_name
        standalone = bool(focus.papers) and not from_question and names_another_paper(query.question, focus, retriever)
        a, why = _in_context(query, focus, standalone, retriever)
        if not focus.papers or standalone:  # the question alone chose the paper
            listed = len({c.paper_id for c in a.citations})
            a.note = also_fitting(query.question, a, retriever) or counted_note(query.question, listed) or a.note
        if focus.same_name and not a.refused:
            a.note = same_name_note(focus.papers, retriever)
        elif focus.namesakes and not a.refused:
            a.note = same_name_note(focus.namesakes, retriever)
        if query.explain:
            a.explain = why + (a.explain or [])
        if a.refused:
            a.note = unsaid_note(query.question, focus.papers, retriever.snapshot) or a.note
        a.note = language_note(query.question, a.note)  # English-only corpus and model: say so
        a.latency_ms = round((time.perf_counter() - t0) * 1000, 2)
        return a


def _in_context(query: Query, focus: Focus, standalone: bool, retriever: Retriever) -> tuple[Answer, list[str]]:
    """Answer a question of a conversation. One that refers back, or points at papers, is
    answered from them; one that does not is still answered from the paper under discussion
    when that paper answers it on its own merits (with thousands of papers indexed, a
    question's own best match is often a stranger); else it stands alone, with a last,
    lenient try in the conversation's context before refusing."""
    if not focus.papers or standalone:
        return compose(query, [], retriever), []
    if focus.same_name:  # the papers of that name that answer on their own merits, else each
        a = compose(query, focus.papers, retriever, STRICT)
        return (a if not a.refused else compose(query, focus.papers, retriever)), [f"same name: {focus.why}"]
    if focus.explicit or is_referring(query.question) or _leans_on_focus(query, focus, retriever):
        a = compose(query, focus.papers, retriever, compared=focus.compared, discussed=focus.discussed)
        return a, [f"follow-up: {focus.why}"]
    a = compose(query, focus.papers, retriever, STRICT, discussed=focus.discussed)
    if not a.refused:
        return a, [f"in the conversation's context: {focus.why}"]
    # A stranger takes over the conversation only when it clearly answers: a question that leans
    # on the conversation ("the gains over the strongest competing method") shares words with
    # thousands of abstracts, and one of them always covers them loosely. Such a loose match
    # is refused, and not retried in the conversation's context either: that paper was just
    # found not to answer, and a lenient retry would cite it for the stranger's topic.
    a = compose(query, [], retriever, Bar(strong=True))
    if a.refused and compose(query, [], retriever).refused:
        retry = compose(query, focus.papers, retriever, Bar(anchored=True), discussed=focus.discussed)
        if not retry.refused:
            return retry, [f"answered in the context of the conversation: {focus.why}"]
    return a, []


def _leans_on_focus(query: Query, focus: Focus, retriever: Retriever) -> bool:
    """The question has no topic of its own, or names a thing of the one paper under discussion
    by a definite description (`definite`)."""
    vocab = retriever.snapshot.vocabulary
    if topicless(query.question, vocab):
        return True
    if len(focus.papers) != 1:
        return False
    last = next((str(t.get("content", "")) for t in reversed(query.history or []) if t.get("role") == "assistant"), "")
    return describes(query.question, vocab.paper_stems.get(focus.papers[0], set()), last, vocab)


def _asked_of_named(question: str, retriever: Retriever) -> bool:
    """A list question asked of a paper it names (`list_question.asked_of`); looked up only for list
    questions."""
    snap = retriever.snapshot
    return asked_of(question, [snap.papers[p].label for p in snap.named_in(question) if p in snap.papers])


def compose(
    query: Query,
    focus: list[str],
    retriever: Retriever,
    bar: Bar = LOOSE,
    *,
    compared: bool = False,
    discussed: list[str] | None = None,
) -> Answer:
    """Retrieve, select evidence per candidate paper, keep those that clear `bar`, cite them.
    `compared`: the question compares the `focus` papers by name (`references.compared`);
    `discussed`: the conversation's papers, whose names the question may use beside its focus
    ("Setting FAST aside, what does the other one …?")."""
    multi = is_multi(query.question) and not focus and not _asked_of_named(query.question, retriever)
    # A "which papers" list is drawn from a deeper pool: at conference scale a topic has dozens.
    deep = multi and asks_for_papers(query.question)
    pool = max(query.top_k, LIST_POOL) if deep else query.top_k
    vecs = _query_vectors(query, focus, multi, retriever)
    r = _retrieve(query.model_copy(update={"top_k": pool}), focus, retriever, vecs)
    why = _explain(r, query.top_k) if query.explain else []
    ask_vec = None if multi else vecs.get(ask_clause(query.question))
    n = pool if deep else None
    accepted = accept(
        query.question,
        r,
        focus,
        multi,
        query.top_k,
        retriever,
        why,
        bar=bar,
        n=n,
        ask_vec=ask_vec,
        compared=compared,
        discussed=discussed or [],
    )
    if not multi and not focus:
        trial = Trial(query, r, retriever, bar, why, ask_vec)
        accepted = near_tie(trial, accepted)
        accepted = accepted or named_runner_up(trial)
        accepted = described_runner_up(trial, accepted)
        accepted = described_paper(trial, accepted)
    if multi:
        accepted = listed(accepted, *_by_alternative(query, retriever, why, vecs), deep=deep)
    a = _build(query.question, accepted, multi, retriever)
    ranked = {h.paper_id for h in r.hits}
    hits = r.hits + [h for h, _, _ in accepted if h.paper_id not in ranked]
    a.sources = [Source(paper_id=h.paper_id, score=h.score) for h in hits]
    if a.refused:
        a.closest = [Closest(paper_id=h.paper_id, label=h.label, score=h.score) for h in r.hits[:3]]
    a.explain = why if query.explain else None
    return a


def _retrieval_text(question: str, focus: list[str], retriever: Retriever) -> str:
    snap = retriever.snapshot
    return question if not focus else f"{question} {' '.join(snap.papers[p].label for p in focus)}"


def _query_vectors(query: Query, focus: list[str], multi: bool, retriever: Retriever) -> dict[str, np.ndarray]:
    """Every text the answer embeds, in one model call: what is retrieved with, and the ask
    clause (one paper) or the alternatives (a list). The call, not the text, is most of the
    cost: a question and its ask clause apart took twice as long."""
    extra = alternatives(query.question) if multi else [ask_clause(query.question)]
    return retriever.embed_queries([_retrieval_text(query.question, focus, retriever), *extra], cache=query.cache)


def _retrieve(query: Query, focus: list[str], retriever: Retriever, vecs: dict[str, np.ndarray]) -> Retrieval:
    """Ranked papers; in a follow-up the referred-to papers lead."""
    q = _retrieval_text(query.question, focus, retriever)
    qv = vecs.get(q)
    r = retriever.retrieve(
        q, top_k=query.top_k, papers=query.papers, files=query.files, cache=query.cache, query_vec=qv
    )
    hits = r.hits
    if focus:
        hits = sorted(hits, key=lambda h: (h.paper_id not in focus, -h.score))
        # A referred-to paper missing from the pool still leads the sources.
        missing = [p for p in focus if p not in {h.paper_id for h in hits}]
        if missing:
            hits = retriever.retrieve(q, top_k=query.top_k, papers=missing, query_vec=r.query_vec).hits + hits
    return Retrieval(hits, r.query_vec, r.sentence_rank)


def _by_alternative(
    query: Query, retriever: Retriever, why: list[str], vecs: dict[str, np.ndarray]
) -> tuple[Accepted, bool]:
    """Papers for the alternatives of a "which papers … A or B?" question, each kept by its
    alternative's own ratio: one that answers its alternative, or one only on its theme that
    is on the theme of the whole question too (a split inside a phrase finds strangers).
    The flag: some paper answers an alternative on its own."""
    runs: list[Accepted] = []
    for sub in alternatives(query.question):
        why.append(f"alternative: {sub}")
        r = _retrieve(query.model_copy(update={"question": sub}), [], retriever, vecs)
        runs.append(near_best(accept(sub, r, [], True, query.top_k, retriever, why)))
    strong = [a for run in runs for a in run if a[2].answerable()]
    alone = bool(strong)
    loose = sorted({a[0].paper_id for run in runs for a in run} - {a[0].paper_id for a in strong})
    if loose:
        qv = vecs.get(query.question)
        whole = retriever.retrieve(query.question, top_k=len(loose), papers=loose, cache=query.cache, query_vec=qv)
        why.append("the alternatives' other papers, judged on the whole question:")
        strong += accept(query.question, whole, [], True, len(loose), retriever, why, n=len(loose))
    return sorted(strong, key=lambda a: -a[2].score), alone


def _build(question: str, accepted: Accepted, multi: bool, retriever: Retriever) -> Answer:
    """The cited answer text (one line per paper for "which papers" questions), or the refusal."""
    builder = CitationBuilder()
    lines: list[str] = []
    checks: list[SentenceCheck] = []
    for h, ev, _ in accepted:
        paper = retriever.snapshot.papers[h.paper_id]
        parts = []
        for _, quote, _ in ev:
            n = builder.cite(paper, quote)
            parts.append(f"{display_sentence(quote)} [{n}]")
            checks.append(
                SentenceCheck(text=display_sentence(quote), citations=[n], supported=True, evidence_quote=quote)
            )
        lines.append(f"- {paper.label}: {' '.join(parts)}" if multi else " ".join(parts))
    return cited_answer(question, lines, builder, checks)
