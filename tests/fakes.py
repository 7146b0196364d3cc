"""Test doubles: a hashing embedder (no model) and a scripted LLM."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterator

import numpy as np

from rag.text.normalize import content_stems


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


class ScriptedLLM:
    """A deterministic fake for tests: replies with a fixed text, in small pieces."""

    name = "scripted"

    def __init__(self, reply: str | Exception, *, chunk: int = 7, delay: float = 0.0) -> None:
        self.reply = reply
        self.chunk = chunk
        self.delay = delay
        self.calls = 0

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float) -> Iterator[str]:
        self.calls += 1
        if isinstance(self.reply, Exception):
            raise self.reply
        for i in range(0, len(self.reply), self.chunk):
            if self.delay:
                time.sleep(self.delay)
            yield self.reply[i : i + self.chunk]
