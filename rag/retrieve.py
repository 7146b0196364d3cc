"""Hybrid retrieval: dense (Chroma) + BM25 sentences fused by RRF, combined with paper-level signals."""

from __future__ import annotations

import logging
import math
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from llama_index.core import VectorStoreIndex
from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.llms import MockLLM
from llama_index.core.retrievers import QueryFusionRetriever
from llama_index.core.retrievers.fusion_retriever import FUSION_MODES
from llama_index.core.schema import NodeWithScore, QueryBundle
from llama_index.core.vector_stores import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
)
from llama_index.retrievers.bm25 import BM25Retriever
from pydantic import PrivateAttr

from rag.embed import Embedder
from rag.index import Snapshot, Store, load_snapshot, rows, stamp_of
from rag.types import Hit, SentenceHit

log = logging.getLogger(__name__)

RRF_K = 60.0
QUERY_CACHE_SIZE = 2048


class LlamaEmbedding(BaseEmbedding):
    """Our embedder behind llama-index's interface (so its retrievers never reach for OpenAI)."""

    _embedder: Any = PrivateAttr()

    def __init__(self, embedder: Embedder, **kw: Any) -> None:
        super().__init__(model_name=embedder.name, **kw)
        self._embedder = embedder

    def _get_query_embedding(self, query: str) -> list[float]:
        return list(self._embedder.embed([query])[0])

    def _get_text_embedding(self, text: str) -> list[float]:
        return list(self._embedder.embed([text])[0])

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)


class _Recorded(BaseRetriever):
    """Wraps a retriever: keeps its raw scores (RRF overwrites them) and maps results to
    the snapshot's own node objects, so both sides fuse on identical node hashes."""

    def __init__(self, inner: BaseRetriever, snap: Snapshot) -> None:
        super().__init__()
        self.inner = inner
        self.snap = snap
        self.scores: dict[str, float] = {}

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        out = []
        for r in self.inner.retrieve(query_bundle):
            node = self.snap.sentences.get(r.node.node_id)
            if node is None or not (r.score or 0.0) > 0:
                # Not committed (ingest in progress), stale, or filtered out (bm25s
                # zeroes masked documents but still returns them).
                continue
            self.scores[node.node_id] = float(r.score or 0.0)
            out.append(NodeWithScore(node=node, score=r.score))
        return out


def _filters(papers: list[str] | None, files: list[str] | None) -> MetadataFilters | None:
    fs = []
    if papers:
        fs.append(MetadataFilter(key="paper_id", value=list(papers), operator=FilterOperator.IN))
    if files:
        fs.append(MetadataFilter(key="source", value=list(files), operator=FilterOperator.IN))
    return MetadataFilters(filters=fs, condition=FilterCondition.AND) if fs else None  # type: ignore[arg-type]


