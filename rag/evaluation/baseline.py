"""The plain baseline: a default llama-index `VectorStoreIndex` on Chroma, one vector per abstract.

Same embedding model, llama-index's default chunking (`SentenceSplitter`, 1024 tokens, so one
chunk per abstract here), default retriever. Papers are ranked by their first chunk in the
retriever's results. `rag bench` times it; `rag eval --baseline` scores it on the same index
contents and questions.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from llama_index.core import Document, StorageContext, VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import PrivateAttr

from rag.evaluation.evalset import EvalCase
from rag.evaluation.metrics import hit_at_1, recall_at_k
from rag.models.embed import Embedder
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
    """A default `VectorStoreIndex` over the abstracts in its own Chroma collection under
    `home/baseline`; reused when it already holds exactly these papers."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings
    from llama_index.vector_stores.chroma import ChromaVectorStore

    client = chromadb.PersistentClient(path=str(home / "baseline"), settings=ChromaSettings(anonymized_telemetry=False))
    collection = client.get_or_create_collection("baseline", embedding_function=None)  # type: ignore[arg-type]
    store = ChromaVectorStore(chroma_collection=collection)
    embed = SameEmbedding(embedder)
    t = time.perf_counter()
    have = {str(m.get("paper_id")) for m in collection.get(include=["metadatas"])["metadatas"] or []}
    if have == {p.paper_id for p in papers}:
        return VectorStoreIndex.from_vector_store(store, embed_model=embed), time.perf_counter() - t
    if have:
        client.delete_collection("baseline")
        collection = client.get_or_create_collection("baseline", embedding_function=None)  # type: ignore[arg-type]
        store = ChromaVectorStore(chroma_collection=collection)
    docs = [Document(text=p.abstract, metadata={"paper_id": p.paper_id}) for p in papers]
    index = VectorStoreIndex.from_documents(
        docs, storage_context=StorageContext.from_defaults(vector_store=store), embed_model=embed
    )
    return index, time.perf_counter() - t


def baseline_ranking(retriever: Any, question: str) -> list[str]:
    seen: dict[str, None] = {}
    for r in retriever.retrieve(question):
        seen.setdefault(str(r.node.metadata["paper_id"]), None)
    return list(seen)


def baseline_query(case: EvalCase) -> str:
    """What a plain retriever is given: the question, after the conversation's earlier turns
    (no LLM rewrites it)."""
    return " ".join([*(t.content for t in case.history), case.question])


def score_baseline(index: Any, cases: list[EvalCase], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """hit@1 and recall@5 of the baseline and of our run on the same single and follow-up
    questions (ours read from the run's results)."""
    retriever = index.as_retriever(similarity_top_k=5)
    ours = {r["id"]: [s["paper_id"] for s in r.get("sources") or []] for r in rows if not r.get("error")}
    scored = [c for c in cases if c.type in ("single", "followup") and c.id in ours]
    hb = rb = ho = ro = 0.0
    for c in scored:
        base = baseline_ranking(retriever, baseline_query(c))
        hb += hit_at_1(base, c.gold_ids)
        rb += recall_at_k(base, c.gold_ids, 5)
        ho += hit_at_1(ours[c.id], c.gold_ids)
        ro += recall_at_k(ours[c.id], c.gold_ids, 5)
    n = max(1, len(scored))
    return {
        "questions": len(scored),
        "baseline_hit@1": round(hb / n, 4),
        "baseline_recall@5": round(rb / n, 4),
        "hit@1": round(ho / n, 4),
        "recall@5": round(ro / n, 4),
    }
