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

import hashlib
import importlib.util
import logging
import os
import platform
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal, Protocol, get_args

import numpy as np

from rag.errors import UsageError

log = logging.getLogger(__name__)

EmbedBackend = Literal["torch", "onnx", "onnx-int8"]
EMBED_BACKENDS: tuple[str, ...] = get_args(EmbedBackend)
ONNX_INSTALL_HINT = "pip install -e '.[onnx]'"
ONNX_OPSET = 17
_EXPORT_LOCK = threading.Lock()  # one export at a time in this process; files are renamed into place


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


def int8_config() -> tuple[str, bool]:
    """(sentence-transformers config name, signed weights?) for this CPU's int8 kernels."""
    if platform.machine().lower() in ("arm64", "aarch64"):
        return "arm64", True
    flags = _cpu_flags()
    if "avx512_vnni" in flags or "avx512vnni" in flags:
        return "avx512_vnni", True
    if "avx512f" in flags:
        return "avx512", True
    return "avx2", False


def _cpu_flags() -> set[str]:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def model_fingerprint(model_path: str) -> str:
    """Short hash of the weights' identity (path, sizes, mtimes): a changed model re-exports."""
    root = Path(model_path)
    parts = [str(root.resolve())]
    if root.is_dir():
        for f in sorted(root.iterdir()):
            if f.is_file():
                st = f.stat()
                parts.append(f"{f.name}:{st.st_size}:{int(st.st_mtime)}")
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()[:12]


def onnx_dir(cache_dir: Path, model_path: str) -> Path:
    """Where this model's exports live: `<cache_dir>/<name>-<fingerprint>/`."""
    name = Path(model_path).name or "model"
    return Path(cache_dir) / f"{name}-{model_fingerprint(model_path)}"


@contextmanager
def _written_into_place(dest: Path) -> Iterator[Path]:
    """A private temp path that becomes `dest` atomically on success (other processes may
    export the same file at the same time) and is removed on failure."""
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        yield tmp
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)


def _export_fp32(st_model: Any, dest: Path) -> None:
    """torch -> ONNX for the model's transformer (dynamic batch and sequence length)."""
    import torch

    # A padded batch, so the attention-mask path is traced too.
    feats = st_model.preprocess(["warm up", "a somewhat longer sentence to pad the batch"])
    names = [k for k in ("input_ids", "attention_mask", "token_type_ids") if k in feats]
    hf_model = getattr(st_model[0], "model", None)
    if hf_model is None or "input_ids" not in names:
        raise UsageError("the onnx embedding backends need a transformer text model; use RAG_EMBED_BACKEND=torch")
    wrapper = _token_embeddings_module(hf_model, names).eval()
    axes = {n: {0: "batch", 1: "seq"} for n in [*names, "token_embeddings"]}
    with _written_into_place(dest) as tmp, warnings.catch_warnings(), torch.inference_mode():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            wrapper,
            tuple(feats[n] for n in names),
            str(tmp),
            input_names=names,
            output_names=["token_embeddings"],
            dynamic_axes=axes,
            opset_version=ONNX_OPSET,
            dynamo=False,
        )


def _quantize_int8(src: Path, dest: Path, signed: bool) -> None:
    """Dynamic int8 quantisation, the settings of sentence-transformers' avx2/avx512/arm64 configs."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    # The quantiser logs a line per tensor on the root logger; mute it for this one-off step.
    logging.disable(logging.WARNING)
    try:
        with _written_into_place(dest) as tmp:
            quantize_dynamic(
                src,
                tmp,
                per_channel=True,
                reduce_range=False,
                weight_type=QuantType.QInt8 if signed else QuantType.QUInt8,
                extra_options={"WeightSymmetric": True, "ActivationSymmetric": False},
            )
    finally:
        logging.disable(logging.NOTSET)


def ensure_onnx(st_model: Any, model_path: str, cache_dir: Path, backend: str) -> Path:
    """The ONNX file for `backend`, exported (and quantised) on first use, then reused."""
    folder = onnx_dir(cache_dir, model_path)
    fp32 = folder / "model.onnx"
    with _EXPORT_LOCK:
        folder.mkdir(parents=True, exist_ok=True)
        if not fp32.exists():
            log.info("exporting %s to ONNX in %s (once)", model_path, folder)
            _export_fp32(st_model, fp32)
        if backend == "onnx":
            return fp32
        config, signed = int8_config()
        q = folder / f"model_{'qint8' if signed else 'quint8'}_{config}.onnx"
        if not q.exists():
            log.info("quantising %s to int8 (%s)", fp32, config)
            _quantize_int8(fp32, q, signed)
        return q


def _token_embeddings_module(model: Any, names: list[str]) -> Any:
    """Wraps a Hugging Face model so the traced graph takes positional inputs and returns
    only the token embeddings."""
    import torch

    class TokenEmbeddings(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, *args: Any) -> Any:
            return self.model(**dict(zip(names, args, strict=True)), return_dict=True).last_hidden_state

    return TokenEmbeddings()


class OnnxEncoder:
    """Runs the model's transformer in ONNX Runtime; tokenising and pooling stay the model's own."""

    def __init__(self, st_model: Any, onnx_file: Path) -> None:
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.log_severity_level = 3
        # Explicit CPU: the first "available" provider can be a remote one (Azure).
        self.session = ort.InferenceSession(str(onnx_file), opts, providers=["CPUExecutionProvider"])
        self.inputs = [i.name for i in self.session.get_inputs()]
        self.st_model = st_model

    def encode(self, texts: list[str]) -> np.ndarray:
        import torch

        feats = self.st_model.preprocess(texts)
        feed = {n: feats[n].numpy() for n in self.inputs}
        (tokens,) = self.session.run(["token_embeddings"], feed)
        feats["token_embeddings"] = torch.from_numpy(tokens)
        with torch.inference_mode():
            for module in list(self.st_model)[1:]:
                feats = module(feats)
        vecs = feats["sentence_embedding"].numpy().astype(np.float32)
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        return vecs / np.where(norms == 0, 1.0, norms)


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
