"""Embedding backends compared on the same texts: throughput, query latency, agreement.

Backends are timed interleaved (torch, onnx, onnx-int8, torch, …) so that noise from a
shared machine hits them alike, and medians are reported. torch is always measured: it is
the reference for speedup and cosine agreement.
"""

from __future__ import annotations

import logging
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from rag.errors import UsageError
from rag.models.embed import EMBED_BACKENDS, SentenceTransformerEmbedder, onnx_unavailable
from rag.settings import default_model_path

log = logging.getLogger(__name__)

REFERENCE = "torch"
QUERY = "Which papers improve the efficiency of attention in long-context transformers?"


def window_texts(chunks: list[str], n: int, *, widths: tuple[int, ...] = (1, 2, 3, 4, 5)) -> list[str]:
    """A bigger deterministic set: windows of 1-5 consecutive chunks, distinct, first `n`."""
    out: dict[str, None] = {}
    for w in widths:
        for i in range(len(chunks) - w + 1):
            out.setdefault(" ".join(chunks[i : i + w]), None)
            if len(out) >= n:
                return list(out)
    return list(out)


def skip_reason(backend: str) -> str | None:
    """Why `backend` cannot be measured here, or None."""
    if backend not in EMBED_BACKENDS:
        return f"unknown backend (choose {', '.join(EMBED_BACKENDS)})"
    return None if backend == REFERENCE else onnx_unavailable()


def _load(backend: str, model_path: str, cache_dir: Path, batch_size: int) -> tuple[SentenceTransformerEmbedder, float]:
    """An embedder with its model loaded (and exported, first time): load time is not throughput."""
    t = time.perf_counter()
    emb = SentenceTransformerEmbedder(model_path, batch_size=batch_size, backend=backend, cache_dir=cache_dir)
    emb.embed(["warm up"])
    return emb, time.perf_counter() - t


def _time_embed(emb: SentenceTransformerEmbedder, texts: list[str]) -> tuple[float, float, np.ndarray]:
    """(wall seconds, CPU seconds of this process, vectors)."""
    t, c = time.perf_counter(), time.process_time()
    vecs = emb.embed(texts)
    return time.perf_counter() - t, time.process_time() - c, vecs


def _time_query(emb: SentenceTransformerEmbedder, query: str, repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        t = time.perf_counter()
        emb.embed([query])
        out.append(time.perf_counter() - t)
    return out


def _agreement(vecs: np.ndarray, ref: np.ndarray) -> tuple[float, float]:
    """Mean and min cosine between the same text's vectors (rows are unit-normalised)."""
    cos = np.sum(vecs * ref, axis=1)
    return float(np.mean(cos)), float(np.min(cos))


def measure_backends(
    texts: list[str],
    backends: list[str],
    *,
    rounds: int = 3,
    cache_dir: Path,
    model_path: str | None = None,
    batch_size: int = 64,
    query: str = QUERY,
    query_repeats: int = 20,
) -> dict[str, Any]:
    """Throughput (chunks/s), single-query latency (ms), speedup and cosine agreement vs torch.

    `chunks_per_cpu_s` divides by this process's CPU time: with one thread per runtime it
    is the work per chunk, barely affected by other processes on a shared machine (with
    more threads it also counts idle spinning).

    Returns {"n_texts", "rounds", "batch_size", "backends": {name: {numbers}}, "skipped": {name: reason}}.
    """
    if not texts:
        raise UsageError("measure_backends needs at least one text")
    wanted = list(dict.fromkeys([REFERENCE, *backends]))
    skipped = {b: why for b in wanted if (why := skip_reason(b))}
    path = model_path or default_model_path()
    loaded = {b: _load(b, path, cache_dir, batch_size) for b in wanted if b not in skipped}
    timings = _time_rounds(loaded, texts, rounds, query, query_repeats)
    ref_s = statistics.median(timings.embed_s[REFERENCE])
    results = {b: _row(timings, b, len(texts), load_s, ref_s) for b, (_, load_s) in loaded.items()}
    return {
        "n_texts": len(texts),
        "rounds": rounds,
        "batch_size": batch_size,
        "backends": results,
        "skipped": skipped,
    }


@dataclass
class _Timings:
    """Per backend: wall and CPU seconds of each embedding round, single-query seconds, and
    the vectors of the first round."""

    embed_s: dict[str, list[float]] = field(default_factory=dict)
    cpu_s: dict[str, list[float]] = field(default_factory=dict)
    query_s: dict[str, list[float]] = field(default_factory=dict)
    vectors: dict[str, np.ndarray] = field(default_factory=dict)


def _time_rounds(
    loaded: dict[str, tuple[SentenceTransformerEmbedder, float]],
    texts: list[str],
    rounds: int,
    query: str,
    query_repeats: int,
) -> _Timings:
    """`rounds` rounds, each timing every backend in turn (interleaved: see the module docstring)."""
    t = _Timings(embed_s={b: [] for b in loaded}, cpu_s={b: [] for b in loaded}, query_s={b: [] for b in loaded})
    for rnd in range(rounds):
        for b, (emb, _) in loaded.items():
            seconds, cpu, vecs = _time_embed(emb, texts)
            t.embed_s[b].append(seconds)
            t.cpu_s[b].append(cpu)
            t.vectors.setdefault(b, vecs)
            t.query_s[b].extend(_time_query(emb, query, query_repeats))
            log.info("round %d %s: %.1f chunks/s", rnd + 1, b, len(texts) / seconds)
    return t


def _row(t: _Timings, b: str, n_texts: int, load_s: float, ref_s: float) -> dict[str, float]:
    """One backend's figures from its medians; `ref_s` is the reference's median embed time."""
    med = statistics.median(t.embed_s[b])
    mean_cos, min_cos = _agreement(t.vectors[b], t.vectors[REFERENCE])
    return {
        "chunks_per_s": round(n_texts / med, 1),
        "embed_s": round(med, 3),
        "query_ms": round(1000 * statistics.median(t.query_s[b]), 2),
        "speedup_vs_torch": round(ref_s / med, 3),
        "chunks_per_cpu_s": round(n_texts / statistics.median(t.cpu_s[b]), 1),
        "mean_cos_vs_torch": round(mean_cos, 5),
        "min_cos_vs_torch": round(min_cos, 5),
        "load_s": round(load_s, 2),
    }
