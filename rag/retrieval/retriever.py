"""Hybrid retrieval: dense (exact, over the snapshot's vectors) + BM25 sentences fused by RRF, combined with paper-level signals."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from rag.index.arrays import published as published_stamp
from rag.index.loading import load_published, load_snapshot
from rag.index.snapshot import Snapshot
from rag.index.store import Store, stamp_of
from rag.models.embed import Embedder
from rag.retrieval.queries import QueryVectors
from rag.retrieval.signals import (
    BM25Ids,
    DenseIds,
    best_cosine,
    centroid_cosines,
    dominant_paper,
    fuse,
    owner_mask,
    paper_signals,
    rrf,
)
from rag.types import Hit, Paper, SentenceHit

log = logging.getLogger(__name__)


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
        store: Store | Callable[[], Store],
        embedder: Embedder,
        home: Path,
        *,
        collection: str | None = None,
        published: bool = False,
        sentence_pool: int = 60,
        paper_pool: int = 50,
        refresh_interval: float = 1.0,
    ) -> None:
        """`store`: the store, or a function opening it when first needed. `published`: read
        the snapshot the last writer published (rag/index/arrays.py) without opening the store
        while its files are all there (an embedded store, whose writers run on this machine)."""
        self._store = store
        if isinstance(store, Store):
            collection = collection or store.name
        elif collection is None:
            raise ValueError("a store opened later needs its collection name")
        self.collection = collection
        self.published = published
        self.embedder = embedder
        self.home = home
        self.sentence_pool = sentence_pool
        self.paper_pool = paper_pool  # papers ranked by each paper-level signal
        self.refresh_interval = refresh_interval
        self._snap: Snapshot | None = None
        self._checked = 0.0
        self._refresh_lock = threading.Lock()
        self._pinned: ContextVar[Snapshot | None] = ContextVar(f"pinned-{id(self)}", default=None)
        self.queries = QueryVectors(embedder)

    @cached_property
    def store(self) -> Store:
        return self._store if isinstance(self._store, Store) else self._store()

    def _load(self) -> Snapshot:
        snap = load_published(self.home, self.collection) if self.published else None
        return snap or load_snapshot(self.store, self.home)

    def _current_stamp(self) -> str | None:
        """The committed stamp: as published (one small file), else as the store records it."""
        stamp = published_stamp(self.home, self.collection) if self.published else None
        return stamp or self.store.stamp() or stamp_of(self.store.manifest())

    @property
    def snapshot(self) -> Snapshot:
        pinned = self._pinned.get()
        if pinned is not None:
            return pinned
        if self._snap is None:
            with self._refresh_lock:
                if self._snap is None:  # another thread may have loaded it meanwhile
                    self._snap = self._load()
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
                current = self._current_stamp()
                if current == self._snap.stamp:
                    return False
                log.info("index changed (stamp %s -> %s): reloading", self._snap.stamp, current)
            self._snap = self._load()
            self._checked = time.monotonic()
            return True
        finally:
            self._refresh_lock.release()

    def embed_query(self, text: str, *, cache: bool = True) -> np.ndarray:
        """Query vector, from a small LRU cache unless `cache` is off (benchmarks)."""
        return self.queries.one(text, cache=cache)

    def embed_queries(self, texts: list[str], *, cache: bool = True) -> dict[str, np.ndarray]:
        """Several query vectors from one model call (see `QueryVectors.many`)."""
        return self.queries.many(texts, cache=cache)

    def cosine(self, a: str, b: str) -> float:
        """Embedding cosine of two texts (cached query vectors), for the support judge."""
        return float(self.embed_query(a) @ self.embed_query(b))

    def sentence_vectors(self, ids: list[str]) -> np.ndarray:
        return self.snapshot.rows_of(ids) if ids else np.zeros((0, 1), dtype=np.float32)

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
        """Rank papers for `question`: sentence hits -> paper signals -> fuse. `mode` "dense"
        or "bm25" keeps one side only (used to show that the hybrid beats each of its parts)."""
        snap = self.snapshot
        qv = self.embed_query(question, cache=cache) if query_vec is None else query_vec
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
        scope = _Scope(set(allowed)) if restricted else None
        per_paper, fused_ids = self._sentence_hits(snap, question, qv, scope, mode)
        n_papers = min(len(snap.papers), max(min_sources, top_k, self.paper_pool))
        paper_dense, paper_bm25 = paper_signals(snap, question, qv, scope.allowed if scope else None, n_papers)
        sent_rank = sorted(per_paper, key=lambda p: (-per_paper[p][0].fused, p))
        dense_rank = sorted((p for p in paper_dense if p in snap.papers), key=lambda p: (-paper_dense[p], p))
        bm25_rank = sorted(
            (p for p in paper_bm25 if paper_bm25[p] > 0 and p in snap.papers), key=lambda p: (-paper_bm25[p], p)
        )
        rankings = {"dense": [sent_rank, dense_rank], "bm25": [sent_rank, bm25_rank]}
        fused_papers = rrf(rankings.get(mode, [sent_rank, dense_rank, bm25_rank]))
        for pid in allowed:  # a filtered search lists every allowed paper
            fused_papers.setdefault(pid, 0.0)
        # A paper the question names ("GENIE", "the paper on <its title's words>") leads; else
        # one whose whole abstract matches the question's words far better than any other.
        named = {p for p in _named(snap, question) if scope is None or p in scope.allowed}
        if not named and mode != "dense" and (dominant := dominant_paper(paper_bm25)) in snap.papers:
            named = {dominant}
        for pid in named:
            fused_papers.setdefault(pid, 0.0)
        order = sorted(fused_papers, key=lambda p: (p not in named, -fused_papers[p], p))[: max(min_sources, top_k)]
        # A hit's paper-level cosine is exact even past the dense ranking's depth: a deep list
        # compares its papers by it, and a missing one would read as 0.
        paper_dense |= centroid_cosines(snap, qv, [p for p in order if p not in paper_dense])
        hits = [
            _hit(snap.papers[pid], fused_papers[pid], paper_dense, paper_bm25, per_paper, best_cosine(snap, pid, qv))
            for pid in order
        ]
        return Retrieval(hits, qv, fused_ids)

    def _sentence_hits(
        self, snap: Snapshot, question: str, qv: np.ndarray, scope: _Scope | None, mode: str
    ) -> tuple[dict[str, list[SentenceHit]], list[str]]:
        """Dense and BM25 sentence hits fused by reciprocal rank (llama-index's fusion, done
        in place: importing llama-index costs a cold `rag ask` ~1 s), grouped by paper (best
        first), and the fused sentence order."""
        assert snap.bm25_sentences is not None
        pool = min(self.sentence_pool, len(snap.sentences))
        dense = DenseIds(snap, pool, scope.allowed if scope else None)
        bm25 = BM25Ids(snap.bm25_sentences, snap.bm25_sentence_ids, snap.sentences, pool, None)
        if scope is not None:
            bm25.mask = owner_mask(snap, "sentence", scope.allowed)
        parts = []
        if mode != "bm25":
            parts.append(dense.retrieve(qv))
        if mode != "dense":
            parts.append(bm25.retrieve(question))
        fused = fuse(parts, pool)
        per_paper: dict[str, list[SentenceHit]] = {}
        for cid, score in fused:
            node = snap.sentences[cid]
            m = node.metadata
            per_paper.setdefault(m["paper_id"], []).append(
                SentenceHit(
                    chunk_id=cid,
                    paper_id=m["paper_id"],
                    sent_index=int(m["sent_index"]),
                    quote=snap.quote(cid),
                    text=node.get_content(),
                    dense=dense.scores.get(cid),
                    bm25=bm25.scores.get(cid),
                    fused=float(score or 0.0),
                )
            )
        return per_paper, [cid for cid, _ in fused]


def _named(snap: Snapshot, question: str) -> set[str]:
    """Papers the question names: by label, or by its title's words (`Snapshot.referenced_in`)."""
    return snap.named_in(question) | snap.referenced_in(question)


@dataclass
class _Scope:
    """A filtered search: the allowed papers."""

    allowed: set[str]


def _hit(
    paper: Paper,
    score: float,
    paper_dense: dict[str, float],
    paper_bm25: dict[str, float],
    per_paper: dict[str, list[SentenceHit]],
    best_cosine: float,
) -> Hit:
    pid = paper.paper_id
    sents = per_paper.get(pid, [])
    return Hit(
        paper_id=pid,
        label=paper.label,
        title=paper.title,
        score=round(score, 6),
        dense=round(paper_dense.get(pid, 0.0), 6),
        bm25=round(paper_bm25.get(pid, 0.0), 6),
        sentence_score=round(sents[0].fused, 6) if sents else 0.0,
        best_cosine=round(best_cosine, 6),
        sentences=sents[:5],
    )
