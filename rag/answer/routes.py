"""Which path answers a question. Most are answered from the abstracts' sentences
(`extractive.answer`); a venue in the question narrows the papers first ("Which ICML 2025
papers …"); who wrote a paper, where it is, where it appeared, and which papers a person
wrote are answered from the papers' records (`records`)."""

from __future__ import annotations

import re
import time
from dataclasses import replace

from rag.answer import extractive
from rag.answer.another import as_asked_alone, asks_for_another
from rag.answer.authored import AuthorRef, author_ref, ref_note
from rag.answer.code_link import code_answer, code_asked
from rag.answer.collection import asks_about_index, index_answer
from rag.answer.compound import joined, record_part
from rag.answer.conversation import after_moving_on, resolve_focus
from rag.answer.credited import credited
from rag.answer.linked import Linked, link_note, read_links
from rag.answer.more import asks_for_more, more_of
from rag.answer.others import others_answer, others_asked
from rag.answer.overview import refers_back, subject
from rag.answer.question import check_question
from rag.answer.quoted import asks_only_where, located, quoted_spans
from rag.answer.records import (
    asked_authors,
    asks_papers_by,
    by_authors_of,
    from_record,
    from_records,
    papers_by,
    record_asked,
)
from rag.answer.shaped import asked_phrases, lead_note, padded, refused, writing_papers
from rag.answer.similar import similar_asked, similar_papers
from rag.answer.venue import venue_scope, year_scope
from rag.answer.whole import abstract_answer, abstract_asked
from rag.retrieval.retriever import Retriever
from rag.types import Answer, Query, Source


def answer(query: Query, retriever: Retriever) -> Answer:
    """The extractive answer to `query`, by whichever path answers it."""
    with retriever.pinned():
        t0 = time.perf_counter()
        query = query.model_copy(update={"question": check_question(query.question)})
        alone = after_moving_on(query.question)
        if alone is not None:  # it says it stands on its own: so it is asked
            query = query.model_copy(update={"question": alone, "history": None})
        if query.history and asks_for_another(query.question):
            query = _besides_discussed(query, retriever)
        if asks_about_index(query.question):
            a = index_answer(query.question, retriever.snapshot.papers, query.papers)
            a.latency_ms = round((time.perf_counter() - t0) * 1000, 2)
            return a
        linked = read_links(query.question, retriever.snapshot)
        if linked is not None:
            return _linked(query, linked, retriever)
        respelled, read = retriever.snapshot.speller.respell(query.question, quoted_spans(query.question))
        if read:
            return _as_spelled(query, respelled, read, retriever)
        if query.history and asks_for_more(query.question):
            return _more(query, retriever)
        scope = venue_scope(query.question, retriever.snapshot.papers) or year_scope(
            query.question, retriever.snapshot.papers
        )
        if scope is not None:
            return _in_venue(query, scope, retriever)
        parts = record_part(query.question)
        if parts is not None:
            return _compound(query, parts, retriever)
        discussed = (lambda: resolve_focus(query, retriever).papers) if query.history else None
        others = others_asked(query.question, retriever.snapshot, discussed)
        by_record = None
        if others is not None:  # "Which papers cite X?": not X itself
            by_record = padded(
                others_answer(query.question, others, retriever.snapshot, query.papers), query, retriever
            )
        by_record = by_record or _from_records(query, retriever) or _similar(query, retriever)
        if by_record is None:
            ref = author_ref(query.question, retriever.snapshot)
            if ref is not None:
                return _by_authors(query, ref, retriever)
            phrases = asked_phrases(query.question, retriever)
            return _quoted(query, phrases, retriever) if phrases else extractive.answer(query, retriever)
        by_record.latency_ms = round((time.perf_counter() - t0) * 1000, 2)
        return by_record


def _besides_discussed(query: Query, retriever: Retriever) -> Query:
    """ "Is there another paper on X?": asked on its own, of the papers the conversation has
    not discussed."""
    focus = resolve_focus(query, retriever)
    aside = set(focus.papers) | set(focus.discussed)
    if not aside:
        return query
    allowed = [p for p in (query.papers or retriever.snapshot.papers) if p not in aside]
    return query.model_copy(update={"question": as_asked_alone(query.question), "history": None, "papers": allowed})


def _as_spelled(query: Query, respelled: str, read: list[tuple[str, str]], retriever: Retriever) -> Answer:
    """The question with its names read as the indexed labels, the answer saying how it read
    them (not for a name typed in lowercase only: "adasplash" is plainly AdaSplash)."""
    a = answer(query.model_copy(update={"question": respelled}), retriever)
    a.question = query.question
    said = [f"“{typed}” as “{label}”" for typed, label in read if typed.lower() != label.lower()]
    if said:
        lead_note(a, f"Read {', '.join(said)}.")
    return a


