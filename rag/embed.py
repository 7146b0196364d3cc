"""Embedders: sentence-transformers from shipped weights, and a deterministic fake for tests."""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable
from typing import Protocol

import numpy as np

from rag.text import content_stems

log = logging.getLogger(__name__)


class Embedder(Protocol):
    name: str
    dim: int
    max_tokens: int

    def embed(self, texts: list[str], *, progress: Callable[[int], None] | None = None) -> np.ndarray:
        """Unit-normalised float32 vectors, one row per text."""
        ...

    def count_tokens(self, text: str) -> int: ...


class SentenceTransformerEmbedder:
    """all-MiniLM-L6-v2 (or any sentence-transformers model), loaded lazily once."""

    def __init__(self, model_path: str, *, batch_size: int = 64, device: str = "cpu") -> None:
        self.model_path = model_path
        self.name = model_path.rstrip("/").split("/")[-1] or model_path
        self.batch_size = batch_size
        self.device = device
        self._model = None
        self._lock = threading.Lock()
        self.dim = 384
        self.max_tokens = 256

    @property
    def model(self):  # type: ignore[no-untyped-def]
        with self._lock:
            if self._model is None:
                import transformers
                from sentence_transformers import SentenceTransformer

                transformers.utils.logging.disable_progress_bar()

                log.info("loading embedding model %s", self.model_path)
                self._model = SentenceTransformer(self.model_path, device=self.device, local_files_only=True)
                self.dim = int(self._model.get_embedding_dimension() or 384)
                self.max_tokens = int(self._model.max_seq_length)
        return self._model

    def count_tokens(self, text: str) -> int:
        # Includes [CLS]/[SEP], which count against the window.
        return len(self.model.tokenizer(text, add_special_tokens=True, truncation=False)["input_ids"])

    def embed(self, texts: list[str], *, progress: Callable[[int], None] | None = None) -> np.ndarray:
        model = self.model
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # Sorting by length keeps padding (wasted compute) low inside each batch.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for b in range(0, len(order), self.batch_size):
            idx = order[b : b + self.batch_size]
            vecs = model.encode(
                [texts[i] for i in idx],
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            out[idx] = vecs
            if progress:
                progress(len(idx))
        return out


class HashEmbedder:
    """Deterministic bag-of-stems hashing embedder: fast, no model, and still ranks.

    Texts sharing content words get similar vectors, so retrieval behaves sensibly in
    unit tests without loading weights.
    """

    name = "hash-embedder"

    def __init__(self, dim: int = 256, max_tokens: int = 256) -> None:
        self.dim = dim
        self.max_tokens = max_tokens

    def count_tokens(self, text: str) -> int:
        return len(text.split()) + 2

    def _vec(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        for stem in content_stems(text):
            h = int.from_bytes(hashlib.blake2b(stem.encode(), digest_size=8).digest(), "little")
            v[h % self.dim] += 1.0 if (h >> 32) & 1 else -1.0
        n = float(np.linalg.norm(v))
        if n == 0:
            v[0] = 1.0
            n = 1.0
        return v / n

    def embed(self, texts: list[str], *, progress: Callable[[int], None] | None = None) -> np.ndarray:
        out = np.stack([self._vec(t) for t in texts]) if texts else np.zeros((0, self.dim), dtype=np.float32)
        if progress:
            progress(len(texts))
        return out
