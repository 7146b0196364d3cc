"""Embedders: sentence-transformers from shipped weights, and a deterministic fake for tests.

The sentence-transformers embedder runs on one of three backends: `torch` (the default),
`onnx` (the transformer exported once to ONNX and run by ONNX Runtime, fp32) and
`onnx-int8` (the same export, dynamically quantised to int8). sentence-transformers' own
`backend="onnx"` needs optimum-onnx, which requires transformers < 4.58 and so cannot sit
beside transformers 5.x; the export here uses torch's exporter and ONNX Runtime directly.
Only the transformer runs in ONNX Runtime: tokenisation and the pooling/normalise modules
are the model's own, so the pipeline is the same as with torch.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Literal, Protocol, get_args

import numpy as np

from rag.errors import UsageError
from rag.models.onnx import OnnxEncoder, ensure_onnx

log = logging.getLogger(__name__)

EmbedBackend = Literal["torch", "onnx", "onnx-int8"]
EMBED_BACKENDS: tuple[str, ...] = get_args(EmbedBackend)
ONNX_INSTALL_HINT = "pip install -e '.[onnx]'"


class Embedder(Protocol):
    name: str
    dim: int
    max_tokens: int

    def embed(self, texts: list[str], *, progress: Callable[[int], None] | None = None) -> np.ndarray:
        """Unit-normalised float32 vectors, one row per text."""
        ...

    def count_tokens(self, text: str) -> int: ...


def onnx_unavailable() -> str | None:
    """Why the ONNX backends cannot run here (missing packages), or None if they can."""
    missing = [p for p in ("onnxruntime", "onnx") if importlib.util.find_spec(p) is None]
    if not missing:
        return None
    return f"the onnx embedding backends need {' and '.join(missing)}: {ONNX_INSTALL_HINT}"


def backend_model_name(base: str, backend: str) -> str:
    """Index-facing model name. Backends give slightly different vectors, so non-torch ones get
    their own name (paper hashes include it, so switching backend re-embeds instead of mixing)."""
    return base if backend == "torch" else f"{base}+{backend}"


class SentenceTransformerEmbedder:
    """all-MiniLM-L6-v2 (or any sentence-transformers model), loaded lazily once.

    `backend` "onnx"/"onnx-int8" export the model under `cache_dir` on first use (needs the
    `onnx` extra) and reuse the file afterwards.
    """

    def __init__(
        self,
        model_path: str,
        *,
        batch_size: int = 64,
        device: str = "cpu",
        backend: str = "torch",
        cache_dir: Path | None = None,
    ) -> None:
        if backend not in EMBED_BACKENDS:
            raise UsageError(f"unknown embedding backend {backend!r} (choose {', '.join(EMBED_BACKENDS)})")
        if backend != "torch":
            reason = onnx_unavailable()
            if reason:
                raise UsageError(reason)
            if cache_dir is None:
                raise ValueError(f"the {backend} backend needs a cache_dir for its exported model")
        self.model_path = model_path
        self.backend = backend
        self.cache_dir = cache_dir
        self.name = backend_model_name(model_path.rstrip("/").split("/")[-1] or model_path, backend)
        self.batch_size = batch_size
        self.device = device
        self._model = None
        self._onnx: OnnxEncoder | None = None
        self._lock = threading.Lock()
        self._count_tokenizer = None
        self.dim = 384
        self.max_tokens = 256

    @property
    def model(self):  # type: ignore[no-untyped-def]
        with self._lock:
            if self._model is None:
                self._model = self._load()
        return self._model

    def _load(self):  # type: ignore[no-untyped-def]
        import transformers
        from sentence_transformers import SentenceTransformer

        transformers.utils.logging.disable_progress_bar()
        log.info("loading embedding model %s (%s)", self.model_path, self.backend)
        device = "cpu" if self.backend != "torch" else self.device
        model = SentenceTransformer(self.model_path, device=device, local_files_only=True)
        self.dim = int(model.get_embedding_dimension() or 384)
        self.max_tokens = int(model.max_seq_length)
        if self.backend != "torch":
            assert self.cache_dir is not None
            self._onnx = OnnxEncoder(model, ensure_onnx(model, self.model_path, self.cache_dir, self.backend))
        return model

    @property
    def _counter(self):  # type: ignore[no-untyped-def]
        """A private copy of the tokenizer for counting. A fast tokenizer keeps its truncation
        setting as state: counting (no truncation) on the copy `encode` uses (truncation on)
        would, under concurrency, let one thread's call change the other's result."""
        model = self.model
        with self._lock:
            if self._count_tokenizer is None:
                import copy

                self._count_tokenizer = copy.deepcopy(model.tokenizer)
        return self._count_tokenizer

    def count_tokens(self, text: str) -> int:
        # Includes [CLS]/[SEP], which count against the window.
        return len(self._counter(text, add_special_tokens=True, truncation=False)["input_ids"])

    def _encode(self, batch: list[str]) -> np.ndarray:
        if self._onnx is not None:
            return self._onnx.encode(batch)
        return self.model.encode(
            batch,
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )

    def embed(self, texts: list[str], *, progress: Callable[[int], None] | None = None) -> np.ndarray:
        _ = self.model
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # Each distinct text is embedded once; duplicates get a copy of its vector.
        unique = list(dict.fromkeys(texts))
        # Sorting by length keeps padding (wasted compute) low inside each batch.
        unique.sort(key=len)
        vecs = np.zeros((len(unique), self.dim), dtype=np.float32)
        for b in range(0, len(unique), self.batch_size):
            batch = unique[b : b + self.batch_size]
            vecs[b : b + len(batch)] = self._encode(batch)
            if progress:
                progress(len(batch))
        if progress and len(texts) > len(unique):
            progress(len(texts) - len(unique))
        row = {t: i for i, t in enumerate(unique)}
        return vecs[[row[t] for t in texts]]
