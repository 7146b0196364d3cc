"""Embedding backends: the setting, index naming (no mixed vectors), export caching, errors."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import numpy as np
import pytest

import rag.models.embed as embed_mod
import rag.models.onnx as onnx_mod
from rag.bench.embed import measure_backends, skip_reason, window_texts
from rag.engine import Engine
from rag.errors import UsageError
from rag.models.embed import (
    SentenceTransformerEmbedder,
    backend_model_name,
    onnx_unavailable,
)
from rag.models.onnx import ensure_onnx, int8_config
from rag.settings import Settings, default_model_path, load_settings
from tests.conftest import SMALL, write_corpus
from tests.fakes import HashEmbedder

SENTENCES = [
    "We propose a diffusion model that generates protein backbones.",
    "Graph neural networks regularised by mixing node features.",
    "Quantization stores language model weights in two bits.",
    "Curiosity bonuses help agents explore when rewards are sparse.",
    "short",
]


@pytest.fixture
def onnx_ok(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend the onnx extra is installed (constructing an embedder loads nothing)."""
    monkeypatch.setattr(embed_mod, "onnx_unavailable", lambda: None)


def test_setting_defaults_to_onnx_and_reads_env(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().embed_backend == "onnx"
    monkeypatch.setenv("RAG_EMBED_BACKEND", "onnx-int8")
    assert load_settings().embed_backend == "onnx-int8"
    monkeypatch.setenv("RAG_EMBED_BACKEND", "tensorrt")
    with pytest.raises(UsageError, match="RAG_EMBED_BACKEND"):
        load_settings()


def test_backend_is_part_of_the_model_name(onnx_ok: None, tmp_path: Path) -> None:
    names = {
        b: SentenceTransformerEmbedder("/m/all-MiniLM", backend=b, cache_dir=tmp_path).name
        for b in embed_mod.EMBED_BACKENDS
    }
    # torch keeps the historical name, so existing indexes are not re-embedded for nothing.
    assert names == {"torch": "all-MiniLM", "onnx": "all-MiniLM+onnx", "onnx-int8": "all-MiniLM+onnx-int8"}
    assert backend_model_name("m", "torch") == "m"


def test_unknown_backend_is_one_clear_line() -> None:
    with pytest.raises(UsageError, match="unknown embedding backend 'tpu'"):
        SentenceTransformerEmbedder("/m", backend="tpu")


def test_missing_onnx_extra_is_one_clear_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = embed_mod.importlib.util.find_spec
    monkeypatch.setattr(embed_mod.importlib.util, "find_spec", lambda n: None if n == "onnx" else real(n))
    assert onnx_unavailable() == "the onnx embedding backends need onnx: pip install -e ."
    assert skip_reason("onnx") == onnx_unavailable()
    assert skip_reason("torch") is None
    engine = Engine(Settings(home=tmp_path, embed_backend="onnx"))
    with pytest.raises(UsageError, match=r"pip install -e \."):
        _ = engine.embedder


def test_engine_passes_backend_and_cache_dir(onnx_ok: None, tmp_path: Path) -> None:
    emb = Engine(Settings(home=tmp_path, embed_backend="onnx-int8", embed_model="/x/mini")).embedder
    assert isinstance(emb, SentenceTransformerEmbedder)
    assert (emb.backend, emb.cache_dir, emb.name) == ("onnx-int8", tmp_path / "models", "mini+onnx-int8")


class NamedHash(HashEmbedder):
    """Hashing embedder under a real embedder's index name."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name


def test_switching_backend_re_embeds_instead_of_mixing(onnx_ok: None, tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "c", "small", SMALL)
    settings = Settings(home=tmp_path / "home")
    names = [SentenceTransformerEmbedder("/m/mini", backend=b, cache_dir=tmp_path).name for b in ("torch", "onnx")]
    first = Engine(settings, embedder=NamedHash(names[0])).ingest([corpus])
    switched_engine = Engine(settings, embedder=NamedHash(names[1]))
    switched = switched_engine.ingest([corpus])
    assert (switched.updated, switched.chunks_embedded, switched.chunks_reused) == (4, first.chunks, 0)
    # Only the new backend's sentences remain: every chunk id carries a hash made with its name.
    hashes = set(switched_engine.retriever.snapshot.hashes.values())
    assert {cid.split("::")[1] for cid in switched_engine.store.sentence_ids()} <= hashes
    assert Engine(settings, embedder=NamedHash(names[1])).ingest([corpus]).chunks_embedded == 0


class FakeST:
    """Stands in for a loaded SentenceTransformer: records batches, returns text-derived vectors."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def encode(self, batch: list[str], **_: object) -> np.ndarray:
        self.batches.append(list(batch))
        return np.stack([HashEmbedder(dim=384)._vec(t + " x") for t in batch])


def test_embed_sorts_by_length_and_embeds_duplicates_once() -> None:
    emb = SentenceTransformerEmbedder("/m", batch_size=2)
    fake = FakeST()
    emb._model = fake  # type: ignore[assignment]
    texts = ["a much longer text here", "b", "cc", "b", "a much longer text here", "ddd"]
    steps: list[int] = []
    out = emb.embed(texts, progress=steps.append)
    flat = [t for b in fake.batches for t in b]
    assert sorted(flat) == sorted(set(texts)) and flat == sorted(flat, key=len)
    assert sum(steps) == len(texts)
    expected = FakeST().encode(texts)
    assert np.allclose(out, expected)


def test_export_happens_once_even_from_threads(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls: list[str] = []

    def fake_export(_model: object, dest: Path) -> None:
        calls.append("export")
        dest.write_bytes(b"fp32")

    def fake_quant(src: Path, dest: Path, signed: bool) -> None:
        calls.append("quantize")
        dest.write_bytes(src.read_bytes() + b"-int8")

    monkeypatch.setattr(onnx_mod, "_export_fp32", fake_export)
    monkeypatch.setattr(onnx_mod, "_quantize_int8", fake_quant)
    model = str(tmp_path / "weights")
    Path(model).mkdir()
    paths: list[Path] = []
    threads = [
        threading.Thread(target=lambda b=b: paths.append(ensure_onnx(None, model, tmp_path / "cache", b)))
        for b in ["onnx", "onnx-int8"] * 4
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(calls) == ["export", "quantize"]
    assert {p.name for p in paths} == {
        "model.onnx",
        f"model_{'qint8' if int8_config()[1] else 'quint8'}_{int8_config()[0]}.onnx",
    }
    assert all(p.parent.parent == tmp_path / "cache" for p in paths)


def test_int8_config_follows_cpu_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(onnx_mod.platform, "machine", lambda: "x86_64")
    monkeypatch.setattr(onnx_mod, "_cpu_flags", lambda: {"avx2", "fma"})
    assert int8_config() == ("avx2", False)
    monkeypatch.setattr(onnx_mod, "_cpu_flags", lambda: {"avx2", "avx512f", "avx512_vnni"})
    assert int8_config() == ("avx512_vnni", True)


def test_window_texts_are_distinct_and_deterministic() -> None:
    chunks = [f"sentence {i}." for i in range(10)]
    texts = window_texts(chunks, 25)
    assert len(texts) == len(set(texts)) == 25 and texts == window_texts(chunks, 25)
    assert texts[:10] == chunks and texts[10] == "sentence 0. sentence 1."


def _cos(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=1)


@pytest.fixture(scope="module")
def onnx_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One export folder for the slow tests (exporting is the slow part)."""
    reason = onnx_unavailable()
    if reason:
        if os.environ.get("CI") == "true":  # the dev extra installs it: missing means a broken setup
            pytest.fail(reason)
        pytest.skip(reason)
    return tmp_path_factory.mktemp("onnx-models")


@pytest.mark.slow
def test_onnx_export_agrees_with_torch(onnx_cache: Path) -> None:
    path = default_model_path()
    ref = SentenceTransformerEmbedder(path).embed(SENTENCES)
    fp32 = SentenceTransformerEmbedder(path, backend="onnx", cache_dir=onnx_cache).embed(SENTENCES)
    assert _cos(fp32, ref).min() > 0.99
    int8 = SentenceTransformerEmbedder(path, backend="onnx-int8", cache_dir=onnx_cache)
    vecs = int8.embed(SENTENCES)
    assert vecs.shape == ref.shape and np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert _cos(vecs, ref).mean() > 0.97
    files = [p.name for p in onnx_cache.glob("*/*")]
    assert len([f for f in files if f.endswith(".onnx")]) == 2 and not [f for f in files if f.endswith(".tmp")]
    # A second embedder reuses the exports (no tmp files left, nothing rewritten).
    before = {p: p.stat().st_mtime_ns for p in onnx_cache.glob("*/*")}
    SentenceTransformerEmbedder(path, backend="onnx-int8", cache_dir=onnx_cache).embed(["again"])
    assert {p: p.stat().st_mtime_ns for p in onnx_cache.glob("*/*")} == before


@pytest.mark.slow
def test_measure_backends_reports_numbers(onnx_cache: Path) -> None:
    result = measure_backends(SENTENCES, ["onnx", "tpu"], rounds=1, cache_dir=onnx_cache, query_repeats=2)
    assert set(result["backends"]) == {"torch", "onnx"} and "unknown backend" in result["skipped"]["tpu"]
    torch_row, onnx_row = result["backends"]["torch"], result["backends"]["onnx"]
    assert torch_row["speedup_vs_torch"] == 1.0 and torch_row["min_cos_vs_torch"] > 0.9999
    assert onnx_row["chunks_per_s"] > 0 and onnx_row["chunks_per_cpu_s"] > 0 and onnx_row["query_ms"] > 0
    assert onnx_row["min_cos_vs_torch"] > 0.99
