"""Which candidate papers answer a question, with the evidence each is quoted by: the
answerability bar, and the "which papers" list."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rag.answer.clauses import ask_clause
from rag.answer.evidence import (
    ATTAINABLE_POOL,
    LIST_BM25,
    LIST_QUOTED_TWICE,
    MIN_COSINE,
    MULTI_MAX,
    MULTI_RATIO,
    WEAK_COSINE,
    Features,
    features,
)
from rag.answer.list_question import LIST_MAX
from rag.answer.names import defines_asked_name, rare_name_stems
from rag.answer.overview import asks_overview
from rag.answer.selection import (
    EVIDENCE_MARGIN,
    EVIDENCE_MAX,
    MULTI_CONTRIBUTION_BONUS,
    MULTI_SENTENCES,
    Evidence,
    Ranking,
    rank_evidence,
)
from rag.retrieval.retriever import Retrieval, Retriever
from rag.text.normalize import writes_name
from rag.types import Hit, Paper, Query

Accepted = list[tuple[Hit, list[Evidence], Features]]


@dataclass(frozen=True)
class Bar:
    """How a candidate paper must answer to be accepted.

    `lenient`: a paper of the conversation answers by being discussed (the follow-up rule);
    `strong`: it must answer clearly (its best sentence close, or named by the question);
    `anchored`: it must at least share a term with the question or be on topic."""

    lenient: bool = True
    strong: bool = False
    anchored: bool = False

    def accepts(self, f: Features, question: str, label: str, multi: bool) -> bool:
        if self.anchored and f.coverage == 0 and f.cosine < MIN_COSINE:
            return False
        if f.answerable() and (not self.strong or _clearly(f, question, label)):
            return True
        if not multi and f.answerable_as_named() and (f.named or writes_name(question, label)):
            return True
        # "Summarize X", "Explain X in one sentence": every abstract says what its paper is; and
        # "What is WQRM?" is answered where an abstract defines that rare name.
        if not multi and (f.overview or f.defined) and f.missing_detail is None:
            return True
        # In a "which papers" answer, a further paper needs only to be on the theme: a question
        # with alternatives ("GNNs or autoencoders") is covered by each paper only in part.
        return multi and f.on_theme()


LOOSE, STRICT = Bar(), Bar(lenient=False)


def accept(
    question: str,
    r: Retrieval,
    focus: list[str],
    multi: bool,
    top_k: int,
    retriever: Retriever,
    why: list[str],
    *,
    bar: Bar = LOOSE,
    n: int | None = None,
    ask_vec: np.ndarray | None = None,
    compared: bool = False,
    discussed: list[str] | None = None,
) -> Accepted:
    """Candidate papers (the first `n` hits, else as many as the question's kind asks) whose
    selected evidence clears `bar` (`ask_vec`: the ask clause's vector, if already embedded).
    `compared`: the question compares the `focus` papers; each is quoted by what it is, first,
    in the order the question names them. `discussed`: the conversation's papers, whose labels
    the question may use without the candidate writing them, as those of `focus`."""
    snap = retriever.snapshot
    candidates = r.hits[: n or (len(focus) if focus else min(top_k, 6) if multi else 1)]
    if compared:
        candidates = sorted(candidates, key=lambda h: focus.index(h.paper_id) if h.paper_id in focus else len(focus))
    if multi:
        ask_vec = None
    elif ask_vec is None:
        ask_vec = retriever.embed_query(ask_clause(question))
    stems = snap.vocabulary.paper_stems
    how = _Judging(
        one=len(candidates) == 1,
        multi=multi,
        followup=bool(focus) and bar.lenient,
        defining=compared,
        attainable=set().union(*(stems.get(h.paper_id, set()) for h in candidates[:ATTAINABLE_POOL]))
        if multi and candidates
        else None,
        known=" ".join(snap.papers[p].label for p in dict.fromkeys([*focus, *(discussed or [])]) if p in snap.papers),
        by_title=frozenset(snap.referenced_in(question)),
        rare=() if multi else pool_rare_stems(question, r.hits, retriever),
    )
    accepted: Accepted = []
    for h in candidates:
        ev, f = _judge(question, h, r.query_vec, ask_vec, retriever, how)
        why.append(f"answerability {h.paper_id}: {f}")
        if bar.accepts(f, question, h.label, multi):
            accepted.append((h, ev, f))
    return accepted


def pool_rare_stems(question: str, hits: list[Hit], retriever: Retriever) -> tuple[str, ...]:
    """ "What is disintegrated PAC-Bayes?": the name's words that few abstracts write
    (`rare_name_stems`) and a retrieved paper does; a paper that lacks one is not what the
    question means. A rare word no retrieved paper writes is the question's frame ("the gist
    of"), and a question naming papers by label is about them."""
    snap = retriever.snapshot
    stems = snap.vocabulary.paper_stems
    rare = rare_name_stems(question, snap.vocabulary.df)
    if not rare or snap.named_in(question):
        return ()
    return tuple(s for s in rare if any(s in stems.get(h.paper_id, ()) for h in hits))


@dataclass(frozen=True)
class _Judging:
    """What `accept` knows of the question and its candidates as a whole."""

    one: bool  # a single candidate
    multi: bool
    followup: bool
    defining: bool
    attainable: set[str] | None
    known: str  # labels of the papers in focus and of those the conversation discussed
    by_title: frozenset[str]  # papers the question names by their title's words
    rare: tuple[str, ...]  # stems of the asked name that single out a retrieved paper


def _judge(
    question: str, h: Hit, qv: np.ndarray, ask_vec: np.ndarray | None, retriever: Retriever, how: _Judging
) -> tuple[list[Evidence], Features]:
    """One candidate's quotes and answerability features."""
    snap = retriever.snapshot
    paper = snap.papers[h.paper_id]
    by_title = h.paper_id in how.by_title
    overview = _asks_overview(question, paper, how, by_title)
    about = overview or _asks_overview(question, paper, how, by_title, about=True)
    ranking = rank_evidence(
        question,
        paper,
        retriever,
        qv,
        contribution_bonus=MULTI_CONTRIBUTION_BONUS if how.multi else 0.0,
        ask_vec=ask_vec,
        defining=how.defining or overview,
    )
    ev, checked = _evidence(ranking, one=how.one, multi=how.multi)
    f = features(
        question,
        h,
        [q for _, q, _ in checked],
        snap.vocabulary,
        paper_text=f"{paper.title or ''} {paper.abstract}",
        followup=how.followup,
        multi=how.multi,
        attainable=how.attainable,
        known=how.known,
        named=by_title,
        overview=about,
        defined=not how.multi
        and defines_asked_name(question, paper.abstract, snap.vocabulary.df, snap.vocabulary.capitals),
        rare_stems=how.rare,
    )
    return ev, f


def _asks_overview(question: str, paper: Paper, how: _Judging, by_title: bool, *, about: bool = False) -> bool:
    """The question asks what this paper is (`about`: or how it works, what it found)."""
    return not how.multi and asks_overview(
        question, paper.label, paper.title or "", by_title=by_title, discussed=how.followup, about=about
    )


def _evidence(ranking: Ranking | None, *, one: bool, multi: bool) -> tuple[list[Evidence], list[Evidence]]:
    """(what is quoted, what the answerability check reads). The check reads the sentences
    chosen by content alone, close to the best (as it was tuned); what is quoted may differ:
    a one-paper answer's quotes are ordered with the prior by position, and each paper of
    several is quoted by its best two sentences however far the second is from the first (its
    topic sentence and its finding: on dev and our scratch lists, fact recall 0.757 -> 0.790)."""
    if ranking is None:
        return [], []
    # One paper: up to three quotes; several (a list, or a follow-up on two papers): fewer each.
    n = EVIDENCE_MAX if one else MULTI_SENTENCES
    checked = ranking.pick(max_sentences=n, keep_margin=None if one else EVIDENCE_MARGIN)
    return ranking.pick(max_sentences=n, keep_margin=None, by_position=one and not multi), checked


def _clearly(f: Features, question: str, label: str) -> bool:
    """A paper answers clearly: its best sentence is close, or the question names it."""
    return f.cosine >= WEAK_COSINE or writes_name(question, label)


def near_best(run: Accepted) -> Accepted:
    top = max((a[2].score for a in run), default=0.0)
    return [a for a in run if a[2].score >= MULTI_RATIO * top]


def listed(question_run: Accepted, added: Accepted, answers_alternative: bool, *, deep: bool) -> Accepted:
    """A "which papers" list: none unless a paper answers the whole question, or answers one of
    its alternatives and covers the whole question's terms as a list member must (a sentence on
    one alternative is less close to a question naming two; the terms keep a paper that answers
    only a fragment of a split phrase out); then the papers close enough to the best, in rank
    order, and after them, best first, the alternatives' papers and (`deep`: the question asks
    for papers, from a deep pool) every further paper that answers the question on its own."""
    covers = answers_alternative and any(a[2].missing_detail is None and a[2].covers() for a in question_run)
    if not covers and not any(a[2].answerable() for a in question_run):
        return []
    out = near_best(question_run)[:MULTI_MAX]
    # Further down the pool a paper must answer the question on its own, not only share its theme.
    further = [a for a in question_run if a[2].lists()] if deep else []
    seen = {a[0].paper_id for a in out}
    rest: Accepted = []
    for a in [*added, *further]:
        if a[0].paper_id not in seen:
            rest.append(a)
            seen.add(a[0].paper_id)
    # Past the head, best first by how they answer the whole question; an alternative's paper
    # that does not answer it comes last. Placed before every further paper, the alternatives'
    # papers led lists with papers that answer a fragment of the question.
    # The whole-abstract BM25 (against the list's best) adds a paper-level signal: a conference
    # has dozens of papers per topic, and the gold ones cut at the cap were those whose whole
    # abstract is about it (dev + dev_fresh multi set recall at 2,416 papers 0.705 -> 0.729,
    # judged list precision unchanged; 57 and 1,057 papers unchanged).
    whole = {a[0].paper_id: a[2].score for a in question_run}
    top_bm25 = max((a[0].bm25 for a in rest if a[0].paper_id in whole), default=0.0) or 1.0
    out += sorted(rest, key=lambda a: -(whole.get(a[0].paper_id, -np.inf) + LIST_BM25 * a[0].bm25 / top_bm25))
    # Past the first six, one quote per paper (the lead one) keeps a long list readable: at
    # conference scale the papers past the near-best head are often as relevant, and their
    # second sentence is where a finding is (multi fact recall at 1,057 papers: dev 0.782 ->
    # 0.795, scratch lists 0.519 -> 0.531, for two more quotes in lists of ~28).
    cap = LIST_MAX if deep else MULTI_MAX
    return [a if i < LIST_QUOTED_TWICE else (a[0], a[1][:1], a[2]) for i, a in enumerate(out[:cap])]


@dataclass
class Trial:
    """What a runner-up stage reads (`runner_up`, `described`, `described_as`): the query, its
    retrieval (whose `hits` a winner reorders), the retriever, the bar a paper must clear, the
    explanation being written and the ask clause's vector."""

    query: Query
    r: Retrieval
    retriever: Retriever
    bar: Bar
    why: list[str]
    ask_vec: np.ndarray | None


def answers_alone(t: Trial, hit: Hit, *, bar: Bar | None = None) -> Accepted:
    """A runner-up tried as the one paper that answers (a named, described or titled paper the
    first did not match), by `bar` (else the trial's); when it answers, it leads `t.r.hits`, so
    the sources list it first."""
    r = t.r
    won = accept(
        t.query.question,
        Retrieval([hit], r.query_vec, r.sentence_rank),
        [],
        False,
        1,
        t.retriever,
        t.why,
        bar=bar if bar is not None else t.bar,
        ask_vec=t.ask_vec,
    )
    if won:
        r.hits = [hit] + [h for h in r.hits if h.paper_id != hit.paper_id]
    return won
