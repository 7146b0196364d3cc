"""Synthetic corpora for `rag bench`: real-length texts and indexes of 1k–100k chunks.

Texts are made from the shipped corpus's sentences with a seeded share of words swapped,
so every text is distinct (nothing is embedded twice by accident) yet reads and tokenises
like an abstract. For the large retrieval sizes, vectors are real sentence vectors plus
seeded noise: latency does not depend on meaning, and embedding 100k chunks for real
would take half an hour here.
"""

from __future__ import annotations

import logging
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from rag.answer.pipeline import ask
from rag.index.chunks import paper_hash, paper_node, sentence_node
from rag.index.store import Store
from rag.models.embed import Embedder
from rag.retrieval.retriever import Retriever
from rag.types import Answer, Paper, Query

log = logging.getLogger(__name__)

SENTENCES_PER_PAPER = 10
# Noise scale for synthetic vectors: neighbours stay close to their base sentence
# (cosine ~0.8), so HNSW faces realistic clusters rather than uniform noise.
NOISE = 0.035


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def ms_stats(xs: list[float]) -> dict[str, float]:
    return {"p50_ms": round(statistics.median(xs) * 1000, 2), "p95_ms": round(pct(xs, 95) * 1000, 2)}


def latency(fn: Any, items: list[Any]) -> dict[str, float]:
    """p50/p95 of `fn(item)` over the items, one timed call each."""
    xs = []
    for item in items:
        t = time.perf_counter()
        fn(item)
        xs.append(time.perf_counter() - t)
    return ms_stats(xs)


def uncached_answer(retriever: Retriever) -> Callable[[str], Answer]:
    """An end-to-end extractive answer through the pipeline `Engine.ask` uses, query embedding
    included, no cache: what every answer-latency figure of the bench times."""

    def one(q: str) -> Answer:
        return ask(Query(question=q, cache=False), backend="extractive", retriever=retriever)

    return one


def paired_latency(a: Any, b: Any, items: list[Any]) -> tuple[dict[str, float], dict[str, float]]:
    """p50/p95 of `a(item)` and of `b(item)`, timed item by item in turn (which goes first
    alternates): a drift of the machine's speed during the run falls on both alike. Timed one
    after the other, the same code's ratio to the baseline ranged from 1.9 to 3.0 here."""
    xa: list[float] = []
    xb: list[float] = []
    for i, item in enumerate(items):
        for fn, xs in ((a, xa), (b, xb)) if i % 2 == 0 else ((b, xb), (a, xa)):
            t = time.perf_counter()
            fn(item)
            xs.append(time.perf_counter() - t)
    return ms_stats(xa), ms_stats(xb)


def perturb(sentence: str, rng: np.random.Generator, vocab: list[str], share: float = 0.2) -> str:
    """The sentence with about `share` of its words replaced by corpus words."""
    words = sentence.split()
    for i in range(len(words)):
        if rng.random() < share:
            words[i] = vocab[int(rng.integers(len(vocab)))]
    return " ".join(words)


def synthetic_abstracts(sentences: list[str], n: int, *, seed: int = 0) -> list[str]:
    """`n` abstract-length texts (8–11 sentences each), deterministic for a seed."""
    rng = np.random.default_rng(seed)
    vocab = sorted({w for s in sentences for w in s.split() if w.isalpha() and len(w) > 3})
    out = []
    for _ in range(n):
        k = int(rng.integers(8, 12))
        picks = rng.choice(len(sentences), size=k, replace=False)
        out.append(" ".join(perturb(sentences[i], rng, vocab) for i in picks))
    return out


