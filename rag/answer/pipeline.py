"""The answer pipeline: the extractive answer first, then (for an LLM backend) generate + verify."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rag.answer.generate import llm_answer
from rag.answer.present import present
from rag.answer.routes import answer, answered_as_is
from rag.errors import BackendUnavailable
from rag.models.llm import ChatLLM
from rag.retrieval.retriever import Retriever
from rag.types import Answer, Query


def ask(
    query: Query,
    *,
    backend: str,
    retriever: Retriever,
    llm: ChatLLM | None = None,
    llm_options: dict[str, Any] | None = None,
    on_sentence: Callable[[str], None] | None = None,
) -> Answer:
    """Answer `query` with `backend`; `on_sentence` receives the answer sentence by sentence
    as each is released (verified)."""
    if backend != "extractive" and llm is None:
        raise BackendUnavailable(f"backend {backend!r} is not configured")
    with retriever.pinned():  # one consistent index view for the whole answer
        t0 = time.perf_counter()
        base = answer(query, retriever)
        if llm is None or backend == "extractive" or answered_as_is(query, retriever):
            if on_sentence:
                for line in base.answer.splitlines():
                    on_sentence(line)
            return present(base, retriever.snapshot.papers)
        a = llm_answer(
            query.question,
            base,
            llm=llm,
            retriever=retriever,
            backend=backend,
            t0=t0,
            on_sentence=on_sentence,
            **(llm_options or {}),
        )
        return present(a, retriever.snapshot.papers)
