"""Hybrid retrieval: dense (Chroma) + BM25 sentences fused by RRF, combined with paper-level signals."""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bm25s
import numpy as np
from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.llms import MockLLM
from llama_index.core.retrievers import QueryFusionRetriever
from llama_index.core.retrievers.fusion_retriever import FUSION_MODES
from llama_index.core.schema import NodeWithScore, QueryBundle
from llama_index.retrievers.bm25 import BM25Retriever

from rag.index.snapshot import Snapshot, load_snapshot
from rag.index.store import Store, stamp_of
from rag.models.embed import Embedder
from rag.types import Hit, SentenceHit

log = logging.getLogger(__name__)

RRF_K = 60.0
QUERY_CACHE_SIZE = 2048
# Fusion with one query never calls its LLM; an explicit one keeps it from reaching for OpenAI.
_NO_LLM = MockLLM()


class _DenseIds(BaseRetriever):
    """Nearest sentences from the Chroma collection's HNSW index.

    Asks Chroma for ids and distances only: the snapshot already holds every committed
    sentence, so fetching documents and metadata per query (what `ChromaVectorStore.query`
    does) would cost ~10 ms and rebuild nodes we have. Raw cosine scores are kept, since
    reciprocal-rank fusion overwrites them.
    """

    def __init__(self, collection: Any, snap: Snapshot, k: int, where: dict[str, Any] | None) -> None:
        super().__init__()
        self.collection, self.snap, self.k, self.where = collection, snap, k, where
        self.scores: dict[str, float] = {}

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        got = self.collection.query(
            query_embeddings=[query_bundle.embedding], n_results=self.k, where=self.where, include=["distances"]
        )
        out = []
        for cid, dist in zip(got["ids"][0], (got["distances"] or [[]])[0], strict=False):
            node = self.snap.sentences.get(cid)
            if node is None:  # not committed (an ingest in progress) or stale
                continue
            self.scores[cid] = 1.0 - float(dist)
            out.append(NodeWithScore(node=node, score=self.scores[cid]))
        return out


class _BM25Ids(BaseRetriever):
    """BM25 (bm25s, built by llama-index's `BM25Retriever`) scored straight from its arrays.

    `BM25Retriever.retrieve` rebuilds every hit from JSON and computes a filter mask over
    the whole corpus in its constructor; here the mask is one numpy comparison and hits
    map by position to the snapshot's nodes.
    """

    def __init__(
        self, bm25: BM25Retriever, ids: list[str], nodes: dict[str, Any], k: int, mask: np.ndarray | None
    ) -> None:
        super().__init__()
        self.bm25, self.ids, self.nodes, self.k, self.mask = bm25, ids, nodes, k, mask
        self.scores: dict[str, float] = {}

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        scores = bm25_scores(self.bm25, query_bundle.query_str, self.mask)
        if scores is None:
            return []
        k = min(self.k, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.lexsort((top, -scores[top]))]  # by score, ties by position: deterministic
        out = []
        for i in top:
            if scores[i] <= 0:
                break
            node = self.nodes.get(self.ids[i])
            if node is not None:
                self.scores[self.ids[i]] = float(scores[i])
                out.append(NodeWithScore(node=node, score=float(scores[i])))
        return out


def bm25_scores(retriever: BM25Retriever, query: str, mask: np.ndarray | None) -> np.ndarray | None:
    """Scores of every document for `query`, tokenised exactly as the index was (None: no known term)."""
    tokens = bm25s.tokenize(
        query,
        stemmer=None if retriever.skip_stemming else retriever.stemmer,
        token_pattern=retriever.token_pattern,
        return_ids=False,
        show_progress=False,
    )[0]
    vocab = retriever.bm25.vocab_dict
    ids = [vocab[t] for t in tokens if t in vocab]
    if not ids:
        return None
    scores = np.asarray(retriever.bm25.get_scores(ids), dtype=np.float32)
    return scores * mask if mask is not None else scores


def _where(papers: list[str] | None, files: list[str] | None) -> dict[str, Any] | None:
    fs: list[dict[str, Any]] = []
    if papers:
        fs.append({"paper_id": {"$in": list(papers)}})
    if files:
        fs.append({"source": {"$in": list(files)}})
    return None if not fs else fs[0] if len(fs) == 1 else {"$and": fs}


