"""A torch-free sentence encoder over the ONNX export of `rag.models.onnx`.

Importing torch, transformers and sentence-transformers takes ~10 s and ~400 MB here, far
more than a query needs. The model's own `tokenizer.json` runs in the Rust `tokenizers`
library, its transformer in ONNX Runtime, and mean pooling plus normalisation in numpy:
the same steps sentence-transformers takes, so the vectors agree with torch's to ~1e-7.

Only models whose pipeline is exactly Transformer -> mean Pooling (-> Normalize) qualify;
`text_pipeline` says None for anything else and the embedder keeps sentence-transformers'
own modules for them.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rag.models.onnx import cpu_session

log = logging.getLogger(__name__)

_TRANSFORMER = "sentence_transformers.models.Transformer"
_POOLING = "sentence_transformers.models.Pooling"
_NORMALIZE = "sentence_transformers.models.Normalize"


@dataclass(frozen=True)
class TextPipeline:
    """What the torch-free encoder needs to know about a sentence-transformers folder."""

    tokenizer_file: Path
    max_tokens: int
    dim: int


def _read_json(path: Path) -> dict[str, Any] | list[Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict | list) else None


def text_pipeline(model_path: str) -> TextPipeline | None:
    """The model's tokenizer file, window and width if its pipeline is a transformer with
    mean pooling (and optional normalisation); None for any other pipeline."""
    root = Path(model_path)
    modules = _read_json(root / "modules.json")
    tok = root / "tokenizer.json"
    if not isinstance(modules, list) or not tok.is_file():
        return None
    kinds = [str(m.get("type", "")) for m in modules if isinstance(m, dict)]
    if kinds[:2] != [_TRANSFORMER, _POOLING] or any(k != _NORMALIZE for k in kinds[2:]):
        return None
    pooling_dir = next((str(m.get("path", "")) for m in modules if m.get("type") == _POOLING), "")
    pooling = _read_json(root / pooling_dir / "config.json")
    if not isinstance(pooling, dict) or not pooling.get("pooling_mode_mean_tokens"):
        return None
    if any(v for k, v in pooling.items() if k.startswith("pooling_mode_") and k != "pooling_mode_mean_tokens"):
        return None
    st_config = _read_json(root / "sentence_bert_config.json")
    hf_config = _read_json(root / "config.json")
    if not isinstance(st_config, dict) or not isinstance(hf_config, dict) or st_config.get("do_lower_case"):
        return None  # lower-casing outside the tokenizer file is a step this encoder lacks
    dim = int(pooling.get("word_embedding_dimension") or hf_config.get("hidden_size") or 0)
    max_tokens = int(st_config.get("max_seq_length") or 0)
    if dim <= 0 or max_tokens <= 0:
        return None
    return TextPipeline(tok, max_tokens, dim)


class OnnxTextEncoder:
    """Tokenise (Rust), run the transformer (ONNX Runtime), mean-pool and normalise (numpy)."""

    def __init__(self, pipeline: TextPipeline, onnx_file: Path) -> None:
        from tokenizers import Tokenizer

        self.pipeline = pipeline
        # Two tokenizers: truncation is state of the object, and counting must not truncate.
        self._encoder = Tokenizer.from_file(str(pipeline.tokenizer_file))
        self._encoder.enable_truncation(max_length=pipeline.max_tokens)
        pad = self._encoder.padding or {}
        pad_token = str(pad.get("pad_token") or "[PAD]")
        pad_id = self._encoder.token_to_id(pad_token)
        self._encoder.enable_padding(pad_id=0 if pad_id is None else pad_id, pad_token=pad_token)
        self._counter = Tokenizer.from_file(str(pipeline.tokenizer_file))
        self._counter.no_truncation()
        self._counter.no_padding()
        self.session = cpu_session(onnx_file)
        self.inputs = [i.name for i in self.session.get_inputs()]

    def count_tokens(self, text: str) -> int:
        """Tokens including [CLS]/[SEP], without truncation."""
        return len(self._counter.encode(text, add_special_tokens=True).ids)

    def encode(self, texts: list[str]) -> np.ndarray:
        # sentence-transformers strips each text before tokenising; so do we.
        encs = self._encoder.encode_batch([t.strip() for t in texts], add_special_tokens=True)
        mask = np.asarray([e.attention_mask for e in encs], dtype=np.int64)
        arrays = {
            "input_ids": np.asarray([e.ids for e in encs], dtype=np.int64),
            "attention_mask": mask,
            "token_type_ids": np.asarray([e.type_ids for e in encs], dtype=np.int64),
        }
        (tokens,) = self.session.run(["token_embeddings"], {n: arrays[n] for n in self.inputs})
        weights = mask[:, :, None].astype(np.float32)
        summed = (tokens.astype(np.float32) * weights).sum(axis=1)
        vecs = summed / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        return (vecs / np.where(norms == 0, 1.0, norms)).astype(np.float32)
