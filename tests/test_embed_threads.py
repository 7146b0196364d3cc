"""The real embedder under concurrency: counting tokens never changes another thread's embedding.

Regression test: counting used the tokenizer `encode` uses, with truncation off; a fast
tokenizer keeps that setting as state, so a long question embedded during an ingest could
come out untruncated (a different vector, a different answer).
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from rag.models.embed import SentenceTransformerEmbedder
from rag.settings import Settings

pytestmark = pytest.mark.slow


def test_counting_during_embedding_changes_nothing() -> None:
    emb = SentenceTransformerEmbedder(Settings().model_path())
    long_q = " ".join(f"token{i} graph diffusion model" for i in range(120))[:2000]
    solo = emb.embed([long_q])[0]
    stop = threading.Event()
    counts: list[int] = []
    mismatches: list[float] = []

    def count() -> None:
        while not stop.is_set():
            counts.append(emb.count_tokens("short question about graphs"))
            counts.append(emb.count_tokens(long_q))

    def embed() -> None:
        for _ in range(15):
            v = emb.embed([long_q])[0]
            if not np.allclose(v, solo, atol=1e-5):
                mismatches.append(float(v @ solo))

    threads = [threading.Thread(target=count)] + [threading.Thread(target=embed) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads[1:]:
        t.join(timeout=300)
    stop.set()
    threads[0].join(timeout=60)
    assert not mismatches, f"{len(mismatches)} of 30 embeddings changed under concurrent counting"
    assert set(counts[1::2]) == {emb.count_tokens(long_q)} and emb.count_tokens(long_q) > emb.max_tokens