def write_text_corpus(folder: Path, stem: str, abstracts: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.txt"
    path.write_text("Synthetic abstracts for rag bench\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    return path


def build_synthetic_index(
    store: Store,
    base_texts: list[str],
    base_vecs: np.ndarray,
    n_chunks: int,
    *,
    model: str,
    seed: int = 0,
    batch: int = 5000,
) -> None:
    """Fill `store` with `n_chunks` synthetic sentence chunks grouped 10 per paper."""
    rng = np.random.default_rng(seed)
    vocab = sorted({w for s in base_texts for w in s.split() if w.isalpha() and len(w) > 3})
    n_papers = max(1, n_chunks // SENTENCES_PER_PAPER)
    for first in range(0, n_papers, max(1, batch // SENTENCES_PER_PAPER)):
        papers_here = range(first, min(n_papers, first + max(1, batch // SENTENCES_PER_PAPER)))
        sent_nodes, paper_nodes = [], []
        for p in papers_here:
            picks = rng.choice(len(base_texts), size=SENTENCES_PER_PAPER, replace=False)
            texts = [perturb(base_texts[i], rng, vocab) for i in picks]
            vecs = base_vecs[picks] + rng.normal(0.0, NOISE, size=(SENTENCES_PER_PAPER, base_vecs.shape[1]))
            vecs = (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)).astype(np.float32)
            abstract = " ".join(texts)
            paper = Paper(
                paper_id=f"synth#{p + 1}", source="synth", position=p + 1, abstract=abstract, label=f"S{p + 1}"
            )
            starts = np.cumsum([0] + [len(t) + 1 for t in texts[:-1]])
            chunks = [(int(s), int(s) + len(t), t) for s, t in zip(starts, texts, strict=True)]
            h = paper_hash(paper, model, chunks)
            for i, ((start, end, t), v) in enumerate(zip(chunks, vecs, strict=True)):
                node = sentence_node(paper, h, i, start, end, t)
                node.embedding = v.tolist()
                sent_nodes.append(node)
            pn = paper_node(paper, h, SENTENCES_PER_PAPER)
            c = vecs.mean(axis=0)
            pn.embedding = (c / np.linalg.norm(c)).tolist()
            paper_nodes.append(pn)
        store.add_sentences(sent_nodes)
        store.commit_papers(paper_nodes)
    store.record_stamp()


def hnsw_recall(store: Store, vectors: np.ndarray, ids: list[str], queries: np.ndarray, k: int = 10) -> float:
    """Mean overlap of Chroma's HNSW top-k with exact (brute-force) cosine top-k."""
    got = 0.0
    for q in queries:
        exact = {ids[i] for i in np.argsort(-(vectors @ q), kind="stable")[:k]}
        res = store.sentences.query(query_embeddings=[q.tolist()], n_results=k, include=["distances"])
        got += len(exact & set(res["ids"][0])) / k
    return round(got / len(queries), 4)


def time_modes(retriever: Retriever, questions: list[str], qvecs: np.ndarray) -> dict[str, Any]:
    """Retrieval latency per mode, excluding query embedding (vectors given)."""
    out: dict[str, Any] = {}
    for mode in ("dense", "bm25", "hybrid"):
        retriever.retrieve(questions[0], query_vec=qvecs[0], mode=mode)  # warm caches of this mode
        out[mode] = latency(
            lambda qv, mode=mode: retriever.retrieve(qv[0], query_vec=qv[1], mode=mode),
            list(zip(questions, qvecs, strict=True)),
        )
    out["hybrid_incl_query_embedding"] = latency(lambda q: retriever.retrieve(q, cache=False), questions)
    return out


def bench_size(
    home: Path,
    n_chunks: int,
    base_texts: list[str],
    base_vecs: np.ndarray,
    embedder: Embedder,
    questions: list[str],
    qvecs: np.ndarray,
    *,
    hnsw: dict[str, int],
    answer_fn: Any = None,
) -> dict[str, Any]:
    """One synthetic index of `n_chunks`: build it, then time retrieval and check HNSW recall."""
    store = Store(home, collection=f"bench{n_chunks}", hnsw=hnsw)
    t = time.perf_counter()
    build_synthetic_index(store, base_texts, base_vecs, n_chunks, model=embedder.name)
    build_s = time.perf_counter() - t
    retriever = Retriever(store, embedder, home)
    t = time.perf_counter()
    snap = retriever.snapshot
    load_s = time.perf_counter() - t
    ids = list(snap.vectors)
    matrix = np.stack([snap.vectors[i] for i in ids])
    row: dict[str, Any] = {
        "chunks": len(snap.sentences),
        "papers": len(snap.papers),
        "build_seconds": round(build_s, 2),
        "snapshot_load_seconds": round(load_s, 2),
        "hnsw_recall_at_10": hnsw_recall(store, matrix, ids, qvecs),
        "retrieval": time_modes(retriever, questions, qvecs),
    }
    if answer_fn is not None:
        row["answer"] = answer_fn(retriever, questions)
    return row