def _rrf(rankings: list[list[str]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking):
            out[key] = out.get(key, 0.0) + 1.0 / (RRF_K + rank)
    return out


def _cos_from_chroma(similarity: float) -> float:
    # ChromaVectorStore reports exp(-cosine_distance).
    return 1.0 + math.log(max(similarity, 1e-12))


@dataclass
class Retrieval:
    """Ranked papers plus the raw material for explanations."""

    hits: list[Hit]
    query_vec: np.ndarray
    sentence_rank: list[str] = field(default_factory=list)


class Retriever:
    """Owns the current snapshot of the index; safe to share between threads."""

    def __init__(self, store: Store, embedder: Embedder, home: Path, *, sentence_pool: int = 60) -> None:
        self.store = store
        self.embedder = embedder
        self.home = home
        self.sentence_pool = sentence_pool
        self._snap: Snapshot | None = None
        self._vectors: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()
        self._qcache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._index = VectorStoreIndex.from_vector_store(store.vs_sentences, embed_model=LlamaEmbedding(embedder))

    @property
    def snapshot(self) -> Snapshot:
        if self._snap is None:
            self.refresh(force=True)
        assert self._snap is not None
        return self._snap

    def refresh(self, *, force: bool = False) -> bool:
        """Reload when another writer committed; returns True if the view changed."""
        with self._lock:
            if not force and self._snap is not None and stamp_of(self.store.manifest()) == self._snap.stamp:
                return False
            snap = load_snapshot(self.store, self.home)
            got = self.store.sentences.get(ids=list(snap.sentences), include=["embeddings"]) if snap.sentences else None
            vectors = {}
            if got is not None:
                vectors = {
                    i: np.asarray(e, dtype=np.float32)
                    for i, e in zip(got["ids"], rows(got["embeddings"]), strict=False)
                }
            self._snap, self._vectors = snap, vectors
            return True

    def embed_query(self, text: str, *, cache: bool = True) -> np.ndarray:
        """Query vector, from a small LRU cache unless `cache` is off (benchmarks)."""
        if cache:
            with self._lock:
                if text in self._qcache:
                    self._qcache.move_to_end(text)
                    return self._qcache[text]
        vec = self.embedder.embed([text])[0]
        if cache:
            with self._lock:
                self._qcache[text] = vec
                while len(self._qcache) > QUERY_CACHE_SIZE:
                    self._qcache.popitem(last=False)
        return vec

    def sentence_vectors(self, ids: list[str]) -> np.ndarray:
        return np.stack([self._vectors[i] for i in ids]) if ids else np.zeros((0, 1), dtype=np.float32)

    def retrieve(
        self,
        question: str,
        *,
        top_k: int = 5,
        papers: list[str] | None = None,
        files: list[str] | None = None,
        min_sources: int = 10,
        query_vec: np.ndarray | None = None,
        cache: bool = True,
        mode: str = "hybrid",
    ) -> Retrieval:
        """Rank papers for `question`. `mode` "dense" or "bm25" keeps one side only
        (used to show that the hybrid beats each of its parts)."""
        snap = self.snapshot
        qv = self.embed_query(question, cache=cache) if query_vec is None else query_vec
        flt = _filters(papers, files)
        bundle = QueryBundle(query_str=question, embedding=list(map(float, qv)))
        allowed = [
            pid for pid, p in snap.papers.items() if (not papers or pid in papers) and (not files or p.source in files)
        ]
        if not allowed or snap.bm25_sentences is None or snap.bm25_papers is None:
            return Retrieval([], qv)
        pool = min(self.sentence_pool, len(snap.sentences))

        dense = _Recorded(self._index.as_retriever(similarity_top_k=pool, filters=flt), snap)
        bm25 = _Recorded(
            BM25Retriever(existing_bm25=snap.bm25_sentences.bm25, similarity_top_k=pool, filters=flt), snap
        )
        parts: list[BaseRetriever] = [dense] if mode == "dense" else [bm25] if mode == "bm25" else [dense, bm25]
        fusion = QueryFusionRetriever(
            parts,
            llm=MockLLM(),
            mode=FUSION_MODES.RECIPROCAL_RANK,
            num_queries=1,  # type: ignore[arg-type]
            similarity_top_k=pool,
            use_async=False,
        )
        fused = fusion.retrieve(bundle)

        # Paper level: centroid cosine (dense) and BM25 over whole abstracts.
        n_papers = min(len(snap.papers), max(min_sources, top_k, 50))
        pres = self.store.vs_papers.query(
            VectorStoreQuery(query_embedding=bundle.embedding, similarity_top_k=n_papers, filters=flt)
        )
        paper_dense = {
            n.node_id: _cos_from_chroma(s) for n, s in zip(pres.nodes or [], pres.similarities or [], strict=False)
        }
        pbm = BM25Retriever(existing_bm25=snap.bm25_papers.bm25, similarity_top_k=n_papers, filters=flt)
        paper_bm25 = {r.node.node_id: float(r.score or 0.0) for r in pbm.retrieve(QueryBundle(query_str=question))}

        per_paper: dict[str, list[SentenceHit]] = {}
        for r in fused:
            m = r.node.metadata
            pid = m["paper_id"]
            paper = snap.papers[pid]
            per_paper.setdefault(pid, []).append(
                SentenceHit(
                    chunk_id=r.node.node_id,
                    paper_id=pid,
                    sent_index=int(m["sent_index"]),
                    quote=paper.abstract[int(m["start"]) : int(m["end"])],
                    text=r.node.get_content(),
                    dense=_cos_from_chroma(dense.scores[r.node.node_id]) if r.node.node_id in dense.scores else None,
                    bm25=bm25.scores.get(r.node.node_id),
                    fused=float(r.score or 0.0),
                )
            )
        sent_rank = sorted(per_paper, key=lambda p: (-per_paper[p][0].fused, p))
        dense_rank = sorted((p for p in paper_dense if p in snap.papers), key=lambda p: (-paper_dense[p], p))
        bm25_rank = sorted(
            (p for p in paper_bm25 if paper_bm25[p] > 0 and p in snap.papers), key=lambda p: (-paper_bm25[p], p)
        )
        rankings = {"dense": [sent_rank, dense_rank], "bm25": [sent_rank, bm25_rank]}
        fused_papers = _rrf(rankings.get(mode, [sent_rank, dense_rank, bm25_rank]))
        for pid in allowed:
            fused_papers.setdefault(pid, 0.0)
        # A paper the question names (its coined name, e.g. "GENIE") leads the ranking.
        named = named_papers(question, {p: snap.papers[p].label for p in fused_papers})
        order = sorted(fused_papers, key=lambda p: (p not in named, -fused_papers[p], p))[: max(min_sources, top_k)]
        hits = []
        for pid in order:
            paper = snap.papers[pid]
            sents = per_paper.get(pid, [])
            hits.append(
                Hit(
                    paper_id=pid,
                    label=paper.label,
                    title=paper.title,
                    score=round(fused_papers[pid], 6),
                    dense=round(paper_dense.get(pid, 0.0), 6),
                    bm25=round(paper_bm25.get(pid, 0.0), 6),
                    sentence_score=round(sents[0].fused, 6) if sents else 0.0,
                    best_cosine=round(max((s.dense or 0.0) for s in sents), 6) if sents else 0.0,
                    sentences=sents[:5],
                )
            )
        return Retrieval(hits, qv, [r.node.node_id for r in fused])


def named_papers(question: str, labels: dict[str, str]) -> set[str]:
    """Papers whose label appears in the question as a whole word (case-sensitive)."""
    out = set()
    for pid, label in labels.items():
        if len(label) >= 3 and label in question and re.search(rf"(?<![\w-]){re.escape(label)}(?![\w-])", question):
            out.add(pid)
    return out