def _rrf(rankings: list[list[str]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking):
            out[key] = out.get(key, 0.0) + 1.0 / (RRF_K + rank)
    return out


@dataclass
class Retrieval:
    """Ranked papers plus the raw material for explanations."""

    hits: list[Hit]
    query_vec: np.ndarray
    sentence_rank: list[str] = field(default_factory=list)


class Retriever:
    """Owns the current snapshot of the index; safe to share between threads.

    Another process (a CLI ingest, another app instance on the same Chroma server) may
    commit at any time: at most every `refresh_interval` seconds one reader checks the
    store's stamp (one cheap read) and swaps in a new snapshot while the others go on with
    the old one. `pinned()` holds one snapshot for the length of an answer.
    """

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        home: Path,
        *,
        sentence_pool: int = 60,
        refresh_interval: float = 1.0,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.home = home
        self.sentence_pool = sentence_pool
        self.refresh_interval = refresh_interval
        self._snap: Snapshot | None = None
        self._checked = 0.0
        self._lock = threading.Lock()  # query cache
        self._refresh_lock = threading.Lock()
        self._pinned: ContextVar[Snapshot | None] = ContextVar(f"pinned-{id(self)}", default=None)
        self._qcache: OrderedDict[str, np.ndarray] = OrderedDict()

    @property
    def snapshot(self) -> Snapshot:
        pinned = self._pinned.get()
        if pinned is not None:
            return pinned
        if self._snap is None:
            with self._refresh_lock:
                if self._snap is None:  # another thread may have loaded it meanwhile
                    self._snap = load_snapshot(self.store, self.home)
                    self._checked = time.monotonic()
        elif time.monotonic() - self._checked >= self.refresh_interval:
            self.refresh()
        assert self._snap is not None
        return self._snap

    @contextmanager
    def pinned(self) -> Iterator[Snapshot]:
        """Answer from one snapshot even if another writer commits meanwhile."""
        if self._pinned.get() is not None:  # already pinned by an outer call
            yield self.snapshot
            return
        token = self._pinned.set(self.snapshot)
        try:
            yield self.snapshot
        finally:
            self._pinned.reset(token)

    def refresh(self, *, force: bool = False) -> bool:
        """Reload when another writer committed; returns True if the view changed."""
        if not force and not self._refresh_lock.acquire(blocking=False):
            return False  # someone else is checking; go on with the current view
        if force:
            self._refresh_lock.acquire()
        try:
            self._checked = time.monotonic()
            if not force and self._snap is not None:
                current = self.store.stamp() or stamp_of(self.store.manifest())
                if current == self._snap.stamp:
                    return False
                log.info("index changed (stamp %s -> %s): reloading", self._snap.stamp, current)
            self._snap = load_snapshot(self.store, self.home)
            self._checked = time.monotonic()
            return True
        finally:
            self._refresh_lock.release()

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

    def cosine(self, a: str, b: str) -> float:
        """Embedding cosine of two texts (cached query vectors), for the support judge."""
        return float(self.embed_query(a) @ self.embed_query(b))

    def sentence_vectors(self, ids: list[str]) -> np.ndarray:
        vectors = self.snapshot.vectors
        return np.stack([vectors[i] for i in ids]) if ids else np.zeros((0, 1), dtype=np.float32)

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
        bundle = QueryBundle(query_str=question, embedding=list(map(float, qv)))
        restricted = bool(papers or files)
        # Per-query work stays proportional to the candidates, not the corpus: the full
        # paper list is only walked when a filter asks for it.
        allowed = (
            [
                pid
                for pid, p in snap.papers.items()
                if (not papers or pid in papers) and (not files or p.source in files)
            ]
            if restricted
            else []
        )
        if (restricted and not allowed) or not snap.papers or snap.bm25_sentences is None or snap.bm25_papers is None:
            return Retrieval([], qv)
        pool = min(self.sentence_pool, len(snap.sentences))
        allowed_set = set(allowed)

        dense = _DenseIds(self.store.sentences, snap, pool, _where(papers, files) if restricted else None)
        bm25 = _BM25Ids(snap.bm25_sentences, snap.bm25_sentence_ids, snap.sentences, pool, None)
        if restricted:
            bm25.mask = _mask(snap, "sentence", allowed_set)
        parts: list[BaseRetriever] = [dense] if mode == "dense" else [bm25] if mode == "bm25" else [dense, bm25]
        fusion = QueryFusionRetriever(
            parts,
            llm=_NO_LLM,
            mode=FUSION_MODES.RECIPROCAL_RANK,
            num_queries=1,  # type: ignore[arg-type]
            similarity_top_k=pool,
            use_async=False,
        )
        fused = fusion.retrieve(bundle)

        # Paper level: centroid cosine (exact, over the snapshot's centroids) and BM25 over
        # whole abstracts.
        n_papers = min(len(snap.papers), max(min_sources, top_k, 50))
        paper_dense = _top_papers(snap, qv, allowed_set if restricted else None, n_papers)
        pmask = _mask(snap, "paper", allowed_set) if restricted else None
        pscores = bm25_scores(snap.bm25_papers, question, pmask)
        paper_bm25: dict[str, float] = {}
        if pscores is not None:
            top = np.argsort(-pscores, kind="stable")[:n_papers]
            paper_bm25 = {snap.bm25_paper_ids[i]: float(pscores[i]) for i in top if pscores[i] > 0}

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
                    quote=snap.quote(r.node.node_id),
                    text=r.node.get_content(),
                    dense=dense.scores.get(r.node.node_id),
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
        for pid in allowed:  # a filtered search lists every allowed paper
            fused_papers.setdefault(pid, 0.0)
        # A paper the question names (its coined name, e.g. "GENIE") leads the ranking.
        named = {p for p in snap.named_in(question) if not restricted or p in allowed_set}
        for pid in named:
            fused_papers.setdefault(pid, 0.0)
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


def _mask(snap: Snapshot, kind: str, allowed: set[str]) -> np.ndarray:
    """1.0 for documents of allowed papers, in BM25 document order."""
    owner = snap.paper_owner if kind == "paper" else snap.sentence_owner
    return np.isin(owner, list(allowed)).astype(np.float32)


def _top_papers(snap: Snapshot, qv: np.ndarray, allowed: set[str] | None, n: int) -> dict[str, float]:
    """Exact centroid cosine of the best `n` papers (a few thousand rows: one matrix product)."""
    if not snap.paper_ids:
        return {}
    cos = snap.centroids @ np.asarray(qv, dtype=np.float32)
    if allowed is not None:
        cos = np.where([p in allowed for p in snap.paper_ids], cos, -np.inf)
    top = np.argsort(-cos, kind="stable")[:n]
    return {snap.paper_ids[i]: float(cos[i]) for i in top if np.isfinite(cos[i])}
