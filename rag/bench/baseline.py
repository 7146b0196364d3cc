"""The baseline `rag bench` compares against: a plain llama-index `VectorStoreIndex` on Chroma.

Same embedding model, llama-index's default chunking (`SentenceSplitter`, 1024 tokens,
so one chunk per abstract here), default retriever. Papers are ranked by their first
chunk in the retriever's results.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from llama_index.core import Document, StorageContext, VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import PrivateAttr

from rag.bench.scale import latency
from rag.evaluation.evalset import EvalCase
from rag.evaluation.metrics import hit_at_1, recall_at_k
from rag.models.embed import Embedder
from rag.retrieval.retriever import Retriever
from rag.types import Paper

log = logging.getLogger(__name__)


class SameEmbedding(BaseEmbedding):
    """Our sentence-transformers model behind llama-index's embedding interface."""

    _embedder: Any = PrivateAttr()

    def __init__(self, embedder: Embedder, **kw: Any) -> None:
        super().__init__(model_name=embedder.name, **kw)
        self._embedder = embedder

    def _get_query_embedding(self, query: str) -> list[float]:
        return [float(x) for x in self._embedder.embed([query])[0]]

    def _get_text_embedding(self, text: str) -> list[float]:
        return [float(x) for x in self._embedder.embed([text])[0]]

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return [[float(x) for x in v] for v in self._embedder.embed(texts)]

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)


def build_baseline(home: Path, papers: list[Paper], embedder: Embedder) -> tuple[Any, float]:
    """A default `VectorStoreIndex` over the abstracts in its own Chroma collection."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings
    from llama_index.vector_stores.chroma import ChromaVectorStore

    client = chromadb.PersistentClient(path=str(home / "baseline"), settings=ChromaSettings(anonymized_telemetry=False))
    collection = client.get_or_create_collection("baseline", embedding_function=None)  # type: ignore[arg-type]
    docs = [Document(text=p.abstract, metadata={"paper_id": p.paper_id}) for p in papers]
    t = time.perf_counter()
    index = VectorStoreIndex.from_documents(
        docs,
        storage_context=StorageContext.from_defaults(vector_store=ChromaVectorStore(chroma_collection=collection)),
        embed_model=SameEmbedding(embedder),
    )
    return index, time.perf_counter() - t


def baseline_ranking(retriever: Any, question: str) -> list[str]:
    seen: dict[str, None] = {}
    for r in retriever.retrieve(question):
        seen.setdefault(str(r.node.metadata["paper_id"]), None)
    return list(seen)


def compare(
    baseline_index: Any,
    ours: Retriever,
    questions: list[str],
    cases: list[EvalCase],
    answer_latency: dict[str, float],
) -> dict[str, Any]:
    """Latency on the same distinct queries and hit@1/recall@5 on the eval set's
    single-turn answerable questions, ours vs the baseline."""
    retriever = baseline_index.as_retriever(similarity_top_k=5)
    baseline_ranking(retriever, "warm up")
    # Its query embedding is uncached, as ours is in the bench.
    lat = latency(lambda q: baseline_ranking(retriever, q), questions)
    scored = [c for c in cases if c.gold_ids and not c.history]
    hb = rb = ho = ro = 0.0
    for c in scored:
        base = baseline_ranking(retriever, c.question)
        mine = [h.paper_id for h in ours.retrieve(c.question, top_k=5).hits]
        hb += hit_at_1(base, c.gold_ids)
        rb += recall_at_k(base, c.gold_ids, 5)
        ho += hit_at_1(mine, c.gold_ids)
        ro += recall_at_k(mine, c.gold_ids, 5)
    n = max(1, len(scored))
    return {
        "retrieval_incl_query_embedding": lat,
        "eval_questions": len(scored),
        "hit_at_1": round(hb / n, 4),
        "recall_at_5": round(rb / n, 4),
        "ours_hit_at_1": round(ho / n, 4),
        "ours_recall_at_5": round(ro / n, 4),
        # > 1 means our whole answer path is slower than the baseline's bare retrieval.
        "ratio_our_answer_p50_to_baseline_retrieval_p50": round(answer_latency["p50_ms"] / lat["p50_ms"], 3),
        "ratio_our_answer_p95_to_baseline_retrieval_p95": round(answer_latency["p95_ms"] / lat["p95_ms"], 3),
    }
