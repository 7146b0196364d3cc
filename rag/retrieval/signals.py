"""The retrieval signals: dense and BM25 sentence hits (chunk id, score), exact centroid
cosine and BM25 over whole abstracts at paper level, and reciprocal-rank fusion."""

from __future__ import annotations

from typing import Any

import numpy as np

from rag.index.bm25 import Bm25Index
from rag.index.snapshot import Snapshot
from rag.text.normalize import fold

RRF_K = 60.0
Scored = list[tuple[str, float]]  # (chunk id, score), best first


class DenseIds:
    """Nearest sentences by exact cosine over the snapshot's vector matrix (unit vectors, so a
    dot product): no store is opened to answer, and a conference's ~20k sentences are one
    matrix-vector product of a few milliseconds. Raw cosine scores are kept, since
    reciprocal-rank fusion overwrites them."""

    def __init__(self, snap: Snapshot, k: int, allowed: set[str] | None) -> None:
        self.snap, self.k, self.allowed = snap, k, allowed
        self.scores: dict[str, float] = {}

    def retrieve(self, embedding: np.ndarray) -> Scored:
        ids, matrix, owner = self.snap.dense_rows
        if not ids:
            return []
        scores = matrix @ np.asarray(embedding, dtype=np.float32)
        if self.allowed is not None:
            scores = np.where(np.isin(owner, list(self.allowed)), scores, -np.inf)
        k = min(self.k, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.lexsort((top, -scores[top]))]  # by score, ties by position: deterministic
        out = []
        for i in top:
            if not np.isfinite(scores[i]):
                break
            self.scores[ids[i]] = float(scores[i])
            out.append((ids[i], self.scores[ids[i]]))
        return out


class BM25Ids:
    """BM25 (bm25s, with llama-index's `BM25Retriever` settings) scored straight from its arrays.

    `BM25Retriever.retrieve` rebuilds every hit from JSON and computes a filter mask over
    the whole corpus in its constructor; here the mask is one numpy comparison and hits
    map by position to the snapshot's records.
    """

    def __init__(self, bm25: Bm25Index, ids: list[str], nodes: dict[str, Any], k: int, mask: np.ndarray | None) -> None:
        self.bm25, self.ids, self.nodes, self.k, self.mask = bm25, ids, nodes, k, mask
        self.scores: dict[str, float] = {}

    def retrieve(self, query: str) -> Scored:
        scores = bm25_scores(self.bm25, query, self.mask)
        if scores is None:
            return []
        k = min(self.k, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.lexsort((top, -scores[top]))]  # by score, ties by position: deterministic
        out = []
        for i in top:
            if scores[i] <= 0:
                break
            if self.ids[i] in self.nodes:
                self.scores[self.ids[i]] = float(scores[i])
                out.append((self.ids[i], float(scores[i])))
        return out


def fuse(results: list[Scored], top: int) -> Scored:
    """Reciprocal-rank fusion exactly as llama-index's `QueryFusionRetriever` does it (k=60;
    each list re-sorted by score, stable; ties in the fused score keep first-seen order)."""
    fused: dict[str, float] = {}
    for scored in results:
        for rank, (cid, _) in enumerate(sorted(scored, key=lambda x: x[1] or 0.0, reverse=True)):
            fused[cid] = fused.get(cid, 0.0) + 1.0 / (rank + RRF_K)
    return sorted(fused.items(), key=lambda x: x[1], reverse=True)[:top]


def bm25_scores(retriever: Bm25Index, query: str, mask: np.ndarray | None) -> np.ndarray | None:
    """Scores of every document for `query`, tokenised exactly as the index was (None: no known term)."""
    import bm25s

    tokens = bm25s.tokenize(
        fold(query) if retriever.folded else query,
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


def rrf(rankings: list[list[str]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking):
            out[key] = out.get(key, 0.0) + 1.0 / (RRF_K + rank)
    return out


def owner_mask(snap: Snapshot, kind: str, allowed: set[str]) -> np.ndarray:
    """1.0 for documents of allowed papers, in BM25 document order."""
    owner = snap.paper_owner if kind == "paper" else snap.sentence_owner
    return np.isin(owner, list(allowed)).astype(np.float32)


def centroid_cosines(snap: Snapshot, qv: np.ndarray, paper_ids: list[str]) -> dict[str, float]:
    """Exact centroid cosine of the given papers (those of a deep pool past `top_papers`)."""
    rows = [snap.centroid_row[p] for p in paper_ids if p in snap.centroid_row]
    if not rows:
        return {}
    cos = snap.centroids[rows] @ np.asarray(qv, dtype=np.float32)
    return {snap.paper_ids[r]: float(c) for r, c in zip(rows, cos, strict=True)}


def top_papers(snap: Snapshot, qv: np.ndarray, allowed: set[str] | None, n: int) -> dict[str, float]:
    """Exact centroid cosine of the best `n` papers (a few thousand rows: one matrix product)."""
    if not snap.paper_ids:
        return {}
    cos = snap.centroids @ np.asarray(qv, dtype=np.float32)
    if allowed is not None:
        cos = np.where([p in allowed for p in snap.paper_ids], cos, -np.inf)
    top = np.argsort(-cos, kind="stable")[:n]
    return {snap.paper_ids[i]: float(cos[i]) for i in top if np.isfinite(cos[i])}


def paper_signals(
    snap: Snapshot, question: str, qv: np.ndarray, allowed: set[str] | None, n: int
) -> tuple[dict[str, float], dict[str, float]]:
    """Paper level: centroid cosine (exact, over the snapshot's centroids) and BM25 over
    whole abstracts, each for the best `n` papers."""
    assert snap.bm25_papers is not None
    paper_dense = top_papers(snap, qv, allowed, n)
    pmask = owner_mask(snap, "paper", allowed) if allowed is not None else None
    pscores = bm25_scores(snap.bm25_papers, question, pmask)
    paper_bm25: dict[str, float] = {}
    if pscores is not None:
        top = np.argsort(-pscores, kind="stable")[:n]
        paper_bm25 = {snap.bm25_paper_ids[i]: float(pscores[i]) for i in top if pscores[i] > 0}
    return paper_dense, paper_bm25


def best_cosine(snap: Snapshot, paper_id: str, qv: np.ndarray) -> float:
    """The question's best cosine with any sentence of the paper, from the same snapshot the
    ranking used: a paper ranked by its title or name may have no sentence in the dense pool."""
    rows = snap.paper_rows.get(paper_id)
    return float((snap.dense_rows[1][rows] @ qv).max()) if rows is not None and len(rows) else 0.0


# Reciprocal-rank fusion keeps ranks, not margins: a paper first by whole-abstract BM25 by far,
# but far from the question's vector on average (its centroid), fell to 7th-9th behind papers
# middling in all three rankings. On every single question of the dev sets at 2,416 papers
# where the first paper's BM25 is >= 1.4x the second's (427), that paper is the gold one
# (1.3-1.4x: 24 of 25); retrieval's first paper missed 5 of the 427 (tuned on eval/dev*.jsonl).
DOMINANT_BM25 = 1.4


def dominant_paper(paper_bm25: dict[str, float]) -> str | None:
    """The paper whose whole-abstract BM25 is at least `DOMINANT_BM25` times every other's."""
    top = sorted(paper_bm25.items(), key=lambda x: (-x[1], x[0]))[:2]
    if len(top) == 2 and top[0][1] > 0 and top[0][1] >= DOMINANT_BM25 * top[1][1]:
        return top[0][0]
    return None
