"""When the first paper does not answer a one-paper question: a runner-up that the question is
about after all. Either it wins a near tie for first place by using clearly more of the
question's words, or the question asks what a name is and only it (of the first few) writes that
name."""

from __future__ import annotations

from dataclasses import replace

from rag.answer.accept import Accepted, Trial, accept, answers_alone, pool_rare_stems
from rag.answer.names import (
    NAME_MAX_PAPERS,
    asks_what_name_is,
    defines_asked_name,
    unknown_names,
    writes_in_capitals,
    written,
)
from rag.answer.ties import REFUSED_TIE_MARGIN, REFUSED_TIE_RATIO, REFUSED_TIE_TERMS, prefer_covering
from rag.retrieval.retriever import Retrieval
from rag.text.normalize import squash


def near_tie(t: Trial, accepted: Accepted) -> Accepted:
    """The paper that wins a near tie for first place (see `prefer_covering`), if it answers:
    clearly (its best sentence close, see `Bar.strong`) when the first paper does not. Short of
    that bar, a tie turned refusals of questions no paper answers into answers from a runner-up
    that has a detail of the kind asked for. When no paper answered, a looser tie and a smaller
    lead in the question's words suffice (`REFUSED_TIE_RATIO`, `REFUSED_TIE_MARGIN`): the first
    paper lacks the asked detail, a runner-up that has it and is clearly on the question answers. When the challenger wins,
    `r.hits` takes its order, so the sources list it first too."""
    query, r = t.query, t.r
    vocab = t.retriever.snapshot.vocabulary
    hits = prefer_covering(query.question, r.hits, vocab)
    if hits[0] is r.hits[0] and not accepted:
        hits = prefer_covering(
            query.question,
            r.hits,
            vocab,
            margin=REFUSED_TIE_MARGIN,
            more_terms=REFUSED_TIE_TERMS,
            ratio=REFUSED_TIE_RATIO,
        )
    if hits[0] is r.hits[0]:
        return accepted
    challenger = t.bar if accepted else replace(t.bar, strong=True)
    won = accept(
        query.question,
        Retrieval(hits, r.query_vec, r.sentence_rank),
        [],
        False,
        query.top_k,
        t.retriever,
        t.why,
        bar=challenger,
        ask_vec=t.ask_vec,
    )
    if not won:
        return accepted
    t.why.append(f"near tie: {hits[0].paper_id} uses more of the question's words than {r.hits[0].paper_id}")
    r.hits = hits
    return won


def named_runner_up(t: Trial) -> Accepted:
    """ "What is the One-Step Generalization Ratio?" when the first paper never writes the name
    (at 2,416 papers a paper on flow VI ranked first): the first retrieved paper that does, if
    the name is rare (`NAME_MAX_PAPERS`) and that paper answers. Only for a question that asks
    what the name is: "what accuracy does X reach on CIFAR-10?" is not answered by another
    paper that uses CIFAR-10 (dev's near misses, answered wrongly when this was tried on every
    question). The name's rare lowercase words count as its letters do ("What is disintegrated
    PAC-Bayes?": the paper that writes "disintegrated", see `accept.pool_rare_stems`)."""
    query, r, retriever = t.query, t.r, t.retriever
    if not asks_what_name_is(query.question) or len(r.hits) < 2:
        return []
    snap = retriever.snapshot
    names = unknown_names(query.question, "")
    rare = pool_rare_stems(query.question, r.hits, retriever)
    if not names and not rare:
        return []
    keys = [squash(n) for n in names]
    stems = snap.vocabulary.paper_stems
    having = {
        pid
        for pid, text in snap.squashed.items()
        if all(k in text for k in keys) and all(s in stems.get(pid, ()) for s in rare)
    }
    # "DRIFT" is not written by the many abstracts on drift, nor "ARM" by those on "linear
    # models": only by those writing it in capitals; nor "eSEN" by those on "representations"
    # (the squashed text above holds it inside words): only by those writing it as a word.
    papers = snap.papers
    having = {
        pid
        for pid in having
        if all(
            written(n, text := f"{papers[pid].title or ''} {papers[pid].abstract} {papers[pid].label}")
            and writes_in_capitals(n, text)
            for n in names
        )
    }
    if r.hits[0].paper_id in having or not 0 < len(having) <= NAME_MAX_PAPERS:
        return []
    h = next((h for h in r.hits[1:] if h.paper_id in having), None)
    if h is None:  # "What is ARM?" among hundreds of bandit papers on "arms": looked up by name,
        # the paper that defines it first ("… Module (ARM)", not a compiler paper's "x86, ARM")
        found = retriever.retrieve(query.question, top_k=len(having), papers=sorted(having)).hits
        vocab = snap.vocabulary
        found.sort(
            key=lambda x: not defines_asked_name(query.question, papers[x.paper_id].abstract, vocab.df, vocab.capitals)
        )
        h = found[0] if found else None
    if h is None:
        return []
    first = r.hits[0].paper_id
    won = answers_alone(t, h)
    if won:
        t.why.append(f"names: {h.paper_id} writes the question's names, {first} does not")
    return won
