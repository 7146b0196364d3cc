"""Conversation focus: which paper(s) a follow-up question is about."""

from __future__ import annotations

from rag.retrieval.retriever import Retriever
from rag.types import Query


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


def followup_focus(query: Query, retriever: Retriever) -> list[str]:
    """The paper(s) the conversation is about: ids carried by the turns, else the best
    match for the earlier turns' text."""
    if not query.history:
        return []
    text, ids = history_context(query.history)
    focus = [p for p in ids if p in retriever.snapshot.papers]
    if not focus and text.strip():
        ctx = retriever.retrieve(text, top_k=1, papers=query.papers, files=query.files, cache=query.cache)
        focus = [ctx.hits[0].paper_id] if ctx.hits else []
    return focus