def _more(query: Query, retriever: Retriever) -> Answer:
    """ "Tell me more": the discussed paper's sentences no earlier answer quoted; of several
    discussed papers, more about each; none: the question as asked."""
    focus = resolve_focus(query, retriever).papers
    if len(focus) != 1:
        them = query.model_copy(update={"question": "Tell me more about them."}) if focus else query
        a = extractive.answer(them, retriever)
        a.question = query.question
        return a
    paper = retriever.snapshot.papers[focus[0]]
    a = more_of(paper.paper_id, query.history or [], retriever)
    a.question = query.question
    a.sources = [Source(paper_id=paper.paper_id, score=1.0)]
    return padded(a, query.model_copy(update={"question": paper.title or paper.label}), retriever)


def _linked(query: Query, linked: Linked, retriever: Retriever) -> Answer:
    """A question pasting links: those the records give name their papers; one an abstract
    writes (a code or data address) is asked word for word; else no indexed paper has it."""
    if linked.papers:
        a = answer(query.model_copy(update={"question": linked.question}), retriever)
        a.question = query.question
        lead_note(a, link_note(linked))
        return a
    bare = [re.sub(r"^(?:https?://)?(?:www\.)?", "", url) for url in linked.unknown]
    if writing_papers(query, bare, retriever):
        return _quoted(query, bare, retriever)
    return refused(query, f"No indexed paper's record or abstract has the link {', '.join(linked.unknown)}.")


def _compound(query: Query, parts: tuple[str, str], retriever: Retriever) -> Answer:
    """ "What is X and who wrote it?": the first question, then the second as its follow-up."""
    first, second = parts
    a = answer(query.model_copy(update={"question": first}), retriever)
    if a.refused:
        a.question = query.question
        return a
    cited = list(dict.fromkeys(c.paper_id for c in a.citations))
    history = [
        *(query.history or []),
        {"role": "user", "content": first},
        {"role": "assistant", "content": a.answer, "paper_ids": cited},
    ]
    b = answer(query.model_copy(update={"question": second, "history": history}), retriever)
    return joined(query.question, [a, b], retriever.snapshot.papers)


def _in_venue(query: Query, scope: tuple[str, list[str], str], retriever: Retriever) -> Answer:
    """The question without its venue (or year), among that venue's papers (and any asked for)."""
    rest, pids, venue = scope
    allowed = [p for p in pids if query.papers is None or p in query.papers]
    if not allowed:
        return refused(query, f"No indexed paper is from {venue}.")
    a = answer(query.model_copy(update={"question": rest, "papers": allowed}), retriever)
    a.question = query.question
    n = len(allowed)
    scoped = f"Answered among the {n} indexed {'paper' if n == 1 else 'papers'} from {venue}."
    # A paper whose record gives no venue (year) may be from it too: say how many were left out.
    field = "year" if venue.isdigit() else "venue"
    unknown = sum(1 for p in retriever.snapshot.papers.values() if not getattr(p, field))
    if unknown:
        scoped += f" {unknown} indexed {'paper has' if unknown == 1 else 'papers have'} no {field} in their records."
    lead_note(a, scoped)
    return a


def _quoted(query: Query, phrases: list[str], retriever: Retriever) -> Answer:
    """A question quoting a phrase: answered from the papers that write it word for word (asked
    only where it comes from: their sentences that write it); none does: as usual, saying so."""
    pids = writing_papers(query, phrases, retriever)
    said = ", ".join(f"“{p}”" for p in phrases)
    if not pids:
        a = extractive.answer(query, retriever)
        lead_note(a, f"No indexed abstract writes {said} word for word.")
        return a
    if asks_only_where(query.question, phrases):
        if len(pids) > 1:  # closest to the question first
            hits = retriever.retrieve(query.question, top_k=len(pids), papers=pids, cache=query.cache).hits
            pids = [h.paper_id for h in hits]
        return padded(located(query.question, phrases, pids, retriever.snapshot), query, retriever)
    a = padded(extractive.answer(query.model_copy(update={"papers": pids}), retriever), query, retriever)
    n = len(pids)
    scoped = f"Answered among the {n} indexed papers whose abstracts write {said}."
    lead_note(a, scoped if n > 1 else f"Answered from the one indexed paper that writes {said}.")
    return a


AUTHOR_FOCUS_MAX = 12  # "What did <author> find?" is answered from each of so few of their papers


