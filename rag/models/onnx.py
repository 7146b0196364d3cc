"""The ONNX backends of the sentence-transformers embedder (`rag.models.embed`): the
transformer exported once to ONNX with torch's exporter, optionally quantised to int8, and
run by ONNX Runtime.
"""

from __future__ import annotations

import hashlib
import logging
import os
import platform
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from rag.errors import UsageError

# The logger these lines had before they moved out of rag/models/embed.py: logs read the same.
log = logging.getLogger("rag.models.embed")

ONNX_OPSET = 17
_EXPORT_LOCK = threading.Lock()  # one export at a time in this process; files are renamed into place


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


def onnx_path(cache_dir: Path, model_path: str, backend: str) -> Path:
    """Where the ONNX file of `backend` is (or will be) exported; nothing is loaded."""
    folder = onnx_dir(cache_dir, model_path)
    if backend == "onnx":
        return folder / "model.onnx"
    config, signed = int8_config()
    return folder / f"model_{'qint8' if signed else 'quint8'}_{config}.onnx"


def ensure_onnx(st_model: Any, model_path: str, cache_dir: Path, backend: str) -> Path:
    """The ONNX file for `backend`, exported (and quantised) on first use, then reused."""
    fp32 = onnx_path(cache_dir, model_path, "onnx")
    folder = fp32.parent
    with _EXPORT_LOCK:
        folder.mkdir(parents=True, exist_ok=True)
        if not fp32.exists():
            log.info("exporting %s to ONNX in %s (once)", model_path, folder)
            _export_fp32(st_model, fp32)
        if backend == "onnx":
            return fp32
        q = onnx_path(cache_dir, model_path, backend)
        _, signed = int8_config()
        if not q.exists():
            log.info("quantising %s to int8 (%s)", fp32, q.name)
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


def cpu_session(onnx_file: Path) -> Any:
    """An ONNX Runtime session on the CPU for an exported transformer."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    # Its threads spin while a run goes on (fast) and stop as soon as it returns: left
    # spinning, they starved the numpy and BM25 work after a query embedding on 2 cores
    # (answer p50 at 2,416 papers ~40 -> ~26 ms; batch throughput unchanged).
    opts.add_session_config_entry("session.force_spinning_stop", "1")
    # Explicit CPU: the first "available" provider can be a remote one (Azure).
    return ort.InferenceSession(str(onnx_file), opts, providers=["CPUExecutionProvider"])


class OnnxEncoder:
    """Runs the model's transformer in ONNX Runtime; tokenising and pooling stay the model's own."""

    def __init__(self, st_model: Any, onnx_file: Path) -> None:
        self.session = cpu_session(onnx_file)
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
