"""Query vectors: one model call for all of an answer's texts, and the LRU cache
(rag.retrieval.queries.QueryVectors)."""

from collections.abc import Callable
from typing import Any

import numpy as np

from rag.retrieval.queries import QueryVectors
from tests.fakes import HashEmbedder


class CountingEmbedder(HashEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[list[str]] = []

    def embed(self, texts: list[str], *, progress: Callable[[int], None] | None = None) -> Any:
        self.calls.append(list(texts))
        return super().embed(texts, progress=progress)


def test_many_texts_in_one_call_with_the_vectors_of_one() -> None:
    emb = CountingEmbedder()
    q = QueryVectors(emb)
    out = q.many(["what is it?", "what", "what is it?"], cache=False)
    assert emb.calls == [["what is it?", "what"]]
    for text, vec in out.items():
        assert np.allclose(vec, emb._vec(text))


def test_the_cache_is_read_and_filled_only_when_on() -> None:
    emb = CountingEmbedder()
    q = QueryVectors(emb)
    q.many(["a question"], cache=False)
    q.many(["a question"], cache=False)
    assert len(emb.calls) == 2  # off: every call embeds, nothing is kept
    q.many(["a question", "its ask"])
    q.many(["a question", "its ask"])
    q.one("its ask")
    assert emb.calls[2:] == [["a question", "its ask"]]  # on: embedded once, then read


def test_the_last_query_is_reused_and_the_cache_is_bounded() -> None:
    emb = CountingEmbedder()
    q = QueryVectors(emb, size=2)
    q.one("first", cache=False)
    q.one("first")  # the last query, kept even uncached
    assert len(emb.calls) == 1
    for t in ["a", "b", "c"]:
        q.one(t)
    q.one("a")  # evicted by "b" and "c"
    assert emb.calls[-1] == ["a"]
