"""The last exchange of a conversation: which papers it was about, when its turns name them,
only allude to them, or the answer quotes them."""

from __future__ import annotations

import itertools

from rag.answer.turns import quoted_in
from rag.index.snapshot import Snapshot
from rag.retrieval.retriever import Retriever
from rag.types import REFUSAL, Query


def settled(turns: list[dict[str, object]], found: list[list[str]]) -> list[dict[str, object]]:
    """The conversation up to its last exchange that said something about a paper. An exchange
    whose answer was the refusal and whose question named no paper (`found`: each turn's papers)
    added none: "it" in the next question is still the paper before it ("Does it handle cyclic
    patterns?" refused, then "Is there code available?"), not the best match for a refusal's
    words. The whole conversation when every exchange was such."""
    k = len(turns)
    while k >= 2 and _refused(turns[k - 1]) and turns[k - 2].get("role") == "user" and not found[k - 2]:
        k -= 2
    return turns[:k] or turns


def _refused(turn: dict[str, object]) -> bool:
    return turn.get("role") == "assistant" and str(turn.get("content", "")).strip().startswith(REFUSAL)


def last_exchange(
    turns: list[dict[str, object]], found: list[list[str]], named: list[bool], snap: Snapshot
) -> list[str] | None:
    """The papers of the last exchange: those its question named whose sentences the answer
    quotes; else its latest turn's that has any, unless that turn only alludes to papers (rare
    title words) and the other one names a paper (`named`: `names_a_paper` of each turn). An answer that
    quotes a paper's background ("… where privacy is paramount", "… pre-trained OLMo models")
    alluded to, or named, another paper, which then answered "Tell me more"."""
    latest = next((i for i in range(len(found) - 1, -1, -1) if found[i]), None)
    if latest is None:
        return None
    asked, said = (found[0], turns[1]) if len(turns) == 2 else ([], {})
    quoted = quoted_in(said, asked, snap) if said.get("role") == "assistant" and "paper_ids" not in said else []
    if quoted:  # the answer quotes what the question named: the exchange is about that paper
        return quoted
    if not named[latest]:
        return next((found[i] for i in range(len(found) - 1, -1, -1) if found[i] and named[i]), found[latest])
    return found[latest]


def confirmed_allusion(
    recent: list[str], turns: list[dict[str, object]], query: Query, retriever: Retriever
) -> list[str]:
    """Of the papers an exchange that names none only alludes to (a rare title word, a run of
    title words), those its text agrees on: the exchange's text, retrieved as a query, ranks
    them first (several alluded papers may share the lead); else that text's best match is the
    paper discussed. An answer that says "works with standard autodiff" alludes to a paper
    titled "Using Autodiff to …", one on change point detection to every title with "time
    series" in it, one on private synthetic graphs to a title that opens "Differentially private
    algorithms"; each describes another paper, or one of them, which its words match best.
    Among the best 10 was the bar before: a runner-up allusion then outranked the described
    paper (`dev_scale` at 2,416 papers: two follow-ups gained their fact, nothing else changed)."""
    ctx = retriever.retrieve(
        turns_text(turns), top_k=len(recent) + 1, papers=query.papers, files=query.files, cache=query.cache
    )
    top = [h.paper_id for h in ctx.hits]
    if not top:
        return recent
    return list(itertools.takewhile(lambda p: p in recent, top)) or top[:1]


def turns_text(turns: list[dict[str, object]]) -> str:
    return " ".join(str(t.get("content", "")) for t in turns)