def _by_authors(query: Query, ref: AuthorRef, retriever: Retriever) -> Answer:
    """A question naming papers by their authors. One paper is named in the question as the
    user would name it, and answered so (compared with a discussed one, too); several, asked
    what they are or found ("What did Schaeffer et al. find?"), are the ones under discussion,
    as in a follow-up; else the papers it means are those answered from, under the usual bar
    (a detail they do not give is refused); none of those the user chose: the question as asked."""
    ref = replace(ref, papers=[p for p in ref.papers if query.papers is None or p in query.papers])
    if not ref.papers:
        return extractive.answer(query, retriever)
    about = subject(ref.question, about=True)
    if ref.named:
        asked = query.model_copy(update={"question": ref.question})
    elif len(ref.papers) <= AUTHOR_FOCUS_MAX and about is not None and refers_back(about):
        turn = {"role": "assistant", "content": "", "paper_ids": ref.papers}
        asked = query.model_copy(update={"question": ref.question, "history": [*(query.history or []), turn]})
    else:
        asked = query.model_copy(update={"question": ref.question, "papers": ref.papers})
    a = padded(answer(asked, retriever), query, retriever)
    a.question = query.question
    lead_note(a, ref_note(ref, retriever.snapshot.papers))
    return a


def answered_as_is(query: Query, retriever: Retriever) -> bool:
    """The question takes the records or the similar-papers path: lists an LLM has nothing to
    add to (asked after `answer`, which has checked the question)."""
    question, _ = retriever.snapshot.speller.respell(query.question, quoted_spans(query.question))
    asked = query.model_copy(update={"question": question})
    routed = code_asked(question) is not None or abstract_asked(question) is not None
    if routed or asks_about_index(question) or record_part(question):
        return True
    if from_records(question, retriever.snapshot):
        return True
    if _like(asked, retriever) is not None:
        return True
    phrases = asked_phrases(question, retriever)  # "Which paper says "…"?": the sentences that write it
    return bool(phrases) and asks_only_where(question, phrases) and bool(writing_papers(asked, phrases, retriever))


def _like(query: Query, retriever: Retriever) -> str | None:
    """The paper "Papers similar to X?" asks about, when X names one: by name, title words or
    a reference back in a conversation ("papers related to <topic>" is a list question)."""
    asked = similar_asked(query.question)
    snap = retriever.snapshot
    if asked is None:
        return None
    named = bool(snap.named_in(asked) or snap.referenced_in(asked))
    return asked if named or (query.history and refers_back(asked)) else None


def _similar(query: Query, retriever: Retriever) -> Answer | None:
    """ "Papers similar to X?": the papers closest to the one "What is X?" is answered from."""
    asked = _like(query, retriever)
    if asked is None:
        return None
    snap = retriever.snapshot
    inner = answer(
        query.model_copy(update={"question": f"What is {asked}?", "explain": False, "papers": None}), retriever
    )
    return similar_papers(query.question, inner, snap, query.papers)


def _from_records(query: Query, retriever: Retriever) -> Answer | None:
    """ "Who wrote X?", "Give me the link to X", "When was X published?": that field of the
    record of the paper(s) "What is X?" is answered from; "Which papers are by <author>?": that
    author's papers. None for any other question."""
    snap = retriever.snapshot
    # "Where can I find the code for X?": its abstract's sentence; "Show me the abstract of X": all of them
    for asked_of, build in ((code_asked, code_answer), (abstract_asked, abstract_answer)):
        of = asked_of(query.question)
        if of is not None:
            inner = answer(query.model_copy(update={"question": f"What is {of or 'it'}?", "explain": False}), retriever)
            pids = list(dict.fromkeys(c.paper_id for c in inner.citations))
            return padded(build(query.question, pids, snap), query, retriever)
    asked = record_asked(query.question)
    if asked is not None:
        field, rest = asked
        inner = answer(query.model_copy(update={"question": f"What is {rest or 'it'}?", "explain": False}), retriever)
        return credited(query, rest, inner, snap) or from_record(query.question, field, inner, snap.papers)
    # The conversation's papers are looked up only for a question that asks for someone's papers
    asks = bool(query.history) and asks_papers_by(query.question)
    theirs = by_authors_of(query.question, resolve_focus(query, retriever).papers, snap) if asks else None
    pids = asked_authors(query.question, snap) if theirs is None else theirs
    if theirs == []:  # all they wrote is what the conversation is about
        return refused(query, "No other indexed paper is by them.")
    return padded(papers_by(query.question, pids, snap), query, retriever) if pids else None
