"""Embedders: sentence-transformers from shipped weights, and a deterministic fake for tests.

The sentence-transformers embedder runs on one of three backends: `onnx` (the settings'
default: the transformer exported once to ONNX and run by ONNX Runtime, fp32), `onnx-int8`
(the same export, dynamically quantised to int8) and `torch`. sentence-transformers' own
`backend="onnx"` needs optimum-onnx, which requires transformers < 4.58 and so cannot sit
beside transformers 5.x; the export here uses torch's exporter and ONNX Runtime directly.
Once exported, a mean-pooling model runs without torch (`rag.models.onnx_text`): a new
process answers in about 2 s instead of ~13 s of imports. Other pipelines keep
sentence-transformers' own tokenising and pooling around the ONNX transformer.
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
from rag.models.onnx import OnnxEncoder, ensure_onnx, onnx_path
from rag.models.onnx_text import OnnxTextEncoder, TextPipeline, text_pipeline

log = logging.getLogger(__name__)

EmbedBackend = Literal["torch", "onnx", "onnx-int8"]
EMBED_BACKENDS: tuple[str, ...] = get_args(EmbedBackend)
ONNX_INSTALL_HINT = "pip install -e ."


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

    `backend` "onnx"/"onnx-int8" export the model under `cache_dir` on first use and reuse
    the file afterwards. Once the export exists, a plain mean-pooling model runs without
    torch (`rag.models.onnx_text`): tokenizers + ONNX Runtime + numpy.
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
        self._text: OnnxTextEncoder | None = None
        self._lock = threading.Lock()
        self._count_tokenizer = None
        self.dim = 384
        self.max_tokens = 256

    def prepare(self) -> None:
        """Load the model now, exporting it to ONNX first if this backend needs that (once).
        Ingest and `rag serve` call it at start, so no query ever waits for an export."""
        with self._lock:
            if self._model is None and self._text is None:
                self._load()

    @property
    def exported(self) -> bool:
        """Whether this backend runs without loading torch (its ONNX file exists)."""
        if self.backend == "torch" or self.cache_dir is None:
            return False
        return onnx_path(self.cache_dir, self.model_path, self.backend).exists()

    @property
    def model(self):  # type: ignore[no-untyped-def]
        """The sentence-transformers model (loads torch; the ONNX path never needs it)."""
        with self._lock:
            if self._model is None:
                self._model = self._load_st()
        return self._model

    def _load(self) -> None:
        pipeline = text_pipeline(self.model_path) if self.backend != "torch" else None
        if pipeline is not None and self.exported:
            self._use_text(pipeline)
            return
        model = self._load_st()
        self._model = model
        if self.backend == "torch":
            return
        assert self.cache_dir is not None
        path = ensure_onnx(model, self.model_path, self.cache_dir, self.backend)
        if pipeline is None:
            self._onnx = OnnxEncoder(model, path)
        else:  # torch was only needed for the export
            self._use_text(pipeline)
            self._model = None

    def _use_text(self, pipeline: TextPipeline) -> None:
        assert self.cache_dir is not None
        log.info("loading embedding model %s (%s, without torch)", self.model_path, self.backend)
        self._text = OnnxTextEncoder(pipeline, onnx_path(self.cache_dir, self.model_path, self.backend))
        self.dim, self.max_tokens = pipeline.dim, pipeline.max_tokens

    def _load_st(self):  # type: ignore[no-untyped-def]
        import transformers
        from sentence_transformers import SentenceTransformer

        transformers.utils.logging.disable_progress_bar()
        log.info("loading embedding model %s (%s)", self.model_path, self.backend)
        device = "cpu" if self.backend != "torch" else self.device
        model = SentenceTransformer(self.model_path, device=device, local_files_only=True)
        self.dim = int(model.get_embedding_dimension() or 384)
        self.max_tokens = int(model.max_seq_length)
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
        self._ensure()
        if self._text is not None:
            return self._text.count_tokens(text)
        return len(self._counter(text, add_special_tokens=True, truncation=False)["input_ids"])

    def _ensure(self) -> None:
        if self._model is None and self._text is None:
            self.prepare()

    def _encode(self, batch: list[str]) -> np.ndarray:
        if self._text is not None:
            return self._text.encode(batch)
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
        self._ensure()
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
