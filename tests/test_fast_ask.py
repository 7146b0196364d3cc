"""A cold `rag ask` stays light: the ONNX default embeds queries without torch, agrees with
torch's vectors, retrieves the same papers, and the ask path imports none of the heavy modules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rag.engine import Engine
from rag.evaluation.metrics import hit_at_1, recall_at_k
from rag.models.embed import SentenceTransformerEmbedder
from rag.models.onnx_text import text_pipeline
from rag.settings import Settings, default_model_path
from tests.conftest import DATA, EVAL, load_jsonl

# What a question must not pull in (each costs seconds and hundreds of MB to import).
# chromadb too: an embedded index's published snapshot is read from its files alone.
HEAVY = (
    "torch",
    "transformers",
    "sentence_transformers",
    "gradio",
    "llama_cpp",
    "matplotlib",
    "llama_index",
    "chromadb",
)

# Runs the CLI's own `main` in this process, then lists the heavy modules it imported.
WRAPPER = """
import json, sys
from rag.cli.main import main
rc = main(sys.argv[2:])
heavy = set(json.loads(sys.argv[1]))
loaded = sorted(m for m in sys.modules if m.split(".")[0] in heavy)
print("MODULES " + json.dumps({"rc": rc, "loaded": loaded}))
"""


def test_shipped_model_has_the_torch_free_pipeline() -> None:
    pipe = text_pipeline(default_model_path())
    assert pipe is not None and (pipe.dim, pipe.max_tokens) == (384, 256)


def test_other_pipelines_are_not_taken_for_mean_pooling(tmp_path: Path) -> None:
    src = Path(default_model_path())
    for name in ("modules.json", "sentence_bert_config.json", "config.json", "tokenizer.json"):
        (tmp_path / name).write_bytes((src / name).read_bytes())
    (tmp_path / "1_Pooling").mkdir()
    pooling = json.loads((src / "1_Pooling" / "config.json").read_text())
    (tmp_path / "1_Pooling" / "config.json").write_text(json.dumps(pooling))
    assert text_pipeline(str(tmp_path)) is not None
    pooling.update(pooling_mode_mean_tokens=False, pooling_mode_cls_token=True)
    (tmp_path / "1_Pooling" / "config.json").write_text(json.dumps(pooling))
    assert text_pipeline(str(tmp_path)) is None
    assert text_pipeline(str(tmp_path / "missing")) is None


def test_settings_default_to_onnx() -> None:
    assert Settings().embed_backend == "onnx"


@pytest.mark.slow
def test_cold_ask_imports_none_of_the_heavy_modules(real_engine: Engine) -> None:
    env = dict(os.environ, RAG_HOME=str(real_engine.settings.home), RAG_DATA_DIR=str(DATA))
    env.pop("RAG_EMBED_BACKEND", None)
    question = "Which optimizer equalizes how much each parameter contributes to reducing the loss?"
    proc = subprocess.run(
        [sys.executable, "-c", WRAPPER, json.dumps(HEAVY), "ask", question, "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("MODULES "))
    result = json.loads(line.removeprefix("MODULES "))
    answer = json.loads(proc.stdout.splitlines()[0])
    assert result["rc"] == 0 and answer["citations"], proc.stderr
    assert result["loaded"] == []
    # The chunks were embedded by the same (ONNX) backend the query uses.
    assert real_engine.store.info()["model"].endswith("+onnx")


@pytest.mark.slow
def test_onnx_vectors_agree_with_torch_on_the_shipped_corpus(real_engine: Engine) -> None:
    texts = [real_engine.retriever.snapshot.quote(cid) for cid in sorted(real_engine.retriever.snapshot.sentences)]
    assert len(texts) > 300
    onnx = real_engine.embedder.embed(texts)
    torch = SentenceTransformerEmbedder(default_model_path()).embed(texts)
    cos = np.sum(onnx * torch, axis=1)
    assert cos.min() > 1 - 1e-4
    assert real_engine.embedder.count_tokens(texts[0]) == SentenceTransformerEmbedder(
        default_model_path()
    ).count_tokens(texts[0])


def _dev_scores(engine: Engine) -> tuple[list[list[str]], float, float]:
    cases = [c for c in load_jsonl(EVAL / "dev.jsonl") if c["type"] == "single"]
    ranked = [[h.paper_id for h in engine.retriever.retrieve(c["question"], top_k=5).hits] for c in cases]
    n = len(cases)
    hit = sum(hit_at_1(r, c["gold_ids"]) for r, c in zip(ranked, cases, strict=True)) / n
    rec = sum(recall_at_k(r, c["gold_ids"], 5) for r, c in zip(ranked, cases, strict=True)) / n
    return ranked, hit, rec


@pytest.mark.slow
def test_onnx_and_torch_retrieve_alike_on_dev(real_engine: Engine, tmp_path: Path) -> None:
    torch_engine = Engine(Settings(home=tmp_path / "home", data_dir=DATA, embed_backend="torch"))
    assert torch_engine.ensure_index() is not None
    onnx_ranked, onnx_hit, onnx_rec = _dev_scores(real_engine)
    torch_ranked, torch_hit, torch_rec = _dev_scores(torch_engine)
    assert (onnx_hit, onnx_rec) == (torch_hit, torch_rec)
    assert sum(a[:1] == b[:1] for a, b in zip(onnx_ranked, torch_ranked, strict=True)) == len(onnx_ranked)
